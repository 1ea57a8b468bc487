"""The files of one scenario folder as read from disk: each file's path, text and parsed TOML, and where
in the text a key or value sits, so that a problem can name its line.

A scenario folder holds ``scenario.toml`` (turns, rule sets, provenance, exclusive rules' parameters),
``map.toml`` (every hex, the hexsides, roads, trails, areas) and ``oob.toml`` (the order of battle).

A second scenario of a battle may play on the first one's map file: scenario.toml's ``map_file`` names
it (``"../fredericksburg/map.toml"``, a map.toml of another scenario folder) instead of a map.toml of
its own, and ``[map_changes]`` says what differs in this scenario (Fredericksburg 22.11: "All creek hex
sides on the map sheet (except the canal) are treated as ford hex sides"):

    [[map_changes.hexside_features]]
    where = "creek"                       # every hexside with this feature
    add = ["ford"]                        # gains these features
    except = ["0414|0415", "0414|0515"]   # but these hexsides (the canal)

The changes are made to the map's data as it is read, so the validator and the builder see the map the
scenario plays on.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import msgspec

FILES = ("scenario.toml", "map.toml", "oob.toml")

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_TOML_LINE = re.compile(r"at line (\d+)")


class Problem(msgspec.Struct, frozen=True):
    """One thing wrong with a scenario: the file, the line (when known), what it concerns (a hex,
    hexside, unit or key: ``location``) and the reason."""

    file: str
    line: int | None
    location: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.location}: {self.message}"


class ScenarioError(ValueError):
    """A scenario that may not be played, with every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class Source:
    """One TOML file: its path, its text and its data (``None`` when it does not parse)."""

    def __init__(self, path: Path):
        self.path = path
        self.name = str(path)
        self.data: dict | None = None
        self.problem: Problem | None = None
        try:
            self.text = path.read_text(encoding="utf-8")
        except OSError as e:
            self.text = ""
            self.problem = Problem(self.name, None, path.name, f"cannot be read: {e.strerror or e}")
            return
        self.lines = self.text.splitlines()
        try:
            self.data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as e:
            m = _TOML_LINE.search(str(e))
            self.problem = Problem(self.name, int(m[1]) if m else None, path.name, f"is not valid TOML: {e}")

    def problem_at(self, location: str, message: str, *, table: str = "", index: int | None = None,
                   key: str | None = None, value: str | None = None) -> Problem:
        """A problem whose line is found as in ``line_of``."""
        return Problem(self.name, self.line_of(table, index=index, key=key, value=value), location, message)

    def line_of(self, table: str = "", *, index: int | None = None, key: str | None = None,
                value: str | None = None) -> int | None:
        """The 1-based line of ``key = ...`` (or of the quoted ``value``) inside ``[table]`` or the
        ``index``-th ``[[table]]`` (0-based); the table's header line when neither is given. ``table``
        "" is the top of the file. None when it cannot be found (a key written in some other form)."""
        lines = getattr(self, "lines", [])
        start, seen = -1, -1
        if table:
            for i, text in enumerate(lines):
                m = _HEADER.match(text)
                if m and m[1].replace(" ", "") == table:
                    seen += 1
                    if index is None or seen == index:
                        start = i
                        break
            else:
                return None
        if key is None and value is None:
            return start + 1 if start >= 0 else None
        wanted = (
            re.compile(rf"^\s*(\"{re.escape(key)}\"|'{re.escape(key)}'|{re.escape(key)})\s*=")
            if key is not None
            else re.compile(rf"[\"']{re.escape(value)}[\"']")
        )
        for i in range(start + 1, len(lines)):
            if _HEADER.match(lines[i]):
                break  # the table ends at the next header
            if wanted.search(lines[i]):
                return i + 1
        return None


def map_path(folder: Path, scenario: dict | None) -> Path:
    """The map file the scenario plays on: its own map.toml, or the one ``map_file`` names (a path
    relative to the folder)."""
    shared = (scenario or {}).get("map_file")
    return folder / shared if isinstance(shared, str) and shared else folder / "map.toml"


def change_map(data: dict, changes) -> None:
    """Apply scenario.toml's ``[map_changes]`` to a map's data, in place (the module's docstring);
    a malformed change is left for the validator to report."""
    if not isinstance(changes, dict):
        return
    hexsides = data.get("hexsides")
    if not isinstance(hexsides, dict):
        return
    for change in changes.get("hexside_features") or []:
        if not isinstance(change, dict) or not isinstance(change.get("add"), list):
            continue
        where, kept = change.get("where"), change.get("except") or []
        for key, side in hexsides.items():
            features = side.get("features") if isinstance(side, dict) else None
            if isinstance(features, list) and where in features and key not in kept:
                side["features"] = [*features, *(f for f in change["add"] if f not in features)]


class Files:
    """The three sources of one scenario folder (its map the one it names, with its changes)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.scenario = Source(folder / "scenario.toml")
        self.map = Source(map_path(folder, self.scenario.data))
        self.oob = Source(folder / "oob.toml")
        if self.map.data is not None and self.scenario.data is not None:
            change_map(self.map.data, self.scenario.data.get("map_changes"))

    def unreadable(self) -> list[Problem]:
        return [s.problem for s in (self.scenario, self.map, self.oob) if s.problem]
