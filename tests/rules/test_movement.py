"""Movement (5.0–5.3) and the Terrain Effects Chart (9.0), each on a small map built for the case."""

import pytest
from rulesmaps import board, rebel, sides, start, union

from rules.core.commands import MoveUnit
from rules.core.errors import RuleViolation
from rules.core.events import UnitMoved
from rules.legal import unit_moves
from rules.procedures.movement import reachable
from rules.reducer import decide, execute

COLUMN = ("0101", "0102", "0103", "0104", "0105", "0106", "0107", "0108")


def refused(state, command) -> str:
    with pytest.raises(RuleViolation) as e:
        decide(state, command)
    assert e.value.message
    return e.value.case


def far_enemy():
    return rebel("c", "0808")


def test_six_clear_hexes_in_one_phase():
    # 5.0 example: "a unit can move through six clear terrain hexes in a single Movement Phase"; 2.4
    state = start([union("u", "0101"), far_enemy()])
    assert decide(state, MoveUnit("u", COLUMN[:7])) == [UnitMoved(unit="u", path=COLUMN[:7], cost=6)]
    assert reachable(state, "u").cost["0107"] == 6


def test_a_seventh_hex_exceeds_the_allowance():
    # 5.15: points spent may not exceed the movement allowance
    state = start([union("u", "0101"), far_enemy()])
    assert refused(state, MoveUnit("u", COLUMN)) == "5.15"
    assert "0108" not in unit_moves(state, "u")


def test_ford_into_forest_costs_four():
    # 5.25 example: "if a unit moves through a ford hexside into a forest hex, the cost is four"
    hexes = board(terrain={"0102": "forest"})
    state = start([union("u", "0101"), far_enemy()], hexes=hexes, hexsides=sides({("0101", "0102"): {"creek", "ford"}}))
    assert decide(state, MoveUnit("u", ("0101", "0102")))[0].cost == 4
    assert unit_moves(state, "u")["0102"].cost == 4


def test_creek_crossed_only_at_bridge_or_ford():
    # 5.25: never across a creek hexside except at a bridge (no extra cost) or a ford (+1)
    hexsides = sides({("0101", "0102"): {"creek"}, ("0102", "0103"): {"creek", "bridge"}})
    state = start([union("u", "0101"), union("v", "0102"), far_enemy()], hexsides=hexsides)
    assert refused(state, MoveUnit("u", ("0101", "0102"))) == "5.25"
    assert decide(state, MoveUnit("v", ("0102", "0103")))[0].cost == 1


def test_terrain_costs_of_the_chart():
    # 9.0 / 5.21: clear 1, forest 3, rough 3, forest-rough 6, town 1
    hexes = board(terrain={"0102": "forest", "0103": "rough", "0104": "town", "0105": "forest_rough"})
    state = start([union("u", "0101"), union("v", "0104"), far_enemy()], hexes=hexes)
    assert decide(state, MoveUnit("u", ("0101", "0102", "0103")))[0].cost == 6
    assert decide(state, MoveUnit("v", ("0104", "0105")))[0].cost == 6
    assert reachable(state, "v").cost["0103"] == 3
    state2 = start([union("u", "0103"), far_enemy()], hexes=hexes)
    assert decide(state2, MoveUnit("u", ("0103", "0104")))[0].cost == 1


def test_road_costs_one_whatever_the_terrain():
    # 5.22: road hex to road hex through a road hexside: one point, regardless of other terrain
    hexes = board(terrain={h: "forest_rough" for h in COLUMN[1:]})
    road = sides({(a, b): {"road"} for a, b in zip(COLUMN, COLUMN[1:], strict=False)})
    state = start([union("u", "0101"), far_enemy()], hexes=hexes, hexsides=road)
    assert decide(state, MoveUnit("u", COLUMN[:7]))[0].cost == 6


def test_trail_costs_two_into_forest_or_rough_and_one_into_clear():
    # 5.23; 9.0 "Ignore Trails in Clear Terrain"
    hexes = board(terrain={"0102": "forest", "0103": "rough", "0105": "forest_rough"})
    trail = sides({(a, b): {"trail"} for a, b in zip(COLUMN, COLUMN[1:], strict=False)})
    narrow = {h: t for h, t in hexes.items() if h.startswith("01")}  # one column: the trail only
    state = start([union("u", "0101"), rebel("c", "0108")], hexes=narrow, hexsides=trail)
    reach = reachable(state, "u")
    assert [reach.cost[h] for h in COLUMN[1:4]] == [2, 4, 5]
    assert "0105" not in reach.cost  # forest-rough by trail: 2 more, 7 in all
    assert decide(state, MoveUnit("u", COLUMN[:4]))[0].cost == 5  # forest 2 + rough 2 + clear 1


def test_rivers_may_never_be_entered():
    # 5.24: units may never enter river hexes
    hexes = board(terrain={"0102": "river"})
    state = start([union("u", "0101"), far_enemy()], hexes=hexes)
    assert refused(state, MoveUnit("u", ("0101", "0102"))) == "5.24"
    assert "0102" not in reachable(state, "u").cost


