"""Units no other unit may stack with (First Bull Run 17.2: "No unit may stack with Runyon's division;
to denote this the counter has two icons"). A hex holding one of ``alone`` holds no other unit at the
end of a move, a retreat, a displacement or an entry, and so at the end of any phase (6.32); units may
still move through it (6.31, 6.33: stacking counts where a unit ends).

    [exclusive.stacking]
    alone = ["us-runyon"]

Read by rules/procedures/movement.py ``alone_barred`` (the ends of a move, a Strategic Movement and an
entry), rules/procedures/retreat.py (retreats and displacements) and rules/queries/stacking.py (the
end-of-phase check).
"""

from __future__ import annotations

from rules.core.components.values import Component, UnitId


class Stacking(Component, frozen=True):
    alone: list[UnitId]

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
