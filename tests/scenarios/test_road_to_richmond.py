"""The Road to Richmond scenario as shipped (003, the revised book, 15.0-24.0): the order of battle
exactly as the charts print it (16.1, 17.31, 17.32; oob.toml's two resolutions), the sequence of play
(16.2, 16.3) and a map that agrees with every hex and hexside the rules name (17.4, 18.2, 18.3, 19.11,
22.13, 22.21, 22.22; NOTES.md)."""

import shutil
from collections import deque
from pathlib import Path

from charts import read_chart

from rules.core import terrain
from rules.core.hexes import Grid
from scenarios.loader import load

# 16.1 as printed (hex, chart strength, designation). 1/3/V and 3/3/V are printed at 1007 (four units
# there): oob.toml sets them up at 1008 (6.32), the one change from the chart.
UNION_CHART = """
1404 2c 1/CR; 1107 5 1/2/V; 1107 7 2/2/V; 1108 2a V; 1108 1a 1R; 1007 3 3/2/V; 1007 3 2/1/V;
1008 8 1/3/V; 1008 7 3/3/V; 1009 7 2/3/V; 0908 5 1/1/V; 0908 5 3/1/V; 0409 8 2/2/VI; 0409 8 3/2/VI;
0410 1a 2R; 0410 8a S; 0511 1a 5R; 0511 7 1/2/VI; 1726 6 1/2/IV
"""
# 17.31 (Game-Turn/entry hex, chart strength, designation); 1/1/VI's strength, lost by the OCR, is 7.
UNION_REINFORCEMENTS = """
1/1528 8 2/2/IV; 2/0410 7 1/1/VI; 2/0410 7 2/1/VI; 2/0410 7 3/1/VI; 2/0410 1a VI;
3/0414 4 2/1/II; 3/0414 6 3/1/II; 4/0414 7 3/1/IV; 4/0414 8 2/1/IV; 4/0414 2c 2/CR;
5/0414 8 1/1/IV; 5/0414 2a IV; 11/2426 1 Train;
13/0412 7 1/2/II; 13/0412 9 2/2/II; 13/0412 9 3/2/II; 13/0412 2a II; 13/0416 1a 4R;
13/0418 8 1/3/III; 13/0418 8 2/3/III; 13/0418 8 3/3/III; 13/0418 2a III;
13/0419 9 1/2/III; 13/0419 9 2/2/III; 13/0419 9 3/2/III; 14/0417 10 1/1/II; 14/0417 1a 3R
"""
# 17.32
CONFEDERATE_REINFORCEMENTS = """
1/0103 4 Rodes; 1/0103 7 G.B. Anderson; 1/0103 8 Garland; 1/0103 5 Colquitt; 1/0103 7 Ripley;
1/0103 4 Kemper; 1/0103 6 R.H. Anderson; 1/0103 8 Pickett; 1/0103 5 Wilcox; 1/0103 7 Pryor;
1/0103 4 Featherston; 1/0103 7 Field; 1/0103 8 Gregg; 1/0103 7 J.R. Anderson; 1/0103 8 Branch;
1/0103 4 Archer; 1/0103 7 Pender; 1/0103 1a Jones;
2/1301 8 Winder; 2/1301 6 Cunningham; 2/1301 5 Fulkerson; 2/1301 10 Lawton; 2/1301 10 Elzey;
2/1301 7 Trimble; 2/1301 7 Taylor; 2/1301 2 Johnson; 2/1301 7 Hood; 2/1301 5 Law; 2/1301 10c Stuart;
15/0117 5 Cobb; 15/0117 3 Toombs; 15/0117 10 Semmes; 15/0117 8 Griffith; 15/0117 5 Kershaw;
15/0117 6 G.T. Anderson; 15/0117 1a Cutts; 15/0117 1a Brown; 15/0117 1a Richardson; 15/0117 1a Nelson;
15/0117 1a S.D. Lee; 18/0728 5 Mahone; 18/0728 6 Wright; 18/0728 7 Armistead
"""
ENTRY = {"1301": ["1301", "1901"], "0728": ["0728", "0328", "0126"]}  # 17.32: "or hex ..."
TYPE = {"": "infantry", "a": "artillery", "c": "cavalry"}  # 16.0

