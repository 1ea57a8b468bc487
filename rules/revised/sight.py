"""The revised line of sight with elevation (003: 9.31-9.37, 10.1 "May block Line of Sight", "Ridge hex
side: Blocks Line of Sight"), plugged into rules/queries/artillery.py through the revised rule set's procedure
``line_of_sight``. The geometry is ``Grid.sight_line``'s (exact: the hexes the line crosses and the
hexsides it runs along).

Elevation of a hex (9.34, 9.35): its map level (``Map.levels``: clear level 1, 2 or 3; default 1), and
rough and forest/woods-rough hexes are at least level 2 ("a higher Elevation than clear (level 1)";
9.35's "even higher Elevation (clear level 3)" puts them with level 2). An Elevated hex is one above 1.

With ``low``/``high`` the lower/higher elevation of the bombarding hex and the target hex, an intervening
hex blocks when
- it holds forest/woods (with or without rough) or town/urban terrain and is on the same or a higher
  elevation than either of them, ``elevation >= low`` (9.33; so blocking terrain lower than both is
  ignored, 9.34); or
- it is higher than both, ``elevation > high``: rough by itself blocks only when both are lower (9.33),
  an Elevated hex blocks between two non-Elevated hexes and clear level 3 between Elevated ones (9.35).
The firer's and the target's hexes never block (9.36; ``sight_line`` leaves them out), nor do units
(9.37: nothing here looks at units). A ridge hexside the line crosses blocks unless it is a side of the
firer's or the target's hex (9.36); slope hexsides only mark levels and do not block (10.1 gives them no
line-of-sight effect).

Rulings (docs/RULINGS.md, "Revised rule set"): 9.32 (congruent to a hexside: blocked only when both hexes block) is
read as "blocked only when the line would be blocked on both sides of it": where the line runs along
hexside P|Q between hexes X and Y it is blocked when the way through P (P itself, or a ridge on X|P or
P|Y) and the way through Q are both blocked; a ridge along P|Q itself is not crossed. A line through a
hex corner (where X, Y and a third hex Z meet, Z touched at that point only) is treated alike: blocked
when the ridge X|Y and the way round through Z (Z itself, a ridge on X|Z or Z|Y) both block. Hexes
a line only touches at a corner never block by themselves (as in the 1975 line of sight).
"""

from __future__ import annotations

from itertools import pairwise

from rules.core import terrain
from rules.core.hexes import Grid, hexside

#: 9.33: the terrain that blocks at the same or a higher elevation than the firer or the target.
BLOCKING = frozenset({terrain.FOREST, terrain.FOREST_ROUGH, terrain.TOWN})
#: 9.34: terrain that is itself Elevated (at least level 2).
ELEVATED = frozenset({terrain.ROUGH, terrain.FOREST_ROUGH})


def elevation(hexes: dict[str, str], levels: dict[str, int], hex_: str) -> int:
    """9.34: the map level of ``hex_`` (default 1), at least 2 in rough or forest/woods-rough."""
    level = levels.get(hex_, 1)
    return max(level, 2) if hexes.get(hex_) in ELEVATED else level


class Sight:
    """The line of sight between two hexes of one map (9.31-9.37)."""

    def __init__(
        self,
        grid: Grid,
        hexes: dict[str, str],
        levels: dict[str, int],
        hexsides: dict,
        firer: str,
        target: str,
    ):
        self.grid = grid
        self.hexes = hexes
        self.levels = levels
        self.hexsides = hexsides
        self.firer = firer
        self.target = target
        ends = (elevation(hexes, levels, firer), elevation(hexes, levels, target))
        self.low, self.high = min(ends), max(ends)

    def hex_blocker(self, h: str) -> str | None:
        """Why the intervening hex ``h`` blocks (9.33, 9.35), or None."""
        kind = self.hexes.get(h)
        if kind is None:
            return None  # off the map
        e = elevation(self.hexes, self.levels, h)
        if kind in BLOCKING and e >= self.low:
            return f"{h} ({kind}, level {e})"  # 9.33, 9.34
        if e > self.high:
            return f"{h} ({kind}, level {e})"  # 9.33 rough, 9.35
        return None

    def ridge(self, a: str, b: str) -> str | None:
        """A ridge on hexside a|b that blocks (10.1), unless it is a side of the firer's or the target's
        hex (9.36)."""
        if {a, b} & {self.firer, self.target}:
            return None
        side = self.hexsides.get(hexside(a, b))
        if side is not None and terrain.RIDGE in side.features:
            return f"the ridge hexside {hexside(a, b)}"
        return None

    def way_through(self, x: str, p: str, y: str) -> str | None:
        """What blocks the way from x to y through p (p itself, or a ridge on x|p or p|y), or None."""
        return self.hex_blocker(p) or self.ridge(x, p) or self.ridge(p, y)

    def corner(self, x: str, y: str) -> str | None:
        """The third hex of the corner of hexside x|y that the line passes through, or None."""
        (aq, ar), (bq, br) = self.grid.axial(self.firer), self.grid.axial(self.target)
        xq, xr = self.grid.axial(x)
        yq, yr = self.grid.axial(y)
        common = set(self.grid.neighbours(x)) & set(self.grid.neighbours(y))
        for z in sorted(common):
            zq, zr = self.grid.axial(z)
            # the corner x, y, z meet at is the mean of their centres (an affine invariant): on the
            # line a-b when (3V - 3A) x (B - A) == 0
            vq, vr = xq + yq + zq - 3 * aq, xr + yr + zr - 3 * ar
            if vq * (br - ar) - vr * (bq - aq) == 0:
                return z
        return None

    def blocker(self) -> str | None:
        """What blocks the line of sight (9.31-9.36), or None when the firer sees the target."""
        crossed, along = self.grid.sight_line(self.firer, self.target)
        for h in crossed:
            why = self.hex_blocker(h)
            if why:
                return why  # 9.31
        if not along:
            path = [self.firer, *crossed, self.target]
            for x, y in pairwise(path):
                why = self.ridge(x, y)
                if why is None:
                    continue
                z = self.corner(x, y)
                if z is None or self.way_through(x, z, y):
                    return why  # crossed, or at a corner blocked on both sides (ruling, 9.32)
            return None
        # 9.32: along hexsides the line alternates: a hex (the firer, crossed hexes, the target) and a
        # hexside pair, each pair's two hexes beside both hexes around it.
        away = self.grid.distance
        singles = [self.firer, *sorted(crossed, key=lambda h: away(self.firer, h)), self.target]
        pairs = sorted(along, key=lambda pq: away(self.firer, pq[0]))
        for (p, q), x, y in zip(pairs, singles[:-1], singles[1:], strict=True):
            through_p, through_q = self.way_through(x, p, y), self.way_through(x, q, y)
            if through_p and through_q:
                return f"{through_p} and {through_q} (along hexside {hexside(p, q)})"
        return None


def line_of_sight(game, firer: str, target: str) -> str | None:
    """The revised rule set's procedure ``line_of_sight``: what blocks the line of sight from ``firer``
    to ``target`` (words), or None when it is clear (9.31-9.37)."""
    m = game.scenario.map
    return Sight(game.grid, game.terrain, m.levels, m.hexsides, firer, target).blocker()
