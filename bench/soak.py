"""A soak: the load test's bots (bench/loadtest.py) for many minutes against one `serve` and its
embedded store, with the faults of a long life, and the memory of both sampled throughout.

The bots create games, play a few dozen commands, leave and create another (the server opens and
closes a live game each time: `commands_per_game`); spectators follow each slot from game to game
(joining and leaving); every `undo_every`-th command is asked to be taken back and the opponent
accepts or declines in turn; every `reconnect_every`-th a seat's websocket is closed and opened again
from the version it had. Every `kill_every` seconds the store is SIGKILLed (the server's supervisor,
eventstore/supervisor.py, starts it again: the bots' commands answered `unavailable` meanwhile are
sent again with the same `command_id`). Every `sample_every` seconds the server's RSS and the
store's `used_memory` are sampled. At the end every acknowledged command is looked for in its game's
log: once, at the versions its ack named (as tests/api/test_store_outage.py checks).

The verdict (`verdict`): RSS at the end of the warm-up (the first `WARMUP` of the run) against RSS at
the end; growth above `max_growth` fails, and a linear fit of RSS over the games created since the
warm-up says how much each game would hold if it were a leak.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from bench.loadtest import Figures, Run
from bench.loadtest import run as load

#: The part of the run whose growth is not judged: caches filling (api/live/, rules/core/state.py
#: `kept`, session/games.py), the allocator's arenas, the store's first AOF rewrite.
WARMUP = 1 / 6


@dataclass
class Sample:
    """The memory at one moment of the run."""

    seconds: float  # since the load started
    games: int  # games created so far
    commands: int  # commands acknowledged so far
    server_rss_mib: float | None
    store_used_mib: float | None  # the store's INFO used_memory (None: it was down)
    store_rss_mib: float | None


@dataclass
class Kill:
    """One SIGKILL of the store."""

    seconds: float  # since the load started
    pid: int
    recovered_s: float | None  # until the server's /healthz was 200 again (None: not within `patience`)


@dataclass
class Soak:
    """What to run and how: see `bluegray soak --help` (bench/commands/soak.py)."""

    url: str  # the server's address
    server_pid: int
    store_url: str
    store_pid_file: Path  # where the embedded store writes its pid (a new one after each restart)
    seconds: float
    games: int = 10
    spectators: int = 10
    think: float = 1.0
    commands_per_game: int = 40
    undo_every: int = 15
    reconnect_every: int = 25
    kill_every: float = 600.0  # seconds; 0: never
    sample_every: float = 30.0
    brain_nice: int = 10
    patience: float = 60.0  # seconds a killed store may take to be back
    progress: object = print  # called with each progress line
    figures: Figures = field(default_factory=lambda: Figures(acks=[]))
    samples: list[Sample] = field(default_factory=list)
    kills: list[Kill] = field(default_factory=list)


@dataclass
class Verdict:
    ok: bool
    warm: Sample | None  # the sample that ends the warm-up
    end: Sample | None
    growth: float | None  # (end RSS - warm RSS) / warm RSS
    per_game_kib: float | None  # the slope of RSS over games created after the warm-up
    says: str


def rss_mib(pid: int) -> float | None:
    """A process's resident memory, MiB (Linux /proc), or None."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        return round(int(status.split("VmRSS:", 1)[1].split()[0]) / 1024, 1)
    except (OSError, IndexError, ValueError):
        return None


def store_pid(soak: Soak) -> int | None:
    try:
        return int(soak.store_pid_file.read_text())
    except (OSError, ValueError):
        return None


async def used_memory_mib(store_url: str) -> float | None:
    """The store's INFO used_memory, MiB; None while it is down."""
    from redis import asyncio as aioredis

    client = aioredis.Redis.from_url(store_url, socket_timeout=2, socket_connect_timeout=2)
    try:
        return round((await client.info("memory"))["used_memory"] / 2**20, 1)
    except Exception:  # down, restarting, loading its AOF
        return None
    finally:
        await client.aclose()


async def run(soak: Soak) -> None:
    """The load, the sampler and the killer until the end of the run; then the acks checked
    (`lost`)."""
    started = asyncio.Event()
    began: list[float] = []

    def on_measuring() -> None:
        began.append(time.monotonic())
        started.set()

    config = Run(
        url=soak.url,
        games=soak.games,
        spectators=soak.spectators,
        duration=soak.seconds,
        think=soak.think,
        choices=False,
        brain_nice=soak.brain_nice,
        figures=soak.figures,
        on_measuring=on_measuring,
        commands_per_game=soak.commands_per_game,
        undo_every=soak.undo_every,
        reconnect_every=soak.reconnect_every,
    )
    loading = asyncio.create_task(load(config))
    watchers: list[asyncio.Task] = []
    try:
        await _first(started, loading)
        if not loading.done():
            watchers.append(asyncio.create_task(_sample(soak, began[0])))
            if soak.kill_every > 0:
                watchers.append(asyncio.create_task(_kill(soak, began[0])))
        await loading
    finally:
        for task in watchers:
            task.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        if not loading.done():
            loading.cancel()
            await asyncio.gather(loading, return_exceptions=True)
    soak.samples.append(await _one_sample(soak, time.monotonic() - began[0]))


