"""The scenario validator: every kind of bad file is refused with its file, line (or hex) and reason.

Each test writes a small scenario (a 5 x 4 map, the Tennessee in column 03 with a ferry at 0302) into
tmp_path, breaks one thing and checks the exact problem reported. Cases: the map 2.1 (column parity,
no holes), terrain 9.0, creeks 5.25, rivers 5.24, ferries 19.11/19.12, redoubts 18.12, stacking 5.32,
deployment 14.0, reinforcements 15.0/15.21.
"""

import pytest

from scenarios.loader import load
from scenarios.source import Problem, ScenarioError

SCENARIO = """\
id = "tiny"
name = "Tiny"
rulesets = ["classic"]
turns = 3
night_turns = [2]
first_player = "union"

[provenance]
map = "made up for a test"

[exclusive.ferries]
hexes = ["0302"]
"""

MAP = """\
lower_columns = "even"

[hexes]
"0101" = "clear"
"0102" = "clear"
"0103" = "forest"
"0104" = "clear"
"0201" = "clear"
"0202" = "rough"
"0203" = "clear"
"0204" = "clear"
"0301" = "river"
"0302" = "ferry"
"0303" = "river"
"0304" = "river"
"0401" = "clear"
"0402" = "clear"
"0403" = "town"
"0404" = "clear"
"0501" = "clear"
"0502" = "clear"
"0503" = "clear"
"0504" = "clear"

[hexsides]
"0201|0302" = { features = ["ferry_crossing"] }
"0302|0402" = { features = ["ferry_crossing"] }
"0102|0202" = { features = ["creek", "bridge"] }
"0403|0503" = { features = ["redoubt"], barbed = "0503" }

[[road]]
hexes = ["0101", "0102", "0202", "0203"]

[areas]
town = ["0403"]
"""

OOB = """\
[[unit]]
id = "u1"
side = "union"
type = "infantry"
strength = 5
designation = "1/1/I"
hex = "0101"

[[unit]]
id = "c1"
side = "confederate"
type = "artillery"
strength = 2
designation = "Reserve"
hex = "0503"

[[unit]]
id = "u2"
side = "union"
type = "cavalry"
strength = 4
designation = "2"
arrives = 2
entry = ["0104", "0204"]
"""


def write(folder, scenario=SCENARIO, map_=MAP, oob=OOB):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "scenario.toml").write_text(scenario)
    (folder / "map.toml").write_text(map_)
    (folder / "oob.toml").write_text(oob)
    return folder


def line_of(text, needle, start=0):
    """1-based number of the first line at or after line `start` that contains `needle`."""
    for i, line in enumerate(text.splitlines()[start:], start + 1):
        if needle in line:
            return i
    raise AssertionError(needle)


def problems(folder):
    with pytest.raises(ScenarioError) as info:
        load(folder)
    return info.value.problems


def only_problem(folder):
    found = problems(folder)
    assert len(found) == 1, found
    return found[0]


def test_the_small_scenario_is_valid_and_loads(tmp_path):
    s = load(write(tmp_path / "tiny"))
    assert (s.id, s.turns, s.night_turns, s.first_player) == ("tiny", 3, [2], "union")
    assert s.map.features("0102", "0202") == {"creek", "bridge", "road"}  # the road path adds its hexsides
    assert s.map.features("0202", "0203") == {"road"}
    assert s.map.hexsides["0403|0503"].barbed == "0503"
    assert [u.id for u in s.units] == ["u1", "c1", "u2"]
    assert s.unit("u2").entry == ["0104", "0204"] and s.unit("u2").hex is None


def test_non_adjacent_hexside_pair(tmp_path):
    # 2.1: with even columns lower 0101 touches 0201, not 0202.
    map_ = MAP.replace('"0403|0503"', '"0101|0202" = { features = ["creek"] }\n"0403|0503"')
    folder = write(tmp_path / "s", map_=map_)
    assert only_problem(folder) == Problem(
        str(folder / "map.toml"),
        line_of(map_, '"0101|0202"'),
        "hexside 0101|0202",
        "0101 and 0202 are not adjacent (with even columns lower): a hexside lies between two neighbouring hexes",
    )


