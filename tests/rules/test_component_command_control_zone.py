"""The Command Control Zone (Road to Richmond 18.2, 20.0-20.3), under the revised rules, on a small map
whose zone is column 01, rows 03-06, with the battle's parameters: closed to the Union until three
Game-Turns after the Train exits by 0804 (for 1528) or the reinforcement "late" (for the Game-Turn
Fourteen reinforcements) enters."""

from __future__ import annotations

import pytest

from rules.core.commands import DeclareAttack, EndPhase, EnterReinforcement, ExitMap, MoveUnit, StrategicMove
from rules.core.errors import RuleViolation
from rules.core.game import Game
from rules.procedures.movement import reachable
from rules.queries.zoc import enemy_controlled
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.combatmaps import to_phase
from tests.rules.rulesmaps import rebel, scenario, sides, union

ZONE = ["0103", "0104", "0105", "0106"]
ROAD = sides({(f"0{c}04", f"0{c + 1}04"): {"road"} for c in range(1, 8)})
RICHMOND = load("road_to_richmond")
CASES = {"revised": {"command_control_zone": "20.1", "exits": "19.12", "exits.cost": "19.11"}}


def start(units, turns=8, first_player="union"):
    exclusive = {
        "command_control_zone": {**RICHMOND.exclusive["command_control_zone"], "after_exit": {"unit": "train", "hex": "0804"}, "after_entry": ["late"]},
        "exits": {"hexes": ["0804"], "cost": 1},
        "trains": {"units": ["train"]},
    }
    sc = scenario(units, hexsides=ROAD, exclusive=exclusive, cases=CASES, first_player=first_player, turns=turns, areas={"command_control_zone": ZONE})
    return new_game(Game(sc, get_ruleset("revised")))


def to_turn(state, turn, side="union", phase="movement"):
    while not (state.turn == turn and state.phasing == side and state.phase == phase):
        state, _ = execute(state, EndPhase())
    return state


def refused(state, command):
    with pytest.raises(RuleViolation) as info:
        execute(state, command)
    return info.value


def test_the_battle_parameters_18_2_20_1():
    # 18.2: the zone of the map; 20.1: three Game-Turns after the Train's exit by 1528 or the Game-Turn
    # Fourteen reinforcements (1/1/II, 3R) entering
    zone = Game(RICHMOND, get_ruleset("revised")).battle.command_control_zone
    assert (zone.side, zone.area, zone.turns) == ("union", "command_control_zone", 3)
    assert (zone.after_exit.unit, zone.after_exit.hex) == ("us-train", "1528")
    assert sorted(zone.after_entry) == sorted(u.id for u in RICHMOND.units if u.arrives == 14 and u.side == "union")


def test_union_units_may_not_enter_the_zone_until_it_opens_20_1():
    # 20.1: no move, no Strategic Movement, no entry into a zone hex; the Confederate moves in freely
    units = [union("u", "0204"), union("train", "0704", movement_allowance=6, strength=1), rebel("c", "0506")]
    state = start(units)
    assert refused(state, MoveUnit("u", ("0204", "0104"))).case == "20.1"
    assert not set(ZONE) & set(reachable(state, "u").cost)
    assert refused(state, StrategicMove("u", ("0204", "0104"))).case == "20.1"
    state = to_turn(state, 1, "confederate")
    state, _ = execute(state, MoveUnit("c", reachable(state, "c").path("0105")))
    assert state.positions["c"] == "0105"


def test_the_zone_opens_three_game_turns_after_the_train_exits_20_1():
    # the Train exits by 0804 on Game-Turn One: the zone opens to the Union on Game-Turn Four
    units = [union("u", "0204"), union("train", "0704", movement_allowance=6, strength=1), rebel("c", "0501")]
    state = start(units)
    state, _ = execute(state, ExitMap("train", ("0704", "0804")))
    state = to_turn(state, 3)
    assert refused(state, MoveUnit("u", ("0204", "0104"))).case == "20.1"
    state = to_turn(state, 4)
    state, _ = execute(state, MoveUnit("u", ("0204", "0104")))
    assert state.positions["u"] == "0104"


def test_the_zone_opens_three_game_turns_after_the_reinforcements_enter_20_1():
    # "three Game-Turns after the Union Game-Turn Fourteen Reinforcements are brought on": here "late",
    # entering on Game-Turn Two: the zone opens on Game-Turn Five; a reinforcement may not enter at a
    # zone hex while it is closed
    units = [
        union("u", "0204"), union("late", None, arrives=2, entry=["0707"]), union("z", None, arrives=1, entry=["0103"]),
        union("train", "0704", movement_allowance=6, strength=1), rebel("c", "0501"),
    ]
    state = start(units)
    assert refused(state, EnterReinforcement("z", ("0103",))).case == "20.1"
    state = to_turn(state, 2)
    state, _ = execute(state, EnterReinforcement("late", ("0707",)))
    state = to_turn(state, 4)
    assert refused(state, MoveUnit("u", ("0204", "0104"))).case == "20.1"
    state = to_turn(state, 5)
    state, _ = execute(state, MoveUnit("u", ("0204", "0104")))
    state, _ = execute(state, EnterReinforcement("z", ("0103",)))
    assert state.positions["u"] == "0104" and state.positions["z"] == "0103"


def test_zones_of_control_and_attacks_into_the_zone_are_the_standard_ones_20_2_20_3():
    # 20.2: "Union units exert a Zone of Control into the Command Control Zone as normal"; 20.3: "Union
    # units may attack Confederate units in the Command Control Zone"
    units = [union("u", "0204", strength=6), union("train", "0808", movement_allowance=6, strength=1), rebel("c", "0104", strength=2)]
    state = start(units)
    assert "0104" in enemy_controlled(state, "confederate")  # u's zone reaches into 0104
    state = to_phase(state, "union", "combat")
    state, events = execute(state, DeclareAttack(("u",), ("0104",)))
    assert events
