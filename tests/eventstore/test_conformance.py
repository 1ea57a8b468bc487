"""One conformance suite for the event store, run on every deployment the server supports (as the
`eventsourcing` library runs one suite on every recorder): the embedded server, a replicated pair
(eventstore/pair.py: a primary and its replica, appends acknowledged after WAITAOF 1 1) and the
6-node cluster (eventstore/cluster.py, appends acknowledged after WAIT 1). The same tests of
append, expected version, idempotency, the head hash, reading, the live tail, snapshots and verify
must pass on each; what only a replica can show (the acknowledged event is on it) runs where there
is one."""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis

from eventstore.envelope import GENESIS, NewEvent
from eventstore.errors import Conflict, CorruptEvent, KeyMismatch
from eventstore.store import Appended, CommandKey, RedisEventStore
from eventstore.tail import tail_for

PATIENCE = 60  # seconds: a guard against hanging, not a measure of speed


class Backend:
    """A deployment: how to make a store on it, and its replica nodes (plain clients), if any."""

    def __init__(self, name: str, url: str, replicas: list[redis.Redis], **options) -> None:
        self.name, self.url, self.replicas, self.options = name, url, replicas, options
        self.prefix = f"c{uuid.uuid4().hex[:8]}:"
        self.stores: list[RedisEventStore] = []

    async def store(self) -> RedisEventStore:
        """A store of its own (its own client and connections), as another server process has."""
        store = RedisEventStore.from_url(self.url, prefix=self.prefix, **self.options)
        if store.cluster:
            await store.redis.initialize()
        self.stores.append(store)
        return store

    async def close(self) -> None:
        for store in self.stores:
            await store.aclose()
        for replica in self.replicas:
            replica.close()


@pytest.fixture(scope="session")
def local_pair(tmp_path_factory):
    from eventstore.pair import LocalPair

    pair = LocalPair(tmp_path_factory.mktemp("pair"), fsync="always")
    try:
        pair.up()
        yield pair
    finally:
        pair.down()


@pytest.fixture(params=["embedded", "pair", pytest.param("cluster", marks=pytest.mark.cluster)])
async def backend(request, redis_url):
    if request.param == "embedded":
        made = Backend("embedded", redis_url, [])
    elif request.param == "pair":
        pair = request.getfixturevalue("local_pair")
        made = Backend("pair", pair.url, [pair.client(pair.ports[1])], wait_replicas=1, wait_aof=True, wait_timeout_ms=5000)
    else:
        cluster = request.getfixturevalue("cluster")
        replicas = [cluster.client(p) for p in cluster.ports if cluster.role(p) == "slave"]
        made = Backend("cluster", cluster.url, replicas, wait_replicas=1, wait_timeout_ms=5000)
    yield made
    await made.close()


def game() -> str:
    return uuid.uuid4().hex


def events(n: int, tag: str = "e") -> list[NewEvent]:
    return [NewEvent(type="moved", payload=f"{tag}{i}".encode(), actor="union", command_id=f"{tag}{i}") for i in range(n)]


async def test_an_append_reads_back_as_given_chained_from_version_one(backend):
    store = await backend.store()
    g = game()
    assert await store.version(g) == 0
    assert await store.append(g, events(2, "a"), 0) == Appended(1, 2)
    assert await store.append(g, events(3, "b"), 2) == Appended(3, 5)
    read = [e async for e in store.read(g)]
    assert [(e.version, e.payload, e.actor, e.command_id) for e in read] == [
        (1, b"a0", "union", "a0"), (2, b"a1", "union", "a1"),
        (3, b"b0", "union", "b0"), (4, b"b1", "union", "b1"), (5, b"b2", "union", "b2"),
    ]
    assert read[0].prev == GENESIS and all(later.prev == earlier.hash for earlier, later in zip(read, read[1:], strict=False))
    assert all(e.hash == e.expected_hash() for e in read)
    assert [e.version async for e in store.read(g, 2, 4)] == [2, 3, 4]


async def test_an_append_at_a_stale_version_conflicts_and_writes_nothing(backend):
    store = await backend.store()
    g = game()
    await store.append(g, events(3), 0)
    with pytest.raises(Conflict) as info:
        await store.append(g, events(1, "late"), 2)
    assert (info.value.expected, info.value.current) == (2, 3)
    assert await store.version(g) == 3


