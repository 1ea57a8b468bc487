"""The files of one scenario folder as read from disk: each file's path, text and parsed TOML, and where
in the text a key or value sits, so that a problem can name its line.

A scenario folder holds ``scenario.toml`` (turns, rule sets, provenance, exclusive rules' parameters),
``map.toml`` (every hex, the hexsides, roads, trails, areas) and ``oob.toml`` (the order of battle).
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


class Files:
    """The three sources of one scenario folder."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.scenario = Source(folder / "scenario.toml")
        self.map = Source(folder / "map.toml")
        self.oob = Source(folder / "oob.toml")

    def unreadable(self) -> list[Problem]:
        return [s.problem for s in (self.scenario, self.map, self.oob) if s.problem]