def ferry_map():
    # A river along row 3, with a ferry at 0103 whose arrows point north (0102) and south (0104).
    hexes = board(terrain={h: "river" for h in ("0203", "0303", "0403", "0503", "0603", "0703", "0803")})
    hexes["0103"] = "ferry"
    hexsides = sides({("0102", "0103"): {"ferry_crossing"}, ("0103", "0104"): {"ferry_crossing"}})
    return hexes, hexsides


def test_ferry_crossing_costs_three_and_follows_the_arrows():
    # 5.24, 9.0, 19.11: enter and leave only through the arrows' hexsides; 3 MP to enter
    hexes, hexsides = ferry_map()
    state = start([union("u", "0102"), union("v", "0202"), far_enemy()], hexes=hexes, hexsides=hexsides)
    assert decide(state, MoveUnit("u", ("0102", "0103", "0104")))[0].cost == 4
    assert refused(state, MoveUnit("v", ("0202", "0103", "0104"))) == "5.24"  # no arrow on 0202|0103
    assert refused(state, MoveUnit("u", ("0102", "0103", "0202"))) == "5.24"  # leaves off the arrows


def test_no_move_ends_in_a_ferry_hex():
    # 5.24, 19.12: units may never end their movement in a river ferry hex
    hexes, hexsides = ferry_map()
    state = start([union("u", "0102"), far_enemy()], hexes=hexes, hexsides=hexsides)
    assert refused(state, MoveUnit("u", ("0102", "0103"))) == "5.24"
    assert "0103" not in unit_moves(state, "u")


def test_ferry_entered_only_with_points_to_reach_the_far_bank():
    # 5.24: "only if they retain sufficient Movement points to enter the river ferry hex and the hex on
    # the opposite bank in the same Movement Phase"
    hexes, hexsides = ferry_map()
    hexes["0104"] = "forest"
    state = start([union("u", "0101"), far_enemy()], hexes=hexes, hexsides=hexsides)
    # 0102 (1) + ferry (3) = 4, then the forest bank would make 7 > 6.
    assert refused(state, MoveUnit("u", ("0101", "0102", "0103", "0104"))) == "5.15"
    moves = unit_moves(state, "u")
    assert "0103" not in moves and "0104" not in moves


def test_never_into_an_enemy_hex():
    # 5.12: a unit may never enter a hex containing an enemy unit
    state = start([union("u", "0101"), rebel("c", "0103")])
    assert refused(state, MoveUnit("u", ("0101", "0102", "0103"))) in {"5.12", "6.0"}
    assert refused(state, MoveUnit("u", ("0101", "0201", "0202", "0203", "0103"))) in {"5.12", "6.0"}
    assert "0103" not in reachable(state, "u").cost


def test_hexes_entered_one_by_one():
    # 5.16: a unit may not skip hexes
    state = start([union("u", "0101"), far_enemy()])
    assert refused(state, MoveUnit("u", ("0101", "0103"))) == "5.16"


def test_moved_unit_may_not_move_again():
    # 5.17: once moved, a unit may not move further in that Movement Phase
    state = start([union("u", "0101"), far_enemy()])
    state, _ = execute(state, MoveUnit("u", ("0101", "0102")))
    assert refused(state, MoveUnit("u", ("0102", "0103"))) == "5.17"
    assert unit_moves(state, "u") == {}


def test_through_friendly_units_at_no_cost():
    # 5.31, 5.33: through hexes of friendly units, any number, no extra cost
    units = [union("u", "0101"), union("a", "0102"), union("b", "0102"), union("d", "0103"), far_enemy()]
    state = start(units)
    assert decide(state, MoveUnit("u", ("0101", "0102", "0103", "0104")))[0].cost == 3


def test_friendly_zone_of_control_never_inhibits():
    # 5.34: friendly controlled hexes never inhibit friendly movement
    state = start([union("u", "0101"), union("f", "0203"), far_enemy()])
    assert decide(state, MoveUnit("u", COLUMN[:5]))[0].cost == 4


def test_off_the_map_is_refused():
    # 5.0, 2.1: movement is over the hexes of the map only
    state = start([union("u", "0101"), rebel("c", "0202")], hexes=board(2, 2))
    assert refused(state, MoveUnit("u", ("0101", "0100"))) == "5.0"
    assert refused(state, MoveUnit("u", ("0101", "0102", "0103"))) == "5.0"


def test_a_move_starts_at_the_units_hex():
    # 5.0 procedure: a path of contiguous hexes from the unit's hex
    state = start([union("u", "0101"), far_enemy()])
    assert refused(state, MoveUnit("u", ("0102", "0103"))) == "5.0"
    assert refused(state, MoveUnit("u", ("0101",))) == "5.0"


def test_every_offered_destination_is_accepted_with_its_cost():
    # 5.0–5.25: the choices and decide agree on a varied map
    hexes = board(terrain={"0102": "forest", "0203": "rough", "0302": "forest_rough", "0204": "river"})
    hexsides = sides({("0101", "0201"): {"creek"}, ("0102", "0202"): {"creek", "ford"}})
    state = start([union("u", "0101"), rebel("c", "0606")], hexes=hexes, hexsides=hexsides)
    for hex_, dest in unit_moves(state, "u").items():
        assert decide(state, MoveUnit("u", dest.path))[0].cost == dest.cost, hex_
