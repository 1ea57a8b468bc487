"""Control hexes (Chattanooga 17.15: "having a unit in the hex or being the last to have a unit move
through the hex"): hexes whose control a battle's rules ask about beyond those its other components
name (the movement quota's bonus hex and the victory hexes are tracked already). Only tracked hexes
are kept in ``state.control`` (rules/queries/control.py).

    [exclusive.control_hexes]
    hexes = ["1913"]
    held_at_start = [{ side = "union", hexes = ["0211", "0502"] }]

``held_at_start`` (Chickamauga 21.2: "The victory hexes are considered to be occupied at the start of
play as follows"): who controls these hexes before any unit has moved, whether or not a unit of that
side stands in them; the hexes are tracked.
"""

from __future__ import annotations

import msgspec

from rules.core.components.values import Component, HexNumber
from rules.core.scenario import Side


class HeldHexes(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Chickamauga 21.2: ``hexes`` that ``side`` occupies at the start of play."""

    side: Side
    hexes: list[HexNumber]


class ControlHexes(Component, frozen=True):
    hexes: list[HexNumber] = []
    held_at_start: list[HeldHexes] = []
    # Wilderness 19.13: "the last Player to have a unit (or Zone of Control) in the hex": a unit's zone
    # of control occupies as its presence does (rules/queries/control.py ``zones_reached``).
    zone_of_control: bool = False

    def tracked_hexes(self) -> tuple[str, ...]:
        return (*self.hexes, *(h for held in self.held_at_start for h in held.hexes))

    def at_start(self) -> dict[str, Side]:
        """21.2: the side occupying each hex at the start of play."""
        return {h: held.side for held in self.held_at_start for h in held.hexes}
