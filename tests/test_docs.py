"""The README and docs/ say what the code does: their lists come from the code, their paths and
links exist, and none sends a reader outside the clone."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from api.cli import command_modules
from rules.core import terrain
from rules.core.scenario import SIDES, UnitType

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
# Written by hand, each owned here; docs/PROTOCOL.md and docs/RULES_COVERAGE.md have tests of their own.
OURS = [README] + [p for p in DOCS if p.name not in ("PROTOCOL.md", "RULES_COVERAGE.md")]


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def section(body: str, heading: str) -> str:
    start = body.index(f"\n## {heading}\n")
    end = body.find("\n## ", start + 1)
    return body[start : end if end != -1 else len(body)]


def test_readme_is_read_in_five_minutes():
    assert len(text(README).splitlines()) < 200


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: p.name)
def test_no_doc_sends_a_reader_outside_the_clone(path):
    assert "../shared" not in text(path)
    assert "DESIGN.md" not in text(path)


@pytest.mark.parametrize("path", OURS, ids=lambda p: p.name)
def test_every_relative_link_resolves(path):
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text(path)):
        if "://" not in target:
            assert (path.parent / target).exists(), f"{path.name}: link to {target}, which does not exist"


@pytest.mark.parametrize("path", OURS, ids=lambda p: p.name)
def test_every_source_path_named_exists(path):
    named = re.findall(
        r"`((?:rules|players|scenarios|eventstore|session|replay|api|bench|tests|docs)/[\w/.]*\w)`", text(path)
    )
    missing = sorted({p for p in named if not (ROOT / p).exists()})
    assert not missing, f"{path.name} names files that do not exist: {missing}"


def test_readme_lists_every_command_once():
    block = re.search(r"## Commands\n.*?```sh\n(.*?)```", text(README), re.S).group(1)
    listed = [line.split()[1] for line in block.splitlines() if line.strip()]
    assert sorted(listed) == sorted(m.NAME for m in command_modules())


def test_readme_layout_lists_every_folder():
    rows = re.findall(r"^\| `([^`]+)/?` \|", section(text(README), "Layout"), re.M)
    folders = {r.rstrip("/") for r in rows}
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert packages <= folders, f"packages not in the README's layout: {packages - folders}"
    assert {"tests", "docs", ".ci/run"} <= folders
    assert all((ROOT / f).exists() for f in folders)


def test_readme_documentation_table_lists_every_doc():
    linked = set(re.findall(r"\]\(docs/(\w+\.md)\)", section(text(README), "Documentation")))
    assert linked == {p.name for p in DOCS}


def test_readme_explains_every_dependency():
    project = tomllib.loads(text(ROOT / "pyproject.toml"))["project"]
    required = project["dependencies"] + project["optional-dependencies"]["test"]
    names = set()
    for requirement in required:
        name, extras = re.match(r"([\w-]+)(?:\[([\w,-]+)\])?", requirement).groups()
        names.add(name)
        names.update(e for e in (extras or "").split(",") if e)
    explained = set(re.findall(r"`([\w-]+)`", section(text(README), "Dependencies")))
    assert names <= explained, f"dependencies the README does not explain: {names - explained}"


def vocabulary(label: str) -> set[str]:
    line = re.search(rf"^- {label}: (.*)$", text(ROOT / "docs" / "SCENARIOS.md"), re.M)
    assert line, f"docs/SCENARIOS.md: no line '- {label}: ...'"
    return set(re.findall(r"`(\w+)`", line.group(1)))


def test_scenario_vocabulary_is_the_code_s():
    assert vocabulary("Hex terrain") == terrain.HEX_TERRAIN
    assert vocabulary("Hexside features") == terrain.HEXSIDE_FEATURES
    assert vocabulary("Unit types") == set(UnitType.__args__)
    assert vocabulary("Sides") == set(SIDES)


def test_eventstore_module_table_is_the_package():
    rows = set(re.findall(r"^\| `(eventstore/[\w.]+)` \|", text(ROOT / "docs" / "EVENTSTORE.md"), re.M))
    files = {f"eventstore/{p.name}" for p in (ROOT / "eventstore").iterdir() if p.suffix in (".py", ".lua")}
    assert rows == files - {"eventstore/__init__.py"}
