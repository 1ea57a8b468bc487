"""A load test through the real protocol: self-playing games and spectators on websockets.

Each game is played by a bot holding both seats' connections. It folds the events it receives
(replay/history.py) and, after a think time, sends a random legal command for the seat the game
waits for: chosen from its own fold (`rules.selfplay.random_player`), or, with ``choices``, from the
`choices` the server sent (which makes the server compute them, as it does for a human's client).
When a game ends the bot starts another, and the game's spectators follow it there.

Every game and spectator connects first; the measured period (`duration`) starts once all are.
Measured: command latency (sending a command until its `ack`), broadcast latency (an event's
append time, stamped by the server, until a spectator, or with no spectators the opponent's socket,
has it; one clock, loopback), errors, and events appended per second. Every loop ends at the
deadline; nothing here talks to anything but the given server.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import time
from collections import Counter
from dataclasses import dataclass, field

import aiohttp
import msgspec

from api.protocol import Ack, ChoicesOut, Error, Events, ServerMessageType, Welcome
from replay.games import GameCache
from replay.history import History, HistoryError
from rules.legal import Choices
from rules.selfplay import random_command, random_player

_decoder = msgspec.json.Decoder(ServerMessageType)
_choices_decoder = msgspec.json.Decoder(Choices)


@dataclass
class Figures:
    """What a run measured."""

    command_ms: list[float] = field(default_factory=list)
    broadcast_ms: list[float] = field(default_factory=list)
    events: int = 0
    games_started: int = 0
    games_finished: int = 0
    errors: Counter = field(default_factory=Counter)

    def error(self, what: str) -> None:
        self.errors[what] += 1


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Slot:
    """One of the concurrent games: the game it plays now, for its spectators to follow."""

    def __init__(self) -> None:
        self.game_id: str | None = None
        self.changed = asyncio.Event()

    def start(self, game_id: str) -> None:
        self.game_id = game_id
        self.changed.set()
        self.changed = asyncio.Event()


class Seat:
    """One player connection of a bot: reads every message, hands acks and choices to the bot."""

    def __init__(self, ws, bot: Bot, folds: bool) -> None:
        self.ws = ws
        self.bot = bot
        self.folds = folds
        self.waiting: dict[str, asyncio.Future] = {}
        self.choices: ChoicesOut | None = None
        self.choices_arrived = asyncio.Event()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        bot = self.bot
        try:
            async for frame in self.ws:
                if frame.type != aiohttp.WSMsgType.TEXT:
                    continue
                message = _decoder.decode(frame.data)
                if isinstance(message, Events):
                    now = time.time() * 1000
                    for event in message.events:
                        if self.folds:
                            bot.fold(event)
                        elif not bot.watched and bot.run.measuring.is_set():
                            bot.figures.broadcast_ms.append(now - event.time)
                elif isinstance(message, Ack | Error):
                    future = self.waiting.pop(message.command_id or "", None)
                    if future is not None and not future.done():
                        future.set_result(message)
                    elif isinstance(message, Error):
                        bot.figures.error(f"error {message.code}")
                elif isinstance(message, ChoicesOut):
                    self.choices = message
                    self.choices_arrived.set()
        except (aiohttp.ClientError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError("the connection closed"))

    async def send(self, command_id: str, message: dict) -> Ack | Error:
        future = asyncio.get_running_loop().create_future()
        self.waiting[command_id] = future
        await self.ws.send_bytes(msgspec.json.encode(message))
        return await future

    async def close(self) -> None:
        await self.ws.close()
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


class Bot:
    """Plays one slot's games, one after another, until the deadline."""

    def __init__(self, run: Run, slot: Slot, index: int) -> None:
        self.run = run
        self.slot = slot
        self.rng = random.Random(index)
        self.figures = run.figures
        self.watched = run.spectators > 0
        self.history: History | None = None
        self.advanced = asyncio.Event()
        self.ids = itertools.count()
        self.counted = False

    def fold(self, event) -> None:
        from eventstore.envelope import Envelope

        h = self.history
        envelope = Envelope(
            version=event.version, type=event.type, schema=event.schema, payload=bytes(event.data),
            actor=event.actor, command_id=event.command_id, time=event.time, digest=bytes.fromhex(event.digest),
            prev=h.head, hash=bytes.fromhex(event.hash),
        )
        if event.version <= h.version:
            return
        try:
            h.apply(envelope)
        except HistoryError as exc:
            self.figures.error(f"fold: {exc}")
        self.advanced.set()

    async def until(self, version: int) -> None:
        while self.history.version < version:
            self.advanced.clear()
            await asyncio.wait_for(self.advanced.wait(), 30)

    async def play(self) -> None:
        run = self.run
        while time.monotonic() < run.deadline:
            try:
                await self._game()
            except (TimeoutError, aiohttp.ClientError, ConnectionError, OSError) as exc:
                self.figures.error(f"{type(exc).__name__}")
                await asyncio.sleep(0.1)

    async def _game(self) -> None:
        run = self.run
        session = run.session
        async with session.post("/api/games", json={"scenario": run.scenario}) as r:
            game = await r.json()
        async with session.post(f"/api/games/{game['game_id']}/join", json={"invite": game["invite"]}) as r:
            joined = await r.json()
        gid = game["game_id"]
        self.history = History(gid, run.games_cache)
        self.figures.games_started += 1
        seats = {}
        for answer, folds in ((game, True), (joined, False)):
            ws = await session.ws_connect("/ws", max_msg_size=0, heartbeat=None)
            await ws.send_json({"type": "hello", "game_id": gid, "token": answer["token"], "choices": run.choices})
            seats[answer["seat"]] = Seat(ws, self, folds)
        self.slot.start(gid)
        try:
            await self.until(3)
            if not self.counted:
                self.counted = True
                ready(run)
                await asyncio.wait_for(run.measuring.wait(), run.setup_seconds)
            while time.monotonic() < run.deadline:
                h = self.history
                if h.finished is not None:
                    self.figures.games_finished += 1
                    return
                if run.think:
                    await asyncio.sleep(self.rng.uniform(0.5, 1.5) * run.think)
                side = h.session.to_act
                seat = seats[side]
                if run.choices:
                    while seat.choices is None or seat.choices.version != h.version:
                        seat.choices_arrived.clear()
                        await asyncio.wait_for(seat.choices_arrived.wait(), 30)
                    legal = _choices_decoder.decode(seat.choices.choices)
                    command = random_command(h.state, self.rng, legal=legal)
                else:
                    command = random_player(h.state, self.rng)
                command_id = f"b{next(self.ids)}"
                started = time.perf_counter()
                answer = await asyncio.wait_for(
                    seat.send(command_id, {"type": "command", "command_id": command_id,
                                           "command": msgspec.to_builtins(command)}),
                    30,
                )
                if time.monotonic() < run.deadline:
                    self.figures.command_ms.append((time.perf_counter() - started) * 1000)
                if isinstance(answer, Error):
                    self.figures.error(f"command {answer.code}")
                    await asyncio.sleep(0.05)
                    continue
                if time.monotonic() < run.deadline:
                    self.figures.events += answer.last - answer.first + 1
                await self.until(answer.last)
        finally:
            for seat in seats.values():
                await seat.close()


