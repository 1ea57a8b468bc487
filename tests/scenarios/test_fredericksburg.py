"""The Fredericksburg scenario as shipped (003, the revised book, 15.0-26.0): the order of battle exactly as
the charts print it (16.1, 16.2, 17.1, 17.2), the sequence of play (16.3, 16.4) and a map that agrees
with every hex and feature the rules name (18.1, 19.0, 19.12, 21.13, 21.22, 21.32, 24.0, 25.0)."""

from collections import deque

from charts import read_chart

from rules.core import terrain
from rules.core.hexes import Grid, hexside
from scenarios.loader import load

# 16.1 as printed (hex, chart strength, designation).
UNION_CHART = """
1703 6 1/1/I; 1802 5 2/1/I; 1703 5 3/1/I; 1802 6 4/1/I; 1601 5 1/2/I; 1702 4 2/2/I; 1702 5 3/2/I;
1601 12 3/I; 0810 15 1/II; 0712 6 1/2/II; 0811 3 2/2/II; 0612 4 3/2/II; 0910 6 1/3/II;
0810 2 2/3/II; 0910 3 3/3/II; 1104 4 1/1/III; 1203 4 2/1/III; 1203 4 3/1/III; 1204 4 1/2/III;
1204 4 2/2/III; 1104 4 3/2/III; 0310 6 1/3/III; 0310 2 2/3/III; 0908 7 1/1/V; 0908 8 2/1/V;
0808 8 3/1/V; 0206 13 3/V; 1507 7 1/1/VI; 1407 7 2/1/VI; 1507 5 3/1/VI; 1704 7 1/2/VI;
1605 8 2/2/VI; 1705 7 3/2/VI; 1406 8 1/3/VI; 1405 7 2/3/VI; 1405 7 3/3/VI; 1307 4 1/1/IX;
1308 4 2/1/IX; 1208 3 3/1/IX; 1009 8 1/2/IX; 1009 6 2/2/IX; 1109 4 1/3/IX; 1109 4 2/3/IX;
1603 6c 1/C/L; 1603 3a LGd; 0807 5c 1/C/C; 0309 4c 1/C/R; 0309 4c 2/C/R; 0216 4a R; 0411 4a RC;
1005 4a LC; 1301 4a L; 0511 2a RGd; 1205 1a III; 0808 2a V
"""
# 16.2 as printed.
CONFEDERATE_CHART = """
1113 10 Ransom; 0519 5 Wilcox; 0818 3 Wright; 0917 5 Mahone; 0916 3 Perry; 0914 4 Featherston;
1112 6 Cobb; 1512 7 Kershaw; 1611 5 Barksdale; 1313 4 Semmes; 1710 4 Armistead; 1810 5 Jenkins;
1911 4 Garnett; 2111 4 Kemper; 2310 3 Corse; 1909 4 Robertson; 2008 5 Anderson; 2408 4 Toombs;
2307 5 Law; 2006 5 Pender; 2205 4 Thomas; 2004 5 Lane; 2203 5 Gregg; 2202 5 Archer;
2302 4 Brockenbrough; 2505 13 Taliaferro; 2401 1a Walker; 1313 1a Cabell; 1212 3a Pendleton;
1116 2a I
"""
# 17.1, 17.2 (Game-Turn, entry hex, chart strength, designation); Early's alternative brigades (game
# option early_brigades) below.
REINFORCEMENTS = """
4 0113 6 1/2/V; 4 0113 8 2/2/V; 4 0113 5 3/2/V; 1 1901 1a Pelham; 2 2501 20 Early; 3 2501 6 Rodes;
3 2501 4 Doles; 3 2501 6 Colquitt; 3 2501 4 Iverson; 3 2501 4 Grimes
"""
TYPE = {"": "infantry", "a": "artillery", "c": "cavalry"}  # 16.0