def test_column_parity_is_the_maps_own(tmp_path):
    # The same hexside is sound on a map whose odd columns sit lower (2.1).
    map_ = MAP.replace('lower_columns = "even"', 'lower_columns = "odd"')
    map_ = map_.replace('"0201|0302" = { features = ["ferry_crossing"] }', '"0101|0202" = { features = ["creek"] }')
    map_ = map_.replace('"0302|0402" = { features = ["ferry_crossing"] }', "")
    folder = write(tmp_path / "s", map_=map_, scenario=SCENARIO.replace('hexes = ["0302"]', 'hexes = ["0302"]'))
    messages = [p.message for p in problems(folder)]
    assert not any("not adjacent" in m for m in messages)
    assert messages == ["a ferry hex needs two ferry_crossing hexsides, its arrows (19.11); found 0"]


def test_unknown_terrain(tmp_path):
    map_ = MAP.replace('"0202" = "rough"', '"0202" = "volcano"')
    folder = write(tmp_path / "s", map_=map_)
    p = only_problem(folder)
    assert (p.file, p.line, p.location) == (str(folder / "map.toml"), line_of(map_, '"0202" = "volcano"'), "hex 0202")
    assert p.message == "unknown terrain 'volcano' (known: clear, ferry, forest, forest_rough, lake, pond, pontoon, river, rough, swamp, town)"


def test_unknown_hexside_feature(tmp_path):
    map_ = MAP.replace('features = ["creek", "bridge"]', 'features = ["creek", "wall"]')
    folder = write(tmp_path / "s", map_=map_)
    p = only_problem(folder)
    assert (p.line, p.location) == (line_of(map_, '"0102|0202"'), "hexside 0102|0202")
    assert p.message.startswith("unknown feature 'wall' (known: bridge, creek, ferry_crossing, ford, railway, redoubt, ridge, river_side, road, slope, stream, sunken_road, trail, trench, turnpike)")


@pytest.mark.parametrize("crossing", ["bridge", "ford"])
def test_bridge_or_ford_without_creek(tmp_path, crossing):
    # 5.25: creeks are crossed only at bridges and fords, so a bridge or ford needs a creek.
    map_ = MAP.replace('features = ["creek", "bridge"]', f'features = ["{crossing}"]')
    folder = write(tmp_path / "s", map_=map_)
    assert only_problem(folder) == Problem(
        str(folder / "map.toml"),
        line_of(map_, '"0102|0202"'),
        "hexside 0102|0202",
        f"a {crossing} needs a creek on the same hexside (5.25: creeks are crossed at bridges and fords)",
    )


def test_redoubt_barbed_hex_must_be_one_of_its_two_hexes(tmp_path):
    # 18.12: the barbed side is one of the two hexes of the redoubt hexside.
    map_ = MAP.replace('barbed = "0503"', 'barbed = "0504"')
    folder = write(tmp_path / "s", map_=map_)
    assert only_problem(folder) == Problem(
        str(folder / "map.toml"),
        line_of(map_, '"0403|0503"'),
        "hexside 0403|0503",
        "the barbed hex 0504 is not one of the redoubt's two hexes 0403 and 0503 (18.12)",
    )


def test_redoubt_needs_a_barbed_side(tmp_path):
    map_ = MAP.replace(', barbed = "0503"', "")
    folder = write(tmp_path / "s", map_=map_)
    p = only_problem(folder)
    assert (p.location, p.message) == ("hexside 0403|0503", "a redoubt needs barbed = the hex on its barbed (enemy) side (18.12)")


@pytest.mark.parametrize(
    "hex_, reason",
    [
        ("0303", "is deployed on 0303, a river hex (5.24), which no unit may occupy"),
        ("0302", "is deployed on 0302, a ferry hex (19.12), which no unit may occupy"),
        ("0909", "is deployed on 0909, which is not on the map"),
    ],
)
def test_unit_deployed_where_it_could_not_be(tmp_path, hex_, reason):
    # 14.0 with 5.24 (rivers), 19.12 (no unit ends its movement in a ferry hex) and the map's edge.
    oob = OOB.replace('hex = "0101"', f'hex = "{hex_}"')
    folder = write(tmp_path / "s", oob=oob)
    assert only_problem(folder) == Problem(str(folder / "oob.toml"), line_of(oob, f'hex = "{hex_}"'), "unit u1", reason)


