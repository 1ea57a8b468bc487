"""The Wilderness 18.1-18.2 (003): Union movement in the forest (the ``terrain_restrictions`` component,
18.11, 18.12, 18.14) and the sides' own movement costs (``terrain_costs``, 18.13, 18.21), with the
battle's own parameters, under the revised rules on small forest maps and on the battle's map.

The small map is forest but for the clear hexes named; even columns sit lower, so 0404's neighbours are
0403, 0405, 0304, 0305, 0504 and 0505."""

from __future__ import annotations

import pytest

from rules.core import terrain
from rules.core.commands import Advance, MoveUnit
from rules.core.decisions import PendingAdvance
from rules.core.errors import RuleViolation
from rules.core.game import Game
from rules.procedures.movement import check_path, reachable
from rules.procedures.retreat import AdvanceOption, advance_options, retreat_options
from rules.queries.zoc import enemy_controlled
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.rulesmaps import board, rebel, scenario, sides, union

WILDERNESS = load("wilderness")
EXCLUSIVE = {k: WILDERNESS.exclusive[k] for k in ("terrain_restrictions", "terrain_costs")}
CASES = {"revised": {k: v for k, v in WILDERNESS.cases["revised"].items() if k.startswith("terrain_")}}


def start(units, clear=("0404", "0403"), roads=(), trails=(), turn=1):
    hexsides = sides({**{p: {terrain.ROAD} for p in roads}, **{p: {terrain.TRAIL} for p in trails}})
    hexes = board(default="forest", terrain=dict.fromkeys(clear, "clear"))
    sc = scenario(units, hexes=hexes, hexsides=hexsides, exclusive=EXCLUSIVE, cases=CASES, turns=16)
    state = new_game(Game(sc, get_ruleset("revised")))
    state.turn = turn
    return state


def refusal(state, command) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        execute(state, command)
    return e.value


def test_the_wilderness_parameters():
    # 18.0, 18.1: the battle's blocks
    assert EXCLUSIVE == {
        "terrain_restrictions": {
            "side": "union",
            "only_along_routes": {"terrain": ["forest"], "turns": [1, 2, 3, 4, 5, 6, 7]},
            "only_near": {"terrain": ["clear"], "turns": [8, 9, 10, 11, 12, 13, 14, 15, 16]},
            "enemy_zoc_exempt": True,
        },
        "terrain_costs": {"hex_costs": {"union": {"forest": 3}}, "trails_at_road_rate": ["confederate"]},
    }


def test_on_the_first_day_union_units_enter_forest_only_along_roads_and_trails_18_11():
    # 0404 is clear; a road runs 0404-0504-0604 and a trail 0404-0305 into the forest
    state = start([union("u", "0404"), rebel("far", "0808")], roads=[("0404", "0504"), ("0504", "0604")], trails=[("0404", "0305")])
    ends = set(reachable(state, "u").ends)
    assert {"0504", "0604", "0305", "0403"} <= ends  # along the road, the trail; the clearing
    assert not ends & {"0405", "0304", "0505"}  # forest off the road
    assert refusal(state, MoveUnit("u", ("0404", "0405"))).case == "18.11"
    assert refusal(state, MoveUnit("u", ("0404", "0504", "0505"))).case == "18.11"  # "or through"
    state, _ = execute(state, MoveUnit("u", ("0404", "0504", "0604")))
    assert state.positions["u"] == "0604"


def test_they_may_always_enter_a_hex_in_an_enemy_zone_of_control_18_11():
    # the rebel at 0406 controls the forest hex 0405: u may enter it, "regardless of Terrain"
    state = start([union("u", "0404"), rebel("r", "0406")])
    assert "0405" in reachable(state, "u").ends
    state, _ = execute(state, MoveUnit("u", ("0404", "0405")))
    assert state.positions["u"] == "0405"


def test_the_confederate_is_not_restricted_18_11():
    state = start([rebel("r", "0404"), union("far", "0808")])
    state.phasing = "confederate"
    assert {"0405", "0304", "0505"} <= set(reachable(state, "r").ends)


