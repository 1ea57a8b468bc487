"""Random self-play: a player that picks uniformly among the legal choices. Pure: it takes a
``random.Random`` and returns commands and events; nothing is read or written.

Issue 4 extends ``random_command`` with combat choices (and a greedy player).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from rules.commands import Command, EndPhase, EnterReinforcement, MoveUnit
from rules.events import Event
from rules.legal import Choices, choices
from rules.reducer import Dice, decide, fold
from rules.state import State


def random_command(state: State, rng: random.Random, end_weight: float = 0.15, legal: Choices | None = None) -> Command:
    """A legal command picked at random: end the phase with probability ``end_weight`` when it may
    end, else move (or enter) a random unit to a random destination."""
    legal = choices(state) if legal is None else legal
    movers = [("move", u) for u in legal.moves] + [("enter", u) for u in legal.reinforcements]
    if legal.may_end_phase and (not movers or rng.random() < end_weight):
        return EndPhase()
    if not movers:
        # Nothing to move and the phase may not end: a dead end, which the rules must never allow.
        raise AssertionError(f"dead end: {legal.end_phase_refused}")
    kind, unit = movers[rng.randrange(len(movers))]
    table = legal.moves if kind == "move" else legal.reinforcements
    dests = sorted(table[unit])
    dest = table[unit][dests[rng.randrange(len(dests))]]
    return MoveUnit(unit, dest.path) if kind == "move" else EnterReinforcement(unit, dest.path)


def dice_from(rng: random.Random) -> Dice:
    return lambda: rng.randint(1, 6)


def play(state: State, rng: random.Random, max_commands: int = 10_000) -> Iterator[tuple[State, Command, list[Event]]]:
    """Play random legal commands until the game ends (or ``max_commands``); yields the state before
    each command, the command and its events."""
    dice = dice_from(rng)
    for _ in range(max_commands):
        if state.game_over:
            return
        command = random_command(state, rng)
        events = decide(state, command, dice)
        yield state, command, events
        state = fold(state, events)


def play_game(state: State, rng: random.Random, max_commands: int = 10_000) -> tuple[State, list[Event]]:
    """A whole random game: the final state and every event."""
    log: list[Event] = []
    final = state
    for before, _command, events in play(state, rng, max_commands):
        log.extend(events)
        final = fold(before, events)
    return final, log
