"""A Victory Point schedule and levels of victory (Chattanooga 20.1, 20.2; revised 21.1, 21.2):

- ``per_enemy_unit_eliminated`` {side: points}: 20.11 (1), (3): a side scores this for each enemy unit
  eliminated (reinforcements lost under 15.12 included).
- ``first_control`` {side, hexes, points_each}: 20.11 (2): the side scores for each of these hexes the
  first time it controls it (17.15), once in the game.
- ``town_in_zoc`` {side, area, points_each, unit_type}: 20.12 (1): at the game's end, for each hex of
  the map's area in the zone of control of (or occupied by) one of the side's units of that type.
- ``last_control`` {side, hexes, points_each}: 20.12 (2): at the game's end, for each of these hexes
  the side was the last to control.
- ``per_enemy_strength_point_eliminated`` {side: points}: Chickamauga 21.11 i): a side scores this
  for each Combat Strength Point of the enemy units eliminated.
- ``occupation`` [{hex, points, side}]: Chickamauga 21.12: at the game's end, the hex's points to the
  side that occupies it (21.2: control, rules/queries/control.py); to ``side`` only when it is given,
  to either Player when it is not (21.12 iii).
- ``levels`` [{level, min, max}]: 20.2, by the differential Union points minus Confederate points; an
  absent bound is open.

rules/procedures/victory.py awards the points and determines the level.

    [exclusive.victory]
    per_enemy_unit_eliminated = { confederate = 3, union = 2 }
    first_control = { side = "confederate", hexes = ["1514", "1417"], points_each = 4 }
    [[exclusive.victory.levels]]
    level = "Draw"
    min = -5
    max = 5
"""

from __future__ import annotations

import msgspec

from rules.core.components.values import AreaName, Component, Count, HexNumber
from rules.core.scenario import Side, UnitType


class HexPoints(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """20.11 (2), 20.12 (2): ``points_each`` to ``side`` for each of ``hexes``."""

    side: Side
    hexes: list[HexNumber]
    points_each: Count


class AreaInZoc(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """20.12 (1): ``points_each`` to ``side`` for each hex of the map's ``area`` in the zone of
    control of one of its units (of ``unit_type``, or of any type)."""

    side: Side
    area: AreaName
    points_each: Count
    unit_type: UnitType | None = None


class HexValue(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Chickamauga 21.12: ``points`` for occupying ``hex`` at the end, to ``side`` (None: either Player)."""

    hex: HexNumber
    points: Count
    side: Side | None = None

    def scores_for(self, occupier: Side | None) -> bool:
        return occupier is not None and (self.side is None or self.side == occupier)


class Level(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """20.2: a level of victory and the differentials it covers (``min`` to ``max``; None is open)."""

    level: str
    min: int | None = None
    max: int | None = None

    def covers(self, differential: int) -> bool:
        return (self.min is None or self.min <= differential) and (
            self.max is None or differential <= self.max
        )


class VictoryPoints(Component, frozen=True):
    per_enemy_unit_eliminated: dict[Side, Count] = {}
    first_control: HexPoints | None = None
    town_in_zoc: AreaInZoc | None = None
    last_control: HexPoints | None = None
    per_enemy_strength_point_eliminated: dict[Side, Count] = {}
    occupation: list[HexValue] = []
    levels: list[Level] = []

    def tracked_hexes(self) -> tuple[str, ...]:
        """17.15, 21.2: the hexes whose control scores."""
        held = (h for c in (self.first_control, self.last_control) if c is not None for h in c.hexes)
        return (*held, *(o.hex for o in self.occupation))

    def for_elimination(self, side: str, strength: int = 0) -> int:
        """20.11 (1), (3): what ``side`` scores for an enemy unit eliminated; Chickamauga 21.11 i):
        and for each of its ``strength`` Combat Strength Points."""
        per_point = self.per_enemy_strength_point_eliminated.get(side, 0)
        return self.per_enemy_unit_eliminated.get(side, 0) + per_point * strength

    def level_of(self, differential: int) -> str | None:
        """20.2: the level of victory for a differential (Union minus Confederate points)."""
        for level in self.levels:
            if level.covers(differential):
                return level.level
        return None
