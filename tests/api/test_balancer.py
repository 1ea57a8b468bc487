"""Two `bluegray serve` processes on one store behind HAProxy (api/balancer.py), no sticky sessions:
bots play through the balancer, one `serve` is SIGKILLed mid-game, and its clients reconnect through
the balancer to the other and resume from their last version; nothing acknowledged is lost, nothing
is applied twice, and every game verifies.

`pytest -m balancer` runs it alone (`-s` prints the figures); skipped only when Debian's `haproxy` is
not installed. On the loaded 2-core machine each test takes about 15 s (starting the processes most
of it; the play after the kill under a second); the kill is run on a private embedded server and on
the session's private cluster (also marked `cluster`).
"""

from __future__ import annotations

import asyncio
import random
import signal
import sys
import time
from collections import Counter
from contextlib import AsyncExitStack

import aiohttp
import pytest
from apiharness import WsClient, new_game
from test_store_outage import Bots, check_log, serve

from api.balancer import HAProxy, find_haproxy, haproxy_config
from api.protocol import Ack, Error
from eventstore.store import RedisEventStore
from players.selfplay import random_player

pytestmark = [
    pytest.mark.balancer,
    pytest.mark.skipif(
        find_haproxy() is None, reason="haproxy is not installed (Debian: apt-get install haproxy)"
    ),
]

GAMES = 2
BEFORE, AFTER = 8, 8  # commands per game before the kill and after it


class Client(WsClient):
    """A player's connection through the balancer, which knows the process serving it."""

    served_by: str = ""

    async def connect(self, *args, **kwargs) -> Client:
        await super().connect(*args, **kwargs)
        # which `serve` the balancer sent this websocket to (its X-Served-By header on the upgrade)
        self.served_by = self.ws._response.headers["X-Served-By"]
        return self


class ReconnectingBots(Bots):
    """Bots whose seats reconnect through the balancer when their connection is lost (from their last
    version) and send the command it cut off again with the same `command_id`."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.reconnects = 0
        self.resent = 0
        self.moved: list[str] = []  # the process each reconnected seat was served by

    async def reconnect(self, seat: Client) -> None:
        while True:
            try:
                await seat.close()
                await seat.connect()  # last_version: its own version, so only what it lacks comes
                break
            except (ConnectionError, aiohttp.ClientError, OSError):
                await asyncio.sleep(0.1)
        self.reconnects += 1
        self.moved.append(seat.served_by)

    async def play(self, commands: int | None = None) -> None:
        while commands is None or commands > 0:
            for c in self.seats.values():
                await self._guard(c, lambda c=c: c.until_version(max(s.version for s in self.seats.values())))
            h = self.seats["union"].history
            if h.finished:
                return
            mover = self.seats[h.session.to_act]
            self._n += 1
            await self.send(mover, random_player(mover.history.state, self.rng), f"bot-{self._n}")
            commands = None if commands is None else commands - 1

    async def _guard(self, seat: Client, work):
        while True:
            try:
                return await work()
            except (ConnectionError, aiohttp.ClientError):
                await self.reconnect(seat)

    async def send(self, mover: Client, command, command_id: str) -> Ack:
        while True:
            try:
                reply = await mover.command(command, command_id=command_id)
            except (ConnectionError, aiohttp.ClientError):
                await self.reconnect(mover)
                self.resent += 1
                continue
            if isinstance(reply, Ack):
                self.acks.append((mover.seat, reply))
                await self._guard(mover, lambda last=reply.last: mover.until_version(last))
                return reply
            # a store failing over, or the new process's rate limit on a burst of resends: the same
            # command_id again after retry_after (never applied twice)
            assert isinstance(reply, Error) and reply.code in ("unavailable", "rate_limited"), reply
            self.unavailable += 1
            await asyncio.sleep(reply.retry_after)


@pytest.fixture(params=["embedded", pytest.param("cluster", marks=pytest.mark.cluster)])
def store_url(request) -> str:
    """The one store both processes use: a private embedded server (its unix socket), or the
    session's private 6-node Redis Cluster."""
    if request.param == "cluster":
        return request.getfixturevalue("cluster").url
    return request.getfixturevalue("private_redis")().url


