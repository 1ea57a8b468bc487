"""Stacking (5.31–5.33) with no dead end: a move after which the limit could no longer be met by the
end of the phase is refused and never offered."""

import pytest
from rulesmaps import rebel, start, union

from rules.core.commands import EndPhase, MoveUnit
from rules.core.errors import RuleViolation
from rules.legal import choices, unit_moves
from rules.reducer import decide, execute
from rules.rulesets import get as get_ruleset


def refused(state, command) -> str:
    with pytest.raises(RuleViolation) as e:
        decide(state, command)
    return e.value.case


def test_two_units_may_end_a_phase_stacked():
    # 5.32: a maximum of two units may be stacked in a hex
    state = start([union("a", "0101"), union("b", "0103"), rebel("c", "0808")])
    state, _ = execute(state, MoveUnit("b", ("0103", "0102", "0101")))
    assert choices(state).may_end_phase
    execute(state, EndPhase())


def test_three_units_may_not_end_a_phase_in_one_hex():
    # 5.32: the limit holds at the end of every phase; a third unit may arrive if one can still leave
    state = start([union("a", "0101"), union("b", "0101"), union("d", "0103"), rebel("c", "0808")])
    state, _ = execute(state, MoveUnit("d", ("0103", "0102", "0101")))
    legal = choices(state)
    assert not legal.may_end_phase and legal.end_phase_refused.case == "5.32"
    assert refused(state, EndPhase()) == "5.32"
    state, _ = execute(state, MoveUnit("a", ("0101", "0201")))
    assert choices(state).may_end_phase


def test_no_dead_end_when_the_stack_has_already_moved():
    # 5.32, no dead end: both units in the hex have moved, so a third could never be balanced
    state = start([union("a", "0102"), union("b", "0103"), union("d", "0105"), rebel("c", "0808")])
    state, _ = execute(state, MoveUnit("a", ("0102", "0101")))
    state, _ = execute(state, MoveUnit("b", ("0103", "0102", "0101")))
    assert refused(state, MoveUnit("d", ("0105", "0104", "0103", "0102", "0101"))) == "5.32"
    assert "0101" not in unit_moves(state, "d")


def test_no_dead_end_in_an_enemy_zone_of_control():
    # 5.32 with 5.13: units in an enemy controlled hex can never leave it, so no third may join them
    state = start([union("a", "0104"), union("b", "0104"), union("d", "0101"), rebel("c", "0105")])
    assert refused(state, MoveUnit("d", ("0101", "0102", "0103", "0104"))) == "5.32"
    assert "0104" not in unit_moves(state, "d")


def test_passing_through_a_full_hex_is_free():
    # 5.31, 5.33: no limit to the units passing through a hex
    state = start([union("a", "0102"), union("b", "0102"), union("d", "0101"), rebel("c", "0808")])
    assert decide(state, MoveUnit("d", ("0101", "0102", "0103")))[0].cost == 2


def test_offered_overstack_can_always_be_resolved():
    # 5.32: every move offered into a full hex leaves a way back within the limit
    state = start([union("a", "0101"), union("b", "0101"), union("d", "0103"), rebel("c", "0808")])
    assert "0101" in unit_moves(state, "d")
    state, _ = execute(state, MoveUnit("d", ("0103", "0102", "0101")))
    # One of a and b must now leave; both may.
    legal = choices(state)
    assert set(legal.moves) == {"a", "b"}


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
def test_the_offered_ends_are_those_the_move_itself_would_pass(ruleset):
    # 5.32: choices check every end of a unit at once (stacking.Arrivals); at over-stacked positions of a
    # self-played Chattanooga game they keep exactly the ends that check_no_dead_end, on the state
    # after each move, lets through
    import random

    from players.selfplay import PLAYERS, play
    from rules.core.events import UnitMoved
    from rules.core.game import Game
    from rules.core.handlers import apply
    from rules.core.state import MOVEMENT
    from rules.procedures.movement import check_no_dead_end, reachable
    from rules.queries.stacking import overstacked
    from rules.reducer import new_game
    from scenarios.loader import load

    start_ = new_game(Game(load("chattanooga"), get_ruleset(ruleset)))
    checked = 0
    for before, _command, _events in play(start_, random.Random(2), max_commands=500, players=PLAYERS["random"]):
        if before.phase != MOVEMENT or before.pending or not overstacked(before, before.phasing):
            continue
        legal = choices(before)
        for unit in legal.may_move[:4]:
            reach = reachable(before, unit)
            kept = set()
            for d in reach.ends:
                after = before.copy()
                apply(after, UnitMoved(unit=unit, path=reach.path(d), cost=1))
                try:
                    check_no_dead_end(after, unit)
                except RuleViolation:
                    continue
                kept.add(d)
            assert set(legal.moves.get(unit, {})) == kept
            checked += 1
        if checked >= 12:
            break
    assert checked >= 12


