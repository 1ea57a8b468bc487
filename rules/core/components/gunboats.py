"""Gunboat waters (revised 9.62): hexes besides the river hexes where a battle's gunboats may be
(Shiloh's 1701); rules/core/gunboats.py.

    [exclusive.gunboats]
    hexes = ["1701"]
"""

from __future__ import annotations

from rules.core.components.values import Component, HexNumber


class GunboatWaters(Component, frozen=True):
    hexes: list[HexNumber] = []
