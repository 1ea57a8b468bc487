"""A side's own movement costs (Wilderness 18.13, 18.21): what the revised Terrain Effects Chart (10.1)
charges one side differently.

    [exclusive.terrain_costs]
    hex_costs = { union = { forest = 3 } }    # 18.13: "Union units pay three Movement Points to enter forest hexes"
    trails_at_road_rate = ["confederate"]     # 18.21: "may move along trails at the road movement rate"

- ``hex_costs`` {side: {terrain: points}}: the points a unit of the side spends to enter a hex of that
  terrain, instead of the chart's (every unit type; a road still gives its rate, 6.23, and a trail
  "use other Terrain cost if less", 6.24);
- ``trails_at_road_rate`` [side]: a step along a trail costs the side's units the road rate (6.23: one
  Movement Point per hex, whatever the hex's terrain).

Read by the revised movement costs (rules/revised/movement.py ``movement_costs``, built per side by
rules/core/game.py: ``Game.steps_for`` gives a unit its side's table). Revised rule set only.
"""

from __future__ import annotations

from rules.core.components.values import Component, Count
from rules.core.scenario import Side
from rules.core.terrain import HEX_TERRAIN


class TerrainCosts(Component, frozen=True):
    hex_costs: dict[Side, dict[str, Count]] = {}
    trails_at_road_rate: list[Side] = []

    def __post_init__(self) -> None:
        for costs in self.hex_costs.values():
            for kind in costs:
                if kind not in HEX_TERRAIN:
                    raise ValueError(f"{kind!r} is not a hex terrain ({', '.join(sorted(HEX_TERRAIN))})")

    def sides(self) -> tuple[Side, ...]:
        """The sides whose costs differ from the chart's."""
        return tuple(sorted({*self.hex_costs, *self.trails_at_road_rate}))

    def hex_cost(self, side: Side | None, kind: str) -> int | None:
        """18.13: the side's own cost to enter a hex of ``kind``, or None (the chart's)."""
        return None if side is None else self.hex_costs.get(side, {}).get(kind)

    def trail_at_road_rate(self, side: Side | None) -> bool:
        """18.21: do the side's units move along trails at the road rate?"""
        return side is not None and side in self.trails_at_road_rate
