"""Clients for the API tests: HTTP helpers and a websocket client that keeps its own copy of the
game by folding every event it receives (checking each event's chain hash and state digest), so a
test sees exactly what a real client would."""

from __future__ import annotations

import asyncio
import itertools
import random

import aiohttp
import msgspec
from aiohttp import WSMsgType

from api.protocol import Ack, ChoicesOut, Error, Events, ServerMessageType, Snapshot, Welcome
from eventstore.envelope import GENESIS, Envelope
from players.selfplay import random_player
from session.games import GameCache
from session.history import History
from session.visibility import is_withheld_copy

PATIENCE = 60  # seconds: a guard against hanging forever, never a measure of speed
GAMES = GameCache()
SEED_HEX = bytes(range(32)).hex()
_decoder = msgspec.json.Decoder(ServerMessageType)
_ids = itertools.count(1)


async def create(client, **body) -> dict:
    body.setdefault("scenario", "chattanooga")
    options = body.setdefault("options", {})
    if options.setdefault("dice", "insecure") == "insecure":
        options.setdefault("seed", SEED_HEX)
    response = await client.post("/api/games", json=body)
    assert response.status == 201, await response.text()
    return await response.json()


async def join(client, game: dict, nonce: str = "joiner-nonce-1") -> dict:
    response = await client.post(f"/api/games/{game['game_id']}/join", json={"invite": game["invite"], "dice_nonce": nonce})
    assert response.status == 200, await response.text()
    return await response.json()


async def new_game(client, **body) -> tuple[dict, dict]:
    """A created and joined game: (the creator's answer, the joiner's answer)."""
    game = await create(client, **body)
    return game, await join(client, game)


class WsClient:
    """One websocket connection. `events` holds every event received (as envelopes, chain-checked);
    `history` their fold (digests checked); `inbox` every other message, in order."""

    def __init__(self, client, game_id: str, token: str | None = None) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.welcome: Welcome | None = None
        self.history = History(game_id, GAMES)
        self.events: list[Envelope] = []
        self.snapshots: list[Snapshot] = []
        self.choices: ChoicesOut | None = None
        self.inbox: list = []
        self.base = 0  # after a snapshot of a later version than it had: that version
        self.base_head = GENESIS

    @property
    def seat(self) -> str | None:
        return self.welcome.seat if self.welcome else None

    @property
    def version(self) -> int:
        return self.events[-1].version if self.events else self.base

    async def connect(self, last_version: int | None = None, choices: bool = False, **hello) -> WsClient:
        self.ws = await self.client.ws_connect("/ws")
        message = {"type": "hello", "game_id": self.game_id, "last_version": self.version if last_version is None else last_version,
                   "choices": choices, **hello}
        if self.token:
            message["token"] = self.token
        elif "spectate" not in hello:  # spectate=False: the seat the signed-in session holds
            message["spectate"] = True
        await self.ws.send_json(message)
        self.welcome = await self.expect(Welcome)
        await self.until_version(self.welcome.version)
        return self

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def send(self, **message) -> None:
        await self.ws.send_bytes(msgspec.json.encode(message))

    async def receive(self):
        """The next message (events are folded on the way)."""
        frame = await asyncio.wait_for(self.ws.receive(), PATIENCE)
        if frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.ERROR):
            raise ConnectionError(f"closed: {frame.data} {frame.extra}")
        data = frame.data.encode() if isinstance(frame.data, str) else frame.data
        message = _decoder.decode(data)
        if isinstance(message, Events):
            for event in message.events:
                self._fold(event)
        elif isinstance(message, Snapshot):
            self.snapshots.append(message)
            if message.version > self.version:  # jump there: this copy can no longer be folded
                self.events.clear()
                self.base, self.base_head, self.history = message.version, bytes.fromhex(message.head), None
        elif isinstance(message, ChoicesOut):
            self.choices = message
        return message

    def _fold(self, event) -> None:
        prev = self.events[-1].hash if self.events else self.base_head
        assert event.version == self.version + 1, f"got version {event.version} after {self.version}"
        envelope = Envelope(
            version=event.version, type=event.type, schema=event.schema, payload=bytes(event.data), actor=event.actor,
            command_id=event.command_id, time=event.time, digest=bytes.fromhex(event.digest), prev=prev,
            hash=bytes.fromhex(event.hash),
        )
        assert envelope.expected_hash() == envelope.hash or (self.seat is None and is_withheld_copy(envelope)), (
            f"version {event.version}: the chain hash does not match"
        )  # a spectator's copy of a withheld chat line keeps the real line's hash (session/visibility.py)
        self.events.append(envelope)
        if self.history is not None:
            self.history.apply(envelope, check_digest=True)

    async def expect(self, kind):
        """The first message of type `kind` in `inbox` (taken out), else the next one received;
        everything else received meanwhile is kept in `inbox`."""
        for i, message in enumerate(self.inbox):
            if isinstance(message, kind):
                return self.inbox.pop(i)
        while True:
            message = await self.receive()
            if isinstance(message, kind):
                return message
            self.inbox.append(message)

    async def until_version(self, version: int) -> None:
        while self.version < version:
            message = await self.receive()
            if not isinstance(message, Events):
                self.inbox.append(message)

    async def act(self, type: str, command_id: str | None = None, **fields) -> Ack | Error:
        """Send an action and return its ack or error (messages before it are processed)."""
        command_id = command_id or f"c{next(_ids)}"
        await self.send(type=type, command_id=command_id, **fields)
        while True:
            message = await self.receive()
            if isinstance(message, Ack | Error) and message.command_id == command_id:
                return message
            self.inbox.append(message)

    async def command(self, command, **fields) -> Ack | Error:
        return await self.act("command", command=msgspec.to_builtins(command), **fields)

    async def play_random(self, rng: random.Random, **fields) -> Ack | Error:
        """A random legal command from this client's own copy of the game."""
        return await self.command(random_player(self.history.state, rng), **fields)


