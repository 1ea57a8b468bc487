"""Units that have exited the map (Chickamauga 18.0). An exited unit is neither on the map nor
eliminated (18.3, 18.4); its exit is recorded in ``state.scored`` as ``"exited:<unit>"`` (the exit
counts toward the owner's Victory Points, 18.4), so that it is never taken for a reinforcement still
to come."""

from __future__ import annotations

from rules.core import terrain
from rules.core.components.exits import EXITED_BY, exit_record  # Road to Richmond 22.12, 20.1
from rules.core.state import State
from rules.queries.edges import on_edge

__all__ = ["EXITED", "EXITED_BY", "exit_hexes", "exit_record", "exited", "exited_by", "exited_of", "has_exited", "is_road_hex"]

EXITED = "exited:"


def exited_by(state: State, unit: str) -> str | None:
    """Road to Richmond 22.12: the hex ``unit`` exited the map by (when recorded), or None."""
    record = exit_record(state.scored, unit)
    return None if record is None else record[0]


def has_exited(state: State, unit: str) -> bool:
    return EXITED + unit in state.scored


def exited(state: State) -> list[str]:
    """The units that have exited, in the order of the order of battle."""
    return [u.id for u in state.game.scenario.units if EXITED + u.id in state.scored]


def is_road_hex(game, hex_: str) -> bool:
    """Road to Vicksburg 19.3: does a road run through ``hex_`` (a road hexside to a neighbour)?"""
    features = game.scenario.map.features
    return hex_ in game.terrain and any(terrain.ROAD in features(hex_, n) for n in game.neighbours[hex_])


def exit_hexes(game) -> tuple[str, ...]:
    """The hexes units may exit the map from: the battle's exit hexes (Chickamauga 18.1) and every hex
    of its exit edges (Cemetery Hill 18.2), sorted; none without exits; with ``along_road`` only the road
    hexes of them (Road to Vicksburg 19.3: "Such units must exit along a road"). Worked out once per game."""
    cached = game.__dict__.get("_exit_hexes")
    if cached is None:
        exits = game.battle.exits
        hexes: set[str] = set()
        if exits is not None:
            hexes.update(h for h in exits.hexes if h in game.terrain)
            for edge in exits.edges:
                hexes |= on_edge(game, edge)
            if exits.along_road:  # Road to Vicksburg 19.3
                hexes = {h for h in hexes if is_road_hex(game, h)}
        cached = tuple(sorted(hexes))
        game.__dict__["_exit_hexes"] = cached
    return cached


def exited_of(state: State, side: str, unit_types: list[str] | tuple[str, ...] = ()) -> int:
    """Cemetery Hill 20.3: how many units of ``side`` (of ``unit_types``; any when empty) have exited."""
    units = state.game.units
    return sum(
        1
        for u in exited(state)
        if units[u].side == side and (not unit_types or units[u].type in unit_types)
    )