def test_reinforcement_entry_hex_not_on_the_map_edge(tmp_path):
    # 15.0, 15.21: reinforcements are placed on the edge of the map; 0202 is inside it.
    oob = OOB.replace('entry = ["0104", "0204"]', 'entry = ["0104", "0202"]')
    folder = write(tmp_path / "s", oob=oob)
    assert only_problem(folder) == Problem(
        str(folder / "oob.toml"),
        line_of(oob, '"0202"'),
        "unit u2",
        "entry hex 0202 is not on the map edge (reinforcements enter from off the map, 15.0)",
    )


def test_reinforcement_entry_hex_inside_the_map_when_the_scenario_names_it(tmp_path):
    # Road to Richmond 17.31: [exclusive.reinforcements] interior_entry lets the charts' hexes inside
    # the map be entry hexes (the Union corps arriving in their own lines); no other
    oob = OOB.replace('entry = ["0104", "0204"]', 'entry = ["0104", "0202"]')
    scenario = SCENARIO + '\n[exclusive.reinforcements]\ninterior_entry = ["0202"]\n'
    assert {u.id: u.entry for u in load(write(tmp_path / "ok", scenario=scenario, oob=oob)).units}["u2"] == ["0104", "0202"]
    elsewhere = scenario.replace('interior_entry = ["0202"]', 'interior_entry = ["0201"]')
    assert "0202 is not on the map edge" in only_problem(write(tmp_path / "no", scenario=elsewhere, oob=oob)).message


def test_reinforcement_entry_hex_off_the_map(tmp_path):
    oob = OOB.replace('entry = ["0104", "0204"]', 'entry = ["0105"]')
    folder = write(tmp_path / "s", oob=oob)
    p = only_problem(folder)
    assert (p.line, p.location, p.message) == (line_of(oob, '"0105"'), "unit u2", "entry hex 0105 is not on the map")


def test_duplicate_unit_ids(tmp_path):
    oob = OOB.replace('id = "c1"', 'id = "u1"')
    folder = write(tmp_path / "s", oob=oob)
    assert only_problem(folder) == Problem(
        str(folder / "oob.toml"),
        line_of(oob, 'id = "u1"', start=2),
        "unit u1",
        "duplicate unit id 'u1' (first at line 2); designations may repeat, ids may not",
    )


def test_map_with_a_hole(tmp_path):
    # 2.1: every hex inside the map's outline is listed with its terrain.
    map_ = MAP.replace('"0404" = "clear"\n', "")
    folder = write(tmp_path / "s", map_=map_)
    assert only_problem(folder) == Problem(
        str(folder / "map.toml"),
        line_of(map_, "[hexes]"),
        "hex 0404",
        "is missing: the map has a hole (every hex of columns 01-05, rows 01-04 must be listed with its terrain)",
    )


def test_map_outline_with_short_lower_columns(tmp_path):
    # A map may cut the lower columns' last half hex; then listing 0204 is outside the outline.
    map_ = MAP.replace('lower_columns = "even"', 'lower_columns = "even"\nlower_columns_rows = [1, 3]')
    map_ = map_.replace('"0404" = "clear"\n', "")
    folder = write(tmp_path / "s", map_=map_, oob=OOB.replace('"0104", "0204"', '"0104"'))
    p = only_problem(folder)
    assert (p.location, p.line) == ("hex 0204", line_of(map_, '"0204"'))
    assert p.message == "is outside the map's outline (columns 01-05, rows 01-03)"


def test_map_outline_with_a_column_cut_short(tmp_path):
    # A sheet whose corner is off the map (Chickamauga's columns 22-25 stop at row 24): column_rows
    # gives such a column's rows; a hex listed below them is outside the outline, none is missing.
    map_ = MAP.replace('lower_columns = "even"', 'lower_columns = "even"\ncolumn_rows = { "05" = [1, 3] }')
    p = only_problem(write(tmp_path / "s", map_=map_))
    assert (p.location, p.line) == ("hex 0504", line_of(map_, '"0504"'))
    assert p.message == "is outside the map's outline (columns 01-05, rows 01-03)"
    assert load(write(tmp_path / "t", map_=map_.replace('"0504" = "clear"\n', ""))).map.hexes.get("0504") is None
    bad = MAP.replace('lower_columns = "even"', 'lower_columns = "even"\ncolumn_rows = { "05" = [3] }')
    p = only_problem(write(tmp_path / "u", map_=bad))
    assert (p.location, p.message) == ("column_rows 05", 'must be "CC" = [first, last], two whole numbers')


