"""Removing a Breastworks Marker by choice (revised 10.37): ``RemoveBreastworks``."""

from __future__ import annotations

from rules.core.commands import RemoveBreastworks
from rules.core.errors import RuleViolation
from rules.core.events import BreastworksRemoved
from rules.core.state import State
from rules.procedures.sequence import why_phase_may_not_end

REMOVERS = ("infantry", "cavalry")


def removal_problem(state: State, hex_: str, may_end: RuleViolation | None | bool = True) -> RuleViolation | None:
    """Why the phasing player may not remove the marker of ``hex_`` now (10.37), or None. "At the end of
    any Friendly Combat Phase" is read as: in his Combat Phase, nothing pending, once the phase may end
    (every attack owed made). ``may_end``: ``why_phase_may_not_end`` when already known."""
    game = state.game
    if hex_ not in state.breastworks:
        return game.violation("breastworks.remove", f"{hex_} has no Breastworks Marker")
    if state.phase != "combat" or state.pending or state.game_over:
        return game.violation("breastworks.remove", "a Breastworks Marker is removed only at the end of a Friendly Combat Phase")
    units = game.units
    if not any(units[u].side == state.phasing and units[u].type in REMOVERS for u in state.units_in(hex_)):
        return game.violation("breastworks.remove", f"no infantry or cavalry unit of the phasing player is in {hex_}")
    problem = why_phase_may_not_end(state) if may_end is True else may_end
    if problem is not None:
        return game.violation("breastworks.remove", f"not before the Combat Phase may end: {problem}")
    return None


def removable(state: State, may_end: RuleViolation | None | bool = True) -> list[str]:
    """10.37: the hexes whose marker the phasing player may remove now."""
    if state.phase != "combat" or state.pending or not state.breastworks:
        return []
    return [h for h in sorted(state.breastworks) if removal_problem(state, h, may_end) is None]


def decide_remove(state: State, command: RemoveBreastworks, dice) -> list:
    problem = removal_problem(state, command.hex)
    if problem is not None:
        raise problem
    return [BreastworksRemoved(hex=command.hex, reason=f"removed by the {state.phasing} player at the end of his Combat Phase")]
