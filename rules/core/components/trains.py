"""Trains (Chickamauga 19.0, the Union "Train"): non-combat units of the rear echelon.

    [exclusive.trains]
    units = ["us-train"]

What a train is, case by case (the rules that read this component cite them):
- 19.11 it may never attack; 19.3 it has no zone of control, so enemy units move adjacent to it or past
  it freely and need not attack it (rules/queries/zoc.py, rules/procedures/combat.py);
- 19.11 beside an enemy unit in its side's Combat Phase it retreats (rules/procedures/trains.py);
- 19.21, 19.23, 19.24 it retreats only through road or trail hexsides, never into an occupied hex, and
  no unit retreats into its hex; it never displaces nor is displaced (rules/procedures/retreat.py);
- 19.21 it never stacks: no unit may end a move in its hex nor it in an occupied one; 19.22 no unit may
  move through its hex, nor it through an occupied hex (rules/procedures/movement.py);
- 19.23 it moves only along roads and trails (rules/core/game.py ``steps_for``), never strategically
  (rules/revised/movement.py).
Its defence strength (19.12) and Movement Allowance (19.23) are the order of battle's.
"""

from __future__ import annotations

from rules.core.components.values import Component, UnitId


class Trains(Component, frozen=True):
    units: list[UnitId]

    def is_train(self, unit_id: str) -> bool:
        return unit_id in self.units
