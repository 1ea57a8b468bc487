"""The line of communications traced at the end of the game (Chickamauga 21.32), on a small map: a road
0101-0102-0103 leads off the map at 0101."""

from rulesmaps import rebel, sides, start, union

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
