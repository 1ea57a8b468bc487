"""Undo with the opponent's consent (DESIGN.md "Undo"; case 5.17, 6.18 in the revised book): what a
request may take back, under the game's policy. Pure: it reads a `History` and the clock it is given.

- ``consent`` (default): a request back to a version lists exactly the actions it takes back; the
  opponent accepts or declines, the requester may withdraw, and any game action appended meanwhile
  makes it lapse. It never crosses a die roll (5.14: a thrown die is irreversible) unless the game's
  ``undo_dice`` house rule allows that by consent (the next rolls are fresh: the version moved on).
- ``none`` (tournament): no undo at all.
- ``free-until-dice`` (casual): when every action taken back is the requester's own, made since the
  last die roll and since the opponent last acted, the undo happens at once without asking; any
  other request needs consent as above.

The target must be a version between two actions, at or after the start of play, not inside a
range already undone, with at least one action after it. A seat whose requests were declined or
withdrawn waits before asking again: `backoff_seconds` after the first, doubling after each more
(an accepted undo resets the count).
"""

from __future__ import annotations

from typing import NamedTuple

from session.consent import ConsentRefused
from session.consent import check_answer as check_consent
from session.history import CommandRef, History


class UndoRefused(ConsentRefused):
    """An undo request, or its answer, that may not be made now (session/consent.py)."""


class UndoPlan(NamedTuple):
    """What a request takes back, and whether the policy grants it without asking."""

    back_to: int
    takes_back: list[CommandRef]
    free: bool


def _case(history: History, name: str, default: str) -> str:
    return history.game.ruleset.cases.get(name, default) if history.game is not None else default


def backoff_wait(count: int, base_seconds: float) -> float:
    """Seconds a seat waits after `count` declined or withdrawn requests in a row."""
    return 0.0 if count <= 0 else base_seconds * 2 ** (count - 1)


def plan(history: History, seat: str, back_to: int, *, now_ms: int, backoff_seconds: float) -> UndoPlan:
    """The undo `seat` may request back to `back_to`, or UndoRefused saying why not."""
    s = history.session
    consent = _case(history, "moved_once", "5.17")
    policy = s.created.options.undo if s.created else "consent"
    if policy == "none":
        raise UndoRefused(consent, "this game is played without undo (tournament policy)")
    if s.finished is not None:
        raise UndoRefused(consent, "the game is over: nothing can be undone")
    if s.undo is not None:
        raise UndoRefused(consent, f"an undo request (version {s.undo.version}) is already waiting for an answer")
    streak = s.backoff.get(seat)
    if streak is not None:
        wait_ms = backoff_wait(streak.count, backoff_seconds) * 1000
        left = streak.last + wait_ms - now_ms
        if left > 0:
            raise UndoRefused(
                consent,
                f"your last {streak.count} undo request(s) were declined or withdrawn; "
                f"you may ask again in {left / 1000:.0f} s",
                retry_after=left / 1000,
            )
    if not s.started or back_to < s.start:
        raise UndoRefused(consent, f"version {back_to} is before the start of play (version {s.start})")
    if back_to >= history.version:
        raise UndoRefused(consent, f"version {back_to} is not in the past (the game is at {history.version})")
    if s.in_reverted(back_to):
        raise UndoRefused(consent, f"version {back_to} is inside a range that was already undone")
    for c in s.commands:
        if c.version <= back_to < c.last:
            raise UndoRefused(
                consent, f"version {back_to} is in the middle of an action (versions {c.version}-{c.last}); "
                f"go back to {c.version - 1} or {c.last}"
            )
    takes_back = [c for c in s.commands if c.version > back_to]
    if not takes_back:
        raise UndoRefused(consent, f"no action was made after version {back_to}: nothing to take back")
    rolled = [c for c in takes_back if c.rolls]
    assert s.created is not None  # a game with commands was created
    if rolled and not s.created.options.undo_dice:
        raise UndoRefused(
            _case(history, "die_thrown", "5.14"),
            f"the action at version {rolled[0].version} threw the die, and a thrown die is irreversible",
        )
    free = policy == "free-until-dice" and not rolled and all(c.seat == seat for c in takes_back)
    return UndoPlan(back_to, takes_back, free)


def check_answer(history: History, seat: str, request: int, answer: str) -> None:
    """May `seat` answer (``accept``, ``decline``) or ``withdraw`` the request at `request`?"""
    check_consent(
        history.session.undo,
        seat,
        request,
        answer,
        what="undo",
        case=_case(history, "moved_once", "5.17"),
        refused=UndoRefused,
    )
