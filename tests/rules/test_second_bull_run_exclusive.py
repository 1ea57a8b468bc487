"""Second Bull Run's exclusive rules as components, under the revised rules (003, 17.3, 18.0, 19.0, 19.1),
on small custom maps (8 x 8 clear hexes): the Union Conditional Reinforcements brought by a die roll
(``conditional_reinforcements``), the four westernmost hex rows closed to the Union until Game-Turn Five
(``command_control_zone`` with ``opens_on_turn``), the Line of Communication to a road leading off the
east edge (``line_of_communications`` with ``edge_area``) and the Victory Points and levels (``victory``),
with the template's own blocks (scenarios/templates/second_bull_run/scenario.toml)."""

from __future__ import annotations

import tomllib

import pytest

from rules.core.commands import EndPhase, EnterReinforcement, MoveUnit
from rules.core.errors import RuleViolation
from rules.core.events import ConditionalReinforcementsRolled
from rules.core.game import Game
from rules.procedures import reinforcements
from rules.procedures.victory import end_points
from rules.queries.communications import cut_off
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import TEMPLATES_DIR
from tests.rules.combatmaps import rolls
from tests.rules.rulesmaps import rebel, scenario, sides, union

with (TEMPLATES_DIR / "second_bull_run" / "scenario.toml").open("rb") as f:
    TEMPLATE = tomllib.load(f)
