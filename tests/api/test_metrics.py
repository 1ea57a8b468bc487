"""GET /metrics: the Prometheus text format, parsed by prometheus_client's own parser, and its
figures moving as a game is played (issue 33)."""

from __future__ import annotations

import random

from prometheus_client.parser import text_string_to_metric_families

from api.protocol import Ack, Error
from tests.api.apiharness import WsClient, new_game, play_steps


async def scrape(client) -> dict[tuple[str, tuple], float]:
    """Every sample of GET /metrics: (name, sorted labels) -> value."""
    async with client.get("/metrics") as response:
        assert response.status == 200
        assert response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
        text = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_the_counters_move_when_a_game_is_played(client):
    before = await scrape(client)
    game, joined = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    confederate = await WsClient(client, game["game_id"], joined["token"]).connect()
    watcher = await WsClient(client, game["game_id"]).connect()  # a spectator
    played = await play_steps(union, confederate, random.Random(7), 6)
    assert played == 6
    refused = await union.act("command", command={"type": "fly"})
    assert isinstance(refused, Error) and refused.code == "unknown_type"
    during = await scrape(client)

    commands = sum(
        v - before.get(k, 0.0)
        for k, v in during.items()
        if k[0] == "bluegray_messages_total" and ("outcome", "ok") in k[1]
    )
    assert commands >= played + 3  # the commands, and the three hellos
    assert value(during, "bluegray_messages_total", type="unreadable", outcome="unknown_type") == 0
    assert value(during, "bluegray_messages_total", type="command", outcome="unknown_type") == value(
        before, "bluegray_messages_total", type="command", outcome="unknown_type"
    ) + 1
    assert value(during, "bluegray_messages_total", type="hello", outcome="ok") >= 3
    assert value(during, "bluegray_command_seconds_count") - value(before, "bluegray_command_seconds_count") >= played
    assert value(during, "bluegray_store_seconds_count", op="append") > value(
        before, "bluegray_store_seconds_count", op="append"
    )
    assert value(during, "bluegray_websockets_open", role="player") >= 2
    assert value(during, "bluegray_websockets_open", role="spectator") >= 1
    assert value(during, "bluegray_games_live") >= 1
    assert ("bluegray_broadcast_queue_depth", ()) in during and ("bluegray_store_retries_total", ()) in during

    for c in (union, confederate, watcher):
        await c.close()


async def test_a_message_refused_by_the_rate_limit_is_counted(make_client):
    client = await make_client(rate_per_second=0.001, rate_burst=2)
    game, _ = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect()  # the hello: 1 of 2
    answers = [await union.act("chat", text=f"{i}") for i in range(3)]
    assert isinstance(answers[0], Ack) and [a.code for a in answers[1:]] == ["rate_limited", "rate_limited"]
    samples = await scrape(client)
    assert value(samples, "bluegray_rate_limited_total") == 2
    assert value(samples, "bluegray_messages_total", type="unreadable", outcome="rate_limited") == 2
    await union.close()