async def play_steps(union: WsClient, confederate: WsClient, rng: random.Random, n: int) -> int:
    """Up to `n` random commands, each by the client whose seat the game waits for; both clients
    are up to date before each one. Returns how many were played (fewer when the game ends)."""
    seats = {"union": union, "confederate": confederate}
    for played in range(n):
        for c in seats.values():
            await c.until_version(max(s.version for s in seats.values()))
        if union.history.finished:
            return played
        mover = seats[union.history.session.to_act]
        ack = await mover.play_random(rng)
        assert isinstance(ack, Ack), ack
        await mover.until_version(ack.last)
    for c in seats.values():
        await c.until_version(max(s.version for s in seats.values()))
    return n


async def play_until(union: WsClient, confederate: WsClient, rng: random.Random, done, limit: int = 600) -> None:
    """Play random commands until `done(history)` holds (bounded by `limit` commands)."""
    for _ in range(limit):
        if done(union.history):
            return
        assert await play_steps(union, confederate, rng, 1) == 1, "the game ended first"
    raise AssertionError("never reached")


async def play_game(union: WsClient, confederate: WsClient, rng: random.Random, max_commands: int = 5000) -> int:
    """Both clients play random commands until the game ends; returns the commands sent."""
    played = await play_steps(union, confederate, rng, max_commands)
    assert union.history.finished, "the game did not end"
    return played


_probes = itertools.count(1)


async def answers(c: WsClient, raw: bytes, *, text: bool = False) -> list:
    """The answers to `raw` (sent as a text frame when `text`, its bytes as they are): it is followed
    by a probe (a message of an unknown type, answered `unknown_type` naming it), and what arrives
    between the two, besides the events and choices every client receives, answers `raw`."""
    if text:
        await c.ws._writer.send_frame(raw, WSMsgType.TEXT)  # aiohttp's send_str would refuse bad UTF-8
    else:
        await c.ws.send_bytes(raw)
    probe = f"probe-{next(_probes)}"
    await c.ws.send_bytes(b'{"type": "%s"}' % probe.encode())
    got = []
    while True:
        message = await c.receive()
        if isinstance(message, Error) and message.code == "unknown_type" and probe in message.message:
            return got
        if not isinstance(message, Events | ChoicesOut | Snapshot):
            got.append(message)


async def one_answer(c: WsClient, raw: bytes, **how):
    got = await answers(c, raw, **how)
    assert len(got) == 1, got
    return got[0]


async def unsaid(client, game_id: str, token: str | None = None) -> WsClient:
    """A connection that has not said hello yet."""
    c = WsClient(client, game_id, token)
    c.ws = await client.ws_connect("/ws")
    return c