SCENARIO = load("road_to_richmond")
MAP = SCENARIO.map
GRID = Grid(MAP.lower_columns)
HEXES = MAP.hexes
ON_EDGE = {h for h in HEXES if sum(n in HEXES for n in GRID.neighbours(h)) < 6}


def chart(text):
    return read_chart(text, TYPE)


def test_sequence_of_play():
    # 16.2 the Confederate is the First Player; 16.3 twenty Game-Turns, Five and Thirteen at night
    assert (SCENARIO.first_player, SCENARIO.turns, SCENARIO.night_turns) == ("confederate", 20, [5, 13])
    assert SCENARIO.rulesets == ["revised"]


def test_initial_deployment_as_the_chart_prints_it():
    # 16.1: the Union only; the Confederate army arrives (17.32)
    placed = sorted((u.hex, u.strength, u.type, u.designation) for u in SCENARIO.units if u.hex)
    assert placed == chart(UNION_CHART)
    assert {u.side for u in SCENARIO.units if u.hex} == {"union"}


def test_reinforcements_as_the_charts_print_them():
    # 17.0, 17.31, 17.32
    for side, text in (("union", UNION_REINFORCEMENTS), ("confederate", CONFEDERATE_REINFORCEMENTS)):
        arriving = [u for u in SCENARIO.units if u.hex is None and u.side == side]
        got = sorted((f"{u.arrives}/{u.entry[0]}", u.strength, u.type, u.designation) for u in arriving)
        assert got == chart(text), side
        for u in arriving:
            assert u.entry == ENTRY.get(u.entry[0], [u.entry[0]]), u.id


def test_totals_and_unit_ids():
    # the charts' totals (1/1/VI counted at 7); ids unique though designations repeat ("V", "II", ...)
    union = [u for u in SCENARIO.units if u.side == "union"]
    assert sum(u.strength for u in union if u.hex) == 94
    assert sum(u.strength for u in union if u.hex is None) == 160
    assert sum(u.strength for u in SCENARIO.units if u.side == "confederate") == 244
    assert (len(union), len(SCENARIO.units) - len(union)) == (46, 43)
    assert len({u.id for u in SCENARIO.units}) == len(SCENARIO.units)
    train = next(u for u in SCENARIO.units if u.id == "us-train")
    assert (train.strength, train.movement_allowance, train.arrives, train.entry) == (1, 6, 11, ["2426"])  # 21.12, 21.15
    siege = next(u for u in SCENARIO.units if u.id == "us-siege-train")
    assert (siege.type, siege.strength, siege.designation) == ("artillery", 8, "S")  # 21.2; 21.24: eight for VP


def test_entry_and_exit_hexes():
    # 17.31, 17.32: every entry hex but the column-04 ones (the Union lines) is on the map edge
    entries = {h for u in SCENARIO.units for h in u.entry}
    inside = {"0410", "0412", "0414", "0416", "0417", "0418", "0419"}
    assert entries - ON_EDGE == inside
    assert sorted(SCENARIO.exclusive["reinforcements"]["interior_entry"]) == sorted(inside)
    # 19.11: the exits 0117 and 1528, on roads leading off the map there
    assert {"0117", "1528"} <= ON_EDGE
    for h in ("0117", "1528", "2426"):  # 22.22: a road exits at 1528 and 2426
        assert any(terrain.ROAD in MAP.features(h, n) for n in GRID.neighbours(h) if n in HEXES), h


