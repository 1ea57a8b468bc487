"""`bluegray serve --ack-replicas 1 --ack-replicas-aof` on a primary that is cut off from its replica
(with the server and its players) five times while bots play: every command the server acknowledged
is in the log exactly once, on the primary and on the replica, and play resumes after each heal.

The namespaces and the pair are those of the partition run (bench/benchmarks/partition.py): the
primary and the replica each in a network namespace of its own, packet loss on the replication link;
`serve` runs here, beside the bots, linked to the primary. Only heals with the same primary: a
failover would need `serve` sent to the new primary (a restart, or a proxy), which the store-level
test (tests/eventstore/test_partition.py) does with its writers instead. Skipped, with the reason,
where network namespaces cannot be made."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from apiharness import WsClient, new_game
from test_store_outage import Bots, check_log, serve

from bench.benchmarks.partition import Pair
from eventstore.netns import Network, unavailable

pytestmark = pytest.mark.partition

GAMES = 3
PARTITIONS = 5


@pytest.fixture
def pair(tmp_path):
    reason = unavailable()
    if reason:
        pytest.skip(f"network namespaces not available: {reason}")
    with Network() as net:
        pair = Pair(net, tmp_path, delay_ms=50, loss_percent=5)
        pair.start("a")
        pair.start("b", replica_of="a")
        pair.wait_in_sync("a", "b")
        yield pair


async def test_bots_play_on_through_partitions_of_the_primary_and_lose_nothing(pair):
    async with serve("--redis-url", pair.url("a"), "--ack-replicas", "1", "--ack-replicas-aof") as http:
        games = []
        for i in range(GAMES):
            game, joined = await new_game(http)
            gid = game["game_id"]
            union = await WsClient(http, gid, game["token"]).connect()
            confederate = await WsClient(http, gid, joined["token"]).connect()
            games.append((gid, Bots(union, confederate, random.Random(31 + i))))
        playing = [asyncio.create_task(bots.play()) for _, bots in games]
        resumed = []
        try:
            for _ in range(PARTITIONS):
                await asyncio.sleep(1)
                await asyncio.to_thread(pair.replication.down)
                await asyncio.sleep(3)
                before = sum(len(bots.acks) for _, bots in games)
                healed = time.monotonic()
                await asyncio.to_thread(pair.replication.up)
                while sum(len(bots.acks) for _, bots in games) <= before:
                    assert time.monotonic() - healed < 60, "play never resumed after a heal"
                    for task in playing:
                        if task.done():
                            task.result()  # a bot that failed: its exception
                    await asyncio.sleep(0.02)
                resumed.append(time.monotonic() - healed)
        finally:
            for task in playing:
                task.cancel()
            await asyncio.gather(*playing, return_exceptions=True)
        assert http.process.returncode is None  # the same `serve` all along
    await asyncio.to_thread(pair.wait_in_sync, "a", "b")
    checked = 0
    for gid, bots in games:
        for node in ("a", "b"):  # once on the primary, and once on the replica a failover would promote
            checked += await check_log(pair.url(node), gid, bots.acks)
    acked = sum(len(bots.acks) for _, bots in games)
    unavailable_answers = sum(bots.unavailable for _, bots in games)
    assert acked > 0 and unavailable_answers > 0  # the partitions were felt, and nothing was lost
    print(
        f"\n{PARTITIONS} partitions of the primary under {GAMES} games through serve: {acked} commands "
        f"acknowledged, {checked} events checked on both nodes, 0 lost, 0 applied twice; "
        f"{unavailable_answers} answered unavailable (sent again); play resumed after each heal in "
        f"{', '.join(f'{s:.2f}' for s in resumed)} s"
    )
