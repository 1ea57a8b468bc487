"""Exiting the map (Chickamauga 18.0, 21.11 ii)-iv), 21.31): units may leave the map at ``hexes`` only,
spending ``cost`` Movement Points to do so (18.2), and never return (18.3); they are not eliminated
(18.4); a retreat may never leave the map (18.6: the unit is eliminated instead, as any retreat with
no hex open); any number may exit by the same hex (18.7).

``points_per_strength_point`` {side: points} (21.11 ii), iii)): Victory Points per Combat Strength
Point a side exits, "Awarded During Play": as the unit exits; ``line_to_edge`` (21.31): the sides whose
exit points count only if a road runs from an exit hex, through contiguous road hexes free of enemy
units, off the map edge named (judged, and so awarded, at the end of the game);
``must_exit`` (21.11 iv)): a unit that the enemy scores ``points`` for if it has not exited at the end.

    [exclusive.exits]
    hexes = ["0101", "0111"]
    cost = 1
    points_per_strength_point = { union = 1, confederate = 5 }
    line_to_edge = [{ side = "confederate", edge = "east" }]
    must_exit = [{ unit = "us-train", points = 10 }]

Cemetery Hill 18.2, 20.3: ``edges`` instead of (or beside) ``hexes``: a unit may exit from any hex of
these map edges; ``unit_types``: only units of these types may exit ("Only cavalry units may exit the
map sheet"; absent: any); ``excess_exited`` {side, points, at_end_of}: at the end of each Player-Turn of
``at_end_of``, ``side`` scores ``points`` for each unit it has exited so far in excess of the number
the enemy has exited so far (20.3: five to the Confederate at the end of each Union Player-Turn).

    [exclusive.exits]
    edges = ["east", "south"]
    unit_types = ["cavalry"]
    cost = 1
    excess_exited = { side = "confederate", points = 5, at_end_of = "union" }

Road to Richmond 22.12: ``awards``, points for exiting by particular hexes, on conditions judged at the
end of the game (the awards replace ``points_per_strength_point`` for the units they name):

    [[exclusive.exits.awards]]        # 22.12 ii)
    side = "union"
    hexes = ["0117"]
    per = "strength_point"
    points = 1
    after_exit = { unit = "us-train", hex = "1528" }   # the Train has exited the map from 1528
    line = ["0117", "1528"]                             # 22.21: a line of communication 0117-1528

Each award: ``side`` scores ``points`` for each of its units (``per = "unit"``) or each of their Combat
Strength Points (``per = "strength_point"``) exited by one of ``hexes`` (any exit hex when empty), of
``units`` only when given, never of ``except_units``, of ``unit_types`` only when given (Fredericksburg
21.12: brigades, divisions and cavalry score differently by exit hex); only if ``after_exit`` (the unit exited by that
hex), ``line`` (22.21: contiguous road or trail hexes, joined at junctions, from the first hex to the
second, both included, free of the enemy's units at the end: enemy zones of control do not block it)
and ``unless_present`` (22.12 v): the unit was eliminated or never entered the map: it is not on the
map and has not exited) hold. Road to Vicksburg 21.3: ``sizes`` (of these sizes only, the order of
battle's ``size``: "for each infantry brigade", "each artillery battery or cavalry regiment") and ``per =
"two_units"`` ("1 for each two infantry regiments or two artillery sections": ``points`` for each second
unit counted).

Hooker and Lee 18.11, 18.21: ``not_occupied_or_controlled_by_enemy``: an exit hex in an enemy zone of
control is closed to the side's exits at all times, at night too (where revised 11.12 lets a unit leave
an enemy-controlled hex during movement).

Road to Vicksburg 19.3: ``along_road`` ("Such units must exit along a road"): a unit exits only from an
exit hex a road runs through (a road hexside joins it to a neighbour); the map cannot draw the road's
hexside off the map, so a road hex among the exit hexes is read as the road's end there (docs/RULINGS.md).
The validator checks that the configured exit hexes are road hexes.

    [exclusive.exits]
    hexes = ["0108", "0119"]
    along_road = true

The command and its points are rules/procedures/exits.py; whether a unit has exited and where units may
exit, rules/queries/exits.py.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from rules.core.components.values import AreaName, Component, Count, HexNumber, UnitId
from rules.core.marks import marks
from rules.core.scenario import Side, UnitSize, UnitType

Edge = Literal["north", "south", "east", "west"]


EXITED_BY = "exited_by:"  # Road to Richmond 22.12, 20.1: "exited_by:<hex>:<turn>:<unit>" in state.scored


def exit_record(scored: set[str], unit: str) -> tuple[str, int] | None:
    """Road to Richmond 22.12, 20.1: (the hex ``unit`` exited the map by, the Game-Turn), recorded in
    ``state.scored`` only in a battle whose exit awards or command control zone ask; or None."""
    for m in marks(scored, EXITED_BY):
        hex_, turn, who = m.split(":", 2)
        if who == unit:
            return hex_, int(turn)
    return None


class LineToEdge(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """21.31: ``side``'s exit points count only with a road from an exit hex off the ``edge``."""

    side: Side
    edge: Edge


