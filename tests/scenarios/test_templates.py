"""Battle templates (scenarios/template.py, docs/SCENARIOS.md "Templates"): a template lists what it
still needs and is never playable; a setup.toml supplying the items makes a scenario that validates."""

import shutil
import subprocess
import sys

import pytest

from scenarios import loader, template
from scenarios.loader import ScenarioError, list_scenarios, list_templates, load
from scenarios.template import UNKNOWN

FIRST_BULL_RUN = loader.TEMPLATES_DIR / "first_bull_run"


def bluegray(*args):
    return subprocess.run([sys.executable, "-m", "api", "scenario", *map(str, args)], capture_output=True, text=True)


def small_map(columns=12, rows=13, areas="") -> str:
    """[map] of a setup: a clear grid, columns 01-12 x rows 01-13 (holds 1207 and 0813)."""
    lines = ["[map]", 'lower_columns = "even"', "[map.hexes]"]
    lines += [f'"{c:02d}{r:02d}" = "clear"' for c in range(1, columns + 1) for r in range(1, rows + 1)]
    return "\n".join(lines) + "\n" + areas


def unit(uid, side, h, strength=4, type="infantry"):
    return f'[[unit]]\nid = "{uid}"\nside = "{side}"\ntype = "{type}"\nstrength = {strength}\ndesignation = "{uid}"\nhex = "{h}"\n'


RUNYON = '[[unit]]\nid = "us-runyon"\ntype = "infantry"\nstrength = 5\nhex = "1210"\n'


def setup_text(extra=""):
    return (
        'provenance = "a test set-up, not the map sheet"\n'
        + small_map(areas='[map.areas]\nacross_bull_run = ["1210", "1211"]\n')
        + RUNYON
        + unit("us-a", "union", "0905")
        + unit("cs-a", "confederate", "0402")
        + extra
    )


def test_the_first_bull_run_template_lists_every_missing_item_with_its_reason():
    # First Bull Run 16.0, 16.1: "Players set up their units in the hexes noted on the map sheet"
    problems, missing = template.check(FIRST_BULL_RUN)
    assert problems == []
    what = [m.what for m in missing]
    assert what[:4] == ["map", "map area across_bull_run", "units union", "units confederate"]  # 17.2: Bull Run's far bank
    assert {"unit us-runyon hex", "unit us-runyon strength", "unit us-runyon type"} <= set(what)
    assert all(m.reason for m in missing)
    assert "1207 Groveton" in missing[0].reason and "0813 New Market" in missing[0].reason  # 18.0's hexes
    assert not (FIRST_BULL_RUN / template.SETUP).exists()  # a shipped template is never completed


def test_validate_on_a_template_says_so_lists_the_items_and_exits_0():
    done = bluegray("validate", "first_bull_run")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    _, missing = template.check(FIRST_BULL_RUN)
    assert lines[0] == f"template: {len(missing)} items to supply"
    assert lines[1:] == [f"  {m}" for m in missing]


def test_list_shows_templates_apart_with_their_count_and_never_as_playable():
    done = bluegray("list")
    assert done.returncode == 0, done.stderr
    playable, _, templates = done.stdout.partition("\n\ntemplates")
    assert "first_bull_run" not in playable
    assert "first_bull_run\tFirst Bull Run, July 21, 1861\t7 items to supply" in templates.splitlines()
    assert "first_bull_run" not in [sid for sid, _ in list_scenarios()]
    assert "first_bull_run" in [t[0] for t in list_templates()]


def test_a_template_does_not_load_and_says_what_is_missing():
    with pytest.raises(ScenarioError) as e:
        load("first_bull_run")
    locations = [p.location for p in e.value.problems]
    assert "template: map" in locations and "template: unit us-runyon hex" in locations


