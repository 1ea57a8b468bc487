"""Reading: paged, verified, failing closed for a damaged game only; snapshots as a cache."""

import uuid

import msgspec
import pytest

from eventstore.envelope import NewEvent
from eventstore.errors import ChainError, CorruptEvent, UnknownEventType, UnreadableEvent
from eventstore.store import RedisEventStore


def game() -> str:
    return uuid.uuid4().hex


def numbered(start: int, n: int) -> list[NewEvent]:
    return [NewEvent(type="added", payload=b"%d" % i) for i in range(start, start + n)]


async def filled(store: RedisEventStore, n: int, batch: int = 7) -> str:
    g = game()
    version = 0
    while version < n:
        size = min(batch, n - version)
        await store.append(g, numbered(version + 1, size), version)
        version += size
    return g


def fold(total: int, envelopes) -> int:
    """A toy reducer: the state is the sum of the payloads."""
    for e in envelopes:
        total += int(e.payload)
    return total


async def test_read_pages_through_any_range(store):
    store.page_size = 4  # many pages
    g = await filled(store, 23)
    assert [int(e.payload) async for e in store.read(g)] == list(range(1, 24))
    assert [e.version async for e in store.read(g, 5, 13)] == list(range(5, 14))
    assert [e.version async for e in store.read(g, 20)] == [20, 21, 22, 23]
    assert [e.version async for e in store.read(g, 23, 23)] == [23]
    assert [e.version async for e in store.read(g, 24)] == []
    assert [e.version async for e in store.read(g, 9, 8)] == []
    assert [e.version async for e in store.read(game())] == []


async def test_envelopes_carry_what_the_caller_gave_and_the_store_added(store):
    g = game()
    event = NewEvent(type="attacked", schema=3, payload=b"\x00\xff", actor="south", command_id="c9", digest=b"d" * 32)
    await store.append(g, [event], 0)
    (envelope,) = [e async for e in store.read(g)]
    assert (envelope.type, envelope.schema, envelope.payload, envelope.actor, envelope.command_id, envelope.digest) == (
        "attacked", 3, b"\x00\xff", "south", "c9", b"d" * 32)
    assert envelope.version == 1 and envelope.time > 1_700_000_000_000
    assert envelope.hash == envelope.expected_hash()


async def test_a_forged_entry_fails_that_game_closed_and_not_the_others(store):
    bad, good = await filled(store, 5), await filled(store, 5)
    fields = dict((await store.redis.xrange(store.keys(bad).log, "5-0", "5-0"))[0][1])
    fields[b"payload"] = b"999"  # a plausible entry whose hash no longer matches
    await store.redis.xadd(store.keys(bad).log, fields, id="6-0")
    with pytest.raises(CorruptEvent) as info:
        [e async for e in store.read(bad)]
    assert (info.value.game_id, info.value.version) == (bad, 6)
    # Everything before it still reads; the other game reads and verifies entirely.
    assert [e.version async for e in store.read(bad, 1, 5)] == [1, 2, 3, 4, 5]
    assert fold(0, [e async for e in store.read(good)]) == 15
    assert (await store.verify(good))[0] == 5
    with pytest.raises(UnreadableEvent):
        await store.verify(bad)


@pytest.mark.parametrize(
    "damage, reason",
    [
        (lambda f: f.pop(b"digest"), "fields"),
        (lambda f: f.update({b"schema": b"three"}), "undecodable"),
        (lambda f: f.update({b"prev": b"\x00" * 32}), "does not link"),
        (lambda f: f.update({b"actor": b"north"}), "hash does not match"),
    ],
)
async def test_damaged_entries_are_refused(store, damage, reason):
    g = await filled(store, 2)
    entry = dict((await store.redis.xrange(store.keys(g).log, "2-0", "2-0"))[0][1])
    entry[b"prev"] = entry[b"hash"]  # a copy of event 2 that links to it: fine but for its hash
    damage(entry)
    await store.redis.xadd(store.keys(g).log, entry, id="3-0")
    with pytest.raises(CorruptEvent, match=reason):
        [e async for e in store.read(g)]


async def test_a_gap_in_versions_is_refused(store):
    g = await filled(store, 2)
    entry = dict((await store.redis.xrange(store.keys(g).log, "2-0", "2-0"))[0][1])
    await store.redis.xadd(store.keys(g).log, entry, id="4-0")
    with pytest.raises(CorruptEvent, match="expected entry id 3-0"):
        [e async for e in store.read(g)]


