"""The game clock (session/clock.py): kept by the fold from the times stamped on the events, so the
same log always gives the same clocks; a seat whose time has run out may not act, and its opponent
claims the game on time."""

import pytest
from replaylog import GAMES, SEED, Book

from rules.core.commands import EndPhase
from session import decide
from session.history import History, fold_envelopes
from session.records import DAY_SECONDS, ClockOptions, SessionOptions

LIVE = SessionOptions(clock=ClockOptions(mode="live", bank_seconds=60, increment_seconds=10))
POST = SessionOptions(clock=ClockOptions(mode="correspondence", days_per_turn=2))


def end_phases(book: Book, waits_ms: list[int]) -> None:
    for wait in waits_ms:
        book.clock += wait
        book.play(EndPhase())


def test_a_live_clock_charges_the_seat_waited_for_and_adds_the_increment_each_player_turn():
    book = Book(options=LIVE)
    s = book.history.session
    assert (book.state.turn, book.state.phasing, s.to_act) == (1, "union", "union")
    assert s.clocks == {"union": 70_000, "confederate": 60_000}  # the bank, and the increment of Union's first Player-Turn
    end_phases(book, [1_000, 2_000])  # Union's Movement and Combat Phases: 3 s of Union's time
    assert (book.state.phasing, s.to_act) == ("confederate", "confederate")
    assert s.clocks == {"union": 67_000, "confederate": 70_000}
    end_phases(book, [3_000, 4_000])  # the Confederate Player-Turn; Game-Turn 2 begins with Union's
    assert (book.state.turn, book.state.phasing) == (2, "union")
    assert s.clocks == {"union": 77_000, "confederate": 63_000}  # one increment each Player-Turn, never two
    assert s.clock_at == book.clock  # the time of the last event, not the wall clock


def test_a_correspondence_clock_gives_the_days_anew_each_player_turn():
    book = Book(options=POST)
    s = book.history.session
    two_days = 2 * DAY_SECONDS * 1000
    assert s.clocks == {"union": two_days, "confederate": 0}
    end_phases(book, [DAY_SECONDS * 1000, 5_000])  # a day and 5 s of Union's Player-Turn
    assert s.clocks == {"union": two_days - DAY_SECONDS * 1000 - 5_000, "confederate": two_days}
    end_phases(book, [7_000, 1_000])
    assert s.clocks == {"union": two_days, "confederate": two_days - 8_000}  # nothing carried over


def test_the_same_log_folds_to_the_same_clocks_and_a_snapshot_keeps_them():
    book = Book(options=LIVE)
    end_phases(book, [1_500, 20, 7_000, 333])
    again = fold_envelopes(book.game_id, GAMES, book.envelopes, check_digests=True)
    assert again.session.clocks == book.history.session.clocks
    assert again.session.clock_turns == book.history.session.clock_turns
    restored = History.from_snapshot(book.game_id, GAMES, book.history.snapshot())
    assert restored.session.clocks == book.history.session.clocks
    book.clock += 2_000
    book.play(EndPhase())
    for envelope in book.envelopes[restored.version :]:
        restored.apply(envelope, check_digest=True)
    assert restored.session.clocks == book.history.session.clocks
    assert restored.session.clock_turns == book.history.session.clock_turns


def test_a_seat_out_of_time_may_not_act_and_its_opponent_claims_the_game_on_time():
    book = Book(options=SessionOptions(clock=ClockOptions(mode="live", bank_seconds=5)))
    h = book.history
    start = book.clock
    with pytest.raises(decide.ActionRefused) as early:  # 4.9 s used of 5
        decide.claim(h, "confederate", SEED, now_ms=start + 4_900)
    assert early.value.case == "clock" and early.value.retry_after == pytest.approx(0.1)
    decide.command(h, "union", EndPhase(), SEED, now_ms=start + 4_900)  # still in time
    with pytest.raises(decide.ActionRefused) as late:
        decide.command(h, "union", EndPhase(), SEED, now_ms=start + 5_000)
    assert late.value.code == "illegal" and late.value.case == "clock"
    with pytest.raises(decide.ActionRefused):  # the game waits for Union, not for the Confederate
        decide.claim(h, "union", SEED, now_ms=start + 60_000)
    book.clock = start + 6_250
    book.append(decide.claim(h, "confederate", SEED, now_ms=book.clock))
    finished = h.finished
    assert (finished.reason, finished.by, finished.winner) == ("time", "confederate", "confederate")
    assert h.session.clocks["union"] == 5_000 - 6_250  # charged up to the claim's own time


def test_a_log_written_without_the_time_of_asking_is_not_timed():
    book = Book(options=SessionOptions(clock=ClockOptions(mode="live", bank_seconds=1)))
    book.clock += 3_600_000
    book.play(EndPhase())  # replays and tests decide without now_ms: nothing is refused
    assert book.history.session.clocks["union"] == 1_000 - 3_600_000


def test_a_game_without_a_clock_keeps_none():
    book = Book()
    end_phases(book, [1_000, 1_000])
    assert book.history.session.clocks == {}


def test_an_undo_gives_no_time_twice_and_takes_none_back():
    """An accepted undo (5.17) back across the start of a Player-Turn: the time spent stays spent (the
    clock of the seat the game waits for runs while a request waits for its answer, as a takeback
    offer leaves a chess clock running), and the Player-Turn entered again brings no second increment."""
    book = Book(options=LIVE)
    s = book.history.session
    end_phases(book, [1_000])  # Union's Movement Phase ends
    back_to = book.version
    end_phases(book, [2_000])  # Union's Combat Phase ends: the Confederate Player-Turn, +10 s
    assert s.clocks == {"union": 67_000, "confederate": 70_000}
    book.clock += 500  # the Confederate asks at once; Union consents 1.5 s later
    book.append(decide.undo_request(book.history, "confederate", back_to, now_ms=book.clock, backoff_seconds=0))
    book.clock += 1_500
    book.append(decide.undo_answer(book.history, "union", book.version, "accept"))
    assert (book.state.phasing, book.state.phase, s.to_act) == ("union", "combat", "union")
    assert s.clocks == {"union": 67_000, "confederate": 70_000 - 2_000}  # the game waited for the Confederate
    end_phases(book, [4_000])  # the Confederate Player-Turn again: no second increment
    assert s.clocks == {"union": 67_000 - 4_000, "confederate": 68_000}
