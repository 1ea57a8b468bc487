"""Road to Vicksburg (Champion Hill) as a template (scenarios/templates/road_to_vicksburg, revised 003
15.0-23.0): what it lists as still missing with each reason, the units its rules name, and a small
set-up supplied to it (a clear grid holding every hex the text names, the named units and a few more,
test strengths: not the map sheet, not the counters) with the rules built so far in force, played to a
level of victory by the self-play players. docs/RULES_COVERAGE.md lists the cases not built yet."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys

import pytest

from players.selfplay import PLAYERS, refereed_game
from rules.core.commands import DeclareAttack, EndPhase, MoveUnit
from rules.core.errors import RuleViolation
from rules.core.events import RestraintReleased, RestraintRolled, UnitEliminated, VictoryPointsAwarded
from rules.core.game import Game
from rules.procedures.victory import end_points
from rules.reducer import execute, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios import template
from scenarios.loader import TEMPLATES_DIR, load

FOLDER = TEMPLATES_DIR / "road_to_vicksburg"
LEVELS = {
    "Draw", "Union Decisive Victory", "Union Substantive Victory", "Union Marginal Victory",
    "Confederate Marginal Victory", "Confederate Substantive Victory", "Confederate Decisive Victory",
}


def bluegray(*args):
    return subprocess.run([sys.executable, "-m", "api", "scenario", *map(str, args)], capture_output=True, text=True)


def unit(uid, side, h, strength=3, type="infantry", command=None):
    extra = f'command = "{command}"\n' if command else ""
    return f'[[unit]]\nid = "{uid}"\nside = "{side}"\ntype = "{type}"\nstrength = {strength}\ndesignation = "{uid}"\nhex = "{h}"\n{extra}'


def named(uid, h, strength=3, type=None):
    return f'[[unit]]\nid = "{uid}"\nhex = "{h}"\n' + (f"strength = {strength}\n" if strength is not None else "") + (f'type = "{type}"\n' if type else "")


# 19.3: "Such units must exit along a road": a road through each of the five exit hexes
EXIT_ROADS = "".join(f'[[map.road]]\nhexes = ["{a}", "{b}"]\n' for a, b in (("0108", "0208"), ("0119", "0219"), ("1902", "1802"), ("1911", "1811"), ("1920", "1820")))

SETUP = (
    'provenance = "a test set-up on a clear grid, not the map sheet or the counters"\n[map]\nlower_columns = "even"\n[map.hexes]\n'
    + "\n".join(f'"{c:02d}{r:02d}" = "clear"' for c in range(1, 20) for r in range(1, 21)) + "\n"
    + '[[map.road]]\nhexes = ["1815", "1816", "1817"]\n'
    + EXIT_ROADS
    + '[map.areas]\njacksons_creek = ["0101", "0102"]\nbakers_creek = ["0103", "0104"]\njacksons_creek_woods = ["1901"]\n'
    + 'middle_road_east_of_jacksons_creek = ["1310"]\njacksons_force = ["1309"]\n'  # 19.1: the areas the creeks need; 17.3 release ii: cs-a, Jackson's force, controls 1310
    + named("cs-bowen-green", "1010", 4) + named("cs-bowen-cockrell", "1012", 4)
    + '[[unit]]\nid = "cs-bowen-green-ooa"\nstrength = 2\n[[unit]]\nid = "cs-bowen-cockrell-ooa"\nstrength = 2\n'  # 19.61: set aside
    + named("us-9-1", "1610") + named("us-9-2", "1612") + named("us-1-wisconsin", "1611", 2) + named("us-2-ohio", "1714", 2)
    + named("us-train", "1815", None, "infantry")
    + unit("us-a", "union", "1606") + unit("us-b", "union", "1015") + unit("us-14", "union", "1806", command="14th")
    + unit("cs-a", "confederate", "1309") + unit("cs-b", "confederate", "0607") + unit("cs-c", "confederate", "1306")
    + unit("cs-loring", "confederate", "0505", command="Loring") + unit("cs-d", "confederate", "1410")
    + unit("us-w", "union", "0318") + unit("us-wa", "union", "0209", strength=2, type="artillery")
    + unit("cs-e", "confederate", "1909", strength=4)
)


@pytest.fixture(scope="module")
def completed(tmp_path_factory):
    folder = shutil.copytree(FOLDER, tmp_path_factory.mktemp("rtv") / "road_to_vicksburg")
    (folder / template.SETUP).write_text(SETUP)
    return load(folder)


def test_the_template_lists_what_it_needs_and_the_units_the_rules_name_16_1_16_2():
    # 16.2: "Place each remaining unit with a four-digit number printed on the back of the counter in the
    # matching hex": the set-up is the counters'; 17.1-17.5, 18.0, 19.52 name these units
    problems, missing = template.check(FOLDER)
    assert problems == []
    what = {m.what for m in missing}
    assert {"map", "units union", "units confederate", "unit us-train type", "unit us-2-ohio hex"} <= what
    # 16.2: "The two Confederate units with 'Out of Ammo' printed on their backs are set aside" (19.61)
    assert {"unit cs-bowen-green-ooa strength", "unit cs-bowen-cockrell-ooa strength"} <= what
    assert not {"unit cs-bowen-green-ooa hex", "unit cs-bowen-cockrell-ooa hex"} & what
    assert all(m.reason for m in missing)
    done = bluegray("validate", "road_to_vicksburg")
    assert done.returncode == 0 and done.stdout.splitlines()[0] == f"template: {len(missing)} items to supply"


def test_the_named_units_and_the_sequence_16_1_16_3_16_4(completed):
    units = {u.id: u for u in completed.units}
    # 16.1: a Confederate counter names its division commander (the command) and its own commander
    assert (units["cs-bowen-green"].designation, units["us-2-ohio"].designation) == ("Bowen Green", "2nd Ohio")
    # 19.52: Green and Cockrell, Bowen's infantry brigades; 17.3: the 9th Division's brigades and battery
    assert [(units[u].type, units[u].command) for u in ("cs-bowen-green", "cs-bowen-cockrell")] == [("infantry", "Bowen")] * 2
    assert [(units[u].type, units[u].command) for u in ("us-9-1", "us-9-2", "us-1-wisconsin")] == [
        ("infantry", "9th"), ("infantry", "9th"), ("artillery", "9th")]
    # 16.3: the Union Player first; 16.4: twelve Game-Turns, the twelfth a Night Game-Turn
    assert (completed.first_player, completed.turns, completed.night_turns) == ("union", 12, [12])
    state = new_game(Game(completed, get_ruleset("revised")))
    assert (state.turn, state.phasing) == (1, "union")


def test_victory_point_hexes_begin_controlled_and_change_by_zone_of_control_21_2(completed):
    # 21.2: "Hexes 1902, 1911, 1920 and 1504 begin the game under Union control; all other Victory Point
    # hexes begin the game under Confederate control"; "the last to occupy, pass through, or exert an
    # uncontested Zone of Control into it"
    state = new_game(Game(completed, get_ruleset("revised")))
    assert {h: state.control[h] for h in ("1902", "1911", "1920", "1504", "0419", "0507", "0119", "1309")} == {
        "1902": "union", "1911": "union", "1920": "union", "1504": "union",
        "0419": "confederate", "0507": "confederate", "0119": "confederate", "1309": "confederate"}
    while state.phasing != "confederate":
        state, _ = execute(state, EndPhase())
    state, _ = execute(state, MoveUnit("cs-c", ("1306", "1305", "1404")))  # its zone reaches 1504
    assert state.control["1504"] == "confederate"


def test_end_of_game_points_and_the_train_21_3(completed):
    # 21.3: at the end, 10 for 0419, 0607, 1306, 25 for 0507, 0119 to the Player controlling each; 40 to
    # the Confederate for each of 1902, 1911, 1920 (Union-held here: none); 50 for the Union Train
    state = new_game(Game(completed, get_ruleset("revised")))
    got = sorted((a.side, a.points, a.subject) for a in end_points(state) if a.kind == "occupation")
    assert got == [("confederate", 10, "0419"), ("confederate", 10, "0607"), ("confederate", 10, "1306"),
                   ("confederate", 25, "0119"), ("confederate", 25, "0507")]
    state = fold(state, [UnitEliminated(unit="us-train", case="21.3")])
    assert [(a.side, a.points) for a in end_points(state) if a.kind == "all_eliminated"] == [("confederate", 50)]
    # 21.1: one Victory Point per enemy Combat Strength Point eliminated
    assert state.game.battle.victory.for_elimination("union", 4) == 4


@pytest.mark.parametrize(("union", "confederate", "level"), [
    (10, 10, "Draw"), (0, 0, "Draw"), (20, 10, "Union Decisive Victory"), (15, 10, "Union Substantive Victory"),
    (11, 10, "Union Marginal Victory"), (10, 11, "Confederate Marginal Victory"), (8, 10, "Confederate Substantive Victory"),
    (10, 18, "Confederate Decisive Victory"), (4, 7, "Confederate Decisive Victory"),
])
def test_levels_by_the_ratio_of_union_to_confederate_points_19_4_21_0(completed, union, confederate, level):
    # (printed 19.4) LEVELS OF VICTORY; 21.0: "An exact tie is a draw"
    victory = new_game(Game(completed, get_ruleset("revised"))).game.battle.victory
    assert victory.level_for({"union": union, "confederate": confederate}) == level


@pytest.mark.parametrize("players", ["random", "greedy"])
def test_twenty_self_played_games_finish_with_a_victory_level_21_0(completed, players):
    # 10 games a player (20 in all), to the end of Game-Turn Twelve (a Night Game-Turn)
    start = new_game(Game(completed, get_ruleset("revised")))
    for seed in range(10):
        final, _log, _referee = refereed_game(start, random.Random(seed), PLAYERS[players])
        assert final.game_over and final.turn == 12 and final.result in LEVELS, final.result


def game(completed):
    return new_game(Game(completed, get_ruleset("revised")))


def until(state, side, phase, turn, die=lambda: 1):
    """End phases (rolling ``die`` for any roll due) until ``side``'s ``phase`` of Game-Turn ``turn``;
    the events of the last EndPhase too."""
    events = []
    while (state.turn, state.phasing, state.phase) != (turn, side, phase):
        state, events = execute(state, EndPhase(), die)
    return state, events


def refused(state, command):
    with pytest.raises(RuleViolation) as e:
        execute(state, command)
    return e.value


def test_bowen_two_hexes_from_its_initial_position_and_no_enemy_zone_of_control_17_1(completed):
    # 17.1: "No unit of Bowen's division may move more than two hexes from its initial position or enter
    # an Enemy Zone of Control"
    state, _ = execute(game(completed), MoveUnit("us-b", ("1015", "1014")))  # its zone reaches 1013
    state, _ = until(state, "confederate", "movement", 1)
    e = refused(state, MoveUnit("cs-bowen-green", ("1010", "1009", "1008", "1007")))
    assert e.case == "17.0" and "more than 2 hexes from its initial position" in str(e)
    e = refused(state, MoveUnit("cs-bowen-cockrell", ("1012", "1013")))
    assert e.case == "17.0" and "enemy zone of control" in str(e)
    state, _ = execute(state, MoveUnit("cs-bowen-green", ("1010", "1009", "1008")))  # two hexes: free
    state, _ = execute(state, MoveUnit("cs-c", ("1306", "1307")))  # no restraint binds it


def test_an_attack_on_bowen_releases_bowen_and_loring_17_1_17_2(completed):
    # 17.1 i), 17.2 ii): "If any unit of the division is attacked by an adjacent Union unit"
    state, _ = execute(game(completed), MoveUnit("us-b", ("1015", "1014", "1013")))
    state, _ = until(state, "union", "combat", 1)
    state, events = execute(state, DeclareAttack(("us-b",), ("1012",)))
    assert sorted((e.name, e.cause) for e in events if isinstance(e, RestraintReleased)) == [
        ("Bowen's division", "attacked"), ("Loring's division", "attacked")]
    held = state.game.battle.restraints  # for good: nothing holds Green or Loring's units any more
    assert held.holding(state, "cs-bowen-green") == [] and held.holding(state, "cs-loring") == []


def test_the_release_dice_and_the_game_turns_of_release_17_1_17_2_17_5(completed):
    # 17.1 iii): a '6' in the Confederate Movement Phase of Game-Turn Three releases Bowen; 17.2 iii): a
    # '5' on Game-Turn Four leaves Loring held, iv) released on Game-Turn Five; 17.1 iv): Bowen on Four
    state = game(completed)
    state, events = until(state, "confederate", "movement", 3, die=lambda: 6)
    assert [(e.name, e.roll, e.released, e.case) for e in events if isinstance(e, RestraintRolled)] == [("Bowen's division", 6, True, "17.0")]
    state, _ = execute(state, MoveUnit("cs-bowen-green", ("1010", "1009", "1008", "1007")))
    state, events = until(state, "confederate", "movement", 4, die=lambda: 5)
    assert [(e.name, e.released) for e in events if isinstance(e, RestraintRolled)] == [("Loring's division", False)]
    assert refused(state, MoveUnit("cs-loring", ("0505", "0504", "0503", "0502"))).case == "17.0"
    state, _ = until(state, "confederate", "movement", 5)
    state, _ = execute(state, MoveUnit("cs-loring", ("0505", "0504", "0503", "0502")))
    # 17.5 ii): the 2nd Ohio battery moves from the Union Movement Phase of Game-Turn Five
    assert state.positions["cs-loring"] == "0502"


def test_the_9th_and_the_14th_released_when_jacksons_force_no_longer_blocks_the_middle_road_17_3_ii_17_4(completed):
    # 17.3 release ii: "When Jackson's force, or its Zone of Control, no longer blocks the Middle Road east of
    # Jackson's Creek at the end of a Confederate Player-Turn"; the owner's areas: the force set up at
    # 1309 (cs-a), the road east of the creek 1310. 17.4: the 14th is "released as the 9th".
    state, events = until(game(completed), "union", "movement", 2)
    assert not [e for e in events if isinstance(e, RestraintReleased)]  # cs-a's zone covers 1310
    state, _ = until(state, "confederate", "movement", 2)
    state, _ = execute(state, MoveUnit("cs-a", ("1309", "1308", "1307")))  # its zone leaves 1310
    held = state.game.battle.restraints
    assert held.holding(state, "us-9-1") and held.holding(state, "us-14")  # not before the Player-Turn ends
    state, events = until(state, "union", "movement", 3)
    assert [(e.name, e.cause) for e in events if isinstance(e, RestraintReleased)] == [("9th Division", "unblocked")]
    assert held.holding(state, "us-9-1") == held.holding(state, "us-9-2") == held.holding(state, "us-14") == []


def test_the_2nd_ohio_battery_cannot_move_until_an_enemy_ends_a_player_turn_within_three_hexes_17_5(completed):
    state = game(completed)
    e = refused(state, MoveUnit("us-2-ohio", ("1714", "1713")))
    assert e.case == "17.0" and "may not move until released" in str(e)
    state, _ = until(state, "confederate", "movement", 1)
    state, _ = execute(state, MoveUnit("cs-d", ("1410", "1411", "1412", "1413", "1414")))  # three hexes from 1714
    state, events = until(state, "union", "movement", 2)
    assert [(e.name, e.cause, e.unit) for e in events if isinstance(e, RestraintReleased)] == [("2nd Ohio battery", "within", "cs-d")]
    state, _ = execute(state, MoveUnit("us-2-ohio", ("1714", "1713")))


def test_the_9th_2nd_brigade_and_the_14th_kept_out_of_enemy_zones_of_control_17_3_17_4(completed):
    # 17.3 ii): the 2nd brigade and the 1st Wisconsin battery until Game-Turn Four; 17.4: the 14th
    # division until the 9th is released; the 1st brigade may enter one (its own restriction, 17.3 i,
    # is not built)
    state = game(completed)
    e = refused(state, MoveUnit("us-9-2", ("1612", "1512", "1511")))  # 1511: beside cs-d at 1410
    assert e.case == "17.0" and "enemy zone of control" in str(e)
    held = state.game.battle.restraints
    assert not held.barred_from_enemy_zoc(state, "us-9-1") and held.barred_from_enemy_zoc(state, "us-14")
    state, _ = until(state, "union", "movement", 4)
    assert held.barred_from_enemy_zoc(state, "us-14") and not held.barred_from_enemy_zoc(state, "us-1-wisconsin")
    state, events = execute(state, MoveUnit("us-9-2", ("1612", "1512", "1511")))  # 17.3 ii a): Game-Turn Four
    assert state.positions["us-9-2"] == "1511"
    state, events = until(game(completed), "union", "movement", 5, die=lambda: 6)  # 17.3 iii): a '6' on Five
    assert [(e.name, e.released) for e in events if isinstance(e, RestraintRolled)] == [("9th Division", True)]
    assert not held.barred_from_enemy_zoc(state, "us-14")  # 17.4: released with the 9th


def test_the_crossroads_scores_each_game_turn_to_its_controller_16_2_21_3(completed):
    # 16.2: "record which Player, if either, controls the crossroads (hex 1309) at the end of each
    # Game-Turn"; 21.3: ten a Game-Turn to the Confederate Player, five to the Union Player (21.2: the
    # Confederate controls it at the start, and cs-a stands in it)
    state, events = until(game(completed), "union", "movement", 2)
    got = [(e.side, e.points, e.subject) for e in events if isinstance(e, VictoryPointsAwarded) and e.kind == "occupied"]
    assert got == [("confederate", 10, "1309@1")]
    assert state.vp["confederate"] == 10
    state = fold(state, [UnitEliminated(unit="cs-a", case="21.3")])  # it leaves the hex: control stays (21.2)
    state, events = until(state, "union", "movement", 3)
    assert [(e.side, e.points) for e in events if isinstance(e, VictoryPointsAwarded) and e.kind == "occupied"] == [("confederate", 10)]


def test_exits_by_the_five_hexes_and_their_points_19_3_21_3(completed):
    # 19.3: units exit during a Friendly Movement Phase and never return; 21.3: six to the Union for an
    # infantry brigade at 0119, one for an artillery unit at 0108; one to the Confederate for each
    # Combat Strength Point exited at 1902, 1911 or 1920
    from rules.core.commands import ExitMap
    from rules.procedures.exits import exit_paths

    state = game(completed)
    state, _ = execute(state, ExitMap("us-w", exit_paths(state, "us-w")["0119"]))
    state, _ = execute(state, ExitMap("us-wa", exit_paths(state, "us-wa")["0108"]))
    state, _ = until(state, "confederate", "movement", 1)
    state, _ = execute(state, ExitMap("cs-e", exit_paths(state, "cs-e")["1911"]))
    got = sorted((a.side, a.points, a.subject) for a in end_points(state) if a.kind == "exited")
    assert got == [("confederate", 4, "cs-e"), ("union", 1, "us-wa"), ("union", 6, "us-w")]
    assert "us-w" not in state.positions  # it never re-enters


def test_units_exit_only_along_a_road_and_the_set_up_must_draw_one_at_each_exit_hex_19_3(completed, tmp_path):
    # 19.3: "Such units must exit along a road": the template's exits are `along_road`; completing it with
    # a map whose exit hex 0119 has no road is refused, naming the hex (19.0: the last of the special
    # rules 19.1-19.6 to be built)
    from scenarios.source import ScenarioError

    assert completed.exclusive["exits"]["along_road"] is True
    folder = shutil.copytree(FOLDER, tmp_path / "road_to_vicksburg")
    (folder / template.SETUP).write_text(SETUP.replace('[[map.road]]\nhexes = ["0119", "0219"]\n', ""))
    with pytest.raises(ScenarioError) as refused:
        load(folder)
    assert [p.message for p in refused.value.problems if p.location == "exclusive.exits.hexes"] == [
        "0119 is not a road hex: with along_road units must exit along a road (19.3), so each exit hex needs a road running through it on the map"]


def test_union_artillery_bombards_at_four_hexes_a_third_off_19_2(completed):
    # 19.2: "Union artillery has a Range of four hexes; Confederate artillery has a Range of three hexes
    # as normal ... Union artillery bombarding at a Range of four hexes has its Combat Strength reduced by
    # one-third": the 1st Wisconsin (2) bombards cs-a (3) four hexes away
    state = game(completed)
    assert (state.game.bombard_range("us-1-wisconsin"), state.game.bombard_range("us-wa")) == (4, 4)
    state, _ = until(state, "union", "combat", 1)
    state, _ = execute(state, DeclareAttack(("us-1-wisconsin",), ("1309",)))
    attack = state.pending[0]
    assert attack.bombarding == ("us-1-wisconsin",) and attack.attack < 2


def test_double_quick_time_on_the_game_turn_of_release_19_51(completed):
    # 19.51: "On the Game-Turn that Bowen's division is released, its infantry brigades can use
    # 'double-quick time'. For that Game-Turn only, they have a Movement Allowance of nine Movement
    # Points. These units may not utilise double-quick time and Strategic Movement in the same Movement
    # Phase": released by a '6' on Game-Turn Three
    from rules.procedures.movement import allowance_now
    from rules.revised.movement import strategic_allowance

    state, _ = until(game(completed), "confederate", "movement", 2)
    assert allowance_now(state, "cs-bowen-green") == 6
    state, _ = until(state, "confederate", "movement", 3, die=lambda: 6)
    assert (allowance_now(state, "cs-bowen-green"), allowance_now(state, "cs-loring")) == (9, 6)
    assert strategic_allowance(state, "cs-bowen-green") < 9 + 6  # the Strategic Movement bonus on six, not nine
    state, _ = execute(state, MoveUnit("cs-bowen-green", ("1010", "1009", "1008", "1007", "1006", "1005", "1004", "1003", "1002")))
    state, _ = until(state, "confederate", "movement", 4)
    assert allowance_now(state, "cs-bowen-green") == 6  # "For that Game-Turn only"


def test_the_train_moves_only_once_a_confederate_unit_ends_a_game_turn_within_three_hexes_then_one_road_hex_18_4(completed):
    # 18.4: "The Train unit cannot move from its set-up hex unless a Confederate unit is three hexes or
    # less away from the Train unit at the end of any Game-Turn ... After this, the Train unit has a
    # Movement Allowance of one hex per Game-Turn, but can only move along roads"
    from rules.procedures.movement import reachable

    state = game(completed)
    assert refused(state, MoveUnit("us-train", ("1815", "1816"))).case == "17.0"
    state, _ = until(state, "confederate", "movement", 1)
    reach = reachable(state, "cs-e")
    path, h = ["1812"], "1812"
    while reach.prev[h] is not None:
        h = reach.prev[h]
        path.insert(0, h)
    state, _ = execute(state, MoveUnit("cs-e", tuple(path)))  # three hexes from the Train
    state, events = until(state, "union", "movement", 2)
    assert ("Union Train", "within") in [(e.name, e.cause) for e in events if isinstance(e, RestraintReleased)]
    assert refused(state, MoveUnit("us-train", ("1815", "1816", "1817"))).case in ("6.15", "6.16")  # one hex
    assert refused(state, MoveUnit("us-train", ("1815", "1814"))) is not None  # off the road
    state, _ = execute(state, MoveUnit("us-train", ("1815", "1816")))


@pytest.fixture(scope="module")
def with_roads(tmp_path_factory):
    """The test set-up with a road through 0105 on the west edge (20.3) and a Confederate unit at 0316."""
    folder = shutil.copytree(FOLDER, tmp_path_factory.mktemp("rtv-loc") / "road_to_vicksburg")
    extra = unit("cs-x", "confederate", "0316") + '[[map.road]]\nhexes = ["0105", "0205"]\n'
    (folder / template.SETUP).write_text(SETUP + extra)
    return load(folder)


def path_to(state, uid, dest):
    from rules.procedures.movement import reachable

    reach = reachable(state, uid)
    path, h = [dest], dest
    while reach.prev[h] is not None:
        h = reach.prev[h]
        path.insert(0, h)
    return tuple(path)


def test_lines_of_communication_at_the_end_and_units_exited_at_0108_0119_20_0_21_1(with_roads):
    # 20.0: "Each unit remaining on the map sheet at the end of the game, and all Union units that have
    # exited the map sheet at hexes 0108 or 0119 must be able to trace a Line of Communication ... Units
    # unable to do so are considered eliminated for Victory Point purposes"; 20.1: from "the hex from
    # which the tracing unit exited"; 20.2: Union to 1902, 1911 or 1920; 20.3: Confederate to a road hex
    # of the east or west edge (0105 here); 21.1: one point per Combat Strength Point
    from rules.core.commands import ExitMap
    from rules.procedures.exits import exit_paths
    from rules.queries.communications import cut_off

    state = game(with_roads)
    line = state.game.battle.line_of_communications
    assert cut_off(state, line) == []
    state, _ = execute(state, ExitMap("us-w", exit_paths(state, "us-w")["0119"]))
    state, _ = execute(state, ExitMap("us-wa", exit_paths(state, "us-wa")["0108"]))
    state, _ = until(state, "confederate", "movement", 1)
    state, _ = execute(state, MoveUnit("cs-x", path_to(state, "cs-x", "0219")))  # its zone reaches 0119
    assert cut_off(state, line) == ["us-w"]
    awards = end_points(state)
    assert [(a.side, a.points, a.subject) for a in awards if a.kind == "cut_off"] == [("confederate", 3, "us-w")]
    # considered eliminated: no exit points for it (six for an infantry brigade at 0119); us-wa's one stays
    assert sorted((a.side, a.points, a.subject) for a in awards if a.kind == "exited") == [("union", 1, "us-wa")]
    state = fold(state, [UnitEliminated(unit="cs-x", case="20.0")])  # 0119 free again: us-w traces
    assert cut_off(state, line) == []


def test_the_confederate_line_to_a_road_hex_of_the_west_edge_not_union_held_20_3(completed):
    # 20.3: "Confederate units can trace Lines of Communication to any road hex on the eastern or western
    # edges of the map sheet": the test set-up's edge road hexes are the exit hexes (19.3), 1902, 1911 and
    # 1920 Union-controlled (20.1: "certain Friendly controlled hexes"), 0108 and 0119 free: no unit is
    # cut off; with Union units on 0108 and 0119 every Confederate unit on the map is
    from rules.queries.communications import cut_off

    state = game(completed)
    line = state.game.battle.line_of_communications
    assert cut_off(state, line) == []
    state.positions["us-b"], state.positions["us-w"] = "0108", "0119"
    got = cut_off(state, line)
    on_map = [u.id for u in completed.units if u.id in state.positions]
    assert got == [u for u in on_map if state.game.units[u].side == "confederate"] and got


def test_the_train_no_strength_no_zone_eliminated_alone_in_an_enemy_zone_and_its_points_18_1_18_3_21_3(completed):
    # 18.1: "The Train unit has no Combat Strength" (oob.toml: 0); 18.3: "no Zone of Control. If the Train
    # unit is in an Enemy Zone of Control at any time while not stacked with a Friendly unit, it is
    # eliminated"; 21.3: "50 for eliminating the Union Train unit", "5 if the Union Train unit moves from
    # its set-up hex"
    assert {u.id: u.strength for u in completed.units}["us-train"] == 0
    state, _ = until(game(completed), "confederate", "movement", 1)
    state, events = execute(state, MoveUnit("cs-e", path_to(state, "cs-e", "1915")))  # beside 1815
    assert [(e.unit, e.case) for e in events if isinstance(e, UnitEliminated)] == [("us-train", "18.3")]
    assert [(a.side, a.points) for a in end_points(state) if a.kind == "all_eliminated"] == [("confederate", 50)]
    # moved: five points, once (released as in 18.4's test)
    state, _ = until(game(completed), "confederate", "movement", 1)
    state, _ = execute(state, MoveUnit("cs-e", path_to(state, "cs-e", "1812")))
    state, _ = until(state, "union", "movement", 2)
    before = state.vp["confederate"]
    state, events = execute(state, MoveUnit("us-train", ("1815", "1816")))
    assert [(e.side, e.points, e.kind, e.case) for e in events if isinstance(e, VictoryPointsAwarded)] == [
        ("confederate", 5, "symbolic_moved", "21.3")]
    assert state.vp["confederate"] == before + 5


def test_five_units_a_hex_and_one_brigade_19_4(completed):
    # 19.4: "Up to five Friendly units may occupy a hex, provided that no more than one of those units is
    # brigade-sized": the 9th Division's 2nd brigade may not end its move with the 1st (1610), its
    # battery may
    state = game(completed)
    e = refused(state, MoveUnit("us-9-2", ("1612", "1611", "1610")))
    assert e.case == "19.4" and "brigade" in str(e)
    state, _ = execute(state, MoveUnit("us-1-wisconsin", ("1611", "1610")))
    state, _ = execute(state, MoveUnit("us-9-2", ("1612", "1611")))
    assert sorted(state.units_in("1610")) == ["us-1-wisconsin", "us-9-1"]
    assert state.game.battle.stacking.units == 5


@pytest.fixture(scope="module")
def with_trail(tmp_path_factory):
    """The test set-up with a trail from the Train's hex (1815-1715)."""
    folder = shutil.copytree(FOLDER, tmp_path_factory.mktemp("rtv-trail") / "road_to_vicksburg")
    (folder / template.SETUP).write_text(SETUP + '[[map.trail]]\nhexes = ["1815", "1715"]\n')
    return load(folder)


