"""Revised 2nd edition movement (003: 2.4, 6.1x-6.4x, 7.x, 11.1x; 10.1 Terrain Effects Chart), each on a
small map built for the case and played under ``Game(scenario, "revised")``."""

from fractions import Fraction

import pytest
from rulesmaps import board, chattanooga_crt, rebel, union

from rules.core.commands import MoveUnit, StrategicMove
from rules.core.errors import RuleViolation
from rules.core.game import Game
from rules.core.hexes import hexside
from rules.core.scenario import Hexside, Map, Scenario
from rules.legal import choices
from rules.procedures.movement import check_path, reachable
from rules.reducer import decide, new_game
from rules.revised.movement import strategic_reach
from rules.rulesets import get as get_ruleset

COLUMN = ("0101", "0102", "0103", "0104", "0105", "0106", "0107", "0108", "0109", "0110")


def game(units, hexes=None, hexsides=None, levels=None, night_turns=None, exclusive=None, cases=None) -> Game:
    sc = Scenario(
        id="test",
        name="Test",
        rulesets=["classic", "revised"],
        turns=3,
        night_turns=night_turns or [],
        first_player="union",
        map=Map(lower_columns="even", hexes=hexes or board(10, 10), hexsides=hexsides or {}, levels=levels or {}),
        units=units,
        exclusive=exclusive or {},
        cases={"revised": cases or {}},
        crt=chattanooga_crt(),
    )
    return Game(sc, get_ruleset("revised"))


def start(units, **kw):
    return new_game(game(units, **kw))


def side(features, barbed=None, high=None):
    return Hexside(frozenset(features), barbed, high)


def refused(state, command) -> str:
    with pytest.raises(RuleViolation) as e:
        decide(state, command)
    return e.value.case


FAR = rebel("far", "1010")


def test_allowances_by_type_2_4():
    # 2.4: infantry and artillery 6, cavalry 8; cavalry never below 8 whatever its counter prints.
    g = game([union("i", "0101"), union("a", "0201", type_="artillery"), union("c", "0301", type_="cavalry"),
              union("c5", "0401", type_="cavalry", movement_allowance=5), FAR])
    assert [g.movement_allowance(u) for u in ("i", "a", "c", "c5")] == [6, 6, 8, 8]
    state = new_game(g)
    assert reachable(state, "c").cost.get("0309") == 8 and "0309" in reachable(state, "c").ends


def test_forest_costs_2_for_infantry_3_for_artillery_6_21_10_1():
    # 6.2, 6.21, 10.0, 10.1
    hexes = board(10, 10, {"0102": "forest", "0202": "forest"})
    state = start([union("i", "0101"), union("a", "0201", type_="artillery"), FAR], hexes=hexes)
    assert reachable(state, "i").cost["0102"] == 2
    assert reachable(state, "a").cost["0202"] == 3


def test_clear_level_3_costs_2_and_climbing_a_level_costs_1_more_6_26():
    levels = {"0102": 2, "0103": 3}
    state = start([union("i", "0101"), FAR], levels=levels)
    cost = reachable(state, "i").cost
    assert cost["0102"] == 1 + 1  # level 2 clear 1, up slope +1 (6.26)
    assert cost["0103"] == 2 + 2 + 1  # level 3 clear 2, up slope +1 (6.21, 10.1)


def test_down_slope_costs_nothing_6_26():
    state = start([union("i", "0102"), FAR], levels={"0102": 2})
    assert reachable(state, "i").cost["0103"] == 1


def test_slope_hexside_toward_its_high_hex_6_26():
    sides = {hexside("0101", "0102"): side({"slope"}, high="0102")}
    state = start([union("i", "0101"), union("j", "0103"), FAR], hexsides=sides)
    assert reachable(state, "i").cost["0102"] == 2
    assert reachable(state, "j").cost["0102"] == 1  # not through the slope hexside


def test_no_climb_along_a_road_6_26():
    # 6.23 road rate regardless of the terrain; 6.26 no climb along a road
    sides = {hexside("0101", "0102"): side({"road"})}
    state = start([union("i", "0101"), FAR], hexsides=sides, levels={"0102": 3})
    assert reachable(state, "i").cost["0102"] == 1


