"""`replay.verify`: the chain, every digest, and every roll of a finished game re-derived; any
tampering is found."""

import random

import msgspec
import pytest
from replaylog import GAMES, SEED, Book

from eventstore.envelope import GENESIS, NewEvent, seal
from replay import export, transfer
from replay.transfer import ImportRefused
from replay.verify import chain_problem, verify
from rules.core.commands import EndPhase
from rules.core.scenario import other_side
from session import decide, dice
from session.records import CommandApplied, GameFinished


def finished_game(seed: int = 1) -> Book:
    book = Book()
    book.play_random(random.Random(seed), 2000)
    assert book.history.finished is not None
    return book


def resealed(envelopes, index, **changes):
    """The log with envelope `index` changed and every later envelope re-chained (a forger's best)."""
    out = list(envelopes[:index])
    for i, e in enumerate(envelopes[index:], start=index):
        new = NewEvent(
            type=e.type, payload=e.payload, schema=e.schema, actor=e.actor, command_id=e.command_id, digest=e.digest
        )
        if i == index:
            new = msgspec.structs.replace(new, **changes)
        out.append(seal(new, version=e.version, time=e.time, prev=out[-1].hash if out else GENESIS))
    return out


def test_a_finished_game_verifies_with_every_roll_rederived():
    book = finished_game()
    report = verify("g1", book.envelopes, GAMES)
    assert report.ok, report.problems
    assert report.finished and report.dice_checked and report.reason == "rules"
    assert report.commands == len([e for e in book.envelopes if e.type == "command"])
    assert report.head == book.envelopes[-1].hash.hex()


def test_a_resigned_game_verifies():
    book = Book()
    book.play_random(random.Random(2), 20)
    book.append(decide.resign(book.history, "confederate", SEED))
    report = verify("g1", book.envelopes, GAMES)
    assert report.ok and report.dice_checked and report.reason == "resignation"


def test_a_running_game_verifies_its_chain_and_digests_but_not_its_dice():
    book = Book()
    book.play_random(random.Random(3), 10)
    # An insecure game shows its seed: make this one look fair (and re-chain it).
    envelopes = resealed(book.envelopes, 0, payload=book.envelopes[0].payload.replace(b'"insecure"', b'"fair"'))
    report = verify("g1", envelopes, GAMES)
    assert report.ok and not report.dice_checked and not report.finished
    assert any("secret" in note for note in report.notes)


def test_tampering_is_found():
    book = finished_game(4)
    envelopes = book.envelopes
    # An edited payload without re-chaining: the hash no longer matches.
    bad = list(envelopes)
    bad[5] = msgspec.structs.replace(bad[5], payload=bad[5].payload.replace(b"union", b"confederate"))
    assert "does not match its contents" in verify("g1", bad, GAMES).problems[0]
    # A re-chained log whose digest lies.
    i = next(i for i, e in enumerate(envelopes) if e.type == "unit_moved")
    report = verify("g1", resealed(envelopes, i, digest=bytes(32)), GAMES)
    assert not report.ok and "not the one it recorded" in report.problems[0]
    # A re-chained log whose rolls lie.
    i = next(i for i, e in enumerate(envelopes) if e.type == "command")
    record = msgspec.json.decode(envelopes[i].payload, type=CommandApplied)
    honest = dice.rolls(SEED, "g1", envelopes[i].version, "creator-nonce:joiner-nonce", 1)[0]
    forged = msgspec.json.encode(msgspec.structs.replace(record, rolls=[honest % 6 + 1]))
    report = verify("g1", resealed(envelopes, i, payload=forged), GAMES)
    assert not report.ok and not report.dice_checked
    assert f"rolls [{honest % 6 + 1}] recorded, the seed gives [{honest}]" in report.problems[0]
    # A revealed seed that is not the committed one.
    last = envelopes[-1]
    report = verify("g1", resealed(envelopes, len(envelopes) - 1, payload=last.payload.replace(SEED.hex().encode(), bytes(32).hex().encode())), GAMES)
    assert not report.ok and "not the one committed" in report.problems[0]


def test_a_command_followed_by_other_events_than_it_decides_is_found():
    book = Book()
    book.play(EndPhase())
    i = next(i for i, e in enumerate(book.envelopes) if e.type == "phase_ended")
    envelopes = resealed(book.envelopes, i, payload=book.envelopes[i].payload.replace(b'"phase":"movement"', b'"phase":"combat"'))
    report = verify("g1", envelopes, GAMES)
    assert not report.ok


