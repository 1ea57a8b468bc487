"""``EnemyZones`` (rules/queries/zoc.py), the hex-by-hex answer to "is this hex in an enemy zone of
control" that a move's path asks (6.0), must agree with ``enemy_controlled``'s whole set everywhere:
checked on every hex of the map at positions of self-played games of battles with gunboats (revised
9.64: no zone), trains without one (Chickamauga 19.3) and trenches (revised 10.39)."""

from __future__ import annotations

import random

import pytest
from rulesmaps import rebel, union
from test_revised_movement import game as small_game

from players.selfplay import play
from rules.queries.zoc import EnemyZones, enemy_controlled, enemy_occupied
from rules.reducer import fold, new_game
from session.games import GameCache


@pytest.mark.parametrize(
    ("scenario", "ruleset"),
    [("chattanooga", "classic"), ("chattanooga", "revised"), ("shiloh", "revised"), ("chickamauga", "revised"), ("wilderness", "revised")],
)
def test_enemy_zones_agree_with_the_whole_set(scenario, ruleset):
    game = GameCache().game(scenario, ruleset)
    hexes = sorted(game.terrain)
    checked = 0
    for i, (before, _command, events) in enumerate(play(new_game(game), random.Random(3), max_commands=300)):
        if i % 7:
            continue
        state = fold(before, events)
        for side in ("union", "confederate"):
            whole = enemy_controlled(state, side)
            for zones in (EnemyZones(state, side), EnemyZones(state, side, enemy_occupied(state, side))):
                assert {h for h in hexes if h in zones} == whole, f"{scenario} {ruleset}, command {i}, {side}"
                assert zones.of(hexes) == [h in whole for h in hexes]
            checked += 1
    assert checked > 40


def test_zoc_from_turns_zoc_into_around():
    game = GameCache().game("chattanooga", "revised")
    sources = game.zoc_from
    # 6.0, 6.6: h controls n exactly when n is among the hexes h exerts its zone into
    for h, into in game.zoc_into.items():
        for n in into:
            assert h in sources[n]
    assert sum(map(len, sources.values())) == sum(map(len, game.zoc_into.values()))


@pytest.mark.parametrize("enemy_at", ["0604", "0605", "0506", "0404", "0405", "0504"])
def test_enemy_zones_stop_at_a_trench_hexside_10_39(enemy_at):
    # 10.39: no zone of control extends into a trench hex across its trench hexsides (0604, 0605, 0506)
    trench = {"trenches": {"markers": [{"hex": "0505", "side": "union", "facing": ["0604", "0605", "0506"]}]}}
    state = new_game(small_game([union("i", "0505"), rebel("r", enemy_at)], exclusive=trench))
    zones = EnemyZones(state, "union")
    whole = enemy_controlled(state, "union")
    assert {h for h in state.game.terrain if h in zones} == whole
    assert zones.of(sorted(state.game.terrain)) == [h in whole for h in sorted(state.game.terrain)]
    assert ("0505" in zones) == (enemy_at not in ("0604", "0605", "0506"))
