"""Grand Chancellorsville (Hooker and Lee 22.0-23.6, 003): one battle on two map sheets joined as 22.0
says, its order of battle as the charts print it (22.5, 22.6; oob.toml records what was resolved), its
sequence (22.3, 22.4) and the special rules the existing components play (22.11, 23.1, 23.31, 23.32,
23.61, 23.62)."""

from charts import chart_rows, read_chart

from rules.core.game import Game
from rules.core.hexes import Grid
from rules.reducer import new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from scenarios.source import renamed, sheet_number

GC = load("grand_chancellorsville")
F = load("fredericksburg")
H = load("hooker_and_lee")
SHEETS = [{"sheet": "F", "row_offset": 0}, {"sheet": "H", "row_offset": 27}]
TYPE = {"": "infantry", "a": "artillery", "c": "cavalry"}

# 22.51, 22.52 as printed (sheet-named hexes), but F1505's "2/VI" read as 3/VI (oob.toml).
UNION_CHART = """
H0305 2a II; H0306 12 3/II; H0307 16 1/II; F0114 2a Reserve; F0608 8 2/II; F1105 17 2/VI; F1104 2a VI;
F1203 6 Lt/VI; F1202 16 1/VI; F1505 19 3/VI; F1302 17 1/III; F1201 16 2/III; F1102 8 3/III; F1301 6a III
"""
CONFEDERATE_CHART = """
H1523 5 Mahone/A; H1623 4 Posey/A; F2027 4 Wright/A; F1927 4a Garnett/A; F1326 5 Wilcox/A; F0415 3 Perry/A;
F0715 4 Wofford/M; F0914 3a Pendleton/M; F1112 5 Barksdale/M; F1212 3a Alexander/M; F1313 4a Cabell/M;
F1313 5 Semmes/M; F1512 6 Kershaw/M; F1711 5 Hays/E; F1909 5 Hoke/E; F2006 6 Gordon/E; F2204 2a Andrews/E;
F2202 4 Smith/E
"""
# 22.61, 22.62 (Game-Turn/entry hexes); Colston/C added to Game-Turn Two (oob.toml); H1028 left out.
UNION_REINFORCEMENTS = """
1/F1301 19 1/I; 1/F1301 12 2/I; 1/F1301 7 3/I; 1/F1301 5a I; 1/H0128 19 1/V; 1/H0128 9 2/V; 1/H0128 4a V;
2/H1128+H0128 13 1/XII; 2/H1128+H0128 16 2/XII; 2/H1128+H0128 3a XII; 2/H1128+H0128 4c 2/Pleasanton;
2/H1128+H0128 3c 1/Pleasanton; 4/H1128+H0128 9 1/XI; 4/H1128+H0128 10 3/XI; 4/H1128+H0128 8 2/XI;
4/H1128+H0128 2a XI; 5/H0128 9 3/V; 16/H0128 4c 1/Averill; 16/H0128 3c 2/Averill
"""
WEST = "H1427+H1928+H2328+H1128+H1027"
CONFEDERATE_REINFORCEMENTS = f"""
2/F2501 4 Heth/H; 2/F2501 4 Thomas/H; 2/F2501 4 Ramseur/R; 2/F2501 4 Doles/R; 2/F2501 4 Iverson/R;
2/F2501 4a Crutchfield; 2/F2501 3a Walker/H; 2/F2501 2a Carter/R; 2/F2501 2a H. Jones/C; 2/F2501 5 Colquitt/R;
2/F2501 5 Rodes/R; 2/F2501 5 Nicholls/C; 2/F2501 5 J. Jones/C; 2/F2501 5 Paxton/C; 2/F2501 5 McGowan/H;
2/F2501 5 Archer/H; 2/F2501 5 Pender/H; 2/F2501 5 Lane/H; 2/F2501 5 Colston/C;
8/{WEST} 4c 1/F. Lee/S; 8/{WEST} 1a Beckham/S; 9/{WEST} 2c 2/F. Lee/S; 10/{WEST} 3c 3/F. Lee/S
"""


def joined(text):
    """A chart with sheet-named hexes, read on the joined map."""
    out = []
    for where, strength, kind, designation in read_chart(text, TYPE):
        turn, _, hexes = where.rpartition("/")
        hexes = "+".join(sheet_number(h, SHEETS) for h in hexes.split("+"))
        out.append((f"{turn}/{hexes}" if turn else hexes, strength, kind, designation))
    return sorted(out)


