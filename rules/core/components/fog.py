"""Fog (Fredericksburg 18.2): on the battle's Fog Game-Turns "artillery may not bombard during these
Game-Turns and all Movement Allowances (including any Strategic Movement bonus) are halved".

    [exclusive.fog]
    turns = [1, 7]

Read by rules/procedures/movement.py (``allowance_now``: the allowance halved), rules/revised/movement.py
(``strategic_allowance``: the bonus halved too, so the whole strategic allowance is half the usual) and
rules/revised/combat_procedures.py (no bombardment: ``bombardment_allowed``, ``pending_attack``).

Rulings (docs/RULINGS.md, "Fredericksburg"): "halved" is exact (a Movement Allowance of 7 becomes 3 1/2;
the standard 6 and 8 become 3 and 4, strategic 8 and 12 become 4 and 6); a Fog Game-Turn that is also a
night one takes revised 11.11's one off the halved allowance. "May not bombard" bars every attack by
artillery from a non-adjacent hex (9.1); artillery adjacent to the defender attacks as usual.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from rules.core.components.values import Component, Count

if TYPE_CHECKING:
    from rules.core.state import State


class Fog(Component, frozen=True):
    turns: list[Count]

    def now(self, state: State) -> bool:
        """18.2: is this a Fog Game-Turn?"""
        return state.turn in self.turns

    def halved(self, state: State, allowance):
        """18.2: "all Movement Allowances (including any Strategic Movement bonus) are halved"."""
        if not self.now(state):
            return allowance
        half = Fraction(allowance) / 2
        return int(half) if half.denominator == 1 else half
