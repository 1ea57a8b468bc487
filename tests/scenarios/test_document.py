"""Scenarios as one file (scenarios/document.py) and the saved scenarios (scenarios/library.py):
export and import, the refusals each with a message naming the problem, shipped battles never
overwritten, and the CLI (`bluegray scenario export` / `import`)."""

import json

import pytest

from api.cli import main
from rules.core.scenario import scenario_hash
from scenarios import document, loader
from scenarios.library import Library, LibraryError, export


def small(name: str = "small") -> dict:
    """A 6x6 map of clear hexes (0303 a river hex), a unit of each side, three Game-Turns."""
    hexes = {f"{c:02d}{r:02d}": "clear" for c in range(1, 7) for r in range(1, 7)}
    hexes["0303"] = "river"
    return {
        "format": document.FORMAT,
        "name": name,
        "scenario": {"id": name, "name": "A <b>small</b> test", "rulesets": ["classic", "revised"], "turns": 3,
                     "first_player": "union"},
        "map": {"lower_columns": "even", "hexes": hexes, "hexsides": {"0101|0102": {"features": ["creek"]}}},
        "oob": {"unit": [
            {"id": "u1", "side": "union", "type": "infantry", "strength": 4, "designation": "1st", "hex": "0102"},
            {"id": "c1", "side": "confederate", "type": "infantry", "strength": 4, "designation": "A", "hex": "0505"},
        ]},
    }


def encoded(data: dict) -> bytes:
    return json.dumps(data).encode()


def test_every_shipped_battle_exports_and_reads_back_to_the_same_scenario():
    for sid, _ in loader.list_scenarios():
        found = document.decode(document.encode(export(sid)))
        files = document.files_of(found)
        assert document.check(found) == []
        assert scenario_hash(loader.build(files)) == scenario_hash(loader.load(sid)), sid


def test_a_scenario_on_another_battles_map_is_exported_with_that_map_and_its_changes():
    # fredericksburg_3_may plays on fredericksburg's map with its creeks made fords (22.11)
    found = export("fredericksburg_3_may")
    assert "map_file" not in found.scenario and "map_changes" not in found.scenario
    fords = [k for k, s in found.map.hexsides.items() if "ford" in s.features]
    assert fords and len(fords) > len([k for k, s in export("fredericksburg").map.hexsides.items() if "ford" in s.features])


def test_a_saved_scenario_is_kept_under_its_name_and_content_hash(tmp_path):
    library = Library(tmp_path)
    saved = library.save(document.decode(encoded(small())))
    assert saved.name == "small" and not saved.variant
    assert (tmp_path / "small" / f"{saved.hash}.json").is_file()
    assert library.pin("small") == saved.ref == f"small@{saved.hash}"
    assert scenario_hash(library.load(saved.ref)) == saved.hash
    assert [s.name for s in library.saved()] == ["small"]


def test_a_shipped_battle_is_never_overwritten_an_edit_is_a_variant(tmp_path):
    before = loader.content_key(loader.folder_of("chattanooga"))
    edited = export("chattanooga")
    edited.map.hexes["1010"] = "clear" if edited.map.hexes["1010"] != "clear" else "forest"
    saved = Library(tmp_path).save(edited)
    assert saved.variant and saved.derived_from == "chattanooga" and saved.name.startswith("chattanooga-")
    assert loader.content_key(loader.folder_of("chattanooga")) == before
    assert not (tmp_path / "chattanooga").exists()
    assert Library(tmp_path).load(saved.ref).map.hexes["1010"] == edited.map.hexes["1010"]


def test_import_refuses_a_malformed_file():
    with pytest.raises(document.DocumentError) as e:
        document.decode(b'{"format": "bluegray-scenario/1", "name": ')
    assert e.value.code == "malformed" and "not valid JSON" in e.value.message
    with pytest.raises(document.DocumentError) as e:
        document.decode(b"format = [")
    assert e.value.code == "malformed" and "TOML" in e.value.message
    data = small()
    data["map"]["hexes"]["0101"] = 7
    with pytest.raises(document.DocumentError) as e:
        document.decode(encoded(data))
    assert e.value.code == "malformed" and e.value.message == (
        "not a scenario file (bluegray-scenario/1): map.hexes.0101: expected a string, got a whole number"
    )
    data = small()
    data["oob"]["unit"][0]["colour"] = "blue"  # the schema is strict: no unknown field
    with pytest.raises(document.DocumentError) as e:
        document.decode(encoded(data))
    assert "colour" in e.value.message


def test_import_refuses_an_unknown_terrain_naming_the_hex(tmp_path):
    data = small()
    data["map"]["hexes"]["0204"] = "lava"
    with pytest.raises(LibraryError) as e:
        Library(tmp_path).save(document.decode(encoded(data)))
    assert e.value.code == "invalid"
    assert "hex 0204: unknown terrain 'lava'" in e.value.message
    assert [p.location for p in e.value.problems] == ["hex 0204"]
    assert not any(tmp_path.iterdir())


def test_import_refuses_a_unit_on_a_hex_it_may_not_occupy(tmp_path):
    data = small()
    data["oob"]["unit"][0]["hex"] = "0303"  # the river hex (5.24)
    with pytest.raises(LibraryError) as e:
        Library(tmp_path).save(document.decode(encoded(data)))
    assert "unit u1: is deployed on 0303, a river hex (5.24), which no unit may occupy" in e.value.message


def test_import_refuses_an_oversized_file():
    with pytest.raises(document.DocumentError) as e:
        document.decode(b" " * (document.MAX_BYTES + 1))
    assert e.value.code == "too_large" and str(document.MAX_BYTES) in e.value.message


@pytest.mark.parametrize("name", ["../evil", "a/b", "..", "C:\\x", "x.json", "", "Big", "a" * 65])
def test_import_refuses_a_name_with_a_path_in_it(tmp_path, name):
    with pytest.raises(LibraryError) as e:
        Library(tmp_path).save(document.decode(encoded(small())), name)
    assert e.value.code == "bad_name" and "is not a scenario name" in e.value.message
    assert not any(tmp_path.iterdir())


def test_the_library_keeps_at_most_its_count(tmp_path):
    library = Library(tmp_path, max_saved=1)
    library.save(document.decode(encoded(small("one"))))
    with pytest.raises(LibraryError) as e:
        library.save(document.decode(encoded(small("two"))))
    assert e.value.code == "full"


def test_the_cli_exports_and_imports(tmp_path, capsys):
    assert main(["scenario", "export", "shiloh"]) == 0
    path = tmp_path / "shiloh.json"
    path.write_text(capsys.readouterr().out)
    assert main(["scenario", "import", str(path), "--name", "my-shiloh", "--data-dir", str(tmp_path)]) == 0
    ref = capsys.readouterr().out.strip()
    assert ref.startswith("my-shiloh@")
    assert main(["scenario", "export", "my-shiloh", "--data-dir", str(tmp_path)]) == 0
    again = document.decode(capsys.readouterr().out.encode())
    assert again.name == "my-shiloh" and again.scenario["id"] == "my-shiloh"
    assert main(["scenario", "list", "--data-dir", str(tmp_path)]) == 0
    assert "\nmy-shiloh\tShiloh" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text('format = "bluegray-scenario/1"\nname = 3\n')
    assert main(["scenario", "import", str(bad), "--data-dir", str(tmp_path)]) == 1
    assert "malformed" in capsys.readouterr().err
    assert main(["scenario", "import", str(path), "--name", "../x", "--data-dir", str(tmp_path)]) == 1
    assert "bad_name" in capsys.readouterr().err
