"""Crashes and restarts: no acknowledged event is lost, and keys stay idempotent across them.

What the SIGKILL test proves: the Redis process dying at any moment after an append was
acknowledged loses nothing, because an acknowledged write is in the append-only file (in the
kernel's page cache at least, fsynced too with `appendfsync always`). A killed process's page cache
survives, so this does not exercise a power loss; only fsync (`always`) covers that.
"""

import uuid

import pytest

from eventstore.envelope import NewEvent
from eventstore.store import Appended, CommandKey, RedisEventStore


def events(n: int, tag: str) -> list[NewEvent]:
    return [NewEvent(type="fired", payload=f"{tag}/{i}".encode() * 20, digest=bytes([i]) * 32) for i in range(n)]


@pytest.mark.parametrize("fsync", ["always", "everysec"])
async def test_sigkill_after_acknowledged_appends_loses_nothing(private_redis, fsync):
    server = private_redis(fsync=fsync)
    store = RedisEventStore.from_url(server.url)
    games = [uuid.uuid4().hex for _ in range(3)]
    acknowledged = {g: [] for g in games}
    for round_ in range(40):
        for g in games:
            batch = events(1 + round_ % 3, f"{g}-{round_}")
            result = await store.append(g, batch, len(acknowledged[g]), CommandKey.of("s", f"c{round_}", b""))
            assert result.first == len(acknowledged[g]) + 1
            acknowledged[g] += batch  # acknowledged: the append returned
    await store.aclose()

    server.kill()  # SIGKILL: no shutdown, no final fsync
    server.start()  # the same data directory

    store = RedisEventStore.from_url(server.url)
    for g in games:
        stored = [e async for e in store.read(g)]
        assert [(e.type, e.payload, e.digest) for e in stored] == [
            (e.type, e.payload, e.digest) for e in acknowledged[g]
        ]
        assert await store.verify(g) == (len(acknowledged[g]), stored[-1].hash)
        # And the game goes on from where it was.
        assert (await store.append(g, events(1, "after"), len(stored))).first == len(stored) + 1
    await store.aclose()


async def test_duplicate_keys_after_a_redis_restart(private_redis):
    server = private_redis()
    store = RedisEventStore.from_url(server.url)
    g = uuid.uuid4().hex
    key = CommandKey.of("north", "c-1", b"attack 0412")
    assert await store.append(g, events(2, "a"), 0, key) == Appended(1, 2)
    server.kill()
    server.start()
    # The same client: its pooled connections died with the server; the script cache is empty too
    # (NOSCRIPT), so this also reloads the script.
    assert await store.redis.script_exists(store._append_script.sha) == [False]
    assert await store.append(g, events(2, "a"), 0, key) == Appended(1, 2, duplicate=True)
    assert await store.append(g, events(1, "b"), 2, CommandKey.of("north", "c-2", b"")) == Appended(3, 3)
    assert await store.lookup(g, key) == Appended(1, 2, duplicate=True)
    server.stop()  # a clean stop, then a start: the same
    server.start()
    assert await store.append(g, events(2, "a"), 3, key) == Appended(1, 2, duplicate=True)
    assert await store.version(g) == 3
    await store.aclose()