def test_turnpike_costs_two_thirds_exactly_6_22():
    # 6.22: exact thirds, never floats
    sides = {hexside(a, b): side({"turnpike"}) for a, b in zip(COLUMN, COLUMN[1:], strict=False)}
    hexes = board(10, 10, {h: "forest" for h in COLUMN[1:]})
    state = start([union("i", "0101"), FAR], hexsides=sides, hexes=hexes)
    cost = reachable(state, "i").cost
    assert cost["0102"] == Fraction(2, 3) and cost["0104"] == 2 and isinstance(cost["0102"], Fraction)
    assert cost["0110"] == 6  # nine turnpike hexes for six points
    assert check_path(state, "i", COLUMN) == 6


def test_turnpike_fractions_are_exact_on_the_wire_and_in_the_log_6_22():
    # 6.22: the choices carry each hex's exact cost (an int when whole, else "n/d"), the move's event
    # records it exactly, and both encode as JSON (the protocol's types)
    import msgspec

    from rules.core.arith import movement_points
    from rules.reducer import fold

    sides = {hexside(a, b): side({"turnpike"}) for a, b in zip(COLUMN, COLUMN[1:], strict=False)}
    hexes = board(10, 10, {h: "forest" for h in COLUMN[1:]})
    state = start([union("i", "0101"), FAR], hexsides=sides, hexes=hexes)
    moves = choices(state).moves["i"]
    assert (moves["0102"].cost, moves["0103"].cost, moves["0104"].cost, moves["0110"].cost) == ("2/3", "4/3", 2, 6)
    wire = msgspec.json.decode(msgspec.json.encode(choices(state)))["moves"]["i"]
    assert wire["0103"] == {"cost": "4/3", "path": ["0101", "0102", "0103"]}
    assert sum(Fraction(wire[h]["cost"]) for h in ("0102", "0103")) == 2  # a client adds them exactly
    events = decide(state, MoveUnit("i", COLUMN[:3]))
    assert events[0].cost == "4/3" and msgspec.json.decode(msgspec.json.encode(events[0]))["cost"] == "4/3"
    assert fold(state, events).positions["i"] == "0103"
    assert movement_points(Fraction(9, 3)) == 3


def test_trail_into_forest_2_into_clear_of_any_level_1_6_24():
    # 6.24, 10.1 "use other terrain cost if less"
    sides = {hexside("0101", "0102"): side({"trail"}), hexside("0201", "0202"): side({"trail"})}
    hexes = board(10, 10, {"0102": "forest_rough"})
    state = start([union("i", "0101"), union("j", "0201"), FAR], hexsides=sides, hexes=hexes, levels={"0202": 3})
    assert reachable(state, "i").cost["0102"] == 2
    assert reachable(state, "j").cost["0202"] == 1


def test_bridge_and_ford_hexsides_cost_one_more_even_along_a_road_6_29_6_25():
    # 6.23, 6.25, 6.29
    sides = {hexside("0101", "0102"): side({"creek", "bridge", "road"}), hexside("0201", "0202"): side({"creek", "ford"}),
             hexside("0301", "0302"): side({"creek"})}
    state = start([union("i", "0101"), union("j", "0201"), union("k", "0301"), FAR], hexsides=sides)
    assert reachable(state, "i").cost["0102"] == 2
    assert reachable(state, "j").cost["0202"] == 2
    assert refused(state, MoveUnit("k", ("0301", "0302"))) == "6.29"


def test_stream_and_ridge_hexsides_cost_two_more_10_1_6_25():
    # 6.25, 10.1: stream +2, ridge +2
    sides = {hexside("0101", "0102"): side({"stream", "road"}), hexside("0201", "0202"): side({"ridge"})}
    state = start([union("i", "0101"), union("j", "0201"), FAR], hexsides=sides)
    assert check_path(state, "i", ("0101", "0102")) == 3  # road 1 + stream 2: not negated by the road
    assert check_path(state, "j", ("0201", "0202")) == 3


