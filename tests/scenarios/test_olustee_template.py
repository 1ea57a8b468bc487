"""The Olustee template (scenarios/templates/olustee, revised 003 15.0-22.0): the printed Confederate
chart, what it lists as still missing with each reason, and a small set-up supplied to it (a clear grid
of columns 10-41 x rows 02-21 holding every hex the text names, Olustee Station at 2510-2511, a few
regiments of each Union brigade, test strengths) played whole by the self-play players."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys

import pytest

from players.selfplay import PLAYERS, refereed_game
from rules.core.game import Game
from rules.reducer import new_game
from rules.rulesets import get as get_ruleset
from scenarios import template
from scenarios.loader import TEMPLATES_DIR, load

FOLDER = TEMPLATES_DIR / "olustee"
CHART = {  # 16.1 as printed: id -> (hex, strength, type, designation)
    "cs-6-ga": ("2012", 2, "infantry", "6 GA"), "cs-19-ga": ("2112", 2, "infantry", "19 GA"),
    "cs-23-ga": ("1310", 2, "infantry", "23 GA"), "cs-27-ga": ("1307", 2, "infantry", "27 GA"),
    "cs-28-ga": ("2112", 1, "infantry", "28 GA"), "cs-6-fl": ("1309", 2, "infantry", "6 FL"),
    "cs-chatham": ("1308", 1, "artillery", "Chatham"), "cs-32-fl": ("1511", 2, "infantry", "32 FL (Bonaud)"),
    "cs-64-ga": ("3109", 3, "infantry", "64 GA"), "cs-1-ga": ("1512", 2, "infantry", "1 GA"),
    "cs-1-fl": ("1415", 2, "infantry", "1 FL"), "cs-2-fl": ("1315", 2, "infantry", "2 FL"),
    "cs-guerard": ("1414", 1, "artillery", "Guerard"), "cs-4-ga-cav": ("3107", 3, "cavalry", "4 GA"),
    "cs-2-fl-cav": ("3108", 3, "cavalry", "2 FL"), "cs-5-fl-cav": ("1921", 1, "cavalry", "5 FL"),
    "cs-florida": ("1812", 1, "artillery", "Florida"),
}
ENTRY = [f"41{r:02d}" for r in range(2, 12)]


def bluegray(*args):
    return subprocess.run([sys.executable, "-m", "api", "scenario", *map(str, args)], capture_output=True, text=True)


def setup_text() -> str:
    """A test set-up (not the map sheet, not the counters): strengths are test values."""
    lines = ['provenance = "a test set-up on a clear grid, not the map sheet or the counters"', "[map]", 'lower_columns = "even"', "[map.hexes]"]
    lines += [f'"{c:02d}{r:02d}" = "clear"' for c in range(10, 42) for r in range(2, 22)]
    lines += ["[map.areas]", 'olustee_station = ["2510", "2511"]']
    out = "\n".join(lines) + "\n"
    for uid, strength in (("us-e-3-us", 2), ("us-m-1-us", 2), ("us-c-3-ri", 1), ("us-55-ma", 3)):
        out += f'[[unit]]\nid = "{uid}"\nstrength = {strength}\n' + ('type = "infantry"\n' if uid == "us-55-ma" else "")
    out += '[[unit]]\nid = "cs-rail-gun"\ntype = "artillery"\nstrength = 1\nentry = ["1011"]\n'
    entry = "[" + ", ".join(f'"{h}"' for h in ENTRY) + "]"
    for uid, turn in (("us-henry-7-ct", 1), ("us-henry-7-nh", 1), ("us-hawley-8-usct", 1), ("us-barton-47-ny", 2), ("us-barton-48-ny", 2), ("us-littlefield-2-sc", 3)):
        out += f'[[unit]]\nid = "{uid}"\nside = "union"\ntype = "infantry"\nstrength = 3\ndesignation = "{uid}"\narrives = {turn}\nentry = {entry}\n'
    return out


@pytest.fixture(scope="module")
def completed(tmp_path_factory):
    folder = shutil.copytree(FOLDER, tmp_path_factory.mktemp("ol") / "olustee")
    (folder / template.SETUP).write_text(setup_text())
    return load(folder)


def test_the_template_gives_the_printed_chart_and_lists_the_rest_16_1_17_1():
    problems, missing = template.check(FOLDER)
    assert problems == []
    what = {m.what for m in missing}
    # 17.1: the brigades without their regiments or strengths; 20.0: Olustee Station's hexes not given
    assert {"map", "units union", "map area olustee_station", "unit us-55-ma strength", "unit cs-rail-gun entry"} <= what
    assert not any(w.startswith("unit cs-") and "rail-gun" not in w for w in what)  # 16.1 is whole
    assert all(m.reason for m in missing)
    done = bluegray("validate", "olustee")
    assert done.returncode == 0 and done.stdout.splitlines()[0] == f"template: {len(missing)} items to supply"


def test_a_supplied_set_up_makes_the_battle_the_text_describes_16_1_16_2_16_3_17_0(completed):
    # 16.2: the Union Player is the first Player; 16.3: ten Game-Turns
    assert (completed.turns, completed.first_player, completed.rulesets) == (10, "union", ["revised"])
    units = {u.id: u for u in completed.units}
    assert {u: (units[u].hex, units[u].strength, units[u].type, units[u].designation) for u in CHART} == CHART  # 16.0 types
    # 17.0: "Union units enter the game between hexes 4102 and 4111 inclusive"; 17.1's Game-Turns
    assert {(units[u].arrives, tuple(units[u].entry)) for u in ("us-e-3-us", "us-m-1-us", "us-c-3-ri", "us-55-ma")} == {
        (1, tuple(ENTRY)), (2, tuple(ENTRY)), (3, tuple(ENTRY)), (6, tuple(ENTRY))}
    assert units["cs-rail-gun"].arrives == 5  # 19.2: "On Game-Turn Five"


@pytest.mark.parametrize("players", ["random", "greedy"])
def test_twenty_self_played_games_finish_with_a_victory_level_18_1_20_0(completed, players):
    # 10 games a player (20 in all), 64 GA held (18.1), the immediate victories and the losses (20.0)
    start = new_game(Game(completed, get_ruleset("revised")))
    for seed in range(10):
        final, _log, _referee = refereed_game(start, random.Random(seed), PLAYERS[players])
        assert final.game_over
        assert final.result in {"Union Decisive Victory", "Confederate Decisive Victory", "Union Marginal Victory", "Confederate Marginal Victory", "Draw"}
