"""The Battle of the Wilderness scenario as shipped (003, the revised book, 15.0-23.0): the order of
battle exactly as the charts print it (16.1, 16.2, 17.1, 17.2), the sequence of play (16.3, 16.4) and
a reconstructed map that agrees with every hex the rules name (17.0, 18.0, 19.1, 22.1;
scenarios/wilderness/NOTES.md)."""

from collections import deque

from charts import chart_rows, read_chart

from rules.core import terrain
from rules.core.hexes import Grid
from scenarios.loader import load

# 16.1 as printed (hex, chart strength, designation).
UNION_CHART = """
0616 12 1/1/V; 0717 6 2/1/V; 0816 9 3/1/V; 1016 4 1/2/V; 1116 6 2/2/V; 1117 4 3/2/V; 1217 6a V;
0923 6 1/3/V; 0922 4 3/3/V; 0719 12 1/4/V; 0819 5 2/4/V; 0818 5 3/4/V; 0911 9 1/1/VI; 1010 7 2/1/VI;
1415 8 1/2/VI; 0910 8 3/1/VI; 1315 8 2/2/VI; 1011 8 3/2/VI; 1214 7 4/2/VI; 1213 6a VI; 0303 8 1/3/VI;
0202 9 2/3/VI
"""
# 16.2 as printed.
CONFEDERATE_CHART = """
0414 5 Stafford; 0415 6 Stonewall; 0416 5 Stuart; 0417 6 Jones; 0318 6 Battle; 0319 5 Doles;
0419 7 Daniel; 0217 7 Gordon; 0218 6 Pegram; 0118 6 Hays; 0119 2a 2
"""
# 17.1 and 17.2 (Game-Turn/entry hexes, chart strength, designation).
UNION_REINFORCEMENTS = """
4/2326 10 1/3/II; 4/2326 10 2/3/II; 4/2326 9 1/4/II; 4/2326 9 2/4/II; 4/2326 10 3/2/II;
4/2326 6 2/2/II; 4/2326 10 1/2/II; 4/2326 6 2/1/II; 4/2326 7 1/1/II; 4/2326 7 3/1/II; 4/2326 7 4/1/II;
4/2326 6a II; 7/0102 7 4/1/VI; 7/0102 6 TD; 7/0102 10 TD; 9/0102 4 2/1/IX; 9/0102 12 2/2/IX;
9/0102 13 1/3/IX; 9/0102 10 2/3/IX; 9/0102 4a IX
"""
CONFEDERATE_REINFORCEMENTS = """
1/0128 7 Cooke; 1/0128 9 Kirkland; 1/0128 8 Walker; 1/0128 6 Davis; 1/0128 8 Lane; 1/0128 7 Thomas;
1/0128 8 Scales; 1/0128 8 McGowan; 1/0128 2a 3; 5/0118 5 Johnston; 5/0118 6 Ramseur;
9/0728+0627 8 Henagan; 9/0728+0627 6 Humphreys; 9/0728+0627 6 Bryan; 9/0728+0627 7 Wofford;
9/0728+0627 6 Anderson; 9/0728+0627 6 Gregg; 9/0728+0627 5 Benning; 9/0728+0627 6 Law;
9/0728+0627 7 Jenkins; 9/0728+0627 6 Harris; 9/0728+0627 3 Perry; 9/0728+0627 6 Perrin;
9/0728+0627 7 Mahone; 9/0728+0627 4 Wright; 9/0728+0627 5a 1
"""
TYPE = {"": "infantry", "a": "artillery"}  # 16.0: "a" artillery, "all other unspecified units are infantry"

LOADED = load("wilderness")
SCENARIO = LOADED.played_with({})  # the optional rules off (20.0): without Pickett's division
GRID = Grid(SCENARIO.map.lower_columns)
HEXES = SCENARIO.map.hexes
OBJECTIVES = {"0810": "Spottswood", "1415": "Wilderness Tavern", "1920": "Hickman"}  # 19.11, 19.12


def chart(text):
    return read_chart(text, TYPE)


def units(side, at_start):
    return chart_rows(SCENARIO, side, at_start)


def ways_from(hex_, kinds=(terrain.ROAD, terrain.TRAIL)):
    return [n for n in GRID.neighbours(hex_) if any(k in SCENARIO.map.features(hex_, n) for k in kinds)]


def network(start, kinds=(terrain.ROAD, terrain.TRAIL)):
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in ways_from(h, kinds):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def test_sequence_of_play():
    # 16.3 the Confederate is the First Player; 16.4 sixteen Game-Turns, Game-Turn Eight a Night Game-Turn
    assert (SCENARIO.first_player, SCENARIO.turns, SCENARIO.night_turns) == ("confederate", 16, [8])
    assert SCENARIO.rulesets == ["revised"]


def test_initial_deployment_exactly_as_the_charts_print_it():
    # 16.1, 16.2
    assert units("union", True) == chart(UNION_CHART)
    assert units("confederate", True) == chart(CONFEDERATE_CHART)


