"""First Bull Run (revised 003, 15.0-19.0) on a small set-up supplied to its template (a clear grid of
columns 01-12 x rows 01-13, a few units of each side): what the template gives is in force the moment
the set-up is supplied (scenarios/templates/first_bull_run)."""

import shutil

from rules.core.commands import MoveUnit
from rules.procedures.victory import end_points
from rules.reducer import execute, new_game
from scenarios import template
from scenarios.loader import TEMPLATES_DIR, load

GRID = "\n".join(f'"{c:02d}{r:02d}" = "clear"' for c in range(1, 13) for r in range(1, 14))


def unit(uid, side, h):
    return f'[[unit]]\nid = "{uid}"\nside = "{side}"\ntype = "infantry"\nstrength = 4\ndesignation = "{uid}"\nhex = "{h}"\n'


def completed(tmp_path):
    folder = shutil.copytree(TEMPLATES_DIR / "first_bull_run", tmp_path / "first_bull_run")
    (folder / template.SETUP).write_text(
        '[map]\nlower_columns = "even"\n[map.hexes]\n' + GRID + "\n"
        + '[[unit]]\nid = "us-runyon"\ntype = "infantry"\nstrength = 5\nhex = "1211"\n'
        + unit("us-a", "union", "1208") + unit("us-b", "union", "0812") + unit("cs-a", "confederate", "0402")
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
