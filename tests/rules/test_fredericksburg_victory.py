"""Fredericksburg 20.0 (the automatic Confederate victory at the end of Game-Turn Five) and 21.35 (the
Confederate's four Victory Points at the start), the ``victory`` component's ``automatic`` and
``at_start``, on small revised maps (8 x 8) with the battle's parameters (the hexes of 20.0 moved onto the
small map: 0404, 0505, 0606 stand for 1113, 1711, 2401)."""

from __future__ import annotations

from combatmaps import of_type
from rulesmaps import rebel, scenario, union

from rules.core.commands import EndPhase
from rules.core.events import GameEnded, GameTurnAdvanced, VictoryDetermined
from rules.core.game import Game
from rules.procedures.victory import elimination_points, recount
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

FREDERICKSBURG = load("fredericksburg")
CASES = {"revised": dict(FREDERICKSBURG.cases["revised"])}
HEXES = ["0404", "0505", "0606"]  # 20.0's 1113, 1711, 2401 on the small map


def victory_block():
    block = dict(FREDERICKSBURG.exclusive["victory"])
    block["occupation"] = []  # 21.13's hexes are not on the small map
    block["automatic"] = {**block["automatic"], "unless_enemy_occupies": HEXES}
    return block


def start(units, **kw):
    sc = scenario(units, exclusive={"victory": victory_block()}, cases=CASES, turns=11, first_player="confederate", **kw)
    return new_game(Game(sc, get_ruleset("revised")))


def eliminate(state, *units):
    for u in units:
        state.positions.pop(u, None)
        state.eliminated.append(u)


def end_of_turn(state, turn):
    """End phases from Game-Turn ``turn``'s first until that Game-Turn ends; the state and the events of
    the command that ended it."""
    state.turn = turn
    for _ in range(20):
        state, events = execute(state, EndPhase())
        if of_type(events, GameTurnAdvanced) or of_type(events, GameEnded):
            return state, events
    raise AssertionError("the Game-Turn never ended")


UNITS = [union("u1", "0101", strength=5), union("u2", "0102", strength=2), union("u3", "0103", strength=3),
         rebel("c1", "0808", strength=4), rebel("c2", "0807", strength=1)]


def test_the_confederate_starts_with_four_victory_points():
    # 21.35: "The Confederate Player starts the game with four Victory Points as a result of a previous exit"
    state = start(UNITS)
    assert state.vp == {"union": 0, "confederate": 4}
    assert recount(state, []) == {"union": 0, "confederate": 4}  # the referee's recount starts from them too
    assert FREDERICKSBURG.exclusive["victory"]["at_start"] == {"confederate": 4}


def test_three_to_one_in_eliminations_at_the_end_of_game_turn_five_wins_at_once():
    # 20.0: "At the end of Game-Turn Five ... If the Confederate Player has a total in Victory Points of 3:1
    # or greater than the Union Player (counting Points for elimination of Enemy units only), and if the
    # Union Player does not occupy hexes 1113, 1711 or 2401, the Confederate Player automatically wins"
    state = start(UNITS)
    eliminate(state, "u1", "u2", "c2")  # Confederate 7 points for eliminations, Union 1: 7:1
    assert elimination_points(state) == {"union": 1, "confederate": 7}
    state, events = end_of_turn(state, 5)
    (determined,) = of_type(events, VictoryDetermined)
    assert determined.level == "Confederate Automatic Victory"
    assert of_type(events, GameEnded) == [GameEnded(reason="automatic_victory", result="Confederate Automatic Victory")]
    assert state.game_over and state.result == "Confederate Automatic Victory" and state.turn == 5


def test_exactly_three_to_one_is_enough_and_less_is_not():
    # 20.0 "3:1 or greater": 6 to 2 wins; 5 to 2 plays on
    units = [union("u6", "0101", strength=6), union("u5", "0102", strength=5), rebel("c2", "0808", strength=2)]
    state = start(units)
    eliminate(state, "u6", "c2")
    assert elimination_points(state) == {"union": 2, "confederate": 6}
    _, events = end_of_turn(state, 5)
    assert of_type(events, GameEnded)[0].result == "Confederate Automatic Victory"
    state = start(units)
    eliminate(state, "u5", "c2")
    _, events = end_of_turn(state, 5)
    assert of_type(events, GameEnded) == [] and of_type(events, GameTurnAdvanced)[0].turn == 6


def test_eliminations_only_count():
    # 20.0 "(counting Points for elimination of Enemy units only)": the four points of 21.35 (an exit) do
    # not count: 4 + 2 against 1 in all, but 2 : 1 in eliminations
    units = [union("u2", "0101", strength=2), rebel("c1", "0808", strength=1), rebel("c5", "0807", strength=5)]
    state = start(units)
    eliminate(state, "u2", "c1")
    assert state.vp["confederate"] == 4 and elimination_points(state) == {"union": 1, "confederate": 2}
    _, events = end_of_turn(state, 5)
    assert of_type(events, GameEnded) == []


def test_not_if_the_union_occupies_one_of_the_three_hexes():
    # 20.0 "and if the Union Player does not occupy hexes 1113, 1711 or 2401": one occupied (21.21) is enough
    # to play on
    units = [union("u6", "0101", strength=6), union("held", "0505"), rebel("c1", "0808", strength=1)]
    state = start(units)
    assert state.control["0505"] == "union"  # tracked: occupied by its unit
    eliminate(state, "u6")
    _, events = end_of_turn(state, 5)
    assert of_type(events, GameEnded) == [] and of_type(events, GameTurnAdvanced)[0].turn == 6


