"""Trenches (revised 10.33, 10.39): the markers a deployment places, and the zones of control their
hexsides stop."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.breastworks import TRENCH, Breastworks

if TYPE_CHECKING:
    from rules.core.state import State


def initial_trenches(game) -> dict[str, Breastworks]:
    """10.33: the Breastworks Markers a scenario's Initial Deployment calls for, each a Trench (10.39):
    ``[[exclusive.trenches.markers]]`` with ``hex``, ``side`` and ``facing`` (the three adjacent hexes
    across its hexsides, as a completed marker's, 10.34 ii). None in a rule set without fieldworks."""
    if not game.ruleset.deployment_trenches:
        return {}
    markers = game.battle.trenches.markers
    return {m.hex: Breastworks(status=TRENCH, side=m.side, facing=tuple(m.facing)) for m in markers}


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