def test_the_creeks_of_18_3():
    # 18.0 TERRAIN FEATURES, 18.3: the Chickahominy from hexside 0103|0104 to 1827|1728; the North Branch of White Oak Swamp from
    # 0122|0123 and 0322|0422 to 0128|0227
    for a, b in (("0103", "0104"), ("1827", "1728"), ("0122", "0123"), ("0322", "0422"), ("0128", "0227")):
        assert terrain.CREEK in MAP.features(a, b), (a, b)
    # 17.4 i): 0407 lies south of the Chickahominy, with the stream bordering 0407, 0308, 0208
    assert terrain.CREEK in MAP.features("0406", "0407")
    for a, b in (("0207", "0208"), ("0307", "0308"), ("0307", "0407")):
        assert MAP.features(a, b) & {terrain.STREAM, terrain.BRIDGE}, (a, b)
    # "impassable except at bridges and the ford": one ford on the map
    fords = [s for s, x in MAP.hexsides.items() if terrain.FORD in x.features]
    assert len(fords) == 1
    # 18.4: lake hexsides "are treated exactly like creek hex sides" (Ellerson's Mill pond, NOTES.md)
    for a, b in (("0708", "0807"), ("0708", "0808"), ("0709", "0808"), ("0709", "0809")):
        assert MAP.features(a, b) == {terrain.CREEK}, (a, b)


def land_reach(start, allowed=lambda a, b: True):
    """The hexes reached from ``start``, creeks only at bridges and fords."""
    seen, todo = {start}, deque([start])
    while todo:
        a = todo.popleft()
        for b in GRID.neighbours(a):
            if b in seen or b not in HEXES:
                continue
            f = MAP.features(a, b)
            if terrain.CREEK in f and not f & {terrain.BRIDGE, terrain.FORD}:
                continue
            if allowed(a, b):
                seen.add(b)
                todo.append(b)
    return seen


# map.toml's Chickahominy bridges (inferred, NOTES.md): Meadow, Mechanicsville, New, Woodbury's,
# Alexander's, Grapevine, the railroad bridge and Bottom's Bridge
CHICKAHOMINY_BRIDGES = {
    ("0204", "0205"), ("0305", "0306"), ("0608", "0609"), ("0911", "0912"),
    ("1012", "1013"), ("1214", "1215"), ("1723", "1823"), ("1726", "1826"),
}


def test_the_chickahominy_divides_the_armies():
    # 16.1, 23.1: the V Corps and the cavalry north of the Chickahominy, the VI and IV Corps south of
    # it; without its bridges the two banks do not meet; 1823, 1826 (22.13) and the Train's entry 2426
    # lie on the north-east bank, beside the two lowest bridges; the exit 1528 on the other
    for a, b in CHICKAHOMINY_BRIDGES:
        assert {terrain.CREEK, terrain.BRIDGE, terrain.ROAD} <= MAP.features(a, b), (a, b)
    north = land_reach("1404", lambda a, b: (min(a, b), max(a, b)) not in CHICKAHOMINY_BRIDGES)
    assert {"0908", "1007", "1008", "1009", "1107", "1108", "0103", "1301", "1901", "1823", "1826", "2426"} <= north
    assert not {"0409", "0410", "0511", "1726", "1528", "0117", "0407"} & north
    assert "1528" in land_reach("2426")


def test_every_other_bridge_is_a_stream_bridge_18_5():
    # 18.3: only the two creeks are creeks; a road bridge over a stream is drawn creek + bridge, and
    # [exclusive.streams] bridges lists exactly those (18.51)
    listed = {tuple(sorted(pair)) for pair in SCENARIO.exclusive["streams"]["bridges"]}
    bridges = {tuple(sorted(s.split("|"))) for s, x in MAP.hexsides.items() if terrain.BRIDGE in x.features}
    assert bridges - listed == CHICKAHOMINY_BRIDGES | {("0126", "0225")}  # and White Oak Swamp's
    for a, b in listed:  # each on a road or trail
        f = MAP.features(a, b)
        assert {terrain.CREEK, terrain.BRIDGE} <= f and f & {terrain.ROAD, terrain.TRAIL}, (a, b)


