"""The Savage's Station template (scenarios/templates/savages_station, revised 003 15.0-20.0): what the
text gives, what it lists as still missing with each reason, and a small set-up supplied to it (a clear
grid of columns 17-48 x rows 11-36 holding every hex the text names, the charted units with test
strengths, two Confederate reinforcement groups' units) played whole by the self-play players."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys

import pytest

from players.selfplay import PLAYERS, refereed_game
from rules.core.events import ReinforcementTableRolled
from rules.core.game import Game
from rules.reducer import new_game
from rules.rulesets import get as get_ruleset
from scenarios import template
from scenarios.loader import TEMPLATES_DIR, load

FOLDER = TEMPLATES_DIR / "savages_station"
UNION = {  # 16.1 as printed: hex, designation
    "us-mcvicar": ("2420", "McVicar"), "us-ii-reserve": ("2518", "II Reserve"), "us-hazard": ("2518", "Hazard"),
    "us-caldwell": ("2716", "Caldwell"), "us-french": ("2716", "French"), "us-meagher": ("2616", "Meagher"),
    "us-sully": ("2421", "Sully"), "us-tompkins": ("2622", "Tompkins"), "us-dana": ("2419", "Dana"),
    "us-burns": ("2520", "Burns"), "us-hancock": ("2721", "Hancock"), "us-brooks": ("2422", "Brooks"),
    "us-davidson": ("2723", "Davidson"),
}
CONFEDERATE = {  # 16.2 as printed (S.D. Lee's "2188" is an OCR error: "?")
    "cs-kershaw": ("2117", "Kershaw"), "cs-semmes": ("2120", "Semmes"), "cs-griffith": ("2122", "Griffith"),
    "cs-sd-lee": ("?", "S.D. Lee"), "cs-cobb": ("2115", "Cobb"), "cs-toombs": ("2113", "Toombs"),
}


def bluegray(*args):
    return subprocess.run([sys.executable, "-m", "api", "scenario", *map(str, args)], capture_output=True, text=True)


def setup_text() -> str:
    """A test set-up (not the map sheet): the strengths and types are test values."""
    lines = ['provenance = "a test set-up on a clear grid, not the map sheet or the counters"', "[map]", 'lower_columns = "even"', "[map.hexes]"]
    lines += [f'"{c:02d}{r:02d}" = "clear"' for c in range(17, 49) for r in range(11, 37)]
    lines += ["[map.areas]", 'entry_a = ["1715", "1716", "1717"]', 'entry_b = ["2011", "2111"]', 'entry_c = ["2036", "2136"]']
    out = "\n".join(lines) + "\n"
    for uid in [*UNION, *CONFEDERATE]:
        out += f'[[unit]]\nid = "{uid}"\nstrength = 3\n' + ("" if uid == "us-ii-reserve" else 'type = "infantry"\n')
        if uid == "cs-sd-lee":
            out += 'hex = "2118"\n'
    for uid, group in (("cs-a-1", "A"), ("cs-a-2", "A"), ("cs-b-1", "B"), ("cs-c-1", "C"), ("cs-d-1", "D")):
        out += f'[[unit]]\nid = "{uid}"\nside = "confederate"\ntype = "infantry"\nstrength = 4\ndesignation = "{uid}"\ngroup = "{group}"\n'
    return out


@pytest.fixture(scope="module")
def completed(tmp_path_factory):
    folder = shutil.copytree(FOLDER, tmp_path_factory.mktemp("ss") / "savages_station")
    (folder / template.SETUP).write_text(setup_text())
    return load(folder)


def test_the_template_gives_what_the_text_gives_16_0_16_2_16_3():
    problems, missing = template.check(FOLDER)
    assert problems == []
    what = {m.what for m in missing}
    # 16.1, 16.2: hexes and designations kept, the Strength/Type column lost by the OCR
    assert {f"unit {u} strength" for u in [*UNION, *CONFEDERATE]} <= what
    assert "unit us-ii-reserve type" not in what  # its "a" survives
    assert "unit cs-sd-lee hex" in what  # "2188"
    # 17.2: groups A-D and entry points a-c are never defined
    assert {"units confederate", "map area entry_a", "map area entry_b", "map area entry_c", "map"} <= what
    assert all(m.reason for m in missing)
    done = bluegray("validate", "savages_station")
    assert done.returncode == 0 and done.stdout.splitlines()[0] == f"template: {len(missing)} items to supply"


def test_a_supplied_set_up_makes_the_battle_the_text_describes_16_1_16_2_16_3(completed):
    # 16.2: the Confederate Player is the First Player; 16.3: six Game-Turns, 16:00 to 21:00
    assert (completed.turns, completed.first_player, completed.night_turns, completed.rulesets) == (6, "confederate", [], ["revised"])
    units = {u.id: u for u in completed.units}
    assert {u: (units[u].hex, units[u].designation) for u in UNION} == UNION
    assert {u: (units[u].hex, units[u].designation) for u in CONFEDERATE if u != "cs-sd-lee"} == {
        u: v for u, v in CONFEDERATE.items() if u != "cs-sd-lee"
    }
    assert units["us-ii-reserve"].type == "artillery"  # 16.0: "a" denotes artillery
    assert {u.group for u in completed.units if u.group} == {"A", "B", "C", "D"}  # 17.2's groups, supplied
    state = new_game(Game(completed, get_ruleset("revised")))
    assert state.control["2516"] == "union"  # 19.13: initially occupied by the Union Player


@pytest.mark.parametrize("players", ["random", "greedy"])
def test_twenty_self_played_games_finish_with_a_victory_level_17_1_18_1_19_0(completed, players):
    # 10 games a player (20 in all): the Reinforcement Table (17.1), the Command Table (18.1) and the
    # Victory Point Schedule (19.1) in play; the referee recounts the points from each log
    start = new_game(Game(completed, get_ruleset("revised")))
    levels = []
    for seed in range(10):
        final, log, _referee = refereed_game(start, random.Random(seed), PLAYERS[players])
        assert final.game_over and final.turn == 6
        assert sum(isinstance(e, ReinforcementTableRolled) for e in log) == 6  # once each Game-Turn
        levels.append(final.result)
    assert set(levels) <= {"Union Victory", "Confederate Victory", "Draw"}  # 19.0: the higher total wins