async def test_a_serve_killed_behind_the_balancer_its_players_resume_on_the_other(store_url, tmp_path):
    async with AsyncExitStack() as stack:
        servers = [await stack.enter_async_context(serve("--redis-url", store_url)) for _ in range(2)]
        backends = [s.url.removeprefix("http://") for s in servers]
        balancer = stack.enter_context(HAProxy(backends, directory=tmp_path / "haproxy"))
        http = await stack.enter_async_context(aiohttp.ClientSession(base_url=balancer.url))
        games = []
        for i in range(GAMES):
            game, joined = await new_game(http)
            gid = game["game_id"]
            union = await Client(http, gid, game["token"]).connect()
            confederate = await Client(http, gid, joined["token"]).connect()
            games.append((gid, ReconnectingBots(union, confederate, random.Random(21 + i))))
        seats = [seat for _, bots in games for seat in bots.seats.values()]
        # No stickiness: the balancer spread the seats, and the two seats of a game may be on two
        # processes (each process's live tail brings the other's appends to its clients).
        assert {seat.served_by for seat in seats} == {"serve1", "serve2"}
        assert any(len({seat.served_by for seat in bots.seats.values()}) == 2 for _, bots in games)
        await asyncio.gather(*(bots.play(BEFORE) for _, bots in games))

        playing = [asyncio.create_task(bots.play()) for _, bots in games]
        await asyncio.sleep(0.3)  # mid-game: commands in flight
        victim_name = seats[0].served_by
        victim = servers[int(victim_name.removeprefix("serve")) - 1]
        on_victim = sum(seat.served_by == victim_name for seat in seats)
        at_kill = [len(bots.acks) for _, bots in games]
        killed = time.monotonic()
        victim.process.send_signal(signal.SIGKILL)
        await victim.process.wait()
        try:
            while any(len(bots.acks) < n + AFTER for (_, bots), n in zip(games, at_kill, strict=True)):
                assert time.monotonic() - killed < 60, "play never resumed"
                for task in playing:
                    assert not task.done() or task.exception() is None, task.exception()
                await asyncio.sleep(0.05)
        finally:
            for task in playing:
                task.cancel()
            await asyncio.gather(*playing, return_exceptions=True)
        took = time.monotonic() - killed
        survivor = next(name for name in ("serve1", "serve2") if name != victim_name)
        reconnects = sum(bots.reconnects for _, bots in games)
        resent = sum(bots.resent for _, bots in games)
        assert reconnects >= on_victim  # every seat the dead process held came back ...
        assert all(name == survivor for _, bots in games for name in bots.moved)  # ... on the other
        assert all(seat.served_by == survivor for seat in seats if seat.ws and not seat.ws.closed)

        # A new game through the balancer: the dead process is skipped.
        game, joined = await new_game(http)
        assert game["game_id"]

        checked = applied = 0
        for gid, bots in games:
            checked += await check_log(store_url, gid, bots.acks)  # each ack once, where it said
            ids = [(seat, ack.command_id) for seat, ack in bots.acks]
            assert len(ids) == len(set(ids))  # no command acknowledged twice
            applied += len(ids)
            records = Counter(
                (e.actor, e.command_id) for e in await _log(store_url, gid) if e.type == "command"
            )
            assert (
                records and max(records.values()) == 1
            )  # every command in the log once, acknowledged or not
            for seat in bots.seats.values():  # each client has the log, in order, no gap, none twice
                assert [e.version for e in seat.events] == list(range(1, seat.version + 1))
            verify = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "api", "verify", gid, "--redis-url", store_url,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            out, err = await verify.communicate()
            assert verify.returncode == 0, out.decode() + err.decode()
        for seat in seats:
            await seat.close()
    print(
        f"\n{'cluster' if store_url.startswith('redis+cluster') else 'embedded'}: serve SIGKILLed behind HAProxy under {GAMES} games: {on_victim} of {len(seats)} seats on it, "
        f"{reconnects} reconnects (all to {survivor}), {resent} commands sent again after a lost answer; "
        f"{applied} commands acknowledged, each applied once; {checked} events checked, 0 lost; "
        f"{AFTER}+ commands per game played within {took:.1f} s of the kill; every game verifies"
    )


async def _log(url: str, game_id: str) -> list:
    store = RedisEventStore.from_url(url)
    try:
        return [e async for e in store.read(game_id)]
    finally:
        await store.aclose()


def test_the_sample_configuration_in_the_docs_is_the_code_s():
    from pathlib import Path

    sample = (Path(__file__).resolve().parents[2] / "docs" / "haproxy.cfg").read_text()
    assert sample == haproxy_config(8080, ["127.0.0.1:8081", "127.0.0.1:8082", "127.0.0.1:8083"])


def test_loadtest_plays_through_two_servers_behind_the_balancer():
    """`bluegray loadtest --servers 2`: both processes and HAProxy started, games played through it,
    the CPU of each group counted, everything stopped (about 15 s)."""
    import json
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "api", "loadtest", "--games", "2", "--duration", "2", "--think", "0.2",
         "--servers", "2", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    (report,) = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert report["configuration"] == "2 serves + HAProxy, embedded"
    assert report["commands"] > 0 and report["errors"] == 0
    assert report["command_latency_ms"]["p99"] is not None and report["broadcast_latency_ms"]["deliveries"] > 0
    assert report["server_cpu_s"] is not None and report["balancer_cpu_s"] is not None
