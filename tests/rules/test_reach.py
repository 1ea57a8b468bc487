"""One unit's destinations on request (rules/legal.py ``reach``), and why a unit free to start a move
has none: the summary of the choices names the unit, its reach gives the rule that stops it."""

import pytest
from rulesmaps import board, rebel, start, union

from rules.core.commands import MoveUnit
from rules.core.errors import RuleViolation
from rules.legal import choices, reach
from rules.reducer import decide, execute


def refused(state, command) -> str:
    with pytest.raises(RuleViolation) as e:
        decide(state, command)
    return e.value.case


def test_reach_is_the_units_destinations_in_the_full_choices():
    state = start([union("u", "0101"), union("v", "0303"), rebel("c", "0808")])
    summary = choices(state, destinations=False)
    assert summary.may_move == ["u", "v"] and summary.moves == {}
    found, why = reach(state, "u")
    assert why is None and found == choices(state).moves["u"] and "0102" in found


def test_a_unit_that_has_moved_gets_the_rules_reason():
    # 5.17 (moved_once): each unit moves once per Movement Phase
    state = start([union("u", "0101"), rebel("c", "0808")])
    state, _ = execute(state, MoveUnit("u", ("0101", "0102")))
    assert "u" not in choices(state, destinations=False).may_move
    found, why = reach(state, "u")
    assert found == {} and why.case == refused(state, MoveUnit("u", ("0102", "0103")))
    assert "already moved" in why.message


def test_a_unit_pinned_by_a_zone_of_control_is_listed_and_told_why():
    # 5.13: a unit in an enemy controlled hex may start no move; it may move in principle (5.11), so the
    # summary names it, and its reach says which rule holds it
    state = start([union("u", "0104"), rebel("c", "0105")])
    assert "u" in choices(state, destinations=False).may_move
    found, why = reach(state, "u")
    assert found == {} and why.case == "5.13" and "may not leave it" in why.message


def test_a_unit_whose_every_end_is_a_stacking_dead_end_is_told_why():
    # 5.32: 0101 and 0102 each hold two units that have moved; d reaches only those two hexes
    hexes = {**board(1, 3), "0808": "clear"}
    units = [union("a", "0101"), union("b", "0101"), union("c", "0102"), union("e", "0102"), union("d", "0103")]
    state = start([*units, rebel("r", "0808")], hexes=hexes)
    for unit, path in (("a", ("0101", "0102")), ("c", ("0102", "0101")), ("b", ("0101", "0102")), ("e", ("0102", "0101"))):
        state, _ = execute(state, MoveUnit(unit, path))
    assert refused(state, MoveUnit("d", ("0103", "0102"))) == "5.32"
    found, why = reach(state, "d")
    assert found == {} and why.case == "5.32" and "could not be brought back to 2 units" in why.message


def test_unknown_units_and_wrong_kinds_of_move_are_refused_with_a_case():
    state = start([union("u", "0101"), rebel("c", "0808")])
    found, why = reach(state, "nobody")
    assert found == {} and "no unit 'nobody'" in why.message
    found, why = reach(state, "u", "enter")  # not a reinforcement
    assert found == {} and "not a reinforcement" in why.message
    found, why = reach(state, "u", "strategic")  # 1975 rules: no Strategic Movement
    assert found == {} and "Strategic Movement" in why.message
