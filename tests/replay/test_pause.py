"""A pause by consent in a correspondence game (session/pause.py): asked, accepted, declined or
withdrawn like an undo request; while it runs nobody's clock runs and nothing is claimed; it ends at
its agreed length or when either seat resumes; all of it folded from the event times, so a replay
shows the same clocks."""

import pytest
from replaylog import GAMES, SEED, Book

from rules.core.commands import EndPhase
from session import clock, decide, pause
from session.history import History, HistoryError, fold_envelopes
from session.records import DAY_SECONDS, ClockOptions, PauseAccepted, SessionOptions

DAY = DAY_SECONDS * 1000
POST = SessionOptions(clock=ClockOptions(mode="correspondence", days_per_turn=3))


def paused_book(days: int = 5) -> tuple[Book, int]:
    """A correspondence game in which Union asked for `days` days and the Confederate agreed, an
    hour into Union's Player-Turn; returns the book and the time of the acceptance."""
    book = Book(options=POST)
    book.clock += 3_600_000
    book.append(decide.pause_request(book.history, "union", days, now_ms=book.clock))
    request = book.version
    book.append(decide.pause_answer(book.history, "confederate", request, "accept"))
    return book, book.clock


def test_while_paused_no_clock_runs_and_the_pause_ends_at_its_agreed_length():
    book, since = paused_book(days=5)
    s = book.history.session
    assert (s.paused.since, s.paused.until) == (since, since + 5 * DAY)
    assert clock.left(s, "union", since + 4 * DAY) == 3 * DAY - 3_600_000  # only the hour before it
    assert clock.left(s, "union", since + 5 * DAY + 1_000) == 3 * DAY - 3_600_000 - 1_000
    book.clock = since + 6 * DAY  # the next event, a day after the pause ended
    book.play(EndPhase())
    assert s.paused is None
    assert s.clocks["union"] == 3 * DAY - 3_600_000 - DAY
    assert s.pause_used == {"union": 5 * DAY}


def test_commands_and_claims_are_refused_while_paused_and_either_seat_may_resume():
    book, since = paused_book(days=5)
    h = book.history
    with pytest.raises(decide.ActionRefused) as refused:
        decide.command(h, "union", EndPhase(), SEED, now_ms=since + DAY)
    assert (refused.value.code, refused.value.case) == ("illegal", "pause")
    assert "paused until" in refused.value.message and "pause_resume" in refused.value.message
    with pytest.raises(decide.ActionRefused) as claim:
        decide.claim(h, "confederate", SEED, now_ms=since + DAY)
    assert claim.value.case == "pause"
    with pytest.raises(decide.ActionRefused) as twice:
        decide.pause_request(h, "confederate", 1, now_ms=since + DAY)
    assert twice.value.case == "pause" and "paused already" in twice.value.message
    book.clock = since + 2 * DAY
    book.append(decide.pause_resume(h, "confederate", now_ms=book.clock))  # either seat
    assert h.session.paused is None
    assert h.session.pause_used == {"union": 2 * DAY}  # the 3 days not used are given back
    decide.command(h, "union", EndPhase(), SEED, now_ms=book.clock + 1)  # play goes on
    assert clock.left(h.session, "union", book.clock + 1_000) == 3 * DAY - 3_600_000 - 1_000
    with pytest.raises(decide.ActionRefused) as not_paused:
        decide.pause_resume(h, "union", now_ms=book.clock + 1_000)
    assert not_paused.value.message == "the game is not paused"


def test_the_silence_claim_does_not_count_the_pause():
    book = Book(options=SessionOptions(silence_seconds=2 * DAY_SECONDS, clock=POST.clock))
    start = book.clock
    book.append(decide.pause_request(book.history, "union", 3, now_ms=start))
    book.append(decide.pause_answer(book.history, "confederate", book.version, "accept"))
    h = book.history
    with pytest.raises(decide.ActionRefused) as early:  # 4 days since, 3 of them paused: 1 day silent
        decide.claim(h, "confederate", SEED, now_ms=start + 4 * DAY)
    assert early.value.case == "abandonment" and early.value.retry_after == pytest.approx(DAY_SECONDS)


