"""rules/core/arith.py: rounding to the nearest, one half up (revised 8.32)."""

from fractions import Fraction

import pytest

from rules.core.arith import nearest


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (Fraction(5, 2), 3),  # 8.41: "a 5 attacking into rough is 3" (5/2 = 2.5 rounds up)
        (Fraction(3, 2), 2),
        (Fraction(1, 2), 1),
        (Fraction(499, 1000), 0),
        (Fraction(7, 3), 2),
        (Fraction(8, 3), 3),
        (4, 4),
    ],
)
def test_nearest_rounds_half_up_8_32(x, expected):
    assert nearest(x) == expected


def test_nearest_is_not_bankers_rounding_8_32():
    assert round(2.5) == 2 and nearest(Fraction(5, 2)) == 3


def test_nearest_is_floor_of_x_plus_one_half_exactly_8_32():
    # 8.32 in whole numbers (floor((2n + d) / 2d)) against the definition in Fractions, negatives too
    import math

    for n in range(-40, 41):
        for d in range(1, 10):
            x = Fraction(n, d)
            assert nearest(x) == math.floor(x + Fraction(1, 2)), x
    assert nearest(2.5) == 3 and nearest(-7) == -7
