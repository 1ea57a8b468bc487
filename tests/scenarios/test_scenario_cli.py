"""`bluegray scenario list|validate|show|render`, run as a user runs them (`python -m api ...`)."""

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

from scenarios.loader import SCENARIOS_DIR


def bluegray(*args):
    return subprocess.run([sys.executable, "-m", "api", "scenario", *map(str, args)], capture_output=True, text=True)


def test_list_prints_ids_and_names():
    done = bluegray("list")
    assert done.returncode == 0, done.stderr
    assert "chattanooga\tChattanooga: Gateway to Victory, Nov. 24-25, 1863" in done.stdout.splitlines()


def copy_of_chattanooga(tmp_path):
    return shutil.copytree(SCENARIOS_DIR / "chattanooga", tmp_path / "chattanooga")


def test_validate_ok_by_id_and_by_path(tmp_path):
    done = bluegray("validate", "chattanooga")
    assert (done.returncode, done.stdout) == (0, "ok\n")
    folder = copy_of_chattanooga(tmp_path)
    assert bluegray("validate", folder).stdout == "ok\n"
    assert bluegray("validate", folder / "map.toml").stdout == "ok\n"


def test_validate_prints_every_problem_and_fails(tmp_path):
    folder = copy_of_chattanooga(tmp_path)
    path = folder / "map.toml"
    text = path.read_text().replace('"1116" = "river"', '"1116" = "volcano"')
    text = text.replace('"1304|1305" = { features = ["ferry_crossing"] }', '"1304|1306" = { features = ["ferry_crossing"] }')
    path.write_text(text)
    done = bluegray("validate", folder)
    assert done.returncode == 1
    lines = text.splitlines()
    swamp = next(i for i, t in enumerate(lines, 1) if "volcano" in t)
    pair = next(i for i, t in enumerate(lines, 1) if t.startswith('"1304|1306"'))
    assert done.stdout.splitlines()[:2] == [
        f"{path}:{swamp}: hex 1116: unknown terrain 'volcano' (known: clear, ferry, forest, forest_rough, lake, pond, pontoon, river, rough, swamp, town)",
        f"{path}:{pair}: hexside 1304|1306: 1304 and 1306 are not adjacent (with even columns lower): a hexside lies between two neighbouring hexes",
    ]
    assert "problems" in done.stderr


def test_show_json_has_the_contract_keys():
    done = bluegray("show", "chattanooga", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["turns"], data["night_turns"], data["first_player"]) == (10, [5], "union")
    assert data["map"]["hexes"]["1025"] == {"terrain": data["map"]["hexes"]["1025"]["terrain"]}
    assert data["map"]["hexes"]["1305"] == {"terrain": "ferry"}
    assert data["map"]["hexsides"]["1304|1305"] == {"features": ["ferry_crossing"], "barbed": None}
    units = {u["id"]: u for u in data["units"]}
    assert len(units) == 77
    corput = units["cs-corput-art"]
    assert {k: corput[k] for k in ("side", "type", "strength", "designation", "hex", "arrives")} == {
        "side": "confederate", "type": "artillery", "strength": 1, "designation": "Corput", "hex": "1025", "arrives": None,
    }
    late = units["us-1-2-xii"]
    assert (late["hex"], late["arrives"], late["entry"]) == (None, 2, ["0427", "0528", "0627", "0728"])
    assert {u["side"] for u in data["units"]} == {"union", "confederate"}
    assert {u["type"] for u in data["units"]} == {"infantry", "cavalry", "artillery"}


def test_show_text_is_a_readable_summary():
    done = bluegray("show", "chattanooga")
    assert done.returncode == 0, done.stderr
    assert "10 Game-Turns" in done.stdout and "night: 5" in done.stdout
    assert "Union: 38 units on the map, 3 reinforcements" in done.stdout
    assert "Confederate: 36 units on the map" in done.stdout
    assert "1025  1a  Corput" in done.stdout


def test_render_writes_svg_to_stdout_and_to_a_file(tmp_path):
    done = bluegray("render", "chattanooga")
    assert done.returncode == 0, done.stderr
    root = ET.fromstring(done.stdout)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    out = tmp_path / "map.svg"
    assert bluegray("render", "chattanooga", "--output", out).returncode == 0
    assert out.read_text() == done.stdout


def test_commands_fail_on_an_unknown_scenario():
    done = bluegray("validate", "no-such-battle")  # validate's answer is its list of problems, on stdout
    assert done.returncode == 1
    assert "no such scenario or folder" in done.stdout
    for action in ("show", "render"):  # their stdout is the description or the SVG: the error goes to stderr
        done = bluegray(action, "no-such-battle")
        assert done.returncode == 1
        assert done.stdout == "" and "no such scenario or folder" in done.stderr