async def test_an_unknown_event_type_fails_closed(store):
    g = game()
    await store.append(g, [NewEvent(type="moved", payload=b""), NewEvent(type="teleported", payload=b"")], 0)
    strict = RedisEventStore(store.redis, prefix=store.prefix, known_types={"moved"})
    with pytest.raises(UnknownEventType, match="teleported") as info:
        [e async for e in strict.read(g)]
    assert info.value.version == 2


async def test_verify_catches_a_log_shorter_than_its_meta(store):
    g = await filled(store, 3)
    await store.redis.hset(store.keys(g).meta, "version", 4)
    with pytest.raises(ChainError, match="meta says version 4"):
        await store.verify(g)


async def test_verify_catches_a_meta_behind_its_log(store):
    g = await filled(store, 5)
    await store.redis.hset(store.keys(g).meta, mapping={"version": 3, "head": (await store.hash_at(g, 3))})
    with pytest.raises(ChainError, match="runs to version 5 but the meta says version 3"):
        await store.verify(g)


async def test_verify_catches_a_meta_head_not_in_the_chain(store):
    g = await filled(store, 4)
    await store.redis.hset(store.keys(g).meta, "head", b"\x00" * 32)
    with pytest.raises(ChainError, match="another hash at version 4"):
        await store.verify(g)


class AppendingAfterRead(RedisEventStore):
    """A store whose read lets another writer append two events just after the walk ends: a live
    game, where a command lands between verify's read of the log and its read of the meta."""

    async def read(self, game_id, from_version=1, to_version=None):
        async for envelope in super().read(game_id, from_version, to_version):
            yield envelope
        version, _ = await self.head(game_id)
        await self.append(game_id, numbered(version + 1, 2), version)


async def test_verify_of_a_live_game_accepts_events_appended_after_the_walk(store):
    g = await filled(store, 6)
    walked = await store.head(g)
    live = AppendingAfterRead(store.redis, prefix=store.prefix)
    assert await live.verify(g) == walked
    assert (await store.head(g))[0] == 8  # the two appended during verify are there, and chained
    assert (await store.verify(g))[0] == 8


async def test_snapshot_then_read_equals_a_full_read(store):
    store.snapshot_every = 10
    g = await filled(store, 57)
    for version in range(5, 58, 5):
        state = fold(0, [e async for e in store.read(g, 1, version)])
        await store.put_snapshot(g, version, msgspec.msgpack.encode(state), code_version="rules-1")
    full = fold(0, [e async for e in store.read(g)])
    for target in (4, 5, 9, 10, 31, 50, 54, 55, 57):
        snapshot = await store.snapshot_at_or_before(g, target)
        base, after = (0, 1) if snapshot is None else (msgspec.msgpack.decode(snapshot.data), snapshot.version + 1)
        assert fold(base, [e async for e in store.read(g, after, target)]) == fold(
            0, [e async for e in store.read(g, 1, target)]
        )
        if snapshot is not None:
            assert snapshot.head == (await store.hash_at(g, snapshot.version))
    latest = await store.snapshot_at_or_before(g, 57)
    assert latest.version == 55
    assert fold(msgspec.msgpack.decode(latest.data), [e async for e in store.read(g, 56)]) == full


async def test_snapshots_keep_every_nth_and_the_newest(store):
    store.snapshot_every = 10
    g = await filled(store, 35)
    for version in range(1, 36):
        await store.put_snapshot(g, version, b"%d" % version, code_version="v1")
    kept = [int(s) for s in await store.redis.zrange(store.keys(g).snap, 0, -1, withscores=True, score_cast_func=int)
            for s in [s[1]]]
    assert kept == [10, 20, 30, 35]
    assert (await store.snapshot_at_or_before(g, 29)).version == 20
    assert await store.snapshot_at_or_before(g, 9) is None


async def test_snapshots_are_tagged_with_the_code_version(store):
    g = await filled(store, 30)
    store.snapshot_every = 10
    await store.put_snapshot(g, 10, b"old", code_version="v1")
    await store.put_snapshot(g, 20, b"new", code_version="v2")
    assert (await store.snapshot_at_or_before(g, 30, code_version="v1")).data == b"old"
    assert (await store.snapshot_at_or_before(g, 30, code_version="v2")).data == b"new"
    assert await store.snapshot_at_or_before(g, 30, code_version="v3") is None
    with pytest.raises(ValueError):
        await store.put_snapshot(g, 31, b"beyond the log", code_version="v2")
