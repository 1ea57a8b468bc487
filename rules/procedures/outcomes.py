"""What combat leaves behind: units eliminated, decisions the game waits for (rules/core/decisions.py), and
the decisions that make themselves.

- ``UnitEliminated``: a unit removed from play (7.6 results, no retreat open 7.72, 7.82, 16.11,
  19.13), with the case that removed it; any retreat it still owed goes with it.
- ``DecisionsAwaited``: decisions added to ``state.pending`` (at the end, or first: a displaced
  unit's retreat comes before anything else, 7.81).
- ``DecisionDeclined``: the first pending decision dropped: an optional one declined (an advance,
  7.75 "a unit is never forced to advance"; bombarding artillery's elective retreat, 8.16), or one
  that lapsed because nothing could be done (no unit able to advance).

``settle`` runs after every command that makes or creates decisions: while the first pending
decision leaves its player no choice (a retreat with no hex open eliminates the unit; an advance
nobody can make lapses) it is applied at once, and, with the game option ``auto_single_choice``, so is
one with a single option. What "no choice" means for each decision type is in the rule set's handler
table (``Handlers.automatic``).
"""

from __future__ import annotations

from rules.core.decisions import PendingRetreat
from rules.core.events import DecisionDeclined, DecisionsAwaited, Event, UnitEliminated
from rules.core.handlers import Emitted, apply
from rules.core.state import State

#: Option name: apply a pending decision by itself when it has exactly one legal option.
AUTO_SINGLE_CHOICE = "auto_single_choice"


def apply_unit_eliminated(state: State, event: UnitEliminated) -> None:
    state.positions.pop(event.unit, None)
    state.eliminated.append(event.unit)
    state.ineffective.discard(event.unit)
    state.engaged.discard(event.unit)
    if any(isinstance(p, PendingRetreat) and p.unit == event.unit for p in state.pending):
        state.pending = [p for p in state.pending if not (isinstance(p, PendingRetreat) and p.unit == event.unit)]


def apply_decisions_awaited(state: State, event: DecisionsAwaited) -> None:
    if event.first:
        state.pending = [*event.decisions, *state.pending]
    else:
        state.pending = [*state.pending, *event.decisions]


def apply_decision_declined(state: State, event: DecisionDeclined) -> None:
    state.pending = state.pending[1:]


class Emitter:
    """Events decided so far and a scratch state with them applied (``emit(event, ...)``)."""

    __slots__ = ("state", "events")

    def __init__(self, state: State):
        self.state = state.copy()
        self.events: list[Event] = Emitted(self.state)  # a decider may return them with their state

    def __call__(self, *events: Event) -> None:
        for e in events:
            apply(self.state, e)
            self.events.append(e)


def auto_single_choice(state: State) -> bool:
    return bool(state.options.get(AUTO_SINGLE_CHOICE, False))


def settle(emit: Emitter) -> None:
    """Apply every first pending decision that leaves no choice (see the module's docstring)."""
    state = emit.state
    while state.pending and not state.game_over:
        head = state.pending[0]
        rule = state.game.ruleset.handlers.automatic.get(type(head))
        events = rule(state, head) if rule else None
        if not events:
            return
        emit(*events)
