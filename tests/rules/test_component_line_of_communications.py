"""The line of communications traced at the end of the game (Chickamauga 21.32), on a small map: a road
0101-0102-0103 leads off the map at 0101."""

import msgspec
import pytest
from rulesmaps import board, rebel, sides, start, union

from rules.core.components.line_of_communications import LineOfCommunications
from rules.procedures.victory import end_points
from rules.queries.communications import cut_off

ROAD = sides({("0101", "0102"): {"road"}, ("0102", "0103"): {"road"}})


def line(path_hexes=5):
    return LineOfCommunications(side="union", exits=["0101"], path_hexes=path_hexes)


def game(units, path_hexes=5):
    exclusive = {
        "line_of_communications": {"side": "union", "exits": ["0101"], "path_hexes": path_hexes},
        "victory": {"per_enemy_strength_point_eliminated": {"union": 1, "confederate": 1}},
    }
    return start(units, hexsides=ROAD, exclusive=exclusive, cases={"classic": {"line_of_communications": "21.32"}})


def test_a_path_of_at_most_ten_hexes_to_the_road():
    # 21.32: "no more than ten hexes in length to a road which ... leads off the map sheet"
    state = game([union("u", "0108"), rebel("far", "0808")])
    assert cut_off(state, line(5)) == []  # 0108 to 0103: five hexes
    assert cut_off(state, line(4)) == ["u"]


def test_the_path_may_cross_enemy_zones_of_control_but_not_an_enemy_unit():
    # 21.32: "this path may pass through Enemy Zones of Control but not an Enemy unit"
    state = game([union("u", "0105"), rebel("r", "0205"), rebel("far", "0808")], path_hexes=2)
    assert cut_off(state, line(2)) == []  # 0105-0104-0103, in the zone of control of 0205
    wall = [rebel(f"w{i}", h) for i, h in enumerate(["0104", "0204"])]
    state = game([union("u", "0105"), *wall, rebel("far", "0808")], path_hexes=2)
    assert cut_off(state, line(2)) == ["u"]


def test_an_enemy_unit_on_the_road_cuts_it():
    # 21.32 "via a series of contiguous road hexes": 0102 held by a Confederate leaves only 0101
    state = game([union("u", "0108"), rebel("r", "0102")])
    assert cut_off(state, line(7)) == ["u"]  # round 0102 to 0101: eight hexes
    assert cut_off(state, line(8)) == []


def test_reinforcements_not_entered_trace_from_their_entry_hexes():
    # 21.32: "if an un-entered Reinforcement unit from hex 0718 [0728] or 1027"
    units = [union("r", None, arrives=3, entry=["0108", "0808"]), union("s", None, arrives=3, entry=["0808"]), rebel("far", "0606")]
    assert cut_off(game(units), line(5)) == ["s"]


def test_a_unit_cut_off_counts_as_eliminated_for_victory():
    # 21.32, 21.11 i): one Victory Point to the Confederate per Strength Point of the unit cut off
    state = game([union("u", "0108", strength=6), rebel("far", "0808")], path_hexes=4)
    awarded = [a for a in end_points(state) if a.kind == "cut_off"]
    assert [(a.side, a.points, a.subject, a.case) for a in awarded] == [("confederate", 6, "u", "21.32")]


# -- Road to Vicksburg 20.0-20.3: one form for each side (``forms``) ------------------------------------
VICKSBURG = {
    "enemy_zoc_blocks": True,
    "through_friendly_units": True,
    "prohibited_terrain_blocks": True,
    "friendly_controlled": True,
    "reinforcements_not_entered": False,
    "forms": {"union": {"hexes": ["0804"]}, "confederate": {"road_hexes_on": ["east", "west"]}},
}


def vicksburg(units, terrain=None, hexsides=None, held=None, **line):
    exclusive = {
        "line_of_communications": {**VICKSBURG, **line},
        "victory": {"per_enemy_strength_point_eliminated": {"union": 1, "confederate": 1}},
    }
    if held:
        exclusive["control_hexes"] = {"held_at_start": held}
    return start(
        units, hexes=board(terrain=terrain), hexsides=hexsides, exclusive=exclusive,
        cases={"classic": {"line_of_communications": "20.0"}},
    )


def test_each_side_traces_to_its_own_form_20_2_20_3():
    # 20.2: "Union units can trace Lines of Communication to hexes 1902, 1911 or 1920" (here 0804);
    # 20.3: "Confederate units can trace Lines of Communication to any road hex on the eastern or western
    # edges of the map sheet": a road through 0105 (west edge)
    road = sides({("0105", "0205"): {"road"}})
    state = vicksburg([union("u", "0201"), rebel("r", "0408")], hexsides=road)
    line = state.game.battle.line_of_communications
    assert line.sides() == ("union", "confederate") and cut_off(state, line) == []
    # no road on an east or west edge: the Confederate unit has no line; the Union's is of any length
    state = vicksburg([union("u", "0201"), rebel("r", "0408")], hexsides=sides({("0305", "0405"): {"road"}}))
    assert cut_off(state, state.game.battle.line_of_communications) == ["r"]


