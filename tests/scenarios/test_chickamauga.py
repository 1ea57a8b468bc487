"""The Chickamauga scenario as shipped (003, the revised book, 15.0-26.0): the order of battle exactly as
the charts print it (16.1, 16.2, 17.1, 17.2, errata 25.1, 25.2), the sequence of play (16.3, 16.4) and a
map that agrees with every hex the rules name (17.0, 18.1, 21.12, 21.31, 21.32)."""

from collections import deque

from charts import read_chart

from rules.core import terrain
from rules.core.hexes import Grid
from scenarios.loader import SCENARIOS_DIR, load

# 16.1 as printed (hex, chart strength, designation).
UNION_CHART = """
1317 5 1/1/XIV; 1319 5 2/1/XIV; 1318 5 3/1/XIV; 1413 4 1/3/XIV; 1414 5 2/3/XIV; 1315 5 3/3/XIV;
1022 8 Wilder; 0822 5 2/4/XIV; 2011 5c 1/2; 1127 4 1/1/XXI; 1227 4 3/1/XXI; 0302 6 1/1/Res;
0402 4 2/1/Res; 1505 5 2/2/Res
"""
# 16.2 as printed, with 25.2 (Wood and Wilson 5, as the chart prints them).
CONFEDERATE_CHART = """
2026 5 Wood; 2027 5 Polk; 2022 3 Fulton; 1726 4 Brown; 1825 4 Bate; 1926 4 Clayton; 1526 7 Gracie;
1527 4 Trigg; 1626 3 Kelly; 2517 4 Gregg; 2317 4 McNair; 1721 4 Kershaw; 1921 3 Humphreys;
1821 4 Sheffield (aka Law); 2316 3 Robertson; 1922 3 Benning; 1820 4 Jackson; 1920 3 Maney;
1620 4 Smith; 1720 4 Wright; 2020 3 Strahl; 2120 5a 3; 2017 5 Colquitt (aka Gist); 2118 5 Ector;
2218 5 Wilson; 2422 4 Liddell; 2421 4 Walthall; 2212 3c Armstrong; 2411 3c Davidson;
2015 6c Dibrell (aka Forrest); 2314 6c Scott
"""
# 17.1 and 17.2 (Game-Turn, chart strength, designation); "1/2/X1V" read 1/2/XIV, "(1)" the Train
# (19.12: a Defence Strength of one only: it never attacks, 19.11).
UNION_REINFORCEMENTS = """
2 5 1/2/XIV; 2 4 2/2/XIV; 2 5 3/2/XIV; 2 3a XIV; 2 5 3/4/XIV; 2 4 1/2/XXI; 2 5 2/2/XXI; 2 5 3/2/XXI;
2 4 1/3/XXI; 2 4 2/3/XXI; 2 4 3/3/XXI; 2 3a XXI; 5 5 2/1/XX; 5 5 3/1/XX; 5 5 1/2/XX; 5 5 2/2/XX;
5 5 3/2/XX; 5 5 1/3/XX; 5 5 2/3/XX; 5 5 3/3/XX; 5 3a XX; 6 4c 1/1; 6 4c 3/1; 6 4c 2/1; 7 1 Train;
8 4c 2/2
"""
CONFEDERATE_REINFORCEMENTS = """
2 5 Deshler; 2 4 Helm; 2 4 Adams; 2 3 Stovall; 2 4a 2; 2 6 Deas; 2 6 Anderson; 2 6 Manigault;
2 3a 1; 5 3c Crews; 5 2c Russell; 5 4c Morgan; 5 5c Harrison
"""
TYPE = {"": "infantry", "a": "artillery", "c": "cavalry"}  # 16.0

# 21.12 and 21.2: the Victory Point hexes.
VICTORY_HEXES = {"1922": 10, "2311": 20, "0211": 20, "0502": 20, "0822": 5, "1207": 5, "1115": 5}


def chart(text):
    return read_chart(text, TYPE)


SCENARIO = load("chickamauga")


