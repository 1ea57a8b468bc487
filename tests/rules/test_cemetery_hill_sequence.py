"""Cemetery Hill's sequence of play (003 16.3, 16.31, 16.32, 16.4) under the revised rules: the battle's
own scenario, and the ``player_turns`` component on a small map."""

import pytest
from rulesmaps import rebel, scenario, union

from rules.core.commands import EndPhase, MoveUnit
from rules.core.errors import RuleViolation
from rules.core.game import Game
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

CEMETERY_HILL = load("cemetery_hill")


def sequence(state, steps):
    seen = [(state.turn, state.phasing, state.phase)]
    for _ in range(steps):
        state, _ = execute(state, EndPhase())
        seen.append((state.turn, state.phasing, state.phase))
    return state, seen


def test_the_union_has_no_player_turn_on_game_turn_one():
    # 16.31 the Union is the first Player; 16.32 "The Union Player has no Player-Turn on Game-Turn One":
    # the game opens with the Confederate Player-Turn, and from Game-Turn Two the Union moves first
    state = new_game(Game(CEMETERY_HILL, get_ruleset("revised")))
    _, seen = sequence(state, 5)
    assert seen == [
        (1, "confederate", "movement"),
        (1, "confederate", "combat"),
        (2, "union", "movement"),
        (2, "union", "combat"),
        (2, "confederate", "movement"),
        (2, "confederate", "combat"),
    ]


def test_no_union_unit_moves_on_game_turn_one():
    # 16.32 "His units may not be moved during the First Game-Turn, except as a result of combat"
    state = new_game(Game(CEMETERY_HILL, get_ruleset("revised")))
    with pytest.raises(RuleViolation):
        execute(state, MoveUnit("us-2-xii", ("1515", "1516")))
    assert state.positions["us-2-xii"] == "1515"


def test_union_zones_of_control_are_unaffected_on_game_turn_one():
    # 16.32 "Union units' Zones of Control and defensive abilities are unaffected": a Confederate unit
    # entering a Union zone on Game-Turn One stops there
    sc = scenario(
        [union("u", "0404"), rebel("c", "0202")],
        exclusive={"player_turns": {"none": [{"side": "union", "game_turn": 1}]}},
        cases={"revised": {"player_turns": "16.32"}},
    )
    state = new_game(Game(sc, get_ruleset("revised")))
    assert (state.turn, state.phasing) == (1, "confederate")
    with pytest.raises(RuleViolation):
        execute(state, MoveUnit("c", ("0202", "0303", "0403", "0503")))  # 0303 and 0403 beside 0404
    state, _ = execute(state, MoveUnit("c", ("0202", "0303")))
    assert state.positions["c"] == "0303"


def test_a_player_turn_taken_away_later_is_passed_over():
    # 16.32, as a component: any side, any Game-Turn (here the Confederate's on Game-Turn Two)
    sc = scenario(
        [union("u", "0101"), rebel("c", "0808")],
        turns=2,
        exclusive={"player_turns": {"none": [{"side": "confederate", "game_turn": 2}]}},
        cases={"revised": {"player_turns": "16.32"}},
    )
    state = new_game(Game(sc, get_ruleset("revised")))
    state, seen = sequence(state, 5)
    assert seen == [
        (1, "union", "movement"),
        (1, "union", "combat"),
        (1, "confederate", "movement"),
        (1, "confederate", "combat"),
        (2, "union", "movement"),
        (2, "union", "combat"),
    ]
    state, _ = execute(state, EndPhase())  # the end of the Union Player-Turn of the last Game-Turn ends it
    assert state.game_over