def test_the_train_moves_along_roads_not_trails_and_one_hex_at_night_18_4(with_trail):
    # 18.4: "the Train unit has a Movement Allowance of one hex per Game-Turn, but can only move along
    # roads. The Train unit can continue to move one hex during the Night Game-Turn" (Game-Turn Twelve)
    state, _ = until(game(with_trail), "confederate", "movement", 1)
    state, _ = execute(state, MoveUnit("cs-e", path_to(state, "cs-e", "1812")))  # released (18.4)
    state, _ = until(state, "union", "movement", 2)
    assert refused(state, MoveUnit("us-train", ("1815", "1715"))) is not None  # a trail: not a road
    state, _ = until(state, "union", "movement", 12)
    assert state.turn in state.game.scenario.night_turns
    state, _ = execute(state, MoveUnit("us-train", ("1815", "1816")))
    assert state.positions["us-train"] == "1816"


@pytest.fixture(scope="module")
def sized(tmp_path_factory):
    """The test set-up without the two Union units of the west edge, with Confederate units of each size
    near 0108 and 0119."""
    folder = shutil.copytree(FOLDER, tmp_path_factory.mktemp("rtv-sized") / "road_to_vicksburg")
    setup = SETUP.replace(unit("us-w", "union", "0318"), "").replace(unit("us-wa", "union", "0209", strength=2, type="artillery"), "")
    for uid, h, kind, size in [("cs-br", "0110", "infantry", "brigade"), ("cs-bat", "0111", "artillery", "battery"),
                               ("cs-cav", "0112", "cavalry", "regiment"), ("cs-r1", "0117", "infantry", "regiment"),
                               ("cs-r2", "0118", "infantry", "regiment"), ("cs-r3", "0120", "infantry", "regiment"),
                               ("cs-s1", "0116", "artillery", "section")]:
        setup += unit(uid, "confederate", h, type=kind) + f'size = "{size}"\n'
    (folder / template.SETUP).write_text(setup)
    return load(folder)