async def spectate(run: Run, slot: Slot) -> None:
    """Watch the slot's games until the deadline, measuring when each event arrives.

    One plain read loop per spectator (no futures made per message: with a thousand spectators in
    this one process, what the load generator spends on each delivery delays the next socket's)."""
    figures = run.figures
    counted = False
    while time.monotonic() < run.deadline:
        if slot.game_id is None:
            await asyncio.sleep(0.05)
            continue
        gid, changed = slot.game_id, slot.changed
        try:
            ws = await run.session.ws_connect("/ws", max_msg_size=0, heartbeat=None)
        except (aiohttp.ClientError, OSError) as exc:
            figures.error(f"spectator connect {type(exc).__name__}")
            await asyncio.sleep(0.1)
            continue
        leave = asyncio.create_task(_leave_when_done(run, changed, ws))
        try:
            await ws.send_json({"type": "hello", "game_id": gid, "spectate": True, "last_version": 0})
            since = None  # the welcome's version: what comes after it is broadcast, not catch-up
            async for frame in ws:
                if frame.type != aiohttp.WSMsgType.TEXT:
                    continue
                message = _decoder.decode(frame.data)
                if isinstance(message, Events):
                    if since is not None and run.measuring.is_set():
                        now = time.time() * 1000
                        for event in message.events:
                            if event.version > since:
                                figures.broadcast_ms.append(now - event.time)
                elif isinstance(message, Welcome):
                    since = message.version
                    if not counted:
                        counted = True
                        ready(run)
                elif isinstance(message, Error):
                    figures.error(f"spectator error {message.code}")
            if not changed.is_set() and not run.over.is_set():  # the server closed it, not we
                figures.error(f"spectator closed {ws.close_code}")
        except (aiohttp.ClientError, ConnectionError) as exc:
            figures.error(f"spectator {type(exc).__name__}")
        finally:
            leave.cancel()
            await ws.close()


async def _leave_when_done(run: Run, changed: asyncio.Event, ws) -> None:
    """Close the spectator's socket once its slot moves to another game or the run is over."""
    waits = [asyncio.ensure_future(changed.wait()), asyncio.ensure_future(run.over.wait())]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()
    await ws.close()


@dataclass
class Run:
    url: str
    games: int
    spectators: int
    duration: float
    think: float
    choices: bool
    scenario: str = "chattanooga"
    figures: Figures = field(default_factory=Figures)
    deadline: float = 0.0
    setup_seconds: float = 300.0  # at most this long for every game and spectator to connect
    ready: int = 0
    measuring: asyncio.Event = field(default_factory=asyncio.Event)
    over: asyncio.Event = field(default_factory=asyncio.Event)  # set at the deadline
    on_measuring: object = None  # called when the measured period starts
    session: aiohttp.ClientSession | None = None
    games_cache: GameCache = field(default_factory=GameCache)


def ready(config: Run) -> None:
    """One more game or spectator is connected; once all are, the measured period starts."""
    config.ready += 1
    if config.ready == config.games + config.spectators and not config.measuring.is_set():
        config.deadline = time.monotonic() + config.duration
        config.measuring.set()
        asyncio.get_running_loop().call_later(config.duration, config.over.set)
        if callable(config.on_measuring):
            config.on_measuring()


async def run(config: Run) -> Figures:
    """Connect every game and spectator, then run the load for `duration` seconds against the
    server at `url` (only that period is measured); returns the figures."""
    config.games_cache.game(config.scenario, "classic", {})  # build the rules tables before the clock starts
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(base_url=config.url, connector=connector) as session:
        config.session = session
        slots = [Slot() for _ in range(config.games)]
        config.deadline = time.monotonic() + config.setup_seconds + config.duration
        tasks = [asyncio.create_task(Bot(config, slot, i).play()) for i, slot in enumerate(slots)]
        tasks += [asyncio.create_task(spectate(config, slots[i % len(slots)])) for i in range(config.spectators)]
        await asyncio.wait(tasks, timeout=config.setup_seconds + config.duration + 60)
        config.over.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return config.figures
