"""The brains of the load test (bench/loadtest.py): folding each game's events and choosing the
next command, in processes of their own (`brain`), asked by the load generator's event loop
(`BrainClient`): length-prefixed msgpack both ways."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import sys
from typing import TYPE_CHECKING

import msgspec

from api.protocol import Events

if TYPE_CHECKING:  # the rules engine is loaded by the brains only
    from players.selfplay import Reaching
    from rules.core.commands import Command
    from rules.legal import Destination


# -- the brains: folding and choosing, in processes of their own -----------------------------------
class _Begin(msgspec.Struct, tag="begin"):
    game: str
    index: int


class _Fold(msgspec.Struct, tag="fold"):
    game: str
    frame: str  # an `events` message as received


class _Pick(msgspec.Struct, tag="pick"):
    id: int
    game: str
    version: int  # what the bot has received (the fold has it: it was sent first)
    choices: bytes | None = None  # the `choices` JSON the server sent, with --choices


class _Reached(msgspec.Struct, tag="reached"):
    id: int
    game: str
    frame: str  # the server's `reach` reply to what the last answer asked, as received


class _Forget(msgspec.Struct, tag="forget"):
    game: str


class Picked(msgspec.Struct):
    id: int
    side: str | None = None  # the seat the command is for
    command: bytes | None = None  # its JSON
    reach: tuple[str, str] | None = None  # or: no command yet, first ask the server this (how, unit)
    finished: bool = False
    error: str | None = None


_ToBrain = _Begin | _Fold | _Pick | _Reached | _Forget


class BrainClient:
    """A brain process (`brain`), asked from the load generator's event loop: length-prefixed
    msgpack both ways; only `pick` waits for an answer."""

    def __init__(self, process) -> None:
        self.process = process
        self.waiting: dict[int, asyncio.Future] = {}
        self.ids = itertools.count()
        self.encoder = msgspec.msgpack.Encoder()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def spawn(cls, scenario: str, ruleset: str, nice: int) -> BrainClient:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            f"from bench.loadtest import brain; brain({scenario!r}, {ruleset!r}, {int(nice)})",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        return cls(process)

    def _send(self, message) -> None:
        data = self.encoder.encode(message)
        self.process.stdin.write(len(data).to_bytes(4, "big") + data)

    def begin(self, game: str, index: int) -> None:
        self._send(_Begin(game, index))

    def fold(self, game: str, frame: str) -> None:
        self._send(_Fold(game, frame))

    def forget(self, game: str) -> None:
        if self.process.returncode is None and not self.process.stdin.is_closing():
            self._send(_Forget(game))

    async def ready(self) -> None:
        """Until the brain has loaded the rules (it answers a pick of no game)."""
        await self.pick("", 0)

    async def pick(self, game: str, version: int, choices: bytes | None = None) -> Picked:
        raw = bytes(choices) if choices is not None else None
        return await self._ask(lambda ask: _Pick(ask, game, version, raw))

    async def reached(self, game: str, frame: str) -> Picked:
        """The pick goes on with the reach the last answer asked for."""
        return await self._ask(lambda ask: _Reached(ask, game, frame))

    async def _ask(self, message) -> Picked:
        future = asyncio.get_running_loop().create_future()
        ask = next(self.ids)
        self.waiting[ask] = future
        self._send(message(ask))
        return await asyncio.wait_for(future, 60)

    async def _read(self) -> None:
        decoder = msgspec.msgpack.Decoder(Picked)
        stdout = self.process.stdout
        try:
            while True:
                size = int.from_bytes(await stdout.readexactly(4), "big")
                picked = decoder.decode(await stdout.readexactly(size))
                future = self.waiting.pop(picked.id, None)
                if future is not None and not future.done():
                    future.set_result(picked)
        except (asyncio.IncompleteReadError, ConnectionError, msgspec.DecodeError):
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError("the brain process ended"))

    async def close(self) -> None:
        self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 10)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader


def brain(scenario: str, ruleset: str, nice: int) -> None:
    """A brain process: folds each game's events as the bot received them and picks the next
    command when asked. At a low CPU priority (`nice`): the server and the load generator's sockets
    go first."""
    # loaded here, before the clock starts, as the rules engine is; `_fold` and `_picked` use them
    from eventstore.envelope import Envelope  # noqa: F401
    from players.selfplay import random_player, summary_command  # noqa: F401
    from rules.legal import Choices, Destination
    from session.games import GameCache
    from session.history import History, HistoryError  # noqa: F401

    os.nice(nice)
    cache = GameCache()
    cache.game(scenario, ruleset, {})  # the rules tables, built before the clock starts
    games: dict[str, tuple[History, random.Random, list[str]]] = {}  # history, rng, fold errors
    picking: dict[str, tuple[tuple[str, str], Reaching]] = {}  # per game: the reach asked, the pick asking
    decoder = msgspec.msgpack.Decoder(_ToBrain)
    events = msgspec.json.Decoder(Events)
    choices = msgspec.json.Decoder(Choices)
    # what the brain reads of a `reach` reply
    reaches = msgspec.json.Decoder(
        msgspec.defstruct("Reach", [("unit", str), ("how", str), ("destinations", dict[str, Destination])])
    )
    encoder = msgspec.msgpack.Encoder()
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while header := stdin.read(4):
        message = decoder.decode(stdin.read(int.from_bytes(header, "big")))
        if isinstance(message, _Fold):
            h, _, errors = games[message.game]
            _fold(h, errors, events.decode(message.frame).events)
        elif isinstance(message, _Pick) and message.game not in games:  # `ready`
            data = encoder.encode(Picked(message.id, finished=True))
            stdout.write(len(data).to_bytes(4, "big") + data)
            stdout.flush()
        elif isinstance(message, _Pick | _Reached):
            h, rng, errors = games[message.game]
            picked = _picked(message, h, rng, errors, picking, reaches, choices)
            data = encoder.encode(picked)
            stdout.write(len(data).to_bytes(4, "big") + data)
            stdout.flush()
        elif isinstance(message, _Begin):
            games[message.game] = (History(message.game, cache), random.Random(message.index), [])
        else:
            games.pop(message.game, None)
            picking.pop(message.game, None)


def _step(pick: Reaching, destinations: dict[str, Destination] | None = None) -> tuple[str, str] | Command:
    """Run a ``summary_command`` on (sent the destinations it asked for, if any) to the next
    ``(how, unit)`` it asks about, or to its command."""
    try:
        return pick.send(destinations)
    except StopIteration as done:
        return done.value


def _fold(h, errors: list[str], events) -> None:
    """The events a bot received folded onto the game's history (those it has not yet); an error
    noted for a fold that fails."""
    from eventstore.envelope import Envelope
    from session.history import HistoryError

    for event in events:
        if event.version <= h.version:
            continue
        envelope = Envelope(
            version=event.version,
            type=event.type,
            schema=event.schema,
            payload=bytes(event.data),
            actor=event.actor,
            command_id=event.command_id,
            time=event.time,
            digest=bytes.fromhex(event.digest),
            prev=h.head,
            hash=bytes.fromhex(event.hash),
        )
        try:
            h.apply(envelope)
        except HistoryError as exc:
            errors.append(f"fold: {exc}")


def _picked(message: _Pick | _Reached, h, rng: random.Random, errors: list[str],
            picking: dict, reaches, choices) -> Picked:
    """The answer to a pick or a reach given: the command, the reach to ask the server first, the game
    finished, or an error."""
    from players.selfplay import random_player, summary_command

    picked = Picked(message.id, error=errors.pop() if errors else None)
    asked, pick = picking.pop(message.game, (None, None))
    if h.finished is not None:
        picked.finished = True
    else:
        try:
            if isinstance(message, _Reached):
                reply = reaches.decode(message.frame)
                if pick is None or asked != (reply.how, reply.unit):
                    raise ValueError(f"a reach of {reply.how} {reply.unit} not asked for")
                got = _step(pick, reply.destinations)
            elif message.choices is not None:  # the server's choices; destinations asked per unit
                pick = summary_command(choices.decode(message.choices), rng)
                got = _step(pick)
            else:
                got = random_player(h.state, rng)
            if isinstance(got, tuple):  # (how, unit): the server's reach first
                picked.reach = got
                picking[message.game] = (got, pick)
            else:
                picked.side, picked.command = h.session.to_act, msgspec.json.encode(got)
        except Exception as exc:  # a dead end or a bug of the rules: counted, the run goes on
            picked.error = f"brain: {type(exc).__name__}: {exc}"
    return picked
