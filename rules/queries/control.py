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


def entered(state: State, side: Side, hexes: Iterable[str]) -> None:
    """Record that a unit of ``side`` moved through (or into) ``hexes``; in place, for evolvers."""
    control = state.control
    for h in hexes:
        if h in control:
            control[h] = side
