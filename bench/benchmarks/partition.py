"""`bluegray bench partition`: partitions of a primary, and a Jepsen-style check that no acknowledged
command is lost or applied twice.

The setup, the smallest that tests the claim: one primary and one replica (`replicaof`, no cluster,
no sentinel) of the embedded server's binary, each in a network namespace of its own made for the
run (eventstore/netns.py), with `min-replicas-to-write 1` and `appendfsync always`. This process
(the root namespace) is the clients and the operator: a veth link to each node carries the clients'
commands (and the operator's REPLICAOF), a third link between the two namespaces carries the
replication, with `tc netem delay 50ms loss 5%` on both of its ends. A partition cuts that link
(`ip link set down`): the primary is isolated *with its clients*, which go on writing to it; the
replica is alone. A cluster would add nothing here: a shard is exactly such a pair, and its
failover is the promotion done by hand below.

Writers append commands with unique command ids through `RedisEventStore(wait_replicas=1,
wait_aof=True)`, one writer per game, each command sent until it is acknowledged (the same
CommandKey every time: an unacknowledged append may or may not have happened). Each partition
lasts `partition_seconds`; then, alternately, the link is healed with the same primary, or the
replica is promoted (REPLICAOF NO ONE), the writers are sent to it and the old primary is made its
replica once the link is back (it drops what it wrote alone). After the last heal every game's log
is read on both nodes: each acknowledged command must be there exactly once, at the version it was
acknowledged at, and no command twice.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import redis

from api.commands._args import at_least, positive
from eventstore.connect import client_for
from eventstore.embedded import find_server_binary
from eventstore.envelope import NewEvent
from eventstore.errors import Conflict, store_unavailable
from eventstore.netns import ROOT, Network, unavailable
from eventstore.store import CommandKey, RedisEventStore

NAME = "partition"
HELP = (
    "Partition a primary from its replica (network namespaces, tc netem) N times while writers append, "
    "then check every acknowledged command is in the log exactly once (needs root)."
)

PORT = 6379  # each node has a namespace, so a port, of its own
MAX_LAG = 2  # min-replicas-max-lag: seconds without a replica's acknowledgement before writes are refused
ACK_TIMEOUT_MS = 2500  # WAITAOF: a Valkey 8.1 replica reports its AOF offset about once a second


def add_arguments(parser) -> None:
    parser.add_argument("--partitions", type=at_least(1), default=10, help="partitions of the primary (default 10)")
    parser.add_argument("--games", type=at_least(1), default=8, help="games written to at once, one writer each (default 8)")
    parser.add_argument(
        "--partition-seconds", type=positive, default=3.0, help="how long each partition lasts (default 3)"
    )
    parser.add_argument(
        "--delay-ms", type=at_least(0), default=50, help="tc netem delay on each end of the replication link (default 50)"
    )
    parser.add_argument(
        "--loss", type=positive_or_zero, default=5.0, help="percent of packets dropped on each end of it (default 5)"
    )
    parser.add_argument(
        "--cost-rounds",
        type=at_least(0),
        default=20,
        help="rounds of an append without waiting, with WAIT 1 and with WAITAOF 1 1, timed before the partitions "
        "(default 20; 0: none)",
    )


def positive_or_zero(text: str) -> float:
    value = float(text)
    if not 0 <= value < 100:
        raise argparse.ArgumentTypeError(f"{text} is not a percentage from 0 to under 100")
    return value


def run(args) -> int:
    reason = unavailable()
    if reason:
        print(f"network namespaces not available: {reason}", file=sys.stderr)
        return 2
    report = asyncio.run(
        partition_run(
            partitions=args.partitions,
            games=args.games,
            partition_seconds=args.partition_seconds,
            delay_ms=args.delay_ms,
            loss_percent=args.loss,
            cost_rounds=args.cost_rounds,
            progress=progress,
        )
    )
    print(report.text())
    return 0 if report.sound else 1


def progress(message: str) -> None:
    print(f"  .. {message}", file=sys.stderr, flush=True)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


# -- the pair of nodes ---------------------------------------------------------------------------------


class Pair:
    """Nodes "a" (the first primary) and "b" in namespaces of their own (see the module documentation)."""

    def __init__(self, net: Network, data_dir: Path, delay_ms: int, loss_percent: float) -> None:
        self.net = net
        self.data_dir = data_dir
        self.password = secrets.token_urlsafe(18)
        self.ns = {name: net.namespace(name) for name in ("a", "b")}
        self.client_link = {name: net.link(ROOT, ns) for name, ns in self.ns.items()}
        self.replication = net.link(self.ns["a"], self.ns["b"])
        self.impairment = self.replication.impair(delay_ms, loss_percent) if delay_ms or loss_percent else "none"
        self.binary = find_server_binary()

    def client_address(self, name: str) -> str:
        return self.client_link[name].b_addr

    def replication_address(self, name: str) -> str:
        return self.replication.a_addr if name == "a" else self.replication.b_addr

    def url(self, name: str) -> str:
        return f"redis://:{self.password}@{self.client_address(name)}:{PORT}/0"

    def control(self, name: str) -> redis.Redis:
        """The operator's client of node `name` (over its client link)."""
        return redis.Redis(
            host=self.client_address(name), port=PORT, password=self.password, socket_timeout=5, socket_connect_timeout=5
        )

    def start(self, name: str, replica_of: str | None = None) -> None:
        node = self.data_dir / name
        node.mkdir(mode=0o700, parents=True)
        settings = {
            "port": str(PORT),
            "bind": "*",
            "dir": f'"{node}"',
            "logfile": '"node.log"',
            "daemonize": "no",
            "requirepass": f'"{self.password}"',
            "masterauth": f'"{self.password}"',
            "appendonly": "yes",
            "appendfsync": "always",
            "save": '""',
            "maxmemory-policy": "noeviction",
            "min-replicas-to-write": "1",
            "min-replicas-max-lag": str(MAX_LAG),
            "repl-timeout": "3",
            "repl-ping-replica-period": "1",
            "repl-diskless-sync": "yes",
            "repl-diskless-sync-delay": "0",
        }
        if replica_of:
            settings["replicaof"] = f"{self.replication_address(replica_of)} {PORT}"
        config = node / "node.conf"
        config.write_text("".join(f"{k} {v}\n" for k, v in settings.items()))
        config.chmod(0o600)
        process = self.net.spawn(
            self.ns[name], [self.binary, str(config)], cwd=node, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"node {name} exited at start-up; see {node / 'node.log'}")
            with contextlib.suppress(redis.RedisError, OSError), contextlib.closing(self.control(name)) as c:
                if c.ping():
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(f"node {name} did not answer within 30 s; see {node / 'node.log'}")
            time.sleep(0.05)

    def in_sync(self, primary: str, replica: str) -> bool:
        """Is `replica` following `primary` with the link up and every byte of its stream applied?"""
        with contextlib.closing(self.control(primary)) as p, contextlib.closing(self.control(replica)) as r:
            theirs = r.info("replication")
            ours = p.info("replication")
        return (
            theirs.get("role") == "slave"
            and theirs.get("master_link_status") == "up"
            and not theirs.get("master_sync_in_progress")
            and ours.get("role") == "master"
            and int(theirs.get("slave_repl_offset", -1)) == int(ours.get("master_repl_offset", -2))
        )

    def wait_in_sync(self, primary: str, replica: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not self.in_sync(primary, replica):
            if time.monotonic() > deadline:
                raise RuntimeError(f"node {replica} did not catch up with primary {primary} in {timeout:g} s")
            time.sleep(0.05)

    def promote(self, name: str) -> None:
        with contextlib.closing(self.control(name)) as c:
            c.execute_command("REPLICAOF", "NO", "ONE")

    def follow(self, name: str, primary: str) -> None:
        with contextlib.closing(self.control(name)) as c:
            c.execute_command("REPLICAOF", self.replication_address(primary), PORT)


# -- the writers and their ledger ------------------------------------------------------------------------


@dataclass
class Ledger:
    """What the clients saw: every acknowledged (command id, version), and every refusal."""

    acked: dict[str, int] = field(default_factory=dict)
    sent: set[str] = field(default_factory=set)
    refused: int = 0
    refused_partitioned: int = 0
    refused_healing: int = 0
    refusals: Counter = field(default_factory=Counter)
    duplicates_answered: int = 0
    anomalies: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    last_ack: float = 0.0


class Target:
    """Where the clients send their commands: the primary, as the operator last said."""

    def __init__(self, stores: dict[str, RedisEventStore], primary: str) -> None:
        self.stores = stores
        self.primary = primary
        self.phase = "steady"  # or "partitioned", or "healing": from the heal to the next acknowledgement

    @property
    def store(self) -> RedisEventStore:
        return self.stores[self.primary]


async def writer(game: str, target: Target, ledger: Ledger, stop: asyncio.Event) -> None:
    """Append commands "<game>-<n>" to `game` one after another, each until it is acknowledged."""
    version, n = 0, 0
    while not stop.is_set():
        n += 1
        command_id = f"{game}-{n}"
        body = command_id.encode()
        key = CommandKey.of("w", command_id, body)
        event = NewEvent(type="command", payload=body, actor="w", command_id=command_id)
        ledger.sent.add(command_id)
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                done = await target.store.append(game, [event], version, key)
            except Conflict as exc:
                ledger.anomalies.append(f"{command_id}: {exc}")
                return
            except Exception as exc:
                if not store_unavailable(exc):
                    raise
                ledger.refused += 1
                ledger.refused_partitioned += target.phase == "partitioned"
                ledger.refused_healing += target.phase == "healing"
                ledger.refusals[type(exc).__name__] += 1
                await asyncio.sleep(0.05)
                continue
            ledger.latencies_ms.append((time.perf_counter() - t0) * 1000)
            ledger.acked[command_id] = done.first
            ledger.duplicates_answered += done.duplicate
            ledger.last_ack = time.monotonic()
            version = done.last
            break


# -- the run ---------------------------------------------------------------------------------------------


@dataclass
class Cycle:
    failover: bool
    refused: int
    resume_s: float


@dataclass
class PartitionReport:
    tag: str
    games: int
    impairment: str
    partition_seconds: float
    cycles: list[Cycle]
    acked: int
    lost: list[str]
    duplicated: list[str]
    unknown: list[str]
    unacked_kept: int
    unacked: int
    refused: int
    refused_partitioned: int
    refused_healing: int
    refusals: dict[str, int]
    duplicates_answered: int
    anomalies: list[str]
    latency_ms: tuple[float, float]
    cost_ms: dict[str, tuple[float, float]]
    events_checked: int
    seconds: float

    @property
    def sound(self) -> bool:
        return not (self.lost or self.duplicated or self.unknown or self.anomalies)

    def text(self) -> str:
        resume = [c.resume_s for c in self.cycles]
        failovers = sum(c.failover for c in self.cycles)
        lines = [
            f"{len(self.cycles)} partitions of the primary ({failovers} with a failover to the replica, "
            f"{len(self.cycles) - failovers} healed with the same primary), {self.partition_seconds:g} s each; "
            f"{self.games} writers; replication link impaired: {self.impairment}; acknowledged = WAITAOF 1 1",
            f"commands acknowledged:          {self.acked}",
            f"acknowledged and lost:          {len(self.lost)}",
            f"applied twice:                  {len(self.duplicated)}",
            f"in the log but never sent:      {len(self.unknown)}",
            f"anomalies (conflicts):          {len(self.anomalies)}",
            f"attempts refused or timed out:  {self.refused} ({self.refused_partitioned} during partitions, "
            f"{self.refused_healing} while healing, {self.refused - self.refused_partitioned - self.refused_healing} "
            "otherwise), each sent again with its key: "
            + (", ".join(f"{n} {kind}" for kind, n in sorted(self.refusals.items())) or "none"),
            f"retries answered as duplicate:  {self.duplicates_answered} (applied once, acknowledged on a retry)",
            f"unacknowledged at the end:      {self.unacked} (in the log once: {self.unacked_kept}, absent: "
            f"{self.unacked - self.unacked_kept})",
            f"events checked on both nodes:   {self.events_checked}",
            f"time to resume after a heal:    p50 {percentile(resume, 0.5):.2f} s, max {max(resume):.2f} s",
            f"acknowledged append latency:    p50 {self.latency_ms[0]:.0f} ms, p99 {self.latency_ms[1]:.0f} ms",
        ]
        for name, (p50, p99) in self.cost_ms.items():
            lines.append(f"cost, {name + ':':<27} p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        lines.append(f"run: {self.seconds:.1f} s; verdict: {'SOUND' if self.sound else 'NOT SOUND'}")
        if self.lost:
            lines.append(f"lost: {self.lost[:20]}")
        if self.duplicated:
            lines.append(f"duplicated: {self.duplicated[:20]}")
        if self.anomalies:
            lines.append(f"anomalies: {self.anomalies[:5]}")
        return "\n".join(lines)


async def partition_run(
    *,
    partitions: int = 10,
    games: int = 8,
    partition_seconds: float = 3.0,
    steady_seconds: float = 1.0,
    delay_ms: int = 50,
    loss_percent: float = 5.0,
    cost_rounds: int = 0,
    progress=lambda message: None,
) -> PartitionReport:
    """Make the namespaces and the pair, write through `partitions` partitions, check both logs; the
    namespaces, links and nodes are removed whatever happens."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bluegray-partition-") as tmp, Network() as net:
        pair = await asyncio.to_thread(Pair, net, Path(tmp), delay_ms, loss_percent)
        progress(f"namespaces of run {net.tag}: a primary and a replica, replication link: {pair.impairment}")
        await asyncio.to_thread(pair.start, "a")
        await asyncio.to_thread(pair.start, "b", "a")
        await asyncio.to_thread(pair.wait_in_sync, "a", "b")

        def store(name: str, **options) -> RedisEventStore:
            client = client_for(pair.url(name), retries=1, socket_timeout=10)
            return RedisEventStore(client, prefix="pt:", **options)

        acking = {name: store(name, wait_replicas=1, wait_aof=True, wait_timeout_ms=ACK_TIMEOUT_MS) for name in "ab"}
        plain = {name: store(name) for name in "ab"}
        try:
            cost = await _cost(pair, cost_rounds, progress) if cost_rounds else {}
            target = Target(acking, "a")
            ledger = Ledger()
            stop = asyncio.Event()
            ids = [f"g{i}" for i in range(games)]
            writers = [asyncio.create_task(writer(g, target, ledger, stop)) for g in ids]
            cycles = await _partitions(pair, target, ledger, writers, partitions, partition_seconds, steady_seconds, progress)
            stop.set()
            await asyncio.gather(*writers)
            primary = target.primary
            replica = "b" if primary == "a" else "a"
            await asyncio.to_thread(pair.wait_in_sync, primary, replica)
            progress("reading every game's log on both nodes")
            lost, duplicated, unknown, kept, checked = set(), set(), set(), set(), 0
            for name in (primary, replica):
                for game in ids:
                    checked += await _log_checked(plain[name], game, ledger, lost, duplicated, unknown, kept)
            unacked = ledger.sent - set(ledger.acked)
            return PartitionReport(
                tag=net.tag,
                games=games,
                impairment=pair.impairment,
                partition_seconds=partition_seconds,
                cycles=cycles,
                acked=len(ledger.acked),
                lost=sorted(lost),
                duplicated=sorted(duplicated),
                unknown=sorted(unknown),
                unacked_kept=len(kept & unacked),
                unacked=len(unacked),
                refused=ledger.refused,
                refused_partitioned=ledger.refused_partitioned,
                refused_healing=ledger.refused_healing,
                refusals=dict(ledger.refusals),
                duplicates_answered=ledger.duplicates_answered,
                anomalies=ledger.anomalies,
                latency_ms=(percentile(ledger.latencies_ms, 0.5), percentile(ledger.latencies_ms, 0.99)),
                cost_ms=cost,
                events_checked=checked,
                seconds=time.monotonic() - started,
            )
        finally:
            for s in (*acking.values(), *plain.values()):
                await s.aclose()


async def _log_checked(store: RedisEventStore, game: str, ledger: Ledger, lost: set, duplicated: set,
                       unknown: set, kept: set) -> int:
    """One game's log on one node verified and read against the ledger: the commands lost, written
    twice, never sent, or kept though unacknowledged added to their sets; the events read."""
    checked = 0
    await store.verify(game)
    seen: dict[str, list[int]] = {}
    async for envelope in store.read(game):
        seen.setdefault(envelope.command_id, []).append(envelope.version)
        checked += 1
    for command_id, versions in seen.items():
        if len(versions) > 1:
            duplicated.add(command_id)
        if command_id not in ledger.sent:
            unknown.add(command_id)
        elif command_id not in ledger.acked:
            kept.add(command_id)
    for command_id, version in ledger.acked.items():
        if command_id.startswith(f"{game}-") and version not in seen.get(command_id, []):
            lost.add(command_id)
    return checked


async def _partitions(
    pair: Pair,
    target: Target,
    ledger: Ledger,
    writers: list[asyncio.Task],
    partitions: int,
    partition_seconds: float,
    steady_seconds: float,
    progress,
) -> list[Cycle]:
    cycles = []
    await _until(lambda: ledger.acked, writers, "the first acknowledgement")
    await asyncio.sleep(steady_seconds)
    for i in range(partitions):
        failover = i % 2 == 1
        old = target.primary
        new = "b" if old == "a" else "a"
        refused_before = ledger.refused
        await asyncio.to_thread(pair.replication.down)
        target.phase = "partitioned"
        await asyncio.sleep(partition_seconds)
        if failover:  # the operator promotes the replica and sends the clients to it
            await asyncio.to_thread(pair.promote, new)
            target.primary = new
        healed = time.monotonic()
        await asyncio.to_thread(pair.replication.up)
        target.phase = "healing"
        if failover:  # the old primary follows the new one: it drops what it wrote alone
            await asyncio.to_thread(pair.follow, old, new)
        await _until(lambda healed=healed: ledger.last_ack > healed, writers, f"an acknowledgement after heal {i + 1}")
        target.phase = "steady"
        resume = ledger.last_ack - healed
        cycles.append(Cycle(failover, ledger.refused - refused_before, resume))
        progress(
            f"partition {i + 1}/{partitions} ({'failover to ' + new if failover else 'healed, primary ' + old}): "
            f"{ledger.refused - refused_before} attempts refused, resumed after {resume:.2f} s, "
            f"{len(ledger.acked)} acknowledged so far"
        )
        await asyncio.to_thread(pair.wait_in_sync, target.primary, "b" if target.primary == "a" else "a")
        await asyncio.sleep(steady_seconds)
    return cycles


async def _until(condition, writers: list[asyncio.Task], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        for task in writers:
            if task.done():
                task.result()  # a writer that failed: its exception
        if time.monotonic() > deadline:
            raise RuntimeError(f"no {what} within {timeout:g} s")
        await asyncio.sleep(0.01)


async def _cost(pair: Pair, rounds: int, progress) -> dict[str, tuple[float, float]]:
    """On the healthy pair (netem on the replication link), one game each, in turn: an append
    acknowledged on the primary alone, after WAIT 1, and after WAITAOF 1 1."""
    progress(f"timing {rounds} rounds of the three kinds of append")
    kinds = {
        "no wait (--ack-replicas 0)": {},
        "WAIT 1 (--ack-replicas 1)": {"wait_replicas": 1},
        "WAITAOF 1 1 (+ -aof)": {"wait_replicas": 1, "wait_aof": True},
    }
    stores = {
        name: RedisEventStore(
            client_for(pair.url("a"), retries=1, socket_timeout=10), prefix="cost:", wait_timeout_ms=5000, **options
        )
        for name, options in kinds.items()
    }
    samples: dict[str, list[float]] = {name: [] for name in kinds}
    try:
        for i in range(rounds + 1):
            for n, (name, s) in enumerate(stores.items()):
                event = NewEvent(type="command", payload=b"x" * 200, actor="w", command_id=f"c{i}")
                t0 = time.perf_counter()
                await s.append(f"cost{n}", [event], i)
                if i:  # the first round warms the connection and loads the script
                    samples[name].append((time.perf_counter() - t0) * 1000)
    finally:
        for s in stores.values():
            await s.aclose()
    return {name: (percentile(found, 0.5), percentile(found, 0.99)) for name, found in samples.items()}
