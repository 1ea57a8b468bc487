"""Units that have exited the map (Chickamauga 18.0). An exited unit is neither on the map nor
eliminated (18.3, 18.4); its exit is recorded in ``state.scored`` as ``"exited:<unit>"`` (the exit
counts toward the owner's Victory Points, 18.4), so that it is never taken for a reinforcement still
to come."""

from __future__ import annotations

from rules.core.state import State

EXITED = "exited:"


def has_exited(state: State, unit: str) -> bool:
    return EXITED + unit in state.scored


def exited(state: State) -> list[str]:
    """The units that have exited, in the order of the order of battle."""
    return [u.id for u in state.game.scenario.units if EXITED + u.id in state.scored]
