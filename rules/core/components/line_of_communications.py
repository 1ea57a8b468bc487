"""A line of communications traced at the end of the game, in one of two forms.

Chickamauga 21.32 (``exits``): every unit of ``side``, and every reinforcement of its that has not
entered the map (traced from its entry hexes), needs a path of at most ``path_hexes`` hexes, through no
enemy unit (enemy zones of control do not block it), to a road that leads through contiguous road hexes
off the map at one of ``exits``.

Antietam 19.1 (``hexes``, ``enemy_zoc_blocks``): "a series of contiguous hexes free of Enemy units or
Enemy Zones of Control to hex 0126. Friendly units do not negate Enemy Zones of Control for this
purpose": every unit of ``side`` on the map needs a path, of any length unless ``path_hexes`` is
given, to one of ``hexes``, through no hex holding an enemy unit and, with ``enemy_zoc_blocks``, none
in an enemy zone of control; ``reinforcements_not_entered = false`` when only units on the map trace.

A unit that cannot trace one "is considered eliminated for ... Victory" purposes: the enemy scores it
as eliminated (rules/procedures/victory.py; the tracing is rules/queries/communications.py).

    [exclusive.line_of_communications]
    side = "union"
    exits = ["0101", "0111"]
    path_hexes = 10

    [exclusive.line_of_communications]
    side = "confederate"
    hexes = ["0126"]
    enemy_zoc_blocks = true
    reinforcements_not_entered = false

Cemetery Hill 20.2, 20.4 (``friendly_edges``, instead of ``side``): each side named traces from each of
its units, at the end of the game, "a series of contiguous hexes of any length ... to a road which in
turn leads off a Friendly map edge" (its edge in ``friendly_edges``); with ``enemy_zoc_blocks`` the
whole path, road hexes included, is free of enemy units and enemy-controlled hexes, and with
``through_friendly_units`` "a Line of Communication may be traced through any hex occupied by Friendly
units, regardless of Enemy Zones of Control". ``per_enemy_strength_point_cut_off`` {side: points}
(20.11, 20.12): what a side scores per Combat Strength Point of an enemy unit without a line, instead
of scoring it as eliminated.

    [exclusive.line_of_communications]
    friendly_edges = { union = "east", confederate = "west" }
    enemy_zoc_blocks = true
    through_friendly_units = true
    per_enemy_strength_point_cut_off = { union = 1, confederate = 1 }

Road to Richmond 22.22: "If the Union Train unit was not brought on to the map sheet, any Union unit
(excluding Reinforcements that were never brought on to the map sheet) which cannot trace a path ten
hexes or less to a road or trail which in turn exits the map sheet at hex 1528 or 2426 ... is considered
destroyed": ``unless_entered`` (the line is traced only if that unit never entered the map) and
``along_trails`` (the road of ``exits`` may be a trail too).

    [exclusive.line_of_communications]
    side = "union"
    exits = ["1528", "2426"]
    path_hexes = 10
    reinforcements_not_entered = false
    along_trails = true
    unless_entered = "us-train"

Second Bull Run 19.0 (``edge_area``, with ``side``): "a contiguous series of hexes to a road which then
leads off the east edge of the map sheet. Both the hexes to the road and the road itself must be free of
Enemy units or Enemy Zones of Control (unless the hex is occupied by a Friendly unit)": as Cemetery Hill
20.4, to a road that leads off the map at a hex of the area (the map sheet's east edge, an area of the
supplied map: which of the grid's edges is east is the sheet's, rules/queries/edges.py ``road_ends``).

    [exclusive.line_of_communications]
    side = "union"
    edge_area = "east_edge"
    enemy_zoc_blocks = true
    through_friendly_units = true
    reinforcements_not_entered = false
    per_enemy_strength_point_cut_off = { confederate = 1 }

Road to Vicksburg 20.0-20.3 (``forms``, instead of ``side`` and one form for all): one form for each side
named, each a table of one of ``exits``, ``hexes``, ``edge_area`` (as above) or ``road_hexes_on``
(20.3: "any road hex on the eastern or western edges of the map sheet": a hex of one of these edges of
the map's grid with a road hexside, rules/queries/edges.py ``on_edge``); the other keys apply to both.
20.1: "a contiguous line of hexes of any length, free of Enemy units, Enemy Zones of Control or
prohibited Terrain ... to certain Friendly controlled hexes at the map edge. Friendly units negate Enemy
Zones of Control": ``prohibited_terrain_blocks`` (no hex a unit may not enter: river, lake, pond; no
hexside a unit may not cross) and
``friendly_controlled`` (no hex whose recorded control, 21.2, is the enemy's is a goal). 20.0: "all Union
units that have exited the map sheet at hexes 0108 or 0119 must be able to trace a Line of
Communication", from "the hex from which the tracing unit exited the map sheet": ``exited_at`` {side:
hexes}; a unit exited elsewhere needs none.

    [exclusive.line_of_communications]
    enemy_zoc_blocks = true
    through_friendly_units = true
    prohibited_terrain_blocks = true
    friendly_controlled = true
    reinforcements_not_entered = false
    exited_at = { union = ["0108", "0119"] }
    forms.union = { hexes = ["1902", "1911", "1920"] }
    forms.confederate = { road_hexes_on = ["east", "west"] }
"""

