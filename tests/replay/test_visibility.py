"""What spectators may see of a running game (DESIGN "Replay": a spectator delay of N events or
N phases, applied everywhere a non-player sees the game)."""

from replaylog import Book

from rules.core.commands import EndPhase
from session.records import SessionOptions
from session.visibility import phase_ends, seen_by, visible_version


def test_a_delay_in_phases_hides_the_current_phase_and_the_ones_before_it():
    book = Book("phases", SessionOptions(spectator_delay_phases=1))
    start = book.version
    # Before any phase has ended, spectators see the game as play started.
    assert visible_version(book.history, 0) == start
    book.play(EndPhase())  # Union Movement Phase ends
    first_end = book.version
    assert phase_ends(book.history) == [first_end]
    book.play(EndPhase())  # Union Combat Phase (empty) ends
    second_end = book.version
    assert second_end > first_end
    # One phase behind: everything up to the end of the last completed phase, nothing after.
    assert visible_version(book.history, 0) == second_end
    assert seen_by(book.history, None) == second_end
    assert seen_by(book.history, "union") == book.version  # players see everything


def test_two_phases_behind_and_the_larger_of_two_delays_holds():
    book = Book("phases2", SessionOptions(spectator_delay_phases=2, spectator_delay=1))
    book.play(EndPhase())
    first_end = book.version
    book.play(EndPhase())
    assert visible_version(book.history, 1) == first_end  # two phases back is further than one event
    assert visible_version(book.history, 10_000) == book.history.session.start  # never before play began


def test_no_delay_shows_everything():
    book = Book("live")
    book.play(EndPhase())
    assert visible_version(book.history, 0) == book.version