def test_the_line_is_free_of_enemy_zones_of_control_negated_by_friendly_units_20_1():
    # 20.1: "free of Enemy units, Enemy Zones of Control ... Friendly units negate Enemy Zones of Control":
    # a Confederate wall of zones across column 06 (0602, 0604, 0606, 0608 control every hex of 05-07)
    wall = [rebel(f"w{i}", h) for i, h in enumerate(["0602", "0604", "0606", "0608"])]
    road = sides({("0105", "0205"): {"road"}})
    state = vicksburg([union("u", "0201"), *wall], hexsides=road)
    assert "u" in cut_off(state, state.game.battle.line_of_communications)
    # Union units in 0503, 0603 and 0703 negate the zones there: the line goes through them to 0804
    state = vicksburg([union("u", "0201"), union("a", "0503"), union("b", "0603"), union("c", "0703"), *wall], hexsides=road)
    assert "u" not in cut_off(state, state.game.battle.line_of_communications)


def test_prohibited_terrain_blocks_the_line_20_1():
    # 20.1: "free of ... prohibited Terrain": a lake down column 05 cuts the board in two
    lake = {f"05{r:02d}": "lake" for r in range(1, 9)}
    state = vicksburg([union("u", "0201"), rebel("r", "0808")], terrain=lake, hexsides=sides({("0805", "0705"): {"road"}}))
    assert cut_off(state, state.game.battle.line_of_communications) == ["u"]
    state = vicksburg([union("u", "0201"), rebel("r", "0808")], terrain=lake, hexsides=sides({("0805", "0705"): {"road"}}),
                      prohibited_terrain_blocks=False)
    assert cut_off(state, state.game.battle.line_of_communications) == []


def test_a_prohibited_hexside_blocks_the_line_20_1():
    # 20.1: "free of ... prohibited Terrain": a river hexside (revised 10.1: may not be crossed) between
    # columns 04 and 05 along the whole board
    plain = vicksburg([union("u", "0201"), rebel("r", "0808")], hexsides=sides({("0805", "0705"): {"road"}}))
    wall = {(a, b): {"river_side"} for a in plain.game.neighbours for b in plain.game.neighbours[a] if a[:2] == "04" and b[:2] == "05"}
    state = vicksburg([union("u", "0201"), rebel("r", "0808")], hexsides=sides({("0805", "0705"): {"road"}, **wall}))
    assert cut_off(plain, plain.game.battle.line_of_communications) == []
    assert cut_off(state, state.game.battle.line_of_communications) == ["u"]


def test_the_line_ends_in_a_friendly_controlled_hex_20_1():
    # 20.1: "to certain Friendly controlled hexes at the map edge": 0804 under Confederate control (21.2:
    # the last to occupy it) is no end for a Union line; 0808 under Union control is
    line = {"forms": {"union": {"hexes": ["0804", "0808"]}, "confederate": {"road_hexes_on": ["west"]}}}
    held = [{"side": "confederate", "hexes": ["0804"]}, {"side": "union", "hexes": ["0808"]}]
    state = vicksburg([union("u", "0201"), rebel("r", "0101")], held=held, **line)
    assert cut_off(state, state.game.battle.line_of_communications) == ["r"]  # no road on the west edge
    held = [{"side": "confederate", "hexes": ["0804", "0808"]}]
    state = vicksburg([union("u", "0201"), rebel("r", "0101")], held=held, **line)
    assert cut_off(state, state.game.battle.line_of_communications) == ["u", "r"]
    state = vicksburg([union("u", "0201"), rebel("r", "0101")], held=held, friendly_controlled=False, **line)
    assert cut_off(state, state.game.battle.line_of_communications) == ["r"]


def test_a_unit_without_a_line_counts_as_eliminated_21_1():
    # 20.0: "Units unable to do so are considered eliminated for Victory Point purposes"; 21.1: one point
    # per Combat Strength Point
    state = vicksburg([union("u", "0201", strength=5), rebel("r", "0408", strength=3)])
    got = sorted((a.side, a.points, a.subject, a.case) for a in end_points(state) if a.kind == "cut_off")
    assert got == [("union", 3, "r", "20.0")]


def test_one_form_for_both_or_one_per_side_not_both_20_2_20_3():
    # 20.2, 20.3: each side its own form, or one form for the side that traces, never both
    with pytest.raises(msgspec.ValidationError, match="give one of"):
        msgspec.convert({"side": "union", "hexes": ["0101"], "forms": {"confederate": {"hexes": ["0808"]}}}, LineOfCommunications)
    with pytest.raises(msgspec.ValidationError, match="road_hexes_on"):
        msgspec.convert({"forms": {"union": {"hexes": ["0101"], "road_hexes_on": ["east"]}}}, LineOfCommunications)
    line = msgspec.convert(VICKSBURG, LineOfCommunications)
    assert (line.form("union").hexes, line.form("confederate").road_hexes_on) == (["0804"], ["east", "west"])


def test_a_unit_without_a_line_counts_as_eliminated_for_all_eliminated_too_20_0_21_3():
    # 20.0: "Units unable to do so are considered eliminated for Victory Point purposes"; 21.3: "50 for
    # eliminating the Union Train unit": the Train cut off by a lake down column 05 scores as eliminated
    lake = {f"05{r:02d}": "lake" for r in range(1, 9)}
    exclusive = {
        "line_of_communications": VICKSBURG,
        "victory": {"per_enemy_strength_point_eliminated": {"union": 1, "confederate": 1},
                    "all_eliminated": [{"side": "confederate", "units": ["t"], "points": 50}]},
    }
    road = sides({("0805", "0705"): {"road"}})
    for hex_, expected in (("0201", [("confederate", 50)]), ("0703", [])):
        state = start([union("t", hex_), rebel("r", "0808")], hexes=board(terrain=lake), hexsides=road, exclusive=exclusive)
        assert [(a.side, a.points) for a in end_points(state) if a.kind == "all_eliminated"] == expected
