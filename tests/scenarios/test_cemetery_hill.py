"""The Cemetery Hill scenario as shipped (003, the revised book, 15.0-25.0): the order of battle exactly as
the charts print it (16.1, 16.2, 17.1, 17.2, errata 24.0), the sequence of play (16.3, 16.4) and a
reconstructed map that agrees with every hex the rules name (17.0, 18.1, 19.1, 20.2, 20.4, 21.1, 21.2,
22.0)."""

from collections import deque

from charts import chart_rows, read_chart

from rules.core import terrain
from rules.core.hexes import Grid
from scenarios.loader import load

# 16.1 as printed (hex, chart strength, designation).
UNION_CHART = """
0610 15 3/I; 0708 11 2/I; 0907 11 1/I; 1307 9 3/XI; 1107 9 1/XI; 1212 9 2/XI; 1414 12 1/XII;
1515 12 2/XII; 1608 4c 2/1; 0412 4c 1/1; 0423 19 1/III
"""
# 16.2 as printed.
CONFEDERATE_CHART = """
1606 11 1 Early; 1304 11 2 Early; 0905 14 1 Rodes; 1105 10 2 Rodes; 0410 10 1 Heth; 0508 9 2 Heth;
0606 12 1 Pender; 0506 10 2 Pender; 0904 4a Brown; 0507 4a Pegram
"""
# 17.1 and 17.2 (Game-Turn/entry hex, chart strength, designation).
UNION_REINFORCEMENTS = """
2/0127 19 2/III; 3/1127 12 1/II; 3/1127 11 2/II; 3/1127 11 3/II; 4/2112 12 1/V; 4/2112 10 2/V;
4/1127 6a 1 Regular; 4/1127 6a 1 Volunteer; 4/1127 3a 2 Volunteer; 5/2112 8 3/V;
5/1127 6a 3 Volunteer; 5/1127 6a 4 Volunteer; 6/2112 5c 1/2; 6/2112 5c 2/2; 6/2112 4c 3/2;
6/2120 16 1/VI; 6/2120 16 3/VI; 6/2120 12 2/VI; 10/0127 5c 1/Reserve; 10/0127 5c 3/1
"""
CONFEDERATE_REINFORCEMENTS = """
2/0104 12 1 Johnson; 2/0104 12 2 Johnson; 2/0104 14 1 Anderson; 2/0104 9 2 Anderson;
2/0104 3a McIntosh; 3/0104 12 1 McLaw; 3/0104 10 2 McLaw; 3/0104 11 1 Hood; 3/0104 10 2 Hood;
3/0104 5a Alexander; 3/0104 3a Nelson; 6/1101 4c F. Lee; 6/1101 4c W. Lee; 9/0104 9 1 Pickett;
9/0104 9 2 Pickett; 9/0104 5c Hampton; 9/2101 4c Jenkins; 9/2101 4c Robertson
"""
TYPE = {"": "infantry", "a": "artillery", "c": "cavalry"}  # 16.0

SCENARIO = load("cemetery_hill")
GRID = Grid(SCENARIO.map.lower_columns)
HEXES = SCENARIO.map.hexes


def chart(text):
    return read_chart(text, TYPE)


def units(side, at_start):
    return chart_rows(SCENARIO, side, at_start)


def roads_from(hex_):
    return [n for n in GRID.neighbours(hex_) if terrain.ROAD in SCENARIO.map.features(hex_, n)]


def test_sequence_of_play():
    # 16.31 the Union is the first Player; 16.4 fifteen Game-Turns, Three, Eight and Thirteen Night Game-Turns
    assert (SCENARIO.first_player, SCENARIO.turns, SCENARIO.night_turns) == ("union", 15, [3, 8, 13])
    assert SCENARIO.rulesets == ["revised"]


def test_initial_deployment_exactly_as_the_charts_print_it():
    # 16.1, 16.2 (24.0: the chart supersedes the counters)
    assert units("union", True) == chart(UNION_CHART)
    assert units("confederate", True) == chart(CONFEDERATE_CHART)


def test_reinforcements_exactly_as_the_charts_print_them():
    # 17.1, 17.2
    assert units("union", False) == chart(UNION_REINFORCEMENTS)
    assert units("confederate", False) == chart(CONFEDERATE_REINFORCEMENTS)


