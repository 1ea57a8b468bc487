"""The 3 May 1863 scenario of Fredericksburg (003, the revised book, 22.0-22.4), shipped as
scenarios/fredericksburg_3_may on the 13 December map file: its order of battle exactly as the charts
print it (22.2, 22.3, 22.4), the map's change (22.11), the victory points' (22.12), and the battle's other
rules as they stand."""

import pytest

from rules.core import terrain
from rules.core.commands import EndPhase, MoveUnit
from rules.core.errors import RuleViolation
from rules.core.game import Game
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import folder_of, load
from scenarios.source import Files

MAY = load("fredericksburg_3_may")
DECEMBER = load("fredericksburg")
TYPE = {"": "infantry", "a": "artillery", "c": "cavalry"}  # 16.0
# 22.2, 22.3 as printed (hex, chart strength, designation).
UNION = """1505 7 1/1/VI; 1406 7 2/1/VI; 1504 5 3/1/VI; 1407 8 2/2/VI; 1208 7 3/2/VI; 0711 8 1/3/VI;
0810 7 2/3/VI; 0810 7 3/3/VI; 0712 6 1/2/II; 0712 4 3/2/II; 0910 3a LGd"""
CONFEDERATE = """0618 5 Wilcox; 1012 4 Hays; 1211 5 Barksdale; 2008 5 Hoke; 2006 7 Lawton; 2202 4 Trimble;
2004 1a Walker; 1212 3a Pendleton"""
# 22.4: Game-Turn, chart strength, designation; all at hex 2027.
REINFORCEMENTS = """4 6 Cobb; 4 4 Semmes; 4 7 Kershaw; 4 1a Cabell; 5 5 Mahone; 5 2a I; 9 3 Wright;
9 4 Featherston; 9 3 Perry"""
CANAL = ["0414|0415", "0414|0515", "0514|0515", "0514|0614", "0613|0614", "0613|0714"]


def chart(text, first):
    out = []
    for entry in text.replace("\n", " ").split(";"):
        lead, strength, designation = entry.split()
        kind = strength.lstrip("0123456789")
        out.append((first(lead), int(strength[: len(strength) - len(kind)]), TYPE[kind], designation))
    return sorted(out)


def test_order_of_battle_is_the_charts():
    # 22.2, 22.3: every unit on its hex with the printed strength and type; 22.4 the reinforcements at 2027
    for side, text in (("union", UNION), ("confederate", CONFEDERATE)):
        units = sorted((u.hex, u.strength, u.type, u.designation) for u in MAY.units if u.side == side and u.hex)
        assert units == chart(text, str), side
    arriving = sorted((u.arrives, u.strength, u.type, u.designation) for u in MAY.units if u.arrives)
    assert arriving == chart(REINFORCEMENTS, int)
    assert all(u.entry == ["2027"] for u in MAY.units if u.arrives)
    assert not [u for u in MAY.units if u.side == "union" and u.arrives]  # no Union reinforcement


def test_it_plays_on_the_battle_map_file():
    # 22.0 "the map sheet": the 13 December map file, shared (map_file), not a copy
    files = Files(folder_of("fredericksburg_3_may"))
    assert files.map.path.resolve() == (folder_of("fredericksburg") / "map.toml").resolve()
    assert not (folder_of("fredericksburg_3_may") / "map.toml").exists()
    assert MAY.map.hexes == DECEMBER.map.hexes and MAY.map.areas == DECEMBER.map.areas


def test_creek_hexsides_but_the_canal_are_fords():
    # 22.11: "All creek hex sides on the map sheet (except the canal) are treated as ford hex sides"
    creeks = {k: s for k, s in MAY.map.hexsides.items() if terrain.CREEK in s.features}
    assert len(creeks) > len(CANAL)
    for key, side in creeks.items():
        assert (terrain.FORD in side.features) == (key not in CANAL), key
    # the 13 December map is left as it is: no creek hexside is a ford there
    assert not [k for k, s in DECEMBER.map.hexsides.items() if terrain.CREEK in s.features and terrain.FORD in s.features]
    assert {k: s.features - {terrain.FORD} for k, s in MAY.map.hexsides.items()} == {
        k: s.features for k, s in DECEMBER.map.hexsides.items()}


