"""Loading scenarios: a folder of TOML files (scenario.toml, map.toml, oob.toml) becomes a
``rules.core.scenario.Scenario`` after the validator has found nothing wrong.

>>> from scenarios.loader import load, list_scenarios
>>> load("chattanooga").turns
10
"""

from __future__ import annotations

import hashlib
import tomllib
from itertools import pairwise
from pathlib import Path

import msgspec

from rules.core.hexes import hexside
from rules.core.scenario import CombatResultsTable, Hexside, Map, Scenario, ScenarioOption, Unit
from scenarios import template, validate
from scenarios.source import FILES, Files, Problem, ScenarioError, Source, map_path, sheets_of

#: The folder holding one sub-folder per battle (this package's own folder).
SCENARIOS_DIR = Path(__file__).resolve().parent
#: The battle templates (scenarios/template.py): never offered as playable until completed.
TEMPLATES_DIR = SCENARIOS_DIR / "templates"

__all__ = [
    "SCENARIOS_DIR", "TEMPLATES_DIR", "ScenarioError", "Problem", "folder_of", "list_scenarios", "list_templates",
    "load", "load_files",
]


def scenario_folders() -> list[Path]:
    """Every folder under scenarios/ that holds a scenario.toml, sorted by name."""
    return sorted(p.parent for p in SCENARIOS_DIR.glob("*/scenario.toml"))


def template_folders() -> list[Path]:
    """Every template folder under scenarios/templates/, sorted by name."""
    return sorted(p.parent for p in TEMPLATES_DIR.glob("*/scenario.toml"))


def list_scenarios() -> list[tuple[str, str]]:
    """``[(id, name), ...]`` of the playable scenarios that ship with the package (read without
    validating): the battles, and the templates an owner completed with a ``setup.toml`` beside them.
    A template still missing items is never listed (``list_templates``)."""
    out = []
    completed = [f for f in template_folders() if (f / template.SETUP).is_file()]
    for folder in scenario_folders() + completed:
        data = Source(folder / "scenario.toml").data or {}  # its id and name only: not the map, nor the units
        out.append((data.get("id", folder.name), data.get("name", "")))
    return out


def list_templates() -> list[tuple[str, str, list[template.Missing], list[Problem]]]:
    """``[(id, name, missing items, problems), ...]`` of the shipped templates not yet completed."""
    out = []
    for folder in template_folders():
        if (folder / template.SETUP).is_file():
            continue
        data = Files(folder).scenario.data or {}
        problems, missing = template.check(folder)
        out.append((data.get("id", folder.name), data.get("name", ""), missing, problems))
    return out


def folder_of(id_or_path: str | Path) -> Path:
    """A scenario id (``"chattanooga"``) or a path to a scenario folder or to one of its files."""
    path = Path(id_or_path)
    if path.is_file():
        return path.parent
    if path.is_dir():
        return path
    for folder in scenario_folders() + template_folders():
        if folder.name == str(id_or_path):
            return folder
    for folder in scenario_folders() + template_folders():
        if (Files(folder).scenario.data or {}).get("id") == str(id_or_path):
            return folder
    known = ", ".join(i for i, _ in list_scenarios()) or "none"
    raise ScenarioError(
        [Problem(str(id_or_path), None, "scenario", f"no such scenario or folder (known: {known})")]
    )


def load_files(id_or_path: str | Path) -> Files:
    return Files(folder_of(id_or_path))


def load(id_or_path: str | Path) -> Scenario:
    """The scenario, validated; raises ScenarioError listing every problem.

    Parsed, validated and built once per process for each content of its files (``_LOADED``, keyed by
    their SHA-256): a scenario is never changed once built, so every caller may share it."""
    folder = folder_of(id_or_path)
    key = content_key(folder)
    scenario = _LOADED.get(key)
    if scenario is None:
        files = Files(folder)
        if template.is_template(folder):
            files = _completed(folder)
        problems = validate.check(files)
        if problems:
            raise ScenarioError(problems)
        scenario = build(files)
        if len(_LOADED) >= _KEPT:
            _LOADED.clear()
        _LOADED[key] = scenario
    return scenario


#: The scenarios built by ``load``, by ``content_key`` of their folder (at most ``_KEPT``).
_LOADED: dict[bytes, Scenario] = {}
_KEPT = 64


