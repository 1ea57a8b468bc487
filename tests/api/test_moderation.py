"""Moderation (api/moderation.py, docs/PROTOCOL.md "Moderation"): blocks in the lobby, reports of
chat lines, admins (granted by `bluegray admin grant`) who abort games and disable accounts, and
chat shown to spectators only when both seats allow (session/visibility.py)."""

from __future__ import annotations

import asyncio

import msgspec
from apiharness import GAMES, WsClient, new_game
from test_accounts import PASSWORD, browser, register
from test_bots import as_bot, make_bot
from test_lobby import SEEK, post

from api.accounts import CSRF_HEADER
from api.app_keys import STORE
from api.cli import main
from api.protocol import Ack, Error
from replay import export
from replay.verify import verify
from session.history import History


async def delete(session, path: str, csrf: str):
    return await session.delete(path, headers={CSRF_HEADER: csrf})


async def cli(config, *argv: str) -> int:
    """`bluegray ...` against the test's store, in a thread (it runs an event loop of its own)."""
    return await asyncio.to_thread(main, [*argv, "--redis-url", config.redis_url, "--key-prefix", config.prefix])


async def lobby_game(proposer, proposer_csrf: str, acceptor, acceptor_csrf: str, **terms) -> str:
    """A game between two accounts: the proposer (union) seeks, the other accepts."""
    seek = await (await post(proposer, "/api/seeks", proposer_csrf, {**SEEK, "rated": False, **terms})).json()
    accepted = await post(acceptor, f"/api/lobby/{seek['id']}/accept", acceptor_csrf)
    assert accepted.status == 201, await accepted.text()
    return (await accepted.json())["game_id"]


# -- blocks -----------------------------------------------------------------------------------------
async def test_a_block_stops_challenges_acceptance_and_the_seeks_either_way(client):
    grant = await register(client, "Grant")
    async with browser(client) as lee_browser, browser(client) as third_browser:
        lee = await register(lee_browser, "Lee")
        await register(third_browser, "Meade")
        blocked = await post(client, "/api/me/blocks/lee", grant["csrf"])  # any case
        assert blocked.status == 200, await blocked.text()
        assert await blocked.json() == {"blocked": ["Lee"]}
        assert await (await client.get("/api/me/blocks")).json() == {"blocked": ["Lee"]}

        challenge = await post(lee_browser, "/api/challenges", lee["csrf"], {**SEEK, "opponent": "Grant"})
        assert challenge.status == 403 and (await challenge.json())["error"]["code"] == "forbidden"
        assert "does not take proposals from you" in (await challenge.json())["error"]["message"]
        back = await post(client, "/api/challenges", grant["csrf"], {**SEEK, "opponent": "Lee"})
        assert back.status == 403 and "you block this player" in (await back.json())["error"]["message"]

        grant_seek = await (await post(client, "/api/seeks", grant["csrf"], SEEK)).json()
        lee_seek = await (await post(lee_browser, "/api/seeks", lee["csrf"], SEEK)).json()
        seen_by_lee = [s["id"] for s in (await (await lee_browser.get("/api/lobby")).json())["seeks"]]
        seen_by_grant = [s["id"] for s in (await (await client.get("/api/lobby")).json())["seeks"]]
        seen_by_meade = [s["id"] for s in (await (await third_browser.get("/api/lobby")).json())["seeks"]]
        assert seen_by_lee == [lee_seek["id"]] and seen_by_grant == [grant_seek["id"]]
        assert sorted(seen_by_meade) == sorted([grant_seek["id"], lee_seek["id"]])
        refused = await post(lee_browser, f"/api/lobby/{grant_seek['id']}/accept", lee["csrf"])
        assert refused.status == 403 and (await refused.json())["error"]["code"] == "forbidden"
        assert grant_seek["id"] in [s["id"] for s in (await (await third_browser.get("/api/lobby")).json())["seeks"]]

        assert (await delete(client, "/api/me/blocks/Lee", grant["csrf"])).status == 204
        assert await (await client.get("/api/me/blocks")).json() == {"blocked": []}
        seen_by_lee = [s["id"] for s in (await (await lee_browser.get("/api/lobby")).json())["seeks"]]
        assert sorted(seen_by_lee) == sorted([grant_seek["id"], lee_seek["id"]])
        assert (await post(lee_browser, f"/api/lobby/{grant_seek['id']}/accept", lee["csrf"])).status == 201


