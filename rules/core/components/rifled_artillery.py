"""Rifled artillery (Antietam 18.0: "UNION RIFLED ARTILLERY", the Parrott guns): the artillery units of
``side`` bombard at ``range`` hexes (18.2: "a Range of seven hexes"); with ``range_effects = false``
their Combat Strength "is not subject to Range effects" (no one-third off at three hexes or more,
9.19/9.25, nor one-half more in an adjacent attack, 9.48: as a gunboat's, 9.65); with
``defence_bonus = false`` it is not "increased by one-half under Case 9.53"; with
``retreat_when_bombarded = false`` "They are not affected by Retreat combat results when attacked
solely by Enemy artillery units" (18.1).

    [exclusive.rifled_artillery]
    side = "union"
    range = 7
    range_effects = false
    defence_bonus = false
    retreat_when_bombarded = false

Read by rules/core/game.py (``Game.bombard_range``) and rules/revised/combat_procedures.py (strengths,
results). Rulings (docs/RULINGS.md, "Antietam"): "attacked solely by Enemy artillery units": every
unit of the attack, adjacent or bombarding, is artillery; the unit then neither retreats nor is
eliminated for not retreating, and is not Disordered by the retreat (12.12); the other results (an
elimination, an exchange) apply.
"""

from __future__ import annotations

from rules.core.components.values import Component, Count
from rules.core.scenario import Side, Unit


class RifledArtillery(Component, frozen=True):
    side: Side
    range: Count
    range_effects: bool = True
    defence_bonus: bool = True
    retreat_when_bombarded: bool = True

    def binds(self, unit: Unit) -> bool:
        """18.0: one of the side's artillery units."""
        return unit.type == "artillery" and unit.side == self.side
