"""SIGTERM during a load of 50 games on a real `bluegray serve` process (issue 33): every acknowledged
command is in the log, every client got its answer or `server_restarting`, and the process exits 0
within 10 s (api/shutdown.py)."""

from __future__ import annotations

import asyncio
import random
import signal
import time

import pytest
from apiharness import WsClient, new_game
from test_processes import serve

from api.protocol import Ack, Error, ServerRestarting
from eventstore.store import RedisEventStore

GAMES = 50


async def play_until_stopped(union: WsClient, confederate: WsClient, rng: random.Random, acked: list) -> str:
    """Random legal commands, each by the seat the game waits for, until the server stops: how this
    game's clients learnt of it ("refused": an action answered server_restarting; "told": the
    server_restarting message before the socket closed)."""
    seats = {"union": union, "confederate": confederate}
    while True:
        try:
            for c in seats.values():
                await c.until_version(max(s.version for s in seats.values()))
            if union.history.finished:
                return "finished"
            answer = await seats[union.history.session.to_act].play_random(rng)
        except ConnectionError:  # closed, or closing while this client wrote
            for c in seats.values():
                await read_to_the_end(c)
                assert any(isinstance(m, ServerRestarting) for m in c.inbox), "closed without server_restarting"
            return "told"
        if isinstance(answer, Error):
            assert answer.code == "server_restarting", answer
            return "refused"
        assert isinstance(answer, Ack)
        acked.append((union.game_id, answer))


async def read_to_the_end(client: WsClient) -> None:
    """What the server sent before the socket closed, into the client's inbox."""
    while True:
        try:
            client.inbox.append(await client.receive())
        except ConnectionError:
            return


@pytest.mark.slow
async def test_sigterm_during_fifty_games_loses_nothing_and_exits_in_time(private_redis):
    redis = private_redis()
    async with serve("--redis-url", redis.url) as server:
        clients = []
        for _ in range(GAMES):
            game, joined = await new_game(server)
            clients.append(
                (
                    await WsClient(server, game["game_id"], game["token"]).connect(),
                    await WsClient(server, game["game_id"], joined["token"]).connect(),
                )
            )
        acked: list[tuple[str, Ack]] = []
        games = [
            asyncio.create_task(play_until_stopped(u, c, random.Random(i), acked)) for i, (u, c) in enumerate(clients)
        ]
        while len(acked) < 4 * GAMES:  # under way in every game
            await asyncio.sleep(0.05)
        sent = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(server.process.wait(), 10)
        took = time.monotonic() - sent
        endings = await asyncio.gather(*games)

    print(f"SIGTERM after {len(acked)} acks: exit {code} in {took:.2f} s; games {sorted(endings)[::10]}")
    assert code == 0 and took < 10, (code, took)
    assert set(endings) <= {"told", "refused", "finished"} and "told" in endings, endings
    store = RedisEventStore.from_url(redis.url)
    try:
        for game_id, ack in acked:
            logged = [e async for e in store.read(game_id, ack.first, ack.last)]
            assert [e.version for e in logged] == list(range(ack.first, ack.last + 1))
            assert {e.command_id for e in logged} == {ack.command_id}, (game_id, ack)
    finally:
        await store.aclose()
