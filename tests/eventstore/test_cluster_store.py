"""The event store and its live tail on a private 6-node Redis Cluster (3 primaries, 3 replicas)."""

import asyncio
import subprocess
import time
import uuid

import pytest
import redis

from eventstore.embedded import find_server_binary
from eventstore.envelope import NewEvent
from eventstore.errors import Conflict, KeyMismatch, NotReplicated, UnsafeServer
from eventstore.safety import check_server, unauthenticated
from eventstore.store import CommandKey, RedisEventStore
from eventstore.tail import ClusterTail, tail_for
from replay.seek import targets_key

pytestmark = pytest.mark.cluster

PATIENCE = 60


def game() -> str:
    return uuid.uuid4().hex


def one(i: int) -> list[NewEvent]:
    return [NewEvent(type="added", payload=b"%d" % i)]


@pytest.fixture
async def cstore(cluster):
    store = RedisEventStore.from_url(cluster.url, prefix=f"t{uuid.uuid4().hex[:8]}:")
    await store.redis.initialize()
    yield store
    await store.aclose()


async def test_every_key_of_a_game_is_in_one_slot(cstore):
    g = game()
    keys = [*cstore.keys(g), targets_key(cstore, g), cstore.keys(g).info[: -len("info")] + "seats"]
    slots = {cstore.redis.keyslot(key) for key in keys}
    assert len(slots) == 1, keys


async def test_append_read_verify_and_the_rest_per_game_slot(cstore):
    """Games spread over the three primaries: append, duplicate, conflict, mismatch, read,
    verify, snapshots, the secret and the index all work."""
    games = [game() for _ in range(12)]
    primaries = {cstore.redis.get_node_from_key(cstore.keys(g).log).name for g in games[:1]}
    for g in games:
        await cstore.create_game(g, "chattanooga")
        first = await cstore.append(g, one(1), 0, CommandKey.of("north", "c1", b"body"))
        assert (first.first, first.last, first.duplicate) == (1, 1, False)
        again = await cstore.append(g, one(1), 0, CommandKey.of("north", "c1", b"body"))
        assert (again.first, again.last, again.duplicate) == (1, 1, True)
        with pytest.raises(KeyMismatch):
            await cstore.append(g, one(1), 1, CommandKey.of("north", "c1", b"other"))
        with pytest.raises(Conflict):
            await cstore.append(g, one(2), 0)
        await cstore.append(g, one(2) + one(3), 1)
        assert [e.version for e in [e async for e in cstore.read(g)]] == [1, 2, 3]
        assert (await cstore.verify(g))[0] == 3
        await cstore.put_snapshot(g, 2, b"state", "v1")
        assert (await cstore.snapshot_at_or_before(g, 3)).data == b"state"
        await cstore.put_secret(g, b"seed")
        assert await cstore.get_secret(g) == b"seed"
        primaries.add(cstore.redis.get_node_from_key(cstore.keys(g).log).name)
    assert len(primaries) > 1  # the games really are spread over several primaries
    listed, _ = await cstore.list_games(0, 50)
    assert set(games) <= {info.game_id for info in listed}


async def test_the_start_up_check_asks_every_node_and_counts_replicas(cluster, cstore):
    report = await check_server(cstore.redis, prefix=cstore.prefix, url=cluster.url)
    assert report.problems == [] and report.replicas == 1


