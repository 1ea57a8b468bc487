"""Fieldworks (revised 10.3): the Breastworks Markers on the map, as the state holds them.

``state.breastworks`` maps a hex to its ``Breastworks`` marker (10.36: never more than one per hex):

- ``status`` "building": the Under Construction side (10.32, 10.34 i), placed on an infantry unit
  that did not move; "breastworks": flipped (10.34 ii) with its ``facing``, the three adjacent hexes
  whose hexsides it covers (10.34 ii, 10.38); "trench": placed at set-up (10.33, 10.39).
- ``side``: whose marker; ``unit``: the unit that built it; ``turn``: the Game-Turn it was begun.

The mechanics (commands, choices, removal) are in rules/revised_movement.py; the combat effects
(10.38: one column left when attacked entirely through the facing; one right while under
construction, 10.34 i, which also removes the Under Construction Marker of a unit attacked, so of one
retreating from a bombardment, 10.35) are the combat rules'.

10.37, removing a marker by choice, is here: ``RemoveBreastworks`` (its decider registered by
rules/reducer.py: this module is imported by rules/state.py, so it imports no rules topic itself).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.commands import RemoveBreastworks

if TYPE_CHECKING:
    from rules.errors import RuleViolation
    from rules.state import State

BUILDING = "building"
BREASTWORKS = "breastworks"
TRENCH = "trench"


class Breastworks(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    status: str
    side: str
    unit: str | None = None
    turn: int = 0
    facing: tuple[str, ...] = ()

    def covers(self, from_hex: str) -> bool:
        """10.38: is an attack from ``from_hex`` through one of the marker's hexsides?"""
        return self.status != BUILDING and from_hex in self.facing


# -- 10.33, 10.39: trenches ------------------------------------------------------------------------------
def initial_trenches(game) -> dict[str, Breastworks]:
    """10.33: the Breastworks Markers a scenario's Initial Deployment calls for, each a Trench (10.39):
    ``[[exclusive.trenches.markers]]`` with ``hex``, ``side`` and ``facing`` (the three adjacent hexes
    across its hexsides, as a completed marker's, 10.34 ii). None in a rule set without fieldworks."""
    if not game.ruleset.deployment_trenches:
        return {}
    markers = (game.exclusive.get("trenches") or {}).get("markers") or []
    return {m["hex"]: Breastworks(status=TRENCH, side=m["side"], facing=tuple(m["facing"])) for m in markers}


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


# -- 10.37: removing a marker by choice ----------------------------------------------------------------
REMOVERS = ("infantry", "cavalry")


def removal_problem(state: State, hex_: str, may_end: RuleViolation | None | bool = True) -> RuleViolation | None:
    """Why the phasing player may not remove the marker of ``hex_`` now (10.37), or None. "At the end of
    any Friendly Combat Phase" is read as: in his Combat Phase, nothing pending, once the phase may end
    (every attack owed made). ``may_end``: ``why_phase_may_not_end`` when already known."""
    from rules.sequence import why_phase_may_not_end

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
    from rules.events import BreastworksRemoved

    return [BreastworksRemoved(hex=command.hex, reason=f"removed by the {state.phasing} player at the end of his Combat Phase")]
