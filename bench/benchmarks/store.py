"""`bluegray bench store`: the event store's appends and reads beside bare XADD / XRANGE.

Everything runs on one private embedded server started for the run (in a temporary directory,
with the chosen appendfsync), so the store and its baseline share the server, the disk and the
settings. The baseline entry has the same fields and sizes as a stored event; one game's appends
alternate with bare XADDs so that drift affects both alike.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
import uuid

import redis.asyncio as aioredis

from api.commands._args import at_least
from eventstore.embedded import FSYNC_POLICIES, EmbeddedRedis
from eventstore.envelope import NewEvent, seal
from eventstore.store import CommandKey, RedisEventStore

NAME = "store"
HELP = "Event store: append latency/throughput and read throughput, each beside a bare XADD/XRANGE."

TARGET_RATIO = 3.0  # append p50 within 3x a bare XADD round trip (DESIGN.md, performance targets)


def add_arguments(parser) -> None:
    parser.add_argument("--events", type=at_least(10), default=2000, help="events appended per phase (default 2000)")
    parser.add_argument("--games", type=at_least(1), default=50, help="concurrent games in the many-games phase (default 50)")
    parser.add_argument("--fsync", choices=FSYNC_POLICIES, default="always", help="appendfsync (default always)")
    parser.add_argument("--payload", type=at_least(0), default=200, help="payload bytes per event (default 200)")
    parser.add_argument(
        "--ack-replicas",
        type=at_least(1),
        default=None,
        metavar="N",
        help="also start a private 6-node Redis Cluster and time, on one game there, a bare XADD, an append, an "
        "append + WAIT N and an append + WAITAOF N (serve --ack-replicas N [--ack-replicas-aof])",
    )


def run(args) -> int:
    if args.events < 10 or args.games < 1:
        print("--events must be at least 10 and --games at least 1", file=sys.stderr)
        return 2
    return asyncio.run(_bench(args))


def progress(message: str) -> None:
    print(f"  .. {message}", file=sys.stderr, flush=True)


def ms(ns: float) -> str:
    return f"{ns / 1e6:.3f} ms"


def percentile(samples: list[int], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Figures:
    """Rows of (what, store figure, bare figure, ratio)."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str]] = []

    def latency(self, what: str, store: list[int], bare: list[int]) -> float:
        ratios = []
        for name, q in (("p50", 0.50), ("p99", 0.99)):
            s, b = percentile(store, q), percentile(bare, q)
            ratios.append(s / b)
            self.rows.append((f"{what} {name}", ms(s), ms(b), f"{s / b:.2f}x"))
        return ratios[0]

    def rate(self, what: str, store: float, bare: float) -> None:
        self.rows.append((what, f"{store:,.0f}/s", f"{bare:,.0f}/s", f"{store / bare:.2f}x"))

    def print(self) -> None:
        header = ("", "store", "bare XADD/XRANGE", "store/bare")
        widths = [max(len(row[i]) for row in [header, *self.rows]) for i in range(4)]
        for row in [header, *self.rows]:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())


async def _bench(args) -> int:
    with tempfile.TemporaryDirectory(prefix="bluegray-bench-") as tmp:
        server = EmbeddedRedis(os.path.join(tmp, "redis"), fsync=args.fsync, exit_with_parent=True)
        progress(f"starting a private server (appendfsync {args.fsync}) in {tmp}")
        server.start()
        try:
            return await _measure(args, server)
        finally:
            server.stop()


