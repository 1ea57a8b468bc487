"""The fold of the effective history: every digest, snapshots as a cache, reverted ranges skipped,
and the same result from memory and from the store."""

import random

import msgspec
import pytest
from replaylog import GAMES, SEED, Book

from eventstore.envelope import GENESIS, NewEvent
from players.selfplay import random_command
from rules.core import state as rules_state
from rules.core.commands import EndPhase
from rules.reducer import fold, new_game
from session import decide
from session.history import History, HistoryError, NeedsState, fold_envelopes, load
from session.records import SessionOptions


def _decode(envelope):
    from session.history import decode_entry

    return decode_entry(envelope)


def undo_back_to(book: Book, seat: str, back_to: int) -> None:
    """`seat` asks to go back to `back_to` and the opponent accepts."""
    book.append(decide.undo_request(book.history, seat, back_to, now_ms=book.clock, backoff_seconds=60))
    other = "confederate" if seat == "union" else "union"
    book.append(decide.undo_answer(book.history, other, book.version, "accept"))


def test_the_fold_is_the_rules_fold_and_checks_every_digest():
    book = Book()
    book.play_random(random.Random(1), 60)
    from rules.core.events import Event

    events = [item for e in book.envelopes if isinstance(item := _decode(e), Event)]
    expected = fold(new_game(GAMES.for_record(book.history.session.created)), events)
    assert rules_state.digest(book.state) == rules_state.digest(expected)
    again = fold_envelopes("g1", GAMES, book.envelopes, check_digests=True)  # every digest checked
    assert again.digest() == book.history.digest() and again.head == book.history.head


def test_a_snapshot_resumes_the_fold_exactly():
    book = Book()
    book.play_random(random.Random(2), 50)
    for cut in (3, 40, len(book.envelopes) - 1):
        first = fold_envelopes("g1", GAMES, book.envelopes[:cut])
        resumed = History.from_snapshot("g1", GAMES, first.snapshot())
        for envelope in book.envelopes[cut:]:
            resumed.apply(envelope, check_digest=True)
        assert resumed.snapshot() == book.history.snapshot()


def test_an_accepted_undo_skips_the_range_and_the_game_resumes_there():
    book = Book()
    rng = random.Random(3)
    book.move(rng, 3)
    back_to = book.version
    at_target = book.history.digest()
    commands_before = list(book.history.session.commands)
    seat = book.history.session.to_act
    book.move(rng, 2)
    undo_back_to(book, seat, back_to)
    assert book.history.digest() == at_target
    assert book.history.session.commands == commands_before
    assert book.history.session.reverted == [(back_to, book.version)]
    book.play_random(rng, 3)  # and play goes on from there
    again = fold_envelopes("g1", GAMES, book.envelopes, check_digests=True)
    assert again.snapshot() == book.history.snapshot()


def test_undo_targets_inside_a_reverted_range_are_refused_and_ranges_nest():
    book = Book()
    rng = random.Random(4)
    book.play(EndPhase())  # union movement ends; combat phase (no attacks yet)
    book.play(EndPhase())
    seat = book.history.session.to_act  # confederate movement
    outer = book.version
    book.move(rng, 1)
    inner = book.version
    book.move(rng, 2)
    undo_back_to(book, seat, inner)
    first_range = book.history.session.reverted[0]
    with pytest.raises(decide.ActionRefused, match="already undone"):
        decide.undo_request(book.history, seat, inner + 1, now_ms=book.clock, backoff_seconds=0)
    book.move(rng, 1)
    undo_back_to(book, seat, outer)  # a range around the first one
    assert book.history.session.reverted == [first_range, (outer, book.version)]
    assert fold_envelopes("g1", GAMES, book.envelopes, check_digests=True).digest() == book.history.digest()


def test_a_request_lapses_on_a_game_action_but_not_on_chat_or_a_draw_offer():
    book = Book()
    rng = random.Random(5)
    book.move(rng, 2)
    seat = book.history.session.to_act
    back_to = book.history.session.commands[-1].version - 1
    book.append(decide.undo_request(book.history, seat, back_to, now_ms=book.clock, backoff_seconds=0))
    request = book.version
    book.append(decide.chat(book.history, "confederate", "thinking"))
    book.append(decide.draw_offer(book.history, "confederate"))
    assert book.history.session.undo.version == request
    assert book.history.session.draw is not None
    book.play_random(rng, 1)
    assert book.history.session.undo is None and book.history.session.draw is None
    with pytest.raises(decide.ActionRefused, match="answered or lapsed"):
        decide.undo_answer(book.history, "confederate", request, "accept")


