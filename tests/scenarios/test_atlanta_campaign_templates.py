"""The Atlanta Campaign's four battles as templates (scenarios/templates/peachtree_creek, atlanta,
ezra_church, jonesborough; revised 003, the Atlanta Campaign 15.0-19.0): what each lists as still missing
with its reason, and a small set-up supplied to each (a clear grid holding every hex the text names, a
few units of each side, test strengths: not the map sheet, not the counters) on which every exclusive
rule is in force the moment it is supplied, and which the self-play players play to a level of victory."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys

import pytest

from players.selfplay import PLAYERS, refereed_game
from rules.core.breastworks import TRENCH
from rules.core.commands import DeclareAttack, EndPhase, MoveUnit, StrategicMove
from rules.core.errors import RuleViolation
from rules.core.events import AllocationRolled, ImmobilityReleased, VictoryPointsAwarded
from rules.core.game import Game
from rules.procedures.movement import allowance_now
from rules.procedures.victory import end_points
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios import template
from scenarios.loader import TEMPLATES_DIR, load
from tests.rules.combatmaps import rolls, to_phase

BATTLES = ("peachtree_creek", "atlanta", "ezra_church", "jonesborough")
LEVELS = {"Union Victory", "Confederate Victory", "Draw"}


def bluegray(*args):
    return subprocess.run([sys.executable, "-m", "api", "scenario", *map(str, args)], capture_output=True, text=True)


def grid(columns: range, rows: range, areas: str = "") -> str:
    lines = ['provenance = "a test set-up on a clear grid, not the map sheet or the counters"', "[map]", 'lower_columns = "even"', "[map.hexes]"]
    lines += [f'"{c:02d}{r:02d}" = "clear"' for c in columns for r in rows]
    return "\n".join(lines) + "\n" + areas


def unit(uid, side, h, strength=3, type="infantry", command=None):
    extra = f'command = "{command}"\n' if command else ""
    return f'[[unit]]\nid = "{uid}"\nside = "{side}"\ntype = "{type}"\nstrength = {strength}\ndesignation = "{uid}"\nhex = "{h}"\n{extra}'


SETUPS = {
    # Peachtree Creek: the three trench hexes, the four objectives; Stewart's and Hardee's commands (17.3)
    "peachtree_creek": grid(range(37, 51), range(1, 15))
    + unit("us-a", "union", "4709") + unit("us-b", "union", "4809") + unit("us-c", "union", "4909")
    + unit("us-cav", "union", "4505", type="cavalry") + unit("us-d", "union", "4212")
    + unit("cs-s1", "confederate", "3807", command="Stewart") + unit("cs-s2", "confederate", "3907", command="Stewart")
    + unit("cs-s3", "confederate", "4014", command="Stewart") + unit("cs-h1", "confederate", "4614", command="Hardee")
    + unit("cs-h2", "confederate", "4814", command="Hardee") + unit("cs-h3", "confederate", "5013", command="Hardee"),
    # Atlanta: Union hexes west and east of hex row 55XX, 4902 and 5413; thirteen Union units in row 04 (17.2)
    "atlanta": grid(range(48, 62), range(1, 15))
    + unit("us-4902", "union", "4902") + unit("us-5413", "union", "5413") + unit("us-5006", "union", "5006")
    + unit("us-5608", "union", "5608") + "".join(unit(f"us-r{c}", "union", f"{c}04", strength=2) for c in range(48, 61))
    + unit("cs-a", "confederate", "6010") + unit("cs-b", "confederate", "5111") + unit("cs-c", "confederate", "5812")
    + unit("cs-d", "confederate", "4913"),
    # Ezra Church: two Union units in hex row 19XX, 1508 and 1608, another; eight Confederate units (17.3)
    "ezra_church": grid(range(10, 22), range(1, 15))
    + unit("us-1902", "union", "1902") + unit("us-1905", "union", "1905") + unit("us-1508", "union", "1508")
    + unit("us-1608", "union", "1608") + unit("us-1110", "union", "1110")
    + unit("cs-att", "confederate", "2103", strength=6) + unit("cs-1504", "confederate", "1406") + unit("cs-1602", "confederate", "1705")
    + "".join(unit(f"cs-r{c}", "confederate", f"{c}13", strength=2) for c in range(10, 16)),
    # Jonesborough: the nine units of 19.0 at their corrected hexes; Union units east and west of the Flint
    "jonesborough": grid(range(13, 27), range(4, 17), '[map.areas]\neast_of_flint_river = ["1607", "1608", "1707", "1708", "1709"]\n')
    + "".join(f'[[unit]]\nid = "cs-{n}"\ntype = "infantry"\nstrength = 3\n' for n in ("brantly", "deas", "sharp", "baker", "stovall", "cumming", "manigault", "hotzclaw", "gibson"))
    + unit("us-1608", "union", "1608") + unit("us-1707", "union", "1707") + unit("us-1412", "union", "1412")
    + unit("cs-near", "confederate", "1714") + unit("cs-near2", "confederate", "1904"),
}


@pytest.fixture(scope="module")
def completed(tmp_path_factory):
    root = tmp_path_factory.mktemp("atlanta-campaign")
    out = {}
    for battle in BATTLES:
        folder = shutil.copytree(TEMPLATES_DIR / battle, root / battle)
        (folder / template.SETUP).write_text(SETUPS[battle])
        out[battle] = load(folder)
    return out


def start(completed, battle):
    return new_game(Game(completed[battle], get_ruleset("revised")))


@pytest.mark.parametrize("battle", BATTLES)
def test_each_template_lists_what_it_needs_and_validate_exits_0_16_1(battle):
    # 16.1: "All units on both sides are deployed in the hexes designated on their reverse sides"
    problems, missing = template.check(TEMPLATES_DIR / battle)
    assert problems == []
    what = [m.what for m in missing]
    assert {"map", "units union", "units confederate"} <= set(what) and all(m.reason for m in missing)
    done = bluegray("validate", battle)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [f"template: {len(missing)} items to supply", *(f"  {m}" for m in missing)]


@pytest.mark.parametrize(("battle", "turns"), [("peachtree_creek", 6), ("atlanta", 8), ("ezra_church", 5), ("jonesborough", 7)])
def test_the_sequence_the_text_gives_16_2_16_3(completed, battle, turns):
    # 16.2: "The Confederate Player is the First Player"; 16.3: six, eight, five, seven Game-Turns
    sc = completed[battle]
    assert (sc.first_player, sc.turns, sc.night_turns, sc.rulesets) == ("confederate", turns, [], ["revised"])
    assert "completes the template" in sc.provenance["template"]
    state = start(completed, battle)
    assert (state.turn, state.phasing, state.phase) == (1, "confederate", "movement")


def trenches(state):
    return {h: sorted(m.facing) for h, m in state.breastworks.items() if m.status == TRENCH and m.side == "union"}


def test_peachtree_creek_three_trenches_facing_south_16_1(completed):
    # "three Breastworks Markers facing south in hexes 4709, 4809, and 4909" (even columns lower: odd
    # column 4709's south-west, south and south-east neighbours are 4609, 4710, 4809; even 4809's 4710,
    # 4810, 4910; odd 4909's 4809, 4910, 5009)
    assert trenches(start(completed, "peachtree_creek")) == {
        "4709": ["4609", "4710", "4809"], "4809": ["4710", "4810", "4910"], "4909": ["4809", "4910", "5009"],
    }


def test_peachtree_creek_union_allowance_three_and_no_strategic_movement_on_game_turn_one_17_2(completed):
    state, _ = execute(start(completed, "peachtree_creek"), EndPhase(), rolls(1, 1))  # 17.4's dice first
    state = to_phase(state, "union", "movement")
    assert state.turn == 1 and allowance_now(state, "us-cav") == 3 and allowance_now(state, "us-d") == 3
    with pytest.raises(RuleViolation) as e:
        decide(state, StrategicMove("us-cav", ("4505", "4504")))
    assert e.value.case == "17.2"
    state, _ = execute(state, EndPhase())
    state, _ = execute(state, EndPhase(), rolls(1, 1))  # Game-Turn Two begins: the Confederate dice
    state = to_phase(state, "union", "movement")
    assert state.turn == 2 and allowance_now(state, "us-cav") == 8 and allowance_now(state, "us-d") == 6


def test_peachtree_creek_allocation_die_for_each_command_17_3_17_4(completed):
    # 17.4, Game-Turn One: Stewart rolls a 1 (four units), Hardee a 2 (four)
    state = start(completed, "peachtree_creek")
    events = decide(state, MoveUnit("cs-s3", ("4014", "4013")), rolls(1, 2))
    rolled = [(e.command, e.roll, e.units, e.case) for e in events if isinstance(e, AllocationRolled)]
    assert rolled == [("Stewart", 1, 4, "17.4"), ("Hardee", 2, 4, "17.4")]
    state = fold(state, events)
    allocation = state.game.battle.movement_allocation
    assert (allocation.used(state, 0), allocation.used(state, 1)) == (1, 0)


def test_peachtree_creek_victory_points_18_1(completed):
    # 18.12 ii): ten for 3803 "at any time"; iii): five for 3804 "at the end"; 18.13: the Union holds them
    state = start(completed, "peachtree_creek")
    assert {h: state.control[h] for h in ("3803", "4905", "3804", "4806")} == dict.fromkeys(("3803", "4905", "3804", "4806"), "union")
    state, events = execute(state, MoveUnit("cs-s1", ("3807", "3806", "3805", "3804", "3803")), rolls(6, 6))
    assert [(e.side, e.points, e.subject) for e in events if isinstance(e, VictoryPointsAwarded)] == [("confederate", 10, "3803")]
    state, _ = execute(state, MoveUnit("cs-s2", ("3907", "3906", "3905", "3804")))
    assert [(a.side, a.points, a.subject) for a in end_points(state) if a.kind == "occupation"] == [("confederate", 5, "3804")]
    victory = state.game.battle.victory
    # 18.0: "at least five Victory Points higher than his opponent is the winner"
    assert [victory.level_of(d) for d in (5, 4, 0, -4, -5)] == ["Union Victory", "Draw", "Draw", "Draw", "Confederate Victory"]


def test_atlanta_trenches_west_of_hex_row_55_but_4902_and_5413_16_1(completed):
    # "Breastworks Markers facing south-west in all hexes occupied by his units west of hex row 55XX,
    # except hexes 4902 and 5413": 5006 (even column: north-west 4905, south-west 4906, south 5007) has
    # one; 5608 (east of 55XX), 4902 and 5413 none; row 04 west of 55XX each one
    got = trenches(start(completed, "atlanta"))
    assert got["5006"] == ["4906", "4907", "5007"]
    assert set(got) == {"5006"} | {f"{c}04" for c in range(48, 55)}


def test_atlanta_each_player_moves_no_more_than_twelve_units_17_2(completed):
    state = start(completed, "atlanta")
    assert state.game.battle.quota_remaining(state, "confederate") == 12
    state = to_phase(state, "union", "movement")
    for c in range(48, 60):  # twelve of the thirteen
        state, _ = execute(state, MoveUnit(f"us-r{c}", (f"{c}04", f"{c}03")))
    with pytest.raises(RuleViolation) as e:
        decide(state, MoveUnit("us-r60", ("6004", "6003")))
    assert e.value.case == "17.2" and "12 allowed" in str(e.value)


def test_atlanta_25_points_for_6012_at_any_time_18_12(completed):
    state = start(completed, "atlanta")
    assert state.control["6012"] == "union"  # 18.13
    state, events = execute(state, MoveUnit("cs-a", ("6010", "6011", "6012")))
    assert [(e.side, e.points, e.subject) for e in events if isinstance(e, VictoryPointsAwarded)] == [("confederate", 25, "6012")]
    assert state.vp["confederate"] == 25


def test_ezra_church_trenches_19xx_south_east_the_rest_south_none_in_1508_1608_16_1(completed):
    # even columns lower: odd column 1902 touches 1901 (north), 2001, 2002, 1903 (south), 1802, 1801
    # clockwise; south-east facing: 2001, 2002, 1903. Odd 1110 faces south: 1010, 1111, 1210
    assert trenches(start(completed, "ezra_church")) == {
        "1902": ["1903", "2001", "2002"], "1905": ["1906", "2004", "2005"], "1110": ["1010", "1111", "1210"],
    }


def test_ezra_church_one_19xx_unit_released_each_game_turn_and_all_when_attacked_17_2(completed):
    state = to_phase(start(completed, "ezra_church"), "union", "movement")
    state, events = execute(state, MoveUnit("us-1902", ("1902", "1802")))
    assert [(e.units, e.cause, e.case) for e in events if isinstance(e, ImmobilityReleased)] == [(["us-1902"], "each_turn", "17.2")]
    with pytest.raises(RuleViolation) as e:
        decide(state, MoveUnit("us-1905", ("1905", "1805")))
    assert e.value.case == "17.2"
    # Game-Turn Two: a Confederate unit attacks 1905 (in hex row 19XX): every Union unit released
    state = to_phase(state, "confederate", "movement")
    state, _ = execute(state, MoveUnit("cs-att", ("2103", "2104", "2004")))
    state = to_phase(state, "confederate", "combat")
    state, events = execute(state, DeclareAttack(("cs-att",), ("1905",)))
    assert [(e.units, e.cause) for e in events if isinstance(e, ImmobilityReleased)] == [(["us-1905"], "attacked")]


def test_ezra_church_seven_confederate_units_and_fatigue_17_3_17_4(completed):
    state = start(completed, "ezra_church")
    for uid, path in (("cs-r10", ("1013", "1012")), ("cs-r11", ("1113", "1112")), ("cs-r12", ("1213", "1212")),
                      ("cs-r13", ("1313", "1312")), ("cs-r14", ("1413", "1412")), ("cs-1504", ("1406", "1405")),
                      ("cs-1602", ("1705", "1704"))):
        state, _ = execute(state, MoveUnit(uid, path))
    with pytest.raises(RuleViolation) as e:
        decide(state, MoveUnit("cs-r15", ("1513", "1512")))
    assert e.value.case == "17.3"
    fatigue = state.game.battle.fatigue  # 17.4 "The Confederate Player only must add one"
    assert (fatigue.disorder_die("confederate", 3), fatigue.rally_die("confederate", 5), fatigue.disorder_die("union", 3)) == (4, 6, 3)


def test_ezra_church_victory_points_18_1(completed):
    # 18.12 ii), iii): ten for 1504, 25 for 1602 at any time; 18.11 ii), 18.12 iv): five for 1212 at the
    # end to whoever occupies it
    state = start(completed, "ezra_church")
    state, e1 = execute(state, MoveUnit("cs-1504", ("1406", "1405", "1505", "1504")))
    state, e2 = execute(state, MoveUnit("cs-1602", ("1705", "1704", "1603", "1602")))
    assert [(e.points, e.subject) for e in e1 + e2 if isinstance(e, VictoryPointsAwarded)] == [(10, "1504"), (25, "1602")]
    assert [(a.side, a.points) for a in end_points(state) if a.kind == "occupation"] == [("union", 5)]  # 18.13
    state, _ = execute(state, MoveUnit("cs-r12", ("1213", "1212")))
    assert [(a.side, a.points) for a in end_points(state) if a.kind == "occupation"] == [("confederate", 5)]


def test_jonesborough_the_errata_hexes_19_0_and_trenches_east_of_the_flint_16_1(completed):
    units = {u.id: u for u in completed["jonesborough"].units}
    assert {u: units[u].hex for u in ("cs-brantly", "cs-deas", "cs-sharp", "cs-baker", "cs-stovall", "cs-cumming", "cs-manigault", "cs-hotzclaw", "cs-gibson")} == {
        "cs-brantly": "2410", "cs-deas": "2409", "cs-sharp": "2408", "cs-baker": "2414", "cs-stovall": "2413",
        "cs-cumming": "2412", "cs-manigault": "2510", "cs-hotzclaw": "2509", "cs-gibson": "2508"}
    state = start(completed, "jonesborough")
    got = trenches(state)
    # only 1608 and 1707 are east of the Flint River (1412 is not); each faces the Confederate units (the
    # ruling for "as desired"): of its six neighbours, the one nearest a Confederate unit is among the three
    assert set(got) == {"1608", "1707"}
    grid, game = state.game.grid, state.game
    enemies = [h for u, h in state.positions.items() if game.units[u].side == "confederate"]
    for h, facing in got.items():
        nearest = min(game.neighbours[h], key=lambda n: min(grid.distance(n, e) for e in enemies))
        assert nearest in facing and len(facing) == 3, (h, facing)
    assert "1607" not in got["1707"] and "1509" not in got["1608"]  # never west, away from them


def test_jonesborough_nineteen_minus_the_game_turn_17_1_17_2(completed):
    state = start(completed, "jonesborough")
    assert state.game.battle.quota_remaining(state, "confederate") == 18  # 19-1
    assert state.game.battle.quota_remaining(state, "union") is None  # 17.1: the Union moves freely
    state = to_phase(state, "union", "movement")
    state, _ = execute(state, EndPhase())
    state = to_phase(state, "confederate", "movement")
    assert state.turn == 2 and state.game.battle.quota_remaining(state, "confederate") == 17


def test_jonesborough_victory_points_18_12(completed):
    # 18.12 ii), iii): five for 1515, 25 for 1706 "at any time during the game"; 18.13: initially Union
    state = start(completed, "jonesborough")
    assert (state.control["1515"], state.control["1706"]) == ("union", "union")
    state, e1 = execute(state, MoveUnit("cs-near", ("1714", "1614", "1515")))
    state, e2 = execute(state, MoveUnit("cs-near2", ("1904", "1804", "1705", "1706")))
    assert [(e.side, e.points, e.subject) for e in e1 + e2 if isinstance(e, VictoryPointsAwarded)] == [
        ("confederate", 5, "1515"), ("confederate", 25, "1706")]


@pytest.mark.parametrize("battle", BATTLES)
@pytest.mark.parametrize("players", ["random", "greedy"])
def test_twenty_self_played_games_finish_with_a_victory_level_18_0(completed, battle, players):
    # 10 games a player (20 a battle): every rule in force, to the end, a level of 18.0
    state = start(completed, battle)
    for seed in range(10):
        final, _log, _referee = refereed_game(state, random.Random(seed), PLAYERS[players])
        assert final.game_over and final.result in LEVELS, final.result


@pytest.mark.parametrize("battle", BATTLES)
def test_one_victory_point_per_enemy_combat_strength_point_eliminated_18_11_18_12(completed, battle):
    # 18.11 (i): "One Victory Point for every Confederate Combat Strength Point eliminated"; 18.12 i): the
    # same for every Union one
    state = start(completed, battle)
    victory = state.game.battle.victory
    assert (victory.for_elimination("union", 4), victory.for_elimination("confederate", 3)) == (4, 3)


def test_peachtree_creek_every_confederate_unit_is_of_a_command_17_3(tmp_path):
    # 17.3: each Confederate unit is of Stewart's command (blue) or Hardee's (red): a set-up that leaves a
    # unit's command out is refused, naming it
    folder = shutil.copytree(TEMPLATES_DIR / "peachtree_creek", tmp_path / "peachtree_creek")
    (folder / template.SETUP).write_text(SETUPS["peachtree_creek"].replace('command = "Hardee"\n', "", 1))
    done = bluegray("validate", folder)
    assert done.returncode == 1 and "unit cs-h1 has no command of Hardee, Stewart" in done.stdout, done.stdout