async def test_a_game_begun_goes_on_after_a_block(client):
    grant = await register(client, "Grant")
    async with browser(client) as lee_browser:
        lee = await register(lee_browser, "Lee")
        game_id = await lobby_game(client, grant["csrf"], lee_browser, lee["csrf"])
        assert (await post(client, "/api/me/blocks/Lee", grant["csrf"])).status == 200
        union = await WsClient(client, game_id).connect(spectate=False)
        assert isinstance(await union.act("command", command={"type": "end_phase"}), Ack)


async def test_blocking_is_refused_with_a_typed_error(client):
    grant = await register(client, "Grant")
    unknown = await post(client, "/api/me/blocks/Nobody", grant["csrf"])
    assert unknown.status == 404 and (await unknown.json())["error"]["code"] == "not_found"
    assert "'Nobody'" in (await unknown.json())["error"]["message"]
    myself = await post(client, "/api/me/blocks/Grant", grant["csrf"])
    assert myself.status == 400 and "cannot block himself" in (await myself.json())["error"]["message"]
    async with browser(client) as anonymous:
        assert (await anonymous.get("/api/me/blocks")).status == 401


# -- reports -----------------------------------------------------------------------------------------
async def test_a_reported_chat_line_is_queued_once_and_an_admin_reads_it(client, config):
    grant = await register(client, "Grant")
    async with browser(client) as lee_browser, browser(client) as watcher:
        lee = await register(lee_browser, "Lee")
        await register(watcher, "Watcher")
        game_id = await lobby_game(client, grant["csrf"], lee_browser, lee["csrf"])
        union = await WsClient(client, game_id).connect(spectate=False)
        said = await union.act("chat", text="you cheat")
        assert isinstance(said, Ack)
        path = f"/api/games/{game_id}/reports"
        first = await post(lee_browser, path, lee["csrf"], {"version": said.first, "reason": "insult"})
        assert first.status == 201, await first.text()
        report = (await first.json())["report"]
        assert (report["version"], report["seat"], report["text"], report["by"]) == (said.first, "union", "you cheat", "Lee")
        again = await post(lee_browser, path, lee["csrf"], {"version": said.first, "reason": "another reason"})
        assert again.status == 200 and (await again.json()) == {"report": report, "duplicate": True}

        not_chat = await post(lee_browser, path, lee["csrf"], {"version": 1, "reason": "insult"})
        assert not_chat.status == 400 and "is a game_created, not a chat line" in (await not_chat.json())["error"]["message"]
        beyond = await post(lee_browser, path, lee["csrf"], {"version": 999, "reason": "insult"})
        assert beyond.status == 400 and "versions 1.." in (await beyond.json())["error"]["message"]
        own = await post(client, path, grant["csrf"], {"version": said.first, "reason": "insult"})
        assert own.status == 400 and "his own chat line" in (await own.json())["error"]["message"]
        # a spectator was not shown the line (neither seat shows its chat): he cannot report it
        unseen = await post(watcher, path, (await (await watcher.get("/api/me")).json())["csrf"], {"version": said.first, "reason": "x"})
        assert unseen.status == 400 and "spectators were not shown" in (await unseen.json())["error"]["message"]
        async with browser(client) as anonymous:
            assert (await anonymous.post(path, json={"version": said.first, "reason": "x"})).status == 401

        refused = await lee_browser.get("/api/admin/reports")
        assert refused.status == 403 and (await refused.json())["error"]["code"] == "forbidden"
        assert await cli(config, "admin", "grant", "Meade") == 1  # no such account
        await register(watcher, "Meade")
        assert await cli(config, "admin", "grant", "Meade") == 0
        listed = await (await watcher.get("/api/admin/reports")).json()
        assert listed == {"reports": [report]}
        meade_csrf = (await (await watcher.get("/api/me")).json())["csrf"]
        assert (await delete(watcher, f"/api/admin/reports/{report['id']}", meade_csrf)).status == 204
        assert await (await watcher.get("/api/admin/reports")).json() == {"reports": []}
        assert (await delete(watcher, f"/api/admin/reports/{report['id']}", meade_csrf)).status == 404


