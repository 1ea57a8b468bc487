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

import math
from fractions import Fraction


def nearest(x: Fraction | int) -> int:
    """8.32: ``x`` rounded to the nearest integer, one half rounding up: floor(x + 1/2), exactly."""
    return math.floor(Fraction(x) + Fraction(1, 2))
