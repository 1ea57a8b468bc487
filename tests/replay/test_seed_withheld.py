"""A duplicate pair's game ends with its dice seed withheld, and a later ``seed_revealed`` reveals it
(session/records.py, session/decide.py, session/history.py, replay/derived.py, replay/verify.py);
every other game's ``game_finished`` is byte for byte what it was."""

import random

import msgspec
import pytest
from replaylog import GAMES, Book, created

from eventstore.envelope import NewEvent
from players.selfplay import random_player
from replay.verify import verify
from session import decide, dice, records
from session.history import History, HistoryError
from session.records import GameFinished, SeedRevealed

PAIR = "T1.r1.p1"
PAIR_SEED = bytes(range(100, 132))
WITHHELD = "dice seed withheld until the pair's other game ends"

#: game_finished as written before seed_withheld existed (fields in order, none left out).
BEFORE = (
    b'{"type":"game_finished","schema":1,"reason":"resignation","by":"union","winner":"confederate",'
    b'"result":null,"vp":{"union":0},"seed":"' + b"ab" * 32 + b'","note":null}'
)


def pair_game(game_id: str = "g1") -> Book:
    """A fair-dice game of the duplicate pair PAIR (its dice stream and nonces), both seats joined."""
    book = Book.__new__(Book)
    book.game_id, book.history, book.envelopes, book.clock = game_id, History(game_id, GAMES), [], 1_700_000_000_000
    record = msgspec.structs.replace(
        created(game_id), dice="fair", insecure_seed=None, seed_hash=dice.seed_hash(PAIR_SEED),
        dice_stream=PAIR, dice_nonces="nonce-a:nonce-b",
    )
    book.append(decide.create(record, GAMES.for_record(record), "creator-nonce"))
    book.append(decide.join(book.history, "confederate", "joiner-nonce"))
    return book


def played_until_a_roll(book: Book) -> None:
    rng = random.Random(4)
    while book.history.session.last_roll() == 0:
        book.append(decide.command(book.history, book.history.session.to_act, random_player(book.state, rng), PAIR_SEED))


def test_a_game_finished_that_withholds_nothing_is_written_as_before():
    plain = GameFinished(reason="resignation", by="union", winner="confederate", vp={"union": 0}, seed="ab" * 32)
    assert records.encode(plain) == BEFORE
    assert records.decode(BEFORE) == plain


def test_a_pairs_game_ends_with_its_seed_withheld_and_verifies_its_rolls_once_revealed():
    book = pair_game()
    played_until_a_roll(book)
    (end,) = book.append(decide.resign(book.history, "union", PAIR_SEED))
    finished = records.decode(end.payload)
    assert (finished.seed, finished.seed_withheld) == ("", PAIR)
    assert PAIR_SEED.hex().encode() not in b"".join(e.payload for e in book.envelopes)
    report = verify("g1", book.envelopes, GAMES)
    assert report.ok and not report.dice_checked and report.seed is None and report.rolls > 0
    assert report.seed_withheld == PAIR and any(WITHHELD in note for note in report.notes)

    (revealed,) = book.append(decide.reveal(book.history, PAIR_SEED))
    assert (revealed.type, revealed.actor) == ("seed_revealed", "")
    assert records.decode(revealed.payload) == SeedRevealed(pair=PAIR, seed=PAIR_SEED.hex())
    assert book.history.finished.seed == PAIR_SEED.hex()  # the fold's end shows it, as any game's
    report = verify("g1", book.envelopes, GAMES)
    assert report.ok and report.dice_checked and report.seed == PAIR_SEED.hex() and report.seed_withheld == ""


def test_nothing_but_one_seed_revealed_follows_a_withheld_end():
    book = pair_game()
    with pytest.raises(decide.ActionRefused, match="not over"):
        decide.reveal(book.history, PAIR_SEED)
    book.append(decide.resign(book.history, "union", PAIR_SEED))
    with pytest.raises(decide.ActionRefused, match="game is over"):
        decide.chat(book.history, "union", "gg")
    book.append(decide.reveal(book.history, PAIR_SEED))
    with pytest.raises(decide.ActionRefused, match="revealed already"):
        decide.reveal(book.history, PAIR_SEED)
    again = NewEvent(type="seed_revealed", payload=records.encode(SeedRevealed(pair=PAIR, seed=PAIR_SEED.hex())))
    with pytest.raises(HistoryError, match="after game_finished"):
        book.append([again])


def test_a_game_not_in_a_pair_reveals_at_its_end_and_takes_no_seed_revealed():
    book = Book()
    (end,) = book.append(decide.resign(book.history, "union", bytes(range(32))))
    assert records.decode(end.payload).seed_withheld is None and b"seed_withheld" not in end.payload
    with pytest.raises(decide.ActionRefused, match="revealed already"):
        decide.reveal(book.history, bytes(range(32)))
    stray = NewEvent(type="seed_revealed", payload=records.encode(SeedRevealed(pair=PAIR, seed="00" * 32)))
    with pytest.raises(HistoryError, match="after game_finished"):
        book.append([stray])


def test_verify_refuses_a_revealed_seed_that_is_not_the_committed_one():
    book = pair_game()
    played_until_a_roll(book)
    book.append(decide.resign(book.history, "union", PAIR_SEED))
    book.append(decide.reveal(book.history, bytes(32)))  # the wrong seed: the fold cannot know, verify does
    report = verify("g1", book.envelopes, GAMES)
    assert not report.ok and not report.dice_checked
    assert "the revealed seed is not the one committed in game_created (sha256 differs)" in report.problems


def test_verify_refuses_a_pairs_end_that_reveals_the_seed_at_once():
    book = pair_game()
    leaked = decide.finish(book.state, "resignation", "union", PAIR_SEED, winner="confederate")  # no pair: revealed
    book.append([decide.record_event(leaked, book.history.digest(), "union")])
    report = verify("g1", book.envelopes, GAMES)
    assert not report.ok and report.mismatch is not None
    assert (report.mismatch.type, report.mismatch.field) == ("game_finished", "seed_withheld")
