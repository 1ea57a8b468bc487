"""Night Game-Turns and combat (1975 10.0, 10.1; Chattanooga 17.2 for movement at night)."""

from combatmaps import refused, to_phase
from rulesmaps import rebel, start, union

from rules.core.commands import DeclareAttack, EndPhase
from rules.legal import choices
from rules.reducer import execute


def test_no_combat_phase_and_no_combat_at_night():
    # 10.0, 10.1: "There is no Combat Phase during a Night Game-Turn, and no combat is allowed.
    # Opposing adjacent units do not engage in combat; they simply remain in place."
    units = [union("a", "0404"), union("gun", "0303", type_="artillery"), rebel("d", "0505")]
    state = start(units, night_turns=[1])
    assert choices(state).attacks == [] and choices(state).may_end_phase
    assert refused(state, DeclareAttack(("a",), ("0505",))).case == "10.1"
    state, _ = execute(state, EndPhase())  # Union movement: no Combat Phase follows
    assert (state.phasing, state.phase) == ("confederate", "movement")
    state, _ = execute(state, EndPhase())
    assert state.turn == 2 and state.positions == {"a": "0404", "gun": "0303", "d": "0505"}


def test_artillery_may_not_bombard_at_night():
    # 10.1: "Artillery units may not bombard during Night Game-Turns."
    state = start([union("gun", "0404", type_="artillery"), rebel("d", "0704")], night_turns=[1])
    assert refused(state, DeclareAttack(("gun",), ("0704",))).case == "10.1"


def test_the_day_after_the_night_adjacent_units_must_fight():
    # 10.1 then 7.11, 7.12: the units left adjacent at night must fight in the next day's Combat Phase
    state = start([union("a", "0404"), rebel("d", "0505")], night_turns=[1])
    state, _ = execute(state, EndPhase())
    state, _ = execute(state, EndPhase())
    state = to_phase(state)
    assert state.turn == 2 and choices(state).end_phase_refused.case == "7.12"