def units(side, at_start):
    return chart_rows(GC, side, at_start)


def test_the_two_sheets_joined_as_22_0_says():
    # 22.0: "Fredericksburg hex 1328 overlaps directly on to Hooker and Lee hex 1301": the sheets' columns
    # coincide, H's row r is joined row r + 27; the odd columns' rows overlap, the even columns abut
    assert sheet_number("F1328", SHEETS) == sheet_number("H1301", SHEETS) == "1328"
    assert sheet_number("H1928", SHEETS) == "1955" and sheet_number("F2401", SHEETS) == "2401"
    assert len(GC.map.hexes) == len(F.map.hexes) + len(H.map.hexes) - 13  # the 13 odd columns' row 28/01
    for number, kind in H.map.hexes.items():
        if int(number[2:]) > 1 or int(number[:2]) % 2 == 0:
            assert GC.map.hexes[sheet_number("H" + number, SHEETS)] == kind
    for number, kind in F.map.hexes.items():
        assert GC.map.hexes[number] == kind  # the Fredericksburg sheet lies on top
    grid = Grid(GC.map.lower_columns)
    assert grid.adjacent("1427", "1428")  # F1427 (even, its last row) touches H1401
    assert renamed({"hex": "F0114", "entry": ["H0128"], "k": "F0414|F0415"}, SHEETS) == {
        "hex": "0114", "entry": ["0155"], "k": "0414|0415"}


def test_order_of_battle_as_the_charts_print_it_22_5_22_6():
    # 22.51, 22.52, 22.61, 22.62 (the readings oob.toml records)
    assert units("union", True) == joined(UNION_CHART)
    assert units("confederate", True) == joined(CONFEDERATE_CHART)
    assert units("union", False) == joined(UNION_REINFORCEMENTS)
    assert units("confederate", False) == joined(CONFEDERATE_REINFORCEMENTS)


def test_sequence_22_3_22_4():
    # 22.4: twenty Game-Turns, One, Six, Eleven and Sixteen at night; 22.3: the Confederate first, but
    # without a Player-Turn on Game-Turn One: the game opens with the Union's
    assert (GC.turns, GC.night_turns, GC.first_player) == (20, [1, 6, 11, 16], "confederate")
    state = new_game(Game(GC, get_ruleset("revised")))
    assert (state.turn, state.phasing, state.phase) == (1, "union", "movement")


def test_special_rules_played_by_the_components_22_11_23_1_23_3_23_6():
    game = Game(GC, get_ruleset("revised"))
    # 23.0: the Grand Chancellorsville special rules, each (23.1-23.6) played by a component of the battle
    # 22.2: "Neither the Fredericksburg nor Hooker and Lee exclusive rules are in effect, unless
    # specifically stated": the scenario's own blocks only (no fog, immobility, quota, demoralization...)
    assert set(GC.exclusive) == {"player_turns", "ferries", "terrain_costs", "stacking", "exits", "corps_command", "forced_march", "leaders", "victory"}
    # 22.11: every creek hexside of the Fredericksburg sheet but the canal's is a ford
    creeks = [k for k, s in GC.map.hexsides.items() if "creek" in s.features]
    assert creeks and sum(1 for k in creeks if "ford" not in GC.map.hexsides[k].features) == 6
    # 23.1 (19.2): the Union divisions stack with no unit
    assert set(game.battle.stacking.alone) == {u.id for u in GC.units if u.side == "union" and u.type == "infantry"}
    # 23.31: the Union exits by F2501 only, one point per Strength Point; 23.32 the Confederate never
    assert (game.battle.exits.hexes, game.battle.exits.sides) == (["2501"], ["union"])
    # 23.61: the occupation points, two per enemy Strength Point; 23.62 the levels by the ratio
    assert {o.hex: o.points for o in game.battle.victory.occupation} == {
        "2401": 25, "1326": 5, "0825": 5, "2027": 5, "1955": 15, "0355": 5}
    assert game.battle.victory.per_enemy_strength_point_eliminated == {"union": 2, "confederate": 2}
    assert game.battle.victory.level_for({"confederate": 40, "union": 20}) == "Confederate Decisive Victory"
    assert game.battle.victory.level_for({"confederate": 20, "union": 20}) == "Union Marginal Victory"