def test_opposing_units_adjacent_at_start(tmp_path):
    # 0101 and 0201 are neighbours: no unit may start in an enemy zone of control (6.0).
    oob = OOB.replace('hex = "0503"', 'hex = "0201"')
    folder = write(tmp_path / "s", oob=oob)
    assert only_problem(folder) == Problem(
        str(folder / "oob.toml"),
        line_of(oob, 'hex = "0201"'),
        "unit c1",
        "starts on 0201, adjacent to the enemy unit u1 on 0101: no unit may start in an enemy zone of control",
    )


def test_more_than_two_units_in_a_hex_at_start(tmp_path):
    # 5.32: at most two units in a hex.
    extra = "\n".join(
        f'[[unit]]\nid = "x{i}"\nside = "union"\ntype = "infantry"\nstrength = 1\ndesignation = "x"\nhex = "0101"\n'
        for i in range(2)
    )
    oob = OOB + "\n" + extra
    folder = write(tmp_path / "s", oob=oob)
    p = only_problem(folder)
    assert (p.location, p.line) == ("unit x1", line_of(oob, 'id = "x1"') + 5)
    assert p.message == "3 units start in 0101 (u1, x0, x1); at most two may stack (5.32)"


def test_ferry_hex_must_touch_river_on_two_opposite_sides(tmp_path):
    # 19.11: the ferry crosses the river; 0302 then has river on its north side only.
    map_ = MAP.replace('"0303" = "river"', '"0303" = "clear"')
    folder = write(tmp_path / "s", map_=map_)
    assert only_problem(folder) == Problem(
        str(folder / "map.toml"),
        line_of(map_, '"0302" = "ferry"'),
        "hex 0302",
        "a ferry hex must touch river hexes on two opposite sides (19.11)",
    )


def test_area_naming_a_hex_off_the_map(tmp_path):
    map_ = MAP.replace('town = ["0403"]', 'town = ["0403", "0606"]')
    folder = write(tmp_path / "s", map_=map_)
    assert only_problem(folder) == Problem(
        str(folder / "map.toml"), line_of(map_, "town = "), "area town", "0606 is not on the map"
    )


def test_road_path_must_step_between_neighbours(tmp_path):
    map_ = MAP.replace('hexes = ["0101", "0102", "0202", "0203"]', 'hexes = ["0101", "0103"]')
    folder = write(tmp_path / "s", map_=map_)
    p = only_problem(folder)
    assert (p.location, p.line) == ("road 1", line_of(map_, '"0101", "0103"'))
    assert p.message == "0101 and 0103 are not adjacent: a road runs from hex to neighbouring hex"


def test_invalid_toml_names_its_line(tmp_path):
    oob = OOB.replace('strength = 5', 'strength = = 5')
    folder = write(tmp_path / "s", oob=oob)
    p = only_problem(folder)
    assert (p.file, p.line, p.location) == (str(folder / "oob.toml"), line_of(oob, "= = 5"), "oob.toml")
    assert p.message.startswith("is not valid TOML")


def test_every_problem_is_reported_at_once(tmp_path):
    map_ = MAP.replace('"0202" = "rough"', '"0202" = "volcano"')
    oob = OOB.replace('id = "c1"', 'id = "u1"')
    folder = write(tmp_path / "s", map_=map_, oob=oob)
    found = problems(folder)
    assert [p.location for p in found] == ["hex 0202", "unit u1"]
    text = str(ScenarioError(found))
    assert f"{folder / 'map.toml'}:{line_of(map_, 'volcano')}: hex 0202: unknown terrain 'volcano'" in text