BLOCKS = TEMPLATE["exclusive"]
CASES = {"revised": TEMPLATE["cases"]["revised"]}
WEST = [f"{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 5)]  # the four westernmost rows: 01-04
EAST = [f"{c:02d}08" for c in range(1, 9)]  # the east edge: row 08
ROAD = sides({("0408", "0407"): {"road"}, ("0407", "0406"): {"road"}})  # leads off the east edge at 0408


def game(units, blocks, turns=15):
    exclusive = {name: BLOCKS[name] for name in blocks}
    if "conditional_reinforcements" in blocks:  # the template's groups, on this map's units
        exclusive["conditional_reinforcements"] = {
            "groups": [
                {**BLOCKS["conditional_reinforcements"]["groups"][0], "units": ["ii-a", "ii-b"]},
                {**BLOCKS["conditional_reinforcements"]["groups"][1], "units": ["kan"]},
            ]
        }
    sc = scenario(units, hexsides=ROAD, exclusive=exclusive, cases=CASES, turns=turns, night_turns=[9],
                  areas={"four_westernmost_rows": WEST, "east_edge": EAST})
    return new_game(Game(sc, get_ruleset("revised")))


def to_union_movement(state, turn, die=1):
    """End phases up to the Union Movement Phase of ``turn`` (each roll made on the way: ``die``)."""
    while not (state.turn == turn and state.phasing == "union" and state.phase == "movement"):
        state, _ = execute(state, EndPhase(), lambda: die)
    return state


def conditional_units():
    return [
        union("u", "0606"),
        rebel("c", "0202"),
        union("ii-a", None, arrives=10, entry=("0106",)),
        union("ii-b", None, arrives=10, entry=("0106",)),
        union("kan", None, arrives=12, entry=("0807",)),
    ]


def test_the_template_gives_the_groups_of_17_3():
    groups = BLOCKS["conditional_reinforcements"]["groups"]
    assert [(g["name"], g["from_turn"], g["on"], len(g["units"])) for g in groups] == [("II Corps", 10, [6], 6), ("Kanawha Division", 12, [6], 1)]


def test_no_roll_before_game_turn_ten_and_the_ii_corps_arrives_on_a_six_17_3():
    s = game(conditional_units(), ["conditional_reinforcements"])
    s = to_union_movement(s, 9)
    assert reinforcements.due(s) == [] and not [k for k in s.scored if k.startswith("conditional")]  # 17.3: "Beginning with Game-Turn Ten"
    s = to_union_movement(s, 9)
    # the end of Game-Turn Nine's last phase begins the Union Player-Turn of Ten: its roll (a 5: nothing)
    while not (s.phasing == "confederate" and s.phase == "combat"):
        s, _ = execute(s, EndPhase(), lambda: 1)
    events = decide(s, EndPhase(), rolls(5))
    assert [(e.group, e.turn, e.roll, e.arrived, e.case) for e in events if isinstance(e, ConditionalReinforcementsRolled)] == [("II Corps", 10, 5, False, "17.3")]
    s = fold(s, events)
    assert reinforcements.due(s) == []
    with pytest.raises(RuleViolation) as e:
        decide(s, EnterReinforcement("ii-a", ("0106",)))
    assert e.value.case == "17.3"  # not brought: no entry
    # Game-Turn Eleven: a 6 brings the II Corps, which enters at once
    while not (s.phasing == "confederate" and s.phase == "combat"):
        s, _ = execute(s, EndPhase(), lambda: 1)
    events = decide(s, EndPhase(), rolls(6))
    assert [(e.group, e.turn, e.roll, e.arrived) for e in events if isinstance(e, ConditionalReinforcementsRolled)] == [("II Corps", 11, 6, True)]
    s = fold(s, events)
    assert reinforcements.due(s) == ["ii-a", "ii-b"]
    s, _ = execute(s, EnterReinforcement("ii-a", ("0106", "0206")))
    assert s.positions["ii-a"] == "0206"


def test_separate_rolls_for_each_group_from_game_turn_twelve_none_once_arrived_17_3():
    s = game(conditional_units(), ["conditional_reinforcements"])
    s = to_union_movement(s, 11)  # a 1 on Ten and Eleven: the II Corps has not arrived
    while not (s.phasing == "confederate" and s.phase == "combat"):
        s, _ = execute(s, EndPhase(), lambda: 1)
    events = decide(s, EndPhase(), rolls(2, 6))  # 17.3: "make separate die rolls for each group"
    assert [(e.group, e.roll, e.arrived) for e in events if isinstance(e, ConditionalReinforcementsRolled)] == [("II Corps", 2, False), ("Kanawha Division", 6, True)]
    s = fold(s, events)
    assert reinforcements.due(s) == ["kan"]
    while not (s.phasing == "confederate" and s.phase == "combat"):
        s, _ = execute(s, EndPhase(), lambda: 1)
    events = decide(s, EndPhase(), rolls(6))  # Thirteen: only the II Corps is rolled for now
    assert [(e.group, e.arrived) for e in events if isinstance(e, ConditionalReinforcementsRolled)] == [("II Corps", True)]


def test_union_units_may_not_enter_the_four_westernmost_rows_until_game_turn_five_18_0():
    s = game([union("u", "0406"), rebel("c", "0802"), rebel("d", "0107")], ["command_control_zone"], turns=6)
    with pytest.raises(RuleViolation) as e:
        decide(s, MoveUnit("u", ("0406", "0405", "0404")))  # 0404: row 04, one of the four
    assert e.value.case == "18.0"
    s, _ = execute(s, MoveUnit("u", ("0406", "0405")))  # up to the fifth row
    s = to_union_movement(s, 2)
    while not (s.phasing == "confederate" and s.phase == "movement"):
        s, _ = execute(s, EndPhase(), lambda: 1)
    s, _ = execute(s, MoveUnit("d", ("0107", "0106", "0105", "0104")))  # the Confederate enters freely
    assert s.positions["d"] == "0104"
    s = to_union_movement(s, 5)  # 18.0: "until Game-Turn Five"
    s, _ = execute(s, MoveUnit("u", ("0405", "0404", "0403")))
    assert s.positions["u"] == "0403"


def test_a_union_unit_cut_off_from_the_east_edge_road_scores_one_point_a_strength_point_19_0():
    # 19.0: contiguous hexes to a road leading off the east edge (0406-0407-0408), free of enemy units
    # and enemy zones of control unless a friendly unit occupies the hex
    blocks = ["line_of_communications", "victory"]
    free = game([union("u", "0204", strength=4), rebel("c", "0802")], blocks)
    line = free.game.battle.line_of_communications
    assert cut_off(free, line) == []
    # a ring of enemy zones of control round 0204 (the units at 0202, 0206 and 0404 control its six neighbours)
    ringed = game([union("u", "0204", strength=4), rebel("c1", "0202"), rebel("c2", "0206"), rebel("c3", "0404"), rebel("c4", "0104")], blocks)
    assert cut_off(ringed, line) == ["u"]
    awarded = [(a.side, a.points, a.subject) for a in end_points(ringed) if a.kind == "cut_off"]
    assert awarded == [("confederate", 4, "u")]  # one Victory Point per Union Combat Strength Point
    # friendly units in the enemy-controlled hexes 0305 and 0405 open the way through them to the road
    helped = game([union("u", "0204", strength=4), union("f", "0305"), union("g", "0405"), rebel("c1", "0202"), rebel("c2", "0206"), rebel("c3", "0404"), rebel("c4", "0104")], blocks)
    assert cut_off(helped, line) == []


def test_victory_points_and_the_ratio_levels_19_0_19_1():
    s = game([union("u", "0606"), rebel("c", "0202")], ["victory"])
    v = s.game.battle.victory
    # 19.0: two points a Combat Strength Point eliminated, either side
    assert (v.for_unit("confederate", "u", 3), v.for_unit("union", "c", 5)) == (6, 10)
    # 19.0: ten points for 2009 and 1207 each, to whichever Player occupies or last passed through it
    assert sorted((o.hex, o.points, o.side) for o in v.occupation) == [("1207", 10, None), ("2009", 10, None)]
    # 19.1: the level by the ratio of Confederate to Union Victory Points
    def level(c, u):
        return v.level_for({"confederate": c, "union": u})
    assert [level(30, 10), level(29, 10), level(20, 10), level(19, 10), level(16, 10), level(15, 10), level(11, 10)] == [
        "Confederate Decisive Victory", "Confederate Substantive Victory", "Confederate Substantive Victory",
        "Confederate Marginal Victory", "Confederate Marginal Victory", "Union Marginal Victory", "Union Marginal Victory",
    ]
    assert [level(10, 10), level(7, 10), level(20, 30), level(0, 10), level(0, 0)] == [
        "Union Substantive Victory", "Union Substantive Victory", "Union Decisive Victory", "Union Decisive Victory", "Union Substantive Victory",
    ]
