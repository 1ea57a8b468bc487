"""A side's Movement Allowance set for some Game-Turns (Peachtree Creek 17.2): "On the first Game-Turn
only, all Union units have a Movement Allowance of three. No Union unit may use Strategic Movement. On
all subsequent Game-Turns, the printed Movement Allowances and normal rules apply."

    [exclusive.reduced_allowance]
    side = "union"
    turns = [1]
    allowance = 3
    strategic_movement = false

On ``turns`` every unit of ``side`` has ``allowance`` Movement Points, whatever its type or printed
allowance (read by rules/procedures/movement.py ``allowance_now``); with ``strategic_movement`` false,
none of them may use Strategic Movement then (rules/revised/movement.py ``strategic_problem``, case
``reduced_allowance.strategic``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.components.values import Component, Count
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.state import State


class ReducedAllowance(Component, frozen=True):
    side: Side
    turns: list[Count]
    allowance: Count
    strategic_movement: bool = True

    def binds(self, state: State, unit: str) -> bool:
        """17.2: is ``unit`` one of the side's, on one of the Game-Turns?"""
        return state.turn in self.turns and state.game.units[unit].side == self.side

    def allowance_of(self, state: State, unit: str, allowance):
        """17.2: the unit's Movement Allowance now ("a Movement Allowance of three")."""
        return self.allowance if self.binds(state, unit) else allowance

    def bars_strategic(self, state: State, unit: str) -> bool:
        """17.2: "No Union unit may use Strategic Movement" (on those Game-Turns)."""
        return not self.strategic_movement and self.binds(state, unit)