def test_exclusive_rules_must_name_real_units_and_ferries(tmp_path):
    scenario = SCENARIO + '\n[exclusive.immobile_artillery]\nside = "yankee"\nexcept = ["nobody"]\n'
    scenario = scenario.replace('hexes = ["0302"]', 'hexes = ["0302", "0202"]')
    folder = write(tmp_path / "s", scenario=scenario)
    found = problems(folder)
    assert [(p.location, p.message) for p in found] == [
        ("exclusive.immobile_artillery.side", "'yankee' is not a side (confederate, union)"),
        ("exclusive.immobile_artillery.except", "names no unit of the order of battle: 'nobody'"),
        ("exclusive.ferries.hexes", "0202 is rough, not a ferry hex, on the map"),
    ]
    assert found[1].line == line_of(scenario, "except = ")


BATTLE = """
[exclusive.movement_quota]
side = "union"
units = "eleven"
bonus_hex = "0909"

[exclusive.movement_qouta]
side = "union"

[[exclusive.victory.levels]]
level = "Draw"
min = -5
[[exclusive.victory.levels]]
level = "Win"
min = "six"
"""


def test_exclusive_blocks_are_decoded_and_refused_with_file_line_key_and_reason(tmp_path):
    # the battle's components (rules/core/components): types, known keys, each block's first problem
    scenario = SCENARIO + BATTLE
    folder = write(tmp_path / "s", scenario=scenario)
    found = problems(folder)
    assert [(p.location, p.message.split(" (known")[0], p.line) for p in found] == [
        ("exclusive.movement_quota.units", "expected a whole number, got a string", line_of(scenario, '"eleven"')),
        ("exclusive.movement_qouta", "unknown key 'movement_qouta'", line_of(scenario, "[exclusive.movement_qouta]")),
        ("exclusive.victory.levels #2.min", "expected a whole number, got a string", line_of(scenario, '"six"')),
        ("exclusive.movement_quota.bonus_hex", "0909 is not on the map", line_of(scenario, "bonus_hex")),
    ]
    assert all(p.file == str(folder / "scenario.toml") for p in found)


def test_exclusive_overrides_are_decoded_merged_over_their_block(tmp_path):
    # a revised-only block merged key by key over [exclusive] (Chattanooga's 21.2 levels)
    scenario = SCENARIO.replace('rulesets = ["classic"]', 'rulesets = ["classic", "revised"]')
    scenario += '\n[exclusive.reinforcements]\nlost_if_not_entered = true\n'
    good = scenario + '\n[exclusive_overrides.revised.reinforcements]\nlost_if_not_entered = false\n'
    assert load(write(tmp_path / "ok", scenario=good)).exclusive_overrides["revised"]["reinforcements"] == {
        "lost_if_not_entered": False
    }
    bad = scenario + '\n[exclusive_overrides.revised.reinforcements]\nlost_if_not_entered = "no"\n'
    p = only_problem(write(tmp_path / "bad", scenario=bad))
    assert (p.location, p.message, p.line) == (
        "exclusive_overrides.revised.reinforcements.lost_if_not_entered",
        "expected true or false, got a string",
        line_of(bad, '"no"'),
    )
    bad = scenario + '\n[exclusive_overrides.revised.town_disorders]\narea = "suburbs"\n'
    p = only_problem(write(tmp_path / "area", scenario=bad))
    assert (p.location, p.message) == ("exclusive_overrides.revised.town_disorders.area", "names no area of the map: 'suburbs'")


def test_unknown_scenario_id():
    with pytest.raises(ScenarioError) as info:
        load("no-such-battle")
    message = info.value.problems[0].message
    assert message.startswith("no such scenario or folder (known: ") and "chattanooga" in message


GUNBOAT = """
[[unit]]
id = "us-lexington"
side = "union"
type = "gunboat"
strength = 1
designation = "Lexington"
hex = "0303"

[[unit]]
id = "us-tyler"
side = "union"
type = "gunboat"
strength = 2
designation = "Tyler"
arrives = 2
entry = ["0202"]
"""
REVISED = SCENARIO.replace('rulesets = ["classic"]', 'rulesets = ["revised"]') + '\n[exclusive.gunboats]\nhexes = ["0202"]\n'


