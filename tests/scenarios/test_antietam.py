"""The Antietam scenario as shipped (003, the revised book, 15.0-22.2): the order of battle exactly as the
charts print it (16.1, 16.2, 17.1, 17.2), the sequence of play (16.3) and a map that agrees with every
hex and feature the rules name (17.1, 17.2, 19.1, 20.1, 20.2, 21.1, 21.3)."""

from collections import deque

from charts import read_chart

from rules.core import terrain
from rules.core.hexes import Grid
from scenarios.loader import load

# 16.1 as printed (hex, chart strength, designation); "l/3/I" is the OCR of 1/3/I (oob.toml).
UNION_CHART = """
0804 4 1/1/I; 0706 4 2/1/I; 0804 4 3/1/I; 0805 4 4/1/I; 1106 4 1/2/I; 1206 4 2/2/I; 1107 4 3/2/I;
1008 5 1/3/I; 0907 4 2/3/I; 0806 4 3/3/I; 1612 6 1/1/II; 1612 5 2/1/II; 1611 6 3/1/II; 1710 6
1/2/II; 1710 6 2/2/II; 1810 6 3/2/II; 1712 5 1/3/II; 1712 4 2/3/II; 1711 4 3/3/II; 1614 7 1/1/V;
1613 5 2/1/V; 1613 6 3/1/V; 1514 4 1/2/V; 1515 6 2/2/V; 1716 3 3/2/V; 1619 7 1/1/IX; 1618 5 2/1/IX;
1616 5 1/2/IX; 1618 5 2/2/IX; 1620 5 1/3/IX; 1520 4 2/3/IX; 1518 4 1/Ka/IX; 1417 4 2/Ka/IX; 1204 6
1/1/XII; 1203 6 3/1/XII; 1305 5 1/2/XII; 1304 4 2/2/XII; 1405 5 3/2/XII; 1709 2c 1; 1809 4c 2; 1808
2c 3; 1808 2c 4; 1909 2c 5; 1513 5a A; 1414 4a B; 1416 4a C
"""
# 16.2 as printed.
CONFEDERATE_CHART = """
0517 3 Barksdale; 0517 3 Kershaw; 0416 3 Semmes; 0416 3 Cobb; 0715 2 Wilcox; 0613 2 Pryor; 0714 3
Wright; 0714 2 Featherston; 0613 3 Armistead; 0715 2 Mahone; 0917 3 G.T. Anderson; 1218 2 Toombs;
0818 2 Drayton; 0819 2 Kemper; 0817 3 Pickett; 1016 3 Jenkins; 0920 10 J.G. Walker; 0811 4 Hood;
0811 3 Law; 0916 3 Evans; 0916 3a Washington; 0912 3a S.D. Lee; 0709 3 Winder; 0710 2 J.R. Jones;
0810 3 Taliaferro; 0711 4 Starke; 0809 3 Lawton; 0712 4 Early; 0710 3 Hays; 1010 3 Trimble; 1113 2
Garland; 1116 4 G.B. Anderson; 1010 2 Ripley; 1012 3 Colquitt; 1214 3 Rodes; 0921 4c Robertson; 0509
4c Hampton; 0409 4c F.H. Lee; 0508 2a Pelham; 1013 3a Jones; 1119 3a Cutts
"""
# 17.1 "Appearing on Game-Turn Four on hex 2112"; 17.2 "Appearing on Game-Turn Seven on hex 0126".
REINFORCEMENTS = """
4 5 1/1/VI; 4 5 2/1/VI; 4 5 3/1/VI; 4 6 1/2/VI; 4 6 2/2/VI; 4 6 3/2/VI
"""
TYPE = {"": "infantry", "a": "artillery", "c": "cavalry"}  # 16.0

SHARPSBURG = ["0815", "0816", "0716", "0616"]  # 19.1
BOTELERS_FORD = "0126"  # 19.1, 21.1
FOURTH_BRIDGE = "1128"  # 21.1
HELD_ON_TURN_ONE = ["0517", "0416", "0715", "0714", "0613"]  # 20.2

SCENARIO = load("antietam")
MAP = SCENARIO.map
GRID = Grid(MAP.lower_columns)


def chart(text):
    return read_chart(text, TYPE)


def neighbours(h):
    return [n for n in GRID.neighbours(h) if n in MAP.hexes]


def test_sequence_of_play():
    # 16.3 the Union is the first Player; ten Game-Turns, no Night Game-Turn named
    assert (SCENARIO.first_player, SCENARIO.turns, SCENARIO.night_turns) == ("union", 10, [])
    assert SCENARIO.rulesets == ["revised"]


def test_initial_deployment_as_the_charts_print_it():
    # 16.1, 16.2: every unit with its hex, strength, type and designation
    for side, text in (("union", UNION_CHART), ("confederate", CONFEDERATE_CHART)):
        placed = sorted(
            (u.hex, u.strength, u.type, u.designation) for u in SCENARIO.units if u.side == side and u.hex
        )
        assert placed == chart(text), side


def test_reinforcements_as_the_charts_print_them():
    # 17.0 the reinforcement chart; 17.1: VI Corps, six brigades, Game-Turn Four at 2112; 17.2: A.P.
    # Hill (16), Game-Turn Seven at 0126
    union = [u for u in SCENARIO.units if u.side == "union" and u.hex is None]
    assert sorted((str(u.arrives), u.strength, u.type, u.designation) for u in union) == chart(REINFORCEMENTS)
    assert all(u.entry == ["2112"] for u in union)
    (hill,) = [u for u in SCENARIO.units if u.side == "confederate" and u.hex is None]
    assert (hill.designation, hill.strength, hill.type, hill.arrives, hill.entry) == (
        "A.P. Hill",
        16,
        "infantry",
        7,
        ["0126"],
    )


