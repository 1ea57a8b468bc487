"""The end of a game: resignation, draws, a silent seat's game claimed; the seed revealed and every
roll verifiable; nothing acts after the end."""

import random

from apiharness import GAMES, WsClient, new_game, play_steps, play_until

from api.protocol import Ack
from replay.verify import verify
from session import dice
from session.records import GameFinished


async def players(client, **body):
    game, joined = await new_game(client, **body)
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    confederate = await WsClient(client, game["game_id"], joined["token"]).connect()
    return game, union, confederate


async def test_a_resigned_game_reveals_its_seed_and_verifies(client, store):
    game, union, confederate = await players(client, options={"dice": "fair"})
    await play_until(union, confederate, random.Random(3), lambda h: h.session.last_roll() > 0)
    ack = await confederate.act("resign")
    await union.until_version(ack.last)
    finished = union.history.finished
    assert isinstance(finished, GameFinished)
    assert (finished.reason, finished.by, finished.winner) == ("resignation", "confederate", "union")
    assert dice.seed_hash(bytes.fromhex(finished.seed)) == union.welcome.seed_hash
    report = verify(game["game_id"], [e async for e in store.read(game["game_id"])], GAMES)
    assert report.ok and report.dice_checked and report.rolls > 0 and report.dice == "fair"


async def test_a_draw_offered_declined_then_accepted(client):
    game, union, confederate = await players(client)
    assert isinstance(await union.act("draw_offer"), Ack)
    assert (await union.act("draw_offer")).code == "illegal"  # one offer at a time
    assert (await union.act("draw_accept")).code == "illegal"  # not his own
    assert isinstance(await confederate.act("draw_decline"), Ack)
    assert isinstance(await confederate.act("draw_offer"), Ack)
    ack = await union.act("draw_accept")
    await confederate.until_version(ack.last)
    finished = confederate.history.finished
    assert (finished.reason, finished.by, finished.winner) == ("draw", "union", None)
    view = await (await client.get(f"/api/games/{game['game_id']}")).json()
    assert view["status"] == "finished" and view["finished"]["reason"] == "draw"


async def test_a_draw_offer_lapses_with_a_game_action(client):
    game, union, confederate = await players(client)
    await confederate.act("draw_offer")
    await play_steps(union, confederate, random.Random(2), 1)
    assert (await union.act("draw_accept")).code == "illegal"


async def test_a_silent_seat_lets_the_opponent_claim_the_game(client):
    game, union, confederate = await players(client)  # silence allowed: a week
    refused = await confederate.act("claim")
    assert refused.code == "illegal" and refused.retry_after > 6 * 86400
    assert (await union.act("claim")).code == "illegal"  # the game waits for him, not his opponent

    quick, union, confederate = await players(client, options={"silence_seconds": 0})
    listed = await (await client.get("/api/games?status=waiting")).json()
    assert [g["game_id"] for g in listed["games"]] == [quick["game_id"]]
    ack = await confederate.act("claim")
    await union.until_version(ack.last)
    finished = union.history.finished
    assert (finished.reason, finished.by, finished.winner) == ("abandonment", "confederate", "confederate")
    assert (await union.act("resign")).code == "game_over"
