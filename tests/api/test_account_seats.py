"""A seat belongs to the account that took it (api/seats.py `bind`, api/ws.py): any browser signed
in to that account takes the seat without its token; no other account can; and GET /api/me/games
lists a player's games with whose move it is."""

from __future__ import annotations

import random

import pytest
from apiharness import WsClient, play_steps
from test_accounts import PASSWORD, browser, register

from api.accounts import CSRF_HEADER
from api.protocol import Ack, Error


async def signed_in_game(client):
    """Union (signed in as Grant, in `client`) created a game; Confederate (Lee, in another browser)
    joined it. Returns (the game's id, Lee's browser, Grant's and Lee's tokens)."""
    grant = await register(client, "Grant")
    made = await client.post(
        "/api/games",
        json={"scenario": "chattanooga", "side": "union", "options": {"dice": "insecure"}},
        headers={CSRF_HEADER: grant["csrf"]},
    )
    assert made.status == 201, await made.text()
    game = await made.json()
    lee_browser = browser(client)
    lee = await register(lee_browser, "Lee")
    joined = await lee_browser.post(
        f"/api/games/{game['game_id']}/join", json={"invite": game["invite"]}, headers={CSRF_HEADER: lee["csrf"]}
    )
    assert joined.status == 200, await joined.text()
    return game["game_id"], lee_browser, game["token"], (await joined.json())["token"]


async def tokenless_hello(session, game_id: str, **headers) -> dict:
    """The answer to a `hello` asking for a seat with neither token nor spectate."""
    ws = await session.ws_connect("/ws", headers=headers)
    await ws.send_json({"type": "hello", "game_id": game_id, "spectate": False})
    answer = await ws.receive_json()
    await ws.close()
    return answer


async def test_a_second_browser_of_the_account_takes_its_seat_without_the_token(client):
    game_id, lee_browser, grant_token, _ = await signed_in_game(client)
    async with lee_browser, browser(client) as laptop:
        assert (await laptop.post("/api/session", json={"name": "Grant", "password": PASSWORD})).status == 200
        union = await WsClient(laptop, game_id).connect(spectate=False)
        confederate = await WsClient(lee_browser, game_id).connect(spectate=False)
        assert (union.seat, confederate.seat) == ("union", "confederate")
        assert await play_steps(union, confederate, random.Random(3), 6) == 6
        # the token still works too, in any client
        by_token = await WsClient(client, game_id, grant_token).connect()
        assert by_token.seat == "union"
        await by_token.until_version(union.version)
        assert by_token.events == union.events


async def test_no_account_can_take_or_act_in_anothers_seat(client):
    game_id, lee_browser, _, _ = await signed_in_game(client)
    async with lee_browser, browser(client) as stranger:
        await register(stranger, "Stranger")
        intruder = await tokenless_hello(stranger, game_id)
        assert intruder["code"] == "unauthorized" and "holds no seat" in intruder["message"], intruder
        # Lee's session is the Confederate seat's, never the Union's: it cannot act for Union
        lee = await WsClient(lee_browser, game_id).connect(spectate=False)
        assert lee.seat == "confederate"
        answer = await lee.act("command", command_id="c-1", command={"type": "end_phase"})
        assert isinstance(answer, Error) and answer.code == "not_your_turn"
        # spectating needs no seat
        watcher = await WsClient(stranger, game_id).connect()
        assert watcher.seat is None


async def test_a_websocket_from_another_sites_page_does_not_use_the_cookie(client):
    game_id, lee_browser, _, _ = await signed_in_game(client)
    async with lee_browser:
        answer = await tokenless_hello(lee_browser, game_id, Origin="https://evil.example")
        assert answer["type"] == "error" and answer["code"] == "unauthorized", answer
        assert (await tokenless_hello(lee_browser, game_id))["type"] == "welcome"  # from its own pages


async def test_without_a_session_a_tokenless_seat_hello_is_refused(client):
    game_id, lee_browser, _, _ = await signed_in_game(client)
    await lee_browser.close()
    async with browser(client) as anonymous:
        refused = await tokenless_hello(anonymous, game_id)
        assert refused["code"] == "unauthorized" and "seat token" in refused["message"], refused


async def test_my_games_lists_each_players_games_and_whose_move_it_is(client):
    game_id, lee_browser, grant_token, lee_token = await signed_in_game(client)
    async with lee_browser:
        grant = await (await client.get("/api/me/games")).json()
        lee = await (await lee_browser.get("/api/me/games")).json()
        assert [(g["game_id"], g["seat"]) for g in grant["games"]] == [(game_id, "union")]
        assert [(g["game_id"], g["seat"]) for g in lee["games"]] == [(game_id, "confederate")]
        to_act = grant["games"][0]["to_act"]
        assert to_act in ("union", "confederate")
        assert grant["games"][0]["your_move"] == (to_act == "union")
        assert lee["games"][0]["your_move"] == (to_act == "confederate")
        mover = client if to_act == "union" else lee_browser
        other = lee_browser if mover is client else client
        assert [g["game_id"] for g in (await (await mover.get("/api/me/games?your_move=true")).json())["games"]] == [game_id]
        assert (await (await other.get("/api/me/games?your_move=true")).json())["games"] == []
        # after the mover's move, the list follows
        seat_client = await WsClient(mover, game_id).connect(spectate=False)
        ack = await seat_client.play_random(random.Random(5))
        assert isinstance(ack, Ack)
        after = (await (await client.get("/api/me/games")).json())["games"][0]
        assert after["version"] >= ack.last
    async with browser(client) as anonymous:
        response = await anonymous.get("/api/me/games")
        assert response.status == 401


@pytest.mark.parametrize("bad", ["limit=0", "offset=-1", "your_move=perhaps"])
async def test_my_games_refuses_a_bad_query_naming_it(client, bad):
    await register(client, "Meade")
    response = await client.get(f"/api/me/games?{bad}")
    assert response.status == 400
    assert bad.split("=")[0] in (await response.json())["error"]["message"]


async def test_the_game_names_each_seat_an_account_holds(client):
    # GET /api/games/{id} `players`: the name of the player holding each seat bound to an account, so that
    # a game's page can link to its players' pages (and their Block button); a guest's seat is not named.
    game_id, lee_browser, _, _ = await signed_in_game(client)
    async with lee_browser:
        seen = await (await client.get(f"/api/games/{game_id}")).json()
        assert seen["players"] == {"union": "Grant", "confederate": "Lee"}
    async with browser(client) as guest:  # not signed in
        made = await guest.post("/api/games", json={"scenario": "chattanooga", "side": "union"})
        assert made.status == 201, await made.text()
        seen = await (await guest.get(f"/api/games/{(await made.json())['game_id']}")).json()
    assert seen["players"] == {} and seen["seats"] == {"union": True, "confederate": False}
