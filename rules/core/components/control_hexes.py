"""Control hexes (Chattanooga 17.15: "having a unit in the hex or being the last to have a unit move
through the hex"): hexes whose control a battle's rules ask about beyond those its other components
name (the movement quota's bonus hex and the victory hexes are tracked already). Only tracked hexes
are kept in ``state.control`` (rules/queries/control.py).

    [exclusive.control_hexes]
    hexes = ["1913"]
"""

from __future__ import annotations

from rules.core.components.values import Component, HexNumber


class ControlHexes(Component, frozen=True):
    hexes: list[HexNumber] = []

    def tracked_hexes(self) -> tuple[str, ...]:
        return tuple(self.hexes)
