"""Victories that end the game at once (Olustee 20.0):

    [[exclusive.immediate_victory.occupy]]      # "whenever any Union units occupy either hex of Olustee Station"
    side = "union"
    area = "olustee_station"
    level = "Union Decisive Victory"
    line_to_edge = { edge = "east", terrain = ["clear"], features = ["road", "railway"] }

    [[exclusive.immediate_victory.exit]]        # "exit a Confederate infantry unit off the eastern map edge via hexes 4104 or 4108"
    side = "confederate"
    hexes = ["4104", "4108"]
    unit_types = ["infantry"]
    level = "Confederate Decisive Victory"
    line_to = ["1011"]

20.0: "The game ends automatically in a Union Player Decisive Victory whenever any Union units occupy
either hex of Olustee Station. Conversely, if the Confederate Player is able to exit a Confederate
infantry unit off the eastern map edge via hexes 4104 or 4108, this results in an immediate Confederate
Decisive Victory. Decisive Victory requires a Line of Communication ... between either hex of Olustee
Station and any clear, road or railway hex on the eastern map edge for the Union Player. For the
Confederate Player a Line of Communication must exist between the map edge exit hex and the railway hex
1011."

``occupy``: a unit of ``side`` physically in a hex of ``area`` (or of ``hexes``) from which a Line of
Communication runs to a hex of ``line_to_edge.edge`` whose terrain is one of ``terrain`` or which has a
hexside with one of ``features`` (none given: any hex of the edge). ``exit``: a unit of ``side`` (of
``unit_types``, any when empty) exits the map (the ``exits`` component's command) by one of ``hexes``,
and a Line of Communication runs from that hex to one of ``line_to`` (none given: no line needed).
The Line of Communication (Olustee 19.4): "a series of contiguous hexes free of prohibited Terrain,
Enemy units and Enemy Zones of Control unless the Enemy controlled hexes are occupied by Friendly
units" (rules/queries/communications.py ``supply_line``). The game then ends with ``level``
(rules/procedures/victory.py ``immediate_victory``, an ``after_command`` hook: ``VictoryDetermined`` and
``GameEnded`` reason ``immediate_victory``).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from rules.core.components.values import AreaName, Component, HexNumber
from rules.core.scenario import Side, UnitType

Edge = Literal["north", "south", "east", "west"]


class EdgeHexes(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The hexes of a map edge a line may end at: of ``terrain``, or with a hexside of ``features``
    (neither given: any hex of the edge)."""

    edge: Edge
    terrain: list[str] = []
    features: list[str] = []


class Occupy(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    side: Side
    level: str
    area: AreaName | None = None
    hexes: list[HexNumber] = []
    line_to_edge: EdgeHexes | None = None

    def __post_init__(self):
        if self.area is None and not self.hexes:
            raise ValueError("give the area (Olustee Station) or the hexes to occupy")


class Exit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    side: Side
    level: str
    hexes: list[HexNumber]
    unit_types: list[UnitType] = []
    line_to: list[HexNumber] = []

    def counts(self, side: str, unit_type: str, hex_: str) -> bool:
        """20.0: an exit of this kind ("a Confederate infantry unit ... via hexes 4104 or 4108")."""
        return side == self.side and hex_ in self.hexes and (not self.unit_types or unit_type in self.unit_types)


class ImmediateVictory(Component, frozen=True):
    occupy: list[Occupy] = []
    exit: list[Exit] = []

    def occupy_hexes(self, rule: Occupy, areas) -> list[str]:
        """The hexes ``rule`` asks its side to occupy: its area's and its own."""
        return [*(areas.get(rule.area, []) if rule.area else []), *rule.hexes]
