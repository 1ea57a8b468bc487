"""The fields of a log that are derived, derived again: what `verify` must not take on trust.

A forger who edits a record and recomputes the public hash chain leaves every digest sound when the
field he changed does not enter the rules state: the ``winner`` of ``game_finished``, its ``vp``,
``result`` or ``reason``, or the ``actor`` of an envelope. Each of them follows from the fold of
the log before the event, so `check(history, envelope, item)` works it out again from `history`
(folded up to the event before `envelope`) and raises `DerivedFieldMismatch`, naming the version and
the field, when the log says otherwise:

- ``actor``: the seat the record names (``seat_joined``, ``command``, undo, draw, chat); for a
  rules event, and for a ``game_finished`` the rules caused, the seat of the command it follows;
  for an ``aborted`` one (an admin's), none; for any other ``game_finished``, ``by``; for an undo the ``free-until-dice`` policy granted, the
  requester; none for ``game_created``;
- a ``command`` record's ``seat``: the seat the game waited for (`to_act`);
- ``game_finished``: ``reason`` (``rules`` exactly when the rules state says the game is over, a
  draw only to answer the opponent's offer, a claim only against the seat the game waits for, when
  its clock has run out (``time``) or it has been silent past the game's limit
  (``abandonment``)), ``by``, ``winner`` (the rules' winner, the resigner's opponent, the claimant,
  none for a draw or an abort), ``result`` and ``vp`` (the rules state's), and ``seed_withheld``:
  the game's duplicate pair (``GameCreated.dice_stream``) exactly when it has one, with ``seed``
  then empty (a pair's game never reveals at its end the dice its pair's other game rolls);
- ``seed_revealed``: none for its ``actor`` (the server's).
"""

from __future__ import annotations

from eventstore.envelope import Envelope
from rules.core.scenario import other_side
from rules.procedures.sequence import to_act
from session import clock
from session.decide import winner_of
from session.history import History
from session.records import (
    ChatSaid,
    ChatShown,
    CommandApplied,
    DrawDeclined,
    DrawOffered,
    GameCreated,
    GameFinished,
    Record,
    SeatJoined,
    SeedRevealed,
    UndoAccepted,
    UndoDeclined,
    UndoRequested,
    UndoWithdrawn,
)


class DerivedFieldMismatch(Exception):
    """A field of the event at `version` differs from what the fold of the log before it gives."""

    def __init__(self, version: int, event_type: str, field: str, recorded: object, derived: object) -> None:
        super().__init__(
            f"version {version}: {event_type} {field} is {recorded!r}, the log before it gives {derived!r}"
        )
        self.version = version
        self.event_type = event_type
        self.field = field
        self.recorded = recorded
        self.derived = derived


def check(history: History, envelope: Envelope, item: Record | None) -> None:
    """Raise `DerivedFieldMismatch` if a derived field of `envelope` (holding the session record
    `item`, or None for a rules event) is not what `history`, folded up to the version before it,
    gives (see the module documentation)."""
    s = history.session

    def same(field: str, recorded: object, derived: object) -> None:
        if recorded != derived:
            raise DerivedFieldMismatch(envelope.version, envelope.type, field, recorded, derived)

    if item is None:
        if s.commands:  # otherwise the fold refuses it (a rules event that follows no command)
            same("actor", envelope.actor, s.commands[-1].seat)
        return
    _check_record(history, envelope, item, same)


def _check_record(history: History, envelope: Envelope, item: Record, same) -> None:
    """The derived fields of a session record: its actor, a command's seat, a game over's fields."""
    s = history.session
    match item:
        case GameCreated():
            same("actor", envelope.actor, "")
        case CommandApplied():
            same("actor", envelope.actor, item.seat)
            if history.state is not None and s.started:
                same("seat", item.seat, to_act(history.state))
        case UndoAccepted() if item.seat is None:
            same("actor", envelope.actor, s.undo.seat if s.undo is not None else None)
        case (
            SeatJoined()
            | UndoRequested()
            | UndoAccepted()
            | UndoDeclined()
            | UndoWithdrawn()
            | DrawOffered()
            | DrawDeclined()
            | ChatSaid()
            | ChatShown()
        ):
            same("actor", envelope.actor, item.seat)
        case GameFinished():
            _game_finished(history, envelope, item, same)
        case SeedRevealed():
            same("actor", envelope.actor, "")


def _game_finished(history: History, envelope: Envelope, item: GameFinished, same) -> None:
    """A game over: its fields against the rules state, its seed against the dice stream."""
    s = history.session
    if history.state is not None:
        _finished(history, envelope, item, same)
    if s.created is not None:
        same("seed_withheld", item.seed_withheld, s.created.dice_stream)
        if item.seed_withheld is not None:
            same("seed", item.seed, "")


def _finished(history: History, envelope: Envelope, item: GameFinished, same) -> None:
    """The fields of a game over: its reason, who ended it, the winner, the result and the VP."""
    s, state = history.session, history.state
    if state.game_over:
        same("reason", item.reason, "rules")
    elif item.reason == "rules":
        same("reason", item.reason, "not rules: the rules state says the game goes on")
    if item.reason == "aborted":  # an admin's: the server is its actor, no seat wins
        same("by", item.by, None)
        same("actor", envelope.actor, "")
        same("winner", item.winner, None)
    elif item.reason == "rules":
        same("by", item.by, None)
        same("actor", envelope.actor, s.commands[-1].seat if s.commands else "")
        same("winner", item.winner, winner_of(state))
    else:
        _ended_by_a_seat(s, envelope, item, same)
    same("result", item.result, state.result)
    same("vp", item.vp, dict(state.vp))


def _ended_by_a_seat(s, envelope: Envelope, item: GameFinished, same) -> None:
    """A game over that a seat brought about: a resignation, a draw agreed, a claim of abandonment
    or time."""
    same("actor", envelope.actor, item.by)
    if item.reason == "resignation":
        same("winner", item.winner, other_side(item.by) if item.by else None)
    elif item.reason == "draw":
        offered_by = s.draw.seat if s.draw is not None else None
        if offered_by is None or offered_by == item.by:
            same("reason", item.reason, "not draw: no draw offer from the other seat is open")
        same("winner", item.winner, None)
    else:  # a claim: abandonment or time
        same("winner", item.winner, item.by)
        opponent = other_side(item.by) if item.by else None
        if s.to_act != opponent:
            same("reason", item.reason, f"not {item.reason}: the game waits for {s.to_act!r}")
        elif item.reason == "time" and not clock.flag_fallen(s, opponent, envelope.time):
            same("reason", item.reason, "not time: the opponent's clock has not run out")
        elif item.reason == "abandonment":
            limit_ms = s.created.options.silence_seconds * 1000
            if envelope.time - s.waiting_since < limit_ms:
                same("reason", item.reason, "not abandonment: the opponent was not silent that long")