async def _measure(args, server: EmbeddedRedis) -> int:
    store = RedisEventStore.from_url(server.url)
    bare = aioredis.Redis.from_url(server.url)
    info = await bare.info("server")
    payload = os.urandom(args.payload)
    event = NewEvent(type="moved", payload=payload, actor="north", command_id="c" * 12, digest=os.urandom(32))
    entry = _entry_like(event)
    n, games = args.events, args.games
    print(
        f"bluegray bench store: {info.get('server_name', 'redis')} {info.get('valkey_version', info['redis_version'])}, "
        f"appendfsync {args.fsync}, {n} events of {args.payload} payload bytes, {games} concurrent games, "
        f"{os.cpu_count()} CPUs"
    )
    figures = Figures()

    # Warm up both paths (connections, script cache).
    for i in range(20):
        await store.append("warmup", [event], i)
        await bare.xadd("bare:warmup", entry, id=f"{i + 1}-0")

    progress(f"one game: {n} appends alternating with {n} bare XADDs")
    game = uuid.uuid4().hex
    appends, xadds = [], []
    started = time.perf_counter_ns()
    store_ns = bare_ns = 0
    for i in range(n):
        t0 = time.perf_counter_ns()
        await store.append(game, [event], i, CommandKey("north", f"c{i}", b"\x01" * 32))
        t1 = time.perf_counter_ns()
        await bare.xadd("bare:one", entry, id=f"{i + 1}-0")
        t2 = time.perf_counter_ns()
        appends.append(t1 - t0)
        xadds.append(t2 - t1)
        store_ns += t1 - t0
        bare_ns += t2 - t1
        if (i + 1) % max(1, n // 4) == 0 and time.perf_counter_ns() - started > 2e9:
            progress(f"{i + 1}/{n}")
    p50_ratio = figures.latency("append, 1 game", appends, xadds)
    figures.rate("append, 1 game, events", n / (store_ns / 1e9), n / (bare_ns / 1e9))

    progress(f"{games} games at once: {n} bare XADDs, then {n} appends")
    per_game = max(1, n // games)
    bare_lat, bare_wall = await _concurrently(games, per_game, lambda g, i: bare.xadd(f"bare:{g}", entry, id=f"{i + 1}-0"))
    ids = [uuid.uuid4().hex for _ in range(games)]
    store_lat, store_wall = await _concurrently(games, per_game, lambda g, i: store.append(ids[g], [event], i))
    figures.latency(f"append, {games} games", store_lat, bare_lat)
    total = games * per_game
    figures.rate(f"append, {games} games, events", total / store_wall, total / bare_wall)

    progress(f"reading {n} events, 5 times each way")
    store_best = bare_best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        count = sum([1 async for _ in store.read(game)])
        store_best = min(store_best, time.perf_counter() - t0)
        assert count == n
        t0 = time.perf_counter()
        count = await _bare_read(bare, "bare:one", store.page_size)
        bare_best = min(bare_best, time.perf_counter() - t0)
        assert count == n
    figures.rate("read (verified), events", n / store_best, n / bare_best)

    figures.print()
    verdict = "met" if p50_ratio <= TARGET_RATIO else "NOT met"
    print(f"target: append p50 within {TARGET_RATIO:g}x a bare XADD round trip: {p50_ratio:.2f}x, {verdict}")
    await store.aclose()
    await bare.aclose()
    if args.ack_replicas:
        await _acknowledged_by_replicas(args, event, entry)
    return 0


async def _acknowledged_by_replicas(args, event: NewEvent, entry: dict) -> None:
    """On a private cluster (3 primaries, 3 replicas), one game's appends with and without waiting
    for replicas, in turn with a bare XADD to a key of the same slot (so the same primary)."""
    from eventstore.cluster import LocalCluster

    n = max(10, args.events // 10)  # WAITAOF can take up to a second each
    with tempfile.TemporaryDirectory(prefix="bluegray-bench-cluster-") as tmp:
        cluster = LocalCluster(os.path.join(tmp, "cluster"), fsync=args.fsync)
        progress(f"starting a private 6-node cluster (appendfsync {args.fsync}) in {tmp}")
        cluster.up()
        try:
            if args.ack_replicas > cluster.replicas:
                print(f"--ack-replicas {args.ack_replicas}: the cluster has {cluster.replicas} replica per primary")
            stores = {
                "append": RedisEventStore.from_url(cluster.url),
                f"append + WAIT {args.ack_replicas}": RedisEventStore.from_url(
                    cluster.url, wait_replicas=args.ack_replicas, wait_timeout_ms=5000
                ),
                f"append + WAITAOF {args.ack_replicas}": RedisEventStore.from_url(
                    cluster.url, wait_replicas=args.ack_replicas, wait_aof=True, wait_timeout_ms=5000
                ),
            }
            bare = stores["append"].redis
            game = uuid.uuid4().hex
            bare_key = f"{{g:{game}}}:bare"
            samples: dict[str, list[int]] = {name: [] for name in stores}
            xadds: list[int] = []
            for store in stores.values():  # warm up: connections, scripts
                await store.append(uuid.uuid4().hex, [event], 0)
            progress(f"one game on the cluster: {n} rounds of a bare XADD and the three appends")
            version = 0
            for i in range(n):
                t0 = time.perf_counter_ns()
                await bare.xadd(bare_key, entry, id=f"{i + 1}-0")
                xadds.append(time.perf_counter_ns() - t0)
                for name, store in stores.items():
                    t0 = time.perf_counter_ns()
                    await store.append(game, [event], version)
                    samples[name].append(time.perf_counter_ns() - t0)
                    version += 1
            figures = Figures()
            for name, found in samples.items():
                figures.latency(f"{name}, cluster", found, xadds)
            print(f"on a private Redis Cluster (3 primaries, 3 replicas, appendfsync {args.fsync}), {n} rounds:")
            figures.print()
            for store in stores.values():
                await store.aclose()
        finally:
            cluster.down()


def _entry_like(event: NewEvent) -> dict:
    """A bare stream entry with the same fields and sizes as the stored envelope of `event`."""
    envelope = seal(event, version=1, time=time.time_ns() // 1_000_000, prev=bytes(32))
    return {
        "type": envelope.type,
        "schema": envelope.schema,
        "payload": envelope.payload,
        "actor": envelope.actor,
        "command": envelope.command_id,
        "time": envelope.time,
        "digest": envelope.digest,
        "prev": envelope.prev,
        "hash": envelope.hash,
    }


async def _concurrently(games: int, per_game: int, operation) -> tuple[list[int], float]:
    """Run `operation(game, i)` for i in range(per_game), every game at once; latencies and wall time."""
    latencies: list[int] = []

    async def one(g: int) -> None:
        for i in range(per_game):
            t0 = time.perf_counter_ns()
            await operation(g, i)
            latencies.append(time.perf_counter_ns() - t0)

    t0 = time.perf_counter()
    await asyncio.gather(*(one(g) for g in range(games)))
    return latencies, time.perf_counter() - t0


async def _bare_read(client: aioredis.Redis, key: str, page: int) -> int:
    count, cursor = 0, "-"
    while True:
        entries = await client.xrange(key, cursor, "+", count=page)
        count += len(entries)
        if len(entries) < page:
            return count
        cursor = b"(" + entries[-1][0]

