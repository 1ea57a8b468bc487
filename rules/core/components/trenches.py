"""Trenches of the Initial Deployment (revised 10.33, 10.39): Breastworks Markers a battle places at
set-up, each a Trench: its hex, its side and the three contiguous adjacent hexes across its trench
hexsides (10.34 ii). The validator checks that each is a hex of the map, one per hex (10.36), with a
contiguous facing, and that the battle is not played under the 1975 rules, which have no fieldworks.

    [[exclusive.trenches.markers]]
    hex = "0505"
    side = "union"
    facing = ["0604", "0605", "0506"]

A marker's ``facing`` may be a direction instead (Peachtree Creek 16.1: "three Breastworks Markers
facing south in hexes 4709, 4809, and 4909"): the three hexsides centred on it (``"south"``: the
south-west, south and south-east hexsides), whatever the map's column parity.

``occupied`` places markers by rule in the hexes the side's units occupy at set-up, for the battles
whose set-up hexes only the counters give (the Atlanta Campaign 16.1), each entry for the hexes it
selects, in order, a hex already given a marker keeping it (10.36: one a hex):

    [[exclusive.trenches.occupied]]      # Atlanta 16.1
    side = "union"
    facing = "south_west"
    west_of = 55                         # "west of hex row 55XX": columns 01-54
    except_hexes = ["4902", "5413"]

- ``columns``: only hexes of these hex rows (Ezra Church 16.1 "in the 19XX hex row face southeast");
  ``west_of``: only columns below this one; ``area``: only hexes of this area of the map (Jonesborough
  16.1: "east of the Flint River"); ``except_hexes``: never these (Ezra Church: "except for the units
  that are initially deployed in hexes 1508 and 1608").
- ``facing``: a direction, or ``"toward_enemy"``: Jonesborough 16.1 "determining their facing as
  desired": the Union Player's own choice is not offered (docs/RULINGS.md); each marker faces the
  three contiguous hexsides whose hexes are nearest the enemy's units at set-up (rules/queries/trenches.py).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from rules.core.components.surprise_assault import Direction
from rules.core.components.values import AreaName, Component, HexNumber, HexPattern
from rules.core.scenario import Side

#: The six directions clockwise from north (rules/core/hexes.py DIRECTIONS).
ORDER: tuple[str, ...] = ("north", "north_east", "south_east", "south", "south_west", "north_west")


def facing_directions(direction: str) -> tuple[str, str, str]:
    """The three contiguous hexside directions a marker facing ``direction`` covers (centred on it)."""
    i = ORDER.index(direction)
    return ORDER[i - 1], ORDER[i], ORDER[(i + 1) % 6]


class TrenchMarker(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    hex: HexNumber
    side: Side
    facing: list[HexPattern] | Direction  # hexes across a hexside (which may lie off the map), or a direction


class Occupied(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Atlanta Campaign 16.1: a marker in each hex the side's units occupy at set-up, as selected."""

    side: Side
    facing: Direction | Literal["toward_enemy"]
    columns: list[int] = []
    west_of: int | None = None
    area: AreaName | None = None
    except_hexes: list[HexNumber] = []

    def selects(self, hex_: str, areas: dict[str, list[str]]) -> bool:
        column = int(hex_[:2])
        return (
            hex_ not in self.except_hexes
            and (not self.columns or column in self.columns)
            and (self.west_of is None or column < self.west_of)
            and (self.area is None or hex_ in areas.get(self.area, ()))
        )


class Trenches(Component, frozen=True):
    markers: list[TrenchMarker] = []
    occupied: list[Occupied] = []