def _completed(folder: Path) -> Files:
    """A template folder: completed by the ``setup.toml`` beside it; refused while items are missing."""
    problems, missing = template.check(folder)
    setup = folder / template.SETUP
    if not setup.is_file():
        raise ScenarioError(problems + [
            Problem(str(folder), None, f"template: {m.what}", f"missing: {m.reason}") for m in missing
        ] or [Problem(str(folder), None, "template", "a template is completed by a setup.toml beside it")])
    files, merge_problems = template.completed_files(folder, setup)
    if problems or merge_problems:
        raise ScenarioError(problems + merge_problems + validate.check(files))
    return files


def content_key(folder: Path) -> bytes:
    """SHA-256 of the names and bytes of a scenario folder's files (a missing file counts as such)."""
    h = hashlib.sha256()
    try:
        scenario_bytes = (folder / "scenario.toml").read_bytes()
    except OSError:
        scenario_bytes = b""
    for name in (*FILES, template.SETUP):
        path = folder / name
        if name == "map.toml" and b"map_file" in scenario_bytes:  # another scenario's map file
            try:
                path = map_path(folder, tomllib.loads(scenario_bytes.decode("utf-8")))
            except (UnicodeDecodeError, tomllib.TOMLDecodeError):
                pass
        try:
            data = path.read_bytes()
        except OSError:
            data = None
        h.update(f"{name}:{-1 if data is None else len(data)}:".encode())
        h.update(data or b"")
    if b"map_sheets" in scenario_bytes:  # Hooker and Lee 22.0: the sheets' map files
        try:
            sheets = sheets_of(tomllib.loads(scenario_bytes.decode("utf-8"))) or []
        except (UnicodeDecodeError, tomllib.TOMLDecodeError):
            sheets = []
        for sh in sheets:
            try:
                data = (folder / str(sh.get("file", ""))).read_bytes()
            except OSError:
                data = None
            h.update(f"sheet:{-1 if data is None else len(data)}:".encode())
            h.update(data or b"")
    return h.digest()


def build(files: Files) -> Scenario:
    """The Scenario from files the validator passed."""
    s, m, o = files.scenario.data, files.map.data, files.oob.data
    return Scenario(
        id=s["id"],
        name=s["name"],
        rulesets=list(s["rulesets"]),
        turns=s["turns"],
        night_turns=list(s.get("night_turns", [])),
        first_player=s["first_player"],
        map=build_map(m),
        units=[build_unit(u) for u in o["unit"]],
        exclusive=s.get("exclusive", {}),
        cases=s.get("cases", {}),
        provenance={k: v.strip() for k, v in s.get("provenance", {}).items()},
        crt=build_crt(s["crt"]) if "crt" in s else None,
        exclusive_overrides=s.get("exclusive_overrides", {}),
        options={n: msgspec.convert(o, ScenarioOption) for n, o in s.get("options", {}).items()},
    )


def build_crt(c: dict) -> CombatResultsTable:
    """7.6: the table as the scenario prints it."""
    return CombatResultsTable(
        columns=list(c["columns"]),
        rows={str(k): list(v) for k, v in c["rows"].items()},
        provenance=c.get("provenance", "").strip(),
    )


def build_map(m: dict) -> Map:
    """Hexes as listed; hexsides as listed, with each step of a road or trail path added as a road or
    trail hexside (5.22, 5.23)."""
    features: dict[str, set[str]] = {}
    barbed: dict[str, str] = {}
    high: dict[str, str] = {}  # a slope's upper hex (revised 6.26)
    for key, entry in (m.get("hexsides") or {}).items():
        a, b = key.split("|")
        name = hexside(a, b)
        features.setdefault(name, set()).update(entry["features"])
        if entry.get("barbed"):
            barbed[name] = entry["barbed"]
        if entry.get("high"):
            high[name] = entry["high"]
    for kind in ("road", "trail"):
        for path in m.get(kind) or []:
            hexes = path["hexes"]
            for a, b in pairwise(hexes):
                features.setdefault(hexside(a, b), set()).add(kind)
    return Map(
        lower_columns=m["lower_columns"],
        hexes=dict(m["hexes"]),
        hexsides={k: Hexside(frozenset(f), barbed.get(k), high.get(k)) for k, f in sorted(features.items())},
        areas={k: list(v) for k, v in (m.get("areas") or {}).items()},
        levels={k: int(v) for k, v in (m.get("levels") or {}).items()},
    )


def build_unit(u: dict) -> Unit:
    return Unit(
        id=u["id"],
        side=u["side"],
        type=u["type"],
        strength=u["strength"],
        designation=u["designation"],
        hex=u.get("hex"),
        arrives=u.get("arrives"),
        entry=list(u.get("entry", [])),
        movement_allowance=u.get("movement_allowance"),
        group=u.get("group"),
        command=u.get("command"),
        size=u.get("size"),
    )
