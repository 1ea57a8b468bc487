"""Every number a scenario holds, within a bounded range (docs/SCENARIOS.md, "Bounds").

A scenario may come from anyone (an upload, a game's export), and its numbers size what the server
builds and sends: a scenario of a million Game-Turns makes a turn track of a million entries, one
of 2**64 does not even encode. So before anything else is read, `check(files)` walks the three
sources and refuses every number outside its range, naming the field (``oob.toml: unit u1:
strength is 1000000: a number here is from 0 to 99``):

- ``turns`` (the scenario's Game-Turns): 1 to `MAX_TURNS`;
- a unit's ``strength``: 0 to 99 and ``movement_allowance``: 1 to 99;
- the map's column and row numbers (``columns``, ``rows``, ``lower_columns_rows``, ``column_rows``,
  ``map_sheets`` ``row_offset``): a hex is numbered XXYY, so 0 to 99;
- any other number anywhere (a Game-Turn a rule names, victory points and levels, a rule
  component's counts, a hex's level): `LIMIT` either way;
- a number that is not finite (a TOML ``inf`` or ``nan``) is refused wherever it is.

The shipped battles stay far inside: 20 Game-Turns at most, strength 20, movement allowance 7 (12
for a leader), columns and rows up to 28, and no other number beyond 58 either way.
"""

from __future__ import annotations

import math

from scenarios.source import Files, Problem, Source

#: The most Game-Turns a scenario may have (the longest shipped battle has 20).
MAX_TURNS = 100
#: Any other number of a scenario is within this either way (the shipped battles: 58 at most).
LIMIT = 10_000
#: The ranges of particular fields, by (source, key): the key anywhere in that source.
RANGES: dict[tuple[str, str], tuple[int, int]] = {
    ("scenario", "turns"): (1, MAX_TURNS),
    ("scenario", "row_offset"): (0, 99),
    ("oob", "strength"): (0, 99),
    ("oob", "movement_allowance"): (1, 99),
    ("map", "columns"): (0, 99),
    ("map", "rows"): (0, 99),
    ("map", "lower_columns_rows"): (0, 99),
    ("map", "column_rows"): (0, 99),
}
TOP_LEVEL_ONLY = {("scenario", "turns")}  # a component's own ``turns`` is a list of Game-Turns


def check(files: Files) -> list[Problem]:
    """Every number of the scenario in ``files`` that is out of its range (see the module)."""
    out: list[Problem] = []
    for kind, src in (("scenario", files.scenario), ("map", files.map), ("oob", files.oob)):
        if isinstance(src.data, dict):
            _walk(kind, src, src.data, (), None, out)
    return out


def _walk(kind: str, src: Source, value, path: tuple, field: str | None, out: list[Problem]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            named = key if isinstance(key, str) and not key.isdigit() else field
            _walk(kind, src, item, (*path, key), named, out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _walk(kind, src, item, (*path, i), field, out)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        low, high = _range(kind, path, field)
        if not (isinstance(value, int) or math.isfinite(value)) or not low <= value <= high:
            out.append(_problem(src, path, value, low, high))


def _range(kind: str, path: tuple, field: str | None) -> tuple[int, int]:
    if (kind, field) in TOP_LEVEL_ONLY and path != (field,):
        return -LIMIT, LIMIT
    return RANGES.get((kind, field), (-LIMIT, LIMIT))


def _problem(src: Source, path: tuple, value, low: int, high: int) -> Problem:
    """The problem of the number at ``path`` (keys and list indexes), on its line when it is found."""
    location, named = f"key {_dotted(path)}", path
    if path[0] == "unit" and len(path) > 2 and isinstance(path[1], int):  # [[unit]]: by its id
        uid = src.data["unit"][path[1]].get("id")
        location, named = (f"unit {uid}" if isinstance(uid, str) else f"unit #{path[1] + 1}"), path[2:]
    message = f"{_dotted(named)} is {value}: a number here is from {low:,} to {high:,}"
    line = None
    for end in range(len(path), 0, -1):  # an inline table's key has no line of its own: its table's
        table, index, key = _locate(path[:end])
        line = src.line_of(table, index=index, key=key)
        if line is not None:
            break
    return Problem(src.name, line, location, message)


def _dotted(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p)) for i, p in enumerate(path))


def _locate(path: tuple) -> tuple[str, int | None, str | None]:
    """The TOML table, array-of-tables index and key a path is written under (for its line)."""
    keys = list(path)
    while keys and isinstance(keys[-1], int):
        keys.pop()  # a number in a list: the line of the key that holds the list
    if not keys:
        return "", None, None
    first = next((i for i, k in enumerate(keys) if isinstance(k, int)), None)
    if first is None:
        return ".".join(map(str, keys[:-1])), None, str(keys[-1])
    table = ".".join(map(str, keys[:first]))
    rest = keys[first + 1 :]
    key = str(rest[0]) if len(rest) == 1 else None
    return table, keys[first], key
