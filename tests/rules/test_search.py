"""The searching opponent (players/search.py): its first plan is the hard engine's own, its work is a
count of plans and look-aheads (a plan the same as one before is not scored again), a look-ahead
plays the enemy's reply, a plan is played out while the position is the one it expected, the time
bound keeps only the first plan when it is spent, and it plays whole games."""

from __future__ import annotations

import random

import pytest

from players.arena import game, player_named
from players.engine import Engine, Style
from players.search import STYLES, Searcher
from rules.core.commands import EndPhase
from rules.core.game import Game
from rules.core.state import COMBAT, MOVEMENT, digest
from rules.reducer import decide, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load


@pytest.fixture(scope="module")
def start():
    return new_game(Game(load("chattanooga"), get_ruleset("revised")))


def movement_phase(state, player, rng):
    """The phasing player's commands of one Movement Phase, played by ``player``."""
    side, commands = state.phasing, []
    die = random.Random(7)
    while state.phase == MOVEMENT and state.phasing == side and not state.game_over:
        command = player(state, rng)
        if not state.pending:
            commands.append(command)
        state = fold(state, decide(state, command, lambda: die.randint(1, 6)))
    return commands


def test_the_first_plan_is_the_hard_engines_own_moves(start):
    plan, end = Searcher()._plan(start, Style(), random.Random(1), None, die_seed=7)
    assert list(plan.values()) == movement_phase(start, Engine("hard"), random.Random(1))
    assert end.phase != MOVEMENT  # a plan is the whole phase


def test_another_style_makes_another_plan(start):
    hard, _ = Searcher()._plan(start, Style(), random.Random(1), None, die_seed=7)
    drawn, _ = Searcher()._plan(start, Style(objectives=2.5), random.Random(1), None, die_seed=7)
    assert list(hard.values()) != list(drawn.values())


def test_the_work_is_a_count_of_plans_and_look_aheads(start):
    # each different plan is looked ahead on every die sample; a plan ending where one before ended
    # (the same style twice) is not scored again
    searcher = Searcher(seconds=600, styles=(Style(), Style(), Style(objectives=2.5)), samples=2)
    searcher(start, random.Random(3))
    assert searcher.considered == 2 and searcher.rollouts == 4
    assert searcher.chosen in (0, 2)


def test_the_look_ahead_plays_the_enemys_reply_with_his_units_where_they_stand(start):
    # the Union's plan ends its Movement Phase; the Confederate's reply ends his own Movement Phase at
    # once (it may end) and his Combat Phase is the normal engine's
    searcher = Searcher()
    _, end = searcher._plan(start, Style(), random.Random(1), None, die_seed=7)
    assert end.phase == COMBAT and end.phasing == "union"
    state = end
    while state.phasing == "union":
        state = fold(state, decide(state, searcher._reply(state, "union", random.Random(2)), lambda: 3))
    assert state.phase == MOVEMENT and state.phasing == "confederate"
    assert searcher._reply(state, "union", random.Random(2)) == EndPhase()
    assert isinstance(searcher._look_ahead(end, "union", 9, None), float)


def test_the_plan_kept_is_played_out_command_by_command(start):
    searcher = Searcher(seconds=600, samples=2)
    first = searcher(start, random.Random(3))
    assert 1 <= searcher.considered <= len(STYLES) and searcher.rollouts == 2 * searcher.considered
    expected = dict(searcher.plan)  # the rest of the plan, by the position each command is for
    state = fold(start, decide(start, first, lambda: 1))
    rng = random.Random(3)
    while digest(state) in expected and state.phase == MOVEMENT:
        command = searcher(state, rng)
        assert command == expected[digest(state)]  # the plan's, not a new decision
        state = fold(state, decide(state, command, lambda: 1))
    assert len(expected) >= 1


def test_a_spent_budget_keeps_only_the_first_plan(start):
    searcher = Searcher(seconds=0.0)
    searcher(start, random.Random(5))
    assert searcher.considered == 1  # the engine's own plan is always finished, nothing more
    assert searcher.rollouts == searcher.samples and searcher.chosen == 0


def test_it_plays_a_whole_game_and_is_a_named_player(start):
    final = game(start, {"union": player_named("search:0.5"), "confederate": player_named("random")}, 11)
    assert final.game_over and final.result
    with pytest.raises(ValueError, match="the search's budget is a number of seconds"):
        player_named("search:fast")


def test_a_candidate_must_beat_the_first_plan_by_more_than_its_standard_error():
    from players.search import lower_bound

    assert lower_bound([2.0, 2.0, 2.0, 2.0]) == 2.0  # the same gain on every sample: sure
    assert lower_bound([6.0, -2.0, 6.0, -2.0]) == pytest.approx(2.0 - 4.6188 / 2, abs=1e-3)  # sd 4.62, se 2.31
    assert lower_bound([6.0, -2.0, 6.0, -2.0]) < 0  # a gain this noisy does not replace the engine's plan


def test_the_levels_a_player_may_choose_expert_is_the_search():
    from players.levels import COMPUTER_LEVELS, computer

    assert COMPUTER_LEVELS == ("easy", "normal", "hard", "expert")
    assert isinstance(computer("expert"), Searcher)
    assert isinstance(computer("hard"), Engine) and computer("hard").level.name == "hard"
    with pytest.raises(ValueError, match="no level 'grandmaster'"):
        computer("grandmaster")