def test_counts_and_unit_ids():
    units = SCENARIO.units
    assert len({u.id for u in units}) == len(units) == 94
    on_map = [u for u in units if u.hex]
    assert sum(u.strength for u in on_map if u.side == "union") == 210
    assert sum(u.strength for u in on_map if u.side == "confederate") == 126
    # 18.0: A, B and C are the only Union artillery
    assert sorted(u.designation for u in units if u.side == "union" and u.type == "artillery") == [
        "A",
        "B",
        "C",
    ]
    # designations that nearly repeat keep distinct ids
    ids = {u.designation: u.id for u in units}
    assert ids["Jones"] != ids["J.R. Jones"] and ids["G.T. Anderson"] != ids["G.B. Anderson"]


def test_ten_units_stand_where_20_2_holds_them():
    # 20.2 and the chart's note: the ten units of 0517, 0416, 0715, 0714, 0613
    held = [u for u in SCENARIO.units if u.hex in HELD_ON_TURN_ONE]
    assert len(held) == 10 and all(u.side == "confederate" for u in held)


def test_named_hexes_and_their_terrain():
    # 19.1: Sharpsburg's four hexes, contiguous, an area of the map, clear (no town row for Antietam)
    assert sorted(MAP.areas["sharpsburg"]) == sorted(SHARPSBURG)
    assert all(MAP.hexes[h] == terrain.CLEAR for h in SHARPSBURG)
    seen, todo = {SHARPSBURG[0]}, deque([SHARPSBURG[0]])
    while todo:
        for n in neighbours(todo.popleft()):
            if n in SHARPSBURG and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(SHARPSBURG)
    # 17.1, 17.2: the entry hexes lie on the map edge
    for h in ("2112", BOTELERS_FORD):
        assert len(neighbours(h)) < 6, h
    # 21.1: the fourth bridge at hex 1128 carries a bridge over the creek, with a road across it
    bridges = [
        n
        for n in neighbours(FOURTH_BRIDGE)
        if {terrain.CREEK, terrain.BRIDGE} <= MAP.features(FOURTH_BRIDGE, n)
    ]
    assert len(bridges) == 1 and terrain.ROAD in MAP.features(FOURTH_BRIDGE, bridges[0])
    # 21.1: "the rough Terrain area to the northeast of Sharpsburg" (D.H. Hill's line stands in it)
    assert all(MAP.hexes[h] == terrain.ROUGH for h in ("1012", "1113", "1214"))


def test_the_creek_its_bridges_and_fords():
    # 20.1 creek hexsides; 21.1 "the bridges", "the lower fords", "the fourth bridge"
    creek = {k: s.features for k, s in MAP.hexsides.items() if terrain.CREEK in s.features}
    bridges = [k for k, f in creek.items() if terrain.BRIDGE in f]
    fords = [k for k, f in creek.items() if terrain.FORD in f]
    assert len(bridges) == 4 and len(fords) == 3
    assert all(terrain.ROAD in creek[b] for b in bridges)  # each bridge carries a road


def west_bank():
    """The hexes reached from Sharpsburg without crossing a creek hexside."""
    seen, todo = {"0815"}, deque(["0815"])
    while todo:
        h = todo.popleft()
        for n in neighbours(h):
            if n not in seen and terrain.CREEK not in MAP.features(h, n):
                seen.add(n)
                todo.append(n)
    return seen


def test_the_creek_runs_between_the_armies():
    # 21.1: I and XII Corps "already across Antietam Creek"; II, V and IX Corps, the cavalry and the
    # Parrotts east of it; the whole Confederate army west of it, with Boteler's Ford (19.1)
    west = west_bank()
    assert BOTELERS_FORD in west and FOURTH_BRIDGE in west and "2112" not in west
    for u in SCENARIO.units:
        if u.hex is None:
            continue
        corps = u.designation.rsplit("/", 1)[-1]
        if u.side == "confederate" or corps in ("I", "XII"):
            assert u.hex in west, u.designation
        else:
            assert u.hex not in west, u.designation


def test_roads_join_sharpsburg_to_the_ford_and_the_bridges():
    # 19.1, 21.1: the road from Sharpsburg to Boteler's Ford; the pikes over the bridges
    roads = {}
    for key, side in MAP.hexsides.items():
        if terrain.ROAD in side.features:
            a, b = key.split("|")
            roads.setdefault(a, set()).add(b)
            roads.setdefault(b, set()).add(a)
    seen, todo = {"0616"}, deque(["0616"])
    while todo:
        for n in roads.get(todo.popleft(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert {BOTELERS_FORD, "2112", FOURTH_BRIDGE, *SHARPSBURG} <= seen


def test_the_set_up_is_in_open_country_and_sharpsburg_starts_empty():
    # the project's map notes, checked: every set-up hex is clear, forest or rough, and 19.1's four
    # Sharpsburg hexes start empty (the Confederate controls them without a unit there). No unit
    # beside an enemy: tests/scenarios/test_every_battle.py.
    placed = {u.id: u for u in SCENARIO.units if u.hex}
    assert all(MAP.hexes[u.hex] in (terrain.CLEAR, terrain.FOREST, terrain.ROUGH) for u in placed.values())
    assert not any(u.hex in SHARPSBURG for u in placed.values())
