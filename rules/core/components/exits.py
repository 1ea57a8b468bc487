"""Exiting the map (Chickamauga 18.0, 21.11 ii)-iv), 21.31): units may leave the map at ``hexes`` only,
spending ``cost`` Movement Points to do so (18.2), and never return (18.3); they are not eliminated
(18.4); a retreat may never leave the map (18.6: the unit is eliminated instead, as any retreat with
no hex open); any number may exit by the same hex (18.7).

``points_per_strength_point`` {side: points} (21.11 ii), iii)): Victory Points per Combat Strength
Point a side exits; ``line_to_edge`` (21.31): the sides whose exit points count only if a road runs
from an exit hex, through contiguous road hexes free of enemy units, off the map edge named;
``must_exit`` (21.11 iv)): a unit that the enemy scores ``points`` for if it has not exited at the end.

    [exclusive.exits]
    hexes = ["0101", "0111"]
    cost = 1
    points_per_strength_point = { union = 1, confederate = 5 }
    line_to_edge = [{ side = "confederate", edge = "east" }]
    must_exit = [{ unit = "us-train", points = 10 }]

The command and its points are rules/procedures/exits.py; whether a unit has exited,
rules/queries/exits.py.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from rules.core.components.values import Component, Count, HexNumber, UnitId
from rules.core.scenario import Side

Edge = Literal["north", "south", "east", "west"]


class LineToEdge(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """21.31: ``side``'s exit points count only with a road from an exit hex off the ``edge``."""

    side: Side
    edge: Edge


class MustExit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """21.11 iv): the enemy scores ``points`` if ``unit`` has not exited at the end of the game."""

    unit: UnitId
    points: Count


class Exits(Component, frozen=True):
    hexes: list[HexNumber]
    cost: Count = 1
    points_per_strength_point: dict[Side, Count] = {}
    line_to_edge: list[LineToEdge] = []
    must_exit: list[MustExit] = []

    def edge_for(self, side: str) -> Edge | None:
        """21.31: the edge ``side``'s line must reach for its exit points, or None (no line needed)."""
        return next((line.edge for line in self.line_to_edge if line.side == side), None)