EXITS = ["0113", "2027", "2501"]  # 21.32
VICTORY_HEXES = {"1113": 15, "2401": 25, "1711": 8, "1504": 5, "0511": 5, "0206": 8}  # 21.13
# 19.0: the Union units "starting the game on the eastern side of the Rappahannock" (the map's reading,
# scenario.toml [provenance]); the others start on the west bank with the Confederates.
EAST_BANK = ["0206", "0216", "0309", "0310", "0411", "0511", "0807", "0808", "0908", "1005", "1104", "1203",
             "1204", "1205", "1301"]

SCENARIO = load("fredericksburg")
MAP = SCENARIO.map
GRID = Grid(MAP.lower_columns)


def chart(text):
    return read_chart(text, TYPE)


def neighbours(h):
    return [n for n in GRID.neighbours(h) if n in MAP.hexes]


def on_edge(h):
    return len(neighbours(h)) < 6


def test_sequence_of_play():
    # 16.3, 16.4: the Confederate moves first; eleven Game-Turns, the sixth a Night Game-Turn.
    assert SCENARIO.first_player == "confederate"
    assert SCENARIO.turns == 11
    assert SCENARIO.night_turns == [6]
    assert SCENARIO.rulesets == ["revised"]


def test_order_of_battle_is_the_charts():
    # 16.1, 16.2: every unit on its hex with the printed strength and type.
    for side, text in (("union", UNION_CHART), ("confederate", CONFEDERATE_CHART)):
        units = sorted((u.hex, u.strength, u.type, u.designation) for u in SCENARIO.units if u.side == side and u.hex)
        assert units == chart(text), side
    # 17.1, 17.2: the reinforcements, their Game-Turn and entry hex.
    expected = []
    for entry in REINFORCEMENTS.replace("\n", " ").split(";"):
        turn, where, strength, designation = entry.split(maxsplit=3)
        kind = strength.lstrip("0123456789")
        expected.append((int(turn), [where], int(strength[: len(strength) - len(kind)]), TYPE[kind], designation.strip()))
    got = [(u.arrives, u.entry, u.strength, u.type, u.designation) for u in SCENARIO.played_with({}).units if u.arrives]
    assert sorted(got) == sorted(expected)


def test_early_or_his_four_brigades():
    # 17.2: "Arriving on Game-Turn Two on hex 2501: 20 Early (or the following units): 7 Lawton, 4 Trimble,
    # 5 Hoke, 4 Hays": the division by default, the brigades instead with the game option early_brigades
    from rules.core.game import Game
    from rules.rulesets import get as get_ruleset

    option = SCENARIO.options["early_brigades"]
    assert (option.case, option.replaces) == ("17.2", ["cs-early"])
    brigades = {"Lawton": 7, "Trimble": 4, "Hoke": 5, "Hays": 4}

    def arriving_on_two(options):
        game = Game(SCENARIO, get_ruleset("revised"), options)
        return {u.designation: u.strength for u in game.scenario.units if u.arrives == 2 and u.entry == ["2501"]}

    assert arriving_on_two({}) == {"Early": 20}
    assert arriving_on_two({"early_brigades": True}) == brigades
    assert sum(brigades.values()) == 20  # the same division, in four counters


def test_counts_and_ids():
    # 24.0: "only 99 unit counters available" (with Early as one counter: 55 + 3 Union, 30 + 7 Confederate).
    played = SCENARIO.played_with({})
    union = [u for u in played.units if u.side == "union"]
    confederate = [u for u in played.units if u.side == "confederate"]
    assert (len(union), len(confederate)) == (58, 37)
    assert sum(u.strength for u in union if u.hex) == 294
    assert sum(u.strength for u in confederate if u.hex) == 138
    assert len({u.id for u in SCENARIO.units}) == len(SCENARIO.units)
    # "I", "III", "V" are corps and artillery designations at once: ids tell them apart.
    ids = {u.designation: u.id for u in SCENARIO.units if u.type == "artillery"}
    assert (ids["I"], ids["III"], ids["V"]) == ("cs-art-i", "us-art-iii", "us-art-v")


