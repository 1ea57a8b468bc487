"""A scenario as one file: scenario, map and order of battle in one TOML or JSON document, decoded
with a strict schema (docs/SCENARIOS.md, "One file").

    format = "bluegray-scenario/1"
    name = "my-chattanooga"              # the name it is saved under (a-z 0-9 - _)
    derived_from = "chattanooga"         # what it was made from (a shipped battle or a saved scenario)
    [scenario]  ... what scenario.toml holds (id, name, turns, rulesets, exclusive, ...)
    [map]       ... what map.toml holds (lower_columns, hexes, hexsides, road, trail, areas, levels)
    [[oob.unit]] ... what oob.toml holds

The map is written whole: a scenario playing on another battle's map (``map_file``) is exported with
that map and its ``map_changes`` already made. The document's ``scenario``, ``map`` and ``oob`` go
through the same validator as a scenario folder (scenarios/validate.py).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, Literal

import msgspec

from rules.core.decoding import json_mismatch, mismatch
from scenarios import template, validate
from scenarios.source import DataSource, Files, Problem, ScenarioError

FORMAT = "bluegray-scenario/1"
#: The largest document accepted (bytes): the largest shipped battle (Chickamauga) is about 60 KB.
MAX_BYTES = 1024 * 1024


class HexsideDoc(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    features: list[str]
    barbed: str | None = None
    high: str | None = None


class PathDoc(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    hexes: list[str]
    name: str | None = None


class MapDoc(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """map.toml (2.1, 5.2, 9.0): every hex's terrain, the hexside features, roads and trails as paths."""

    lower_columns: Literal["even", "odd"]
    hexes: dict[str, str]
    columns: list[int] | None = None
    rows: list[int] | None = None
    lower_columns_rows: list[int] | None = None
    column_rows: dict[str, list[int]] | None = None
    hexsides: dict[str, HexsideDoc] = {}
    road: list[PathDoc] = []
    trail: list[PathDoc] = []
    areas: dict[str, list[str]] = {}
    levels: dict[str, int] = {}


class UnitDoc(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One counter (14.1, 15.2): deployed on ``hex``, or arriving on Game-Turn ``arrives`` at ``entry``."""

    id: str
    side: str
    type: str
    strength: int
    designation: str
    hex: str | None = None
    arrives: int | None = None
    entry: list[str] = []
    movement_allowance: int | None = None
    command: str | None = None  # Peachtree Creek 17.3: the command the counter is marked with


class OobDoc(msgspec.Struct, forbid_unknown_fields=True):
    unit: list[UnitDoc]


class Document(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The whole scenario in one file (the module's docstring)."""

    format: Literal["bluegray-scenario/1"]
    name: str
    scenario: dict[str, Any]
    map: MapDoc
    oob: OobDoc
    derived_from: str | None = None


class DocumentError(ValueError):
    """A document refused before it is validated: ``code`` (``malformed``, ``too_large``) and a sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def decode(data: bytes, filename: str = "") -> Document:
    """The document in ``data``: JSON when the file name ends .json, TOML when it ends .toml, else JSON
    when it starts with ``{`` and TOML otherwise. DocumentError when it is too large or does not fit
    the schema, naming where."""
    if len(data) > MAX_BYTES:
        raise DocumentError("too_large", f"the file is {len(data)} bytes; a scenario file may be at most {MAX_BYTES}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DocumentError("malformed", f"the file is not UTF-8 text (byte {exc.start})") from None
    sniffed = text.lstrip().startswith("{")
    as_json = filename.endswith(".json") or (sniffed and not filename.endswith(".toml"))
    try:
        if as_json:
            return msgspec.json.decode(data, type=Document)
        return msgspec.convert(tomllib.loads(text), type=Document)
    except tomllib.TOMLDecodeError as exc:
        what = "valid TOML" if filename.endswith(".toml") else "JSON (no {) nor valid TOML"
        raise DocumentError("malformed", f"the file is not {what}: {exc}") from None
    except msgspec.ValidationError:
        found = json_mismatch(data, Document) if as_json else mismatch(tomllib.loads(text), Document)
        raise DocumentError("malformed", f"not a scenario file ({FORMAT}): {found.sentence()}") from None
    except (msgspec.DecodeError, RecursionError):
        raise DocumentError("malformed", f"the file is not valid JSON: {json_mismatch(data, Document).reason()}") from None


def encode(document: Document) -> bytes:
    """The document as JSON (keys in a fixed order, one level of indentation per table)."""
    return json.dumps(msgspec.to_builtins(document), indent=1, ensure_ascii=False).encode("utf-8") + b"\n"


def from_folder(folder: Path, name: str, derived_from: str | None = None) -> Document:
    """The document of a scenario folder (a completed template merged with its setup); ScenarioError
    when it does not validate."""
    files = Files(folder)
    if template.is_template(folder):
        setup = folder / template.SETUP
        problems, missing = template.check(folder)
        if not setup.is_file():
            raise ScenarioError(problems + [Problem(str(folder), None, f"template: {m.what}", f"missing: {m.reason}") for m in missing])
        files, merge_problems = template.completed_files(folder, setup)
        problems += merge_problems
        if problems:
            raise ScenarioError(problems)
    problems = validate.check(files)
    if problems:
        raise ScenarioError(problems)
    scenario = {k: v for k, v in files.scenario.data.items() if k not in ("map_file", "map_changes", "template")}
    files_document = {"format": FORMAT, "name": name, "derived_from": derived_from, "scenario": scenario,
                      "map": files.map.data, "oob": files.oob.data}
    try:
        return msgspec.convert(files_document, type=Document)
    except msgspec.ValidationError:  # a key the validator allows and the schema does not
        found = mismatch(files_document, Document)
        raise ScenarioError([Problem(str(folder), None, "scenario", f"cannot be written as one file: {found.sentence()}")]) from None


def files_of(document: Document) -> Files:
    """The document as the validator's and builder's Files (in memory)."""
    files = Files.__new__(Files)
    files.folder = Path(document.name)
    files.scenario = DataSource("scenario", dict(document.scenario))
    files.map = DataSource("map", msgspec.to_builtins(document.map))
    files.oob = DataSource("oob", msgspec.to_builtins(document.oob))
    return files


def check(document: Document) -> list[Problem]:
    """Every problem the validator finds in the document (none: it may be played)."""
    return validate.check(files_of(document))
