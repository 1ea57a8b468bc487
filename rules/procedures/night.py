"""Night Game-Turns: no combat (10.0, 10.1), their effect on movement (10.2), Chattanooga's night rule
(17.2), and, with the optional rule, how an ineffective unit is bound by zones of control (11.2).

10.0, 10.1: a night Game-Turn has no Combat Phase (the rule set's ``night_phases``): no attack, no
bombardment; adjacent enemies simply remain in place.

10.2: units may not enter enemy-controlled hexes at night, nor leave them (as by day, 5.13).
17.2 (the battle's ``night_movement``, rules/core/components/night_movement.py): the sides in
``immobile_sides`` may not move at all at night (the component's restriction); the other side may not
enter, but may leave, enemy zones of control (``may_exit_enemy_zoc``, true unless the scenario says
otherwise).
"""

from __future__ import annotations

from typing import NamedTuple

from rules.core.errors import RuleViolation
from rules.core.scenario import Side
from rules.core.state import State
from rules.procedures.sequence import night_turn


class ZocRules(NamedTuple):
    """How enemy zones of control bind a moving unit of one side in the current Game-Turn."""

    may_enter: bool  # by day: yes, and it stops there (6.0); at night: no (10.2)
    may_exit: bool  # by day: never during movement (5.13); at night: per 10.2 / 17.2
    case: str  # the rule name that forbids entering (for the error)


def zoc_rules(state: State, side: Side, unit: str | None = None, here: str | None = None) -> ZocRules:
    """How enemy zones of control bind a unit of ``side`` moving now (``unit``: that unit, for 11.2; ``here``:
    where a mover that is no unit begins, a Leader's hex (Grand Chancellorsville 23.51), for revised 11.12)."""
    if unit is not None and unit in state.ineffective:
        # 11.2: an ineffective unit may not enter an enemy controlled hex until it recovers.
        rules = zoc_rules(state, side)
        return rules._replace(may_enter=False, case="ineffective_zoc") if rules.may_enter else rules
    rules = state.game.ruleset.procedures.zoc_rules(state, side, unit, here)  # revised 11.12
    if unit is not None and rules.may_enter and state.game.battle.reinforcements.marching(state.turn, state.game.units[unit]):
        return rules._replace(may_enter=False, case="reinforcements.march")  # Road to Richmond 17.2
    return rules


def standard_zoc_rules(state: State, side: Side, unit: str | None = None, here: str | None = None) -> ZocRules:
    """The 1975 rule (the rule set's procedure ``zoc_rules``): by day a unit enters an enemy zone and
    stops (6.0), never leaves one during movement (5.13); at night neither (10.2), or as the scenario's
    ``night_movement`` says (17.2)."""
    if not night_turn(state):
        return ZocRules(True, False, "zone_of_control")
    night = state.game.battle.night_movement
    if night is not None:  # 17.2
        return ZocRules(False, night.may_exit_enemy_zoc, "exclusive_night_movement")
    return ZocRules(False, False, "night_zoc")  # 10.2


def no_combat_at_night(state: State) -> RuleViolation | None:
    """10.1: "There is no Combat Phase during a Night Game-Turn, and no combat is allowed ...
    Artillery units may not bombard during Night Game-Turns." """
    if not night_turn(state):
        return None
    return state.game.violation(
        "night_combat",
        f"Game-Turn {state.turn} is a night Game-Turn: no combat is allowed and artillery may not bombard",
    )