def test_grid_covers_every_named_hex_and_the_overlap_row():
    # 21.32 exits, 17.x entries on the map edge; Hooker and Lee 22.0: F1328 overlaps H1301 (row 28 exists);
    # the Grand Chancellorsville hexes named with "F" are all on this map.
    for h in EXITS + ["1901"]:
        assert h in MAP.hexes and on_edge(h), h
    named = "0114 0608 1102 1104 1105 1201 1202 1203 1301 1302 1505 0415 0715 0914 1112 1212 1313 1326 1512 1711 1909 1927 2006 2027 2202 2204 0825 1328"
    for h in named.split():
        assert h in MAP.hexes, h
    assert "1328" in MAP.hexes and on_edge("1328")


def test_victory_hexes_and_their_first_occupants():
    # 21.13, 21.22: the six victory hexes, held at the start by the side the text names.
    occupation = {o["hex"]: o["points"] for o in SCENARIO.exclusive["victory"]["occupation"]}
    assert occupation == VICTORY_HEXES
    held = {h: row["side"] for row in SCENARIO.exclusive["control_hexes"]["held_at_start"] for h in row["hexes"]}
    assert held == {"1113": "confederate", "1711": "confederate", "2401": "confederate",
                    "0206": "union", "0511": "union", "1504": "union"}
    # 19.0 (and the notes): Humphreys's division starts on Burnside's headquarters, Ransom on Marye's Heights.
    on = {u.hex: u.designation for u in SCENARIO.units if u.hex}
    assert on["0206"] == "3/V" and on["1113"] == "Ransom" and on["2401"] == "Walker"


def land_reached(start):
    """The hexes reached from ``start`` without entering river, pontoon or ferry hexes."""
    blocked = {h for h, t in MAP.hexes.items() if t in (terrain.RIVER, terrain.FERRY, terrain.PONTOON)}
    seen, todo = {start}, deque([start])
    while todo:
        for n in neighbours(todo.popleft()):
            if n not in seen and n not in blocked:
                seen.add(n)
                todo.append(n)
    return seen


def test_the_rappahannock_separates_the_banks():
    # 19.0, 6.27: the river divides the Union on the east bank from the rest; only the pontoons (18.1)
    # and the fords (19.12: river ferry hexes here) cross it.
    east = land_reached("0206")
    for h in EAST_BANK + ["0113"]:
        assert h in east, h
    others = {u.hex for u in SCENARIO.units if u.hex} - set(EAST_BANK)
    assert not others & east
    crossings = {h: t for h, t in MAP.hexes.items() if t in (terrain.PONTOON, terrain.FERRY)}
    assert crossings == {"0610": "pontoon", "0909": "pontoon", "1305": "pontoon",
                         "0412": "ferry", "0322": "ferry", "0327": "ferry"}
    for h in crossings:
        arrows = [n for n in neighbours(h) if terrain.FERRY_CROSSING in MAP.features(h, n)]
        assert len(arrows) == 2 and sum(a in east for a in arrows) == 1, h


def test_stated_hexsides():
    # 25.0: "The hex side 0713/0714 is treated as a stream hex side"; the canal (creek) ends there.
    assert MAP.features("0713", "0714") == {terrain.STREAM}
    assert terrain.CREEK in MAP.features("0613", "0714")
    # 24.0: the ford on 0412, touching the east bank (0411) and the west bank (0513).
    assert MAP.hexes["0412"] == terrain.FERRY
    # 23.2: redoubts on Marye's Heights and the stone wall, facing the town.
    assert MAP.hexsides[hexside("1012", "1113")].barbed == "1012"
    assert terrain.REDOUBT in MAP.features("1011", "1112")


