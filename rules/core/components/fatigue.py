"""A side's die modifier for its units' morale rolls (Ezra Church 17.4): "The Confederate Player only
must add one to the die roll for any Disorder check or Rally attempt. This is to simulate the fatigue
the Confederate forces were experiencing on the day of the battle."

    [exclusive.fatigue]
    side = "confederate"
    disorder_check = 1
    rally_attempt = 1

``disorder_check`` is added to the die of each Disorder check of one of the side's units (revised
12.12, 12.13: Disordered on 4-6, so on 3-6 with one added) and ``rally_attempt`` to the die of each of
its Rally attempts (12.41 (b)); the rolls on record (``DisorderRolled``, ``RallyRolled``) are the dice
as rolled. Read by rules/revised/combat_procedures.py.
"""

from __future__ import annotations

from rules.core.components.values import Component
from rules.core.scenario import Side


class Fatigue(Component, frozen=True):
    side: Side
    disorder_check: int = 0
    rally_attempt: int = 0

    def disorder_die(self, unit_side: str, die: int) -> int:
        """17.4: the die of a Disorder check of a unit of ``unit_side``, modified."""
        return die + self.disorder_check if unit_side == self.side else die

    def rally_die(self, unit_side: str, die: int) -> int:
        """17.4: the die of a Rally attempt of a unit of ``unit_side``, modified."""
        return die + self.rally_attempt if unit_side == self.side else die