def routes_reach(start):
    """The hexes joined to ``start`` by road and trail hexsides (22.21)."""
    seen, todo = {start}, deque([start])
    while todo:
        a = todo.popleft()
        for b in GRID.neighbours(a):
            if b in HEXES and b not in seen and MAP.features(a, b) & {terrain.ROAD, terrain.TRAIL}:
                seen.add(b)
                todo.append(b)
    return seen


def test_roads_join_the_exits_the_train_and_the_lines():
    # 22.21: a Line of Communication from 0117 to 1528 along roads or trails; 21.15: the Train (2426)
    # reaches 1528 by road; 22.13: 1823 and 1826 on its roads; every entry hex on a road
    reach = routes_reach("0117")
    assert {"1528", "2426", "1823", "1826"} <= reach
    entries = {h for u in SCENARIO.units for h in u.entry}
    assert entries <= reach


def test_the_command_control_zone_of_18_2():
    # "0116 to 0122, 0215 to 0221 and 0316 to 0312" (read 0316 to 0322: NOTES.md)
    zone = MAP.areas["command_control_zone"]
    assert sorted(zone) == sorted(
        [f"01{r:02d}" for r in range(16, 23)] + [f"02{r:02d}" for r in range(15, 22)] + [f"03{r:02d}" for r in range(16, 23)]
    )
    assert "0117" in zone  # the exit of 19.11 lies in the zone
    assert not {u.hex for u in SCENARIO.units if u.hex} & set(zone)


def test_the_union_starts_on_rough_terrain():
    # 23.1: the V Corps line (on land and within the stacking limit: tests/scenarios/test_every_battle.py)
    for h in ("0908", "1007", "1008", "1009", "1107", "1108"):
        assert HEXES[h] in (terrain.ROUGH, terrain.FOREST_ROUGH), h


def test_the_lobby_lists_the_battle():
    # the lobby's line: its name, date, Game-Turns (16.3) and map size; revised rules only
    from scenarios.describe import listing

    line = listing(SCENARIO)
    assert (line["battle"], line["date"], line["turns"], line["columns"], line["rows"]) == ("Road to Richmond", "June 26-28, 1862", 20, 24, 28)
    assert line["rulesets"] == ["revised"]


def test_the_validator_checks_the_alternate_entry_of_17_32(tmp_path):
    # 17.32: "on hex 1301 (or hex 1901 if occupied or in the Zone of Control of a Union unit)": the
    # shipped battle passes; an alternate hex no reinforcement lists, or a unit listing 1901 without
    # 1301, is refused naming the hex and the unit
    from scenarios.source import Files
    from scenarios.validate import check

    def said(folder):
        return [p.message for p in check(Files(folder)) if p.location == "exclusive.reinforcements.alternate_entry"]

    folder = Path(__file__).resolve().parents[2] / "scenarios" / "road_to_richmond"
    assert load(folder).exclusive["reinforcements"]["alternate_entry"] == [{"hex": "1901", "if_occupied_or_controlled": "1301"}]
    assert said(folder) == []
    copy = shutil.copytree(folder, tmp_path / "no-alternate")
    toml = (copy / "scenario.toml").read_text()
    (copy / "scenario.toml").write_text(toml.replace('alternate_entry = [{ hex = "1901"', 'alternate_entry = [{ hex = "1902"'))
    assert said(copy) == ["1902 is no reinforcement's entry hex: no unit of the order of battle lists it in entry (17.32)"]

    copy = shutil.copytree(folder, tmp_path / "one-entry")
    oob = (copy / "oob.toml").read_text()
    (copy / "oob.toml").write_text(oob.replace('\nentry = ["1301", "1901"]\n', '\nentry = ["1901"]\n', 1))
    (one,) = said(copy)
    assert "does not list 1301, the hex whose occupation or control opens 1901 (17.32)" in one
