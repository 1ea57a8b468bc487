"""Road to Richmond's reinforcement rules (003 17.2), under the revised rules, on a small map and on the
battle's map."""

from __future__ import annotations

import pytest

from rules.core.commands import EndPhase, EnterReinforcement
from rules.core.errors import RuleViolation
from rules.core.game import Game
from rules.procedures.movement import allowance_now
from rules.procedures.reinforcements import reachable_from_entry
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.rulesmaps import board, rebel, scenario, union

RICHMOND = load("road_to_richmond")


def start(units):
    exclusive = {"reinforcements": {"first_turn_march": RICHMOND.exclusive["reinforcements"]["first_turn_march"]}}
    sc = scenario(units, hexes=board(16, 8), exclusive=exclusive, cases={"revised": RICHMOND.cases["revised"]}, first_player="confederate")
    return new_game(Game(sc, get_ruleset("revised")))


def test_game_turn_one_reinforcements_move_twice_their_allowance_on_game_turn_one_17_2():
    # 17.2: "Confederate Game-Turn One Reinforcements may move twice their normal Movement Allowance on
    # the first Game-Turn ... (first two units to arrive: 12 Movement Points; second two units to arrive:
    # 11 Movement Points; etc)": six doubled; the revised 5.0 column costs the third unit one more
    units = [rebel(f"r{i}", None, arrives=1, entry=["0104"]) for i in range(3)] + [rebel("late", None, arrives=2, entry=["0104"]), union("far", "1601")]
    state = start(units)
    assert allowance_now(state, "r0") == 12
    first = reachable_from_entry(state, "r0", "0104")
    assert "1204" in first.ends and "1304" not in first.ends  # entering 0104 (1) and eleven more hexes
    state, _ = execute(state, EnterReinforcement("r0", first.path("1204")))
    state, _ = execute(state, EnterReinforcement("r1", reachable_from_entry(state, "r1", "0104").path("1203")))
    third = reachable_from_entry(state, "r2", "0104")  # 5.0: the second stack pays one more to enter
    assert "1104" in third.ends and "1204" not in third.ends
    # the Game-Turn Two reinforcements, and everyone on Game-Turn Two, move with six
    while state.turn == 1 or state.phasing != "confederate" or state.phase != "movement":
        state, _ = execute(state, EndPhase())
    assert allowance_now(state, "late") == 6 and allowance_now(state, "r0") == 6


def test_not_into_a_union_zone_of_control_on_game_turn_one_17_2():
    # 17.2: "as long as they do not enter Union Zones of Control": 0504 is beside the Union unit at 0604
    units = [rebel("r", None, arrives=1, entry=["0104"]), union("u", "0604")]
    state = start(units)
    reach = reachable_from_entry(state, "r", "0104")
    assert "0504" not in reach.ends and "0404" in reach.ends
    with pytest.raises(RuleViolation) as refused:
        execute(state, EnterReinforcement("r", ("0104", "0204", "0304", "0404", "0504")))
    assert refused.value.case == "17.2"


def test_the_battle_marches_the_confederate_game_turn_one_reinforcements():
    game = Game(RICHMOND, get_ruleset("revised"))
    state = new_game(game)
    hill = next(u.id for u in RICHMOND.units if u.designation == "Gregg")
    jackson = next(u.id for u in RICHMOND.units if u.designation == "Winder")
    assert allowance_now(state, hill) == 2 * game.movement_allowance(hill)
    assert allowance_now(state, jackson) == game.movement_allowance(jackson)  # Game-Turn Two's


def alternate_game(units):
    # 17.32 on the small map: "on hex 1301 (or hex 1901 if occupied or in the Zone of Control of a Union
    # unit)", with 0104 for 1301 and 0108 for 1901
    block = {"alternate_entry": [{"hex": "0108", "if_occupied_or_controlled": "0104"}]}
    sc = scenario(
        units,
        hexes=board(16, 8),
        exclusive={"reinforcements": block},
        cases={"revised": RICHMOND.cases["revised"]},
        first_player="confederate",
    )
    return new_game(Game(sc, get_ruleset("revised")))


def winder(hex_=None):
    return rebel("winder", hex_, arrives=1, entry=["0104", "0108"])


def test_winder_enters_at_1301_and_at_1901_only_if_1301_is_occupied_or_controlled_by_the_union_17_32():
    from rules.procedures.reinforcements import entry_hexes

    # 17.32: 1301 (0104) empty and in no Union zone of control: 1301 only
    state = alternate_game([winder(), union("far", "1601")])
    assert entry_hexes(state, "winder") == ["0104"]
    with pytest.raises(RuleViolation) as refused:
        execute(state, EnterReinforcement("winder", ("0108",)))
    assert refused.value.case == "17.32"
    state, _ = execute(state, EnterReinforcement("winder", ("0104",)))
    assert state.positions["winder"] == "0104"
    # in the Zone of Control of a Union unit (0204 is beside 0104): 1901 too (and 1301, as 5.4 allows)
    state = alternate_game([winder(), union("u", "0204"), union("far", "1601")])
    assert entry_hexes(state, "winder") == ["0104", "0108"]
    state, _ = execute(state, EnterReinforcement("winder", ("0108",)))
    assert state.positions["winder"] == "0108"
    # occupied by a Union unit: 1901
    state = alternate_game([winder(), union("u", "0104"), union("far", "1601")])
    state, _ = execute(state, EnterReinforcement("winder", ("0108",)))
    assert state.positions["winder"] == "0108"


def test_the_battle_offers_winder_1901_only_while_1301_is_occupied_or_controlled_17_32():
    # 17.32, on the battle's map: on Game-Turn Two no Union unit is at or beside 1301, so Winder and the
    # other Game-Turn Two reinforcements enter at 1301 only
    from rules.legal import choices
    from rules.procedures.reinforcements import entry_hexes

    state = new_game(Game(RICHMOND, get_ruleset("revised")))
    jackson = next(u.id for u in RICHMOND.units if u.designation == "Winder")
    while state.turn < 2 or state.phasing != "confederate" or state.phase != "movement":
        state, _ = execute(state, EndPhase())
    assert entry_hexes(state, jackson) == ["1301"]
    assert {d.path[0] for d in choices(state).reinforcements[jackson].values()} == {"1301"}
    with pytest.raises(RuleViolation) as refused:
        execute(state, EnterReinforcement(jackson, ("1901",)))
    assert refused.value.case == "17.32"
