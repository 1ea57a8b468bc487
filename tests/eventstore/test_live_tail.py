"""The live tail: every event once, in order, to every subscriber; across a Redis restart; and a
cancelled reader leaves no connection behind."""

import asyncio
import uuid

import pytest
from redis.exceptions import ResponseError

from eventstore.envelope import NewEvent
from eventstore.errors import CorruptEvent, TailOverflow
from eventstore.store import RedisEventStore
from eventstore.tail import Tail

PATIENCE = 60  # seconds: a guard against hanging forever, not a measure of speed


def game() -> str:
    return uuid.uuid4().hex


def numbered(start: int, n: int) -> list[NewEvent]:
    return [NewEvent(type="added", payload=b"%d" % i) for i in range(start, start + n)]


async def take(subscription, n: int) -> list[int]:
    return [(await asyncio.wait_for(anext(subscription), PATIENCE)).version for _ in range(n)]


async def eventually(condition, what: str) -> None:
    for _ in range(PATIENCE * 100):
        if await condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


async def reader_waiting(tail: Tail) -> None:
    """Until the reader waits for announcements on its SUBSCRIBEd connection (with `block_ms` of
    600 s, its next read of every stream is ten minutes away)."""
    async def waiting():
        clients = await tail.store.redis.client_list()
        return any(int(c["id"]) == tail.client_id and "P" in c["flags"] for c in clients) and tail._wake.is_set() is False

    await eventually(waiting, "the reader waits for announcements")


async def test_each_subscriber_gets_each_event_once_in_order(store):
    g = game()
    await store.append(g, numbered(1, 3), 0)
    async with Tail(store, block_ms=100) as tail:
        current = tail.subscribe(g, after_version=3)
        behind = tail.subscribe(g, after_version=0)  # the tail fills its gap
        middle = tail.subscribe(g, after_version=2)
        await store.append(g, numbered(4, 2), 3)
        await store.append(g, numbered(6, 1), 5)
        await store.append(g, numbered(7, 3), 6)
        assert await take(current, 6) == [4, 5, 6, 7, 8, 9]
        assert await take(behind, 9) == list(range(1, 10))
        assert await take(middle, 7) == list(range(3, 10))
        await store.append(g, numbered(10, 1), 9)
        for subscription in (current, behind, middle):
            assert await take(subscription, 1) == [10]
            assert subscription._queue.empty()  # nothing twice
            subscription.close()
            with pytest.raises(StopAsyncIteration):
                await anext(subscription)


async def test_a_new_subscription_does_not_wait_for_the_current_block(store):
    first, second = game(), game()
    async with Tail(store, block_ms=600_000) as tail:  # ten minutes between reads of every stream
        tail.subscribe(first, after_version=0)
        await reader_waiting(tail)
        late = tail.subscribe(second, after_version=0)
        await store.append(second, numbered(1, 1), 0)
        assert await take(late, 1) == [1]


async def test_a_full_queue_drops_the_subscriber_not_the_reader(store):
    slow_game, other_game = game(), game()
    async with Tail(store, block_ms=100, queue_size=3) as tail:
        slow = tail.subscribe(slow_game, after_version=0)
        other = tail.subscribe(other_game, after_version=0)
        await asyncio.wait_for(slow.joined.wait(), PATIENCE)
        await store.append(slow_game, numbered(1, 5), 0)
        await store.append(other_game, numbered(1, 2), 0)
        assert await take(other, 2) == [1, 2]
        assert await take(slow, 3) == [1, 2, 3]  # what was queued is still delivered
        with pytest.raises(TailOverflow) as info:
            await asyncio.wait_for(anext(slow), PATIENCE)
        assert info.value.last_version == 3
        again = tail.subscribe(slow_game, after_version=info.value.last_version)
        assert await take(again, 2) == [4, 5]
        # A gap wider than the queue is refused at once: read the history, then subscribe.
        far_behind = tail.subscribe(slow_game, after_version=0)
        with pytest.raises(TailOverflow) as info:
            await asyncio.wait_for(anext(far_behind), PATIENCE)
        assert info.value.last_version == 0
        await store.append(other_game, numbered(3, 1), 2)
        assert await take(other, 1) == [3]  # the reader went on


