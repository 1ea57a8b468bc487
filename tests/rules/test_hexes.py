"""Hex geometry (2.1, 8.3): printed numbers, parity, adjacency, distance, hexsides, line of sight."""

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.hexes import Grid, HexError, hex_number, hexside, hexside_hexes, parse_hex

EVEN = Grid("even")
ODD = Grid("odd")


def test_printed_numbers_round_trip():
    assert parse_hex("0427") == (4, 27)
    assert hex_number(4, 27) == "0427"
    for bad in ("427", "04a7", "", None, "12345"):
        with pytest.raises(HexError):
            parse_hex(bad)


@given(st.integers(1, 60), st.integers(1, 60), st.sampled_from([EVEN, ODD]))
def test_axial_round_trip(column, row, grid):
    number = hex_number(column, row)
    assert grid.number(*grid.axial(number)) == number


def test_even_columns_sit_lower_on_chickamauga_grid():
    # DESIGN.md: the public Chickamauga transcription shows 0106 adjacent to 0205 and 0206, not 0207.
    assert EVEN.adjacent("0106", "0205")
    assert EVEN.adjacent("0106", "0206")
    assert not EVEN.adjacent("0106", "0207")
    # With odd columns lower it is the other way round.
    assert ODD.adjacent("0106", "0206") and ODD.adjacent("0106", "0207")
    assert not ODD.adjacent("0106", "0205")


def test_neighbours_are_the_six_around_clockwise_from_north():
    assert EVEN.neighbours("0106") == ["0105", "0205", "0206", "0107", "0006", "0005"]
    assert EVEN.neighbours("0206") == ["0205", "0306", "0307", "0207", "0107", "0106"]
    # Off the numbering (column or row below 00) there is no neighbour.
    assert "0000" not in EVEN.neighbours("0000") and len(EVEN.neighbours("0000")) < 6


@given(st.integers(2, 40), st.integers(2, 40), st.sampled_from([EVEN, ODD]))
def test_every_neighbour_is_at_distance_one_and_adjacency_is_symmetric(column, row, grid):
    number = hex_number(column, row)
    around = grid.neighbours(number)
    assert len(set(around)) == 6
    for other in around:
        assert grid.distance(number, other) == 1
        assert number in grid.neighbours(other)


def test_distance_counts_the_target_hex():
    # 8.12: range counts the target hex but not the firer's.
    assert EVEN.distance("0505", "0505") == 0
    assert EVEN.distance("0505", "0507") == 2
    assert EVEN.distance("0505", "0808") == 5


def test_hexside_identity_is_the_sorted_pair():
    assert hexside("0206", "0106") == "0106|0206" == hexside("0106", "0206")
    assert hexside_hexes("0106|0206") == ("0106", "0206")
    with pytest.raises(HexError):
        hexside_hexes("0106-0206")


def test_line_of_sight_straight_down_a_column():
    # 8.31: the hexes between firer and target.
    assert EVEN.sight_line("0101", "0104") == (["0102", "0103"], [])


def test_line_of_sight_congruent_to_a_hexside():
    # 8.32: from 0106 to 0306 the line falls exactly between 0205 and 0206.
    assert EVEN.sight_line("0106", "0306") == ([], [("0205", "0206")])
    blocking = {"0205"}
    assert EVEN.line_of_sight("0106", "0306", blocking.__contains__)  # one side only: not blocked
    blocking = {"0205", "0206"}
    assert not EVEN.line_of_sight("0106", "0306", blocking.__contains__)  # both sides: blocked


def test_line_of_sight_ignores_firer_and_target_hexes():
    # 8.34: the terrain of the bombarding and target hexes does not block.
    assert EVEN.line_of_sight("0101", "0103", {"0101", "0103"}.__contains__)
    assert not EVEN.line_of_sight("0101", "0103", {"0102"}.__contains__)


# -- an independent oracle: dense floating-point sampling in the true (Euclidean) plane -------------


def _pixel(grid, number):
    q, r = grid.axial(number)
    return 1.5 * q, math.sqrt(3) * (r + q / 2)


def _hex_at(grid, x, y):
    # Red Blob's pixel → axial with cube rounding, for flat-topped hexes of size 1.
    q = 2 / 3 * x
    r = -1 / 3 * x + math.sqrt(3) / 3 * y
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return grid.number(rq, rr)


def _oracle(grid, a, b, samples=1200, delta=1e-7):
    (x0, y0), (x1, y1) = _pixel(grid, a), _pixel(grid, b)
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = -(y1 - y0) / length * delta, (x1 - x0) / length * delta
    crossed, along = {}, {}
    for i in range(1, samples):
        t = i / samples
        x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        left, right = _hex_at(grid, x + nx, y + ny), _hex_at(grid, x - nx, y - ny)
        if left == right:
            if left not in (a, b):
                crossed[left] = crossed.get(left, 0) + 1
        else:
            pair = tuple(sorted((left, right)))
            along[pair] = along.get(pair, 0) + 1
    # A run along a hexside is a whole hexside long; passing a corner touches a sample or two.
    return {h for h, n in crossed.items() if n > 2}, {p for p, n in along.items() if n > 20}


