"""Hexes a side may not enter on given Game-Turns (Wilderness 18.11, 18.12, 18.14).

    [exclusive.terrain_restrictions]
    side = "union"
    # 18.11: "During the first day (Game-Turns One through Seven), Union units may not move into or
    # through forest hexes, except along roads and trails."
    only_along_routes = { terrain = ["forest"], turns = [1, 2, 3, 4, 5, 6, 7] }
    # 18.12: "During the second day ... Union units may enter any hex adjacent to a clear Terrain, road
    # or trail hex."
    only_near = { terrain = ["clear"], turns = [8, 9, 10, 11, 12, 13, 14, 15, 16] }
    enemy_zoc_exempt = true   # 18.11: "they may always enter a hex in an Enemy Zone of Control"

- ``only_along_routes`` {terrain, turns}: on those Game-Turns the side's units enter a hex of those
  terrains only through a road or trail hexside (a step along the road or trail);
- ``only_near`` {terrain, turns}: on those Game-Turns they enter only a hex that is, or is adjacent
  to, a hex of those terrains or a hex with a road or trail;
- ``enemy_zoc_exempt``: a hex in an enemy zone of control may always be entered, whatever its terrain.

A prohibited hex is prohibited for the Movement Phase (rules/procedures/movement.py: the moves and the
legal moves) and, 18.14, for an advance after combat; a retreat enters one only when it is the sole
path of retreat open (rules/procedures/retreat.py). 18.14 (the second): a unit that starts a Movement
Phase in a prohibited hex may leave it (only the hex entered is asked about).

Rulings (docs/RULINGS.md, "The Wilderness"): a road or trail hex is a hex with a road or trail
hexside; 18.12 lets a unit enter a clear, road or trail hex itself (it is adjacent to its road's next
hex, and a clearing is not the forest the rule keeps the Union out of); the exemption holds on both
days ("always").
"""

from __future__ import annotations

import msgspec

from rules.core import terrain
from rules.core.components.values import Component, Count
from rules.core.scenario import Side

ROUTES = (terrain.ROAD, terrain.TRAIL)


class TurnsTerrain(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    terrain: list[str]
    turns: list[Count]

    def __post_init__(self) -> None:
        for kind in self.terrain:
            if kind not in terrain.HEX_TERRAIN:
                raise ValueError(f"{kind!r} is not a hex terrain ({', '.join(sorted(terrain.HEX_TERRAIN))})")


class TerrainRestrictions(Component, frozen=True):
    side: Side
    only_along_routes: TurnsTerrain | None = None
    only_near: TurnsTerrain | None = None
    enemy_zoc_exempt: bool = True

    def binds(self, turn: int, side: Side) -> bool:
        """Is ``side`` restricted on Game-Turn ``turn``?"""
        return side == self.side and any(r is not None and turn in r.turns for r in (self.only_along_routes, self.only_near))

    def rule(self, turn: int) -> str:
        """The rule name a refusal cites on Game-Turn ``turn`` (the scenario's cases: 18.11, 18.12)."""
        near = self.only_near
        return "terrain_restrictions.near" if near is not None and turn in near.turns else "terrain_restrictions"

    def step_problem(self, game, turn: int, side: Side, a: str, b: str, enemy_zoc: bool) -> str | None:
        """18.11, 18.12: why a unit of ``side`` may not enter ``b`` from ``a`` on Game-Turn ``turn`` (a
        sentence), or None. ``enemy_zoc``: ``b`` lies in an enemy zone of control."""
        if side != self.side or (enemy_zoc and self.enemy_zoc_exempt):
            return None
        m = game.scenario.map
        kind = game.terrain[b]
        along = self.only_along_routes
        if along is not None and turn in along.turns and kind in along.terrain:
            if not any(r in m.features(a, b) for r in ROUTES):
                return f"on Game-Turn {turn} {b} ({kind}) may be entered only along a road or trail"
        near = self.only_near
        if near is not None and turn in near.turns and not _near(game, b, near.terrain):
            return f"on Game-Turn {turn} only hexes adjacent to a {'/'.join(near.terrain)}, road or trail hex may be entered; {b} is not"
        return None


def _near(game, b: str, kinds: list[str]) -> bool:
    """18.12: is ``b`` (or a hex adjacent to it) of one of ``kinds`` or a road or trail hex? The map
    never changes: each answer is kept on the game."""
    kept = game.__dict__.setdefault("_terrain_restrictions_near", {})
    key = (b, tuple(kinds))
    if key not in kept:
        kept[key] = any(_open(game, h, kinds) for h in (b, *game.neighbours[b]))
    return kept[key]


def _open(game, h: str, kinds: list[str]) -> bool:
    m = game.scenario.map
    return game.terrain[h] in kinds or any(
        any(r in m.features(h, n) for r in ROUTES) for n in game.neighbours[h]
    )
