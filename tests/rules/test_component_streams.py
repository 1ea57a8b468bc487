"""Streams and swamps (Road to Richmond 18.5, 18.51, 18.52, 18.6), under the revised rules, on small
maps: a stream hexside 0404|0405, a road bridge over a stream 0504|0505 (creek + bridge, listed as a
stream bridge), a Chickahominy-like creek bridge 0304|0305 (not listed)."""

from __future__ import annotations

from rules.core.commands import Retreat
from rules.core.decisions import PendingAdvance, PendingRetreat
from rules.core.game import Game
from rules.procedures.retreat import retreat_options
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.combatmaps import to_phase
from tests.rules.rulesmaps import board, rebel, scenario, sides, union
from tests.rules.test_revised_combat_rules import declared, resolve

RICHMOND = load("road_to_richmond")
SIDES = sides({("0404", "0405"): {"stream"}, ("0504", "0505"): {"creek", "bridge"}, ("0304", "0305"): {"creek", "bridge"}})
STREAMS = {**RICHMOND.exclusive["streams"], "bridges": [["0504", "0505"]]}


def start(units, battle=True, terrain=None):
    exclusive = {"streams": STREAMS} if battle else {}
    sc = scenario([*units, union("far", "0101")], hexes=board(8, 8, terrain), hexsides=SIDES, exclusive=exclusive, cases={"revised": RICHMOND.cases["revised"]}, first_player="confederate")
    return to_phase(new_game(Game(sc, get_ruleset("revised"))), "confederate", "combat")


def test_the_battle_parameters_18_5():
    streams = RICHMOND.exclusive["streams"]
    assert (streams["halve_attacker"], streams["advance_across"], streams["advance_into_swamp"]) == (False, False, False)


def test_not_halved_attacking_exclusively_across_streams_even_at_a_bridge_18_51():
    # 18.51: "The Defender is not doubled when attacked exclusively across stream hex sides (fordable
    # creeks), even if a bridge is present (exception to Case 10.1)": the revised chart halves the attacker
    assert declared(start([rebel("a", "0404", strength=6), union("d", "0405", strength=2)]), ["a"], ["0405"])[1].attack == 6
    assert declared(start([rebel("a", "0404", strength=6), union("d", "0405", strength=2)], battle=False), ["a"], ["0405"])[1].attack == 3
    assert declared(start([rebel("a", "0504", strength=6), union("d", "0505", strength=2)]), ["a"], ["0505"])[1].attack == 6
    # a bridge over a creek (not a stream) still halves
    assert declared(start([rebel("a", "0304", strength=6), union("d", "0305", strength=2)]), ["a"], ["0305"])[1].attack == 3
    # not exclusively: with an attacker from clear terrain beside it, the one across the stream is halved
    units = [rebel("a", "0404", strength=6), rebel("b", "0406", strength=6), union("d", "0405", strength=2)]
    assert declared(start(units), ["a", "b"], ["0405"])[1].attack == 9
    # other terrain still halves: a defender in rough
    units = [rebel("a", "0404", strength=6), union("d", "0405", strength=2)]
    assert declared(start(units, terrain={"0405": "rough"}), ["a"], ["0405"])[1].attack == 3


def advancers(state):
    return {(p.hexes, p.units) for p in state.pending if isinstance(p, PendingAdvance)}


def retreat_d(state):
    """The defender's retreat decision, if it is pending: the first hex open."""
    if any(isinstance(p, PendingRetreat) for p in state.pending):
        state, _ = execute(state, Retreat("d", retreat_options(state, "d")[0].to))
    return state


def test_no_advance_across_a_stream_but_at_a_bridge_18_52():
    # 18.52: "Units may not advance after combat across a stream hex side (fordable creeks), except where
    # a bridge is present": d at 0405 driven out (12-2, Dr) by a across the stream and b across clear
    units = [rebel("a", "0404", strength=6), rebel("b", "0406", strength=6), union("d", "0405", strength=2)]
    state, _ = declared(start(units), ["a", "b"], ["0405"])
    state = retreat_d(resolve(state, 2, 6, 6)[0])
    assert state.positions.get("d") != "0405"
    assert advancers(state) == {(("0405",), ("b",))}
    # across the stream bridge, a may advance
    units = [rebel("a", "0504", strength=12), union("d", "0505", strength=2)]
    state, _ = declared(start(units), ["a"], ["0505"])
    state = retreat_d(resolve(state, 2, 6, 6)[0])
    assert advancers(state) == {(("0505",), ("a",))}


def test_no_advance_into_a_swamp_18_6():
    # 18.6: "Units may not advance after combat into a swamp hex"
    units = [rebel("a", "0406", strength=12), union("d", "0407", strength=2)]
    state, _ = declared(start(units, terrain={"0407": "swamp"}), ["a"], ["0407"])
    state = retreat_d(resolve(state, 2, 6, 6)[0])  # 3-1 (halved into the swamp), Dr
    assert state.positions.get("d") != "0407" and advancers(state) == set()
    state, _ = declared(start(units, battle=False, terrain={"0407": "swamp"}), ["a"], ["0407"])
    state = retreat_d(resolve(state, 2, 6, 6)[0])
    assert advancers(state) == {(("0407",), ("a",))}  # without the battle's rule
