"""Replay and after-action review through the server: the report (JSON and HTML), the export, forks
(a fresh seed, the parent's state, both seats for one player), the replay cursor over the websocket,
and the spectator delay on all of them."""

import random

import msgspec
from apiharness import GAMES, WsClient, new_game, play_game, play_steps

from api.protocol import Ack, Error, ReplayFollowing, ReplayFrame
from replay import export
from replay.timeline import Timeline
from replay.verify import verify
from rules.core import state as rules_state
from session.history import fold_envelopes


async def _played(client, steps: int = 40, **body):
    game, joined = await new_game(client, **body)
    gid = game["game_id"]
    union = await WsClient(client, gid, game["token"]).connect()
    confederate = await WsClient(client, gid, joined["token"]).connect()
    await play_steps(union, confederate, random.Random(4), steps)
    return game, joined, union, confederate


async def test_report_export_and_record_of_a_finished_game(client, store):
    game, _joined, union, confederate = await _played(client, 0)
    await play_game(union, confederate, random.Random(11))
    gid = game["game_id"]
    stored = [e async for e in store.read(gid)]

    response = await client.get(f"/api/games/{gid}/export")
    assert response.status == 200
    exported = export.loads(await response.read())
    assert exported == stored
    assert verify(gid, exported, GAMES).dice_checked

    report = await (await client.get(f"/api/games/{gid}/report")).json()
    assert report["version"] == len(stored) and report["finished"]["reason"] == "rules"
    assert report["combats"] and all(c["luck"]["distribution"] for c in report["combats"])
    assert sum(report["luck"][s]["combats"] for s in ("union", "confederate")) == 2 * len(report["combats"])

    page = await client.get(f"/games/{gid}/report")
    assert page.status == 200 and page.content_type == "text/html"
    html = await page.text()
    assert "<svg" in html and "Every combat" in html and "http://" not in html.replace("http://www.w3.org", "")
    text = await (await client.get(f"/api/games/{gid}/export?text=1")).text()
    assert text.splitlines() == report["record"]


async def test_the_report_page_offers_the_computers_eye_at_the_expert_level(client, store):
    game, *_ = await _played(client, 20)
    gid = game["game_id"]
    page = await (await client.get(f"/games/{gid}/report")).text()
    assert 'href="?engine=union&amp;level=expert"' in page
    response = await client.get(f"/games/{gid}/report?engine=union&level=expert")
    assert response.status == 200, await response.text()
    assert "engine expert" in await response.text()
    bad = await client.get(f"/games/{gid}/report?engine=union&level=grandmaster")
    assert bad.status == 400 and "level" in await bad.text()


async def test_a_fork_has_a_fresh_seed_the_parents_state_and_both_seats(client, store):
    game, _joined, union, _confederate = await _played(client, 30)
    gid = game["game_id"]
    version = union.version - 3
    response = await client.post(f"/api/games/{gid}/fork", json={"version": version})
    assert response.status == 201, await response.text()
    forked = await response.json()
    sid = forked["game_id"]
    assert forked["sandbox"] and forked["parent"] == gid and set(forked["tokens"]) == {"union", "confederate"}

    parent = fold_envelopes(gid, GAMES, [e async for e in store.read(gid, 1, version)])
    sandbox_log = [e async for e in store.read(sid)]
    sandbox = fold_envelopes(sid, GAMES, sandbox_log, check_digests=True)
    created = sandbox.session.created
    assert created.fork.game_id == gid and created.fork.version == version
    assert created.seed_hash != parent.session.created.seed_hash and created.dice == "fair"
    assert rules_state.digest(sandbox.state) == rules_state.digest(parent.state)
    assert await store.get_secret(sid) != await store.get_secret(gid)
    view = await (await client.get(f"/api/games/{sid}")).json()
    assert view["status"] == "active" and view["sandbox"] and view["forked_from"] == gid and view["forked_at"] == version
    assert not (await (await client.get(f"/api/games/{gid}")).json())["sandbox"]
    listed = {g["game_id"]: g for g in (await (await client.get("/api/games")).json())["games"]}
    assert listed[sid]["sandbox"] and not listed[gid]["sandbox"]
    report = await (await client.get(f"/api/games/{sid}/report")).json()
    assert report["sandbox"] and report["fork"]["game_id"] == gid

    # one player holds both seats and plays on
    to_act = sandbox.session.to_act
    player = await WsClient(client, sid, forked["tokens"][to_act]).connect()
    assert player.seat == to_act
    ack = await player.play_random(random.Random(2))
    assert isinstance(ack, Ack), ack

    refused = await client.post(f"/api/games/{gid}/fork", json={"version": 10_000})
    assert refused.status == 409
    assert (await client.post(f"/api/games/{gid}/fork", json={"version": 2})).status == 409  # a seat was empty