def test_only_at_the_end_of_game_turn_five():
    # 20.0 "At the end of Game-Turn Five": at the end of Game-Turn Four nothing is judged, and after Five the
    # game goes on "through Game-Turn Eleven"
    units = [union("u6", "0101", strength=6), rebel("c1", "0808", strength=1)]
    state = start(units)
    eliminate(state, "u6")
    _, events = end_of_turn(state.copy(), 4)
    assert of_type(events, GameEnded) == [] and of_type(events, GameTurnAdvanced)[0].turn == 5
    _, events = end_of_turn(state.copy(), 6)
    assert of_type(events, GameEnded) == []


def test_nothing_to_nothing_is_no_automatic_victory():
    # 20.0 with no unit eliminated on either side: 0:0 is read as 1:1 (the battle's ratio ruling, 21.4)
    state = start(UNITS)
    _, events = end_of_turn(state, 5)
    assert of_type(events, GameEnded) == []


# --- 21.12 points for exited units, on the battle's map -------------------------------------------------


def exited_at(exits):
    """The battle at the start, then each unit of ``exits`` {unit: hex} off the map by that hex (as its
    ``ExitMap`` leaves it); the exit points due (21.12)."""
    from rules.core.events import UnitExited
    from rules.core.handlers import apply
    from rules.procedures.exits import exit_points

    state = new_game(Game(FREDERICKSBURG, get_ruleset("revised")))
    for unit, hex_ in exits.items():
        apply(state, UnitExited(unit=unit, path=(hex_,), cost=1))
    return {(a.side, a.subject, a.points) for a in exit_points(state)}, {a.case for a in exit_points(state)}


def test_exits_at_2027_score_per_brigade_and_double_for_divisions_and_cavalry():
    # 21.12 i) "One Victory Point to either Player for each Friendly artillery or infantry brigade exited
    # from the map sheet at hex 2027"; ii) "Two ... for each Friendly infantry division or cavalry brigade"
    points, cases = exited_at({
        "us-1-1-i": "2027", "us-art-rgd": "2027", "us-3-i": "2027", "us-cav-1-c-l": "2027",
        "cs-kershaw": "2027", "cs-art-walker": "2027", "cs-taliaferro": "2027",
    })
    assert points == {
        ("union", "us-1-1-i", 1), ("union", "us-art-rgd", 1), ("union", "us-3-i", 2), ("union", "us-cav-1-c-l", 2),
        ("confederate", "cs-kershaw", 1), ("confederate", "cs-art-walker", 1), ("confederate", "cs-taliaferro", 2),
    }
    assert cases == {"21.12"}


def test_union_exits_at_2501_score_per_strength_point_cavalry_double():
    # 21.12 iii) "One Victory Point for each Union artillery or infantry Combat Strength Point exited from the
    # map sheet at hex 2501; exited cavalry units count double": 1/1/I 6, LGd 3, 1/C/L 6 x 2
    points, _ = exited_at({"us-1-1-i": "2501", "us-art-lgd": "2501", "us-cav-1-c-l": "2501", "us-1-ii": "2501"})
    assert points == {("union", "us-1-1-i", 6), ("union", "us-art-lgd", 3), ("union", "us-cav-1-c-l", 12), ("union", "us-1-ii", 15)}


def test_union_exits_at_0113_score_per_brigade_divisions_and_cavalry_two():
    # 21.12 iv) "One Victory Point for each Union artillery or infantry brigade exited from the map sheet at
    # hex 0113; cavalry brigades or infantry divisions count as two Victory Points each"
    points, _ = exited_at({"us-1-3-iii": "0113", "us-art-r": "0113", "us-cav-1-c-r": "0113", "us-3-v": "0113"})
    assert points == {("union", "us-1-3-iii", 1), ("union", "us-art-r", 1), ("union", "us-cav-1-c-r", 2), ("union", "us-3-v", 2)}


def test_confederate_exits_at_0113_per_strength_point_and_at_2501_per_brigade():
    # 21.12 v) "One Victory Point for each Confederate artillery or infantry Combat Strength Point exited
    # from the map sheet at hex 0113"; vi) "One Victory Point for each Confederate artillery or infantry
    # brigade exited from the map sheet at hex 2501; cavalry brigades or infantry divisions count two"
    points, _ = exited_at({"cs-cobb": "0113", "cs-art-pendleton": "0113", "cs-ransom": "0113",
                           "cs-barksdale": "2501", "cs-art-cabell": "2501", "cs-early": "2501"})
    assert points == {
        ("confederate", "cs-cobb", 6), ("confederate", "cs-art-pendleton", 3), ("confederate", "cs-ransom", 10),
        ("confederate", "cs-barksdale", 1), ("confederate", "cs-art-cabell", 1), ("confederate", "cs-early", 2),
    }


def test_an_exit_by_the_enemys_scoring_hex_scores_nothing():
    # 21.12 iii)-vi) name the side: a Confederate exit at 2501 scores by vi), never by iii); none at all for a
    # unit that has not exited
    points, _ = exited_at({"cs-barksdale": "2501"})
    assert points == {("confederate", "cs-barksdale", 1)}
    points, _ = exited_at({})
    assert points == set()
