"""The dispatch tables of the reducer: one decider per command type, one evolver per event type.

Topic modules (movement, reinforcements, sequence; combat later) register into them with
``@decider(CommandType)`` and ``@evolver(EventType)``; ``rules.reducer`` imports every topic and
dispatches. This module imports no topic, so any topic may be imported first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.commands import Command
from rules.events import Event
from rules.state import State

#: A source of die rolls for ``decide``: called with no argument, returns 1..6. Deciders that roll
#: write each roll into the events they return.
Dice = Callable[[], int]

Decider = Callable[[State, Any, Dice | None], list[Event]]
Evolver = Callable[[State, Any], None]

DECIDERS: dict[type, Decider] = {}
EVOLVERS: dict[type, Evolver] = {}
#: Called by ``decide`` after every command with the state before it and its events; returns events
#: that follow from them whatever the command was (victory points for eliminations, 20.11).
AFTER_COMMAND: list[Callable[[State, list[Event]], list[Event]]] = []


def decider(command_type: type[Command]):
    """Register the function that decides ``command_type``."""

    def register(fn: Decider) -> Decider:
        if command_type in DECIDERS:
            raise ValueError(f"{command_type.__name__} already has a decider")
        DECIDERS[command_type] = fn
        return fn

    return register


def evolver(event_type: type[Event]):
    """Register the function that applies ``event_type`` to a state (in place)."""

    def register(fn: Evolver) -> Evolver:
        if event_type in EVOLVERS:
            raise ValueError(f"{event_type.__name__} already has an evolver")
        EVOLVERS[event_type] = fn
        return fn

    return register


def after_command(fn):
    """Register a function called after every command (see ``AFTER_COMMAND``)."""
    AFTER_COMMAND.append(fn)
    return fn


def apply(state: State, event: Event) -> None:
    """Apply one event to ``state`` in place."""
    EVOLVERS[type(event)](state, event)
