"""Loading a scenario once per process for each content of its files (scenarios/loader.py)."""

import shutil

import pytest

from scenarios.loader import ScenarioError, folder_of, load


def test_a_scenario_is_built_once_for_each_content_of_its_files(tmp_path):
    folder = tmp_path / "battle"
    shutil.copytree(folder_of("chattanooga"), folder)
    first = load(folder)
    assert load(folder) is first  # the same files: the scenario built before
    scenario_toml = folder / "scenario.toml"
    text = scenario_toml.read_text(encoding="utf-8")
    scenario_toml.write_text(text.replace("turns = 10", "turns = 9", 1), encoding="utf-8")
    changed = load(folder)
    assert changed is not first and changed.turns == 9  # new content: read, validated and built again
    scenario_toml.write_text(text.replace("turns = 10", "turns = 0", 1), encoding="utf-8")
    with pytest.raises(ScenarioError):
        load(folder)  # a scenario that does not validate is refused every time, never kept
    with pytest.raises(ScenarioError):
        load(folder)
