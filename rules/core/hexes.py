"""Hex geometry of the Blue & Gray maps: printed numbers, neighbours, distance, hexsides, line of sight.

Outside this module a hex is its printed number, the string ``"XXYY"``: column XX counted from the left,
row YY from the top (2.1). Hexes are flat-topped, in vertical columns, and every other column sits half a
hex lower; which ones (``"even"`` or ``"odd"``) is declared by each map. Inside, axial coordinates
``(q, r)`` follow Red Blob Games' hexagon guide: ``q`` is the column and ``r`` runs down-right.

Line of sight (8.31–8.34) is computed exactly: in the doubled coordinates ``X = 3q``, ``Y = 2r + q``
(twice ``x = 3q/2``, ``y = r + q/2``, an affine image of the true plane, which keeps lines, segments
and polygon interiors) every hex centre and corner is a point of integers, so the segment between
two centres is clipped against each hexagon in integer arithmetic, each parameter along it an exact
ratio of integers, with no rounding. That finds both the hexes whose interior the line crosses and
the hexsides it runs along (the congruent case of 8.32). tests/rules/test_hexes.py keeps the same
clipping in Fractions as the reference it must equal.
"""

from __future__ import annotations

import math
import re
from functools import cache, lru_cache

HEX_NUMBER = re.compile(r"^\d{4}$")
#: At most this many pairs' distances kept by one Grid (about 20 MB).
_KEPT_DISTANCES = 200_000

#: Axial directions, starting with "up" (north) and going clockwise.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

# Corners of a flat-topped hexagon around its centre, in doubled coordinates (2x, 2y) of the (x, y)
# above, counter-clockwise seen with y pointing down the map (the order only has to go round).
_CORNERS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


class HexError(ValueError):
    """A hex number that is not four digits ``XXYY``."""


def parse_hex(number: str) -> tuple[int, int]:
    """``"0427"`` → ``(4, 27)`` (column, row)."""
    if not isinstance(number, str) or not HEX_NUMBER.match(number):
        raise HexError(f"{number!r} is not a hex number: expected four digits XXYY (column, row)")
    return int(number[:2]), int(number[2:])


def hex_number(column: int, row: int) -> str:
    """``(4, 27)`` → ``"0427"``."""
    if not (0 <= column <= 99 and 0 <= row <= 99):
        raise HexError(f"column {column}, row {row} has no printed XXYY number")
    return f"{column:02d}{row:02d}"


def hexside(a: str, b: str) -> str:
    """The identity of the hexside between two hexes: the sorted pair ``"AAAA|BBBB"``."""
    return f"{a}|{b}" if a < b else f"{b}|{a}"


def hexside_hexes(side: str) -> tuple[str, str]:
    """``"0101|0102"`` → ``("0101", "0102")``."""
    a, sep, b = side.partition("|")
    if not sep:
        raise HexError(f"{side!r} is not a hexside: expected two hex numbers 'AAAA|BBBB'")
    parse_hex(a)
    parse_hex(b)
    return a, b


