"""The commands of a game's effective line of play, each with the state before and after it: what a
review weighs (players/review.py). A command an accepted undo took back is not among them."""

from __future__ import annotations

from typing import NamedTuple

from eventstore.envelope import Envelope
from rules.core.commands import Command
from rules.core.commands import decode as decode_command
from rules.core.state import State
from session.games import GameCache
from session.history import History
from session.records import CommandApplied, UndoAccepted


class Step(NamedTuple):
    """One command: its version, the seat that gave it, the state before it and after its events."""

    version: int
    side: str
    before: State
    command: Command
    after: State


def steps(game_id: str, envelopes: list[Envelope], games: GameCache | None = None) -> list[Step]:
    """Every effective command of the log, in order."""
    history = History(game_id, games or GameCache())
    out: list[Step] = []
    pending: tuple[int, str, State, Command] | None = None

    def close() -> None:
        nonlocal pending
        if pending is not None:
            out.append(Step(*pending, history.state.copy()))
            pending = None

    for envelope in envelopes:
        before = history.state
        item = history.apply(envelope)
        if isinstance(item, CommandApplied):
            close()
            pending = (envelope.version, item.seat, before.copy(), decode_command(bytes(item.command)))
        elif isinstance(item, UndoAccepted):
            close()
            out = [s for s in out if s.version <= item.back_to]
    close()
    return out
