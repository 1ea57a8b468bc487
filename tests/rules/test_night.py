"""Night Game-Turns' movement rule (10.2) under the standard rules alone (Chattanooga's own night rule
17.2 is in test_chattanooga_movement.py)."""

import pytest
from rulesmaps import rebel, start, union

from rules.core.commands import MoveUnit
from rules.core.errors import RuleViolation
from rules.legal import unit_moves
from rules.reducer import decide


def refused(state, command) -> str:
    with pytest.raises(RuleViolation) as e:
        decide(state, command)
    return e.value.case


def test_no_entering_enemy_controlled_hexes_at_night():
    # 10.2: units may not enter enemy controlled hexes during a night Game-Turn
    state = start([union("u", "0101"), rebel("c", "0105")], night_turns=[1])
    assert refused(state, MoveUnit("u", ("0101", "0102", "0103", "0104"))) == "10.2"
    moves = unit_moves(state, "u")
    assert "0104" not in moves and "0103" in moves


def test_no_leaving_enemy_controlled_hexes_at_night():
    # 10.2: nor may units already in enemy controlled hexes exit them
    state = start([union("u", "0104"), rebel("c", "0105")], night_turns=[1])
    assert refused(state, MoveUnit("u", ("0104", "0103"))) == "5.13"
    assert unit_moves(state, "u") == {}


def test_otherwise_night_movement_is_day_movement():
    # 10.2: movement restrictions are otherwise identical to a day Game-Turn
    state = start([union("u", "0101"), rebel("c", "0808")], night_turns=[1])
    assert decide(state, MoveUnit("u", ("0101", "0102", "0103", "0104", "0105", "0106", "0107")))[0].cost == 6


def test_day_turn_allows_entering():
    # 10.2 applies only at night: by day the same move ends in the controlled hex (6.0)
    state = start([union("u", "0101"), rebel("c", "0105")], night_turns=[2])
    assert decide(state, MoveUnit("u", ("0101", "0102", "0103", "0104")))