def test_sequence_of_play():
    # 16.3 the Union is the first Player; 16.4 fifteen Game-Turns, Game-Turn Nine a Night Game-Turn
    assert (SCENARIO.first_player, SCENARIO.turns, SCENARIO.night_turns) == ("union", 15, [9])
    assert SCENARIO.rulesets == ["revised"]


def test_initial_deployment_as_the_charts_print_it():
    # 16.1, 16.2
    for side, text in (("union", UNION_CHART), ("confederate", CONFEDERATE_CHART)):
        placed = sorted((u.hex, u.strength, u.type, u.designation) for u in SCENARIO.units if u.side == side and u.hex)
        assert placed == chart(text), side


def test_reinforcements_as_the_charts_print_them():
    # 17.1: at 0728 and/or 1027 (7, 8: "0728 or 1027"); 17.2: at 1627 and/or 1928
    for side, text, entry in (
        ("union", UNION_REINFORCEMENTS, ["0728", "1027"]),
        ("confederate", CONFEDERATE_REINFORCEMENTS, ["1627", "1928"]),
    ):
        arriving = [u for u in SCENARIO.units if u.side == side and u.hex is None]
        assert sorted((str(u.arrives), u.strength, u.type, u.designation) for u in arriving) == chart(text)
        assert all(u.entry == entry for u in arriving)


def test_errata_and_unit_ids():
    # 25.0 errata, 25.1: G.T. Anderson (Sharp) and Roddey are deleted; 20.0: Wilder's Movement Allowance 7;
    # 19.23: the Train's 6; ids are unique though designations repeat between arms
    names = {u.designation for u in SCENARIO.units}
    assert not names & {"G.T. Anderson", "Sharp", "Roddey"}
    assert SCENARIO.unit("us-wilder").movement_allowance == 7
    assert SCENARIO.unit("us-train").movement_allowance == 6
    assert len({u.id for u in SCENARIO.units}) == len(SCENARIO.units) == 84


def test_the_hexes_the_rules_name_are_on_the_map():
    # 17.0 entry hexes on the south edge, 18.1 exits on the west edge, 21.12 victory hexes
    hexes = SCENARIO.map.hexes
    grid = Grid(SCENARIO.map.lower_columns)
    on_edge = {h for h in hexes if sum(n in hexes for n in grid.neighbours(h)) < 6}
    assert {"0728", "1027", "1627", "1928", "0101", "0111"} <= on_edge
    assert set(VICTORY_HEXES) <= set(hexes)
    assert all(hexes[h] != terrain.RIVER for h in VICTORY_HEXES)
    # Alexander's Bridge (1922) and Dyer's Bridge (2311) are creek crossings
    assert {"creek", "bridge"} <= SCENARIO.map.features("1922", "2022")
    assert {"creek", "bridge"} <= SCENARIO.map.features("2311", "2411")


def road_network(scenario):
    out: dict[str, set[str]] = {}
    for name, side in scenario.map.hexsides.items():
        if terrain.ROAD in side.features:
            a, b = name.split("|")
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    return out


def reached(network, start):
    seen, todo = {start}, deque([start])
    while todo:
        for n in network.get(todo.popleft(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def test_roads_join_the_exits_to_the_east_edge_and_the_crossroads():
    # 21.31: contiguous road hexes from 0101 or 0111 off the eastern edge; 21.12: the crossroads 1207
    # and 1115 and the gaps 0211, 0502 on the roads to the exits (21.32)
    network = road_network(SCENARIO)
    from_exits = reached(network, "0101") | reached(network, "0111")
    east = max(int(h[:2]) for h in SCENARIO.map.hexes)
    assert any(int(h[:2]) == east for h in from_exits)
    assert {"1207", "1115", "0211", "0502", "0822", "1922", "2311", "0728"} <= from_exits
    assert len(network["1207"]) >= 3  # a crossroads


def test_licence_notice_travels_with_the_map():
    # The reference data's MIT notice (LICENSE-VALOR.txt of the reference map)
    notice = (SCENARIOS_DIR / "chickamauga" / "LICENSE-VALOR.txt").read_text()
    assert "MIT License" in notice and "Titanium Helix" in notice
    assert "LICENSE-VALOR.txt" in SCENARIO.provenance["map"]
