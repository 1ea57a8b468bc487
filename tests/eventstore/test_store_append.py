"""Appending: atomic compare-and-append, idempotent command keys, nothing written by a failed script."""

import asyncio
import uuid

import pytest

from eventstore.envelope import GENESIS, NewEvent
from eventstore.errors import ChainError, Conflict, CorruptEvent, KeyMismatch
from eventstore.store import Appended, CommandKey, RedisEventStore


def events(n: int, tag: str = "e") -> list[NewEvent]:
    return [NewEvent(type="moved", payload=f"{tag}{i}".encode(), actor="north") for i in range(n)]


def game() -> str:
    return uuid.uuid4().hex


async def snapshot_of(store: RedisEventStore, game_id: str) -> dict:
    """Every key of the game, dumped: equal snapshots mean nothing was written."""
    keys = store.keys(game_id)
    return {name: await store.redis.dump(key) for name, key in keys._asdict().items()}


async def test_versions_start_at_one_with_entry_ids_version_dash_zero(store):
    g = game()
    assert await store.version(g) == 0
    assert await store.append(g, events(2), 0) == Appended(1, 2)
    assert await store.append(g, events(1), 2) == Appended(3, 3)
    ids = [entry_id for entry_id, _ in await store.redis.xrange(store.keys(g).log)]
    assert ids == [b"1-0", b"2-0", b"3-0"]
    assert await store.version(g) == 3
    assert await store.verify(g) == await store.head(g)


async def test_one_of_many_concurrent_appenders_with_one_expected_version_wins(store, redis_url):
    g = game()
    await store.append(g, events(3), 0)
    # Separate stores (own clients and connections), as if separate server processes.
    stores = [RedisEventStore.from_url(redis_url, prefix=store.prefix) for _ in range(8)]
    results = await asyncio.gather(
        *(s.append(g, events(2, tag=f"w{i}-"), 3) for i, s in enumerate(stores)), return_exceptions=True
    )
    wins = [r for r in results if isinstance(r, Appended)]
    conflicts = [r for r in results if isinstance(r, Conflict)]
    assert wins == [Appended(4, 5)]
    assert len(conflicts) == 7 and all(c.current == 5 and c.expected == 3 for c in conflicts)
    envelopes = [e async for e in store.read(g)]
    assert [e.version for e in envelopes] == [1, 2, 3, 4, 5]
    for s in stores:
        await s.aclose()


async def test_concurrent_appenders_that_retry_leave_no_gap_and_no_duplicate(store, redis_url):
    g = game()
    stores = [RedisEventStore.from_url(redis_url, prefix=store.prefix) for _ in range(6)]

    async def appender(s: RedisEventStore, writer: int) -> None:
        for n in range(10):
            key = CommandKey.of(f"seat{writer}", f"c{n}", b"body")
            version = await s.version(g)
            while True:
                try:
                    await s.append(g, [NewEvent(type="t", payload=f"{writer}:{n}".encode())], version, key)
                    break
                except Conflict as conflict:
                    version = conflict.current

    await asyncio.gather(*(appender(s, i) for i, s in enumerate(stores)))
    envelopes = [e async for e in store.read(g)]
    assert [e.version for e in envelopes] == list(range(1, 61))
    assert sorted(e.payload for e in envelopes) == sorted(f"{w}:{n}".encode() for w in range(6) for n in range(10))
    assert (await store.verify(g))[0] == 60
    for s in stores:
        await s.aclose()


async def test_append_answers_with_the_envelopes_as_stored(store):
    g = game()
    first = await store.append(g, events(2), 0)
    second = await store.append(g, events(3, "x"), 2, CommandKey.of("north", "c", b"body"))
    stored = [e async for e in store.read(g)]
    assert list(first.envelopes) + list(second.envelopes) == stored
    assert [e.version for e in second.envelopes] == [3, 4, 5] and second.envelopes[0].prev == stored[1].hash
    # A duplicate stores nothing, and says so with no envelopes.
    again = await store.append(g, events(3, "x"), 2, CommandKey.of("north", "c", b"body"))
    assert again == Appended(3, 5, duplicate=True) and again.envelopes == ()


async def test_a_retried_command_is_answered_with_its_original_versions(store):
    g = game()
    key = CommandKey.of("south", "cmd-1", b'{"move":"2/3/IV"}')
    first = await store.append(g, events(2), 0, key)
    assert first == Appended(1, 2)
    assert await store.append(g, events(2), 0, key) == Appended(1, 2, duplicate=True)
    await store.append(g, events(3, "other"), 2, CommandKey.of("north", "cmd-1", b"x"))
    # After other appends, with any expected version, still the original answer and nothing added.
    assert await store.append(g, events(2), 5, key) == Appended(1, 2, duplicate=True)
    assert await store.append(g, events(2), 0, key) == Appended(1, 2, duplicate=True)
    assert await store.version(g) == 5
    assert await store.lookup(g, key) == Appended(1, 2, duplicate=True)
    assert await store.lookup(g, CommandKey.of("south", "cmd-2", b"")) is None


