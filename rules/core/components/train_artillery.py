"""A Train that serves as artillery (Olustee 19.5-19.7, the Confederate "Rail Gun"): "The Train unit
also serves as a form of artillery unit with a Range of two or three hexes. It may not attack adjacent
Enemy units, nor may it attack at all if in an Enemy Zone of Control" (19.5); "The Train may not attack
by itself" (19.7).

    [exclusive.train_artillery]
    units = ["cs-rail-gun"]
    min_range = 2
    column_shift = 1
    railway_movement = true

19.2 (``railway_movement = true``): "The Train unit has an unlimited Movement Allowance on railway hexes,
subject to the normal rules of movement": it moves only along railway hexsides (rules/core/game.py
``rail_bound``, ``steps_for``), as far as it likes, stopping in enemy zones of control as any unit.

What it is, case by case (read by rules/procedures/combat.py ``declare``):
- 19.5 it attacks only from ``min_range`` hexes or more (up to the artillery Range, 9.1: three hexes),
  never an adjacent Enemy unit, and not at all from an Enemy-controlled hex (case ``train_artillery``);
- 19.6 combining with other units, it gives the attack ``column_shift`` odds columns to the right, in
  addition to any other applicable shifts, at either Range (case ``train_artillery.shift``; read by
  rules/revised/combat_procedures.py ``strengths`` and ``breakdown``);
- 19.7 it attacks only together with another unit (case ``train_artillery.alone``).
Its Range (three hexes) is the rule set's (revised 9.1) unless ``rifled_artillery`` gives another; with
``rifled_artillery`` ``units`` and ``range_effects = false`` its strength is not subject to Range effects
either (19.6: "the Train is not subject to Range effects").
"""

from __future__ import annotations

from rules.core.components.values import Component, Count, UnitId


class TrainArtillery(Component, frozen=True):
    units: list[UnitId]
    min_range: Count = 2  # 19.5: "a Range of two or three hexes"
    column_shift: Count = 1  # 19.6: "one odds column shift to the right"
    railway_movement: bool = False  # 19.2: "an unlimited Movement Allowance on railway hexes"

    def binds(self, unit_id: str) -> bool:
        """19.5: one of the battle's Trains that serve as artillery."""
        return unit_id in self.units