async def test_of_concurrent_appenders_at_one_version_exactly_one_wins(backend):
    g = game()
    first = await backend.store()
    await first.append(g, events(1), 0)
    others = [await backend.store() for _ in range(4)]
    results = await asyncio.gather(*(s.append(g, events(2, f"w{i}-"), 1) for i, s in enumerate(others)), return_exceptions=True)
    assert [r for r in results if isinstance(r, Appended)] == [Appended(2, 3)]
    assert sum(isinstance(r, Conflict) for r in results) == 3
    assert await first.version(g) == 3


async def test_a_command_key_makes_an_append_idempotent(backend):
    store = await backend.store()
    g = game()
    key = CommandKey.of("union", "c1", b'{"type":"end_phase"}')
    assert await store.append(g, events(2), 0, key) == Appended(1, 2)
    again = await (await backend.store()).append(g, events(2), 2, key)  # a retry, from another process
    assert (again.first, again.last, again.duplicate) == (1, 2, True)
    assert await store.version(g) == 2
    with pytest.raises(KeyMismatch):
        await store.append(g, events(1), 2, CommandKey.of("union", "c1", b'{"type":"other"}'))
    assert (await store.lookup(g, key)) == Appended(1, 2, duplicate=True)


async def test_the_head_is_the_last_events_hash_and_verify_walks_to_it(backend):
    store = await backend.store()
    g = game()
    await store.append(g, events(4), 0)
    read = [e async for e in store.read(g)]
    assert await store.head(g) == (4, read[-1].hash)
    assert await store.hash_at(g, 2) == read[1].hash
    assert await (await backend.store()).verify(g) == (4, read[-1].hash)  # a fresh process agrees


async def test_a_forged_entry_is_refused_on_read(backend):
    store = await backend.store()
    g = game()
    await store.append(g, events(3), 0)
    fields = dict((await store.redis.xrange(store.keys(g).log, "3-0", "3-0"))[0][1])
    fields[b"payload"] = b"forged"  # a plausible entry whose hash does not match
    await store.redis.xadd(store.keys(g).log, fields, id="4-0")
    with pytest.raises(CorruptEvent) as info:
        [e async for e in store.read(g)]
    assert info.value.version == 4


async def test_the_live_tail_delivers_each_event_once_in_order(backend):
    store = await backend.store()
    g = game()
    await store.append(g, events(2), 0)
    async with tail_for(store, block_ms=100) as tail:
        subscription = tail.subscribe(g, after_version=1)
        writer = await backend.store()
        await writer.append(g, events(2, "x"), 2)
        await writer.append(g, events(1, "y"), 4)
        got = [(await asyncio.wait_for(anext(subscription), PATIENCE)).version for _ in range(4)]
    assert got == [2, 3, 4, 5]


async def test_snapshots_are_found_at_or_before_a_version(backend):
    store = await backend.store()
    store.snapshot_every = 10
    g = game()
    await store.append(g, events(25), 0)
    for version in (10, 20, 25):
        await store.put_snapshot(g, version, b"state at %d" % version, code_version="rules-1")
    found = await (await backend.store()).snapshot_at_or_before(g, 24, code_version="rules-1")
    assert (found.version, found.data, found.head) == (20, b"state at 20", await store.hash_at(g, 20))
    assert await store.snapshot_at_or_before(g, 9, code_version="rules-1") is None
    assert await store.snapshot_at_or_before(g, 25, code_version="rules-2") is None


async def test_an_acknowledged_append_is_on_a_replica(backend):
    if not backend.replicas:
        pytest.skip(f"the {backend.name} server has no replica")
    store = await backend.store()
    g = game()
    await store.append(g, events(3), 0)
    log = store.keys(g).log
    on = [r for r in backend.replicas if _replica_length(r, log) is not None]
    assert len(on) == 1, f"the log {log} is on {len(on)} replicas"  # its shard's replica, acknowledged
    assert _replica_length(on[0], log) == 3


def _replica_length(replica: redis.Redis, key: str) -> int | None:
    """The length of stream `key` on this replica (READONLY: a cluster replica serves its own slots);
    None when the key is not this node's."""
    try:
        replica.execute_command("READONLY")
    except redis.ResponseError:
        pass  # not a cluster node
    try:
        return replica.xlen(key) if replica.exists(key) else None
    except redis.ResponseError:  # MOVED: a slot of another shard
        return None
