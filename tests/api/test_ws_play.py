"""Playing over the websocket: a whole game of Chattanooga by two clients while a spectator watches,
resends, reconnects, snapshots and choices."""

import random

import msgspec
from apiharness import GAMES, WsClient, new_game, play_game, play_steps

from api.protocol import Ack, ChoicesOut, Error, ReachOut
from players.selfplay import random_command
from replay.verify import verify
from rules.core.commands import EndPhase
from session.history import fold_envelopes


async def test_a_whole_game_by_two_clients_while_a_spectator_sees_every_event_in_order(client, store):
    game, joined = await new_game(client)
    gid = game["game_id"]
    union = await WsClient(client, gid, game["token"]).connect()
    confederate = await WsClient(client, gid, joined["token"]).connect()
    spectator = await WsClient(client, gid).connect()
    assert spectator.seat is None and union.seat == "union" and confederate.seat == "confederate"

    commands = await play_game(union, confederate, random.Random(11))
    assert union.history.finished is not None and commands > 50
    await spectator.until_version(union.version)
    # The spectator's copy, folded from what it received (each chain hash and digest checked on the
    # way), is the players' copy and the store's.
    stored = [e async for e in store.read(gid)]
    assert spectator.events == union.events == confederate.events == stored
    assert spectator.history.snapshot() == fold_envelopes(gid, GAMES, stored).snapshot()
    finished = spectator.history.finished
    assert finished.reason == "rules" and finished.result
    # Every roll of the finished game re-derives from the revealed seed.
    report = verify(gid, stored, GAMES)
    assert report.ok and report.dice_checked and report.rolls > 0, report
    view = await (await client.get(f"/api/games/{gid}")).json()
    assert view["status"] == "finished" and view["finished"]["result"] == finished.result


async def test_a_resent_command_gets_its_original_outcome(client):
    game, joined = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    command = random_command(union.history.state, random.Random(1), end_weight=0.0)
    first = await union.command(command, command_id="move-1")
    again = await union.command(command, command_id="move-1")
    assert isinstance(first, Ack) and not first.duplicate
    assert again == Ack(command_id="move-1", first=first.first, last=first.last, duplicate=True)
    other = await union.command(EndPhase(), command_id="move-1")  # the same id for another action
    assert isinstance(other, Error) and other.code == "malformed"
    # From another connection of the same seat, too.
    tab = await WsClient(client, game["game_id"], game["token"]).connect()
    assert (await tab.command(command, command_id="move-1")).duplicate
    assert tab.version == union.version == first.last
    # And after the server forgot the game (every connection closed): the store remembers.
    await union.close()
    await tab.close()
    later = await WsClient(client, game["game_id"], game["token"]).connect()
    assert await later.command(command, command_id="move-1") == again
    assert (await later.command(EndPhase(), command_id="move-1")).code == "malformed"


async def test_a_dropped_client_resumes_with_no_gap_and_no_duplicate(client):
    game, joined = await new_game(client)
    gid = game["game_id"]
    union = await WsClient(client, gid, game["token"]).connect()
    confederate = await WsClient(client, gid, joined["token"]).connect()
    spectator = await WsClient(client, gid).connect()
    rng = random.Random(2)
    await play_steps(union, confederate, rng, 6)
    await spectator.until_version(union.version)
    await spectator.close()
    await play_steps(union, confederate, rng, 8)
    had = spectator.version
    await spectator.connect()  # hello with last_version: the missing events, each once
    await spectator.until_version(union.version)
    assert spectator.events == union.events and spectator.version > had
    assert not spectator.snapshots


async def test_a_client_far_behind_gets_a_render_ready_snapshot(make_client):
    client = await make_client(snapshot_after=3)
    game, joined = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    rng = random.Random(3)
    for _ in range(4):
        await union.command(random_command(union.history.state, rng, end_weight=0.0))
    late = WsClient(client, game["game_id"])
    late.history = None  # a client that knows no rules
    await late.connect(last_version=0)
    (snapshot,) = late.snapshots
    assert snapshot.reason == "behind" and snapshot.version == union.version
    state = msgspec.json.decode(snapshot.state)
    assert state["positions"] == union.history.state.positions and state["turn"] == 1
    assert snapshot.session.seats == ["union", "confederate"] and snapshot.session.to_act == "union"


