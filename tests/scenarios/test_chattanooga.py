"""The Chattanooga scenario as shipped: the order of battle exactly as the 1975 charts print it
(14.1, 14.2, 15.21), the sequence of play (14.31, 14.32) and a map that agrees with every hex the rules
name (2.1, 19.11, 20.11, 20.12)."""

import pytest

from rules.core import terrain
from rules.core.hexes import Grid
from scenarios.loader import load

# 14.1 as printed in 000: 12 lines under the heading and 26 beside the contents list (hex, chart
# strength, designation); 003's 16.1 prints the same 38 lines in one list.
UNION_CHART = """
1704 5 1/2/XV; 1604 5 2/2/XV; 1705 4 1/2/XVII; 1605 4 2/2/XVII; 1506 4 3/2/XVII; 1606 5 1/4/XV;
1507 5 2/4/XV; 1304 1a Sherman; 1204 6 1/2/XIV; 0907 6c 2; 0807 4c 3; 1712 3 1/3/XI;
1713 6 1/3/IV; 1714 6 2/3/IV; 1715 6 3/3/IV; 1717 5 1/1/XIV; 1718 5 2/1/XIV; 1611 3 2/3/XI;
1612 4 1/2/XI; 1614 6 1/2/IV; 1615 6 2/2/IV; 1618 5 3/1/XIV; 1513 4 2/2/XI; 1514 3 3/3/XI;
1514 4a XI; 1518 6 1/3/XIV; 1519 6 2/3/XIV; 1417 4a XII; 1419 6 3/3/XIV; 1320 6 1/2/XIV;
1220 6 2/2/XIV; 1214 5a XIV; 1016 5a Reserve; 0921 4a XV; 0522 5 1/1/XV; 0524 5 2/1/XV;
0425 9 1/1/IV; 0426 9 2/1/IV
"""
# 14.2 (003 16.2 prints "la" for "1a" at 2412, 2317 and 1025).
CONFEDERATE_CHART = """
2004 3 Liddell; 2305 5 Polk; 2305 4 Wright; 2106 5 Smith; 2207 2a Calvert; 2109 5 Lowrey;
2209 1a Martin; 2110 5 Wilson; 2210 5 Gist; 2311 4 Vaughan; 2312 4 Anderson; 2412 1a Hindman;
2313 5 Deas; 2413 3 Adams; 2314 3 Manigault; 2315 3 Lewis; 2415 1a Slocumb; 2316 4 Bates;
2317 1a Cobb; 2317 3 Finley; 2318 5 Quarles; 2418 2a Reserve; 2321 2a Smith; 2219 4 Reynold;
2121 3 Strahl; 2021 5 Stovall; 2023 2a Sanford; 1822 4 Cumming; 1723 5 Jackson; 1523 4 Brown;
1323 3 Maney; 1222 5 Moore; 1124 5 Pettus; 1025 1a Corput; 0926 4 Clayton; 0724 3 Walthall
"""
TYPE = {"": "infantry", "a": "artillery", "c": "cavalry"}  # 14.0


def chart(text):
    out = []
    for entry in text.replace("\n", " ").split(";"):
        hex_, strength, designation = entry.strip().split(maxsplit=2)
        kind = strength.lstrip("0123456789")
        out.append((hex_, int(strength[: len(strength) - len(kind)]), TYPE[kind], designation.strip()))
    return sorted(out)


@pytest.fixture(scope="module")
def chattanooga():
    return load("chattanooga")


def on_map(scenario, side):
    return sorted((u.hex, u.strength, u.type, u.designation) for u in scenario.units if u.side == side and u.hex)


def test_deployment_chart_14_1_union_38_units_exactly(chattanooga):
    assert len(on_map(chattanooga, "union")) == 38
    assert on_map(chattanooga, "union") == chart(UNION_CHART)


