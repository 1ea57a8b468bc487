"""Ferries (Chattanooga 19.11-19.13; revised 20.21-20.23): the battle's river ferry hexes. A ferry hex
costs 3 Movement Points and is entered and left only through its arrows (the map's
``ferry_crossing`` hexsides, rules/core/game.py), no unit ends its movement in one (19.12) and a unit forced
to retreat through one is eliminated (19.13, rules/procedures/retreat.py).

    [exclusive.ferries]
    hexes = ["1305", "1013", "0814", "0517"]

The list must be the map's ferry hexes, all of them (scenarios/validate.py).
"""

from __future__ import annotations

from rules.core.components.values import Component, HexNumber


class Ferries(Component, frozen=True):
    hexes: list[HexNumber]