def test_complete_writes_a_playable_scenario_naming_the_template(tmp_path):
    # First Bull Run 16.1: the owner supplies the set-up the map sheet prints
    setup = tmp_path / "setup.toml"
    setup.write_text(setup_text())
    out = tmp_path / "fbr"
    done = bluegray("complete", "first_bull_run", "--with", setup, "-o", out)
    assert (done.returncode, done.stdout) == (0, "ok\n"), done.stdout + done.stderr
    assert bluegray("validate", out).stdout == "ok\n"
    scenario = load(out)
    assert (scenario.id, scenario.turns, scenario.first_player) == ("first_bull_run", 8, "union")
    runyon = next(u for u in scenario.units if u.id == "us-runyon")
    assert (runyon.side, runyon.type, runyon.strength, runyon.hex, runyon.designation) == ("union", "infantry", 5, "1210", "Runyon")
    assert {u.id for u in scenario.units} == {"us-runyon", "us-a", "cs-a"}
    assert scenario.provenance["template"] == f"completes the template first_bull_run (sha256 {template.template_hash(FIRST_BULL_RUN)})"
    assert scenario.provenance["setup"] == "a test set-up, not the map sheet"
    assert "template" not in scenario.exclusive


def test_complete_refuses_a_setup_that_leaves_items_missing_and_writes_nothing(tmp_path):
    setup = tmp_path / "setup.toml"
    setup.write_text(setup_text().replace('hex = "1210"\n', "", 1))  # Runyon's hex not supplied
    out = tmp_path / "fbr"
    done = bluegray("complete", "first_bull_run", "--with", setup, "-o", out)
    assert done.returncode == 1 and not out.exists()
    assert "unit us-runyon: still missing: hex (its asterisked set-up hex is printed on the map sheet (16.1))" in done.stdout


def test_a_setup_may_supply_only_what_is_missing(tmp_path):
    folder = shutil.copytree(FIRST_BULL_RUN, tmp_path / "fbr")
    # Runyon's side is the template's; a map lacking Groveton fails the victory block's reference
    text = setup_text().replace(RUNYON, RUNYON + 'side = "confederate"\n').replace('"1207" = "clear"\n', "")
    (folder / template.SETUP).write_text(text)
    with pytest.raises(ScenarioError) as e:
        load(folder)
    messages = [f"{p.location}: {p.message}" for p in e.value.problems]
    assert any("unit us-runyon: side is given by the template" in m for m in messages), messages
    assert any("1207 is not on the map" in m for m in messages), messages


def test_a_setup_may_not_add_units_to_an_order_of_battle_the_template_has(tmp_path):
    folder = shutil.copytree(FIRST_BULL_RUN, tmp_path / "fbr")
    path = folder / "scenario.toml"
    path.write_text(path.read_text().replace('item = "units.confederate"', 'item = "units.union"'))
    (folder / template.SETUP).write_text(setup_text())
    with pytest.raises(ScenarioError) as e:
        load(folder)
    assert any("confederate order of battle is not missing" in p.message for p in e.value.problems)


def test_a_setup_beside_the_template_completes_it_and_the_lobby_lists_it(tmp_path, monkeypatch):
    templates = tmp_path / "templates"
    folder = shutil.copytree(FIRST_BULL_RUN, templates / "first_bull_run")
    monkeypatch.setattr(loader, "TEMPLATES_DIR", templates)
    assert "first_bull_run" not in [sid for sid, _ in list_scenarios()]
    (folder / template.SETUP).write_text(setup_text())
    assert ("first_bull_run", "First Bull Run, July 21, 1861") in list_scenarios()
    assert [t for t in list_templates() if t[0] == "first_bull_run"] == []
    assert load("first_bull_run").units


def test_an_unknown_without_its_reason_is_a_problem(tmp_path):
    folder = shutil.copytree(FIRST_BULL_RUN, tmp_path / "fbr")
    path = folder / "oob.toml"
    path.write_text(path.read_text().replace('type = "17.2 says', 'kind = "17.2 says'))
    done = bluegray("validate", folder)
    assert done.returncode == 1
    assert 'unit us-runyon: type is "?" without a reason in unknown' in done.stdout
    assert "unit us-runyon: unknown names 'kind', which is not \"?\"" in done.stdout
    assert UNKNOWN == "?"
