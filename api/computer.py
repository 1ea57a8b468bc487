"""The computer opponent as a client of the server (`bluegray computer`): it takes a seat over HTTP and
the websocket like any player, and plays it at its level (players/levels.py: the engine, players/engine.py,
or at `expert` the searching player, players/search.py) until the game ends.

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

from api.protocol import EventOut, Events
from eventstore.envelope import Envelope
from players.levels import computer
from players.selfplay import Player
from replay import carry, export
from rules.procedures.variable_reinforcements import must_write_down
from scenarios.library import Library
from session.games import GameCache
from session.history import History, fold_envelopes

log = logging.getLogger(__name__)

#: What the computer answers to an opponent's request (see the module).
UNDO_POLICY = "accept"
DRAW_POLICY = "decline"


@dataclass
class Seat:
    """The computer's seat: its game, token and side, and how many commands it has sent."""

    game_id: str
    token: str | None  # None: the seat is the bot account's (the session's Bearer token), not a seat token
    side: str
    sent: int = 0
    answered: set[int] = field(default_factory=set)  # undo requests and draw offers answered
    history: History | None = None  # the log folded so far (`position` folds only what is new)


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
    headers = {"Authorization": f"Bearer {seat.token}"} if seat.token is not None else None
    async with http.get(f"/api/games/{seat.game_id}/export", headers=headers) as response:
        data = await response.read()
        if response.status != 200:
            raise RuntimeError(f"export {seat.game_id}: {response.status} {data[:200]!r}")
    envelopes = export.loads(data)
    if library is not None:
        carry.hold(library, data, envelopes)
    known = seat.history
    if known is not None and 0 < known.version <= len(envelopes) and envelopes[known.version - 1].hash == known.head:
        for envelope in envelopes[known.version :]:  # the log only grows: the fold goes on from where it was
            known.apply(envelope)
    else:
        seat.history = fold_envelopes(seat.game_id, games, envelopes)
    return seat.history


async def play(
    url: str,
    game_id: str,
    *,
    invite: str | None = None,
    token: str | None = None,
    bot_token: str | None = None,
    level: str = "normal",
) -> str | None:
    """Play one seat of ``game_id`` at ``url`` to the end of the game; its result (the level of victory
    or how it ended). Give the ``invite`` to take the free seat, a seat's ``token``, or a bot
    account's ``bot_token`` to play the seat bound to that account (a tournament's game)."""
    engine = computer(level)
    library = Library(None)  # the scenario of a game on a saved one comes with its log
    games = GameCache(load=library.load, pin=library.pin)
    rng = random.Random()
    headers = {"Authorization": f"Bearer {bot_token}"} if bot_token is not None else None
    async with aiohttp.ClientSession(base_url=url, headers=headers) as http:
        try:
            if bot_token is not None:
                seat = Seat(game_id, None, side="")
                await position(http, seat, games, library)  # the account holds a seat, and the server answers
            elif token is None:
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


async def _connected(http, seat: Seat, engine: Player, games: GameCache, rng: random.Random, library: Library | None = None) -> str | None:
    """One websocket connection: act whenever the server sends the seat its choices; the result when
    the game is over, None when the connection ended first."""
    if seat.history is None:
        await position(http, seat, games, library)
    async with http.ws_connect("/ws", heartbeat=20) as ws:
        await ws.send_json(_hello(seat))
        async for frame in ws:
            if frame.type != aiohttp.WSMsgType.TEXT:
                continue
            message = msgspec.json.decode(frame.data)
            kind = message.get("type")
            if kind == "welcome":
                seat.side = message.get("seat") or seat.side
            elif kind == "events":
                result = await _on_events(ws, seat, message, frame.data)
                if result is not _GO_ON:
                    return result
            elif kind == "choices":
                result = await _on_choices(http, ws, seat, message, engine, games, rng, library)
                if result is not _GO_ON:
                    return result
            elif kind == "error" and message.get("code") not in ("conflict", "not_your_turn"):
                log.warning("computer %s: %s: %s", seat.game_id, message.get("code"), message.get("message"))
    return None


def _hello(seat: Seat) -> dict:
    """The seat's hello: its game, choices asked for, the version it holds, and its token if any."""
    hello = {"type": "hello", "game_id": seat.game_id, "choices": True, "last_version": seat.history.version}
    if seat.token is not None:
        hello["token"] = seat.token
    return hello


#: What `_on_events` and `_on_choices` answer when the connection goes on.
_GO_ON = object()


async def _on_events(ws, seat: Seat, message: dict, data: bytes):
    """Events sent: folded, each answered (an undo, a draw); the result when the game is over."""
    _follow(seat, _events.decode(data).events)
    for event in message["events"]:
        await _answer(ws, seat, event)
        if event["type"] == "game_finished":
            return event["data"].get("result") or event["data"].get("reason") or "over"
    return _GO_ON


async def _on_choices(http, ws, seat: Seat, message: dict, engine: Player, games: GameCache,
                      rng: random.Random, library: Library | None):
    """The seat's choices sent: the engine's command (or an empty write-down, Road to Richmond 17.62)
    when it is the seat's turn; the result when the game is over."""
    history = seat.history
    if history is None or history.version != message.get("version"):  # not followed: the log
        history = await position(http, seat, games, library)
    if history.finished is not None:
        return history.finished.result or history.finished.reason
    if history.session.to_act != seat.side:
        return _GO_ON  # the choices of a version already past
    if must_write_down(history.state):  # Road to Richmond 17.62, the variant: an empty list
        seat.sent += 1
        await ws.send_json(
            {"type": "write_down", "command_id": f"computer-{history.version}-{seat.sent}", "later": {}}
        )
        return _GO_ON
    command = await asyncio.to_thread(engine, history.state.copy(), rng)  # the kept fold stays as it was
    seat.sent += 1
    await ws.send_json(
        {
            "type": "command",
            "command_id": f"computer-{history.version}-{seat.sent}",
            "seen": history.version,
            "command": msgspec.to_builtins(command),
        }
    )
    return _GO_ON


_events = msgspec.json.Decoder(Events)


def _follow(seat: Seat, events: list[EventOut]) -> None:
    """Fold the events the websocket sent onto the seat's history, when they follow it: the log is
    fetched again (`position`) only when they do not."""
    history = seat.history
    for e in events:
        if history is None or e.version != history.version + 1:
            continue
        envelope = Envelope(
            version=e.version, type=e.type, schema=e.schema, payload=bytes(e.data), actor=e.actor,
            command_id=e.command_id, time=e.time, digest=bytes.fromhex(e.digest), prev=history.head,
            hash=bytes.fromhex(e.hash),
        )
        try:
            history.apply(envelope)
        except Exception:  # noqa: BLE001 - the fold fetched from the log decides, not this shortcut
            seat.history = None
            return


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