def test_reinforcements_exactly_as_the_charts_print_them():
    # 17.1, 17.2
    assert units("union", False) == chart(UNION_REINFORCEMENTS)
    assert units("confederate", False) == chart(CONFEDERATE_REINFORCEMENTS)


def test_counts_strengths_and_ids():
    # 16.1-17.2: 42 Union units (157 + 163 SP), 37 Confederate (61 + 162 SP); ids unique although
    # designations repeat (the two "TD", 2/1/II, 2/1/VI, 2/1/IX)
    def total(side, at_start):
        return sum(s for _, s, _, _ in units(side, at_start))

    assert (total("union", True), total("union", False)) == (157, 163)
    assert (total("confederate", True), total("confederate", False)) == (61, 162)
    assert len({u.id for u in SCENARIO.units}) == len(SCENARIO.units) == 79
    by_id = {u.id: u for u in SCENARIO.units}
    # 18.34: the Train Defence units' Movement Allowance is six; us-td-1 is the chart's first (6)
    assert [(by_id[t].strength, by_id[t].movement_allowance) for t in ("us-td-1", "us-td-2")] == [(6, 6), (10, 6)]


def test_picketts_division_is_an_option_at_game_creation():
    # 20.1: "Arriving on Game-Turn Nine on hex 0118 or hex 0128: 7 Hunton, 7 Corse, 5 Terry"; 20.2
    # General Burnside: the options a game is created with
    assert {n: (o.title, o.case) for n, o in LOADED.options.items()} == {
        "picketts_division": ("Pickett's Division", "20.1"),
        "general_burnside": ("General Burnside", "20.2"),
    }
    with_pickett = LOADED.played_with({"picketts_division": True})
    extra = sorted(
        (f"{u.arrives}/{'+'.join(u.entry)}", u.strength, u.type, u.designation)
        for u in with_pickett.units
        if u.id not in {v.id for v in SCENARIO.units}
    )
    assert extra == chart("9/0118+0128 7 Hunton; 9/0118+0128 7 Corse; 9/0118+0128 5 Terry")
    assert len(LOADED.units) == 82 and len(SCENARIO.units) == 79


def test_the_outline_holds_every_hex_the_texts_name():
    # 2.1: 23 columns; odd columns 28 rows, even (lower) 27
    assert SCENARIO.map.lower_columns == "even"
    assert len(HEXES) == 12 * 28 + 11 * 27
    named = {u.hex for u in LOADED.units if u.hex} | {h for u in LOADED.units for h in u.entry}
    assert named | set(OBJECTIVES) | {"1315"} <= set(HEXES)


def test_every_union_unit_may_move_on_the_first_day():
    # 18.11: every Union set-up hex is clear, road or trail (NOTES.md: the army on the march), so no
    # Union unit starts unable to move (no enemies adjacent: tests/scenarios/test_every_battle.py)
    placed = [(u.hex, u.side) for u in SCENARIO.units if u.hex]
    for h, side in placed:
        assert HEXES[h] in ("clear", "forest"), h
        if side == "union":
            assert HEXES[h] == "clear" or ways_from(h), h


def test_entry_hexes_are_map_edge_road_or_trail_hexes():
    # 17.1, 17.2 (5.4: the map edge); 20.1: 0118 or 0128 for Pickett's division
    entries = {h for u in SCENARIO.units for h in u.entry}
    assert entries == {"2326", "0102", "0128", "0118", "0728", "0627"}
    for h in entries:  # on the map edge: tests/scenarios/test_every_battle.py
        assert ways_from(h), h
    # 18.34: the Train Defence units enter at 0102 and may only enter road or trail hexes
    assert ways_from("0102", (terrain.ROAD,))


def test_the_objectives_and_the_wilderness_tavern_crossroads():
    # 19.11, 19.12: Spottswood 0810, Wilderness Tavern 1415, Hickman 1920; 22.1: "the Wilderness Tavern
    # crossroads (hex 1315)", beside the tavern
    assert all(h in HEXES for h in OBJECTIVES)
    assert GRID.adjacent("1315", "1415")
    assert len(ways_from("1315", (terrain.ROAD,))) >= 3  # a crossroads
    roads = network("1315", (terrain.ROAD,))
    # 22.1: the Germanna Plank Road reinforcements (0102) and those fighting "up from hex 2326" reach
    # the objectives by road; the Confederate entries (0118, 0128) too
    assert {"0102", "2326", "0118", "0128", "0810", "1415", "1920"} <= roads
    # 17.2: Longstreet's entries reach the Orange Plank Road by trail
    assert {"0728", "0627"} <= network("0128")


def test_the_wilderness_is_forest_with_clearings():
    # 18.11, 18.12: forest hexes the Union may not enter on the first day, and clear hexes; the areas
    # are the farms' clearings (NOTES.md)
    kinds = {t for t in HEXES.values()}
    assert kinds == {"forest", "clear"}
    clear = {h for h, t in HEXES.items() if t == "clear"}
    assert clear == {h for hs in SCENARIO.map.areas.values() for h in hs}
    assert sum(1 for t in HEXES.values() if t == "forest") > 0.9 * len(HEXES)
