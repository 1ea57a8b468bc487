"""Reinforcements (Chattanooga 15.0 general rule, 15.11–15.15), each on a small map built for the case."""

import pytest
from rulesmaps import board, rebel, start, union

from rules.core.commands import EndPhase, EnterReinforcement, MoveUnit
from rules.core.errors import RuleViolation
from rules.core.events import PhaseEnded, ReinforcementLost
from rules.legal import choices
from rules.procedures.reinforcements import waiting
from rules.reducer import decide, execute

LOST = {"reinforcements": {"lost_if_not_entered": True}}


def refused(state, command) -> str:
    with pytest.raises(RuleViolation) as e:
        decide(state, command)
    return e.value.case


def to_turn(state, turn):
    while state.turn < turn:
        state, _ = execute(state, EndPhase())
    return state


def game(units=(), exclusive=LOST, hexes=None):
    r = union("r", None, arrives=2, entry=["0101", "0103"])
    return start([r, *units, rebel("c", "0808")], exclusive=exclusive, hexes=hexes)


def test_reinforcements_enter_in_their_game_turn_movement_phase():
    # 15.11: at any time during the Union Movement Phase of Game-Turn Two
    state = game()
    assert refused(state, EnterReinforcement("r", ("0101",))) == "15.11"
    assert "r" not in choices(state).reinforcements
    state = to_turn(state, 2)
    assert "r" in choices(state).reinforcements
    state, events = execute(state, EnterReinforcement("r", ("0101", "0102")))
    assert state.positions["r"] == "0102" and "r" in state.moved


def test_not_into_an_enemy_controlled_entry_hex():
    # 15.12: reinforcing units may not enter an entry hex which is an enemy controlled hex
    state = to_turn(game(), 2)
    state.positions["c"] = "0102"  # controls 0101 and 0103 (set up for the case)
    assert refused(state, EnterReinforcement("r", ("0101",))) == "15.12"
    assert refused(state, EnterReinforcement("r", ("0103",))) == "15.12"
    assert "r" not in choices(state).reinforcements


def test_not_into_an_enemy_occupied_entry_hex():
    # 5.12 with 15.12
    state = to_turn(game(), 2)
    state.positions["c"] = "0101"
    assert refused(state, EnterReinforcement("r", ("0101",))) in {"5.12", "15.12"}
    assert set(choices(state).reinforcements.get("r", {})).isdisjoint({"0101"})


def test_only_at_its_entry_hexes():
    # 15.2 chart / 15.11: at one of the specified hexes
    state = to_turn(game(), 2)
    assert refused(state, EnterReinforcement("r", ("0105",))) == "15.1"


def test_not_entered_is_lost_and_counts_as_eliminated():
    # 15.12: not able to enter on Game-Turn Two: considered eliminated
    state = to_turn(game(), 2)
    events = decide(state, EndPhase())
    assert events[0] == ReinforcementLost(unit="r")
    assert isinstance(events[1], PhaseEnded)
    state, _ = execute(state, EndPhase())
    assert state.eliminated == ["r"] and waiting(state) == []
    assert refused(state, EnterReinforcement("r", ("0101",))) == "15.1"


def test_without_the_loss_rule_a_reinforcement_may_come_later():
    # 15.1 as a parameter: a scenario without lost_if_not_entered keeps it waiting
    state = to_turn(game(exclusive={}), 3)
    assert "r" in choices(state).reinforcements


def test_entry_hex_terrain_is_paid():
    # 15.13: each reinforcing unit pays the terrain cost to enter the entry hex
    state = to_turn(game(hexes=board(terrain={"0101": "forest"})), 2)
    legal = choices(state).reinforcements["r"]
    assert legal["0101"].cost == 3  # from 0101 it could go on three more clear hexes
    assert decide(state, EnterReinforcement("r", ("0101", "0102", "0103", "0104")))[0].cost == 6
    via_0101 = ("0101", "0102", "0103", "0104", "0105")
    assert refused(state, EnterReinforcement("r", via_0101)) == "5.15"


def test_entered_unit_moves_freely_afterwards():
    # 15.14: once on the map it may move like any other unit
    state = to_turn(game(), 2)
    state, _ = execute(state, EnterReinforcement("r", ("0101",)))
    assert refused(state, MoveUnit("r", ("0101", "0102"))) == "5.17"
    state = to_turn(state, 3)
    assert decide(state, MoveUnit("r", ("0101", "0102")))


def test_stacking_on_entry():
    # 15.15: units may not exceed the stacking restrictions when entering
    units = [union("a", "0101"), union("b", "0101")]
    state = to_turn(game(units=units), 2)
    state, _ = execute(state, MoveUnit("a", ("0101", "0201")))
    state, _ = execute(state, MoveUnit("b", ("0101", "0201", "0301")))
    state.positions["a"], state.positions["b"] = "0101", "0101"  # both moved, both in the entry hex
    assert refused(state, EnterReinforcement("r", ("0101",))) == "5.32"
    assert "0101" not in choices(state).reinforcements["r"]
    assert decide(state, EnterReinforcement("r", ("0101", "0102")))  # passing through is free (5.33)
