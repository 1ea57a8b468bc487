"""Second Bull Run (revised 003, 15.0-22.0) on a small set-up supplied to its template: a clear grid of
columns 01-20 x rows 01-27 (the fewest that hold the hexes the text names: 0116, 1827, 2009, 1207), the
sheet turned so that row 01 is the west edge (the four westernmost hex rows are rows 01-04) and row 27
the east edge, a road down column 10 leading off it at 1027, three units of each side on the map, and
the Confederate reinforcements entering at 0501, 1001 and 1501. What the template gives (the chart of
17.1-17.3, 18.0, 19.0, 19.1) is in force the moment the set-up is supplied
(scenarios/templates/second_bull_run); the components' own cases: tests/rules/test_second_bull_run_exclusive.py."""

import random
import shutil

from rules.core.commands import EnterReinforcement, MoveUnit
from rules.core.errors import RuleViolation
from rules.reducer import execute, new_game
from scenarios import template
from scenarios.loader import TEMPLATES_DIR, load

GRID = "\n".join(f'"{c:02d}{r:02d}" = "clear"' for c in range(1, 21) for r in range(1, 28))
WEST = ", ".join(f'"{c:02d}{r:02d}"' for c in range(1, 21) for r in range(1, 5))
EAST = ", ".join(f'"{c:02d}27"' for c in range(1, 21))
ROAD = ", ".join(f'"10{r:02d}"' for r in range(14, 28))
LEVELS = {
    "Confederate Decisive Victory", "Confederate Substantive Victory", "Confederate Marginal Victory",
    "Union Marginal Victory", "Union Substantive Victory", "Union Decisive Victory",
}


def unit(uid, side, h):
    return f'[[unit]]\nid = "{uid}"\nside = "{side}"\ntype = "infantry"\nstrength = 4\ndesignation = "{uid}"\nhex = "{h}"\n'


def completed(tmp_path):
    folder = shutil.copytree(TEMPLATES_DIR / "second_bull_run", tmp_path / "second_bull_run")
    oob = (folder / "oob.toml").read_text()
    rebels = [line.split('"')[1] for line in oob.splitlines() if line.startswith('id = "cs-')]
    entries = "".join(f'[[unit]]\nid = "{u}"\nentry = ["0501", "1001", "1501"]\n' for u in rebels)
    (folder / template.SETUP).write_text(
        'provenance = "a small test set-up, not the map sheet"\n'
        '[map]\nlower_columns = "even"\n[map.hexes]\n' + GRID + "\n"
        + "[[map.road]]\nhexes = [" + ROAD + "]\n"
        + "[map.areas]\nfour_westernmost_rows = [" + WEST + "]\neast_edge = [" + EAST + "]\n"
        + unit("us-s1", "union", "1215") + unit("us-s2", "union", "1415") + unit("us-s3", "union", "0906")
        + unit("cs-s1", "confederate", "1206") + unit("cs-s2", "confederate", "1406") + unit("cs-s3", "confederate", "0808")
        + entries
    )
    return load(folder)


def test_the_sequence_and_the_chart_the_text_gives_16_2_16_3_17_0(tmp_path):
    scenario = completed(tmp_path)
    # 16.2: the Union Player first; 16.3: fifteen Game-Turns; 17.1: "Game-Turn Nine (Night)"
    assert (scenario.first_player, scenario.turns, scenario.night_turns, scenario.rulesets) == ("union", 15, [9], ["revised"])
    chart = [u for u in scenario.units if u.arrives is not None]
    union = [u for u in chart if u.side == "union"]
    rebels = [u for u in chart if u.side == "confederate"]
    # 17.1, 17.3: 29 Union units (the II Corps and the Kanawha Division on a die roll); 17.2: 22 Confederate
    assert (len(union), len(rebels)) == (29, 22)
    by_turn = {}
    for u in union:
        by_turn.setdefault((u.arrives, tuple(u.entry)), []).append(u)
    assert {k: len(v) for k, v in by_turn.items()} == {(1, ("0116",)): 1, (3, ("0116",)): 20, (9, ("1827",)): 1, (10, ("0116",)): 6, (12, ("1827",)): 1}
    assert sum(u.strength for u in union) == 2 + 67 + 4 + 18 + 3  # Buford; Game-Turn Three; Piatt; II Corps; Scammon
    assert {u.arrives for u in rebels} == {4}  # 17.2; 21.0: "Confederate Reinforcements arrive on Game-Turn Four"
    assert sum(u.strength for u in rebels) == 60 + 16  # 15 infantry; cavalry and artillery
    # 17.0: "c" cavalry, "a" artillery; the second figure the Movement Allowance (revised 2.4 defaults aside)
    kinds = {u.designation: (u.type, u.strength, u.movement_allowance) for u in chart}
    assert kinds["Buford"] == ("cavalry", 2, None) and kinds["Robertson"] == ("cavalry", 2, 10) and kinds["Pelham"] == ("artillery", 1, 8)
    assert kinds["Gibbon"] == ("infantry", 6, None) and kinds["A.N.V."] == ("artillery", 3, None)


def test_the_exclusive_rules_are_in_force_on_the_supplied_set_up_18_0_17_3(tmp_path):
    state = new_game(completed(tmp_path), "revised")
    for command, case in (
        (MoveUnit("us-s3", ("0906", "0905", "0904")), "18.0"),  # row 04: one of the four westernmost rows
        (EnterReinforcement("us-crawford", ("0116",)), "17.3"),  # the II Corps: a roll of 6 from Game-Turn Ten
    ):
        try:
            execute(state, command)
        except RuleViolation as e:
            assert e.case == case
        else:
            raise AssertionError(f"{command} was accepted")
    state, _ = execute(state, MoveUnit("us-s3", ("0906", "0905")))  # the fifth row is open
    state, _ = execute(state, EnterReinforcement("us-buford", ("0116", "0216")))  # 17.1: Game-Turn One, 0116
    assert (state.positions["us-s3"], state.positions["us-buford"]) == ("0905", "0216")


def test_twenty_self_played_games_finish_with_a_level_of_victory(tmp_path):
    from players.selfplay import refereed_game

    scenario = completed(tmp_path)
    results = []
    for seed in range(20):
        final, _log, _ = refereed_game(new_game(scenario, "revised"), random.Random(seed))
        assert final.game_over
        results.append(final.result)
    assert set(results) <= LEVELS, results
