"""Town hexes that disorder (revised 12.17, 10.1 "Town/urban ... units in hex Disordered"): the hexes
whose units are Disordered by the terrain, every hex of the ``terrain`` (by default town) and every hex
of the map's ``area``.

    [exclusive_overrides.revised.town_disorders]
    area = "chattanooga_town"
    terrain = "town"
"""

from __future__ import annotations

from rules.core.components.values import AreaName, Component
from rules.core.scenario import Map


class TownDisorders(Component, frozen=True):
    area: AreaName | None = None
    terrain: str = "town"

    def hexes(self, board: Map) -> frozenset[str]:
        """12.17: the town/urban hexes of the map."""
        out = {h for h, t in board.hexes.items() if t == self.terrain}
        if self.area:
            out |= set(board.areas.get(self.area, ()))
        return frozenset(out)