async def test_reports_are_limited_per_account(make_client):
    from accounts.reports import ReportLimit

    client = await make_client(report_limit=ReportLimit(per_account=2, window=3600))
    grant = await register(client, "Grant")
    async with browser(client) as lee_browser:
        lee = await register(lee_browser, "Lee")
        game_id = await lobby_game(client, grant["csrf"], lee_browser, lee["csrf"])
        union = await WsClient(client, game_id).connect(spectate=False)
        lines = [(await union.act("chat", text=f"line {i}")).first for i in range(3)]
        path = f"/api/games/{game_id}/reports"
        answers = [await post(lee_browser, path, lee["csrf"], {"version": v, "reason": "spam"}) for v in lines]
        assert [a.status for a in answers] == [201, 201, 429]
        assert (await answers[2].json())["error"]["code"] == "rate_limited"
        again = await post(lee_browser, path, lee["csrf"], {"version": lines[0], "reason": "spam"})
        assert again.status == 429  # the limit is asked first


# -- admins ------------------------------------------------------------------------------------------
async def test_an_admin_aborts_a_game_recorded_in_its_log_and_the_export_verifies(client, config, tmp_path):
    grant = await register(client, "Grant")
    async with browser(client) as lee_browser:
        lee = await register(lee_browser, "Lee")
        game_id = await lobby_game(client, grant["csrf"], lee_browser, lee["csrf"])
        union = await WsClient(client, game_id).connect(spectate=False)
        confederate = await WsClient(lee_browser, game_id).connect(spectate=False)
        assert isinstance(await union.act("command", command={"type": "end_phase"}), Ack)
        path = f"/api/admin/games/{game_id}/abort"
        refused = await post(lee_browser, path, lee["csrf"], {"reason": "abuse"})
        assert refused.status == 403 and (await refused.json())["error"]["code"] == "forbidden"
        assert await cli(config, "admin", "grant", "Grant") == 0
        done = await post(client, path, grant["csrf"], {"reason": "  abusive chat  "})
        assert done.status == 200, await done.text()
        version = (await done.json())["version"]
        await confederate.until_version(version)
        last = confederate.events[-1]
        assert last.type == "game_finished" and last.actor == ""
        finished = msgspec.json.decode(last.payload)
        assert (finished["reason"], finished["winner"], finished["by"], finished["note"]) == ("aborted", None, None, "abusive chat")
        assert confederate.history.finished.reason == "aborted"
        ended = await confederate.act("command", command={"type": "end_phase"})
        assert isinstance(ended, Error) and ended.code == "game_over"
        game = await (await client.get(f"/api/games/{game_id}")).json()
        assert game["status"] == "finished" and game["finished"]["note"] == "abusive chat"
        page = await (await client.get("/api/players/Lee")).json()
        assert [(g["game_id"], g["outcome"], g["result"]) for g in page["games"]] == [(game_id, "aborted", "aborted")]
        again = await post(client, path, grant["csrf"], {"reason": "twice"})
        assert again.status == 409 and (await again.json())["error"]["code"] == "game_over"
        empty = await post(client, f"/api/admin/games/{game_id}/abort", grant["csrf"], {"reason": " "})
        assert empty.status == 409  # the game is over: asked before the reason

        exported = await client.get(f"/api/games/{game_id}/export")
        log = tmp_path / "aborted.jsonl"
        log.write_bytes(await exported.read())
        assert await asyncio.to_thread(main, ["verify", str(log)]) == 0
        report = verify(game_id, export.loads(log.read_bytes()))
        assert report.ok and report.finished and report.reason == "aborted" and report.dice_checked


async def test_the_command_line_aborts_a_game_and_lists_reports(client, config, capsys):
    grant = await register(client, "Grant")
    async with browser(client) as lee_browser:
        lee = await register(lee_browser, "Lee")
        game_id = await lobby_game(client, grant["csrf"], lee_browser, lee["csrf"])
        union = await WsClient(client, game_id).connect(spectate=False)
        said = await union.act("chat", text="rude words")
        await post(lee_browser, f"/api/games/{game_id}/reports", lee["csrf"], {"version": said.first, "reason": "rude"})
        capsys.readouterr()
        assert await cli(config, "admin", "reports") == 0
        assert f"game {game_id} v{said.first} union: 'rude words'  reported by Lee: rude" in capsys.readouterr().out
        assert await cli(config, "admin", "abort", game_id, "--reason", "reported") == 0
        assert f"game {game_id} aborted" in capsys.readouterr().out
        await union.until_version(said.first + 1)
        assert union.history.finished.reason == "aborted" and union.history.finished.note == "reported"
        assert await cli(config, "admin", "abort", game_id, "--reason", "again") == 1
        assert "the game is over" in capsys.readouterr().err
        assert await cli(config, "admin", "abort", "NoSuchGame1", "--reason", "x") == 1


