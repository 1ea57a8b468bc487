"""Control of hexes (Chattanooga 17.15): "having a unit in the hex or being the last to have a unit
move through the hex".

Only the hexes the scenario's rules ask about are tracked (``Game.control_hexes``: the quota's bonus
hex, the victory hexes), in ``state.control``.

Rulings (docs/RULINGS.md):
- A hex that no unit has ever been in is controlled by nobody (17.15 gives no owner to it).
- A unit set up in a hex controls it from the start (it is "having a unit in the hex").
- Every entry of a hex counts as moving through it: movement, entering as a reinforcement, and
  also retreat, displacement and advance after combat (17.15 does not restrict "move" to the Movement
  Phase, and a unit that retreats or advances into a hex then has a unit in it). Combat code calls
  ``entered`` for those too.
- Since no unit may enter a hex holding an enemy unit (5.12), "last to have a unit move through"
  always agrees with "having a unit in the hex", so one record per hex is enough.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.core.scenario import Side
from rules.core.state import State


def controller(state: State, hex_: str) -> Side | None:
    """The side controlling a tracked hex, or None (never entered)."""
    return state.control.get(hex_)


def entered(state: State, side: Side, hexes: Iterable[str], zone: bool = True) -> None:
    """Record that a unit of ``side`` moved through (or into) ``hexes``; in place, for evolvers.
    Wilderness 19.13 (the battle's ``control_hexes.zone_of_control``): and the hexes its zone of control
    reached from each of them (``zone``: the unit has one; Road to Vicksburg 18.3: the Train has none)."""
    control = state.control
    hexes = tuple(hexes)
    for h in hexes:
        if h in control:
            control[h] = side
    held = state.game.battle.control_hexes
    if zone and held is not None and held.zone_of_control:
        zones_reached(state, side, hexes)


def zones_reached(state: State, side: Side, hexes: Iterable[str]) -> None:
    """Wilderness 19.13: "the last Player to have a unit (or Zone of Control) in the hex": each tracked
    hex a unit of ``side`` in one of ``hexes`` exerts its zone of control into (``Game.zoc_into``),
    unless an enemy unit stands in it (then that Player has a unit there)."""
    control = state.control
    game = state.game
    enemy_held = {h for u, h in state.positions.items() if game.units[u].side != side}
    for h in hexes:
        for n in game.zoc_into.get(h, ()):
            if n in control and n not in enemy_held:
                control[n] = side
