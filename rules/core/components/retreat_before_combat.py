"""Units besides cavalry that may retreat before combat under 8.77 (Chickamauga 20.0: "The Union Wilder
brigade ... may retreat before combat under Case 8.77 on a die-roll of '1-4'").

    [exclusive.retreat_before_combat]
    units = ["us-wilder"]
    highest_roll = 4

Every rule of 8.77-8.79 applies to them as to cavalry (two hexes, not in their own Combat Phase, not
against attacking cavalry); they retreat on a die roll of 1 to ``highest_roll`` (cavalry: 1-5, 8.77).
Read by rules/revised/combat_procedures.py through ``Battle.may_retreat_before_combat`` and
``Battle.retreat_before_combat_roll``.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from rules.core.components.values import Component, UnitId

#: 8.77: cavalry retreat before combat on a die roll of 1-5.
CAVALRY_HIGHEST_ROLL = 5


class RetreatBeforeCombat(Component, frozen=True):
    units: list[UnitId]
    highest_roll: Annotated[int, msgspec.Meta(ge=1, le=6)] = CAVALRY_HIGHEST_ROLL

    def applies_to(self, unit_id: str) -> bool:
        """20.0: the unit may retreat before combat under 8.77."""
        return unit_id in self.units
