"""The edges of the map (2.1): the hexes on each, and where a road leads off one (Chickamauga 21.31,
Cemetery Hill 18.2, 20.4)."""

from __future__ import annotations

from rules.core import terrain
from rules.core.hexes import hexside


def on_edge(game, edge: str) -> frozenset[str]:
    """The hexes of the map on its ``edge`` (north, south, east, west): the first or last column, the
    first or last row of each column; a corner hex is on two edges. Worked out once per game."""
    key = "_edge_" + edge
    cached = game.__dict__.get(key)
    if cached is None:
        numbers = [(int(h[:2]), int(h[2:])) for h in game.terrain]
        if edge in ("east", "west"):
            limit = (max if edge == "east" else min)(c for c, _ in numbers)
            cached = frozenset(f"{c:02d}{r:02d}" for c, r in numbers if c == limit)
        else:
            pick = max if edge == "south" else min
            ends: dict[int, int] = {}
            for c, r in numbers:
                ends[c] = pick(ends.get(c, r), r)
            cached = frozenset(f"{c:02d}{r:02d}" for c, r in ends.items())
        game.__dict__[key] = cached
    return cached


def road_ends(game, hexes) -> list[str]:
    """Of ``hexes`` (hexes of a map edge), those where a road leads off the map: a road ends there (the
    hex has exactly one road hexside; a road that only runs along the edge does not leave it), sorted."""
    sides = game.scenario.map.hexsides

    def road(a: str, b: str) -> bool:
        s = sides.get(hexside(a, b))
        return s is not None and terrain.ROAD in s.features

    return sorted(h for h in hexes if sum(road(h, n) for n in game.neighbours[h]) == 1)


def roads_off_edge(game, edge: str) -> list[str]:
    """Cemetery Hill 20.4: the hexes where a road leads off ``edge`` (``road_ends``)."""
    return road_ends(game, on_edge(game, edge))
