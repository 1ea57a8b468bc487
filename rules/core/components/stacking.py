"""Stacking exceptions, one component for both battles that have them.

Units no other unit may stack with (First Bull Run 17.2: "No unit may stack with Runyon's division;
to denote this the counter has two icons"). A hex holding one of ``alone`` holds no other unit at the
end of a move, a retreat, a displacement or an entry, and so at the end of any phase (6.32); units may
still move through it (6.31, 6.33: stacking counts where a unit ends).

    [exclusive.stacking]
    alone = ["us-runyon"]

Read by rules/procedures/movement.py ``alone_barred`` (the ends of a move, a Strategic Movement and an
entry), rules/procedures/retreat.py (retreats and displacements) and rules/queries/stacking.py (the
end-of-phase check).

Stacking by Combat Strength Points (Olustee 18.2): "As an exception to Case 6.32 stacking is not
limited to two units. Up to eight Combat Strength Points may stack in a hex."

    [exclusive.stacking]
    strength_points = 8

With ``strength_points``, every stacking rule counts Combat Strength Points instead of units
(rules/queries/stacking.py ``weight``, ``limit``, ``counts``): the end-of-phase limit (6.32/5.32), the
no-dead-end check of a move, the legal moves, the hexes open to a retreat (7.72, 7.81). Ruling
(docs/RULINGS.md, "Olustee"): a unit's Combat Strength Points are its printed strength.

Stacking by units with a limit on one size (Road to Vicksburg 19.4): "Up to five Friendly units may occupy
a hex, provided that no more than one of those units is brigade-sized": ``units`` replaces 6.32's two,
and ``at_most_one`` names the sizes (the order of battle's ``size``) of which a hex holds no more than
one: as for ``alone``, a unit of such a size ends no move, retreat, displacement or entry in a hex holding
another unit of that size (``Game.stacking_barred``), and no phase ends with two there.

    [exclusive.stacking]
    units = 5
    at_most_one = ["brigade"]
"""

from __future__ import annotations

from rules.core.components.values import Component, Count, UnitId
from rules.core.scenario import UnitSize


class Stacking(Component, frozen=True):
    alone: list[UnitId] = []
    strength_points: Count | None = None
    units: Count | None = None  # Road to Vicksburg 19.4: five
    at_most_one: list[UnitSize] = []  # Road to Vicksburg 19.4: ["brigade"]

    def __post_init__(self):
        if not self.alone and self.strength_points is None and self.units is None and not self.at_most_one:
            raise ValueError(
                "give the units none may stack with (First Bull Run 17.2: alone), the Combat Strength Points a "
                "hex may hold (Olustee 18.2: strength_points) or the units it may hold (Road to Vicksburg 19.4: units)"
            )
        if self.units is not None and self.strength_points is not None:
            raise ValueError("give units or strength_points, not both")

    def sized_barred(self, positions: dict[str, str], sizes: dict[str, str | None], unit: str) -> frozenset[str]:
        """Road to Vicksburg 19.4: the hexes ``unit`` may not end in: those holding another unit of its
        size when it is one of ``at_most_one``."""
        size = sizes.get(unit)
        if size is None or size not in self.at_most_one:
            return frozenset()
        return frozenset(h for u, h in positions.items() if u != unit and sizes.get(u) == size)

    def sized_crowded(self, positions: dict[str, str], sizes: dict[str, str | None]) -> tuple[str, str] | None:
        """19.4: (hex, size) where a hex holds two units of one of ``at_most_one``, or None."""
        seen: set[tuple[str, str]] = set()
        for u, h in sorted(positions.items()):
            size = sizes.get(u)
            if size is not None and size in self.at_most_one:
                if (h, size) in seen:
                    return h, size
                seen.add((h, size))
        return None

    def barred(self, positions: dict[str, str], unit: str) -> frozenset[str]:
        """17.2: the hexes ``unit`` may not end in: every hex holding another unit when it is one of
        ``alone``; else the hexes of the ``alone`` units."""
        if unit in self.alone:
            return frozenset(h for u, h in positions.items() if u != unit)
        return frozenset(h for u, h in positions.items() if u in self.alone and u != unit)

    def crowded(self, positions: dict[str, str]) -> tuple[str, str] | None:
        """17.2: (hex, unit) where the unit, one of ``alone``, shares its hex with another unit, or None."""
        for u in self.alone:
            h = positions.get(u)
            if h is not None and sum(1 for x in positions.values() if x == h) > 1:
                return h, u
        return None
