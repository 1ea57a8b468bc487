"""A die rolled before some units move (the Wilderness 20.2, General Burnside, an optional rule):

    [exclusive.movement_die]
    side = "union"
    units = ["us-2-1-ix", "us-2-2-ix", "us-1-3-ix", "us-2-3-ix", "us-art-ix"]
    fails_on = [6]

20.2: "At the beginning of each Union Movement Phase, whenever any unit of the Union IX corps is to be
moved, a special die roll is required. If the result is a '6', none of the IX Corps units may move
during that Movement Phase. They may attack and defend normally during that Game-Turn. ... Train
Defence units are not affected."

The die is rolled once in a Movement Phase of ``side``, when the first of ``units`` is to be moved (a
move, a Strategic Movement or a reinforcement's entry: the command that asks for it rolls,
``MovementDieRolled``); on a roll in ``fails_on`` that command moves nothing and none of ``units`` may
move for the rest of the phase (case ``movement_die``). The roll of the phase is kept in
``state.scored`` (``movement_die:<Game-Turn>``, and ``movement_die_held:<Game-Turn>`` when it failed).
Read by rules/procedures/movement.py (``movement_die_roll``), rules/procedures/reinforcements.py,
rules/revised/movement.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core.components.values import Component, DieFace, UnitId
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.state import State

ROLLED = "movement_die:"
HELD = "movement_die_held:"


class MovementDie(Component, frozen=True):
    side: Side
    units: list[UnitId]
    fails_on: list[DieFace] = msgspec.field(default_factory=lambda: [6])

    def binds(self, unit: str) -> bool:
        return unit in self.units

    def to_roll(self, state: State, unit: str) -> bool:
        """20.2: must the die be rolled before ``unit`` moves now (the first of the units this phase)?"""
        return self.binds(unit) and state.phasing == self.side and f"{ROLLED}{state.turn}" not in state.scored

    def restriction(self, state: State, unit: str) -> RuleViolation | None:
        """20.2: "none of the IX Corps units may move during that Movement Phase" after a '6'."""
        if not self.binds(unit) or f"{HELD}{state.turn}" not in state.scored:
            return None
        u = state.game.units[unit]
        return state.game.violation(
            "movement_die", f"{u.designation} may not move this Movement Phase: the die rolled for its corps failed"
        )
