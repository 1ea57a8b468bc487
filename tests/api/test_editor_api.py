"""The editor's endpoints (api/editor.py): the server's own validator on a document, each problem with
the hexes it concerns; saving only on a server started to allow uploads, within its limits; saved
scenarios in the lobby's list and playable; names escaped where a page shows them."""

from __future__ import annotations

import dataclasses
import json

import pytest
from aiohttp.test_utils import TestClient, TestServer
from apiharness import SEED_HEX

from api.app import library_games, make_app
from scenarios import document
from scenarios.library import Library
from scenarios.library import export as export_scenario

HOSTILE = "<script>alert(1)</script>"


def small(name: str = "small") -> dict:
    hexes = {f"{c:02d}{r:02d}": "clear" for c in range(1, 7) for r in range(1, 7)}
    hexes["0303"] = "river"
    return {
        "format": document.FORMAT, "name": name,
        "scenario": {"id": name, "name": f"Small {HOSTILE}", "rulesets": ["classic"], "turns": 3, "first_player": "union"},
        "map": {"lower_columns": "even", "hexes": hexes},
        "oob": {"unit": [
            {"id": "u1", "side": "union", "type": "infantry", "strength": 4, "designation": HOSTILE, "hex": "0102"},
            {"id": "c1", "side": "confederate", "type": "infantry", "strength": 4, "designation": "A", "hex": "0505"},
        ]},
    }


@pytest.fixture
async def editor(config, tmp_path):
    """A server that allows uploads, its scenarios in tmp_path/scenarios."""
    library = Library(tmp_path / "scenarios", max_saved=3)
    changed = dataclasses.replace(config, scenarios_dir=tmp_path / "scenarios", allow_uploads=True, max_saved_scenarios=3)
    async with TestClient(TestServer(make_app(changed, games=library_games(library)))) as client:
        yield client


async def test_check_names_each_problem_with_its_hexes(client):
    ok = await (await client.post("/api/scenarios/check", json=small())).json()
    assert ok["ok"] and len(ok["hash"]) == 64 and ok["problems"] == []
    data = small()
    data["map"]["hexes"]["0204"] = "lava"
    data["oob"]["unit"][0]["hex"] = "0303"
    found = await (await client.post("/api/scenarios/check", json=data)).json()
    assert not found["ok"]
    by_location = {p["location"]: p for p in found["problems"]}
    assert by_location["hex 0204"]["hexes"] == ["0204"] and "unknown terrain 'lava'" in by_location["hex 0204"]["message"]
    assert by_location["unit u1"]["hexes"] == ["0303"] and "river hex" in by_location["unit u1"]["message"]


async def test_check_refuses_a_malformed_or_oversized_document(client):
    response = await client.post("/api/scenarios/check", data=b'{"format": 1}')
    assert response.status == 400 and (await response.json())["error"]["code"] == "malformed"
    response = await client.post("/api/scenarios/check", data=b" " * (document.MAX_BYTES + 10))
    assert response.status == 413 and (await response.json())["error"]["code"] == "too_large"


async def test_a_server_not_started_to_allow_uploads_saves_nothing(client):
    response = await client.post("/api/scenarios", json=small())
    assert response.status == 403 and "--allow-uploads" in (await response.json())["error"]["message"]


async def test_save_list_play_and_download(editor):
    response = await editor.post("/api/scenarios", json=small())
    assert response.status == 201, await response.text()
    saved = await response.json()
    assert saved["name"] == "small" and saved["ref"] == f"small@{saved['hash']}"
    listed = {s["id"]: s for s in await (await editor.get("/api/scenarios")).json()}
    assert listed["small"]["saved"] and listed["small"]["name"] == f"Small {HOSTILE}"
    assert "chattanooga" in listed and not listed["chattanooga"].get("saved")
    body = {"scenario": "small", "side": "union", "options": {"dice": "insecure", "seed": SEED_HEX}}
    created = await editor.post("/api/games", json=body)
    assert created.status == 201, await created.text()
    game = await created.json()
    view = await (await editor.get(f"/api/games/{game['game_id']}")).json()
    assert view["version"] == 2
    page = await (await editor.get(f"/games/{game['game_id']}/report")).text()
    assert HOSTILE not in page and "&lt;script&gt;" in page
    downloaded = await editor.get("/api/scenarios/small/document")
    assert downloaded.status == 200
    assert document.decode(await downloaded.read()).scenario["name"] == f"Small {HOSTILE}"
    shipped = document.decode(await (await editor.get("/api/scenarios/chattanooga/document")).read())
    assert shipped == export_scenario("chattanooga")
    for bad in ("..%2F..%2Fetc", "nope", "first_bull_run"):
        assert (await editor.get(f"/api/scenarios/{bad}/document")).status == 404


async def test_save_refuses_problems_bad_names_and_past_the_count(editor):
    data = small()
    data["map"]["hexes"]["0204"] = "lava"
    response = await editor.post("/api/scenarios", json=data)
    assert response.status == 422
    assert [p["hexes"] for p in (await response.json())["problems"]] == [["0204"]]
    response = await editor.post("/api/scenarios", json=small("../../etc/passwd"))
    assert response.status == 400 and "never a path" in (await response.json())["error"]["message"]
    for n in range(3):
        assert (await editor.post("/api/scenarios", json=small(f"s{n}"))).status == 201
    response = await editor.post("/api/scenarios", json=small("s4"))
    assert response.status == 507 and "at most 3" in (await response.json())["error"]["message"]