async def test_a_disabled_account_loses_its_session_its_bot_token_and_its_seat(client, config):
    grant = await register(client, "Grant")
    token = await make_bot(client, grant["csrf"], "GrantBot")
    async with browser(client) as lee_browser, browser(client) as admin_browser, as_bot(client, token) as bot:
        lee = await register(lee_browser, "Lee")
        admin = await register(admin_browser, "Halleck")
        assert await cli(config, "admin", "grant", "Halleck") == 0
        game_id = await lobby_game(client, grant["csrf"], lee_browser, lee["csrf"])
        union = await WsClient(client, game_id).connect(spectate=False)  # open before the disabling
        assert (await bot.get("/api/me")).status == 200

        refused = await post(lee_browser, "/api/admin/accounts/Grant/disable", lee["csrf"])
        assert refused.status == 403
        for name in ("Grant", "GrantBot"):
            done = await post(admin_browser, f"/api/admin/accounts/{name}/disable", admin["csrf"])
            assert done.status == 200 and (await done.json())["disabled"] is True
        assert (await client.get("/api/me")).status == 401  # the session ended at once
        assert (await bot.get("/api/me")).status == 401  # and the bot's token
        acted = await union.act("command", command={"type": "end_phase"})
        assert isinstance(acted, Error) and acted.code == "unauthorized" and "disabled" in acted.message
        again = await WsClient(lee_browser, game_id).connect(spectate=False)
        assert isinstance(await again.act("chat", text="still here"), Ack)  # the opponent's seat acts
        myself = await post(admin_browser, "/api/admin/accounts/Halleck/disable", admin["csrf"])
        assert myself.status == 400
        unknown = await post(admin_browser, "/api/admin/accounts/Nobody/disable", admin["csrf"])
        assert unknown.status == 404

        assert (await post(admin_browser, "/api/admin/accounts/Grant/enable", admin["csrf"])).status == 200
        back = await client.post("/api/session", json={"name": "Grant", "password": PASSWORD})
        assert back.status == 200, await back.text()
        acted = await union.act("command", command={"type": "end_phase"})
        assert isinstance(acted, Ack)

        assert await cli(config, "admin", "disable", "lee") == 0  # the command line does the same
        assert (await lee_browser.get("/api/me")).status == 401
        assert await cli(config, "admin", "enable", "Lee") == 0
        assert (await lee_browser.post("/api/session", json={"name": "Lee", "password": PASSWORD})).status == 200


# -- chat shown to spectators ------------------------------------------------------------------------
async def _raw_spectator(session, game_id: str, **hello):
    """A spectator's websocket, reading frames as they come (no fold): (socket, the welcome)."""
    ws = await session.ws_connect("/ws")
    await ws.send_json({"type": "hello", "game_id": game_id, "spectate": True, "last_version": 0, **hello})
    return ws, await ws.receive_json()


async def _chat_texts(ws, until: int) -> dict[int, str]:
    """The chat events a plain spectator socket receives up to version `until`: version -> text."""
    texts, version = {}, 0
    while version < until:
        message = await asyncio.wait_for(ws.receive_json(), 60)
        if message["type"] != "events":
            continue
        for event in message["events"]:
            version = event["version"]
            if event["type"] == "chat":
                texts[version] = event["data"]["text"]
    return texts