def test_exits_on_the_battle_map():
    # 21.31, 21.32, 21.33, 21.34 on the battle's map: 1/C/R (east bank, 0309) rides to 0113 and off,
    # paying one Movement Point for the exit; not from another edge hex; exited, not eliminated, and
    # never back on the map, once released from its immobility (19.1; here as if by 19.13).
    from rules.core.commands import ExitMap
    from rules.core.errors import RuleViolation
    from rules.core.game import Game
    from rules.procedures.exits import exit_paths
    from rules.queries.exits import exited
    from rules.reducer import execute, new_game
    from rules.rulesets import get as get_ruleset

    state = new_game(Game(SCENARIO, get_ruleset("revised")))
    while state.phasing != "union" or state.phase != "movement":
        from rules.core.commands import EndPhase

        state, _ = execute(state, EndPhase())
    state.turn = 2  # no fog (18.2)
    cav = "us-cav-1-c-r"
    assert state.positions[cav] == "0309"
    assert exit_paths(state, cav) == {}  # 19.1: immobile
    state.released = state.released | {cav}
    assert set(exit_paths(state, cav)) == {"0113"}  # 21.32: the only exit within reach
    try:
        execute(state, ExitMap(cav, ("0309", "0209", "0109")))  # 0109: a west-edge hex, not an exit
        raise AssertionError("exit refused")
    except RuleViolation as e:
        assert e.case == "21.32"
    path = exit_paths(state, cav)["0113"]
    state, events = execute(state, ExitMap(cav, path))
    assert all(MAP.hexes[h] == "clear" for h in path) and events[0].cost == (len(path) - 1) + 1  # 21.31: five clear hexes and one to exit
    assert cav in exited(state) and cav not in state.eliminated and cav not in state.positions  # 21.33, 21.34


def test_the_schedule_and_levels_as_printed():
    # 17.0 the charts; 18.0 the pontoons are the map's (18.1); 21.11 one point per enemy Combat Strength
    # Point; 21.31 exit cost one; 21.4 the levels by the ratio of Union to Confederate points.
    from rules.core.game import Game
    from rules.rulesets import get as get_ruleset

    battle = Game(SCENARIO, get_ruleset("revised")).battle
    assert battle.victory.per_enemy_strength_point_eliminated == {"union": 1, "confederate": 1}
    assert battle.exits.cost == 1 and battle.exits.hexes == EXITS
    assert battle.victory.ratio_of == ["union", "confederate"]
    assert battle.victory.level_for({"union": 40, "confederate": 20}) == "Union Decisive Victory"
    assert battle.victory.level_for({"union": 30, "confederate": 20}) == "Union Substantive Victory"
    assert battle.victory.level_for({"union": 21, "confederate": 20}) == "Union Marginal Victory"
    assert battle.victory.level_for({"union": 20, "confederate": 20}) == "Confederate Marginal Victory"
    assert battle.victory.level_for({"union": 20, "confederate": 25}) == "Confederate Substantive Victory"
    assert battle.victory.level_for({"union": 20, "confederate": 30}) == "Confederate Decisive Victory"
    assert sorted(h for h, t in MAP.hexes.items() if t == terrain.PONTOON) == ["0610", "0909", "1305"]
    assert len([u for u in SCENARIO.played_with({}).units if u.arrives]) == 10


def test_the_validator_checks_what_an_option_replaces(tmp_path):
    # 17.2: the option's replaces names units of the order of battle, as a list
    import shutil

    from scenarios.loader import folder_of
    from scenarios.source import Files
    from scenarios.validate import check

    folder = tmp_path / "fredericksburg"
    shutil.copytree(folder_of("fredericksburg"), folder)
    toml = folder / "scenario.toml"
    toml.write_text(toml.read_text().replace('replaces = ["cs-early"]', 'replaces = ["cs-jubal"]'))
    problems = [(p.location, p.message) for p in check(Files(folder))]
    assert ("options.early_brigades", "names no unit of the order of battle: 'cs-jubal'") in problems
    toml.write_text(toml.read_text().replace('replaces = ["cs-jubal"]', 'replaces = "cs-early"'))
    problems = [(p.location, p.message) for p in check(Files(folder))]
    assert ("options.early_brigades", "replaces: expected a list of unit ids") in problems