class MustExit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """21.11 iv): the enemy scores ``points`` if ``unit`` has not exited at the end of the game."""

    unit: UnitId
    points: Count


class ExcessExited(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Cemetery Hill 20.3: at the end of each Player-Turn of ``at_end_of``, ``points`` to ``side`` for
    each unit it has exited in excess of the enemy's."""

    side: Side
    points: Count
    at_end_of: Side


class ExitedBy(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Road to Richmond 22.12 ii), iv): ``unit`` has exited the map by ``hex``."""

    unit: UnitId
    hex: HexNumber


class ExitAward(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Road to Richmond 22.12 i)-v): ``points`` to ``side`` per unit or per Combat Strength Point it
    exited by ``hexes``, on the conditions given (the module's docstring)."""

    side: Side
    points: Count
    # Road to Vicksburg 21.3 "two_units": "1 for each two infantry regiments or two artillery sections"
    per: Literal["unit", "strength_point", "two_units"] = "strength_point"
    hexes: list[HexNumber] = []
    units: list[UnitId] = []
    except_units: list[UnitId] = []
    unit_types: list[UnitType] = []
    sizes: list[UnitSize] = []  # Road to Vicksburg 21.3: "for each infantry brigade", "regiment", "section"
    after_exit: ExitedBy | None = None
    line: list[HexNumber] = []
    unless_present: UnitId | None = None
    # Grand Chancellorsville 23.61 i): only "if he can trace a Line of Communications": contiguous hexes
    # free of enemy units and enemy zones of control (friendly units negate none) from the exit hex to a
    # hex of one of these areas ("any hex north of the Rappahannock River", over land or a ferry, pontoon
    # or bridge: never a river hex); with ``cut_off_eliminated`` the units are otherwise "considered
    # eliminated": the enemy scores them so.
    line_to_areas: list[AreaName] = []
    cut_off_eliminated: bool = False

    def __post_init__(self):
        if self.line and len(self.line) != 2:
            raise ValueError("line names the two hexes a line of communication joins (22.21: 0117 and 1528)")

    def counts(self, unit_id: str, side: str, hex_: str | None, unit_type: str | None = None, size: str | None = None) -> bool:
        """Is ``unit_id`` (of ``side``, ``unit_type`` and ``size``, exited by ``hex_``) one this award counts?"""
        return (
            side == self.side
            and (not self.hexes or hex_ in self.hexes)
            and (not self.units or unit_id in self.units)
            and unit_id not in self.except_units
            and (not self.unit_types or unit_type in self.unit_types)  # Fredericksburg 21.12: by kind
            and (not self.sizes or size in self.sizes)  # Road to Vicksburg 21.3: by size
        )


class Exits(Component, frozen=True):
    hexes: list[HexNumber] = []
    edges: list[Edge] = []
    unit_types: list[UnitType] = []
    sides: list[Side] = []  # Olustee 20.0: only these sides' units exit ("the Confederate Player must exit units"); absent: both
    cost: Count = 1
    points_per_strength_point: dict[Side, Count] = {}
    line_to_edge: list[LineToEdge] = []
    must_exit: list[MustExit] = []
    excess_exited: ExcessExited | None = None
    awards: list[ExitAward] = []
    retreat_off: list[Side] = []  # Hooker and Lee 18.21: forced off the map at an exit hex, exited, not eliminated
    along_road: bool = False  # Road to Vicksburg 19.3: "Such units must exit along a road": from road hexes only
    # Hooker and Lee 18.11, 18.21: units exit "only from hexes 1501, 2001 and 2101 if those hexes are not
    # occupied or controlled by [enemy] units": never from an exit hex in an enemy zone of control, on a
    # Night Game-Turn too (revised 11.12 lets a unit leave such a hex, not leave the map from it)
    not_occupied_or_controlled_by_enemy: bool = False

    def __post_init__(self):
        if not self.hexes and not self.edges:
            raise ValueError("give the exit hexes (Chickamauga 18.1) or the map edges units may exit by (Cemetery Hill 18.2)")

    def may_exit(self, unit_type: str, side: str | None = None) -> bool:
        """Cemetery Hill 18.2: "Only cavalry units may exit the map sheet" (no ``unit_types``: any unit);
        Olustee 20.0: only the units of ``sides`` (none given: either side's)."""
        return (not self.unit_types or unit_type in self.unit_types) and (not self.sides or side is None or side in self.sides)

    def edge_for(self, side: str) -> Edge | None:
        """21.31: the edge ``side``'s line must reach for its exit points, or None (no line needed)."""
        return next((line.edge for line in self.line_to_edge if line.side == side), None)