# -- Road to Vicksburg 19.4: five units, no more than one brigade-sized ------------------------------
VICKSBURG = {"stacking": {"units": 5, "at_most_one": ["brigade"]}}
CASES = {"classic": {"stacking": "19.4"}}


def test_up_to_five_units_may_occupy_a_hex_19_4():
    # 19.4: "Up to five Friendly units may occupy a hex"
    units = [union(u, "0101", size="regiment") for u in "abcd"] + [union("e", "0103"), union("f", "0103"), rebel("x", "0808")]
    state = start(units, exclusive=VICKSBURG, cases=CASES)
    state, _ = execute(state, MoveUnit("e", ("0103", "0102", "0101")))  # five
    assert choices(state).may_end_phase
    state, _ = execute(state, MoveUnit("f", ("0103", "0102", "0101")))  # six: one must leave again
    assert refused(state, EndPhase()) == "19.4"
    state, _ = execute(state, MoveUnit("a", ("0101", "0201")))
    execute(state, EndPhase())


def test_no_more_than_one_brigade_sized_unit_in_a_hex_19_4():
    # 19.4: "provided that no more than one of those units is brigade-sized": a brigade ends no move in a
    # hex holding a brigade, but moves through it; a battery or a regiment joins it
    units = [union("b1", "0101", size="brigade"), union("b2", "0103", size="brigade"), union("r", "0104", size="regiment"),
             union("g", "0105", type_="artillery", size="battery"), rebel("x", "0808")]
    state = start(units, exclusive=VICKSBURG, cases=CASES)
    assert refused(state, MoveUnit("b2", ("0103", "0102", "0101"))) == "19.4"
    moves = unit_moves(state, "b2")
    assert "0101" not in moves and "0201" in moves
    state, _ = execute(state, MoveUnit("b2", ("0103", "0102", "0101", "0201")))  # through it
    state, _ = execute(state, MoveUnit("r", ("0104", "0103", "0102", "0101")))
    state, _ = execute(state, MoveUnit("g", ("0105", "0104", "0103", "0102", "0101")))
    assert sorted(state.units_in("0101")) == ["b1", "g", "r"]
    execute(state, EndPhase())
    # without the rule, the two brigades stack as any two units (6.32)
    state = start(units, cases=CASES)
    state, _ = execute(state, MoveUnit("b2", ("0103", "0102", "0101")))
    assert sorted(state.units_in("0101")) == ["b1", "b2"]


def test_the_position_kept_within_the_limit_is_compared_by_content():
    # 5.32: each move starts where the last ended, so the last position found within the limit is kept
    # (rules/queries/stacking.py ``known_within_limit``); changing the units' hexes in place, as a scratch
    # state may, must not leave that answer standing
    from rules.queries.stacking import known_within_limit, overstacked

    state = start([union("a", "0101"), union("b", "0103"), union("d", "0105"), rebel("c", "0808")])
    state, _ = execute(state, MoveUnit("b", ("0103", "0102", "0101")))
    assert known_within_limit(state) and overstacked(state) == {}
    state.positions["d"] = "0101"  # a third unit put in the hex by hand
    assert not known_within_limit(state)
    assert overstacked(state) == {"0101": 1}
    assert refused(state, EndPhase()) == "5.32"
