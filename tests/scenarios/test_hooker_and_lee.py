"""The Hooker and Lee scenario as shipped (003, the revised book, 15.0-21.3): the order of battle
exactly as the charts print it (16.1, 16.2, 17.1), the sequence of play (16.3, 16.4) and a
reconstructed map that agrees with every hex the rules name (17.1, 18.0, 19.14, 20.11, 21.1, 22.0;
scenarios/hooker_and_lee/NOTES.md)."""

from collections import deque

from charts import chart_rows, read_chart

from rules.core import terrain
from rules.core.hexes import Grid
from scenarios.loader import load

# 16.1 as printed (hex, chart strength, designation).
UNION_CHART = """
0912 9 2/V; 1013 4a V; 1115 19 1/V; 1316 9 3/V; 1020 3c 1/Pleasanton; 1120 4c 2/Pleasanton;
1416 16 1/II; 1715 12 3/II; 1615 2a II; 1518 17 1/III; 1919 16 2/III; 1418 8 3/III; 1519 6a III;
1816 13 1/XII; 1817 16 2/XII; 1718 3a XII; 1716 2a Reserve; 1723 9 1/XI; 1722 10 3/XI; 1524 8 2/XI;
1622 2a XI
"""
# 16.2 as printed.
CONFEDERATE_CHART = """
2014 4 Wright/A; 2115 5 Mahone/A; 1914 4 Posey/A; 1812 3 Perry/A; 1913 4a Garnett/A;
1811 4 Wofford/M; 1710 5 Semmes/M; 1608 6 Kershaw/M; 1810 4a Cabell/M; 2215 4 Heth/H; 2215 5 Lane/H;
2114 4 Thomas/H; 2114 5 McGowan/H; 2013 5 Archer/H; 2013 5 Pender/H; 2113 3a Walker/H; 2213 5 Rodes/R;
2213 5 Colquitt/R; 2112 4 Ramseur/R; 2112 4 Doles/R; 2212 4 Iverson/R; 2212 2a Carter/R;
2012 4a Crutchfield; 2311 5 Paxton/C; 2311 2a H. Jones/C; 2310 5 Colston/C; 2310 5 J. Jones/C;
2209 5 Nicholls/C; 1912 3a Alexander; 2320 4c 1/F. Lee/S; 2219 3c W.H.F. Lee/S; 1510 2c 2/F. Lee/S;
2319 1a Beckham/S
"""
# 17.1 (Game-Turn/entry hex, chart strength, designation).
UNION_REINFORCEMENTS = """
4/0111 19 1/I; 4/0111 12 2/I; 4/0111 7 3/I; 4/0111 5a I; 5/0128 4c 1/Averill; 5/0128 3c 2/Averill
"""
TYPE = {"": "infantry", "a": "artillery", "c": "cavalry"}  # 16.0

SCENARIO = load("hooker_and_lee")
GRID = Grid(SCENARIO.map.lower_columns)
HEXES = SCENARIO.map.hexes


def units(side, at_start):
    return chart_rows(SCENARIO, side, at_start)


def edge(hex_):
    column, row = int(hex_[:2]), int(hex_[2:])
    return {
        "north": column == 1,
        "south": column == 25,
        "east": row == 1,
        "west": row == (28 if column % 2 else 27),
    }


def ways_from(hex_, kinds=(terrain.ROAD,)):
    return [n for n in GRID.neighbours(hex_) if any(k in SCENARIO.map.features(hex_, n) for k in kinds)]


def land(start):
    """The hexes reached from ``start`` without entering a river or ferry hex."""
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in GRID.neighbours(h):
            if n in HEXES and n not in seen and HEXES[n] not in (terrain.RIVER, terrain.FERRY):
                seen.add(n)
                todo.append(n)
    return seen


def test_sequence_of_play():
    # 16.3 the Confederate is the First Player; 16.4 nine Game-Turns, Game-Turn Five a Night Game-Turn
    assert (SCENARIO.first_player, SCENARIO.turns, SCENARIO.night_turns) == ("confederate", 9, [5])
    assert SCENARIO.rulesets == ["revised"]