def test_counts_and_strengths():
    # 16.1-17.2: 31 Union units (115 + 178 SP), 28 Confederate (95 + 140 SP); ids unique
    def total(side, at_start):
        return sum(s for _, s, _, _ in units(side, at_start))

    assert (total("union", True), total("union", False)) == (115, 178)
    assert (total("confederate", True), total("confederate", False)) == (95, 140)
    assert len(SCENARIO.units) == 59
    assert len({u.id for u in SCENARIO.units}) == 59


def test_the_outline_holds_every_hex_the_charts_name():
    # 2.1: 21 columns; odd columns 27 rows, even (lower) 26 rows
    assert SCENARIO.map.lower_columns == "even"
    assert len(HEXES) == 11 * 27 + 10 * 26
    named = {u.hex for u in SCENARIO.units if u.hex} | {h for u in SCENARIO.units for h in u.entry}
    assert named <= set(HEXES)


def test_the_closest_enemies_start_two_hexes_apart_on_ground_they_may_hold():
    # 16.1, 16.2: the closest enemies are two hexes apart (0412/0410, 0907/0905, 1107/1105, 1608/1606),
    # and 0708 against 0606, 0508 and 0507 (the project's notes on the map)
    placed = [(u.hex, u.side) for u in SCENARIO.units if u.hex]
    for pair in (("0412", "0410"), ("0907", "0905"), ("1107", "1105"), ("1608", "1606"), ("0708", "0606"), ("0708", "0508"), ("0708", "0507")):
        assert GRID.distance(*pair) == 2
    assert all(HEXES[h] in ("clear", "forest", "rough", "forest_rough", "town") for h, _ in placed)


def test_entry_hexes_are_map_edge_road_hexes():
    # 17.1, 17.2, 18.1 "map edge road hex"; 24.0 2112 a Union reinforcement hex
    entries = {h for u in SCENARIO.units for h in u.entry}
    assert entries == {"0127", "1127", "2112", "2120", "0104", "1101", "2101"}
    for h in entries:  # on the map edge: tests/scenarios/test_every_battle.py
        assert roads_from(h), h
    assert int("2112"[:2]) == int("2120"[:2]) == 21  # the east edge, 2120 south of 2112 (18.1)


def edge_road_hexes(column):
    return {h for h in HEXES if int(h[:2]) == column and roads_from(h)}


def road_network(start):
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in roads_from(h):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def test_roads_lead_off_both_friendly_edges():
    # 20.2, 20.4: roads lead off the east edge (Union) and the west edge (Confederate)
    assert edge_road_hexes(21) == {"2101", "2106", "2112", "2120"}
    assert edge_road_hexes(1) == {"0104", "0114", "0127"}
    # one road net: from the Diamond every entry hex and every edge road is reached
    net = road_network("1110")
    assert {"0104", "0114", "0127", "1101", "1127", "2101", "2106", "2112", "2120"} <= net


def test_the_hanover_road_carries_the_union_entry_2112():
    # 21.2, 24.0: 2112 is on the road east from the town (the Hanover Road)
    assert "2112" in road_network("1110")
    assert SCENARIO.map.areas["hanover_road_entry"] == ["2112"]


def test_town_cemetery_hill_and_the_ridges():
    # 19.1 town hexes; 21.1 Cemetery Hill (2/XI's 1212); 22.0 no ridge in the middle of Cemetery Ridge
    areas = SCENARIO.map.areas
    assert sorted(h for h, t in HEXES.items() if t == "town") == sorted(areas["gettysburg"])
    assert "1212" in areas["cemetery_hill"] and HEXES["1212"] == "rough"
    assert all(HEXES[h] == "forest_rough" for h in areas["culps_hill"])
    middle = [h for h in areas["cemetery_ridge"] if h not in ("1119",)]
    assert all(HEXES[h] == "clear" for h in middle)
    assert HEXES["1120"] == "rough"  # Little Round Top, where the ridge rises again
    # the town lies between the XI Corps hexes (1107, 1307) and Cemetery Hill (1212)
    assert all(9 <= int(h[2:]) <= 11 for h in areas["gettysburg"])
