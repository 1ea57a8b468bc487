"""The computer opponent as a client of the server (`bluegray computer`): it takes a seat over HTTP and
the websocket like any player, and plays it with the engine (players/engine.py) until the game ends.

It runs in a process of its own, never on a server's event loop: `POST /api/games` with `"computer"`
starts one with the invite of the other seat. The position it thinks about is the game's own log,
fetched with the seat's token (`GET /api/games/{id}/export`) and folded by the rules whenever the
server sends it its `choices`; the engine never sees the game's dice (their seed stays on the server
until the game ends). The engine's work runs in a thread so that the websocket's heartbeats are
answered meanwhile.

Its policy, stated: it accepts every undo its opponent asks for (it is a practice partner; the
history keeps both the request and the take-back), it declines every draw offer, and it never asks
for an undo itself. A dropped connection is reconnected (a second, then doubling to 30 s).
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass, field

import aiohttp
import msgspec

from players.engine import Engine
from replay import carry, export
from replay.games import GameCache
from replay.history import fold_envelopes
from rules.procedures.variable_reinforcements import must_write_down
from scenarios.library import Library

log = logging.getLogger(__name__)

#: What the computer answers to an opponent's request (see the module).
UNDO_POLICY = "accept"
DRAW_POLICY = "decline"


@dataclass
class Seat:
    """The computer's seat: its game, token and side, and how many commands it has sent."""

    game_id: str
    token: str
    side: str
    sent: int = 0
    answered: set[int] = field(default_factory=set)  # undo requests and draw offers answered


async def join(http: aiohttp.ClientSession, game_id: str, invite: str) -> Seat:
    """Take the other seat of ``game_id`` with its invite code."""
    async with http.post(f"/api/games/{game_id}/join", json={"invite": invite}) as response:
        body = await response.json()
        if response.status != 200:
            raise RuntimeError(f"join {game_id}: {body.get('code')}: {body.get('message')}")
    return Seat(game_id, body["token"], body["seat"])


async def position(http: aiohttp.ClientSession, seat: Seat, games: GameCache, library: Library | None = None):
    """The game's history now, from its log (the seat's view of it). A game on a saved scenario: the
    log carries it (replay/carry.py), kept in ``library``, which ``games`` loads through."""
    headers = {"Authorization": f"Bearer {seat.token}"}
    async with http.get(f"/api/games/{seat.game_id}/export", headers=headers) as response:
        data = await response.read()
        if response.status != 200:
            raise RuntimeError(f"export {seat.game_id}: {response.status} {data[:200]!r}")
    envelopes = export.loads(data)
    if library is not None:
        carry.hold(library, data, envelopes)
    return fold_envelopes(seat.game_id, games, envelopes)


async def play(url: str, game_id: str, *, invite: str | None = None, token: str | None = None, level: str = "normal") -> str | None:
    """Play one seat of ``game_id`` at ``url`` to the end of the game; its result (the level of victory
    or how it ended). Give the ``invite`` to take the free seat, or a seat's ``token``."""
    engine = Engine(level)
    library = Library(None)  # the scenario of a game on a saved one comes with its log
    games = GameCache(load=library.load, pin=library.pin)
    rng = random.Random()
    async with aiohttp.ClientSession(base_url=url) as http:
        try:
            if token is None:
                if invite is None:
                    raise ValueError("an invite or a token is needed")
                seat = await join(http, game_id, invite)
            else:
                seat = Seat(game_id, token, side="")
                await position(http, seat, games, library)  # the token is this game's, and the server answers
        except aiohttp.ClientError as exc:
            raise RuntimeError(f"cannot reach the server at {url}: {exc}") from None
        delay = 1.0
        while True:
            try:
                result = await _connected(http, seat, engine, games, rng, library)
                if result is not None:
                    return result
            except (TimeoutError, aiohttp.ClientError) as exc:
                log.warning("computer %s: connection lost (%s); again in %.0f s", game_id, exc, delay)
            await asyncio.sleep(delay)
            delay = min(30.0, delay * 2)


async def _connected(http, seat: Seat, engine: Engine, games: GameCache, rng: random.Random, library: Library | None = None) -> str | None:
    """One websocket connection: act whenever the server sends the seat its choices; the result when
    the game is over, None when the connection ended first."""
    async with http.ws_connect("/ws", heartbeat=20) as ws:
        await ws.send_json({"type": "hello", "game_id": seat.game_id, "token": seat.token, "choices": True})
        async for frame in ws:
            if frame.type != aiohttp.WSMsgType.TEXT:
                continue
            message = msgspec.json.decode(frame.data)
            kind = message.get("type")
            if kind == "welcome":
                seat.side = message.get("seat") or seat.side
            elif kind == "events":
                for event in message["events"]:
                    await _answer(ws, seat, event)
                    if event["type"] == "game_finished":
                        return event["data"].get("result") or event["data"].get("reason") or "over"
            elif kind == "choices":
                history = await position(http, seat, games, library)
                if history.finished is not None:
                    return history.finished.result or history.finished.reason
                if history.session.to_act != seat.side:
                    continue  # the choices of a version already past
                if must_write_down(history.state):  # Road to Richmond 17.62, the variant: an empty list
                    seat.sent += 1
                    await ws.send_json(
                        {"type": "write_down", "command_id": f"computer-{history.version}-{seat.sent}", "later": {}}
                    )
                    continue
                command = await asyncio.to_thread(engine, history.state, rng)
                seat.sent += 1
                await ws.send_json(
                    {
                        "type": "command",
                        "command_id": f"computer-{history.version}-{seat.sent}",
                        "seen": history.version,
                        "command": msgspec.to_builtins(command),
                    }
                )
            elif kind == "error" and message.get("code") not in ("conflict", "not_your_turn"):
                log.warning("computer %s: %s: %s", seat.game_id, message.get("code"), message.get("message"))
    return None


async def _answer(ws, seat: Seat, event: dict) -> None:
    """The stated policy: accept an undo, decline a draw (each once)."""
    version = event["version"]
    if event.get("actor") == seat.side or version in seat.answered:
        return
    if event["type"] == "undo_requested":
        seat.answered.add(version)
        seat.sent += 1
        await ws.send_json({"type": "undo_accept", "command_id": f"computer-undo-{version}", "request": version})
    elif event["type"] == "draw_offered":
        seat.answered.add(version)
        await ws.send_json({"type": "draw_decline", "command_id": f"computer-draw-{version}"})