def test_entering_an_enemy_controlled_hex_costs_at_least_two_7_2():
    state = start([union("i", "0101"), rebel("r", "0104")])
    reach = reachable(state, "i")
    assert reach.cost["0103"] == 1 + 2  # 0103 is enemy-controlled: 2, not 1
    assert decide(state, MoveUnit("i", ("0101", "0102", "0103")))[0].cost == 3


def test_examples_of_7_2_stream_into_forest_and_clear_cost_four():
    sides = {hexside("0102", "0103"): side({"stream"}), hexside("0202", "0203"): side({"stream"})}
    hexes = board(10, 10, {"0103": "forest"})
    state = start([union("i", "0102"), union("j", "0202"), rebel("r", "0104"), rebel("s", "0204")], hexsides=sides, hexes=hexes)
    assert check_path(state, "i", ("0102", "0103")) == 4
    assert check_path(state, "j", ("0202", "0203")) == 4


def test_no_road_rate_into_an_enemy_zone_6_25_7_2():
    # 6.25, 7.2
    sides = {hexside(a, b): side({"road"}) for a, b in zip(COLUMN, COLUMN[1:], strict=False)}
    hexes = board(10, 10, {h: "forest" for h in COLUMN})
    state = start([union("i", "0101"), rebel("r", "0105")], hexsides=sides, hexes=hexes)
    assert reachable(state, "i").cost["0104"] == 2 + 2  # road to 0103, then forest 2 into the zone


def test_may_not_exit_an_enemy_controlled_hex_6_13_7_4():
    # 6.13, 7.4
    state = start([union("i", "0102"), rebel("r", "0103")])
    assert refused(state, MoveUnit("i", ("0102", "0101"))) == "6.13"


def test_stops_on_entering_an_enemy_controlled_hex_7_0():
    state = start([union("i", "0101"), rebel("r", "0104")])
    assert refused(state, MoveUnit("i", ("0101", "0102", "0103", "0203"))) == "7.0"


def test_never_into_an_enemy_occupied_hex_6_12():
    sides = {hexside("0101", "0102"): side({"trench"}, barbed="0102")}  # r exerts no zone into 0101
    state = start([union("i", "0101"), rebel("r", "0102")], hexsides=sides)
    assert refused(state, MoveUnit("i", ("0101", "0102"))) == "6.12"


def test_allowance_may_not_be_exceeded_6_15():
    state = start([union("i", "0101"), FAR])
    assert refused(state, MoveUnit("i", COLUMN[:8])) == "6.15"


def test_hexes_entered_one_by_one_6_17():
    state = start([union("i", "0101"), FAR])
    assert refused(state, MoveUnit("i", ("0101", "0103"))) == "6.17"


def test_may_always_move_one_hex_6_16():
    # 6.16: one hex is always allowed, whatever its cost (6.15's exception)
    hexes = board(10, 10, {"0102": "forest_rough"})
    sides = {hexside("0101", "0102"): side({"stream"})}
    state = start([union("a", "0101", type_="artillery"), FAR], hexes=hexes, hexsides=sides)
    assert check_path(state, "a", ("0101", "0102")) == 6 + 2  # more than 6: one hex is always allowed
    assert "0102" in reachable(state, "a").ends


def test_artillery_enters_an_enemy_zone_only_where_friendly_infantry_is_7_3():
    state = start([union("a", "0101", type_="artillery"), union("i", "0202"), rebel("r", "0103")])
    ends = reachable(state, "a").ends
    assert "0102" not in ends  # enemy-controlled, no friend there
    assert "0202" in ends  # enemy-controlled, friendly infantry there
    assert refused(state, MoveUnit("a", ("0101", "0102"))) == "7.3"


def test_zones_of_control_do_not_cross_into_a_trench_hex_7_6_10_39():
    # 7.6, 10.39
    sides = {hexside("0103", "0104"): side({"trench"}, barbed="0104")}
    state = start([union("i", "0101"), rebel("r", "0104")], hexsides=sides)
    # 0103 lies behind the trench hexside, seen from the enemy in 0104: not controlled by it
    assert reachable(state, "i").cost["0103"] == 2 and "0203" in reachable(state, "i").ends


