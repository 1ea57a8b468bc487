"""A load test through the real protocol: self-playing games and spectators on websockets.

Each game is played by a bot holding both seats' connections. After a think time it sends a random
legal command for the seat the game waits for: chosen from a fold of the events it received
(`players.selfplay.random_player`), or, with ``choices``, as the web client plays: from the `choices`
the server sent (without destinations), asking the server for the `reach` of the one unit it draws
to move (`players.selfplay.summary_command`; a unit with nowhere to go: another is drawn). When a game
ends the bot starts another, and the game's spectators follow it there.

The folding and the choosing (the rules engine: milliseconds a command, as much as the server
spends on it) are done by `brain` processes (one per core, at a lower CPU priority: `brain_nice`),
never in the process that talks to the server: its event loop only sends, receives and stamps
messages, so what it measures is not its own computing, and the brains yield the CPU to the server
(on a machine short of CPU they choose more slowly: fewer commands per second, which the figures
show, rather than longer latencies).

Every game and spectator connects first; the measured period (`duration`) starts once all are.
Measured: command latency (sending a command until its `ack`), broadcast latency (an event's
append time, stamped by the server, until a spectator has the server's `view` after it (spectators
watch as the web client does: hello ``view``), or with no spectators until the opponent's socket has
the event; one clock, loopback), with ``choices`` reach latency (sending a `reach` until its reply)
and how many reaches were asked and came back empty, errors, and events appended per second. Every
loop ends at the deadline; nothing here talks to anything but the given server.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import secrets
import time
from dataclasses import dataclass, field

import aiohttp
import msgspec

from api.protocol import Ack, ChoicesOut, Error, Events, Welcome

# the brains, the figures and the messages read are modules of their own; their names are
# importable from here too (`BrainClient.spawn` runs ``from bench.loadtest import brain``)
from bench.brain import BrainClient, Picked, brain  # noqa: F401
from bench.figures import Figures, children, cpu_seconds, percentile  # noqa: F401
from bench.messages import ReachIn, ViewIn
from bench.messages import decoder as _decoder


class Refused(Exception):
    """The server answered an HTTP request of a bot with an error (its code is the message)."""


async def _answer(response: aiohttp.ClientResponse) -> dict:
    """The JSON of a successful answer; an error answer (the store restarting, say) raises Refused."""
    body = await response.json(content_type=None)
    if response.status >= 400:
        raise Refused(f"HTTP {response.status} {body.get('code') if isinstance(body, dict) else ''}")
    return body


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
        self.reaching: tuple[tuple[str, str], asyncio.Future] | None = None  # (how, unit): the reach asked
        self.choices: ChoicesOut | None = None
        self.choices_arrived = asyncio.Event()
        self.since = 1 << 62  # the welcome's version: what comes after it is broadcast, not catch-up
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        bot = self.bot
        try:
            async for frame in self.ws:
                if frame.type != aiohttp.WSMsgType.TEXT:
                    continue
                if bot.run.measuring.is_set() and not bot.run.over.is_set():
                    bot.figures.bytes_received += len(frame.data)
                self._received(_decoder.decode(frame.data), frame.data)
        except (aiohttp.ClientError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            for future in [*self.waiting.values(), *([self.reaching[1]] if self.reaching else [])]:
                if not future.done():
                    future.set_exception(ConnectionError("the connection closed"))

    def _received(self, message, data: str) -> None:
        """One message read: events, a reach's reply, an ack or error, choices, the welcome."""
        if isinstance(message, Events):
            self._events(message, data)
        elif isinstance(message, ReachIn):
            self._reached(message, data)
        elif isinstance(message, Ack | Error):
            self._answered(message)
        elif isinstance(message, ChoicesOut):
            self.choices = message
            self.choices_arrived.set()
        elif isinstance(message, Welcome):
            self.since = message.version

    def _events(self, message: Events, data: str) -> None:
        """Events: to the bot's fold, or (unwatched, measuring) their broadcast latency."""
        bot = self.bot
        now = time.time() * 1000
        if self.folds:
            bot.received(data, message.events[-1].version)
        elif not bot.watched and bot.run.measuring.is_set():
            for event in message.events:
                if event.version > self.since:  # not the catch-up on connecting
                    bot.figures.broadcast_ms.append(now - event.time)

    def _reached(self, message: ReachIn, data: str) -> None:
        """A reach's reply: to the reach asked, or an error counted."""
        if self.reaching is not None and self.reaching[0] == (message.how, message.unit):
            future, self.reaching = self.reaching[1], None
            if not future.done():  # (not given up on: a timeout)
                future.set_result((message, data))
        else:
            self.bot.figures.error("reach not asked")

    def _answered(self, message: Ack | Error) -> None:
        """An ack or an error: to the action (or reach) it answers, or an error counted."""
        future = self.waiting.pop(message.command_id or "", None)
        if future is None and message.command_id is None and self.reaching is not None:
            future = self.reaching[1]  # an action's error names it: this answers the reach
            self.reaching = None
        if future is not None and not future.done():
            future.set_result(message)
        elif isinstance(message, Error):
            self.bot.figures.error(f"error {message.code}")

    async def send(self, command_id: str, message: dict) -> Ack | Error:
        future = asyncio.get_running_loop().create_future()
        self.waiting[command_id] = future
        await self._send(msgspec.json.encode(message))
        return await future

    async def reach(self, how: str, unit: str) -> tuple[ReachIn, str] | Error:
        """Ask where ``unit`` may end a move (``how``: "move", "enter", "strategic"); the reply
        (with its frame) or the server's error."""
        future = asyncio.get_running_loop().create_future()
        self.reaching = ((how, unit), future)
        await self._send(msgspec.json.encode({"type": "reach", "unit": unit, "how": how}))
        return await future

    async def _send(self, data: bytes) -> None:
        run = self.bot.run
        if run.measuring.is_set() and not run.over.is_set():
            self.bot.figures.bytes_sent += len(data)
        await self.ws.send_bytes(data)

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
        self.index = index
        self.rng = random.Random(index)  # think times
        self.brain: BrainClient = run.brains[index % len(run.brains)]
        self.figures = run.figures
        self.watched = run.spectators > 0
        self.game_id: str | None = None
        self.version = 0  # the last version received
        self.advanced = asyncio.Event()
        self.ids = itertools.count()
        self.counted = False
        self.players: dict[str, aiohttp.ClientSession] = {}  # with --accounts

    def received(self, frame: str, version: int) -> None:
        """An `events` message for the game's fold (made by the brain)."""
        if version > self.version:
            self.brain.fold(self.game_id, frame)
            self.version = version
            self.advanced.set()

    async def until(self, version: int) -> None:
        while self.version < version:
            self.advanced.clear()
            await asyncio.wait_for(self.advanced.wait(), 30)

    async def play(self) -> None:
        run = self.run
        try:
            while time.monotonic() < run.deadline:
                try:
                    await self._game()
                except (TimeoutError, aiohttp.ClientError, ConnectionError, OSError, Refused) as exc:
                    self.figures.error(f"{type(exc).__name__}")
                    await asyncio.sleep(0.1)
        finally:
            for player in self.players.values():
                await player.close()

    async def _signed_in_players(self) -> dict[str, aiohttp.ClientSession]:
        """With --accounts: this slot's two players, each registered and signed in once, in a
        session (a cookie jar) of his own."""
        if not self.players:
            for seat in ("union", "confederate"):
                player = aiohttp.ClientSession(base_url=self.run.url, cookie_jar=aiohttp.CookieJar(unsafe=True))
                name = f"lt{self.run.tag}{self.index:04d}{seat[0]}"
                async with player.post("/api/accounts", json={"name": name, "password": f"load test {name}"}) as r:
                    player.csrf = (await r.json())["csrf"]
                self.players[seat] = player
        return self.players

    async def _accounts_game(self) -> tuple[str, list[tuple[aiohttp.ClientSession, str, dict]]]:
        """A game the way players with accounts start one: a seek, accepted; each then takes his
        seat by his session. (game id, [(session, seat, hello fields)])"""
        players = await self._signed_in_players()
        union, confederate = players["union"], players["confederate"]
        seek = {"scenario": self.run.scenario, "ruleset": self.run.ruleset, "side": "union", "rated": False}
        async with union.post("/api/seeks", json=seek, headers={"X-CSRF-Token": union.csrf}) as r:
            proposal = await r.json()
        headers = {"X-CSRF-Token": confederate.csrf}
        async with confederate.post(f"/api/lobby/{proposal['id']}/accept", json={}, headers=headers) as r:
            gid = (await r.json())["game_id"]
        return gid, [(union, "union", {"spectate": False}), (confederate, "confederate", {"spectate": False})]

    async def _game(self) -> None:
        """One game, created and joined, played until it ends, the deadline, or its last command."""
        run = self.run
        gid, joining = await self._new_game()
        self.game_id, self.version = gid, 0
        self.brain.begin(gid, self.index)
        self.figures.games_started += 1
        seats = {}
        for i, (client, seat, credential) in enumerate(joining):
            seats[seat] = await self._connect(client, credential, i == 0)
        self.slot.start(gid)
        try:
            await self.until(3)
            if not self.counted:
                self.counted = True
                ready(run)
                await asyncio.wait_for(run.measuring.wait(), run.setup_seconds)
            await self._commands(gid, seats, joining)
        finally:
            for seat in seats.values():
                await seat.close()
            self.brain.forget(gid)

    async def _new_game(self) -> tuple[str, list[tuple[aiohttp.ClientSession, str, dict]]]:
        """A new game (with --accounts: as players with accounts start one), and how each seat joins
        it: (game id, [(session, seat, hello fields)])."""
        run = self.run
        session = run.session
        if run.accounts:
            return await self._accounts_game()
        async with session.post("/api/games", json={"scenario": run.scenario, "ruleset": run.ruleset}) as r:
            game = await _answer(r)
        async with session.post(f"/api/games/{game['game_id']}/join", json={"invite": game["invite"]}) as r:
            joined = await _answer(r)
        gid = game["game_id"]
        return gid, [(session, a["seat"], {"token": a["token"]}) for a in (game, joined)]

    async def _commands(self, gid: str, seats: dict[str, Seat], joining: list) -> None:
        """The game's commands, one after another, until it ends, the deadline, or its last command."""
        run = self.run
        played = 0  # commands acknowledged in this game
        while time.monotonic() < run.deadline:
            if run.think:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * run.think)
            picked = await self._pick(gid, seats)
            if picked.error:
                self.figures.error(picked.error)
            if picked.finished:
                self.figures.games_finished += 1
                return
            if picked.command is None:  # the brain could not choose (counted as an error)
                await asyncio.sleep(0.05)
                continue
            answer = await self._command(seats[picked.side], picked)
            if isinstance(answer, Error):
                self.figures.error(f"command {answer.code}")
                await asyncio.sleep(0.05)
                continue
            self._acked(picked.side, answer)
            if time.monotonic() < run.deadline:
                self.figures.events += answer.last - answer.first + 1
            await self.until(answer.last)
            played += 1
            await self._every(seats, joining, picked.side, answer, played)
            if run.commands_per_game and played >= run.commands_per_game:
                self.figures.games_left += 1  # a new game: the server opens and closes many
                return

    async def _pick(self, gid: str, seats: dict[str, Seat]) -> Picked:
        """The brain's next command: with --choices, from the choices the server sent to the seat it
        waits for (and the reach of the unit drawn); else from its fold."""
        if not self.run.choices:
            return await self.brain.pick(gid, self.version)
        version = self.version
        seat = next(
            (s for s in seats.values() if s.choices and s.choices.version == version), None
        )
        while seat is None:
            for s in seats.values():
                s.choices_arrived.clear()
            await asyncio.wait_for(_any(s.choices_arrived for s in seats.values()), 30)
            seat = next(
                (s for s in seats.values() if s.choices and s.choices.version == version), None
            )
        picked = await self.brain.pick(gid, version, seat.choices.choices)
        while picked.reach is not None:  # the brain drew a unit to move: where may it go?
            picked = await self._reach(seat, version, *picked.reach)
        return picked

    async def _command(self, seat: Seat, picked: Picked) -> Ack | Error:
        """The command sent, again while the store restarts; its latency measured."""
        command_id = f"b{next(self.ids)}"
        message = {"type": "command", "command_id": command_id, "command": msgspec.Raw(picked.command)}
        started = time.perf_counter()
        answer = await asyncio.wait_for(seat.send(command_id, message), 30)
        while isinstance(answer, Error) and answer.code == "unavailable":  # the store restarting
            self.figures.resent += 1  # the same command_id again: applied once
            await asyncio.sleep(max(answer.retry_after or 0.0, 0.1))
            answer = await asyncio.wait_for(seat.send(command_id, message), 30)
        if time.monotonic() < self.run.deadline:
            self.figures.command_ms.append((time.perf_counter() - started) * 1000)
        return answer

    async def _every(self, seats: dict[str, Seat], joining: list, side: str, answer: Ack, played: int) -> None:
        """Every `undo_every` commands an undo asked for; every `reconnect_every` a seat reconnects."""
        run = self.run
        if run.undo_every and played % run.undo_every == 0:
            await self._undo(seats, side, answer, played // run.undo_every)
        if run.reconnect_every and played % run.reconnect_every == 0:
            again = (played // run.reconnect_every) % 2  # each seat in turn
            side, (client, _, credential) = list(seats)[again], joining[again]
            await seats[side].close()
            seats[side] = await self._connect(client, credential, again == 0, self.version)
            self.figures.reconnects += 1

    async def _connect(self, client, credential: dict, folds: bool, last_version: int = 0) -> Seat:
        """A seat's websocket, said hello to (from ``last_version``: a reconnect)."""
        ws = await client.ws_connect("/ws", max_msg_size=0, heartbeat=None)
        hello = {"type": "hello", "game_id": self.game_id, **credential, "choices": self.run.choices}
        if last_version:
            hello["last_version"] = last_version
        await ws.send_json(hello)
        return Seat(ws, self, folds)

    def _acked(self, seat: str, ack: Ack) -> None:
        if self.figures.acks is not None:
            self.figures.acks.append((self.game_id, seat, ack.command_id, ack.first, ack.last))

    async def _undo(self, seats: dict[str, Seat], side: str, done: Ack, nth: int) -> None:
        """The seat that has just acted asks to take its action back (5.17); its opponent accepts
        every other request and declines the rest. A request the rules refuse (over a die roll,
        5.14) is counted as refused."""
        undos = self.figures.undos
        command_id = f"u{next(self.ids)}"
        asked = {"type": "undo_request", "command_id": command_id, "back_to": done.first - 1}
        request = await asyncio.wait_for(seats[side].send(command_id, asked), 30)
        if isinstance(request, Error):
            undos[f"refused {request.code}"] += 1
            return
        undos["requested"] += 1
        self._acked(side, request)
        await self.until(request.last)
        other = next(s for s in seats if s != side)
        kind = "undo_accept" if nth % 2 else "undo_decline"
        command_id = f"u{next(self.ids)}"
        reply = {"type": kind, "command_id": command_id, "request": request.last}
        answer = await asyncio.wait_for(seats[other].send(command_id, reply), 30)
        if isinstance(answer, Error):
            self.figures.error(f"{kind} {answer.code}")
            return
        undos["accepted" if kind == "undo_accept" else "declined"] += 1
        self._acked(other, answer)
        await self.until(answer.last)

    async def _reach(self, seat: Seat, version: int, how: str, unit: str) -> Picked:
        """Ask the server for one unit's reach, timed; the brain's next answer, given the reply."""
        started = time.perf_counter()
        reply = await asyncio.wait_for(seat.reach(how, unit), 30)
        measured = time.monotonic() < self.run.deadline
        if isinstance(reply, Error):
            return Picked(-1, error=f"reach {reply.code}")
        message, frame = reply
        if measured:
            self.figures.reach_ms.append((time.perf_counter() - started) * 1000)
            self.figures.reaches += 1
            self.figures.empty_reaches += bytes(message.destinations) == b"{}"
        if message.version != version:
            return Picked(-1, error="reach for another version")
        return await self.brain.reached(self.game_id, frame)


async def spectate(run: Run, slot: Slot) -> None:
    """Watch the slot's games until the deadline, measuring when each event arrives.

    One plain read loop per spectator (no futures made per message: with a thousand spectators in
    this one process, what the load generator spends on each delivery delays the next socket's)."""
    figures = run.figures
    counted = [False]  # counted ready once, at its first welcome
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
            # As the web client watches: the server's view of the game after every batch of events.
            await ws.send_json(
                {"type": "hello", "game_id": gid, "spectate": True, "last_version": 0, "view": True}
            )
            await _watch(run, ws, counted)
            if not changed.is_set() and not run.over.is_set():  # the server closed it, not we
                figures.error(f"spectator closed {ws.close_code}")
        except (aiohttp.ClientError, ConnectionError) as exc:
            figures.error(f"spectator {type(exc).__name__}")
        finally:
            leave.cancel()
            await ws.close()


async def _watch(run: Run, ws, counted: list[bool]) -> None:
    """A spectator's socket read until it closes: the broadcast latency of each view after the
    welcome; the spectator counted ready at its first welcome (``counted[0]``, kept across sockets)."""
    figures = run.figures
    since = None  # the welcome's version: what comes after it is broadcast, not catch-up
    async for frame in ws:
        if frame.type != aiohttp.WSMsgType.TEXT:
            continue
        if run.measuring.is_set() and not run.over.is_set():
            figures.bytes_received += len(frame.data)
        message = _decoder.decode(frame.data)
        if isinstance(message, ViewIn):
            if since is not None and run.measuring.is_set() and message.version > since:
                figures.broadcast_ms.append(time.time() * 1000 - message.time)
        elif isinstance(message, Welcome):
            since = message.version
            if not counted[0]:
                counted[0] = True
                ready(run)
        elif isinstance(message, Error):
            figures.error(f"spectator error {message.code}")


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
    ruleset: str = "classic"
    figures: Figures = field(default_factory=Figures)
    deadline: float = 0.0
    setup_seconds: float = 300.0  # at most this long for every game and spectator to connect
    ready: int = 0
    measuring: asyncio.Event = field(default_factory=asyncio.Event)
    over: asyncio.Event = field(default_factory=asyncio.Event)  # set at the deadline
    on_measuring: object = None  # called when the measured period starts
    on_over: object = None  # and when it ends
    session: aiohttp.ClientSession | None = None
    brains: list = field(default_factory=list)  # BrainClient, one per core
    brain_nice: int = 10  # the brains' CPU priority (nice value)
    brain_cpu_start: float | None = None
    #: Players with accounts: each game's two players registered and signed in, the game made by a
    #: seek and its acceptance, each seat taken by its session cookie (api/lobby.py).
    accounts: bool = False
    tag: str = field(default_factory=lambda: secrets.token_hex(2))  # this run's account names
    #: Soak options (bench/soak.py), all off by default: leave a game after this many acknowledged
    #: commands and start another; every `undo_every`-th command asked to be taken back; every
    #: `reconnect_every`-th a seat's websocket closed and opened again from the version it had.
    commands_per_game: int = 0
    undo_every: int = 0
    reconnect_every: int = 0


def ready(config: Run) -> None:
    """One more game or spectator is connected; once all are, the measured period starts."""
    config.ready += 1
    if config.ready == config.games + config.spectators and not config.measuring.is_set():
        config.deadline = time.monotonic() + config.duration
        config.measuring.set()
        config.brain_cpu_start = cpu_seconds(*(b.process.pid for b in config.brains))
        asyncio.get_running_loop().call_later(config.duration, _over, config)
        if callable(config.on_measuring):
            config.on_measuring()


def _over(config: Run) -> None:
    """The measured period ends."""
    config.over.set()
    end = cpu_seconds(*(b.process.pid for b in config.brains))
    if end is not None and config.brain_cpu_start is not None:
        config.figures.brain_cpu_s = end - config.brain_cpu_start
    if callable(config.on_over):
        config.on_over()


async def run(config: Run) -> Figures:
    """Connect every game and spectator, then run the load for `duration` seconds against the
    server at `url` (only that period is measured); returns the figures."""
    config.brains = [
        await BrainClient.spawn(config.scenario, config.ruleset, config.brain_nice)
        for _ in range(max(1, min(4, os.cpu_count() or 1)))
    ]
    await asyncio.gather(*(client.ready() for client in config.brains))  # loaded before any game starts
    connector = aiohttp.TCPConnector(limit=0)
    try:
        async with aiohttp.ClientSession(base_url=config.url, connector=connector) as session:
            await _load(config, session)
    finally:
        for client in config.brains:
            await client.close()
    return config.figures


async def _load(config: Run, session: aiohttp.ClientSession) -> None:
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


async def _any(events) -> None:
    """Until one of the asyncio events is set."""
    waits = [asyncio.ensure_future(e.wait()) for e in events]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()
