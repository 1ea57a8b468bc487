"""Helpers for the combat tests: reach a Combat Phase, declare and resolve with chosen die rolls.

The hexes of the small maps (even columns half a hex lower): 0404 touches 0403, 0504, 0505, 0405,
0305, 0304; 0505 touches 0504, 0604, 0605, 0506, 0405, 0404; 0604 touches 0603, 0704, 0705, 0605,
0505, 0504.
"""

from __future__ import annotations

import pytest

from rules.core.commands import DeclareAttack, EndPhase, ResolveAttack
from rules.core.errors import RuleViolation
from rules.reducer import decide, execute, fold


def rolls(*values: int):
    """A die that rolls ``values`` in order (and fails the test if rolled once more)."""
    it = iter(values)

    def die() -> int:
        return next(it)

    return die


def to_phase(state, side: str = "union", phase: str = "combat"):
    """End phases until ``side``'s ``phase``."""
    for _ in range(12):
        if state.phasing == side and state.phase == phase:
            return state
        state, _ = execute(state, EndPhase())
    raise AssertionError(f"never reached the {side} {phase} phase")


def declare(state, attackers, defenders):
    return execute(state, DeclareAttack(tuple(attackers), tuple(defenders)))


def attack(state, attackers, defenders, die: int, odds: str | None = None):
    """Declare and resolve one attack with the die roll ``die``; returns (state, events of both)."""
    state, first = declare(state, attackers, defenders)
    events = decide(state, ResolveAttack(odds=odds), rolls(die))
    return fold(state, events), first + events


def refused(state, command, dice=None) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        decide(state, command, dice)
    return e.value


def of_type(events, kind):
    return [e for e in events if isinstance(e, kind)]