def test_a_request_is_answered_by_the_opponent_and_withdrawn_only_by_the_asker():
    book = Book(options=POST)
    h = book.history
    now = book.clock
    book.append(decide.pause_request(h, "union", 2, now_ms=now))
    request = book.version
    with pytest.raises(decide.ActionRefused) as own:
        decide.pause_answer(h, "union", request, "accept")
    assert own.value.message == "a pause needs the consent of the opposing player, not your own"
    with pytest.raises(decide.ActionRefused) as other:
        decide.pause_answer(h, "confederate", request, "withdraw")
    assert other.value.message == "only the player who asked may withdraw a pause request"
    with pytest.raises(decide.ActionRefused) as second:
        decide.pause_request(h, "confederate", 1, now_ms=now)
    assert "already waiting" in second.value.message
    book.append(decide.pause_answer(h, "confederate", request, "decline"))
    assert h.session.pause_request is None and h.session.paused is None
    with pytest.raises(decide.ActionRefused) as answered:
        decide.pause_answer(h, "confederate", request, "accept")
    assert answered.value.message == f"no pause request at version {request} is waiting (it was answered or lapsed)"
    book.append(decide.pause_request(h, "union", 2, now_ms=now))
    book.append(decide.pause_answer(h, "union", book.version, "withdraw"))
    assert h.session.pause_request is None and h.session.pause_used == {}


def test_the_days_of_one_request_and_of_a_seat_in_one_game_are_limited():
    book = Book(options=POST)
    h = book.history
    for days in (0, pause.MAX_DAYS + 1):
        with pytest.raises(decide.ActionRefused) as bad:
            decide.pause_request(h, "union", days, now_ms=book.clock)
        assert bad.value.message == f"a pause is 1 to {pause.MAX_DAYS} days, not {days}"
    book.append(decide.pause_request(h, "union", 25, now_ms=book.clock))
    book.append(decide.pause_answer(h, "confederate", book.version, "accept"))
    book.clock += 25 * DAY
    with pytest.raises(decide.ActionRefused) as over:
        decide.pause_request(h, "union", 6, now_ms=book.clock)
    assert over.value.message == "you may ask for 5 more day(s) of pause in this game (30 in all), not 6"
    assert pause.days_left(h, "confederate") == 30  # the limit is each seat's own


def test_only_a_correspondence_game_pauses():
    for options in (SessionOptions(), SessionOptions(clock=ClockOptions(mode="live", bank_seconds=60))):
        book = Book(options=options)
        with pytest.raises(decide.ActionRefused) as refused:
            decide.pause_request(book.history, "union", 1, now_ms=book.clock)
        assert refused.value.message == "only a game with a correspondence clock may be paused"


def test_a_replay_and_a_snapshot_show_the_same_clocks_and_pause():
    book, since = paused_book(days=4)
    snapshot = book.history.snapshot()
    book.clock = since + DAY
    book.append(decide.pause_resume(book.history, "union", now_ms=book.clock))
    book.clock += 7_000
    book.play(EndPhase())
    again = fold_envelopes(book.game_id, GAMES, book.envelopes, check_digests=True)
    restored = History.from_snapshot(book.game_id, GAMES, snapshot)
    for envelope in book.envelopes[restored.version :]:
        restored.apply(envelope, check_digest=True)
    for h in (again, restored):
        assert h.session.clocks == book.history.session.clocks
        assert h.session.pause_used == book.history.session.pause_used == {"union": DAY}
        assert h.session.paused is None


def test_the_fold_refuses_an_acceptance_of_no_request():
    book = Book(options=POST)
    event = decide.record_event(PauseAccepted(seat="confederate", request=99), book.history.digest(), "confederate")
    with pytest.raises(HistoryError) as refused:
        book.append([event])
    assert "answers no open pause request at 99" in str(refused.value)


def test_the_flag_falls_later_by_the_pause():
    book, since = paused_book(days=5)
    s = book.history.session
    left = s.clocks["union"]
    assert clock.falls_at(s, "union") == since + 5 * DAY + left
    assert clock.left(s, "union", since + 5 * DAY + left) == 0
    assert clock.falls_at(s, "confederate") is None  # the game does not wait for him