async def test_choices_go_to_the_player_to_act_only(client):
    game, joined = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect(choices=True)
    confederate = await WsClient(client, game["game_id"], joined["token"]).connect(choices=True)
    offered = await union.expect(ChoicesOut)
    assert offered.side == "union" and offered.version == 3
    legal = msgspec.json.decode(offered.choices)
    assert legal["side"] == "union" and legal["may_move"] and legal["moves"] == {}  # destinations: ask reach
    unit = legal["may_move"][0]
    await union.send(type="reach", unit=unit)
    reach = await union.expect(ReachOut)
    assert reach.version == offered.version and reach.unit == unit and reach.how == "move" and reach.refused is None
    hex_, destination = next(iter(reach.destinations.items()))
    assert destination.path[0] == union.history.state.positions[unit] and destination.path[-1] == hex_
    ack = await union.act("command", command={"type": "move", "unit": unit, "path": destination.path})
    assert isinstance(ack, Ack)
    assert (await union.expect(ChoicesOut)).version == ack.last  # the new choices, after the events
    assert confederate.choices is None and not any(isinstance(m, ChoicesOut) for m in confederate.inbox)
    await union.act("command", command={"type": "end_phase"})
    await union.act("command", command={"type": "end_phase"})  # no attack: the Confederate's turn
    offered = await confederate.expect(ChoicesOut)
    assert offered.side == "confederate" and offered.version == union.version


async def test_reach_answers_the_seat_to_act_only(client):
    game, joined = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect(choices=True)
    confederate = await WsClient(client, game["game_id"], joined["token"]).connect()
    spectator = await WsClient(client, game["game_id"]).connect()
    legal = msgspec.json.decode((await union.expect(ChoicesOut)).choices)
    unit = legal["may_move"][0]
    await union.send(type="reach", unit=unit)
    first = await union.expect(ReachOut)
    assert first.destinations and first.refused is None
    await union.send(type="reach", unit=unit)  # asked again: the same answer, computed once
    assert await union.expect(ReachOut) == first
    await confederate.send(type="reach", unit=unit)
    assert (await confederate.expect(Error)).code == "not_your_turn"
    await spectator.send(type="reach", unit=unit)
    assert (await spectator.expect(Error)).code == "unauthorized"
    await union.send(type="reach", unit=unit, how="fly")
    error = await union.expect(Error)
    assert error.code == "malformed" and "reach" in error.message
    # 5.17: once it has moved, the unit's reach is empty and says why (and nothing was appended)
    hex_, destination = next(iter(first.destinations.items()))
    ack = await union.act("command", command={"type": "move", "unit": unit, "path": destination.path})
    await union.send(type="reach", unit=unit)
    moved = await union.expect(ReachOut)
    assert moved.version == ack.last and moved.destinations == {} and "already moved" in moved.refused.message
    await union.send(type="reach", unit="nobody", how="enter")
    nobody = await union.expect(ReachOut)
    assert nobody.destinations == {} and "no unit 'nobody'" in nobody.refused.message
    assert union.version == ack.last


async def test_a_reach_carries_the_version_of_the_choices_of_its_position(client):
    # chat moves the version on and leaves the position as it was: the choices are not sent again, and
    # a reach asked after it carries the version of the choices the player holds, so the client can
    # match the two
    game, joined = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect(choices=True)
    offered = await union.expect(ChoicesOut)
    await union.act("chat", text="good luck")
    assert union.version == offered.version + 1
    unit = msgspec.json.decode(offered.choices)["may_move"][0]
    await union.send(type="reach", unit=unit)
    reach = await union.expect(ReachOut)
    assert reach.version == offered.version and reach.destinations
    assert not any(isinstance(m, ChoicesOut) for m in union.inbox)


async def test_a_reach_names_the_destinations_in_an_enemy_zone_of_control(client):
    # 6.0: "All units must cease movement when they enter an Enemy controlled hex": the reach says
    # which destinations those are. 1/1/IV at 0425 reaches 0826, beside Clayton at 0926.
    from rules.queries.zoc import zone_of_control

    game, joined = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect(choices=True)
    await union.expect(ChoicesOut)
    await union.send(type="reach", unit="us-1-1-iv")
    reach = await union.expect(ReachOut)
    state = union.history.state
    units = {u.id: u for u in state.game.scenario.units}
    controlled = {hx for u, at in state.positions.items() if units[u].side == "confederate" for hx in zone_of_control(state, at)}
    assert "0826" in reach.stops and reach.stops_case == "6.0"
    assert reach.stops == sorted(hx for hx in reach.destinations if hx in controlled)
    assert set(reach.destinations) - set(reach.stops)  # and hexes where it need not stop
