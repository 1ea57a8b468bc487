"""The built-in computer on the ladder (api/house_computers.py): a player challenges Computer-easy
from the lobby, the computer accepts at once and takes its seat from a process of its own, and the
rated result moves the computer's rating as it does a player's."""

from __future__ import annotations

from apiharness import WsClient
from test_accounts import browser, register
from test_lobby import post

from api.app_keys import ACCOUNTS, RATER
from api.house_computers import ensure, level_of
from api.protocol import Ack


async def test_a_rated_challenge_to_the_computer_starts_at_once_and_rates_the_computer(client):
    async with browser(client) as grant_browser:
        grant = await register(grant_browser, "Grant")
        answer = await post(
            grant_browser,
            "/api/challenges",
            grant["csrf"],
            {"scenario": "chattanooga", "side": "confederate", "opponent": "computer-EASY", "rated": True},
        )
        assert answer.status == 201, await answer.text()
        started = await answer.json()
        assert started["seat"] == "confederate" and started["token"]  # the challenger's own seat
        assert (await (await grant_browser.get("/api/lobby")).json())["challenges"] == []  # never waited there
        seat = await WsClient(grant_browser, started["game_id"]).connect(spectate=False)
        while not any(e.type == "seat_joined" and e.actor == "union" for e in seat.events):
            await seat.receive()  # the computer's process joins the Union seat
        ack = await seat.act("resign", command_id="grant-resigns")
        assert isinstance(ack, Ack), ack
        await seat.until_version(ack.last)
        await seat.close()
    await client.app[RATER].idle()
    page = await (await client.get("/api/players/Computer-easy")).json()
    assert page["kind"] == "computer"
    assert page["ratings"]["classic:chattanooga"]["games"] == 1
    assert page["ratings"]["classic:chattanooga"]["rating"] > 1500  # it won
    assert [(g["game_id"], g["seat"]) for g in page["games"]] == [(started["game_id"], "union")]
    board = await (await client.get("/api/leaderboard/classic/chattanooga")).json()
    assert [leader["name"] for leader in board] == ["Computer-easy", "Grant"]


async def test_the_computers_names_are_taken_and_making_them_twice_changes_nothing(client):
    names = await ensure(client.app[ACCOUNTS])  # the server made them at start; again: the same
    assert names == ["Computer-easy", "Computer-normal", "Computer-hard", "Computer-expert"]
    for name in names:
        account, _ = await client.app[ACCOUNTS].find(name)
        assert account is not None and level_of(account) == name.removeprefix("Computer-")
    async with browser(client) as impostor:
        answer = await impostor.post("/api/accounts", json={"name": "Computer-Normal", "password": "correct horse battery"})
        assert answer.status == 409, await answer.text()
        assert (await answer.json())["error"]["code"] == "name_taken"


async def test_nobody_logs_in_as_the_computer(client):
    async with browser(client) as someone:
        answer = await someone.post("/api/session", json={"name": "Computer-hard", "password": "!"})
        assert answer.status == 401, await answer.text()