def test_gunboats_load_under_the_revised_rules_9_61_9_62(tmp_path):
    # 9.61: begin with one (in a river hex) and receive one (at the scenario's named hex, as Shiloh's 1701)
    s = load(write(tmp_path / "s", scenario=REVISED, oob=OOB + GUNBOAT))
    assert s.unit("us-lexington").type == "gunboat" and s.unit("us-tyler").entry == ["0202"]


def test_the_classic_rule_set_has_no_gunboats_9_6(tmp_path):
    oob = OOB + GUNBOAT
    folder = write(tmp_path / "s", scenario=SCENARIO + '\n[exclusive.gunboats]\nhexes = ["0202"]\n', oob=oob)
    found = problems(folder)
    assert [(p.location, p.line) for p in found] == [("unit us-lexington", line_of(oob, 'type = "gunboat"')), ("unit us-tyler", line_of(oob, 'type = "gunboat"', line_of(oob, "us-tyler")))]
    assert found[0].message.startswith("is a gunboat, and the classic rule set (1975) has no gunboats (revised 9.6)")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (('side = "union"\ntype = "gunboat"', 'side = "confederate"\ntype = "gunboat"'), "is a gunboat: only the Union has gunboats (9.61)"),
        (('hex = "0303"', 'hex = "0204"'), "is a gunboat on 0204, clear: gunboats are only in river hexes and the hexes of [exclusive.gunboats] hexes (9.62)"),
    ],
)
def test_gunboats_are_union_and_in_their_waters_9_61_9_62(tmp_path, change, reason):
    oob = OOB + GUNBOAT.replace(*change, 1)
    p = problems(write(tmp_path / "s", scenario=REVISED, oob=oob))[0]
    assert (p.location, p.message) == ("unit us-lexington", reason)


TRENCHES = """
[[exclusive.trenches.markers]]
hex = "0203"
side = "union"
facing = ["0303", "0304", "0204"]
"""


def test_trench_markers_of_the_initial_deployment_10_33(tmp_path):
    # 10.33: Breastworks Markers placed at set-up (Trenches, 10.39): hex, side, three contiguous hexsides
    s = load(write(tmp_path / "ok", scenario=REVISED + TRENCHES))
    assert s.exclusive["trenches"]["markers"][0]["facing"] == ["0303", "0304", "0204"]
    bad = TRENCHES.replace('["0303", "0304", "0204"]', '["0303", "0204", "0102"]')
    p = only_problem(write(tmp_path / "bad", scenario=REVISED + bad))
    assert (p.location, p.message.split(",")[0]) == ("exclusive.trenches.markers #1", "facing must be three contiguous hexes adjacent to 0203")
    p = only_problem(write(tmp_path / "classic", scenario=SCENARIO + TRENCHES))
    assert p.message.startswith("the classic rule set (1975) has no Breastworks Markers")


def test_every_number_is_within_its_range_naming_file_line_and_field(tmp_path):
    scenario = SCENARIO.replace("turns = 3\n", "turns = 1000000\n").replace(
        'hexes = ["0302"]', 'hexes = ["0302"]\n\n[exclusive.victory]\nat_start = { union = 100000 }'
    )
    oob = OOB.replace("strength = 5", "strength = 500")
    folder = write(tmp_path / "s", scenario=scenario, oob=oob)
    found = problems(folder)
    assert found == [
        Problem(str(folder / "scenario.toml"), line_of(scenario, "turns = 1000000"), "key turns",
                "turns is 1000000: a number here is from 1 to 100"),
        Problem(str(folder / "scenario.toml"), line_of(scenario, "at_start"), "key exclusive.victory.at_start.union",
                "exclusive.victory.at_start.union is 100000: a number here is from -10,000 to 10,000"),
        Problem(str(folder / "oob.toml"), line_of(oob, "strength = 500"), "unit u1",
                "strength is 500: a number here is from 0 to 99"),
    ]  # fmt: skip
    # at the bounds themselves the scenario is sound
    edge = SCENARIO.replace("turns = 3\n", "turns = 100\n")
    assert load(write(tmp_path / "edge", scenario=edge, oob=OOB.replace("strength = 5", "strength = 99"))).turns == 100
