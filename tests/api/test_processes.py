"""Real `bluegray serve` processes: two on one Redis serve one game together; a server killed with
SIGKILL mid-game (and its embedded Redis with it) comes back with every acknowledged event."""

import asyncio
import contextlib
import os
import random
import signal
import sys
from contextlib import asynccontextmanager

import aiohttp
import pytest
from apiharness import PATIENCE, WsClient, new_game, play_steps

from api.protocol import Ack
from eventstore.embedded import EmbeddedRedis
from session.visibility import withheld_copy


@asynccontextmanager
async def serve(*args: str):
    """A `bluegray serve --port 0 ...` process and an HTTP session on it; SIGKILLed if still alive
    at the end."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "api", "serve", "--port", "0", "--log-level", "WARNING", *args,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        line = (await asyncio.wait_for(process.stdout.readline(), PATIENCE)).decode()
        assert line.startswith("bluegray serving on http://"), line
        url = line.split()[3]
        async with aiohttp.ClientSession(base_url=url) as session:
            session.process = process
            yield session
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


async def test_two_server_processes_on_one_redis_serve_one_game(private_redis):
    redis = private_redis()
    args = ("--redis-url", redis.url)
    async with serve(*args) as one, serve(*args) as two:
        game, joined = await new_game(one)
        gid = game["game_id"]
        union = await WsClient(one, gid, game["token"]).connect()
        confederate = await WsClient(two, gid, joined["token"]).connect()
        watchers = [await WsClient(server, gid).connect() for server in (one, two)]
        await play_steps(union, confederate, random.Random(1), 40)
        # A command sent to either process is applied once, whatever the connection: the same id
        # through the other process is the same outcome.
        ack = await union.act("chat", command_id="hello-both", text="hi")
        tab = await WsClient(two, gid, game["token"]).connect()
        assert await tab.act("chat", command_id="hello-both", text="hi") == Ack(
            command_id="hello-both", first=ack.first, last=ack.last, duplicate=True
        )
        await confederate.until_version(union.version)
        assert confederate.events == union.events
        # spectators get the chat line as its placeholder: neither seat shows its chat (session/visibility.py)
        seen = [withheld_copy(e) if e.type == "chat" else e for e in union.events]
        for c in watchers:
            await c.until_version(union.version)
            assert c.events == seen


async def test_racing_processes_each_action_once_in_order(private_redis):
    redis = private_redis()
    args = ("--redis-url", redis.url)
    async with serve(*args) as one, serve(*args) as two:
        game, joined = await new_game(one)
        gid = game["game_id"]
        a = await WsClient(one, gid, game["token"]).connect()
        b = await WsClient(two, gid, joined["token"]).connect()
        # Both seats chat at once through different processes: every line lands, once, in order.

        async def burst(c: WsClient) -> list:
            for i in range(15):
                await c.send(type="chat", command_id=f"{c.seat}-{i}", text=f"{c.seat} {i}")
            acks = []
            while len(acks) < 15:
                message = await c.receive()
                if isinstance(message, Ack):
                    acks.append(message)
            return acks

        acks = [x for batch in await asyncio.gather(burst(a), burst(b)) for x in batch]
        versions = sorted(x.first for x in acks)
        assert versions == list(range(4, 4 + 30))
        await a.until_version(33)
        await b.until_version(33)
        assert a.events == b.events


@pytest.mark.parametrize("kill_redis", [False, True], ids=["server", "server-and-redis"])
async def test_a_server_killed_mid_game_continues_from_its_last_acknowledged_event(tmp_path, kill_redis):
    data = tmp_path / "var"
    args = ("--data-dir", str(data))
    rng = random.Random(2)
    try:
        async with serve(*args) as first:
            game, joined = await new_game(first)
            gid = game["game_id"]
            union = await WsClient(first, gid, game["token"]).connect()
            confederate = await WsClient(first, gid, joined["token"]).connect()
            await play_steps(union, confederate, rng, 25)
            acknowledged = union.version
            redis_pid = int((data / "redis" / "redis.pid").read_text())
            first.process.send_signal(signal.SIGKILL)
            await first.process.wait()
            if kill_redis:
                with contextlib.suppress(ProcessLookupError):  # it may be gone already, with its parent
                    os.kill(redis_pid, signal.SIGKILL)
        async with serve(*args) as second:
            for c in (union, confederate):
                c.client = second
                await c.connect()  # from its last version: nothing missing, nothing new
                assert c.version == acknowledged
            assert await play_steps(union, confederate, rng, 10) == 10
            view = await (await second.get(f"/api/games/{gid}")).json()
            assert view["version"] == union.version > acknowledged
    finally:
        server = EmbeddedRedis(data / "redis")
        server.start()  # adopts a server left running, then stops it
        server.stop()
