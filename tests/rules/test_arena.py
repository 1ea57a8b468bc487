"""Paired games and Elo (players/arena.py): both games of a pair roll the same dice whatever the
players do; a pair's margin is the mean of its games' margins; the interval and the Elo fit are the
hand-worked figures."""

from __future__ import annotations

import math
import random

import pytest

from players.arena import elo, game, margin, mean_interval, paired, player_named
from players.selfplay import play, random_player
from rules.core.game import Game
from rules.reducer import fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load


@pytest.fixture(scope="module")
def start():
    return new_game(Game(load("chattanooga"), get_ruleset("revised")))


def rolls_of_a_game(start, player_seed: int, dice_seed: int) -> list[int]:
    """The rolls a whole random game used, drawn from a die of its own."""
    die, used = random.Random(dice_seed), []

    def dice() -> int:
        used.append(die.randint(1, 6))
        return used[-1]

    state = start
    for before, _command, events in play(start, random.Random(player_seed), 20_000, random_player, dice):
        state = fold(before, events)
    assert state.game_over
    return used


def test_a_die_of_its_own_rolls_the_same_whatever_the_players_do(start):
    one, other = rolls_of_a_game(start, 1, 99), rolls_of_a_game(start, 2, 99)
    common = min(len(one), len(other))
    assert common > 10
    assert one[:common] == other[:common]  # the players differ, the dice do not
    assert rolls_of_a_game(start, 1, 98)[:common] != one[:common]  # another pair: other dice


def test_a_pairs_margin_is_the_mean_of_its_two_games_with_the_sides_swapped(start):
    result, _, _ = paired(start, "random", "greedy", 2, seed=5)
    assert [t.games for t in result.tallies.values()] == [2, 2]
    for i, got in enumerate(result.margins):
        a, b = player_named("random"), player_named("greedy")
        as_union = game(start, {"union": a, "confederate": b}, 5 + i, dice_seed=5 + i)
        as_confederate = game(start, {"confederate": a, "union": b}, 5 + i, dice_seed=5 + i)
        assert got == (margin(as_union, "union") + margin(as_confederate, "confederate")) / 2


def test_the_mean_and_its_95_percent_interval():
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 6.0])  # sd 2.16, se 1.08
    assert mean == 3.0
    assert (low, high) == pytest.approx((3.0 - 1.96 * math.sqrt(14 / 3) / 2, 3.0 + 1.96 * math.sqrt(14 / 3) / 2))
    assert mean_interval([4.0]) == (4.0, 4.0, 4.0)


def test_elo_from_scores_with_one_virtual_draw_anchored_at_random():
    # greedy scored 3 of 4 against random; with the prior, 3.5 of 5: 400 log10(3.5 / 1.5) = 147.2
    ratings = elo({("greedy", "random"): (3.0, 4)})
    assert ratings["random"] == 0.0
    assert ratings["greedy"] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=0.01)
    # a clean sweep stays finite, and order follows strength
    swept = elo({("greedy", "random"): (4.0, 4), ("engine", "greedy"): (3.0, 4), ("engine", "random"): (4.0, 4)})
    assert swept["engine"] > swept["greedy"] > swept["random"] == 0.0


def test_the_paired_and_round_robin_command_lines(capsys):
    import json

    from api.cli import main

    assert main(["arena", "random", "greedy", "--paired", "--games", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["pairs"] == 2 and len(result["margins"]) == 2
    assert result["mean_margin"] == sum(result["margins"]) / 2
    assert {s: sum(t.values()) for s, t in result["sides"].items()} == {"union": 2, "confederate": 2}
    assert main(["arena", "random", "greedy", "engine:easy", "--round-robin", "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "random v greedy" in out and "greedy v engine:easy" in out and "Elo (random = 0):" in out
    elo_lines = out.split("Elo (random = 0):")[1].split()
    assert dict(zip(elo_lines[::2], map(float, elo_lines[1::2]), strict=True))["random"] == 0