def test_stacking_two_units_6_32():
    state = start([union("a", "0101"), union("b", "0102"), union("c", "0103"), FAR])
    from rules.core.commands import EndPhase
    from rules.reducer import execute

    state, _ = execute(state, MoveUnit("a", ("0101", "0102")))
    state, _ = execute(state, MoveUnit("c", ("0103", "0102")))
    assert refused(state, EndPhase()) == "6.32"


def test_night_allowance_one_less_11_11():
    # 11.0, 11.1, 11.11: the basic Movement Allowance is reduced by one at night
    state = start([union("i", "0101"), FAR], night_turns=[1])
    assert "0106" in reachable(state, "i").ends and "0107" not in reachable(state, "i").ends


def test_night_a_unit_may_leave_an_enemy_zone_but_not_re_enter_one_11_12():
    # 11.12 (and 6.13's exception): leave at night, never re-enter the same night
    state = start([union("i", "0102"), rebel("r", "0103"), rebel("s", "0406")], night_turns=[1])
    reach = reachable(state, "i")
    assert "0101" in reach.ends  # leaves the zone of r
    assert "0306" not in reach.ends and "0304" in reach.ends  # s controls 0306: not re-entered


def test_night_an_undisturbed_unit_may_enter_an_enemy_zone_11_12():
    # 11.12, 11.21: at night a unit may move into an enemy zone of control (then attacks, 11.21)
    state = start([union("i", "0101"), rebel("r", "0104")], night_turns=[1])
    assert "0103" in reachable(state, "i").ends


def road_column():
    return {hexside(a, b): side({"road"}) for a, b in zip(COLUMN, COLUMN[1:], strict=False)}


def test_strategic_movement_adds_two_along_roads_6_42_6_45():
    # 6.4, 6.42, 6.45
    state = start([union("i", "0101"), rebel("far", "0910")], hexsides=road_column())
    reach = strategic_reach(state, "i")
    assert reach.cost["0109"] == 8 and "0109" in reach.ends
    assert "0202" not in reach.cost  # off the road (6.45)
    assert decide(state, StrategicMove(unit="i", path=COLUMN[:9]))[0].cost == 8
    assert refused(state, StrategicMove(unit="i", path=("0101", "0102", "0202"))) == "6.45"


def test_strategic_movement_cavalry_adds_four_6_43():
    # 6.43: cavalry 8 + 4
    state = start([union("c", "0101", type_="cavalry"), rebel("far", "0910")], hexsides=road_column())
    assert strategic_allowance_of(state, "c") == 12


def strategic_allowance_of(state, unit):
    from rules.revised.movement import strategic_allowance

    return strategic_allowance(state, unit)


def test_strategic_movement_one_less_at_night_6_46_11_11():
    # 6.46, 11.11: one less strategic bonus at night, on the night allowance
    state = start([union("i", "0101"), union("c", "0201", type_="cavalry"), rebel("far", "0910")], night_turns=[1])
    assert strategic_allowance_of(state, "i") == 5 + 1 and strategic_allowance_of(state, "c") == 7 + 3


def test_strategic_movement_only_three_hexes_from_the_enemy_6_41_6_44():
    state = start([union("i", "0101"), rebel("r", "0302")], hexsides=road_column())
    assert refused(state, StrategicMove(unit="i", path=("0101", "0102"))) == "6.41"
    state = start([union("i", "0101"), rebel("r", "0307")], hexsides=road_column())
    reach = strategic_reach(state, "i")
    assert "0105" in reach.ends and "0106" not in reach.cost  # 0106 is two hexes from 0307 (6.44)
    assert refused(state, StrategicMove(unit="i", path=COLUMN[:6])) == "6.44"


def test_strategic_moves_are_offered_6_4():
    state = start([union("i", "0101"), rebel("far", "0910")], hexsides=road_column())
    offered = choices(state).strategic["i"]
    assert offered["0109"].cost == 8
    assert decide(state, StrategicMove(unit="i", path=offered["0109"].path))


