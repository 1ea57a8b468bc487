"""A pause by consent (a vacation) in a correspondence game: what a request may ask, who may answer
it, and when the game may be resumed. Pure: it reads a `History` and the time it is given.

A seat asks to stop the game's clock for 1 to `MAX_DAYS` days (``pause_requested``); the opponent
accepts (``pause_accepted``: nobody's clock runs from then for the days asked) or declines, and the
asker may withdraw, as with an undo request (session/consent.py). Either seat may end a running pause
early (``pause_resumed``). Each seat is granted at most `SEAT_DAYS` days of pause in one game; an
early resumption gives back the time not used. Only a game with a correspondence clock pauses.

During a pause no command is accepted and no game may be claimed (on time or for silence):
the refusal is ``illegal`` with the case ``pause`` and says when the pause ends; either player may
resume first. Undo, draws, resignation and chat stay open. One request at a time: none while one
is waiting or a pause runs.
"""

from __future__ import annotations

import datetime

from session import clock
from session.consent import ConsentRefused
from session.consent import check_answer as check_consent
from session.history import History
from session.records import DAY_SECONDS

CASE = "pause"
#: The longest pause one request may ask, and the pause days each seat may be granted in one game.
MAX_DAYS = 30
SEAT_DAYS = 30
DAY_MS = DAY_SECONDS * 1000


class PauseRefused(ConsentRefused):
    """A pause request, its answer or a resumption that may not be made now."""


def days_left(history: History, seat: str) -> int:
    """Whole days of pause `seat` may still ask for in this game."""
    return max(0, SEAT_DAYS * DAY_MS - history.session.pause_used.get(seat, 0)) // DAY_MS


def when(ms: int) -> str:
    """A time (ms since the epoch) in words: ISO 8601, UTC, to the minute."""
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def check_request(history: History, seat: str, days: int, *, now_ms: int) -> None:
    """May `seat` ask for a pause of `days` days now?"""
    s = history.session
    options = s.created.options.clock if s.created is not None else None
    if options is None or options.mode != "correspondence":
        raise PauseRefused(CASE, "only a game with a correspondence clock may be paused")
    if s.pause_request is not None:
        raise PauseRefused(CASE, f"a pause request (version {s.pause_request.version}) is already waiting for an answer")
    if clock.paused_at(s, now_ms):
        assert s.paused is not None  # paused at `now_ms`
        raise PauseRefused(CASE, f"the game is paused already, until {when(s.paused.until)}")
    if not 1 <= days <= MAX_DAYS:
        raise PauseRefused(CASE, f"a pause is 1 to {MAX_DAYS} days, not {days}")
    left = days_left(history, seat)
    if days > left:
        raise PauseRefused(
            CASE, f"you may ask for {left} more day(s) of pause in this game ({SEAT_DAYS} in all), not {days}"
        )


def check_answer(history: History, seat: str, request: int, answer: str) -> None:
    """May `seat` answer (``accept``, ``decline``) or ``withdraw`` the pause request at `request`?"""
    check_consent(history.session.pause_request, seat, request, answer, what="pause", case=CASE, refused=PauseRefused)


def check_resume(history: History, *, now_ms: int) -> None:
    """May the game be resumed now (by either seat)?"""
    if not clock.paused_at(history.session, now_ms):
        raise PauseRefused(CASE, "the game is not paused")


def check_not_paused(history: History, *, now_ms: int, doing: str) -> None:
    """Refuse `doing` (a sentence's subject: "a command") while the game is paused at `now_ms`."""
    s = history.session
    if clock.paused_at(s, now_ms):
        assert s.paused is not None  # paused at `now_ms`
        raise PauseRefused(
            CASE,
            f"the game is paused until {when(s.paused.until)}: {doing} waits until then, "
            "or until either player resumes it (pause_resume)",
        )
