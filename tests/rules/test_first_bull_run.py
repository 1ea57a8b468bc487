"""First Bull Run (revised 003, 15.0-19.0) on a small set-up supplied to its template (a clear grid of
columns 01-12 x rows 01-13, "across Bull Run" columns 09-12, a few units of each side): what the template
gives is in force the moment the set-up is supplied (scenarios/templates/first_bull_run). The
components' own cases: tests/rules/test_first_bull_run_exclusive.py."""

import random
import shutil

from rules.core.commands import MoveUnit
from rules.procedures.victory import end_points
from rules.reducer import execute, new_game
from scenarios import template
from scenarios.loader import TEMPLATES_DIR, load

GRID = "\n".join(f'"{c:02d}{r:02d}" = "clear"' for c in range(1, 13) for r in range(1, 14))
ACROSS = ", ".join(f'"{c:02d}{r:02d}"' for c in range(9, 13) for r in range(1, 14))


def unit(uid, side, h):
    return f'[[unit]]\nid = "{uid}"\nside = "{side}"\ntype = "infantry"\nstrength = 4\ndesignation = "{uid}"\nhex = "{h}"\n'


def completed(tmp_path):
    folder = shutil.copytree(TEMPLATES_DIR / "first_bull_run", tmp_path / "first_bull_run")
    (folder / template.SETUP).write_text(
        '[map]\nlower_columns = "even"\n[map.hexes]\n' + GRID + "\n"
        + "[map.areas]\nacross_bull_run = [" + ACROSS + "]\n"
        + '[[unit]]\nid = "us-runyon"\ntype = "infantry"\nstrength = 5\nhex = "1211"\n'
        + unit("us-a", "union", "1208") + unit("us-b", "union", "0812") + unit("us-c", "union", "1209")
        + unit("cs-a", "confederate", "0402") + unit("cs-b", "confederate", "0505") + unit("cs-c", "confederate", "0307")
    )
    return load(folder)


def test_the_sequence_the_text_gives_16_2_16_3(tmp_path):
    scenario = completed(tmp_path)
    # 16.2: the Union Player is the first Player; 16.3: eight Game-Turns; no night Game-Turn named
    assert (scenario.first_player, scenario.turns, scenario.night_turns, scenario.rulesets) == ("union", 8, [], ["revised"])
    state = new_game(scenario, "revised")
    assert (state.turn, state.phasing) == (1, "union")


def test_the_side_that_last_passed_through_groveton_and_new_market_wins_a_marginal_victory_18_0(tmp_path):
    state = new_game(completed(tmp_path), "revised")
    victory = state.game.battle.victory
    # 18.0: "Any other result is a Draw": nobody has been in 1207 or 0813
    assert [a for a in end_points(state) if a.kind == "control_of_all"] == []
    assert victory.level_of(0) == "Draw"
    state, _ = execute(state, MoveUnit("us-a", ("1208", "1207")))  # Groveton
    assert [a for a in end_points(state) if a.kind == "control_of_all"] == []  # one of the two only: nothing
    state, _ = execute(state, MoveUnit("us-b", ("0812", "0813", "0913")))  # passes through New Market
    assert (state.control["1207"], state.control["0813"]) == ("union", "union")
    assert [(a.side, a.points) for a in end_points(state) if a.kind == "control_of_all"] == [("union", 1)]
    assert (victory.level_of(1), victory.level_of(-1)) == ("Union Marginal Victory", "Confederate Marginal Victory")


def test_the_exclusive_rules_are_in_force_on_the_supplied_set_up_17_1_17_2_18_0(tmp_path):
    from rules.core.commands import EndPhase
    from rules.core.errors import RuleViolation
    from rules.core.events import ArmyRoutChecked

    state = new_game(completed(tmp_path), "revised")
    for command, case in ((MoveUnit("us-runyon", ("1211", "1210")), "17.2"), (MoveUnit("us-c", ("1209", "1210", "1211")), "17.2")):
        try:
            execute(state, command)
        except RuleViolation as e:
            assert e.case == case  # 17.2: Runyon held until a crossing; no unit ends in his hex
        else:
            raise AssertionError(f"{command} was accepted")
    for _ in range(2):
        state, _ = execute(state, EndPhase(), lambda: 1)
    assert (state.phasing, state.phase) == ("confederate", "movement")
    try:
        execute(state, MoveUnit("cs-a", ("0402", "0403")))
    except RuleViolation as e:
        assert e.case == "17.1"  # no Confederate unit moves on Game-Turn One, none having been attacked
    else:
        raise AssertionError("a Confederate unit moved on Game-Turn One")
    state, _ = execute(state, EndPhase(), lambda: 1)
    state, events = execute(state, EndPhase(), lambda: 1)  # the end of Game-Turn One: 18.0
    assert [(e.side, e.roll, e.total, e.routed) for e in events if isinstance(e, ArmyRoutChecked)] == [("union", 1, 1, False), ("confederate", 1, 1, False)]


def test_twenty_self_played_games_finish_with_a_level_of_victory(tmp_path):
    from players.selfplay import refereed_game

    scenario = completed(tmp_path)
    levels = {"Union Marginal Victory", "Confederate Marginal Victory", "Draw", "Union Decisive Victory", "Confederate Decisive Victory"}
    results = []
    for seed in range(20):
        final, _log, _ = refereed_game(new_game(scenario, "revised"), random.Random(seed))
        assert final.game_over
        results.append(final.result)
    assert set(results) <= levels, results
