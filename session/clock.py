"""A game's clock (`session.records.ClockOptions`), kept by the fold from the times the store gave
the events (`Envelope.time`), never from the wall clock: the time between two events is charged to
the seat the game waited for in between, so every replay of a log shows the same clocks.

The clock lives in the session (`session.history.Session`): ``clocks`` (milliseconds left to each
seat at ``clock_at``, the time of the last event folded) and ``clock_turns`` (the Player-Turns,
[Game-Turn, phasing side], in which each seat was given its time already: an undo never gives it
twice). Whether a seat's time has run out *now* is a question asked with the time of the asking
(`left`, `flag_fallen`): the server's decisions get it from their caller, as the silence claim does.

A consented pause (session/pause.py) stops every clock: ``session.paused`` is the running pause
(since, until: event times), and no time between them is charged (`paused_ms`); the fold ends it
(`pause_over`) at the first event at or after its end, an early ``pause_resumed`` included.
"""

from __future__ import annotations

from session.records import DAY_SECONDS, ClockOptions

#: The shortest bank and the longest allowances a game may be created with.
MIN_BANK_SECONDS = 1
MAX_BANK_SECONDS = 24 * 3600
MAX_INCREMENT_SECONDS = 3600
MAX_DAYS_PER_TURN = 60


def problem(clock: ClockOptions) -> str | None:
    """Why these clock options may not start a game (None: they may)."""
    if clock.mode == "live":
        if not MIN_BANK_SECONDS <= clock.bank_seconds <= MAX_BANK_SECONDS:
            return f"a live clock's bank_seconds is {MIN_BANK_SECONDS} to {MAX_BANK_SECONDS}"
        if not 0 <= clock.increment_seconds <= MAX_INCREMENT_SECONDS:
            return f"a live clock's increment_seconds is 0 to {MAX_INCREMENT_SECONDS}"
        if clock.days_per_turn:
            return "days_per_turn is for a correspondence clock"
    else:
        if not 1 <= clock.days_per_turn <= MAX_DAYS_PER_TURN:
            return f"a correspondence clock's days_per_turn is 1 to {MAX_DAYS_PER_TURN}"
        if clock.bank_seconds or clock.increment_seconds:
            return "bank_seconds and increment_seconds are for a live clock"
    return None


def start(session, clock: ClockOptions, seats, time_ms: int) -> None:
    """Play starts at `time_ms`: each seat's bank (a live clock), nothing yet (correspondence: the
    time is given turn by turn)."""
    first = clock.bank_seconds * 1000 if clock.mode == "live" else 0
    session.clocks = {seat: first for seat in seats}
    session.clock_turns = {seat: [] for seat in seats}
    session.clock_at = time_ms


def charge(session, waited: str | None, time_ms: int) -> None:
    """An event at `time_ms`: the time since the last one goes off the clock of `waited`, the seat
    the game waited for until then (None: nobody's clock ran)."""
    if waited is not None and waited in session.clocks:
        session.clocks[waited] -= max(0, time_ms - session.clock_at) - paused_ms(session, session.clock_at, time_ms)
    session.clock_at = max(session.clock_at, time_ms)


def give(session, clock: ClockOptions, to_act: str | None, turn: int, phasing: str) -> None:
    """After an event: the seat to act gets its time for this Player-Turn, once. A live clock adds
    the increment at the start of each of the seat's own Player-Turns; a correspondence clock gives
    `days_per_turn` days for each Player-Turn in which the seat must act."""
    if to_act is None or to_act not in session.clocks:
        return
    seat = phasing if clock.mode == "live" else to_act
    key = (turn, phasing)
    given = session.clock_turns.setdefault(seat, [])
    if key in given:
        return
    if clock.mode == "live":
        if seat != to_act:  # the phasing seat's turn began with a decision of the other seat's
            return
        given.append(key)
        session.clocks[seat] += clock.increment_seconds * 1000
    else:
        given.append(key)
        session.clocks[seat] = clock.days_per_turn * DAY_SECONDS * 1000


def left(session, seat: str, now_ms: int) -> int | None:
    """Milliseconds left on `seat`'s clock at `now_ms` (negative: its time ran out); None: no clock."""
    if seat not in session.clocks:
        return None
    if session.to_act != seat or session.finished is not None:
        return session.clocks[seat]
    used = max(0, now_ms - session.clock_at) - paused_ms(session, session.clock_at, now_ms)
    return session.clocks[seat] - used


def flag_fallen(session, seat: str, now_ms: int) -> bool:
    """Has `seat`'s time run out at `now_ms`?"""
    remaining = left(session, seat, now_ms)
    return remaining is not None and remaining <= 0


def paused_ms(session, from_ms: int, to_ms: int) -> int:
    """How much of the time from `from_ms` to `to_ms` the running pause covers (0: none)."""
    pause = session.paused
    if pause is None:
        return 0
    return max(0, min(to_ms, pause.until) - max(from_ms, pause.since))


def paused_at(session, now_ms: int) -> bool:
    """Is the game paused at `now_ms`?"""
    pause = session.paused
    return pause is not None and pause.since <= now_ms < pause.until


def pause_over(session, time_ms: int) -> None:
    """An event at `time_ms` (its time already charged): a pause that has ended by then is over, and
    the silence of the seat to act is counted without it (``waiting_since`` moves on by the pause)."""
    pause = session.paused
    if pause is not None and time_ms >= pause.until:
        session.waiting_since += paused_ms(session, session.waiting_since, time_ms)
        session.paused = None


def falls_at(session, seat: str) -> int | None:
    """When `seat`'s flag falls if nothing more happens (ms; a running pause counted out), or None:
    no clock, or the game does not wait for `seat`."""
    if seat not in session.clocks or session.to_act != seat or session.finished is not None:
        return None
    start = session.clock_at
    pause = session.paused
    if pause is not None and pause.until > start:
        start = pause.until
    return start + session.clocks[seat]