async def test_the_tail_survives_a_redis_restart(private_redis):
    server = private_redis()
    store = RedisEventStore.from_url(server.url)
    g = game()
    async with Tail(store, block_ms=200) as tail:
        subscription = tail.subscribe(g, after_version=0)
        await store.append(g, numbered(1, 3), 0)
        assert await take(subscription, 3) == [1, 2, 3]
        before = tail.client_id
        server.kill()
        server.start()
        await store.append(g, numbered(4, 2), 3)  # the store reconnects by itself
        server.stop()  # and a clean restart too
        server.start()
        await store.append(g, numbered(6, 1), 5)
        assert await take(subscription, 3) == [4, 5, 6]
        await store.append(g, numbered(7, 1), 6)
        assert await take(subscription, 1) == [7]  # nothing repeated, nothing skipped
        assert tail.client_id != before
    await store.aclose()


async def test_cancelling_the_reader_mid_block_closes_its_connection(store):
    tail = Tail(store, block_ms=600_000)
    await tail.start()
    subscription = tail.subscribe(game(), after_version=0)
    await reader_waiting(tail)
    reader = tail.client_id
    await tail.stop()  # cancels the reader while it waits in XREAD BLOCK

    async def gone():
        return all(int(c["id"]) != reader for c in await store.redis.client_list())

    await eventually(gone, "the reader's connection is closed")
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(anext(subscription), PATIENCE)


async def test_cancelling_the_task_that_owns_the_tail_closes_its_connection(store):
    started = asyncio.Event()
    ids = []

    async def server_process():
        async with Tail(store, block_ms=600_000) as tail:
            tail.subscribe(game(), after_version=0)
            await reader_waiting(tail)
            ids.append(tail.client_id)
            started.set()
            await asyncio.sleep(3600)

    task = asyncio.create_task(server_process())
    await asyncio.wait_for(started.wait(), PATIENCE)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    async def gone():
        return all(int(c["id"]) != ids[0] for c in await store.redis.client_list())

    await eventually(gone, "the reader's connection is closed")


async def test_a_damaged_game_fails_closed_and_the_others_go_on(store):
    bad, good = game(), game()
    async with Tail(store, block_ms=100) as tail:
        damaged = tail.subscribe(bad, after_version=0)
        healthy = tail.subscribe(good, after_version=0)
        await store.append(bad, numbered(1, 1), 0)
        assert await take(damaged, 1) == [1]
        await store.redis.xadd(store.keys(bad).log, {"type": "forged"}, id="2-0")
        with pytest.raises(CorruptEvent):
            await asyncio.wait_for(anext(damaged), PATIENCE)
        await store.append(good, numbered(1, 2), 0)
        assert await take(healthy, 2) == [1, 2]


async def test_subscribing_to_a_stopped_tail_ends_at_once(store):
    tail = Tail(store)
    subscription = tail.subscribe(game(), after_version=0)
    with pytest.raises(RuntimeError, match="not running"):
        await anext(subscription)


async def test_a_game_with_a_broken_key_ends_only_its_own_subscription(store):
    broken, good = game(), game()
    await store.redis.set(store.keys(broken).meta, "not a hash")
    async with Tail(store, block_ms=100) as tail:
        bad = tail.subscribe(broken, after_version=0)
        with pytest.raises(ResponseError, match="WRONGTYPE"):
            await asyncio.wait_for(anext(bad), PATIENCE)
        healthy = tail.subscribe(good, after_version=0)
        await store.append(good, numbered(1, 1), 0)
        assert await take(healthy, 1) == [1]


async def test_one_reader_follows_many_games(store):
    games = [game() for _ in range(60)]
    async with Tail(store, block_ms=100) as tail:
        subscriptions = [tail.subscribe(g, after_version=0) for g in games]
        for i, g in enumerate(games):
            await store.append(g, numbered(1, 1 + i % 3), 0)
        for i, subscription in enumerate(subscriptions):
            assert await take(subscription, 1 + i % 3) == list(range(1, 2 + i % 3))
