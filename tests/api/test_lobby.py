"""The lobby (api/lobby.py): seeks anyone may accept, challenges to a named player, and the game an
acceptance starts, both seats bound to their accounts."""

from __future__ import annotations

import asyncio
import random

import msgspec
import pytest
from apiharness import WsClient, play_steps
from test_accounts import browser, register

from api.accounts import CSRF_HEADER
from api.app_keys import STORE
from api.lobby import MAX_OPEN

SEEK = {"scenario": "chattanooga", "ruleset": "classic", "side": "union", "rated": True}


async def post(session, path: str, csrf: str, body: dict | None = None):
    return await session.post(path, json=body if body is not None else {}, headers={CSRF_HEADER: csrf})


async def test_a_seek_accepted_starts_a_game_both_players_take_by_their_sessions(client):
    sherman = await register(client, "Sherman")
    made = await post(client, "/api/seeks", sherman["csrf"], SEEK)
    assert made.status == 201, await made.text()
    seek = await made.json()
    assert seek["by"] == "Sherman" and seek["kind"] == "seek" and seek["side"] == "union"
    async with browser(client) as anyone:  # anyone may look, signed in or not
        listed = await (await anyone.get("/api/lobby")).json()
        assert [s["id"] for s in listed["seeks"]] == [seek["id"]] and listed["challenges"] == []
        assert "nonce" not in await (await anyone.get("/api/lobby")).text()
    async with browser(client) as hood_browser:
        hood = await register(hood_browser, "Hood")
        accepted = await post(hood_browser, f"/api/lobby/{seek['id']}/accept", hood["csrf"])
        assert accepted.status == 201, await accepted.text()
        started = await accepted.json()
        assert started["seat"] == "confederate" and started["token"]
        assert (await (await client.get("/api/lobby")).json())["seeks"] == []  # taken out
        mine = (await (await client.get("/api/me/games")).json())["games"]
        assert [(g["game_id"], g["seat"]) for g in mine] == [(started["game_id"], "union")]
        union = await WsClient(client, started["game_id"]).connect(spectate=False)
        confederate = await WsClient(hood_browser, started["game_id"]).connect(spectate=False)
        assert (union.seat, confederate.seat) == ("union", "confederate")
        assert await play_steps(union, confederate, random.Random(11), 4) == 4
        assert confederate.events == union.events
    first = [e async for e in client.app[STORE].read(started["game_id"], 1, 1)][0]
    assert msgspec.json.decode(first.payload)["rated"] is True  # the log itself says the game is rated


async def test_of_two_players_accepting_one_seek_exactly_one_gets_the_game(client):
    pope = await register(client, "Pope")
    seek = await (await post(client, "/api/seeks", pope["csrf"], {**SEEK, "side": "random"})).json()
    async with browser(client) as one, browser(client) as two:
        csrf_one = (await register(one, "Porter"))["csrf"]
        csrf_two = (await register(two, "McDowell"))["csrf"]
        answers = await asyncio.gather(
            post(one, f"/api/lobby/{seek['id']}/accept", csrf_one), post(two, f"/api/lobby/{seek['id']}/accept", csrf_two)
        )
        assert sorted(a.status for a in answers) == [201, 404]
        winner = next(a for a in answers if a.status == 201)
        seat = (await winner.json())["seat"]
        assert seat in ("union", "confederate")  # "random" was drawn when accepted
        pope_games = (await (await client.get("/api/me/games")).json())["games"]
        assert len(pope_games) == 1 and pope_games[0]["seat"] != seat


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({**SEEK, "scenario": "waterloo"}, 404, "no scenario 'waterloo'"),
        ({**SEEK, "ruleset": "chess"}, 400, "is played with"),
        ({**SEEK, "opponent": "Lee"}, 400, "names no opponent"),
        ({**SEEK, "side": "blue"}, 400, "side"),
        ({**SEEK, "clock": {"mode": "correspondence", "days_per_turn": 0}}, 400, "days_per_turn"),
    ],
)
async def test_a_bad_seek_is_refused_naming_what_is_wrong(client, body, status, says):
    me = await register(client, "Banks")
    response = await post(client, "/api/seeks", me["csrf"], body)
    assert response.status == status, await response.text()
    assert says in (await response.json())["error"]["message"]


