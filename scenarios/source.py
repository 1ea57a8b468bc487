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
    roads = changes.get("road")
    if isinstance(roads, list):  # Grand Chancellorsville: roads joined across two sheets' seam
        data.setdefault("road", []).extend(r for r in roads if isinstance(r, dict))
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


# -- one battle on two map sheets (Hooker and Lee 22.0, Grand Chancellorsville) ------------------------
#
#     [[map_sheets]]
#     sheet = "F"
#     file = "../fredericksburg/map.toml"
#     row_offset = 0
#     [[map_sheets]]
#     sheet = "H"
#     file = "../hooker_and_lee/map.toml"
#     row_offset = 27
#
# 22.0: "the western hex row on the Fredericksburg map sheet overlaps directly on to the eastern hex row on
# the Hooker and Lee map sheet; e.g., Fredericksburg hex 1328 overlaps directly on to Hooker and Lee hex
# 1301". The sheets' columns coincide; a sheet's hex XXYY is hex XX(YY + row_offset) of the joined map, and
# the scenario's and the order of battle's files name hexes as the text does, with the sheet's letter
# ("F2401", "H1928"): the loader reads them as the joined map's numbers. Where two sheets overlap, the
# sheet listed first lies on top (its hex, and its hexsides, are the joined map's). Each sheet's areas
# keep their names (two sheets may not both name one area).

SHEET_HEX = re.compile(r"^([A-Z])([0-9]{2})([0-9]{2})$")


def sheets_of(scenario: dict | None) -> list[dict] | None:
    """scenario.toml's ``[[map_sheets]]``, when it is a list of tables (the validator checks the rest)."""
    sheets = (scenario or {}).get("map_sheets")
    if isinstance(sheets, list) and sheets and all(isinstance(x, dict) for x in sheets):
        return sheets
    return None


def sheet_number(name: str, sheets: list[dict]) -> str | None:
    """"F1328" -> the joined map's number of that hex of sheet F; None when ``name`` names no sheet."""
    m = SHEET_HEX.match(name)
    if m is None:
        return None
    for sh in sheets:
        if sh.get("sheet") == m[1] and isinstance(sh.get("row_offset", 0), int):
            return f"{int(m[2]):02d}{int(m[3]) + sh.get('row_offset', 0):02d}"
    return None


def renamed(value, sheets: list[dict]):
    """``value`` (a scenario's or an order of battle's data) with every sheet-named hex ("F2401", and
    hexside keys "F0101|F0102") replaced by the joined map's number."""
    if isinstance(value, str):
        parts = value.split("|")
        numbers = [sheet_number(p, sheets) for p in parts]
        return "|".join(numbers) if all(numbers) else value
    if isinstance(value, list):
        return [renamed(v, sheets) for v in value]
    if isinstance(value, dict):
        return {renamed(k, sheets): (v if k == "map_sheets" else renamed(v, sheets)) for k, v in value.items()}
    return value


def _moved(number: str, offset: int) -> str:
    return f"{number[:2]}{int(number[2:]) + offset:02d}"


def join_sheets(folder: Path, sheets: list[dict]) -> tuple[dict | None, list[Source]]:
    """The joined map's data from the sheets' map files (None when one is unreadable), and their sources."""
    sources = [Source(folder / str(sh.get("file", ""))) for sh in sheets]
    if any(src.data is None for src in sources):
        return None, sources
    first = sources[0].data
    joined: dict = {"lower_columns": first.get("lower_columns", "even"), "hexes": {}, "hexsides": {}, "road": [], "trail": [], "areas": {}}
    columns, rows, lower_rows, levels = [], [], [], {}
    for sh, src in zip(sheets, sources, strict=True):
        d, off = src.data, sh.get("row_offset", 0) if isinstance(sh.get("row_offset", 0), int) else 0
        columns += list(d.get("columns", []))
        rows += [r + off for r in d.get("rows", [])]
        lower_rows += [r + off for r in d.get("lower_columns_rows", d.get("rows", []))]
        for h, t in d.get("hexes", {}).items():
            joined["hexes"].setdefault(_moved(h, off), t)  # the first sheet lies on top
        for key, side in d.get("hexsides", {}).items():
            a, _, b = key.partition("|")
            joined["hexsides"].setdefault(f"{_moved(a, off)}|{_moved(b, off)}", side)
        for kind in ("road", "trail"):
            for path in d.get(kind, []):
                joined[kind].append({**path, "hexes": [_moved(h, off) for h in path.get("hexes", [])]})
        for name, hexes in d.get("areas", {}).items():
            joined["areas"].setdefault(name, [_moved(h, off) for h in hexes])
        for h, level in d.get("levels", {}).items():
            levels.setdefault(_moved(h, off), level)
    joined["columns"] = [min(columns), max(columns)]
    joined["rows"] = [min(rows), max(rows)]
    joined["lower_columns_rows"] = [min(lower_rows), max(lower_rows)]
    if levels:
        joined["levels"] = levels
    return joined, sources


def joined_source(sources: list[Source], data: dict | None) -> Source:
    """A Source standing for the joined map (no text of its own: its problems name the sheets' files)."""
    src = Source.__new__(Source)
    src.path = sources[0].path
    src.name = " + ".join(s.name for s in sources)
    src.data = data
    src.problem = next((s.problem for s in sources if s.problem), None)
    src.text, src.lines = "", []
    return src


class DataSource(Source):
    """A source held in memory, not read from a file (a template merged with its set-up, one file's
    scenario): ``locate(table, index, key, value)`` gives a problem's line, or None: no line."""

    def __init__(self, name: str, data: dict, locate=None):
        self.path = Path(name)
        self.name = name
        self.data = data
        self.problem = None
        self.text = ""
        self.lines = []
        self._locate = locate

    def line_of(self, table: str = "", *, index=None, key=None, value=None):
        return self._locate(table, index, key, value) if self._locate else None


class Files:
    """The three sources of one scenario folder (its map the one it names, with its changes; or the
    sheets it joins, Hooker and Lee 22.0)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.scenario = Source(folder / "scenario.toml")
        self.oob = Source(folder / "oob.toml")
        sheets = sheets_of(self.scenario.data)
        if sheets is not None:
            data, sources = join_sheets(folder, sheets)
            self.map = joined_source(sources, data)
            self.scenario.data = renamed(self.scenario.data, sheets)
            if self.oob.data is not None:
                self.oob.data = renamed(self.oob.data, sheets)
        else:
            self.map = Source(map_path(folder, self.scenario.data))
        if self.map.data is not None and self.scenario.data is not None:
            change_map(self.map.data, self.scenario.data.get("map_changes"))

    def unreadable(self) -> list[Problem]:
        return [s.problem for s in (self.scenario, self.map, self.oob) if s.problem]
