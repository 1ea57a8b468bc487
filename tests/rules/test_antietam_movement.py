"""Antietam's movement restrictions (003 20.0-20.2) and its immobile Union artillery (18.1), on small
maps with the battle's parameters and on the Antietam scenario itself."""

import pytest
from combatmaps import of_type, refused, to_phase
from rulesmaps import board, rebel, sides, start, union

from rules.core.commands import EndPhase, MoveUnit
from rules.core.errors import RuleViolation
from rules.core.events import MovementRestrictionsLifted
from rules.core.game import Game
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

ANTIETAM = load("antietam")
BRIDGE = sides({("0909", "1009"): {"creek", "bridge"}})


def game(units):
    battle = ANTIETAM.exclusive
    exclusive = {"movement_quota": battle["movement_quota"], "may_not_move": battle["may_not_move"]}
    return start(
        [*units, rebel("far", "1010")], hexes=board(10, 10), hexsides=BRIDGE, exclusive=exclusive, cases={"classic": ANTIETAM.cases["revised"]}
    )


def sixteen():
    """Sixteen Union units in columns 01 and 03, rows 1-8; each may step one hex east."""
    return [union(f"u{c}{r}", f"{c:02d}{r:02d}") for c in (1, 3) for r in range(1, 9)]


def step_east(unit):
    c, r = int(unit[1]), int(unit[2:])
    return MoveUnit(unit, (f"{c:02d}{r:02d}", f"{c + 1:02d}{r:02d}"))


def test_fifteen_units_on_game_turn_one():
    # 20.1: "He may move only fifteen units on Game-Turn One"
    state = game(sixteen())
    movers = [u.id for u in sixteen()]
    for u in movers[:15]:
        state, _ = execute(state, step_east(u))
    error = refused(state, step_east(movers[15]))
    assert error.case == "20.1" and "15 units" in str(error)


def test_ten_units_on_each_following_game_turn():
    # 20.1: "He may move only ten units on each following Game-Turn"; "no limitations on the number of
    # units that may attack" (the quota binds movement only)
    state = to_phase(game(sixteen()), "union", "movement")
    for _ in range(4):  # Union movement, combat; Confederate movement, combat
        state, _ = execute(state, EndPhase())
    assert state.turn == 2
    movers = [u.id for u in sixteen()]
    for u in movers[:10]:
        state, _ = execute(state, step_east(u))
    assert refused(state, step_east(movers[10])).case == "20.1"


def test_reinforcements_of_game_turn_four_do_not_count_until_game_turn_five():
    # 20.1: "Union Reinforcements arriving on Game-Turn Four do not count against this restriction until
    # Game-Turn Five"
    state = game([union("a", "0101"), union("vi", None, arrives=4, entry=["0110"])])
    quota = state.game.battle.movement_quota
    state.turn = 4
    assert not quota.counts(state, "vi") and quota.counts(state, "a")
    state.turn = 5
    assert quota.counts(state, "vi")


def test_a_confederate_move_across_a_creek_hexside_lifts_every_union_restriction_for_good():
    # 20.1: "All movement restrictions are permanently removed from the Union Player in the Union
    # Player-Turn following the movement of any Confederate unit across a creek hex side"
    state = game([*sixteen(), rebel("c", "1009"), rebel("d", "0808")])
    state = to_phase(state, "confederate", "movement")
    state, events = execute(state, MoveUnit("d", ("0808", "0807")))  # no creek: nothing lifted
    assert of_type(events, MovementRestrictionsLifted) == [] and state.released == set()
    state, events = execute(state, MoveUnit("c", ("1009", "0909", "0908")))  # across the bridge 0909|1009
    (lifted,) = of_type(events, MovementRestrictionsLifted)
    assert (lifted.side, lifted.unit, lifted.hexside) == ("union", "c", "0909|1009")
    assert state.released == {"union"}
    # the Union Player-Turn following: all sixteen move (ten would be the limit on Game-Turn Two) ...
    state = to_phase(state, "union", "movement")
    assert state.turn == 2
    for u in sixteen():
        state, _ = execute(state, step_east(u.id))
    # ... and on every Game-Turn after ("permanently")
    state = to_phase(to_phase(state, "confederate", "movement"), "union", "movement")
    assert state.turn == 3 and state.game.battle.quota_remaining(state, "union") is None


def test_a_union_move_across_the_creek_lifts_nothing():
    # 20.1: only "the movement of any Confederate unit" lifts the restrictions
    state = game([union("a", "0909")])
    state, events = execute(state, MoveUnit("a", ("0909", "1009")))
    assert of_type(events, MovementRestrictionsLifted) == [] and state.released == set()


def test_the_units_of_five_hexes_may_not_move_on_game_turn_one():
    # 20.2: "The Confederate units which begin the game in hexes 0517, 0416, 0715, 0714, and 0613 may not
    # move during Game-Turn One"
    state = to_phase(new_game(Game(ANTIETAM, get_ruleset("revised"))), "confederate", "movement")
    held = [u.id for u in ANTIETAM.units if u.hex in ("0517", "0416", "0715", "0714", "0613")]
    assert len(held) == 10
    error = refused(state, MoveUnit("cs-barksdale", ("0517", "0518")))
    assert error.case == "20.2" and "Game-Turn 1" in str(error)
    state, _ = execute(state, MoveUnit("cs-pickett", ("0817", "0717")))  # a unit of another hex moves
    state, _ = execute(state, EndPhase())
    state = to_phase(state, "confederate", "movement")
    assert state.turn == 2
    state, _ = execute(state, MoveUnit("cs-barksdale", ("0517", "0518")))
    assert state.positions["cs-barksdale"] == "0518"


def test_walker_across_a_lower_ford_releases_the_union_army():
    # 20.1 on the battle's map: J.G. Walker (0920) crosses the lower ford 1221|1321 on Game-Turn One; from
    # the Union Player-Turn of Game-Turn Two the Union moves as many units as he likes. 18.1: the Union
    # artillery stays immobile ("which are capable of movement").
    state = to_phase(new_game(Game(ANTIETAM, get_ruleset("revised"))), "confederate", "movement")
    state, events = execute(state, MoveUnit("cs-j-g-walker", ("0920", "1020", "1121", "1221", "1321")))
    (lifted,) = of_type(events, MovementRestrictionsLifted)
    assert (lifted.side, lifted.unit, lifted.hexside, lifted.case) == ("union", "cs-j-g-walker", "1221|1321", "20.1")
    state = to_phase(state, "union", "movement")
    quota = state.game.battle.movement_quota
    assert state.turn == 2 and quota.remaining(state, "union") is None
    assert state.game.battle.quota_remaining(state, "union") is None
    with pytest.raises(RuleViolation) as e:
        execute(state, MoveUnit("us-art-b", ("1414", "1415")))
    assert e.value.case == "18.1"
