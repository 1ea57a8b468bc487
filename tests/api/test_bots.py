"""Bot accounts (api/bots.py): a player makes a bot and gets its API token once; the bot uses the
lobby and plays over the same websocket with `Authorization: Bearer bgb_...`, no cookie and no CSRF
token; it has no password; its owner alone renews its token, which ends the old one. The built-in
computer opponent plays as such a bot (api/bot_client.py)."""

from __future__ import annotations

import asyncio

import aiohttp
from apiharness import PATIENCE, WsClient
from test_accounts import PASSWORD, browser, register

from api.accounts import CSRF_HEADER
from api.bot_client import serve_seeks
from api.protocol import Ack

SEEK = {"scenario": "chattanooga", "side": "union"}


async def make_bot(session, csrf: str, name: str) -> str:
    made = await session.post("/api/me/bots", json={"name": name}, headers={CSRF_HEADER: csrf})
    assert made.status == 201, await made.text()
    body = await made.json()
    assert body["name"] == name and body["token"].startswith("bgb_")
    return body["token"]


def as_bot(client, token: str) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(base_url=client.make_url(""), headers={"Authorization": f"Bearer {token}"})


async def test_a_bot_posts_a_seek_and_plays_its_seat_by_its_token(client):
    owner = await register(client, "Jomini")
    token = await make_bot(client, owner["csrf"], "JominiBot")
    async with as_bot(client, token) as bot, browser(client) as human_browser:
        me = await (await bot.get("/api/me")).json()
        assert me["name"] == "JominiBot" and me["kind"] == "bot"
        seek = await bot.post("/api/seeks", json=SEEK)  # no cookie: no CSRF token asked
        assert seek.status == 201, await seek.text()
        human = await register(human_browser, "Clausewitz")
        accepted = await human_browser.post(f"/api/lobby/{(await seek.json())['id']}/accept", json={}, headers={CSRF_HEADER: human["csrf"]})
        game_id = (await accepted.json())["game_id"]
        seat = await WsClient(bot, game_id).connect(spectate=False)  # the bearer token on the upgrade
        assert seat.seat == "union"
        ack = await seat.act("command", command_id="c1", command={"type": "end_phase"})
        assert isinstance(ack, Ack), ack


async def test_a_bot_has_no_password_and_makes_no_bots(client):
    owner = await register(client, "Vauban")
    token = await make_bot(client, owner["csrf"], "VaubanBot")
    async with browser(client) as other:
        for guess in ("!", "", PASSWORD):
            answer = await other.post("/api/session", json={"name": "VaubanBot", "password": guess})
            assert answer.status == 401
    async with as_bot(client, token) as bot:
        refused = await bot.post("/api/me/password", json={"password": "x" * 8, "new_password": "y" * 8})
        assert refused.status == 403 and "no password" in (await refused.json())["error"]["message"]
        assert (await bot.post("/api/me/bots", json={"name": "BotsBot"})).status == 403


async def test_only_the_owner_renews_a_token_and_the_old_one_stops(client):
    owner = await register(client, "Napoleon")
    token = await make_bot(client, owner["csrf"], "Boney")
    async with browser(client) as stranger:
        csrf = (await register(stranger, "Wellington"))["csrf"]
        assert (await stranger.post("/api/me/bots/Boney/token", json={}, headers={CSRF_HEADER: csrf})).status == 404
    renewed = await client.post("/api/me/bots/Boney/token", json={}, headers={CSRF_HEADER: owner["csrf"]})
    new_token = (await renewed.json())["token"]
    assert new_token != token
    async with as_bot(client, token) as old, as_bot(client, new_token) as new:
        assert (await old.get("/api/me")).status == 401
        assert (await new.get("/api/me")).status == 200
    async with as_bot(client, "bgb_0123456789abcdef." + "x" * 43) as forged:
        assert (await forged.get("/api/me")).status == 401


async def test_the_computer_as_a_bot_accepts_a_seek_and_plays_to_the_end(client):
    owner = await register(client, "Moltke")
    token = await make_bot(client, owner["csrf"], "MoltkeBot")
    async with browser(client) as human_browser:
        human = await register(human_browser, "Benedek")
        posted = await human_browser.post("/api/seeks", json={**SEEK, "side": "confederate"}, headers={CSRF_HEADER: human["csrf"]})
        assert posted.status == 201
        bot = asyncio.create_task(serve_seeks(str(client.make_url("")).rstrip("/"), token, level="easy", games=1, poll=0.1))
        for _ in range(int(PATIENCE / 0.1)):  # the bot accepts: the game is the human's too
            games = (await (await human_browser.get("/api/me/games")).json())["games"]
            if games:
                break
            await asyncio.sleep(0.1)
        (game,) = games
        seat = await WsClient(human_browser, game["game_id"]).connect(spectate=False)
        assert seat.seat == "confederate"
        resigned = await seat.act("resign", command_id="enough")
        assert isinstance(resigned, Ack), resigned
        results = await asyncio.wait_for(bot, PATIENCE)
    assert len(results) == 1