async def test_a_fork_against_the_computer_gives_the_player_his_side_and_the_computer_plays_the_other(client, store):
    # "try this turn again" (players/review.py turning points): the sandbox's other seat is the computer's
    game, _joined, union, _confederate = await _played(client, 30)
    gid = game["game_id"]
    version = union.version - 3
    to_act = fold_envelopes(gid, GAMES, [e async for e in store.read(gid, 1, version)]).session.to_act
    mine = "union" if to_act == "confederate" else "confederate"  # the computer is to act at once
    refused = await client.post(f"/api/games/{gid}/fork", json={"version": version, "computer": "easy"})
    assert refused.status == 400 and "names both computer" in (await refused.json())["error"]["message"]
    response = await client.post(f"/api/games/{gid}/fork", json={"version": version, "computer": "easy", "side": mine})
    assert response.status == 201, await response.text()
    forked = await response.json()
    assert set(forked["tokens"]) == {mine}  # the computer holds the other seat's token, alone
    player = await WsClient(client, forked["game_id"], forked["tokens"][mine]).connect()
    start = player.version
    while not any(e.type == "command" and e.actor == to_act for e in player.events[start:]):
        message = await player.receive()  # the computer's process connects with its token and plays
        assert not isinstance(message, Error), message
        assert player.version < start + 400


async def test_the_replay_cursor_over_the_websocket(client, store):
    game, _joined, union, confederate = await _played(client, 40)
    gid = game["game_id"]
    stored = [e async for e in store.read(gid)]
    timeline = Timeline.of(stored)
    spectator = await WsClient(client, gid).connect()

    await spectator.send(type="replay_seek", version=10)
    frame = await spectator.expect(ReplayFrame)
    assert frame.version == 10 and frame.last == len(stored) and not frame.playing
    expected = fold_envelopes(gid, GAMES, stored[:10])
    assert frame.state == msgspec.Raw(rules_state.encode_json(expected.state))
    assert frame.head == stored[9].hash.hex()

    await spectator.send(type="replay_step", by="phase", count=1)
    frame = await spectator.expect(ReplayFrame)
    assert frame.version == timeline.step(10, "phase", 1)
    await spectator.send(type="replay_step", by="event", count=-3)
    back = await spectator.expect(ReplayFrame)
    assert back.version == timeline.step(frame.version, "event", -3)

    await spectator.send(type="replay_play", speed=50, by="event")
    seen = []
    while True:
        frame = await spectator.expect(ReplayFrame)
        seen.append(frame.version)
        if len(seen) == 3:
            break
    assert seen == sorted(seen) and seen[0] > back.version
    await spectator.send(type="replay_pause")
    while (frame := await spectator.expect(ReplayFrame)).playing:
        pass
    paused_at = frame.version
    # the game goes on meanwhile: live events still arrive
    await play_steps(union, confederate, random.Random(5), 2)
    await spectator.until_version(union.version)
    await spectator.send(type="replay_live")
    following = await spectator.expect(ReplayFollowing)
    assert following.version == union.version and paused_at <= union.version
    # a player may replay too; a bad message is answered, never fatal
    await union.send(type="replay_step", by="fortnight")
    assert (await union.expect(Error)).code == "malformed"
    await union.send(type="replay_seek", version=1)
    assert (await union.expect(ReplayFrame)).version == 1


async def test_the_spectator_delay_holds_back_report_export_fork_and_replay(client, store):
    game, joined, union, _confederate = await _played(client, 25, options={"spectator_delay": 5})
    gid = game["game_id"]
    head = union.version
    seen = head - 5
    report = await (await client.get(f"/api/games/{gid}/report")).json()
    assert report["version"] == seen
    exported = export.loads(await (await client.get(f"/api/games/{gid}/export")).read())
    assert len(exported) == seen
    as_player = {"Authorization": f"Bearer {joined['token']}"}
    full = export.loads(await (await client.get(f"/api/games/{gid}/export", headers=as_player)).read())
    assert len(full) == head
    bad = await client.get(f"/api/games/{gid}/report", headers={"Authorization": "Bearer nope"})
    assert bad.status == 403

    refused = await client.post(f"/api/games/{gid}/fork", json={"version": head})
    assert refused.status == 409 and "spectator delay" in (await refused.json())["error"]["message"]
    assert (await client.post(f"/api/games/{gid}/fork", json={"version": seen})).status == 201
    assert (await client.post(f"/api/games/{gid}/fork", json={"version": head}, headers=as_player)).status == 201

    spectator = await WsClient(client, gid).connect()
    await spectator.send(type="replay_seek", version=head)
    frame = await spectator.expect(ReplayFrame)
    assert frame.version == frame.last == seen
    await spectator.send(type="replay_step", by="game_turn", count=5)
    assert (await spectator.expect(ReplayFrame)).version <= seen
    await spectator.send(type="replay_live")
    assert (await spectator.expect(ReplayFollowing)).version == seen


async def test_a_spectator_delay_in_phases_holds_back_the_live_view_and_the_game_view(client, store):
    game, _joined, union, _confederate = await _played(client, 30, options={"spectator_delay_phases": 1})
    gid = game["game_id"]
    stored = [e async for e in store.read(gid)]
    # Independently of session.visibility: the last event of the last command that ended a phase.
    command_at = [e.version for e in stored if e.type == "command"]
    ends = [v for v in command_at if b'"type":"end_phase"' in stored[v - 1].payload]
    assert ends, "the scripted play ends at least one phase"
    later = [v for v in command_at if v > ends[-1]]
    expected = (later[0] - 1) if later else len(stored)
    assert expected < union.version  # the game has moved on since
    view = await (await client.get(f"/api/games/{gid}")).json()
    assert view["version"] == expected
    spectator = await WsClient(client, gid).connect()
    assert spectator.welcome.version == expected