def test_an_undo_before_the_snapshot_asks_for_the_state_at_its_target():
    book = Book()
    rng = random.Random(6)
    book.move(rng, 2)
    back_to = book.version
    seat = book.history.session.to_act
    book.move(rng, 3)
    cut = len(book.envelopes)
    undo_back_to(book, seat, back_to)
    resumed = History.from_snapshot("g1", GAMES, fold_envelopes("g1", GAMES, book.envelopes[:cut]).snapshot())
    resumed.apply(book.envelopes[cut], check_digest=True)  # the request
    with pytest.raises(NeedsState) as need:
        resumed.apply(book.envelopes[cut + 1])
    assert need.value.version == back_to
    target = fold_envelopes("g1", GAMES, book.envelopes[:back_to]).state
    resumed.apply(book.envelopes[cut + 1], target=target, check_digest=True)
    assert resumed.digest() == book.history.digest()


def test_who_is_awaited_and_since_when():
    book = Book(join=False)
    assert book.history.session.to_act is None and not book.history.started
    book.clock += 5
    book.append(decide.join(book.history, "confederate", "joiner-nonce"))
    assert book.history.session.to_act == "union" and book.history.session.waiting_since == book.clock
    book.clock += 5
    book.append(decide.chat(book.history, "confederate", "your move"))  # the opponent's chat: still waiting
    assert book.history.session.waiting_since == book.clock - 5
    book.clock += 5
    book.append(decide.chat(book.history, "union", "hmm"))  # the awaited seat is not silent
    assert book.history.session.waiting_since == book.clock


def test_logs_that_do_not_fold_are_refused():
    book = Book()
    book.play_random(random.Random(7), 3)
    envelopes = book.envelopes
    with pytest.raises(HistoryError, match="expected version"):
        fold_envelopes("g1", GAMES, envelopes[:2] + envelopes[3:])
    with pytest.raises(HistoryError, match="does not link"):
        fold_envelopes("g1", GAMES, envelopes[:1] + [msgspec.structs.replace(envelopes[1], prev=bytes(32))])
    with pytest.raises(HistoryError, match="first event"):
        History("g1", GAMES).apply(msgspec.structs.replace(envelopes[1], version=1, prev=GENESIS))
    with pytest.raises(HistoryError, match="game_created of game"):
        fold_envelopes("other", GAMES, envelopes)


def test_a_rules_event_must_follow_its_command():
    book = Book()
    events = decide.command(book.history, "union", EndPhase(), SEED)
    with pytest.raises(HistoryError, match="follows no command"):
        book.append(events[1:])


# -- from the store ------------------------------------------------------------------------------
async def append(store, history: History, events: list[NewEvent]) -> None:
    appended = await store.append(history.game_id, events, history.version)
    async for envelope in store.read(history.game_id, appended.first, appended.last):
        history.apply(envelope, check_digest=True)


async def test_loading_from_the_store_with_or_without_snapshots_gives_the_same_history(store):
    from replaylog import created

    gid = "stored-1"
    history = History(gid, GAMES)
    record = created(gid, SessionOptions())
    await append(store, history, decide.create(record, GAMES.for_record(record), "creator-nonce"))
    await append(store, history, decide.join(history, "confederate", "joiner-nonce"))
    rng = random.Random(8)
    for _ in range(4):
        await append(store, history, decide.command(history, history.session.to_act, random_command(history.state, rng), SEED))
    back_to = history.version
    seat = history.session.to_act
    for _ in range(3):
        await append(store, history, decide.command(history, seat, random_command(history.state, rng, 0.0), SEED))
    await store.put_snapshot(gid, history.version, history.snapshot(), "history-test")  # another code version: ignored
    from session.history import SNAPSHOT_CODE

    await store.put_snapshot(gid, history.version, history.snapshot(), SNAPSHOT_CODE)
    await append(store, history, decide.undo_request(history, seat, back_to, now_ms=0, backoff_seconds=0))
    await append(store, history, decide.undo_answer(history, "confederate" if seat == "union" else "union", history.version, "accept"))
    for _ in range(3):
        await append(store, history, decide.command(history, history.session.to_act, random_command(history.state, rng), SEED))

    plain = await load(store, gid, GAMES, snapshots=False, check_digests=True)
    cached = await load(store, gid, GAMES)  # from the snapshot, the undo reaches back before it
    assert plain.snapshot() == cached.snapshot() == history.snapshot()
    at = await load(store, gid, GAMES, to_version=back_to)
    assert at.version == back_to
    assert at.digest() == fold_envelopes(gid, GAMES, [e async for e in store.read(gid, 1, back_to)]).digest()
