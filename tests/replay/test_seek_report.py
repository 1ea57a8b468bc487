"""The replay engine: the history at every version (in memory and from the store, with and without
snapshots, across undone ranges) equals the fold from zero; stepping; forks; the report's ledger."""

import random

import pytest
from replaylog import GAMES, SEED, Book

from eventstore.envelope import GENESIS, seal
from replay.crt_odds import RANK, all_columns
from replay.fork import ForkRefused, fork_events
from replay.report import build
from replay.seek import Replay, TargetStates, ensure_snapshots, seek, targets_key
from replay.timeline import Timeline
from rules.core import state as rules_state
from session import decide
from session.history import History, fold_envelopes
from session.records import SessionOptions


def undo_back_to(book: Book, seat: str, back_to: int) -> None:
    book.append(decide.undo_request(book.history, seat, back_to, now_ms=book.clock, backoff_seconds=60))
    other = "confederate" if seat == "union" else "union"
    book.append(decide.undo_answer(book.history, other, book.version, "accept"))


def played_with_undos(seed: int = 5, actions: int = 120, then: int = 40) -> Book:
    """A self-played game with an accepted undo and a declined one, then `then` more actions."""
    rng = random.Random(seed)
    book = Book(f"g{seed}", SessionOptions(undo_dice=True))  # undos may cross a die roll (a house rule)
    book.play_random(rng, actions // 3)
    back_to = book.version
    seat = book.history.session.to_act
    book.move(rng, 3)
    undo_back_to(book, seat, back_to)
    book.play_random(rng, actions // 3)
    seat = book.history.session.to_act
    back_to = book.version
    book.move(rng, 2)
    book.append(decide.undo_request(book.history, seat, back_to, now_ms=book.clock, backoff_seconds=0))
    other = "confederate" if seat == "union" else "union"
    book.append(decide.undo_answer(book.history, other, book.version, "decline"))
    book.play_random(rng, then)
    return book


def folded_from_zero(book: Book) -> list[bytes]:
    """The history after each version (its snapshot bytes), folding the log once from version 1."""
    history = History(book.game_id, GAMES)
    out = []
    for e in book.envelopes:
        history.apply(e, check_digest=True)
        out.append(history.snapshot())
    return out


def test_every_version_in_memory_equals_the_fold_from_zero():
    book = played_with_undos()
    assert book.history.session.reverted
    expected = folded_from_zero(book)
    assert expected[-1] == fold_envelopes(book.game_id, GAMES, book.envelopes).snapshot()
    for every in (7, 10_000):  # with checkpoints, and with none at all
        replay = Replay(book.game_id, GAMES, book.envelopes, every=every)
        for v in range(1, book.version + 1):
            got = replay.at(v)
            assert got.version == v
            assert got.snapshot() == expected[v - 1], v


async def test_every_version_from_the_store_equals_the_fold_from_zero(store):
    book = played_with_undos(seed=9, actions=90)
    gid = book.game_id
    await store.append_sealed(gid, book.envelopes, 0)  # the log exactly as the book sealed it
    expected = folded_from_zero(book)
    for v in range(1, book.version + 1, 7):
        assert (await seek(store, gid, GAMES, v)).snapshot() == expected[v - 1], v  # no snapshot: from zero
    store.snapshot_every = 10
    assert await ensure_snapshots(store, gid, GAMES) == book.version // 10
    for v in range(1, book.version + 1):
        assert (await seek(store, gid, GAMES, v)).snapshot() == expected[v - 1], v
        # nothing kept in memory or in the store, or only in the store (a restarted server)
        assert (await seek(store, gid, GAMES, v, targets=None)).snapshot() == expected[v - 1], v
        assert (await seek(store, gid, GAMES, v, targets=TargetStates())).snapshot() == expected[v - 1], v
    assert await store.redis.hlen(targets_key(store, gid)) > 0  # the states at undo targets were kept


def test_stepping_skips_undone_versions_and_lands_on_phases_and_turns():
    book = played_with_undos()
    t = Timeline.of(book.envelopes)
    (b, a), *_ = t.reverted
    assert t.undone(b + 1) and not t.undone(b) and not t.undone(a)
    assert t.step(b, "event", 1) == a
    assert t.step(a, "event", -1) == b
    markers = t.markers()
    assert any(m.kind == "undone" and m.first == b + 1 and m.last == a - 1 for m in markers)
    v = 1
    seen = []
    while (n := t.step(v, "phase", 1)) != v:
        seen.append(n)
        v = n
    assert seen == sorted(seen)
    phase_starts = [e.version for e in book.envelopes if e.type == "phase_began" and not t.undone(e.version)]
    assert seen[: len(phase_starts)] == phase_starts
    assert t.step(book.version, "game_turn", -1) < book.version
    turn_starts = [e.version for e in book.envelopes if e.type == "game_turn_advanced"]
    assert t.step(1, "game_turn", 1) == turn_starts[0]
    assert t.step(5, "event", 3, limit=6) == 6  # never past what the viewer may see
    with pytest.raises(ValueError):
        t.step(1, "fortnight", 1)


def test_a_fork_starts_from_the_parent_state_with_a_fresh_seed():
    book = played_with_undos()
    replay = Replay(book.game_id, GAMES, book.envelopes)
    v = book.version - 10
    while replay.timeline.undone(v):
        v -= 1
    parent = replay.at(v)
    gid, seed, events = fork_events(parent, game_id="sandbox-1")
    assert seed != SEED
    envelopes, prev = [], GENESIS
    for i, e in enumerate(events, start=1):
        envelopes.append(seal(e, version=i, time=1, prev=prev))
        prev = envelopes[-1].hash
    sandbox = fold_envelopes(gid, GAMES, envelopes, check_digests=True)
    created = sandbox.session.created
    assert created.fork.game_id == book.game_id and created.fork.version == v
    assert created.seed_hash != book.history.session.created.seed_hash
    assert rules_state.digest(sandbox.state) == rules_state.digest(parent.state)
    assert sandbox.session.started and sandbox.session.to_act is not None
    # one player may go on playing both sides
    sandbox.apply(seal(decide.command(sandbox, sandbox.session.to_act, _any_command(sandbox.state), seed)[0],
                       version=4, time=2, prev=prev))
    (b, a), *_ = book.history.session.reverted
    with pytest.raises(ForkRefused):
        fork_events(replay.at(b + 1), reverted=replay.timeline.reverted)
    with pytest.raises(ForkRefused):
        fork_events(replay.at(2))  # a seat was still empty


def _any_command(state):
    from players.selfplay import random_player

    return random_player(state, random.Random(1))


def test_the_luck_ledger_sums_to_one_over_every_column():
    table = GAMES.scenario("chattanooga").crt
    for column, dist in all_columns(table).items():
        assert sum(dist.values()) == pytest.approx(1.0), column
        assert set(dist) <= set(RANK)


def test_the_report_tells_the_effective_story():
    book = played_with_undos(seed=3, actions=240, then=3000)
    report = build(book.game_id, book.envelopes, GAMES)
    assert report.version == book.version and report.finished is not None
    assert report.combats, "a whole game has combats"
    for c in report.combats:
        assert sum(c.luck.distribution.values()) == pytest.approx(1.0)
        assert c.luck.p_result_or_better >= c.luck.p_result > 0
        assert 0 <= c.luck.percentile <= 1
        assert 1 <= c.die <= 6
    undone = {v for b, a in report.reverted for v in range(b + 1, a)}
    assert not any(c.version in undone for c in report.combats)
    assert not any(line.split()[0][1:] in {str(v) for v in undone} for line in report.record)
    answers = {u.answer for u in report.undo}
    assert {"accepted", "declined"} <= answers
    lost = sum(t.strength["union"] + t.strength["confederate"] for t in report.losses_by_turn)
    assert lost == sum(loss.unit.strength for loss in report.losses)
    assert report.vp_over_time[-1].vp == report.vp == dict(report.finished.vp)
    assert all(loss.hex for loss in report.losses if loss.case != "15.12")
    for side in ("union", "confederate"):
        assert report.luck[side].combats == sum(
            t[side].combats for t in report.luck_by_turn.values()
        )


async def test_a_seek_reads_no_more_than_the_events_after_its_snapshot(store):
    """Seek times without a clock: what a seek reads is bounded by the snapshot interval (undo
    targets aside, which are read once and kept)."""
    rng = random.Random(12)
    book = Book("bounded")
    book.play_random(rng, 150)
    gid = book.game_id
    await store.append_sealed(gid, book.envelopes, 0)
    store.snapshot_every = 25
    await ensure_snapshots(store, gid, GAMES)
    read = store.read
    counted = []

    def counting(*args, **kwargs):
        async def gen():
            async for e in read(*args, **kwargs):
                counted.append(e.version)
                yield e
        return gen()

    store.read = counting
    for v in range(1, book.version + 1):
        counted.clear()
        history = await seek(store, gid, GAMES, v)
        assert history.version == v
        assert len(counted) < 25 and all(v - 25 < c <= v for c in counted), v