@pytest.mark.parametrize("grid", [EVEN, ODD])
def test_sight_line_agrees_with_a_geometric_oracle(grid):
    # Every firer/target pair at artillery ranges 2-3 (8.12) and 4, in a patch of both column parities.
    centre = "1010"
    patch = [hex_number(c, r) for c in range(6, 15) for r in range(6, 15)]
    checked = congruent = 0
    for target in patch:
        if not 2 <= grid.distance(centre, target) <= 4:
            continue
        crossed, along = grid.sight_line(centre, target)
        want_crossed, want_along = _oracle(grid, centre, target)
        assert set(crossed) == want_crossed, target
        assert set(along) == want_along, target
        checked += 1
        congruent += bool(along)
    assert checked > 40 and congruent >= 6  # the six hexside-congruent directions at range 2 and 4


# -- the exact reference: the same clipping in Fractions, in the plane's (x, y) = (3q/2, r + q/2) --------
_CORNERS = tuple(
    (Fraction(x), Fraction(y))
    for x, y in (
        (1, 0),
        (Fraction(1, 2), Fraction(1, 2)),
        (Fraction(-1, 2), Fraction(1, 2)),
        (-1, 0),
        (Fraction(-1, 2), Fraction(-1, 2)),
        (Fraction(1, 2), Fraction(-1, 2)),
    )
)


def _centre(q, r):
    return Fraction(3 * q, 2), Fraction(2 * r + q, 2)


def _corners(q, r):
    cx, cy = _centre(q, r)
    return cx, cy, [(cx + dx, cy + dy) for dx, dy in _CORNERS]


def _inside_sign(cx, cy, a, b):
    (ax, ay), (bx, by) = a, b
    return 1 if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0 else -1


def _fraction_clip(p0, p1, q, r):
    cx, cy, corners = _corners(q, r)
    t0, t1 = Fraction(0), Fraction(1)
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    for i in range(6):
        (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 6]
        ex, ey = bx - ax, by - ay
        sign = _inside_sign(cx, cy, corners[i], corners[(i + 1) % 6])
        f0 = sign * (ex * (p0[1] - ay) - ey * (p0[0] - ax))
        df = sign * (ex * dy - ey * dx)
        if df == 0:
            if f0 < 0:
                return None
            continue
        t = -f0 / df
        if df > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return t0, t1


def _fraction_strictly_inside(point, q, r):
    cx, cy, corners = _corners(q, r)
    for i in range(6):
        (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 6]
        sign = _inside_sign(cx, cy, corners[i], corners[(i + 1) % 6])
        if sign * ((bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)) <= 0:
            return False
    return True


def _fraction_sight_line(grid, a, b):
    """Grid.sight_line as it was first written, in Fractions: the reference for the integer version."""
    aq, ar = grid.axial(a)
    bq, br = grid.axial(b)
    p0, p1 = _centre(aq, ar), _centre(bq, br)
    n = grid.distance(a, b)
    hits, edge_hexes = [], []
    for q in range(min(aq, bq) - 1, max(aq, bq) + 2):
        for r in range(min(ar, br) - n - 1, max(ar, br) + n + 2):
            if (q, r) in ((aq, ar), (bq, br)):
                continue
            span = _fraction_clip(p0, p1, q, r)
            if span is None or span[0] == span[1]:
                continue
            mid = (span[0] + span[1]) / 2
            point = (p0[0] + (p1[0] - p0[0]) * mid, p0[1] + (p1[1] - p0[1]) * mid)
            try:
                number = grid.number(q, r)
            except HexError:
                continue
            (hits if _fraction_strictly_inside(point, q, r) else edge_hexes).append((mid, number))
    by_edge = {}
    for t, number in edge_hexes:
        by_edge.setdefault(t, []).append(number)
    return [h for _, h in sorted(hits)], [tuple(sorted(p)) for _, p in sorted(by_edge.items()) if len(p) == 2]


@pytest.mark.parametrize("grid", [EVEN, ODD])
@pytest.mark.parametrize("centre", ["1010", "0101"])
def test_integer_sight_line_is_the_fraction_one(grid, centre):
    # 8.31, 8.32 (and the revised 9.31, 9.32): the integer clipping gives exactly what the Fractions
    # give, order included, at every range up to a gunboat's six (9.65), out to the numbering's edge.
    c, r = parse_hex(centre)
    checked = congruent = 0
    for column in range(max(0, c - 7), c + 8):
        for row in range(max(0, r - 7), r + 8):
            target = hex_number(column, row)
            if grid.distance(centre, target) > 6:
                continue
            assert grid.sight_line(centre, target) == _fraction_sight_line(grid, centre, target), target
            checked += 1
            congruent += bool(grid.sight_line(centre, target)[1])
    assert checked > 40 and congruent >= 5
