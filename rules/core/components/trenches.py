"""Trenches of the Initial Deployment (revised 10.33, 10.39): Breastworks Markers a battle places at
set-up, each a Trench: its hex, its side and the three contiguous adjacent hexes across its trench
hexsides (10.34 ii). The validator checks that each is a hex of the map, one per hex (10.36), with a
contiguous facing, and that the battle is not played under the 1975 rules, which have no fieldworks.

    [[exclusive.trenches.markers]]
    hex = "0505"
    side = "union"
    facing = ["0604", "0605", "0506"]
"""

from __future__ import annotations

import msgspec

from rules.core.components.values import Component, HexNumber, HexPattern
from rules.core.scenario import Side


class TrenchMarker(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    hex: HexNumber
    side: Side
    facing: list[HexPattern]  # a hex across a hexside, which may lie off the map


class Trenches(Component, frozen=True):
    markers: list[TrenchMarker] = []