def test_an_event_written_in_other_bytes_of_the_same_json_still_verifies():
    # verify takes a rules event the command decides without decoding it when the payload is its very
    # encoding; the same event in other bytes (spaces: valid JSON, another writer) is decoded and compared
    book = finished_game(4)
    i = next(i for i, e in enumerate(book.envelopes) if e.type == "unit_moved")
    spaced = book.envelopes[i].payload.replace(b",", b", ")
    assert spaced != book.envelopes[i].payload
    report = verify("g1", resealed(book.envelopes, i, payload=spaced), GAMES)
    assert report.ok and report.dice_checked, report.problems


def test_the_export_format_round_trips():
    book = Book()
    book.play_random(random.Random(5), 30)
    data = export.dumps(book.envelopes)
    assert export.loads(data) == book.envelopes
    assert export.game_id_of(export.loads(data)) == "g1"


def _forged_finish(envelopes, **changes):
    """The log with its `game_finished` record changed and the chain recomputed (the public chain_hash)."""
    last = envelopes[-1]
    record = msgspec.json.decode(last.payload, type=GameFinished)
    payload = msgspec.json.encode(msgspec.structs.replace(record, **changes))
    return resealed(envelopes, len(envelopes) - 1, payload=payload)


def test_a_forged_winner_points_or_reason_is_refused_naming_the_version_and_the_field():
    book = finished_game()
    last = book.envelopes[-1]
    honest = msgspec.json.decode(last.payload, type=GameFinished)
    other = "union" if honest.winner == "confederate" else "confederate"
    for changes, field in [
        ({"winner": other}, "winner"),
        ({"vp": {"union": 99, "confederate": 0}}, "vp"),
        ({"result": "union decisive victory"}, "result"),
        ({"reason": "resignation", "by": honest.winner and other_side(honest.winner) or "union"}, "reason"),
    ]:
        forged = _forged_finish(book.envelopes, **changes)
        assert chain_problem(forged) is None  # the chain itself is sound: only the fold can tell
        report = verify("g1", forged, GAMES)
        assert not report.ok, changes
        assert report.mismatch is not None and report.mismatch.version == last.version, report.problems
        assert report.mismatch.type == "game_finished" and report.mismatch.field == field
        assert f"version {last.version}: game_finished {field} is" in report.problems[0]
        with pytest.raises(ImportRefused, match=f"version {last.version}: game_finished {field}"):
            transfer.check(forged, GAMES)


def test_a_forged_resignation_winner_is_refused():
    book = Book()
    book.play_random(random.Random(2), 20)
    book.append(decide.resign(book.history, "confederate", SEED))
    forged = _forged_finish(book.envelopes, winner="confederate")
    report = verify("g1", forged, GAMES)
    assert not report.ok and report.mismatch.field == "winner", report.problems
    assert report.mismatch.recorded == "'confederate'" and report.mismatch.derived == "'union'"


def test_a_forged_actor_is_refused():
    book = finished_game(4)
    envelopes = book.envelopes
    for kind in ("command", "unit_moved", "seat_joined"):
        i = next(i for i, e in enumerate(envelopes) if e.type == kind and e.version > 2)
        e = envelopes[i]
        other = "union" if e.actor == "confederate" else "confederate"
        report = verify("g1", resealed(envelopes, i, actor=other), GAMES)
        assert not report.ok, kind
        found = report.mismatch
        assert (found.version, found.type, found.field) == (e.version, kind, "actor")
        sentence = f"version {e.version}: {kind} actor is '{other}', the log before it gives '{e.actor}'"
        assert sentence in report.problems


def test_a_command_recorded_for_the_seat_that_did_not_act_is_refused():
    book = finished_game(4)
    i = next(i for i, e in enumerate(book.envelopes) if e.type == "command")
    e = book.envelopes[i]
    record = msgspec.json.decode(e.payload, type=CommandApplied)
    other = "union" if record.seat == "confederate" else "confederate"
    payload = msgspec.json.encode(msgspec.structs.replace(record, seat=other))
    report = verify("g1", resealed(book.envelopes, i, actor=other, payload=payload), GAMES)
    assert not report.ok and (report.mismatch.version, report.mismatch.field) == (e.version, "seat"), (
        report.problems
    )
