"""A tournament's state as the fold of its log, and what is due next (tournaments/state.py); the
duplicate pairs' seeds (tournaments/dice.py)."""

import hashlib

import pytest

from tournaments import dice
from tournaments.records import (
    Entered,
    GameRef,
    GameResult,
    Pairing,
    RoundFinished,
    RoundPaired,
    Started,
    TournamentCreated,
    TournamentFinished,
    decode,
    encode,
)
from tournaments.state import NeedsPairing, TournamentError, due, fold

MASTER = bytes(range(32))
CREATED = TournamentCreated(
    tournament_id="T1", name="Cup", kind="round_robin", duplicate=True, scenario="chattanooga",
    ruleset="classic", max_players=3, round_seconds=3600, creator="a1", creator_name="Ann",
    seed_hash=dice.commitment(MASTER),
)
ENTRIES = [Entered(player=p, name=p.upper(), nonce=f"nonce-of-{p}") for p in ("a1", "b2", "c3")]


def paired(number, first, second, bye, ids):
    games = [GameRef(game_id=ids[0], union=first, confederate=second), GameRef(game_id=ids[1], union=second, confederate=first)]
    pairing = Pairing(pair_id=f"T1.r{number}.p1", first=first, second=second, games=games)
    return RoundPaired(round=number, pairings=[pairing], bye=bye, deadline=0)


def test_three_players_in_duplicate_pairs_play_three_rounds_with_a_bye_each():
    log = [CREATED, *ENTRIES, Started(players=["a1", "b2", "c3"])]
    t = fold(log)
    assert t.status == "running" and t.total_rounds() == 3
    step = due(t)  # the circle: a1 b2 c3 (bye): round 1 b2 v c3, a1 has the bye
    assert step == NeedsPairing(1, [("T1.r1.p1", "b2", "c3")], "a1")
    log.append(paired(1, "b2", "c3", "a1", ["g1", "g2"]))
    assert due(fold(log)) is None  # waiting for the games
    log.append(GameResult(round=1, game_id="g1", winner="union", reason="rules", vp={"union": 9, "confederate": 4}))
    log.append(GameResult(round=1, game_id="g2", winner="union", reason="rules", vp={"union": 6, "confederate": 5}))
    assert due(fold(log)) == RoundFinished(round=1)
    log.append(RoundFinished(round=1))
    t = fold(log)
    # a1: the bye, 2 points; b2 and c3 1 each; b2 won 9-4 and lost 5-6: margin +4, c3 -4
    assert [(s.player, s.points, s.vp_margin) for s in t.standings()] == [("a1", 2, 0), ("b2", 1, 4), ("c3", 1, -4)]
    assert due(t).round == 2


def test_the_fold_refuses_an_event_out_of_place():
    start = [CREATED, *ENTRIES]
    with pytest.raises(TournamentError, match="entered twice"):
        fold([*start, ENTRIES[0]])
    with pytest.raises(TournamentError, match="maximum"):
        fold([*start, Entered(player="d4", name="D4", nonce="nonce-of-d4")])
    with pytest.raises(TournamentError, match="out of turn"):
        fold([*start, paired(1, "b2", "c3", "a1", ["g1", "g2"])])  # not started
    running = [*start, Started(players=["a1", "b2", "c3"]), paired(1, "b2", "c3", "a1", ["g1", "g2"])]
    with pytest.raises(TournamentError, match="before all its games"):
        fold([*running, RoundFinished(round=1)])
    result = GameResult(round=1, game_id="g1", reason="double_loss")
    with pytest.raises(TournamentError, match="second result"):
        fold([*running, result, result])
    with pytest.raises(TournamentError, match="not a game of an open round"):
        fold([*running, GameResult(round=1, game_id="elsewhere", reason="rules")])
    with pytest.raises(TournamentError, match="before its last round"):
        fold([*running, TournamentFinished(standings=[], master_seed=MASTER.hex())])
    with pytest.raises(TournamentError, match="first event"):
        fold(ENTRIES)


def test_events_encode_and_decode_unchanged():
    for record in [CREATED, *ENTRIES, paired(1, "b2", "c3", "a1", ["g1", "g2"])]:
        assert decode(encode(record)) == record


def test_a_pairs_seed_is_checked_against_the_commitment():
    seed = dice.pair_seed(MASTER, "T1.r1.p1")
    assert seed != dice.pair_seed(MASTER, "T1.r1.p2")
    good = hashlib.sha256(seed).hexdigest()
    assert dice.check(MASTER.hex(), CREATED.seed_hash, [("T1.r1.p1", good)]) == []
    assert dice.check(bytes(32).hex(), CREATED.seed_hash, [("T1.r1.p1", good)]) == [
        "the revealed master seed is not the one committed (sha256 differs)",
        "pair T1.r1.p1: its games' seed is not HMAC(master, 'pair:T1.r1.p1')",
    ]
    assert dice.pair_nonces("n-first-1", "n-second") == "n-first-1:n-second"