async def test_the_lobby_refuses_who_may_not(client):
    async with browser(client) as anonymous:
        assert (await anonymous.post("/api/seeks", json=SEEK)).status == 401
    me = await register(client, "Butler")
    seek = await (await post(client, "/api/seeks", me["csrf"], SEEK)).json()
    own = await post(client, f"/api/lobby/{seek['id']}/accept", me["csrf"])
    assert own.status == 400 and "his own proposal" in (await own.json())["error"]["message"]
    async with browser(client) as other:
        csrf = (await register(other, "Rosecrans"))["csrf"]
        assert (await other.delete(f"/api/lobby/{seek['id']}", headers={CSRF_HEADER: csrf})).status == 403
    assert (await client.delete(f"/api/lobby/{seek['id']}", headers={CSRF_HEADER: me["csrf"]})).status == 204
    assert (await post(client, f"/api/lobby/{seek['id']}/accept", me["csrf"])).status == 404


async def test_a_challenge_only_its_opponent_may_accept_or_decline(client):
    thomas = await register(client, "Thomas")
    async with browser(client) as bragg_browser, browser(client) as third:
        bragg = await register(bragg_browser, "Bragg")
        other = await register(third, "Polk")
        made = await post(client, "/api/challenges", thomas["csrf"], {**SEEK, "opponent": "bragg"})
        assert made.status == 201, await made.text()
        challenge = await made.json()
        assert challenge["kind"] == "challenge" and challenge["opponent"] == "Bragg"
        assert [c["id"] for c in (await (await bragg_browser.get("/api/lobby")).json())["challenges"]] == [challenge["id"]]
        assert (await (await third.get("/api/lobby")).json())["challenges"] == []  # nobody else's business
        assert (await (await third.get("/api/lobby")).json())["seeks"] == []  # nor a seek
        assert (await post(third, f"/api/lobby/{challenge['id']}/accept", other["csrf"])).status == 403
        assert (await post(third, f"/api/lobby/{challenge['id']}/decline", other["csrf"])).status == 403
        assert (await post(bragg_browser, f"/api/lobby/{challenge['id']}/decline", bragg["csrf"])).status == 204
        assert (await (await client.get("/api/lobby")).json())["challenges"] == []
        again = await (await post(client, "/api/challenges", thomas["csrf"], {**SEEK, "opponent": "Bragg"})).json()
        accepted = await post(bragg_browser, f"/api/lobby/{again['id']}/accept", bragg["csrf"])
        assert accepted.status == 201 and (await accepted.json())["seat"] == "confederate"


@pytest.mark.parametrize(
    ("opponent", "status", "says"),
    [(None, 400, "names its opponent"), ("Nobody", 404, "no player 'Nobody'"), ("Hooker", 400, "himself")],
)
async def test_a_bad_challenge_is_refused(client, opponent, status, says):
    me = await register(client, "Hooker")
    body = {**SEEK} | ({} if opponent is None else {"opponent": opponent})
    response = await post(client, "/api/challenges", me["csrf"], body)
    assert response.status == status and says in (await response.json())["error"]["message"]


async def test_a_player_may_have_only_so_many_proposals_open(client):
    me = await register(client, "Burnside")
    for _ in range(MAX_OPEN):
        assert (await post(client, "/api/seeks", me["csrf"], SEEK)).status == 201
    refused = await post(client, "/api/seeks", me["csrf"], SEEK)
    assert refused.status == 429 and (await refused.json())["error"]["code"] == "rate_limited"