def test_confederate_exit_points_at_0108_and_0119_by_size_and_no_decisive_victory_with_them_21_3_19_4(sized):
    # 21.3, to the Confederate Player: "2 for each infantry brigade exited at hex 0108 or hex 0119", "1 for
    # each artillery battery or cavalry regiment exited at hexes 0108 or 0119", "1 for each two infantry
    # regiments or two artillery sections exited at hexes 0108 or 0119": three regiments score one, a lone
    # section none
    from rules.core.commands import ExitMap
    from rules.procedures.exits import exit_paths

    state, _ = until(game(sized), "confederate", "movement", 1)
    for uid, at in [("cs-br", "0108"), ("cs-bat", "0108"), ("cs-cav", "0108"), ("cs-r1", "0119"), ("cs-r2", "0119"),
                    ("cs-r3", "0119"), ("cs-s1", "0119")]:
        state, _ = execute(state, ExitMap(uid, exit_paths(state, uid)[at]))
    got = [(a.side, a.points, a.subject) for a in end_points(state) if a.kind == "exited"]
    assert sorted(got) == [("confederate", 1, "cs-bat"), ("confederate", 1, "cs-cav"), ("confederate", 1, "cs-r2"),
                           ("confederate", 2, "cs-br")]
    # (printed 19.4) "For the Confederate Player to win a decisive victory, no Friendly units exited from
    # the western map edge can be included in his Victory Point total": the Union total set so that the
    # ratio is 1:1.75 or less with the five points of 0108 and 0119, and not without them
    from rules.core.events import VictoryDetermined
    from rules.procedures.victory import determine_victory

    def level(s):
        return next(e for e in determine_victory(s) if isinstance(e, VictoryDetermined))

    first = level(state)
    union = first.confederate * 4 // 7  # the greatest with union:confederate at most 1:1.75
    assert union >= first.union and 7 * union > 4 * (first.confederate - 5)
    state = fold(state, [VictoryPointsAwarded(side="union", points=union - first.union, kind="test", subject="", case="")])
    assert (level(state).union, level(state).level) == (union, "Confederate Substantive Victory")
    victory = state.game.battle.victory
    assert victory.level_for({"union": union, "confederate": first.confederate}) == "Confederate Decisive Victory"
