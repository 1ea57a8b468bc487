"""The `combat` question over the websocket: how the odds of an attack being built are made
(`rules.combat_choices.combat_breakdown`), for the seat to act only; its totals and column are the
offered choice's and then the declared attack's, under both rule sets."""

import msgspec
import pytest
from apiharness import WsClient, new_game

from api.protocol import ChoicesOut, CombatOut, Error, ReachOut, ReplayFrame


async def to_combat(client, ruleset: str):
    game, joined = await new_game(client, ruleset=ruleset)
    union = await WsClient(client, game["game_id"], game["token"]).connect(choices=True)
    confederate = await WsClient(client, game["game_id"], joined["token"]).connect()
    legal = msgspec.json.decode((await union.expect(ChoicesOut)).choices)
    for unit in legal["may_move"]:  # the first unit that may end its move in an enemy zone of control
        await union.send(type="reach", unit=unit)
        reach = await union.expect(ReachOut)
        if reach.stops:
            path = reach.destinations[reach.stops[0]].path
            await union.act("command", command={"type": "move", "unit": unit, "path": path})
            break
    await union.expect(ChoicesOut)
    await union.act("command", command={"type": "end_phase"})  # Game-Turn 1: the Union's Combat Phase
    legal = msgspec.json.decode((await union.expect(ChoicesOut)).choices)
    assert legal["phase"] == "combat" and legal["attacks"]
    return game, union, confederate, legal


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
async def test_combat_answers_the_offered_odds_with_each_unit_named(client, ruleset):
    game, union, confederate, legal = await to_combat(client, ruleset)
    option = legal["attacks"][0]
    choice = next(a for a in option["adjacent"] if a["hexes"])
    attackers = choice.get("units") or [u for h in choice["hexes"] for u in option["groups"][h]["units"]]
    await union.send(type="combat", attackers=attackers, defenders=option["defenders"])
    answer = await union.expect(CombatOut)
    b = answer.breakdown
    assert answer.refused is None and answer.attackers == attackers
    assert (b.attack, b.defence, b.odds) == (choice["attack"], choice["defence"], choice["odds"])
    assert sorted(a.unit for a in b.attackers) == sorted(attackers)
    assert {d.unit for d in b.defenders} == set(option["defending"])
    assert b.table_case == {"classic": "7.6", "revised": "8.6"}[ruleset]
    await union.send(type="combat", attackers=attackers, defenders=option["defenders"])
    assert await union.expect(CombatOut) == answer  # asked again: the same answer
    await union.act("command", command={"type": "declare_attack", "attackers": attackers, "defenders": option["defenders"]})
    head = union.history.state.pending[0]
    assert (head.attack, head.defence, head.odds) == (b.attack, b.defence, b.odds)
    spectator = await WsClient(client, game["game_id"]).connect()
    await spectator.send(type="combat", attackers=attackers, defenders=option["defenders"])
    assert (await spectator.expect(Error)).code == "unauthorized"
    await confederate.send(type="combat", attackers=attackers, defenders=option["defenders"])
    assert (await confederate.expect(Error)).code == "not_your_turn"


async def test_a_refused_attack_says_why(client):
    _, union, _, legal = await to_combat(client, "classic")
    option = legal["attacks"][0]
    await union.send(type="combat", attackers=["nobody"], defenders=option["defenders"])
    answer = await union.expect(CombatOut)
    assert answer.breakdown is None and answer.refused.case == "7.0" and "no unit 'nobody'" in answer.refused.message


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
async def test_a_declared_attack_shows_how_its_odds_were_built_to_everyone(client, ruleset):
    """Once declared (7.0), the attack waiting for its die keeps its breakdown in every view (players'
    and spectators'): the one the `combat` question gave while it was being built."""
    from test_ws_view import Viewer

    game, union, confederate, legal = await to_combat(client, ruleset)
    option = legal["attacks"][0]
    choice = next(a for a in option["adjacent"] if a["hexes"])
    attackers = choice.get("units") or [u for h in choice["hexes"] for u in option["groups"][h]["units"]]
    await union.send(type="combat", attackers=attackers, defenders=option["defenders"])
    built = msgspec.json.decode(msgspec.json.encode((await union.expect(CombatOut)).breakdown))  # as JSON
    watcher = await Viewer(client, game["game_id"]).connect()
    defender = await Viewer(client, game["game_id"], game["token"]).connect()
    await watcher.until(union.version)
    assert watcher.view.get("declared") is None  # nothing declared yet
    ack = await union.act("command", command={"type": "declare_attack", "attackers": attackers, "defenders": option["defenders"]})
    for v in (watcher, defender):
        await v.until(ack.last)
        assert v.view["declared"] == built
    # and in a replay: the frames where it waits carry it, those before the declaration do not
    spectator = await WsClient(client, game["game_id"]).connect()
    await spectator.send(type="replay_seek", version=ack.last)
    frame = await spectator.expect(ReplayFrame)
    assert msgspec.json.decode(msgspec.json.encode(frame.declared)) == built
    await spectator.send(type="replay_seek", version=ack.first - 1)
    assert (await spectator.expect(ReplayFrame)).declared is None
    await watcher.close()
    await defender.close()
