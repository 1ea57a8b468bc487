"""Undo by consent (5.17) under each policy: what a request takes back, who may answer, the die
(5.14), targets, back-off."""

import random

import pytest
from replaylog import Book

from rules.core.commands import EndPhase
from session import decide, records
from session.records import SessionOptions, UndoAccepted, UndoRequested
from session.undo import backoff_wait

MINUTE = 60


def request(book: Book, seat: str, back_to: int, backoff: float = MINUTE):
    return book.append(decide.undo_request(book.history, seat, back_to, now_ms=book.clock, backoff_seconds=backoff))


def refused(book: Book, seat: str, back_to: int, match: str, backoff: float = MINUTE):
    with pytest.raises(decide.ActionRefused, match=match) as info:
        decide.undo_request(book.history, seat, back_to, now_ms=book.clock, backoff_seconds=backoff)
    assert info.value.code == "illegal" and info.value.case
    return info.value


def started(options: SessionOptions | None = None, moves: int = 3, seed: int = 1) -> tuple[Book, int, random.Random]:
    """A game where the Union made one move, then `moves` more (the target is after the first)."""
    book = Book(options=options)
    rng = random.Random(seed)
    book.move(rng, 1)
    target = book.version
    book.move(rng, moves)
    return book, target, rng


def test_a_request_lists_exactly_the_actions_it_takes_back():
    book, target, _ = started()
    commands = [c for c in book.history.session.commands if c.version > target]
    (envelope,) = request(book, "union", target)
    record = records.decode(envelope.payload)
    assert isinstance(record, UndoRequested)
    assert [(t.version, t.seat, bytes(t.command)) for t in record.takes_back] == [
        (c.version, c.seat, c.command) for c in commands
    ]
    assert len(record.takes_back) == 3


def test_accepted_declined_withdrawn():
    book, target, _ = started()
    request(book, "union", target)
    with pytest.raises(decide.ActionRefused, match="consent of the opposing player"):
        decide.undo_answer(book.history, "union", book.version, "accept")
    with pytest.raises(decide.ActionRefused, match="only the player who asked"):
        decide.undo_answer(book.history, "confederate", book.version, "withdraw")
    book.append(decide.undo_answer(book.history, "union", book.version, "withdraw"))
    assert book.history.session.undo is None and book.history.session.backoff["union"].count == 1

    book.clock += backoff_wait(1, MINUTE) * 1000
    request(book, "union", target)
    book.append(decide.undo_answer(book.history, "confederate", book.version, "decline"))
    assert book.history.session.backoff["union"].count == 2

    book.clock += backoff_wait(2, MINUTE) * 1000
    request(book, "union", target)
    book.append(decide.undo_answer(book.history, "confederate", book.version, "accept"))
    assert "union" not in book.history.session.backoff  # an accepted undo resets the back-off
    assert [c.version for c in book.history.session.commands][-1] <= target


def test_back_off_escalates_after_each_declined_or_withdrawn_request():
    assert [backoff_wait(n, 10) for n in range(4)] == [0, 10, 20, 40]
    book, target, _ = started()
    request(book, "union", target)
    book.append(decide.undo_answer(book.history, "confederate", book.version, "decline"))
    error = refused(book, "union", target, "may ask again")
    assert error.retry_after == pytest.approx(MINUTE)
    book.clock += MINUTE * 1000 - 1
    refused(book, "union", target, "may ask again")
    book.clock += 1
    request(book, "union", target)
    book.append(decide.undo_answer(book.history, "confederate", book.version, "decline"))
    book.clock += MINUTE * 1000  # the second refusal doubled the wait
    assert refused(book, "union", target, "may ask again").retry_after == pytest.approx(MINUTE)


def test_only_one_request_at_a_time_and_none_when_the_policy_says_so():
    book, target, _ = started()
    request(book, "union", target)
    refused(book, "confederate", target, "already waiting")
    no_undo, target, _ = started(SessionOptions(undo="none"))
    refused(no_undo, "union", target, "without undo")


def test_targets_must_be_between_two_past_actions_after_the_start():
    book, target, _ = started()
    start = book.history.session.start
    refused(book, "union", start - 1, "before the start")
    refused(book, "union", book.version, "not in the past")
    last = book.history.session.commands[-1]
    if last.last > last.version:
        refused(book, "union", last.version, "middle of an action")
    book.append(decide.chat(book.history, "union", "one moment"))
    refused(book, "union", book.version - 1, "nothing to take back")


def test_an_undo_never_crosses_a_die_roll_unless_the_house_rule_allows_it():
    for options, allowed in ((SessionOptions(), False), (SessionOptions(undo_dice=True), True)):
        book = Book(options=options)
        rng = random.Random(2)
        book.move(rng, 1)
        target = book.version
        book.rolled(EndPhase(), rolls=(3,))  # as if ending the phase had thrown the die
        book.move(rng, 1)
        if allowed:
            request(book, book.history.session.to_act, target)
        else:
            error = refused(book, book.history.session.to_act, target, "irreversible")
            assert error.case == "5.14"
            after_roll = book.history.session.commands[-1].version - 1
            request(book, book.history.session.to_act, after_roll)  # after the roll: fine


def test_free_until_dice_undoes_own_actions_at_once_and_asks_for_the_rest():
    book, target, rng = started(SessionOptions(undo="free-until-dice"))
    envelopes = request(book, "union", target)
    assert [records.decode(e.payload).__class__ for e in envelopes] == [UndoRequested, UndoAccepted]
    assert book.history.session.undo is None and book.history.session.reverted
    resumed = book.version
    # Across the opponent's actions: consent is needed.
    book.play(EndPhase())
    book.play(EndPhase())
    book.move(rng, 1)  # the Confederate moves
    book.play(EndPhase())
    book.play(EndPhase())  # back to the Union
    book.move(rng, 1)
    envelopes = request(book, "union", resumed)
    assert len(envelopes) == 1 and book.history.session.undo is not None


def test_the_state_at_the_target_carries_the_phase_and_who_acts():
    book, _, rng = started()
    book.play(EndPhase())
    target = book.version
    before = (book.state.phase, book.history.session.to_act, book.history.digest())
    book.play(EndPhase())
    book.move(rng, 2)
    request(book, "confederate", target)
    book.append(decide.undo_answer(book.history, "union", book.version, "accept"))
    assert (book.state.phase, book.history.session.to_act, book.history.digest()) == before