async def test_an_edit_of_a_shipped_battle_is_saved_as_a_variant(editor):
    edited = json.loads(document.encode(export_scenario("chattanooga")))
    edited["map"]["hexes"]["1010"] = "clear" if edited["map"]["hexes"]["1010"] != "clear" else "forest"
    saved = await (await editor.post("/api/scenarios", json=edited)).json()
    assert saved["variant"] and saved["derived_from"] == "chattanooga" and saved["name"] != "chattanooga"
    shipped = document.decode(await (await editor.get("/api/scenarios/chattanooga/document")).read())
    assert shipped.map.hexes["1010"] != edited["map"]["hexes"]["1010"]


async def test_the_templates_are_offered_to_the_editor_with_what_each_needs(client):
    listed = {t["id"]: t for t in await (await client.get("/api/templates")).json()}
    assert "first_bull_run" in listed
    assert {m["what"] for m in listed["first_bull_run"]["missing"]} >= {"map", "units union", "units confederate"}
    one = await (await client.get("/api/templates/first_bull_run")).json()
    assert one["map"] is None and "template" not in one["scenario"]  # 16.1: the map sheet is missing
    assert one["hexes"]["1207"].startswith("Groveton")
    runyon = next(u for u in one["units"] if u["id"] == "us-runyon")
    assert runyon["hex"] == "?" and runyon["unknown"]["hex"]
    assert (await client.get("/api/templates/chattanooga")).status == 404
    assert (await client.get("/api/templates/..%2Fchattanooga")).status == 404


def small_toml() -> bytes:
    """`small()` written as TOML (as a scenario file may be, docs/SCENARIOS.md "One file")."""
    terrain = {(c, r): "river" if (c, r) == (3, 3) else "clear" for c in range(1, 7) for r in range(1, 7)}
    hexes = "\n".join(f'"{c:02d}{r:02d}" = "{kind}"' for (c, r), kind in terrain.items())
    return f"""format = "{document.FORMAT}"
name = "small"

[scenario]
id = "small"
name = "Small"
rulesets = ["classic"]
turns = 3
first_player = "union"

[map]
lower_columns = "even"

[map.hexes]
{hexes}

[[oob.unit]]
id = "u1"
side = "union"
type = "infantry"
strength = 4
designation = "A"
hex = "0102"

[[oob.unit]]
id = "c1"
side = "confederate"
type = "infantry"
strength = 4
designation = "B"
hex = "0505"
""".encode()


async def test_a_toml_document_is_read_by_its_content_type_or_its_first_character(editor):
    for headers in ({"Content-Type": "application/toml"}, {}, {"Content-Type": "text/plain"}):
        response = await editor.post("/api/scenarios/check?echo=1", data=small_toml(), headers=headers)
        assert response.status == 200, (headers, await response.text())
        found = await response.json()
        assert found["ok"] and found["document"]["scenario"]["turns"] == 3, found
    toml, as_json = {"Content-Type": "application/toml"}, {"Content-Type": "application/json"}
    saved = await editor.post("/api/scenarios", data=small_toml(), headers=toml)
    assert saved.status == 201, await saved.text()
    # the same file said to be JSON is refused as JSON; a broken TOML file as TOML, naming where
    response = await editor.post("/api/scenarios/check", data=small_toml(), headers=as_json)
    error = (await response.json())["error"]
    assert response.status == 400 and error["code"] == "malformed" and "not valid JSON" in error["message"]
    broken = small_toml().replace(b"turns = 3", b"turns = ")
    response = await editor.post("/api/scenarios/check", data=broken, headers=toml)
    error = (await response.json())["error"]
    assert response.status == 400 and error["code"] == "malformed", error
    assert error["message"].startswith("the file is not valid TOML") and "line 8" in error["message"], error


async def test_every_number_of_an_uploaded_scenario_is_bounded_naming_the_field(editor):
    for turns in (1_000_000, 2**63 - 1, 2**64, 10**30):
        data = small()
        data["scenario"]["turns"] = turns
        response = await editor.post("/api/scenarios/check", json=data)
        assert response.status == 200, await response.text()
        found = await response.json()
        assert not found["ok"], turns
        assert [p["location"] for p in found["problems"]] == ["key turns"]
        assert found["problems"][0]["message"] == f"turns is {turns}: a number here is from 1 to 100"
        saved = await editor.post("/api/scenarios", json=data)
        assert saved.status == 422 and (await saved.json())["problems"][0]["location"] == "key turns"
    data = small()
    data["oob"]["unit"][0]["strength"] = 10**6
    data["map"]["columns"] = [1, 2**64]
    found = await (await editor.post("/api/scenarios/check", json=data)).json()
    assert {(p["location"], p["message"]) for p in found["problems"]} == {
        ("unit u1", "strength is 1000000: a number here is from 0 to 99"),
        ("key columns[1]", "columns[1] is 18446744073709551616: a number here is from 0 to 99"),
    }
    toml = small_toml().replace(b"turns = 3\n", b"turns = 3\nnight_turns = [inf]\n")  # TOML has inf; JSON not
    found = await (await editor.post("/api/scenarios/check", data=toml)).json()
    assert [(p["location"], p["message"]) for p in found["problems"]] == [
        ("key night_turns[0]", "night_turns[0] is inf: a number here is from -10,000 to 10,000")
    ]
