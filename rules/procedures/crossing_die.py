"""Hooker and Lee 19.14: the die for Averill's crossing of Ely's Ford (rules/core/components/crossing_die.py),
rolled at the beginning of the side's Movement Phase (a rule set's ``phase_rolls``: as the phase begins,
or by the first command of the game's first phase; rules/procedures/phase_rolls.py says how).
"""

from __future__ import annotations

from rules.core.components.crossing_die import ALLOWED, ROLLED
from rules.core.events import CrossingDieRolled, Event
from rules.core.handlers import Dice, only_with
from rules.core.state import State


@only_with("crossing_die")
def roll_at_start(state: State, dice: Dice | None) -> list[Event]:
    """19.14: "The die is rolled once for each Game-Turn" until a '1' ([] when no roll is due)."""
    rule = state.game.battle.crossing_die
    if rule is None or state.game_over or not rule.to_roll(state):
        return []
    # imported once a roll is due: this is asked before every command
    from rules.procedures.combat import roll

    r = roll(dice, "the die for crossing Ely's Ford (19.14)")
    return [CrossingDieRolled(side=rule.side, turn=state.turn, roll=r, allowed=r in rule.succeeds_on, case=state.game.case("crossing_die"))]


def apply_rolled(state: State, event: CrossingDieRolled) -> None:
    state.scored = state.scored | {f"{ROLLED}{event.turn}"} | ({ALLOWED} if event.allowed else set())