def test_initial_deployment_exactly_as_the_charts_print_it():
    # 16.0, 16.1, 16.2
    assert units("union", True) == read_chart(UNION_CHART, TYPE)
    assert units("confederate", True) == read_chart(CONFEDERATE_CHART, TYPE)


def test_reinforcements_exactly_as_the_charts_print_them():
    # 17.0, 17.1: no Confederate reinforcements
    assert units("union", False) == read_chart(UNION_REINFORCEMENTS, TYPE)
    assert units("confederate", False) == []


def test_counts_strengths_and_ids():
    # 16.1-17.1: Union 21 units (188 SP) + 6 reinforcements (50 SP); Confederate 33 (133 SP)
    def total(side, at_start):
        return sum(s for _, s, _, _ in units(side, at_start))

    assert (total("union", True), total("union", False), total("confederate", True)) == (188, 50, 133)
    assert len({u.id for u in SCENARIO.units}) == len(SCENARIO.units) == 60


def test_the_outline_and_the_edges_the_texts_name():
    # 17.1 entries on the north edge; 18.11 exits on the east edge; 18.22 the south edge; 18.24 the
    # west edge from 1027 to 1928; 22.0 row 01 is the eastern hex row (F1328 over H1301)
    assert len(HEXES) == 13 * 28 + 12 * 27
    assert all(edge(h)["north"] for h in ("0111", "0128"))
    assert all(edge(h)["east"] for h in ("1501", "2001", "2101", "1301"))
    assert all(edge(h)["south"] for h in ("2514", "2518"))
    assert all(edge(h)["west"] for h in ("1027", "1928", "0328"))
    named = {u.hex for u in SCENARIO.units if u.hex} | {h for u in SCENARIO.units for h in u.entry}
    assert named | {"0328", "0511", "1501", "2001", "2101", "2514", "2518"} <= set(HEXES)


def test_no_enemy_units_adjacent_at_start_and_every_set_up_hex_may_be_held():
    # 16.1, 16.2 (6.32: two units a hex at most)
    placed = [(u.hex, u.side) for u in SCENARIO.units if u.hex]
    for a, sa in placed:
        assert HEXES[a] not in (terrain.RIVER, terrain.FERRY), a
        for b, sb in placed:
            if sa != sb:
                assert GRID.distance(a, b) >= 2, (a, b)


def test_the_river_the_i_corps_and_averill_cross():
    # 17.1, 19.14, 20.11, 20.15: the I Corps (0111) and Averill (0128) arrive north of the river and
    # cross it at a River ferry hex: United States Ford 0411, Ely's Ford 0226; the victory hexes 0511 and
    # 0328 are on the south bank by them (21.11)
    assert {h for h, t in HEXES.items() if t == terrain.FERRY} == {"0411", "0226"}
    south = land("1616")
    north = set(SCENARIO.map.areas["north_bank"])
    assert {"0111", "0128"} <= north and not (north & south)
    assert {"0511", "0328", "1501", "2001", "2101"} <= south
    assert all(h in south for u in SCENARIO.units if u.hex for h in [u.hex])
    # the ferries' arrows join the two banks
    for ford, (n, s) in {"0411": ("0312", "0511"), "0226": ("0127", "0326")}.items():
        assert terrain.FERRY_CROSSING in SCENARIO.map.features(ford, n)
        assert terrain.FERRY_CROSSING in SCENARIO.map.features(ford, s)
        assert n in north and s in south
    # Averill's entry reaches no ford but Ely's without crossing a river (19.14)
    assert "0312" not in land("0128")


def test_roads_join_the_entries_the_exits_and_chancellorsville():
    # 17.1, 18.11, 18.22, 18.24: the roads the armies used (inferred, NOTES.md)
    seen, todo = {"1616"}, deque(["1616"])
    while todo:
        h = todo.popleft()
        for n in ways_from(h):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert {"0111", "0128", "0411", "0226", "0511", "0328", "1501", "2001", "2514", "2518", "1728", "1928"} <= seen
