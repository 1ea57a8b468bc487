"""Trenches (revised 10.33, 10.39): the markers a deployment places, and the zones of control their
hexsides stop."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.breastworks import TRENCH, Breastworks
from rules.core.components.surprise_assault import STEPS
from rules.core.components.trenches import ORDER, facing_directions
from rules.core.hexes import HexError

if TYPE_CHECKING:
    from rules.core.state import State


def initial_trenches(game) -> dict[str, Breastworks]:
    """10.33: the Breastworks Markers a scenario's Initial Deployment calls for, each a Trench (10.39):
    ``[[exclusive.trenches.markers]]`` with ``hex``, ``side`` and ``facing`` (the three adjacent hexes
    across its hexsides, as a completed marker's, 10.34 ii, or a direction: Peachtree Creek 16.1
    "facing south"), then ``[[exclusive.trenches.occupied]]``, a marker in each hex the side's units
    occupy at set-up as selected (the Atlanta Campaign 16.1), one a hex (10.36). None in a rule set
    without fieldworks."""
    if not game.ruleset.deployment_trenches:
        return {}
    trenches = game.battle.trenches
    out: dict[str, Breastworks] = {}
    for m in trenches.markers:
        facing = faced(game, m.hex, m.facing) if isinstance(m.facing, str) else tuple(m.facing)
        out[m.hex] = Breastworks(status=TRENCH, side=m.side, facing=facing)
    areas = game.scenario.map.areas
    for rule in trenches.occupied:
        held = sorted({u.hex for u in game.units.values() if u.side == rule.side and u.hex is not None})
        enemies = [u.hex for u in game.units.values() if u.side != rule.side and u.hex is not None]
        for h in held:
            if h in out or not rule.selects(h, areas):
                continue
            direction = rule.facing if rule.facing != "toward_enemy" else toward(game, h, enemies)
            out[h] = Breastworks(status=TRENCH, side=rule.side, facing=faced(game, h, direction))
    return out


def faced(game, hex_: str, direction: str) -> tuple[str, ...]:
    """Peachtree Creek 16.1 "facing south": the hexes across the three contiguous hexsides centred on
    ``direction`` (those with a hex number; they may lie off the map)."""
    q, r = game.grid.axial(hex_)
    out = []
    for d in facing_directions(direction):
        dq, dr = STEPS[d]
        try:
            out.append(game.grid.number(q + dq, r + dr))
        except HexError:
            continue
    return tuple(out)


def toward(game, hex_: str, enemies: list[str]) -> str:
    """Jonesborough 16.1 "determining their facing as desired" (ruling, docs/RULINGS.md): the direction
    whose three faced hexes are, together, nearest the enemy's units at set-up (the first of ORDER on a
    tie); south without enemy units."""
    if not enemies:
        return "south"
    grid = game.grid

    def nearness(direction: str) -> int:
        return sum(min(grid.distance(f, e) for e in enemies) for f in faced(game, hex_, direction))

    return min(ORDER, key=nearness)


def trench_facings(state: State) -> dict[str, frozenset[str]]:
    """10.39: per trench hex, the hexes across its trench hexsides."""
    if not state.breastworks:
        return {}
    return {h: frozenset(m.facing) for h, m in state.breastworks.items() if m.status == TRENCH}


def zoc_blocked(trenches: dict[str, frozenset[str]], from_hex: str, into_hex: str) -> bool:
    """10.39, 7.6: a zone of control does not extend from ``from_hex`` into the trench hex ``into_hex``
    across one of its trench hexsides."""
    facing = trenches.get(into_hex)
    return facing is not None and from_hex in facing