def test_a_unit_in_a_prohibited_hex_may_leave_it_18_14():
    # 18.15, printed as the second 18.14: "Starting a Movement Phase in a prohibited hex ... does not affect the unit's
    # ability to move in that Phase. Exit is not prohibited": from the forest 0405 into the clear 0404;
    # not into the forest around it (18.11's note: units in non-road forest hexes are stuck)
    state = start([union("u", "0405"), rebel("far", "0808")])
    assert set(reachable(state, "u").ends) == {"0404", "0403"}
    boxed = start([union("u", "0606"), rebel("far", "0101")])
    assert reachable(boxed, "u").ends == []


def test_on_the_second_day_union_units_enter_only_hexes_adjacent_to_clear_road_or_trail_18_12():
    # Game-Turn Nine: 0405 is beside the clear 0404, 0406 beside nothing open; three points each
    state = start([union("u", "0404"), rebel("far", "0808")], clear=("0404",), turn=9)
    ends = set(reachable(state, "u").ends)
    assert {"0405", "0304", "0505"} <= ends
    assert "0406" not in ends
    refused = refusal(state, MoveUnit("u", ("0404", "0405", "0406")))
    assert refused.case == "18.12"
    # a trail makes its hexes open: 0406 beside the trail 0407-0408
    trail = start([union("u", "0404"), rebel("far", "0808")], clear=("0404",), trails=[("0407", "0408")], turn=9)
    assert "0406" in reachable(trail, "u").ends


def test_union_units_pay_three_movement_points_to_enter_forest_18_13():
    state = start([union("u", "0404"), rebel("r", "0808")], turn=9)
    assert check_path(state, "u", ("0404", "0405")) == 3
    assert check_path(state, "u", ("0404", "0403")) == 1  # clear
    state.phasing = "confederate"
    assert check_path(state, "r", ("0808", "0807")) == 2  # the chart's forest (10.1)


def test_confederate_units_move_along_trails_at_the_road_rate_18_21():
    trails = [("0202", "0203"), ("0203", "0204")]
    state = start([rebel("r", "0202"), union("u", "0602"), union("far", "0808")], trails=trails, turn=9)
    state.phasing = "confederate"
    assert check_path(state, "r", ("0202", "0203", "0204")) == 2  # one a hex
    state.phasing = "union"
    state.positions["u"] = "0202"
    del state.positions["r"]
    assert check_path(state, "u", ("0202", "0203", "0204")) == 4  # 6.24: two a forest trail hex


def test_no_advance_into_a_prohibited_hex_18_14():
    # Game-Turn One: the combat vacated the forest 0405 (no road); u (0404) may not advance into it, but
    # may along a road
    state = start([union("u", "0404"), rebel("far", "0808")])
    head = PendingAdvance(side="union", units=("u",), hexes=("0405",))
    assert advance_options(state, head) == []
    state.pending = [head]
    assert refusal(state, Advance("u", "0405")).case == "18.14"
    road = start([union("u", "0404"), rebel("far", "0808")], roads=[("0404", "0405")])
    assert advance_options(road, head) == [AdvanceOption("u", "0405")]


def test_a_retreat_enters_a_prohibited_hex_only_if_it_is_the_sole_path_18_14():
    # u (0404) retreats: 0403 (clear) is open, so not into the forest 0405, 0304, 0305, 0504, 0505
    state = start([union("u", "0404"), rebel("far", "0808")])
    assert [o.to for o in retreat_options(state, "u")] == ["0403"]
    # all forest around 0606: each may be taken, being the only paths open
    boxed = start([union("u", "0606"), rebel("far", "0101")])
    assert len(retreat_options(boxed, "u")) == 6


def test_on_the_battle_map_union_units_keep_to_roads_trails_and_clearings_on_the_first_day_18_11():
    state = new_game(Game(WILDERNESS, get_ruleset("revised")))
    game = state.game
    m = WILDERNESS.map
    state.phasing = "union"
    ezoc = enemy_controlled(state, "union")
    for unit in ("us-1-1-v", "us-2-2-vi", "us-1-3-vi", "us-1-4-v"):
        reach = reachable(state, unit)
        assert reach.ends, unit  # 18.11: every Union unit starts on a clear, road or trail hex
        for h in reach.ends:
            prev = reach.prev[h]
            along = m.features(prev, h) & {terrain.ROAD, terrain.TRAIL}
            assert game.terrain[h] == "clear" or along or h in ezoc, (unit, h)
    assert "0517" in ezoc and "0517" in reachable(state, "us-1-1-v").ends  # forest beside Jones (0417)
