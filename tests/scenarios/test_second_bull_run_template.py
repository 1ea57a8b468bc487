"""Second Bull Run as a template (revised 003, 16.0, 16.1, 17.2, 18.0, 19.0): what it lists as still
missing, `bluegray scenario validate second_bull_run` (its list, exit 0) and `bluegray scenario list`."""

import subprocess
import sys

from scenarios import loader, template
from scenarios.loader import list_scenarios, list_templates

SECOND_BULL_RUN = loader.TEMPLATES_DIR / "second_bull_run"


def bluegray(*args):
    return subprocess.run([sys.executable, "-m", "api", "scenario", *args], capture_output=True, text=True, check=False)


def test_the_second_bull_run_template_lists_every_missing_item_with_its_reason():
    # 16.0, 16.1: "Players set up their units in the hexes noted on the map sheet ... not marked with an asterisk"
    problems, missing = template.check(SECOND_BULL_RUN)
    assert problems == []
    what = [m.what for m in missing]
    assert what[:5] == ["map", "map area four_westernmost_rows", "map area east_edge", "units union", "units confederate"]  # 18.0, 19.0
    assert "0116" in missing[0].reason and "1827" in missing[0].reason and "2009" in missing[0].reason and "1207" in missing[0].reason
    # 17.2: "any hex on the western edge of the map": each Confederate reinforcement's entry
    entries = [w for w in what if w.endswith(" entry")]
    assert len(entries) == 22 and all(w.startswith("unit cs-") for w in entries)
    assert len(missing) == 27 and all(m.reason for m in missing)
    assert not (SECOND_BULL_RUN / template.SETUP).exists()


def test_validate_prints_the_list_and_exits_0_and_list_shows_it_apart():
    done = bluegray("validate", "second_bull_run")
    assert done.returncode == 0, done.stdout + done.stderr
    _, missing = template.check(SECOND_BULL_RUN)
    assert done.stdout.splitlines() == [f"template: {len(missing)} items to supply", *[f"  {m}" for m in missing]]
    listed = bluegray("list")
    playable, _, templates = listed.stdout.partition("\n\ntemplates")
    assert "second_bull_run" not in playable
    assert "second_bull_run\tSecond Bull Run, August 29-30, 1862\t27 items to supply" in templates.splitlines()
    assert "second_bull_run" not in [sid for sid, _ in list_scenarios()]
    assert "second_bull_run" in [t[0] for t in list_templates()]