def test_deployment_chart_14_2_confederate_36_units_exactly(chattanooga):
    assert len(on_map(chattanooga, "confederate")) == 36
    assert on_map(chattanooga, "confederate") == chart(CONFEDERATE_CHART)


def test_reinforcement_chart_15_21_three_union_brigades_on_game_turn_two(chattanooga):
    late = [u for u in chattanooga.units if u.hex is None]
    assert sorted(u.designation for u in late) == ["1/2/XII", "2/2/XII", "3/2/XII"]
    for u in late:
        assert (u.side, u.type, u.strength, u.arrives) == ("union", "infantry", 4, 2)
        assert u.entry == ["0427", "0528", "0627", "0728"]
    assert sum(1 for u in chattanooga.units if u.side == "union") == 38 + 3


def test_specific_units_at_specific_hexes(chattanooga):
    at = {u.id: u for u in chattanooga.units}
    corput = at["cs-corput-art"]  # 14.2: "1025 1a Corput"
    assert (corput.hex, corput.strength, corput.type, corput.designation) == ("1025", 1, "artillery", "Corput")
    sherman = at["us-sherman-art"]  # 14.1: "1304 1a Sherman"
    assert (sherman.hex, sherman.type, sherman.strength) == ("1304", "artillery", 1)
    assert (at["us-cav-2"].hex, at["us-cav-2"].type, at["us-cav-2"].strength) == ("0907", "cavalry", 6)
    assert (at["us-1-1-iv"].hex, at["us-1-1-iv"].strength) == ("0425", 9)
    assert (at["cs-walthall"].hex, at["cs-walthall"].strength) == ("0724", 3)
    # Two counters print "1/2/XIV"; two units stand in 1514 and two in 2305 and 2317.
    assert {at["us-1-2-xiv-1204"].hex, at["us-1-2-xiv-1320"].hex} == {"1204", "1320"}
    assert sorted(u.designation for u in chattanooga.units if u.hex == "1514") == ["3/3/XI", "XI"]


def test_unit_ids_are_unique_though_designations_repeat(chattanooga):
    ids = [u.id for u in chattanooga.units]
    assert len(ids) == len(set(ids)) == 77
    designations = [(u.side, u.designation) for u in chattanooga.units]
    assert designations.count(("union", "1/2/XIV")) == 2
    assert designations.count(("confederate", "Smith")) == 2
    assert ("union", "Reserve") in designations and ("confederate", "Reserve") in designations


def test_player_sequence_14_31_and_game_length_14_32(chattanooga):
    assert chattanooga.first_player == "union"
    assert chattanooga.turns == 10
    assert chattanooga.night_turns == [5]
    assert chattanooga.rulesets == ["classic", "revised"]  # revised: 003 Chattanooga 15.0-23.0


def test_column_parity_agrees_with_the_deployment_chart(chattanooga):
    # 2.1, 14.0: with the map's declared parity (even columns lower) the closest enemies at start are
    # two hexes apart (0524/0724, 1220/1222) and none are adjacent; the entry hexes of 15.21 run
    # along the bottom edge one after the other.
    grid = chattanooga.map.grid
    assert chattanooga.map.lower_columns == "even"
    assert grid.distance("0524", "0724") == 2 and grid.distance("1220", "1222") == 2
    union = [u.hex for u in chattanooga.units if u.side == "union" and u.hex]
    confederate = [u.hex for u in chattanooga.units if u.side == "confederate" and u.hex]
    closest = min(grid.distance(a, b) for a in union for b in confederate)
    assert closest == 2
    pairs = {(a, b) for a in union for b in confederate if grid.distance(a, b) == 2}
    assert pairs == {("0524", "0724"), ("1220", "1222")}
    assert all(grid.adjacent(a, b) for a, b in [("0427", "0528"), ("0528", "0627"), ("0627", "0728")])
    # With odd columns lower the entry hexes would not even touch.
    assert not Grid("odd").adjacent("0427", "0528")