def across_deep_run(scenario):
    """2/1/VI, at 1406, steps across the Deep Run creek hexside 1406|1307 (no bridge) in the Union
    Movement Phase of Game-Turn Two of the scenario's game (no fog); the state and events after, or the
    refusal."""
    state = new_game(Game(scenario, get_ruleset("revised")))
    while state.phasing != "union" or state.phase != "movement":
        state, _ = execute(state, EndPhase())
    state.turn = 2  # no fog (18.2)
    unit = "us-2-1-vi"  # at 1406 on 3 May
    state.positions = {**state.positions, unit: "1406"}
    return execute(state, MoveUnit(unit, ("1406", "1307")))


def test_a_unit_crosses_deep_run_on_3_may_only():
    # 22.11 on the map: Deep Run (creek, 1307|1406) is crossed on 3 May; on 13 December no unit may cross a
    # creek hexside but at a bridge or ford (5.25, revised 10.1)
    features = MAY.map.hexsides["1307|1406"].features
    assert terrain.CREEK in features and terrain.BRIDGE not in features
    state, _ = across_deep_run(MAY)
    assert state.positions["us-2-1-vi"] == "1307"
    with pytest.raises(RuleViolation):
        across_deep_run(DECEMBER)


def test_no_points_for_1711_0206_0511_1504():
    # 22.12: "Victory Points are not awarded for hexes 1711, 0206, 0511 or 1504": 21.13 i), ii) only
    occupation = {o["hex"]: o["points"] for o in MAY.exclusive["victory"]["occupation"]}
    assert occupation == {"1113": 15, "2401": 25}


def test_the_battles_other_rules_stand():
    # 22.0 lists two modifications; the rest as printed: 16.3, 16.4 (eleven Game-Turns, Six at night, fog
    # One and Seven, 18.2), 19.0, 19.1, 20.0, 21.12, 21.22, 21.35
    assert (MAY.first_player, MAY.turns, MAY.night_turns, MAY.rulesets) == ("confederate", 11, [6], ["revised"])
    for block in ("ferries", "fog", "movement_quota", "immobility", "control_hexes", "exits"):
        assert block in MAY.exclusive, block
    victory = MAY.exclusive["victory"]
    assert victory["at_start"] == {"confederate": 4} and victory["automatic"] == DECEMBER.exclusive["victory"]["automatic"]
    game = Game(MAY, get_ruleset("revised"))
    assert not [u for u in game.scenario.units if game.battle.immobility.binds(u)]  # 19.1 binds none
    assert new_game(game).vp == {"union": 0, "confederate": 4}
    assert game.case("deployment") == "22.2" and game.case("reinforcements_chart") == "22.4"


def test_the_validator_checks_the_map_changes(tmp_path):
    # 22.11's change names hexsides of the map with the feature; a feature that is none is refused
    import shutil

    from scenarios.validate import check

    folder = tmp_path / "fredericksburg_3_may"
    shutil.copytree(folder_of("fredericksburg_3_may"), folder)
    shutil.copytree(folder_of("fredericksburg"), tmp_path / "fredericksburg")
    toml = folder / "scenario.toml"
    text = toml.read_text()
    assert check(Files(folder)) == []
    toml.write_text(text.replace('"0613|0714"]', '"0713|0714"]').replace('add = ["ford"]', 'add = ["wade"]'))
    problems = [(p.location, p.message) for p in check(Files(folder))]
    assert any("'0713|0714' is no creek hexside" in m for _, m in problems)
    assert any(m.startswith("add: expected a list of hexside features") for _, m in problems)