async def test_spectators_see_chat_only_said_while_both_seats_show_it(client, tmp_path):
    grant = await register(client, "Grant")
    async with browser(client) as lee_browser, browser(client) as anyone:
        lee = await register(lee_browser, "Lee")
        game_id = await lobby_game(client, grant["csrf"], lee_browser, lee["csrf"])
        union = await WsClient(client, game_id).connect(spectate=False)
        confederate = await WsClient(lee_browser, game_id).connect(spectate=False)
        early = await WsClient(anyone, game_id).connect()  # a folding spectator, from the start
        watcher, _ = await _raw_spectator(anyone, game_id)
        viewer, welcome = await _raw_spectator(anyone, game_id, view=True)
        assert welcome["type"] == "welcome"
        first_view = await viewer.receive_json()
        assert first_view["type"] == "view"

        hidden = (await union.act("chat", text="before consent")).first
        assert isinstance(await union.act("chat_shown", shown=True), Ack)
        half = (await confederate.act("chat", text="only union shows")).first
        assert isinstance(await confederate.act("chat_shown", shown=True), Ack)
        again = await confederate.act("chat_shown", shown=True)
        assert isinstance(again, Error) and again.code == "illegal"
        shown = (await union.act("chat", text="both show")).first

        texts = await _chat_texts(watcher, shown)
        assert texts == {hidden: "", half: "", shown: "both show"}
        await early.until_version(shown)
        assert [msgspec.json.decode(e.payload)["text"] for e in early.events if e.type == "chat"] == ["", "", "both show"]
        await confederate.until_version(shown)  # the players see every line
        assert [msgspec.json.decode(e.payload)["text"] for e in confederate.events if e.type == "chat"] == [
            "before consent", "only union shows", "both show"
        ]
        lines = [tuple(line) for line in first_view["record"]]
        while not any(line[0] == shown for line in lines):
            message = await asyncio.wait_for(viewer.receive_json(), 60)
            if message["type"] == "view":
                lines = lines[: message["record_keep"]] + [tuple(line) for line in message["record"]]
        chat = [line[3] for line in lines if line[1] == "chat"]
        assert chat == ["Union: both show"]

        # A late spectator's catch-up, his export and its verification: the same lines withheld.
        late = await WsClient(anyone, game_id).connect()
        assert [msgspec.json.decode(e.payload)["text"] for e in late.events if e.type == "chat"] == ["", "", "both show"]
        exported = export.loads(await (await anyone.get(f"/api/games/{game_id}/export")).read())
        assert [msgspec.json.decode(e.payload)["text"] for e in exported if e.type == "chat"] == ["", "", "both show"]
        report = verify(game_id, exported)
        assert report.ok, report.problems
        assert any("2 chat line(s) withheld from spectators" in note for note in report.notes)
        players = export.loads(await (await client.get(f"/api/games/{game_id}/export")).read())  # the seat's session
        assert [msgspec.json.decode(e.payload)["text"] for e in players if e.type == "chat"] == [
            "before consent", "only union shows", "both show"
        ]
        assert not any("withheld" in note for note in verify(game_id, players).notes)
        await watcher.close()
        await viewer.close()


async def test_a_delayed_spectator_and_his_export_withhold_the_same_lines(client):
    game, joined = await new_game(client, options={"spectator_delay": 2})
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    confederate = await WsClient(client, game["game_id"], joined["token"]).connect()
    game_id = game["game_id"]
    async with browser(client) as anyone:
        watcher, _ = await _raw_spectator(anyone, game_id)
        hidden = (await union.act("chat", text="secret plan")).first
        await union.act("chat_shown", shown=True)
        await confederate.act("chat_shown", shown=True)
        shown = (await union.act("chat", text="good game")).first
        await union.act("chat_shown", shown=False)
        await confederate.act("chat", text="after union withdrew")  # the delay holds the last two back
        assert await _chat_texts(watcher, shown) == {hidden: "", shown: "good game"}
        await watcher.close()
        exported = export.loads(await (await anyone.get(f"/api/games/{game_id}/export")).read())
        assert exported[-1].version == shown  # two events behind
        chat = [msgspec.json.decode(e.payload)["text"] for e in exported if e.type == "chat"]
        assert chat == ["", "good game"]
        assert verify(game_id, exported).ok


async def test_the_chat_consent_is_in_the_log_and_folds_the_same_on_replay(client):
    grant = await register(client, "Grant")
    async with browser(client) as lee_browser:
        lee = await register(lee_browser, "Lee")
        game_id = await lobby_game(client, grant["csrf"], lee_browser, lee["csrf"])
        union = await WsClient(client, game_id).connect(spectate=False)
        confederate = await WsClient(lee_browser, game_id).connect(spectate=False)
        await union.act("chat", text="one")
        await union.act("chat_shown", shown=True)
        await confederate.act("chat_shown", shown=True)
        await confederate.act("chat", text="two")
        await union.until_version(confederate.version)
        assert union.history.session.chat_shown == {"union": True, "confederate": True}
        assert union.history.session.withheld == [union.events[-4].version]
        consent = [msgspec.json.decode(e.payload) for e in union.events if e.type == "chat_shown"]
        assert consent == [{"type": "chat_shown", "schema": 1, "seat": "union", "shown": True},
                           {"type": "chat_shown", "schema": 1, "seat": "confederate", "shown": True}]
        replayed = History(game_id, GAMES)  # the log folded again: the same consents, the same lines withheld
        for envelope in [e async for e in client.app[STORE].read(game_id)]:
            replayed.apply(envelope, check_digest=True)
        assert replayed.session.chat_shown == union.history.session.chat_shown
        assert replayed.session.withheld == union.history.session.withheld