def test_every_unit_starts_on_terrain_it_may_occupy(chattanooga):
    for u in chattanooga.units:
        if u.hex:
            assert chattanooga.map.hexes[u.hex] not in (terrain.RIVER, terrain.FERRY), u.id


def test_ferries_19_11_touch_river_on_two_opposite_sides_and_have_two_arrows(chattanooga):
    m = chattanooga.map
    grid = m.grid
    for ferry in ["1305", "1013", "0814", "0517"]:
        assert m.hexes[ferry] == terrain.FERRY
        around = grid.neighbours(ferry)  # clockwise from north: opposite sides are 3 apart
        assert any(m.hexes[around[i]] == m.hexes[around[i + 3]] == terrain.RIVER for i in range(3)), ferry
        arrows = [n for n in around if terrain.FERRY_CROSSING in m.features(ferry, n)]
        assert len(arrows) == 2 and grid.distance(*arrows) == 2, ferry
    assert sorted(h for h, t in m.hexes.items() if t == terrain.FERRY) == ["0517", "0814", "1013", "1305"]


def test_hexes_the_rules_name_are_where_the_rules_put_them(chattanooga):
    m = chattanooga.map
    # 17.14 / 14.2: 1025 on Lookout Mountain; 20.12: the Union victory hexes on Missionary Ridge.
    assert m.hexes["1025"] in (terrain.ROUGH, terrain.FOREST_ROUGH)
    for h in ["2207", "2311", "2416", "2419"]:
        assert m.hexes[h] == terrain.ROUGH
    assert m.areas["union_victory_hexes"] == ["2207", "2311", "2416", "2419"]
    assert m.areas["confederate_victory_hexes"] == ["1417", "1514"]
    town = m.areas["chattanooga_town"]
    assert 1 <= len(town) <= 6 and all(m.hexes[h] == terrain.TOWN for h in town)
    assert sorted(h for h, t in m.hexes.items() if t == terrain.TOWN) == sorted(town)
    assert chattanooga.provenance["town_hexes"] == str(len(town))
    assert "reconstructed; not the printed map" in chattanooga.provenance["map"]


def test_exclusive_rule_parameters_name_real_units_and_hexes(chattanooga):
    ex = chattanooga.exclusive
    assert ex["immobile_artillery"] == {"side": "union", "except": ["us-sherman-art"]}  # 16.11, 16.13
    assert chattanooga.unit("us-sherman-art").designation == "Sherman"
    assert ex["movement_quota"] == {  # 17.11, 17.12, 17.14
        "side": "union", "units": 11, "bonus_units": 7, "bonus_hex": "1025", "reinforcements_exempt_before_turn": 5,
    }
    assert ex["night_movement"] == {"immobile_sides": ["union"]}  # 17.2
    assert ex["ferries"] == {"hexes": ["1305", "1013", "0814", "0517"]}  # 19.11
    assert ex["reinforcements"] == {"lost_if_not_entered": True}  # 15.12
    victory = ex["victory"]  # 20.1, 20.2
    assert victory["per_enemy_unit_eliminated"] == {"confederate": 3, "union": 2}
    assert victory["first_control"]["hexes"] == ["1514", "1417"]
    assert victory["last_control"]["hexes"] == ["2207", "2311", "2416", "2419"]
    levels = victory["levels"]
    assert levels[0] == {"level": "Union Decisive Victory", "min": 26}
    assert levels[3] == {"level": "Draw", "min": -5, "max": 5}
    assert levels[-1] == {"level": "Confederate Decisive Victory", "max": -26}
    cases = chattanooga.cases["classic"]
    assert (cases["immobile_artillery"], cases["movement_quota"], cases["night_movement"]) == ("16.11", "17.11", "17.2")
    assert (cases["ferries"], cases["reinforcements.lost"], cases["victory"]) == ("19.11", "15.12", "20.1")
    assert (cases["reinforcements_chart"], cases["deployment"]) == ("15.21", "14.0")