class Grid:
    """The hex numbering of one map: which columns sit half a hex lower."""

    __slots__ = ("lower_columns", "_shift", "_distances")

    def __init__(self, lower_columns: str = "even") -> None:
        if lower_columns not in ("even", "odd"):
            raise HexError(f"lower_columns must be 'even' or 'odd', not {lower_columns!r}")
        self.lower_columns = lower_columns
        # A lower column's hexes have one more row above them at the same axial r.
        self._shift = 0 if lower_columns == "even" else 1
        self._distances: dict[tuple[str, str], int] = {}  # distance's answers, by pair of hexes

    def __repr__(self) -> str:
        return f"Grid(lower_columns={self.lower_columns!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and other.lower_columns == self.lower_columns

    def __hash__(self) -> int:
        return hash(self.lower_columns)

    # -- coordinates ---------------------------------------------------------------------------
    def axial(self, number: str) -> tuple[int, int]:
        """Printed number → axial ``(q, r)``."""
        if isinstance(number, str):
            return _axial(self._shift, number)
        return _axial.__wrapped__(self._shift, number)  # not a string: parse_hex raises HexError

    def number(self, q: int, r: int) -> str:
        """Axial ``(q, r)`` → printed number (raises HexError off the numbering)."""
        return hex_number(q, r + (q + ((q + self._shift) & 1)) // 2)

    # -- adjacency and distance ----------------------------------------------------------------
    def neighbours(self, number: str) -> list[str]:
        """The (up to) six hexes around ``number`` that have a printed number, clockwise from north.

        Whether they are on a particular map is the map's business."""
        q, r = self.axial(number)
        out = []
        for dq, dr in DIRECTIONS:
            try:
                out.append(self.number(q + dq, r + dr))
            except HexError:
                continue
        return out

    def adjacent(self, a: str, b: str) -> bool:
        return self.distance(a, b) == 1

    def distance(self, a: str, b: str) -> int:
        """Hexes counted from a to b, not counting a (8.12 counts the target hex)."""
        known = self._distances.get((a, b))
        if known is not None:
            return known
        aq, ar = self.axial(a)
        bq, br = self.axial(b)
        dq, dr = aq - bq, ar - br
        n = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if len(self._distances) >= _KEPT_DISTANCES:
            self._distances.clear()
        self._distances[a, b] = n
        return n

    # -- line of sight -------------------------------------------------------------------------
    def sight_line(self, a: str, b: str) -> tuple[list[str], list[tuple[str, str]]]:
        """What lies between the centres of a and b (8.31, 8.32).

        Returns ``(crossed, along)``: the hexes, other than a and b, whose interior the straight line
        crosses, in order from a; and the pairs of hexes whose common hexside the line runs along
        (the congruent case of 8.32), each pair sorted. A hexside pair's two hexes are never in
        ``crossed``."""
        return _sight_line(self.lower_columns, a, b)

    def line_of_sight(self, a: str, b: str, blocking) -> bool:
        """True when a can see b: no crossed hex blocks (8.31), and no hexside the line runs along has
        blocking hexes on both sides (8.32). ``blocking(hex) -> bool``; a and b never block (8.34)."""
        crossed, along = self.sight_line(a, b)
        if any(blocking(h) for h in crossed):
            return False
        return not any(blocking(h1) and blocking(h2) for h1, h2 in along)


@cache
def _axial(shift: int, number: str) -> tuple[int, int]:
    """Grid.axial, kept: at most one entry per printed number and grid (a failed parse raises and is
    not kept)."""
    column, row = parse_hex(number)
    return column, row - (column + ((column + shift) & 1)) // 2


def _centre(q: int, r: int) -> tuple[int, int]:
    """The centre of hex (q, r) in doubled coordinates (2x, 2y): ``(3q, 2r + q)``."""
    return 3 * q, 2 * r + q


def _sides(dx: int, dy: int) -> list[tuple[int, int, int, int]]:
    """Each side of a hexagon, for a segment p0 + t (dx, dy): ``(ex, ey, k, df)`` such that at parameter
    t the point is on the inside of that side's line when ``ey * cx - ex * cy + k + t * df >= 0``,
    (cx, cy) being the hexagon's centre seen from p0 (the cross product (b - a) x (p - a) of the side
    a -> b, with the sign it has at the centre)."""
    out = []
    for i in range(6):
        (ax, ay), (bx, by) = _CORNERS[i], _CORNERS[(i + 1) % 6]
        ex, ey = bx - ax, by - ay
        sign = 1 if ey * ax - ex * ay > 0 else -1
        out.append((sign * ex, sign * ey, sign * (ey * ax - ex * ay), sign * (ex * dy - ey * dx)))
    return out


@lru_cache(maxsize=65536)
def _sight_line(lower_columns: str, a: str, b: str) -> tuple[list[str], list[tuple[str, str]]]:
    """Grid.sight_line, in integers: the segment p0 + t (p1 - p0) between the two centres is clipped
    against each hexagon near it (Cyrus-Beck), every parameter t kept as an exact ratio of integers."""
    grid = Grid(lower_columns)
    aq, ar = grid.axial(a)
    bq, br = grid.axial(b)
    (x0, y0), (x1, y1) = _centre(aq, ar), _centre(bq, br)
    dx, dy = x1 - x0, y1 - y0
    n = grid.distance(a, b)
    sides = _sides(dx, dy)
    # Every parameter is n/d with d one of the sides' |df| (or 1), and a midpoint's denominator is
    # 2 d0 d1: each is a whole number of 1/unit.
    unit = 2 * math.lcm(*(abs(df) for *_, df in sides if df)) ** 2
    reach = max(abs(dx * cy - dy * cx) for cx, cy in _CORNERS)
    hits: list[tuple[int, str]] = []
    edge_hexes: list[tuple[int, str]] = []
    # Every hex the segment can touch lies within n of both ends.
    for q in range(min(aq, bq) - 1, max(aq, bq) + 2):
        for r in range(min(ar, br) - n - 1, max(ar, br) + n + 2):
            if (q, r) in ((aq, ar), (bq, br)):
                continue
            cx, cy = 3 * q - x0, 2 * r + q - y0  # the centre, from p0
            if abs(dx * cy - dy * cx) > reach:
                continue  # every corner on one side of the line: it misses the hexagon
            span = _clip(sides, cx, cy)
            if span is None:
                continue
            n0, d0, n1, d1 = span
            if n0 * d1 == n1 * d0:
                continue  # touches a single point (a corner)
            mid_n, mid_d = n0 * d1 + n1 * d0, 2 * d0 * d1
            try:
                number = grid.number(q, r)
            except HexError:
                continue
            inside = all((ey * cx - ex * cy + k) * mid_d + df * mid_n > 0 for ex, ey, k, df in sides)
            (hits if inside else edge_hexes).append((mid_n * (unit // mid_d), number))
    crossed = [h for _, h in sorted(hits)]
    # Hexes touched only along an edge come in pairs sharing that hexside, at the same parameter.
    # (A hexside on the edge of the numbering has one hex only: nothing beyond it can block.)
    by_edge: dict[int, list[str]] = {}
    for t, number in edge_hexes:
        by_edge.setdefault(t, []).append(number)
    along = [tuple(sorted(pair)) for _, pair in sorted(by_edge.items()) if len(pair) == 2]
    return crossed, along


def _clip(sides, cx: int, cy: int) -> tuple[int, int, int, int] | None:
    """The parameter interval [n0/d0, n1/d1] (positive denominators) of the segment inside the closed
    hexagon whose centre is (cx, cy) from the segment's start, or None when it misses."""
    n0, d0, n1, d1 = 0, 1, 1, 1
    for ex, ey, k, df in sides:
        f0 = ey * cx - ex * cy + k  # inside where f0 + t * df >= 0
        if df == 0:
            if f0 < 0:
                return None
            continue
        if df > 0:  # t >= -f0/df
            if -f0 * d0 > n0 * df:
                n0, d0 = -f0, df
        elif f0 * d1 < n1 * -df:  # t <= f0/-df
            n1, d1 = f0, -df
        if n0 * d1 > n1 * d0:
            return None
    return n0, d0, n1, d1
