"""Zones of control (6.0–6.6)."""

from __future__ import annotations

from rules.core.gunboats import GUNBOAT
from rules.core.scenario import Side, other_side
from rules.core.state import State, kept
from rules.queries.trenches import trench_facings, zoc_blocked


def zone_of_control(state: State, hex_: str) -> tuple[str, ...]:
    """The hexes a unit in ``hex_`` controls: the six around it (6.0), but never through a creek
    hexside without bridge or ford nor into a river ferry hex (6.6). Redoubt hexsides do not stop it
    (18.13)."""
    return state.game.zoc_into.get(hex_, ())


def enemy_controlled(state: State, side: Side) -> set[str]:
    """Every hex in the zone of control of a unit of the other side (6.0, 6.1: whatever the phase;
    6.5: a hex may be controlled by both sides at once). Gunboats have none (revised 9.64), nor trains
    (Chickamauga 19.3); none
    extends into a trench hex across its trench hexsides (revised 10.39).

    Worked out once per position and side (``rules.core.state.kept``): every caller asking of the
    same position shares the set, which no one may change. It reads the units' hexes and the
    trenches (the Breastworks Markers) only."""
    return kept(
        state, "enemy_controlled " + side, lambda s: _enemy_controlled(s, side), (state.positions, state.breastworks)
    )


def _enemy_controlled(state: State, side: Side) -> set[str]:
    game = state.game
    zoc_into = game.zoc_into
    out: set[str] = set()
    trenches = trench_facings(state)  # revised 10.39
    # Chickamauga 19.3, Wilderness 18.3: trains; Road to Vicksburg 18.3: "The Train unit has no Zone of
    # Control"; revised 9.64: gunboats (Game.zone_units)
    for h in map(state.positions.get, game.zone_units[other_side(side)]):
        if h is None:
            continue  # not on the map
        if trenches:
            out.update(t for t in zoc_into[h] if not zoc_blocked(trenches, h, t))
        else:
            out.update(zoc_into[h])
    return out


class EnemyZones:
    """``hex_ in EnemyZones(state, side)`` answers ``hex_ in enemy_controlled(state, side)`` for one hex
    at a time, from the hexes whose units would control it: for a move's path of a few hexes, cheaper
    than working out the whole set (6.0; revised 9.64, 10.39; Chickamauga 19.3; Road to Vicksburg
    18.3, as ``enemy_controlled``)."""

    __slots__ = ("_sources", "_held", "_trenches")

    def __init__(self, state: State, side: Side, occupied: frozenset[str] | set[str] | None = None) -> None:
        """``occupied``: ``enemy_occupied(state, side)``, when the caller has it (the hexes of the enemy's
        units with a zone are those, in a battle where every unit has one)."""
        game = state.game
        enemy = other_side(side)
        units = game.zone_units[enemy]
        self._sources = game.zoc_from
        if occupied is not None and units is game.side_units[enemy]:
            self._held = occupied
        else:
            self._held = set(map(state.positions.get, units))
        self._trenches = trench_facings(state)

    def __contains__(self, hex_: str) -> bool:
        held, trenches = self._held, self._trenches
        for h in self._sources.get(hex_, ()):
            if h in held and not (trenches and zoc_blocked(trenches, h, hex_)):
                return True
        return False

    def of(self, hexes) -> list[bool]:
        """``[h in self for h in hexes]``."""
        if self._trenches:
            return [h in self for h in hexes]
        held, sources = self._held, self._sources
        return [not held.isdisjoint(sources.get(h, ())) for h in hexes]  # no trench: any controlling unit


def enemy_occupied(state: State, side: Side) -> set[str]:
    """Hexes holding a unit of the other side (5.12)."""
    out = set(map(state.positions.get, state.game.side_units[other_side(side)]))
    out.discard(None)  # the units not on the map
    return out


def in_enemy_zone_of_control(state: State, unit: str) -> bool:
    """Is the unit in a hex controlled by the enemy (6.4: then that enemy is in its zone too)? Never a
    gunboat (revised 9.64: enemy zones do not affect it)."""
    hex_ = state.positions.get(unit)
    if state.game.units[unit].type == GUNBOAT:
        return False
    return hex_ is not None and hex_ in enemy_controlled(state, state.game.units[unit].side)
