"""Ratings (api/rating_games.py, accounts/ratings.py, api/standings.py): a finished rated game
moves both players' Glicko-2 ratings once, under the rule set and on the battle; the battle's
measured balance is the Union's advantage; the players' pages and the leaderboard show them."""

from __future__ import annotations

import pytest
from apiharness import WsClient
from test_accounts import browser, register

from api.accounts import CSRF_HEADER
from api.app_keys import GAMES, RATER, RATINGS, STORE
from api.protocol import Ack
from session.history import load

SEEK = {"scenario": "chattanooga", "side": "union"}


async def rated_game_the_union_wins(client, union_name: str, confederate_name: str, rated: bool = True) -> str:
    """Union and Confederate accounts meet by a seek; the Confederate resigns. The game's id."""
    async with browser(client) as union_browser, browser(client) as confederate_browser:
        union = await register(union_browser, union_name)
        confederate = await register(confederate_browser, confederate_name)
        seek = await union_browser.post("/api/seeks", json={**SEEK, "rated": rated}, headers={CSRF_HEADER: union["csrf"]})
        seek = await seek.json()
        started = await confederate_browser.post(f"/api/lobby/{seek['id']}/accept", json={}, headers={CSRF_HEADER: confederate["csrf"]})
        game_id = (await started.json())["game_id"]
        seat = await WsClient(confederate_browser, game_id).connect(spectate=False)
        ack = await seat.act("resign", command_id="give-up")
        assert isinstance(ack, Ack), ack
        await seat.until_version(ack.last)
        await seat.close()
    await client.app[RATER].idle()
    return game_id


async def standing(client, name: str, which: str) -> dict:
    page = await (await client.get(f"/api/players/{name}")).json()
    return page["ratings"][which]


async def test_a_rated_win_moves_both_ratings_once_and_tops_the_leaderboard(client):
    game_id = await rated_game_the_union_wins(client, "Grant", "Pemberton")
    for which in ("classic", "classic:chattanooga"):
        winner, loser = await standing(client, "Grant", which), await standing(client, "Pemberton", which)
        assert winner["games"] == loser["games"] == 1
        assert winner["rating"] > 1500 > loser["rating"]
        assert winner["rating"] - 1500 == pytest.approx(1500 - loser["rating"], abs=0.2)  # even balance: symmetric
        assert winner["deviation"] < 350 and loser["deviation"] < 350
    board = await (await client.get("/api/leaderboard/classic/chattanooga")).json()
    assert [leader["name"] for leader in board] == ["Grant", "Pemberton"]
    # on the battle as the side each played: Grant as the Union, Pemberton as the Confederate only
    winner, loser = await standing(client, "Grant", "classic:chattanooga:union"), await standing(client, "Pemberton", "classic:chattanooga:confederate")
    assert winner["games"] == loser["games"] == 1 and winner["rating"] > 1500 > loser["rating"]
    page = await (await client.get("/api/players/Grant")).json()
    assert "classic:chattanooga:confederate" not in page["ratings"]
    assert [(g["game_id"], g["seat"], g["status"], g["outcome"], g["result"]) for g in page["games"]] == [
        (game_id, "union", "finished", "won", "resignation")
    ]
    lost = (await (await client.get("/api/players/Pemberton")).json())["games"]
    assert [(g["outcome"], g["result"]) for g in lost] == [("lost", "resignation")]
    balance = await client.app[RATINGS].balance("classic", "chattanooga")
    assert (balance.games, balance.union, balance.draws) == (1, 1, 0)
    # never twice: the game was claimed for rating
    finished = await load(client.app[STORE], game_id, client.app[GAMES])
    assert await client.app[RATER].rate(game_id, finished) is False
    assert (await standing(client, "Grant", "classic"))["games"] == 1


async def test_an_expected_win_gains_less_than_an_even_one(client):
    """The battle's balance as the Union's advantage: once the Union has won most rated games of
    this battle, a Union win is expected and moves the ratings less."""
    await rated_game_the_union_wins(client, "Even1", "Even2")
    even_gain = (await standing(client, "Even1", "classic:chattanooga"))["rating"] - 1500
    for _ in range(18):
        await client.app[RATINGS].count_result("classic", "chattanooga", "union")
    await rated_game_the_union_wins(client, "Favoured1", "Favoured2")
    expected_gain = (await standing(client, "Favoured1", "classic:chattanooga"))["rating"] - 1500
    assert 0 < expected_gain < even_gain


async def test_an_unrated_game_moves_no_rating(client):
    await rated_game_the_union_wins(client, "Casual1", "Casual2", rated=False)
    page = await (await client.get("/api/players/Casual1")).json()
    assert page["ratings"] == {} and len(page["games"]) == 1


async def test_an_unknown_player_and_a_bad_query_are_refused(client):
    assert (await client.get("/api/players/Nobody")).status == 404
    bad = await client.get("/api/leaderboard/classic/chattanooga?limit=0")
    assert bad.status == 400 and "limit" in (await bad.json())["error"]["message"]