def test_reinforcements_may_enter_in_an_enemy_zone_but_not_an_enemy_hex_5_4():
    # 5.4, 7.2, 6.12
    from rules.core.commands import EnterReinforcement
    from rules.procedures.reinforcements import entry_cost

    state = start([union("r", None, arrives=1, entry=["0101", "0105"]), rebel("s", "0102"), rebel("t", "0105")])
    assert entry_cost(state, "0101", "r") == 2  # clear 1, but 2 into an enemy-controlled hex (7.2)
    (event,) = decide(state, EnterReinforcement(unit="r", path=("0101",)))
    assert event.cost == 2
    assert refused(state, EnterReinforcement(unit="r", path=("0101", "0201"))) == "6.13"  # it stops there
    assert refused(state, EnterReinforcement(unit="r", path=("0105",))) == "6.12"


def test_reinforcements_column_of_stacks_pays_more_per_stack_5_0():
    # 5.0 column of stacks; 5.1 entering at any time of the Movement Phase; 5.2 moving on like any unit
    from rules.core.commands import EnterReinforcement
    from rules.procedures.reinforcements import entry_cost
    from rules.reducer import execute

    units = [union(f"r{i}", None, arrives=1, entry=["0105"]) for i in range(5)]
    state = start([*units, FAR])
    paths = [("0105", "0106"), ("0105", "0104"), ("0105", "0106", "0107"), ("0105", "0104", "0103"), ("0105", "0106", "0107", "0108")]
    costs = []
    for i in range(5):
        costs.append(entry_cost(state, "0105", f"r{i}"))
        state, _ = execute(state, EnterReinforcement(unit=f"r{i}", path=paths[i]))
    assert costs == [1, 1, 2, 2, 3]


def test_reinforcement_column_along_a_turnpike_pays_two_thirds_per_stack_5_0():
    # 5.0 exception: 2/3 MP more per prior stack along a turnpike (6.22)
    from rules.core.commands import EnterReinforcement
    from rules.procedures.reinforcements import entry_cost
    from rules.reducer import execute

    sides = {hexside("0105", "0205"): side({"turnpike"})}
    units = [union(f"r{i}", None, arrives=1, entry=["0105"]) for i in range(3)]
    state = start([*units, FAR], hexsides=sides)
    for i in range(2):
        state, _ = execute(state, EnterReinforcement(unit=f"r{i}", path=("0105", ("0104", "0106")[i])))
    assert entry_cost(state, "0105", "r2") == Fraction(5, 3)


def test_units_move_only_in_their_own_movement_phase_6_11():
    state = start([union("i", "0101"), rebel("r", "1010")])
    assert refused(state, MoveUnit("r", ("1010", "1009"))) == "6.11"


def test_never_off_the_map_2_1():
    # 2.1, 6.0: units may not move off the map sheet
    state = start([union("i", "0101"), FAR])
    assert refused(state, MoveUnit("i", ("0101", "0100"))) == "6.0"


def test_rivers_and_lakes_may_not_be_entered_6_27():
    hexes = board(10, 10, {"0102": "river", "0202": "lake"})
    state = start([union("i", "0101"), union("j", "0201"), FAR], hexes=hexes)
    assert refused(state, MoveUnit("i", ("0101", "0102"))) == "6.27"
    assert "0202" not in reachable(state, "j").cost
    sides = {hexside("0301", "0302"): side({"river_side"})}
    state = start([union("k", "0301"), FAR], hexsides=sides)
    assert refused(state, MoveUnit("k", ("0301", "0302"))) == "6.27"


def test_ferry_hexes_never_ended_in_and_entered_through_their_arrows_6_28():
    hexes = board(10, 10, {"0102": "ferry"})
    sides = {hexside("0101", "0102"): side({"ferry_crossing"}), hexside("0102", "0103"): side({"ferry_crossing"})}
    state = start([union("i", "0101"), union("j", "0201"), FAR], hexes=hexes, hexsides=sides)
    assert refused(state, MoveUnit("i", ("0101", "0102"))) == "6.28"
    assert check_path(state, "i", ("0101", "0102", "0103")) == 3 + 1
    assert "0102" not in reachable(state, "j").ends


