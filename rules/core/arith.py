"""Arithmetic the rule books prescribe.

The revised rules (003, 8.32) round "to the nearest integer": "a partial Combat Strength Point of 0.499 or
lower is rounded down to '0', and a partial Combat Strength Point of 0.5 or higher is rounded up to '1'".
That is floor(x + 1/2) on exact values, never Python's ``round()`` (banker's rounding: ``round(2.5) == 2``).

>>> nearest(Fraction(5, 2))
3
>>> nearest(Fraction(7, 3))
2
"""

from __future__ import annotations

from fractions import Fraction


def nearest(x: Fraction | int) -> int:
    """8.32: ``x`` rounded to the nearest integer, one half rounding up: floor(x + 1/2), exactly
    (in whole numbers: floor((2n + d) / 2d) for x = n/d, d > 0)."""
    if type(x) is float:
        x = Fraction(x)
    n, d = x.numerator, x.denominator
    return (2 * n + d) // (2 * d)


MovementPoints = int | str  # on the wire and in the log: a whole number, or an exact fraction "n/d"


def movement_points(x: Fraction | int) -> MovementPoints:
    """Movement points as events and choices carry them (revised 6.22: a turnpike hex costs 2/3): an
    int when whole, else the exact fraction as a string "n/d" (``Fraction(x)`` reads it back).

    >>> movement_points(Fraction(6, 3)), movement_points(Fraction(4, 3))
    (2, '4/3')
    """
    if type(x) is int:
        return x
    x = Fraction(x)
    return int(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
