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

Road to Richmond 21.2, the Union Siege Train: ``units`` instead of ``side`` (the artillery units
named: "8a S"); "a bombardment Range of five hexes" (21.21); "not subject to Range effects" (21.22);
``defence_strength`` (21.23: it "defends with one Combat Strength Point, which is not increased due to
the adjacency of Enemy attacking units": with ``defence_bonus = false``); it still attacks and
bombards with its printed eight.

    [exclusive.rifled_artillery]
    units = ["us-siege-train"]
    range = 5
    range_effects = false
    defence_bonus = false
    defence_strength = 1

Road to Vicksburg 19.2: "Union artillery may not bombard after utilising Strategic Movement" (with
``bombard_after_strategic_movement = false``: a unit of it that moved by Strategic Movement may not bombard
in that Player-Turn; the move records it, ``StrategicMovementUsed``).

Read by rules/core/game.py (``Game.bombard_range``) and rules/revised/combat_procedures.py (strengths,
results). Rulings (docs/RULINGS.md, "Antietam"): "attacked solely by Enemy artillery units": every
unit of the attack, adjacent or bombarding, is artillery; the unit then neither retreats nor is
eliminated for not retreating, and is not Disordered by the retreat (12.12); the other results (an
elimination, an exchange) apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.components.values import Component, Count, UnitId
from rules.core.scenario import Side, Unit

if TYPE_CHECKING:
    from rules.core.state import State

STRATEGIC = "strategic_movement:"  # + Game-Turn + ":" + unit (Road to Vicksburg 19.2)


class RifledArtillery(Component, frozen=True):
    range: Count
    side: Side | None = None
    units: list[UnitId] = []
    range_effects: bool = True
    defence_bonus: bool = True
    retreat_when_bombarded: bool = True
    defence_strength: Count | None = None
    bombard_after_strategic_movement: bool = True

    def records_strategic_movement(self, unit: Unit) -> bool:
        """Road to Vicksburg 19.2: is a Strategic Movement of ``unit`` to be recorded?"""
        return not self.bombard_after_strategic_movement and self.binds(unit)

    def may_not_bombard(self, state: State, unit: str) -> bool:
        """Road to Vicksburg 19.2: "Union artillery may not bombard after utilising Strategic Movement"
        (this Game-Turn's Player-Turn)."""
        return not self.bombard_after_strategic_movement and f"{STRATEGIC}{state.turn}:{unit}" in state.scored

    def __post_init__(self):
        if (self.side is None) == (not self.units):
            raise ValueError("give side (Antietam 18.0: the side's artillery) or units (Road to Richmond 21.2: the Siege Train)")

    def binds(self, unit: Unit) -> bool:
        """18.0: one of the side's artillery units; Road to Richmond 21.2: one of the units named."""
        if unit.type != "artillery":
            return False
        return unit.id in self.units if self.units else unit.side == self.side

    def defence(self, strength: int) -> int:
        """Road to Richmond 21.23: the unit's defence strength (its printed strength unless given)."""
        return strength if self.defence_strength is None else self.defence_strength