async def _first(event: asyncio.Event, task: asyncio.Task) -> None:
    waiting = asyncio.ensure_future(event.wait())
    try:
        await asyncio.wait([waiting, task], return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()


async def _one_sample(soak: Soak, seconds: float) -> Sample:
    pid = store_pid(soak)
    figures = soak.figures
    return Sample(
        seconds=round(seconds, 1),
        games=figures.games_started,
        commands=len(figures.acks or ()),
        server_rss_mib=rss_mib(soak.server_pid),
        store_used_mib=await used_memory_mib(soak.store_url),
        store_rss_mib=None if pid is None else rss_mib(pid),
    )


async def _sample(soak: Soak, began: float) -> None:
    while True:
        sample = await _one_sample(soak, time.monotonic() - began)
        soak.samples.append(sample)
        f = soak.figures
        soak.progress(
            f"{sample.seconds:7.0f} s  games {sample.games:5d}  commands {sample.commands:6d}  server RSS "
            f"{sample.server_rss_mib} MiB  store used {sample.store_used_mib} MiB (RSS {sample.store_rss_mib})"
            f"  kills {len(soak.kills)}  errors {sum(f.errors.values())}"
        )
        await asyncio.sleep(soak.sample_every)


async def _kill(soak: Soak, began: float) -> None:
    """Every `kill_every` seconds: SIGKILL the store, then time until /healthz is 200 again."""
    async with aiohttp.ClientSession(base_url=soak.url) as http:
        while True:
            await asyncio.sleep(soak.kill_every)
            pid = store_pid(soak)
            if pid is None:
                continue
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            at = time.monotonic()
            recovered = None
            while time.monotonic() - at < soak.patience:
                await asyncio.sleep(0.1)
                if store_pid(soak) not in (None, pid) and await _healthy(http):
                    recovered = round(time.monotonic() - at, 2)
                    break
            soak.kills.append(Kill(round(at - began, 1), pid, recovered))
            soak.progress(
                f"{at - began:7.0f} s  store (pid {pid}) SIGKILLed: "
                + (f"healthy again after {recovered} s" if recovered is not None else f"not back in {soak.patience:g} s")
            )


async def _healthy(http: aiohttp.ClientSession) -> bool:
    try:
        async with http.get("/healthz", timeout=aiohttp.ClientTimeout(total=2)) as r:
            return r.status == 200
    except (aiohttp.ClientError, TimeoutError, OSError):
        return False


@dataclass
class Lost:
    """What became of the acknowledged commands."""

    checked: int = 0  # acks looked for
    games: int = 0
    lost: list = field(default_factory=list)  # (game, seat, command_id, first, last, versions found)
    unverified: list = field(default_factory=list)  # (game, reason): a chain that does not verify


async def lost(store_url: str, acks: list) -> Lost:
    """Every acknowledged action in its game's log exactly once, at the versions its ack named, and
    each game's chain verifying (the store's `verify`)."""
    from eventstore.store import RedisEventStore

    found = Lost(checked=len(acks))
    by_game: dict[str, list] = {}
    for ack in acks:
        by_game.setdefault(ack[0], []).append(ack)
    found.games = len(by_game)
    store = RedisEventStore.from_url(store_url)
    try:
        for game_id, game_acks in by_game.items():
            try:
                await store.verify(game_id)
            except Exception as exc:
                found.unverified.append((game_id, f"{type(exc).__name__}: {exc}"))
            where: dict[tuple[str, str], list[int]] = {}
            async for e in store.read(game_id):
                if e.command_id:
                    where.setdefault((e.actor, e.command_id), []).append(e.version)
            for _, seat, command_id, first, last in game_acks:
                versions = where.get((seat, command_id), [])
                if versions != list(range(first, last + 1)):
                    found.lost.append((game_id, seat, command_id, first, last, versions))
    finally:
        await store.aclose()
    return found


def verdict(samples: list[Sample], max_growth: float) -> Verdict:
    """RSS at the end of the warm-up (the first sample at or after `WARMUP` of the run) against the
    last sample's; growth above `max_growth` (0.10: 10%) fails. The slope of a least-squares line of
    RSS over the games created, from the warm-up on, names a leak per game."""
    measured = [s for s in samples if s.server_rss_mib is not None]
    if len(measured) < 2:
        return Verdict(False, None, None, None, None, "fewer than two samples of the server's RSS")
    end = measured[-1]
    warm = next((s for s in measured if s.seconds >= WARMUP * end.seconds), measured[0])
    if warm is end:
        warm = measured[-2]
    growth = (end.server_rss_mib - warm.server_rss_mib) / warm.server_rss_mib
    after = [s for s in measured if s.seconds >= warm.seconds]
    per_game = _slope([s.games for s in after], [s.server_rss_mib * 1024 for s in after])
    fit = "" if per_game is None else f"; fit over {len(after)} samples: {per_game:+.1f} KiB per game created"
    said = (
        f"server RSS {warm.server_rss_mib} MiB at {warm.seconds:.0f} s (end of warm-up), "
        f"{end.server_rss_mib} MiB at {end.seconds:.0f} s: {growth:+.1%}{fit}"
    )
    if growth <= max_growth:
        return Verdict(True, warm, end, growth, per_game, f"{said}: within {max_growth:.0%}")
    if per_game is not None and per_game > 0:
        return Verdict(
            False, warm, end, growth, per_game,
            f"{said}: above {max_growth:.0%}, growing with the games created: a leak of about "
            f"{per_game:.0f} KiB per game",
        )  # fmt: skip
    return Verdict(False, warm, end, growth, per_game, f"{said}: above {max_growth:.0%}, not per game")


def _slope(xs: list[float], ys: list[float]) -> float | None:
    n = len(xs)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    spread = sum((x - mean_x) ** 2 for x in xs)
    if n < 2 or spread == 0:
        return None
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread
