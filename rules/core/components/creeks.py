"""Named creeks and the terrain rules that go with them (Road to Vicksburg 19.1: Jackson's Creek and Baker's
Creek), on a map the owner supplies: each creek is named by an area of the map, the hexes on both its
banks; its hexsides are the water hexsides (stream, creek, bridge, ford) between two hexes of that area.

    [[exclusive.creeks.creek]]
    name = "Jackson's Creek"
    banks = "jacksons_creek"               # map area: the hexes on both banks
    artillery_only_at_crossings = true     # 19.12: "Artillery units can cross Jackson's Creek only at a bridge or a ford"
    [[exclusive.creeks.creek]]
    name = "Baker's Creek"
    banks = "bakers_creek"
    bridge_attacks_optional = true         # 19.15: "Units are not required to attack across a Baker's Creek bridge hex side"
    [exclusive.creeks]
    road_only = { area = "jacksons_creek_woods", unit_types = ["artillery"] }   # 19.13

- ``artillery_only_at_crossings``: artillery never steps across one of the creek's hexsides that has no
  bridge nor ford (its movement steps, Strategic Movement included, and its retreats: the battle rule
  rules/mechanisms/creeks.py, whose hooks rules/core/game.py reads).
- ``bridge_attacks_optional``: a unit adjacent to an enemy unit only across the creek's bridge hexsides
  need not attack it, nor must that enemy be attacked for it (revised 8.11, 8.12:
  rules/procedures/combat.py ``engagement``); the attack may still be made.
- ``road_only`` {area, unit_types}: 19.13 "Artillery units cannot move off a road in the wooded hexes east of
  Jackson's Creek within six hexes of Middle Road": those units enter a hex of ``area`` (the owner's map
  gives the hexes the rule means) only across a road or turnpike hexside.

Rulings (docs/RULINGS.md, "Road to Vicksburg"): drawn as stream hexsides (the revised book's fordable
creek, 7.6, 10.1) with creek + bridge and creek + ford at its crossings, Jackson's Creek needs nothing more
for 19.11 (zones of control extend across streams, 7.6, and across bridges and fords) and 19.14 (an attack
across a stream, bridge or ford hexside halves the attacking unit, 10.1: the revised reading of "a unit
attacked across ... has its Combat Strength halved").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core import terrain
from rules.core.components.values import AreaName, Component
from rules.core.hexes import hexside
from rules.core.scenario import UnitType

if TYPE_CHECKING:
    from rules.core.scenario import Map

WATER = frozenset({terrain.STREAM, terrain.CREEK, terrain.BRIDGE, terrain.FORD})
CROSSINGS = frozenset({terrain.BRIDGE, terrain.FORD})
ROADS = frozenset({terrain.ROAD, terrain.TURNPIKE})


class Creek(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    banks: AreaName
    artillery_only_at_crossings: bool = False
    bridge_attacks_optional: bool = False

    def hexsides(self, board: Map) -> frozenset[str]:
        """The creek's hexsides: the water hexsides between two hexes of its banks."""
        hexes = set(board.areas.get(self.banks, ()))
        out = set()
        for key, side in board.hexsides.items():
            a, b = key.split("|")
            if a in hexes and b in hexes and side.features & WATER:
                out.add(key)
        return frozenset(out)


class RoadOnly(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    area: AreaName
    unit_types: list[UnitType] = msgspec.field(default_factory=lambda: ["artillery"])


class Creeks(Component, frozen=True):
    creek: list[Creek] = []
    road_only: RoadOnly | None = None

    def crossing_barred(self, board: Map, unit_type: str) -> frozenset[tuple[str, str]]:
        """19.12: the steps (a, b) across a creek that a unit of ``unit_type`` never takes, by move or retreat."""
        out: set[tuple[str, str]] = set()
        if unit_type == "artillery":
            for c in self.creek:
                if not c.artillery_only_at_crossings:
                    continue
                for key in c.hexsides(board):
                    if not board.hexsides[key].features & CROSSINGS:
                        a, b = key.split("|")
                        out.update({(a, b), (b, a)})
        return frozenset(out)

    def barred_steps(self, board: Map, unit_type: str) -> frozenset[tuple[str, str]]:
        """19.12, 19.13: the steps (a, b) a unit of ``unit_type`` may never take in a move."""
        out = set(self.crossing_barred(board, unit_type))
        r = self.road_only
        if r is not None and unit_type in r.unit_types:
            area = set(board.areas.get(r.area, ()))
            grid = board.grid
            for b in area:
                for a in grid.neighbours(b):
                    if a in board.hexes and not board.features(a, b) & ROADS:
                        out.add((a, b))
        return frozenset(out)

    def optional_across(self, board: Map) -> frozenset[str]:
        """19.15: the hexsides across which attacks are at the Phasing Player's option."""
        return frozenset(
            key for c in self.creek if c.bridge_attacks_optional for key in c.hexsides(board) if terrain.BRIDGE in board.hexsides[key].features
        )

    def optional(self, board: Map, a: str, b: str) -> bool:
        """19.15: is an attack from ``a`` on adjacent ``b`` optional (across such a bridge hexside)?"""
        return hexside(a, b) in self.optional_across(board)
