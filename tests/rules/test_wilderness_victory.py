"""The Wilderness Victory Conditions (003 19.0-19.13) with the battle's own parameters
(scenarios/wilderness), on small maps where 0505, 0202 and 0707 play Spottswood (0810), Wilderness
Tavern (1415) and Hickman (1920), and on the Wilderness scenario itself."""

from __future__ import annotations

import json

from rules.core.commands import EndPhase, MoveUnit
from rules.core.events import VictoryDetermined, VictoryPointsAwarded
from rules.core.game import Game
from rules.procedures.victory import determine_victory
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.rulesmaps import rebel, scenario, union

WILDERNESS = load("wilderness")
MOVED = {"0810": "0505", "1415": "0202", "1920": "0707", "us-td-1": "td1", "us-td-2": "td2"}


def blocks() -> dict:
    """The battle's victory and control_hexes blocks, its hexes and Train Defence units moved."""
    text = json.dumps({k: WILDERNESS.exclusive[k] for k in ("victory", "control_hexes")})
    for a, b in MOVED.items():
        text = text.replace(f'"{a}"', f'"{b}"')
    return json.loads(text)


def start(units, turns=1):
    sc = scenario(units, exclusive=blocks(), turns=turns, first_player="confederate", cases=WILDERNESS.cases)
    return new_game(Game(sc, get_ruleset("revised")))


def final(state):
    """The end-of-game awards and the level (19.0: at the conclusion of the last Game-Turn)."""
    events = determine_victory(state)
    awards = [(e.side, e.points, e.kind, e.subject) for e in events if isinstance(e, VictoryPointsAwarded)]
    return awards, next(e for e in events if isinstance(e, VictoryDetermined))


def test_the_wilderness_schedule():
    # 19.11, 19.12 as scenario.toml writes them
    v = WILDERNESS.exclusive["victory"]
    assert v["per_enemy_strength_point_eliminated"] == {"union": 2, "confederate": 3}  # 19.11 i), 19.12 i)
    assert v["occupation"] == [{"hex": h, "points": 15} for h in ("0810", "1415", "1920")]  # 19.11 ii), 19.12 ii)
    assert v["all_eliminated"] == [{"side": "confederate", "units": ["us-td-1", "us-td-2"], "points": 15}]  # 19.12 iii)


def test_points_per_strength_point_eliminated_19_11_19_12():
    # 19.11 i) two per Confederate Strength Point; 19.12 i) three per Union Strength Point
    state = start([union("u", "0303", strength=4), rebel("r", "0808", strength=5), union("far", "0101")])
    state.positions.pop("u")
    state.positions.pop("r")
    state.eliminated = ["u", "r"]
    awards, result = final(state)
    assert ("confederate", 12, "eliminated", "u") in awards
    assert ("union", 10, "eliminated", "r") in awards


def test_fifteen_points_for_the_elimination_of_both_train_defence_units_19_12():
    units = [union("td1", "0303"), union("td2", "0304"), rebel("r", "0808"), union("far", "0101")]
    one = start(units)
    one.positions.pop("td1")
    one.eliminated = ["td1"]
    assert not [a for a in final(one)[0] if a[2] == "all_eliminated"]  # one is not both
    both = start(units)
    both.positions.pop("td1")
    both.positions.pop("td2")
    both.eliminated = ["td1", "td2"]
    assert ("confederate", 15, "all_eliminated", "td1 td2") in final(both)[0]


def test_all_territorial_objectives_are_initially_controlled_by_the_confederate_19_13():
    # 19.13 "All territorial objectives are initially controlled by the Confederate Player": 0202 (Wilderness
    # Tavern here) with a Union unit set up in it, 0505 (Spotswood) in the zone of control of the Union
    # unit set up at 0504, and 0707 (Hickman), which no unit touches, are all the Confederate's at the start
    state = start([union("w", "0202"), union("s", "0504"), rebel("r", "0808")])
    assert state.control == {"0505": "confederate", "0202": "confederate", "0707": "confederate"}
    # "Occupation for Victory Point purposes is calculated at the end of Game-Turn Sixteen": w, still
    # in 0202 then, is the last Player's unit to be in it; s's zone, never moved into 0505, takes nothing
    awards, _ = final(state)
    assert sorted(a for a in awards if a[2] == "occupation") == [
        ("confederate", 15, "occupation", "0505"),
        ("confederate", 15, "occupation", "0707"),
        ("union", 15, "occupation", "0202"),
    ]


def test_occupation_by_a_unit_or_its_zone_of_control_19_13():
    # 19.13: initially the Confederate's, all three (the test above); a Union unit or zone of control
    # that comes into one takes it
    state = start([union("w", "0202"), union("s", "0504"), rebel("r", "0808")])
    # the Union's zone of control reaches Hickman (0707) from 0706: the Union is the last to have it there
    state, _ = execute(state, EndPhase())  # the Confederate's Movement Phase
    state, _ = execute(state, EndPhase())  # its Combat Phase: the Union's Movement Phase
    state, _ = execute(state, MoveUnit("s", ("0504", "0604", "0605", "0706")))
    assert state.control["0707"] == "union" and state.positions["s"] == "0706"
    assert state.control["0505"] == "union"  # its zone reached 0505 from 0604 and 0605 on the way
    awards, _ = final(state)
    assert sorted(a for a in awards if a[2] == "occupation") == [
        ("union", 15, "occupation", "0202"),
        ("union", 15, "occupation", "0505"),
        ("union", 15, "occupation", "0707"),
    ]


def test_a_unit_in_the_hex_is_not_displaced_by_an_enemy_zone_of_control_19_13():
    # the rebel stands in Hickman (0707): a Union zone reaching it does not take it
    state = start([union("s", "0605"), rebel("r", "0707"), union("far", "0101")])
    assert state.control["0707"] == "confederate"
    state.phasing, state.phase = "union", "movement"
    state, _ = execute(state, MoveUnit("s", ("0605", "0606")))
    assert state.control["0707"] == "confederate"


def test_the_player_with_the_higher_total_wins_19_0():
    # 19.0: "the Player with the higher Victory Point total wins"; ruling: equal totals are a Draw
    game = Game(WILDERNESS, get_ruleset("revised"))
    levels = game.battle.victory
    assert levels.level_of(1) == "Union Victory"
    assert levels.level_of(40) == "Union Victory"
    assert levels.level_of(0) == "Draw"
    assert levels.level_of(-1) == "Confederate Victory"


def test_the_battle_at_the_start_19_13():
    # 19.13 on the battle's map: "All territorial objectives are initially controlled by the Confederate
    # Player", although 1/2/VI sets up in Wilderness Tavern (1415) and 3/1/VI and 1/1/VI beside Spotswood
    # (0810); were occupation calculated now, 1/2/VI standing in 1415 would be the last unit in it
    state = new_game(Game(WILDERNESS, get_ruleset("revised")))
    assert state.control == {"0810": "confederate", "1415": "confederate", "1920": "confederate"}
    awards, result = final(state)
    assert sorted(a for a in awards) == [
        ("confederate", 15, "occupation", "0810"),
        ("confederate", 15, "occupation", "1920"),
        ("union", 15, "occupation", "1415"),
    ]
    assert (result.union, result.confederate, result.level) == (15, 30, "Confederate Victory")
