"""`bluegray serve --ack-replicas 1` on a private 6-node Redis Cluster while bots play: a primary
is SIGKILLed, its replica is promoted, the server's clients reconnect and play goes on; no
acknowledged event is lost, none is applied twice, and every game still verifies.

Printed with `pytest -s`: the commands acknowledged, the events checked, the commands answered
`unavailable` (sent again with the same command_id), and how long play stopped."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time

import pytest
from apiharness import WsClient, new_game
from test_store_outage import Bots, check_log, serve

from api.protocol import Ack, Error
from eventstore.store import RedisEventStore

pytestmark = pytest.mark.cluster

GAMES = 3
REVIVE_AFTER = 4.0  # seconds: an operator (or a supervisor) restarts the killed node; it rejoins as a replica


class PacedBots(Bots):
    """Bots that think 20 ms between commands (the games on the shards that stay up would otherwise
    outrun the server's rate limit); a `rate_limited` answer is waited out and sent again."""

    async def send(self, mover: WsClient, command, command_id: str) -> Ack:
        await asyncio.sleep(0.02)
        while True:
            reply = await mover.command(command, command_id=command_id)
            if isinstance(reply, Ack):
                self.acks.append((mover.seat, reply))
                await mover.until_version(reply.last)
                return reply
            assert isinstance(reply, Error) and reply.code in ("unavailable", "rate_limited"), reply
            self.unavailable += reply.code == "unavailable"
            await asyncio.sleep(reply.retry_after)


@pytest.fixture
def refusing_cluster(cluster):
    """The session's cluster with `min-replicas-to-write 1` on every node (and on a node restarted
    meanwhile), which `serve --ack-replicas 1` requires; back to 0 afterwards."""

    def set_all(n: int) -> None:
        cluster.min_replicas_to_write = n
        for port in cluster.ports:
            with contextlib.closing(cluster.client(port)) as client:
                client.config_set("min-replicas-to-write", n)

    set_all(1)
    try:
        yield cluster
    finally:
        cluster.revive()
        set_all(0)


async def test_bots_play_on_through_the_failover_of_a_primary(refusing_cluster):
    cluster = refusing_cluster
    async with serve("--redis-url", cluster.url, "--ack-replicas", "1") as http:
        games = []
        for i in range(GAMES):
            game, joined = await new_game(http)
            gid = game["game_id"]
            union = await WsClient(http, gid, game["token"]).connect()
            confederate = await WsClient(http, gid, joined["token"]).connect()
            games.append((gid, PacedBots(union, confederate, random.Random(11 + i))))
        for _, bots in games:
            await bots.play(5)
        store = RedisEventStore.from_url(cluster.url)
        await store.redis.initialize()
        # The primary that holds the first game: its play must stop and resume.
        victim = store.redis.get_node_from_key(store.keys(games[0][0]).log).port
        playing = [asyncio.create_task(bots.play()) for _, bots in games]
        try:
            before = [len(bots.acks) for _, bots in games]
            killed = time.monotonic()
            await asyncio.to_thread(cluster.kill, victim)
            await asyncio.sleep(REVIVE_AFTER)
            await asyncio.to_thread(cluster.start_node, victim)
            first_game = games[0][1]
            while len(first_game.acks) < before[0] + 5:
                assert time.monotonic() - killed < 90, "play never resumed on the failed-over shard"
                for task in playing:
                    assert not task.done() or task.exception() is None
                await asyncio.sleep(0.05)
            resumed = time.monotonic() - killed
            await asyncio.sleep(1)
        finally:
            for task in playing:
                task.cancel()
            await asyncio.gather(*playing, return_exceptions=True)
        assert cluster.role(victim) == "slave"  # the old primary came back as a replica
        checked = 0
        for gid, bots in games:
            checked += await check_log(cluster.url, gid, bots.acks)
            verify = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "api", "verify", gid, "--redis-url", cluster.url,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            out, err = await verify.communicate()
            assert verify.returncode == 0, out.decode() + err.decode()
        await store.aclose()
    acked = sum(len(bots.acks) for _, bots in games)
    unavailable = sum(bots.unavailable for _, bots in games)
    print(
        f"\nfailover of primary {victim} under {GAMES} games: {acked} commands acknowledged, {checked} events "
        f"checked, 0 lost, 0 applied twice; {unavailable} answered unavailable (sent again); play on its "
        f"shard resumed {resumed:.1f} s after the kill (the node restarted after {REVIVE_AFTER:.0f} s); "
        "every game verifies"
    )
