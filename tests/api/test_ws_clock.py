"""Time controls over the real server (embedded Redis): a game created with a clock shows it in the
players' and the spectators' views, kept from the times the store stamped on the events; when the
bank of the seat to act runs out that seat may not act, and the opponent claims the game on time."""

import asyncio

from apiharness import WsClient, new_game
from test_ws_view import Viewer

from api.protocol import Ack
from rules.core.commands import EndPhase

BANK = 2  # seconds: short, so the test waits a little longer than that, once


async def test_a_live_clock_runs_down_and_the_flag_fall_is_claimed(client, store):
    game, joined = await new_game(client, options={"clock": {"mode": "live", "bank_seconds": BANK, "increment_seconds": 1}})
    gid = game["game_id"]
    union = await WsClient(client, gid, game["token"]).connect()
    confederate = await WsClient(client, gid, joined["token"]).connect()
    assert union.welcome.options.clock.bank_seconds == BANK
    watcher = await Viewer(client, gid).connect()
    await watcher.until(union.version)
    shown = watcher.view["session"]["clock"]
    # Union's first Player-Turn began with the bank and its increment; the Confederate waits.
    assert shown["left"] == {"union": (BANK + 1) * 1000, "confederate": BANK * 1000}
    assert shown["running"] == "union" and shown["at"] == union.events[-1].time

    early = await confederate.act("claim")
    assert early.code == "illegal" and early.case == "clock" and 0 < early.retry_after <= BANK + 1
    ack = await union.command(EndPhase())  # in time
    assert isinstance(ack, Ack), ack
    await watcher.until(ack.last)
    await union.until_version(ack.last)
    used = union.history.session.clocks  # the server's fold and this client's agree (digests checked)
    start = next(e.time for e in union.events if e.version == 3)  # play starts: the second seat joined
    assert union.history.session.clocks["union"] == (BANK + 1) * 1000 - (union.events[-1].time - start)
    assert watcher.view["session"]["clock"]["left"] == used

    await asyncio.sleep(early.retry_after + 0.3)  # the Union bank runs out in the Combat Phase
    late = await union.command(EndPhase())
    assert late.code == "illegal" and late.case == "clock", late
    listed = await (await client.get(f"/api/games/{gid}")).json()
    assert listed["status"] == "waiting" and listed["options"]["clock"]["bank_seconds"] == BANK
    waiting = await (await client.get("/api/games?status=waiting")).json()  # from the game index
    assert [g["game_id"] for g in waiting["games"]] == [gid]
    claimed = await confederate.act("claim")
    assert isinstance(claimed, Ack), claimed
    await union.until_version(claimed.last)
    finished = union.history.finished
    assert (finished.reason, finished.by, finished.winner) == ("time", "confederate", "confederate")
    assert union.history.session.clocks["union"] < 0
    await watcher.until(claimed.last)
    assert watcher.view["session"]["finished"]["reason"] == "time"
    assert watcher.view["session"]["clock"].get("running") is None  # a merge patch leaves nulls out
    assert any("time" in line[3] for line in watcher.record if line[1] != "command"), watcher.record[-3:]
    stored = [e async for e in store.read(gid)]
    assert [e.type for e in stored][-1] == "game_finished"
    await watcher.close()


async def test_clock_options_are_checked_at_creation(client):
    for bad in (
        {"mode": "live", "bank_seconds": 0},
        {"mode": "live", "bank_seconds": 60, "days_per_turn": 2},
        {"mode": "correspondence", "days_per_turn": 0},
        {"mode": "correspondence", "days_per_turn": 3, "increment_seconds": 5},
    ):
        response = await client.post("/api/games", json={"scenario": "chattanooga", "options": {"clock": bad}})
        assert response.status == 400, bad
        assert (await response.json())["error"]["code"] == "malformed"
    game, _ = await new_game(client, options={"clock": {"mode": "correspondence", "days_per_turn": 3}})
    view = await (await client.get(f"/api/games/{game['game_id']}")).json()
    assert view["options"]["clock"] == {"mode": "correspondence", "bank_seconds": 0, "increment_seconds": 0, "days_per_turn": 3}
    assert view["status"] == "active"


async def test_a_correspondence_game_is_paused_by_consent_over_the_websocket(client, store):
    game, joined = await new_game(client, options={"clock": {"mode": "correspondence", "days_per_turn": 3}})
    gid = game["game_id"]
    union = await WsClient(client, gid, game["token"]).connect()
    confederate = await WsClient(client, gid, joined["token"]).connect()
    watcher = await Viewer(client, gid).connect()
    too_long = await union.act("pause_request", days=31)
    assert too_long.code == "malformed", too_long
    asked = await union.act("pause_request", days=7)
    assert isinstance(asked, Ack), asked
    own = await union.act("pause_accept", request=asked.first)
    assert (own.code, own.case) == ("illegal", "pause"), own
    await watcher.until(asked.last)
    assert watcher.view["session"]["pause_request"] == {"request": asked.first, "seat": "union", "days": 7}
    assert watcher.view["session"]["pause_days_left"] == {"union": 30, "confederate": 30}
    accepted = await confederate.act("pause_accept", request=asked.first)
    assert isinstance(accepted, Ack), accepted
    await union.until_version(accepted.last)
    since = union.events[-1].time
    paused = union.history.session.paused  # this client's fold of the events, as the server's
    assert (paused.seat, paused.since, paused.until) == ("union", since, since + 7 * 86_400_000)
    await watcher.until(accepted.last)
    assert watcher.view["session"]["paused"] == {"seat": "union", "since": since, "until": paused.until}
    assert watcher.view["session"]["clock"]["paused_until"] == paused.until
    refused = await union.command(EndPhase())
    assert (refused.code, refused.case) == ("illegal", "pause") and "paused until" in refused.message, refused
    resumed = await confederate.act("pause_resume")
    assert isinstance(resumed, Ack), resumed
    ack = await union.command(EndPhase())
    assert isinstance(ack, Ack), ack
    stored = [e.type async for e in store.read(gid)]
    assert [t for t in stored if t.startswith("pause")] == ["pause_requested", "pause_accepted", "pause_resumed"]
    assert stored[stored.index("pause_resumed") + 1] == "command"  # play went on after the resumption
    await watcher.close()