def test_friendly_units_and_zones_do_not_hinder_6_31_6_33_6_34():
    units = [union("i", "0101"), union("a", "0102"), union("b", "0103"), union("c", "0203"), FAR]
    state = start(units)
    assert check_path(state, "i", COLUMN[:6]) == 5  # through friendly hexes, no extra cost (6.31, 6.33)
    assert "0104" in reachable(state, "i").ends  # friendly zones of control never inhibit (6.34)


def test_zones_of_control_are_mutual_and_always_there_7_1_7_5():
    from rules.queries.zoc import enemy_controlled

    state = start([union("i", "0101"), rebel("r", "0102")])
    assert "0101" in enemy_controlled(state, "union") and "0102" in enemy_controlled(state, "confederate")  # 7.1
    state = start([union("i", "0101"), union("j", "0103"), rebel("r", "0102"), rebel("s", "0104")])
    assert "0103" in enemy_controlled(state, "union") and "0102" in enemy_controlled(state, "confederate")  # 7.5


def test_no_extra_cost_when_entering_a_zone_costs_two_already_7_2():
    hexes = board(10, 10, {"0102": "forest"})
    state = start([union("i", "0101"), rebel("r", "0103")], hexes=hexes)
    assert check_path(state, "i", ("0101", "0102")) == 2


def test_moved_once_6_18():
    state = start([union("i", "0101"), FAR])
    from rules.reducer import execute

    state, _ = execute(state, MoveUnit("i", ("0101", "0102")))
    assert refused(state, MoveUnit("i", ("0102", "0103"))) == "6.18"


def test_the_revised_sequence_has_a_combat_phase_at_night_4_0_11_2():
    # 4.0, 11.0, 11.2
    from rules.core.commands import EndPhase
    from rules.reducer import execute

    state = start([union("i", "0101"), FAR], night_turns=[1])
    state, _ = execute(state, EndPhase())
    assert state.phase == "combat"  # 4.0 B: rally and combat; 11.2: night combat


def test_terrain_effects_chart_movement_column_10_1():
    # 10.0, 10.1: the Terrain Effects Chart's movement column (the "*" second figure for artillery)
    from rules.revised.movement import hex_cost

    kinds = {"0102": "forest", "0103": "rough", "0104": "forest_rough", "0105": "swamp", "0106": "town", "0107": "pond"}
    g = game([union("i", "0101"), FAR], hexes=board(10, 10, kinds))
    assert [hex_cost(g, "infantry", h) for h in kinds] == [2, 3, 5, 3, 1, None]
    assert [hex_cost(g, "artillery", h) for h in kinds] == [3, 3, 6, 4, 1, None]


def test_no_combat_in_the_movement_phase_6_14():
    from rules.core.commands import DeclareAttack

    state = start([union("i", "0101"), rebel("r", "0102")])
    assert refused(state, DeclareAttack(attackers=("i",), defenders=("0102",))) == "6.14"


def test_only_units_with_a_route_to_take_are_offered_strategic_movement():
    # 6.45: Strategic Movement follows routes only; a unit off every route is not named in the choices,
    # and asked anyway, its reach says which rule stops it
    from rules.legal import reach

    state = start([union("r", "0101"), union("o", "0505"), rebel("c", "1010")], hexsides=road_column())
    summary = choices(state, destinations=False)
    assert summary.may_move_strategically == ["r"]
    assert set(choices(state).strategic) == {"r"}
    found, why = reach(state, "o", "strategic")
    assert found == {} and why.case == "6.45" and "no route to follow from 0505" in why.message


def test_hexes_within_a_distance_are_those_the_grid_measures():
    # 6.41, 6.44, 10.34: "within n hexes" of a set of hexes, by the union of each hex's disk
    from rules.revised.movement import _within

    g = game([union("u", "0101"), rebel("c", "1010")])
    for hexes, n in ((["0505"], 2), (["0101", "1010", "0407"], 3), ([], 2)):
        near = _within(g, hexes, n) & set(g.terrain)  # (it may name hexes off the map: never asked about)
        assert near == {h for h in g.terrain if any(g.grid.distance(h, e) <= n for e in hexes)}
