"""Shiloh's Victory Conditions (003 18.0-18.3) with the battle's own parameters (scenarios/shiloh), on
small maps where hex 0505 plays Pittsburg Landing (1508), and on the Shiloh scenario itself."""

from __future__ import annotations

import json

import pytest
from combatmaps import attack, of_type, to_phase

from rules.core.commands import EndPhase, MoveUnit
from rules.core.events import GameEnded, VictoryDetermined
from rules.core.game import Game
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.rulesmaps import rebel, scenario, union

SHILOH = load("shiloh")
GAME = Game(SHILOH, get_ruleset("revised"))
LANDING = "0505"  # Pittsburg Landing on the small maps


def shiloh_blocks() -> dict:
    """Shiloh's victory and control_hexes blocks, 1508 moved to 0505."""
    blocks = {k: SHILOH.exclusive[k] for k in ("victory", "control_hexes")}
    return json.loads(json.dumps(blocks).replace('"1508"', f'"{LANDING}"'))


def start(units, turns=1, first_player="confederate"):
    sc = scenario(units, exclusive=shiloh_blocks(), turns=turns, first_player=first_player, cases=SHILOH.cases)
    return new_game(Game(sc, get_ruleset("revised")))


def play_out(state):
    log = []
    while not state.game_over:
        state, events = execute(state, EndPhase())
        log.extend(events)
    return state, log


LEVELS = [
    # (Union points, Confederate points, who occupies 1508) -> 18.2's level
    (10, 20, "confederate", "Confederate Decisive Victory"),  # twice as many and 1508
    (10, 19, "confederate", "Confederate Substantive Victory"),  # 1508 and at least as many
    (10, 10, "confederate", "Confederate Substantive Victory"),
    (10, 20, "union", "Confederate Marginal Victory"),  # twice as many without 1508
    (10, 40, "union", "Confederate Marginal Victory"),
    (11, 20, "union", "Union Marginal Victory"),  # 1508 and more than half
    (10, 11, "union", "Union Marginal Victory"),
    (10, 10, "union", "Union Substantive Victory"),  # 1508 and at least equal
    (19, 10, "union", "Union Substantive Victory"),
    (20, 10, "union", "Union Decisive Victory"),  # 1508 and at least twice
    (11, 10, "confederate", "Draw"),  # Ruling: 18.2 names no level for it
    (0, 0, "union", "Union Substantive Victory"),  # Ruling: no points on either side is 1:1
    (0, 0, "confederate", "Confederate Substantive Victory"),
]


@pytest.mark.parametrize("union_points, confederate_points, occupier, level", LEVELS)
def test_levels_of_victory_18_2(union_points, confederate_points, occupier, level):
    victory = GAME.battle.victory
    totals = {"union": union_points, "confederate": confederate_points}
    assert victory.level_for(totals, {"1508": occupier}) == level


def test_one_victory_point_for_each_enemy_combat_strength_point_eliminated_18_1():
    # 18.1: a Confederate unit of 4 eliminated scores 4 for the Union
    units = [union("a", "0404", strength=12), rebel("d", "0505", strength=4), rebel("far", "0808")]
    state = to_phase(start(units, first_player="union"), "union", "combat")
    state, _ = attack(state, ["a"], ["0505"], die=1)
    assert "d" in state.eliminated and state.vp == {"union": 4, "confederate": 0}


def test_the_union_occupies_pittsburg_landing_at_the_start_18_31():
    # 18.31, ruling: the Union occupies 1508 at the start, no unit in it
    assert new_game(GAME).control["1508"] == "union"
    assert start([union("u", "0101"), rebel("c", "0808")]).control[LANDING] == "union"


def test_the_last_to_move_through_the_landing_occupies_it_and_the_game_ends_with_a_level_18_0_18_31():
    # 18.31: "having been the last to have moved a Friendly unit into or through the hex": a
    # Confederate unit passes through 0505 and on; no points either way (1:1, the ruling): the
    # Confederate, occupying the Landing with as many points, wins a Substantive Victory (18.0)
    state = start([union("u", "0101"), rebel("c", "0604")])
    state, _ = execute(state, MoveUnit("c", ("0604", "0505", "0506")))
    assert state.control[LANDING] == "confederate"
    state, log = play_out(state)
    assert of_type(log, VictoryDetermined)[-1] == VictoryDetermined(
        union=0, confederate=0, differential=0, level="Confederate Substantive Victory"
    )
    assert log[-1] == GameEnded(reason="last_turn", result="Confederate Substantive Victory")
    # left alone, the Landing stays the Union's: a Union Substantive Victory at 0 to 0
    state, log = play_out(start([union("u", "0101"), rebel("c", "0604")]))
    assert log[-1] == GameEnded(reason="last_turn", result="Union Substantive Victory")


def test_shiloh_ends_with_a_level_of_victory_18_0():
    # 18.0 "the Player with the higher number of Victory Points is awarded a victory" at the end of
    # Game-Turn Thirteen (16.4): the game's result is one of 18.2's levels
    levels = {lv.level for lv in GAME.battle.victory.levels}
    assert levels == {
        "Confederate Decisive Victory", "Confederate Substantive Victory", "Confederate Marginal Victory",
        "Union Marginal Victory", "Union Substantive Victory", "Union Decisive Victory", "Draw",
    }
    assert GAME.case("victory") == "18.1" and GAME.case("victory.levels") == "18.2"
