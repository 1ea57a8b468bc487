"""The Atlanta Campaign 16.1's Breastworks Markers on small maps (rules/core/components/trenches.py,
rules/queries/trenches.py): markers facing a direction (Peachtree Creek: "three Breastworks Markers
facing south in hexes 4709, 4809, and 4909") and markers in the hexes the Union units occupy at set-up
as the battle selects them (Atlanta, Ezra Church, Jonesborough 16.1)."""

from __future__ import annotations

from rules.core.breastworks import TRENCH
from rules.core.game import Game
from rules.reducer import new_game
from rules.rulesets import get as get_ruleset
from tests.rules.rulesmaps import board, rebel, scenario, union


def trenches(units, block, areas=None, hexes=None):
    sc = scenario(units, hexes=hexes or board(12, 12), exclusive={"trenches": block}, areas=areas)
    state = new_game(Game(sc, get_ruleset("revised")))
    return {h: (m.side, sorted(m.facing)) for h, m in state.breastworks.items() if m.status == TRENCH}


def test_markers_facing_south_peachtree_creek_16_1():
    # "facing south": the south-west, south and south-east hexsides. Even columns lower: 0404 touches
    # 0403 (north), 0504, 0505, 0405 (south), 0305, 0304 clockwise; odd column 0505 touches 0504 (north),
    # 0604, 0605, 0506 (south), 0405, 0404
    block = {"markers": [{"hex": "0404", "side": "union", "facing": "south"}, {"hex": "0505", "side": "union", "facing": "south"}]}
    got = trenches([union("a", "0404"), rebel("r", "1212")], block)
    assert got == {"0404": ("union", ["0305", "0405", "0505"]), "0505": ("union", ["0405", "0506", "0605"])}


def test_every_union_hex_west_of_a_hex_row_but_two_faces_south_west_atlanta_16_1():
    # "the Union Player places Breastworks Markers facing south-west in all hexes occupied by his units
    # west of hex row 55XX, except hexes 4902 and 5413" (here west of row 06XX, except 0303)
    units = [union("a", "0202"), union("b", "0303"), union("c", "0505"), union("d", "0505"), union("e", "0606"), rebel("r", "1212")]
    block = {"occupied": [{"side": "union", "facing": "south_west", "west_of": 6, "except_hexes": ["0303"]}]}
    got = trenches(units, block)
    # south-west: the north-west, south-west and south hexsides
    assert got == {"0202": ("union", ["0102", "0103", "0203"]), "0505": ("union", ["0404", "0405", "0506"])}


def test_the_19xx_row_faces_south_east_the_rest_south_and_two_hexes_have_none_ezra_church_16_1():
    # "places Breastworks Markers on each hex his units occupy except for the units that are initially
    # deployed in hexes 1508 and 1608. Breastworks Markers in the 19XX hex row face southeast, and the
    # remaining Breastworks Markers face south" (here row 05XX, except 0202 and 0303)
    units = [union("a", "0505"), union("b", "0202"), union("c", "0303"), union("d", "0404"), rebel("r", "1212")]
    block = {"occupied": [
        {"side": "union", "facing": "south_east", "columns": [5]},
        {"side": "union", "facing": "south", "except_hexes": ["0202", "0303"]},
    ]}
    got = trenches(units, block)
    # south-east: the north-east, south-east and south hexsides
    assert got == {"0505": ("union", ["0506", "0604", "0605"]), "0404": ("union", ["0305", "0405", "0505"])}


def test_the_hexes_of_an_area_facing_the_enemy_jonesborough_16_1():
    # "places Breastworks Markers in each hex occupied by his units east of the Flint River, determining
    # their facing as desired" (ruling: toward the Confederate units at set-up, docs/RULINGS.md)
    units = [union("a", "0606"), union("b", "0206"), rebel("r", "0609")]
    block = {"occupied": [{"side": "union", "facing": "toward_enemy", "area": "east_of_flint_river"}]}
    got = trenches(units, block, areas={"east_of_flint_river": ["0606", "0706"]})
    assert got == {"0606": ("union", ["0507", "0607", "0707"])}  # south: toward 0609


def test_a_marker_already_placed_keeps_its_facing_10_36():
    # 10.36: one Breastworks Marker in a hex; the explicit marker first, the rules after it
    units = [union("a", "0404"), rebel("r", "1212")]
    block = {"markers": [{"hex": "0404", "side": "union", "facing": "north"}], "occupied": [{"side": "union", "facing": "south"}]}
    assert trenches(units, block) == {"0404": ("union", ["0304", "0403", "0504"])}  # north-west, north, north-east