async def test_a_tcp_server_without_a_password_is_refused(tmp_path):
    """The cluster answers nobody without its password; a bare TCP server does, and is refused."""
    port = 0
    with __import__("socket").socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [find_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes",
         "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                if redis.Redis(port=port).ping():
                    break
            except redis.ConnectionError:
                time.sleep(0.05)
        url = f"redis://127.0.0.1:{port}/0"
        problems = await unauthenticated(url)
        assert len(problems) == 1 and "without authentication" in problems[0]
        store = RedisEventStore.from_url(url)
        try:
            with pytest.raises(UnsafeServer, match="without authentication"):
                await check_server(store.redis, url=url)
            report = await check_server(store.redis, url=url, unsafe=True)
            assert any("without authentication" in p for p in report.problems)
        finally:
            await store.aclose()
    finally:
        server.terminate()
        server.wait(10)


async def test_the_cluster_answers_nobody_without_its_password(cluster):
    assert await unauthenticated(cluster.url) == []


async def test_acknowledged_means_on_a_replica(cluster):
    store = RedisEventStore.from_url(cluster.url, wait_replicas=1, prefix="ack:")
    strict = RedisEventStore.from_url(cluster.url, wait_replicas=2, wait_timeout_ms=100, prefix="ack:")
    try:
        g = game()
        assert (await store.append(g, one(1), 0, CommandKey.of("n", "c1", b"b"))).last == 1
        # A duplicate waits too (its key is written again, so WAIT covers the original).
        assert (await store.append(g, one(1), 0, CommandKey.of("n", "c1", b"b"))).duplicate
        with pytest.raises(NotReplicated, match=r"1 replica\(s\), not 2"):
            await strict.append(g, one(2), 1)
        assert await store.version(g) == 2  # on the primary and its one replica, but not acknowledged
    finally:
        await store.aclose()
        await strict.aclose()


async def consume(subscription, into: list[int]) -> None:
    async for envelope in subscription:
        into.append(envelope.version)


async def until(condition, what: str) -> None:
    for _ in range(PATIENCE * 20):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


async def test_the_live_tail_on_a_cluster_gives_each_event_once_in_order(cstore):
    games = [game() for _ in range(9)]
    for g in games:
        await cstore.append(g, one(1), 0)
    tail = tail_for(cstore, block_ms=60_000)  # no sweep in this test: every event comes by SPUBLISH
    assert isinstance(tail, ClusterTail)
    async with tail:
        got = {g: [] for g in games}
        behind = {g: [] for g in games}
        tasks = [asyncio.create_task(consume(tail.subscribe(g, 1), got[g])) for g in games]
        tasks += [asyncio.create_task(consume(tail.subscribe(g, 0), behind[g])) for g in games]
        for v in range(1, 6):
            for g in games:
                await cstore.append(g, one(v + 1), v)
        await until(lambda: all(len(got[g]) == 5 and len(behind[g]) == 6 for g in games), "every event")
        assert all(got[g] == [2, 3, 4, 5, 6] and behind[g] == [1, 2, 3, 4, 5, 6] for g in games)
        for task in tasks:
            task.cancel()


async def test_a_primary_killed_mid_game_loses_no_acknowledged_event(cluster):
    """SIGKILL a primary while games are appended to with --ack-replicas 1: its replica is
    promoted, the store and the live tail reconnect, the killed node comes back as a replica; every
    acknowledged event is there once, every subscriber saw each event once, every game verifies."""
    store = RedisEventStore.from_url(cluster.url, wait_replicas=1, wait_timeout_ms=500, prefix="fo:")
    games = [game() for _ in range(9)]
    victim_port = None
    try:
        async with tail_for(store, block_ms=500) as tail:
            seen = {g: [] for g in games}
            tasks = [asyncio.create_task(consume(tail.subscribe(g, 0), seen[g])) for g in games]
            acked = {g: 0 for g in games}
            refused = 0

            async def play(g: str) -> None:
                nonlocal refused
                for v in range(20):
                    while True:
                        try:
                            appended = await store.append(g, one(v + 1), v, CommandKey.of("n", f"c{v}", b"b"))
                            acked[g] = appended.last
                            break
                        except (NotReplicated, redis.ConnectionError, redis.TimeoutError):
                            refused += 1  # answered `unavailable`: the player sends it again
                            await asyncio.sleep(0.2)
                    await asyncio.sleep(0.05)

            players = [asyncio.create_task(play(g)) for g in games]
            await until(lambda: min(acked.values()) >= 5, "five events in every game")
            victim_port = cluster.primary_ports()[0]
            killed_at = time.monotonic()
            await asyncio.to_thread(cluster.kill, victim_port)
            await asyncio.sleep(4)
            await asyncio.to_thread(cluster.start_node, victim_port)  # an operator restarts the node
            await asyncio.wait_for(asyncio.gather(*players), PATIENCE)
            recovered = time.monotonic() - killed_at
            await until(lambda: all(len(seen[g]) >= 20 for g in games), "the tail delivers every event")
            for task in tasks:
                task.cancel()
        assert cluster.role(victim_port) == "slave"
        for g in games:
            assert [e.version async for e in store.read(g)] == list(range(1, 21))
            assert (await store.verify(g))[0] == 20
            assert seen[g] == list(range(1, 21))
        print(f"\nfailover: {len(games)} games x 20 acknowledged events, none lost, none twice; "
              f"{refused} appends answered unavailable and sent again; all played in {recovered:.1f}s after the kill")
    finally:
        await store.aclose()