async def test_the_same_key_with_another_body_is_an_error(store):
    g = game()
    await store.append(g, events(1), 0, CommandKey.of("south", "cmd-1", b"one"))
    other = CommandKey.of("south", "cmd-1", b"two")
    before = await snapshot_of(store, g)
    with pytest.raises(KeyMismatch, match="cmd-1"):
        await store.append(g, events(1), 1, other)
    with pytest.raises(KeyMismatch):
        await store.lookup(g, other)
    assert await snapshot_of(store, g) == before


async def test_a_conflict_carries_the_current_version_and_writes_nothing(store):
    g = game()
    await store.append(g, events(4), 0)
    before = await snapshot_of(store, g)
    for expected in (0, 3, 5, 100):
        with pytest.raises(Conflict) as info:
            await store.append(g, events(1), expected, CommandKey.of("s", f"c{expected}", b""))
        assert (info.value.expected, info.value.current) == (expected, 4)
    assert await snapshot_of(store, g) == before


async def test_a_meta_head_that_is_not_the_logs_is_a_chain_error(store):
    g = game()
    await store.append(g, events(2), 0)
    await store.redis.hset(store.keys(g).meta, "head", b"\x01" * 32)
    fresh = RedisEventStore(store.redis, prefix=store.prefix)  # no cached head
    with pytest.raises(ChainError):
        await fresh.append(g, events(1), 2)
    with pytest.raises(ChainError):
        await fresh.verify(g)


async def test_the_script_validates_everything_before_its_first_write(store):
    """A call whose second event would make XADD fail (an odd field list) writes nothing at all."""
    g = game()
    await store.append(g, events(1), 0)
    before = await snapshot_of(store, g)
    _, head = await store.head(g)
    k = store.keys(g)
    one = [b"moved", 1, b"p", b"north", b"", 0, b"", head, b"\x02" * 32]
    two = [b"moved", 1, b"p", b"north", b"", 0, b"", b"\x02" * 32, b"\x03" * 32]
    bad_calls = {
        "second event truncated": [1, b"", b"", 2, b"", b"", *one, *two[:-1]],
        "count says more than given": [1, b"", b"", 3, b"", b"", *one, *two],
        "broken chain inside the call": [1, b"", b"", 2, b"", b"", *one, *one],
        "expected version not a number": [b"one", b"", b"", 1, b"", b"", *one],
        "schema not a number": [1, b"", b"", 2, b"", b"", *one, b"moved", b"x", *two[2:]],
        "body hash not hex": [1, b"k", b"zz", 1, b"", b"", *one],
    }
    for why, args in bad_calls.items():
        with pytest.raises(Exception, match="BG_BADARGS"):
            await store._append_script(keys=[k.log, k.meta, k.cmd], args=args)
        assert await snapshot_of(store, g) == before, why
    # The same arguments, well formed, do write (so the calls above failed for their fault alone).
    assert (await store._append_script(keys=[k.log, k.meta, k.cmd], args=[1, b"", b"", 2, b"", b"", *one, *two]))[0] == b"ok"


async def test_an_entry_added_behind_the_stores_back_blocks_appends_before_any_write(store):
    """XADD of version 3 would fail if an entry 3-0 already exists: the script sees it first."""
    g = game()
    await store.append(g, events(2), 0)
    await store.redis.xadd(store.keys(g).log, {"type": "forged"}, id="3-0")
    before = await snapshot_of(store, g)
    with pytest.raises(CorruptEvent, match="does not match meta version 2"):
        await store.append(g, events(2), 2, CommandKey.of("s", "c", b""))
    assert await snapshot_of(store, g) == before


async def test_the_script_is_reloaded_after_noscript(store):
    g = game()
    await store.append(g, events(1), 0)
    await store.redis.script_flush()
    assert await store.redis.script_exists(store._append_script.sha) == [False]
    assert await store.append(g, events(1), 1) == Appended(2, 2)
    assert await store.redis.script_exists(store._append_script.sha) == [True]


async def test_bad_arguments_are_refused_in_python(store):
    with pytest.raises(ValueError):
        await store.append(game(), [], 0)
    with pytest.raises(ValueError):
        await store.append(game(), events(1), -1)
    with pytest.raises(ValueError, match="game id"):
        await store.append("{g:other}", events(1), 0)
    with pytest.raises(ValueError, match="decode_responses"):
        import redis.asyncio as aioredis

        RedisEventStore(aioredis.Redis(decode_responses=True))


async def test_the_first_event_links_to_genesis(store):
    g = game()
    await store.append(g, events(2), 0)
    first, second = [e async for e in store.read(g)]
    assert first.prev == GENESIS and second.prev == first.hash