from __future__ import annotations

from rules.core.components.exits import Edge
from rules.core.components.values import AreaName, Component, Count, HexNumber, UnitId
from rules.core.scenario import SIDES, Side


class LineForm(Component, frozen=True):
    """What one side's line is traced to (Road to Vicksburg 20.2, 20.3): exactly one of these."""

    exits: list[HexNumber] = []
    hexes: list[HexNumber] = []
    edge_area: AreaName | None = None
    road_hexes_on: list[Edge] = []  # Road to Vicksburg 20.3

    def __post_init__(self):
        if sum([bool(self.exits), bool(self.hexes), self.edge_area is not None, bool(self.road_hexes_on)]) != 1:
            raise ValueError(
                "give one of exits (a road off the map), hexes (the hexes traced to), edge_area (a road off "
                "the map at a hex of this area) or road_hexes_on (any road hex of these edges, Road to Vicksburg 20.3)"
            )


class LineOfCommunications(Component, frozen=True):
    side: Side | None = None
    exits: list[HexNumber] = []
    hexes: list[HexNumber] = []
    path_hexes: Count | None = None
    enemy_zoc_blocks: bool = False
    reinforcements_not_entered: bool = True
    friendly_edges: dict[Side, Edge] = {}
    through_friendly_units: bool = False
    per_enemy_strength_point_cut_off: dict[Side, Count] = {}
    along_trails: bool = False
    unless_entered: UnitId | None = None
    edge_area: AreaName | None = None
    forms: dict[Side, LineForm] = {}  # Road to Vicksburg 20.2, 20.3: one form per side
    prohibited_terrain_blocks: bool = False  # Road to Vicksburg 20.1
    friendly_controlled: bool = False  # Road to Vicksburg 20.1: "to certain Friendly controlled hexes"
    exited_at: dict[Side, list[HexNumber]] = {}  # Road to Vicksburg 20.0: exited units that trace

    def __post_init__(self):
        forms = [bool(self.exits), bool(self.hexes), bool(self.friendly_edges), self.edge_area is not None, bool(self.forms)]
        if sum(forms) != 1:
            raise ValueError(
                "give one of exits (a road off the map, 21.32), hexes (the hexes traced to, Antietam 19.1) "
                "or friendly_edges (a road off each side's friendly edge, Cemetery Hill 20.2) "
                "or edge_area (a road off the map at a hex of this area, Second Bull Run 19.0) "
                "or forms (one of these for each side, Road to Vicksburg 20.2, 20.3)"
            )
        if (self.side is None) != bool(self.friendly_edges or self.forms):
            raise ValueError("side names the side that traces, unless friendly_edges or forms names each side's")

    def sides(self) -> tuple[Side, ...]:
        """The sides whose units must trace a line (Cemetery Hill 20.4, Road to Vicksburg 20.0: both)."""
        if self.side is not None:
            return (self.side,)
        return tuple(s for s in SIDES if s in self.friendly_edges or s in self.forms)

    def form(self, side: Side) -> LineOfCommunications | LineForm:
        """What ``side``'s line is traced to: its own form (Road to Vicksburg 20.2, 20.3), else the one
        form of the block."""
        return self.forms.get(side, self)
