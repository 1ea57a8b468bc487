"""Named creeks (Road to Vicksburg 19.12, 19.13, 19.15): the battle rule of the ``[exclusive.creeks]``
block, whose settings and their questions are rules/core/components/creeks.py (the scenario's schema:
``Battle`` decodes the block there).

- 19.12 "Artillery units can cross Jackson's Creek only at a bridge or a ford" and 19.13 "Artillery units
  cannot move off a road in the wooded hexes east of Jackson's Creek": steps left out of the unit type's
  movement tables (``barred_steps``), and 19.12's out of its retreats (``barred_retreat_steps``);
- 19.15 "Units are not required to attack across a Baker's Creek bridge hex side" (``optional_attack_hexsides``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.battle_rule import BattleRule

if TYPE_CHECKING:
    from rules.core.components.creeks import Creeks as Settings
    from rules.core.scenario import Map


class Creeks(BattleRule):
    component = "creeks"
    settings: Settings

    def barred_steps(self, board: Map, unit_type: str) -> frozenset[tuple[str, str]]:
        """19.12, 19.13: the steps a unit of ``unit_type`` never takes in a move."""
        return self.settings.barred_steps(board, unit_type)

    def barred_retreat_steps(self, board: Map, unit_type: str) -> frozenset[tuple[str, str]]:
        """19.12: the creek crossings barred to a unit of ``unit_type`` in a retreat too."""
        return self.settings.crossing_barred(board, unit_type)

    def optional_attack_hexsides(self, board: Map) -> frozenset[str]:
        """19.15: the bridge hexsides across which attacks are optional."""
        return self.settings.optional_across(board)
