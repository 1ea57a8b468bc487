"""The scenario validator: everything that would make a scenario unplayable or wrong, found in the raw
TOML before anything is built, each problem with its file, line (or hex) and reason.

``check(files)`` returns every problem it finds (an empty list: the scenario is sound). The loader
refuses a scenario with problems by raising ``ScenarioError`` with all of them.
"""

from __future__ import annotations

from itertools import combinations, pairwise
from typing import get_args

from rules.core import terrain
from rules.core.components import battle, schema
from rules.core.components.trenches import Trenches
from rules.core.hexes import DIRECTIONS, Grid, HexError, hex_number, hexside, parse_hex
from rules.core.scenario import SIDES, UnitSize
from scenarios import bounds
from scenarios.source import Files, Problem, Source

RULESETS = ("classic", "revised")
UNIT_TYPES = ("infantry", "cavalry", "artillery", "gunboat")  # gunboat: revised 9.6 only
SCENARIO_KEYS = {
    "id", "name", "rulesets", "turns", "night_turns", "first_player", "provenance", "exclusive", "cases", "crt",
    "exclusive_overrides", "options", "map_file", "map_changes", "map_sheets",
}
OPTION_KEYS = {"title", "case", "units", "replaces", "exclusive"}
CRT_RESULTS = ("Ae", "Ar", "Dr", "De", "Ex")  # 7.6
MAP_KEYS = {"lower_columns", "columns", "rows", "lower_columns_rows", "column_rows", "hexes", "hexsides", "road", "trail", "areas", "levels"}
UNIT_KEYS = {"id", "side", "type", "strength", "designation", "hex", "arrives", "entry", "movement_allowance", "group", "command", "size"}
HEXSIDE_KEYS = {"features", "barbed", "high"}
PATHS = {"road": terrain.ROAD, "trail": terrain.TRAIL}  # 5.22, 5.23
IMPASSABLE = {
    terrain.RIVER: "a river hex (5.24)",
    terrain.FERRY: "a ferry hex (19.12)",
    terrain.PONTOON: "a pontoon hex (revised 6.28)",
}


def check(files: Files) -> list[Problem]:
    """Every problem of the scenario in ``files``."""
    problems = files.unreadable() or bounds.check(files)  # nothing is built from a number out of range
    if problems:
        return problems
    out: list[Problem] = []
    turns = _check_scenario(files.scenario, out)
    board = _check_map(files.map, out)
    _check_map_changes(files, out)
    units = _check_oob(files.oob, board, turns, out, _gunboat_setting(files.scenario), _interior_entry(files.scenario), _table_groups(files.scenario), _stacking_points(files.scenario), _set_aside(files.scenario), _symbolic(files.scenario), _stacking_units(files.scenario))
    if board is not None:
        _check_exclusive(files.scenario, board, units, out)
    return out


# -- map_file, map_changes (a second scenario on a battle's map: scenarios/source.py) -------------------
MAP_CHANGE_KEYS = {"where", "add", "except"}


def _check_map_changes(files: Files, out: list[Problem]) -> None:
    """``map_file`` is a string; each ``[[map_changes.hexside_features]]`` names a hexside feature, the
    features to add and, in ``except``, hexsides of the map that have that feature."""
    src, d = files.scenario, files.scenario.data
    if "map_file" in d and not (isinstance(d["map_file"], str) and d["map_file"].endswith("map.toml")):
        out.append(src.problem_at("map_file", "expected the path of another scenario's map.toml", key="map_file"))
    changes = d.get("map_changes")
    if changes is None:
        return
    where = "map_changes"
    if not isinstance(changes, dict) or set(changes) - {"hexside_features", "road"}:
        out.append(src.problem_at(where, "expected a table with hexside_features or road", table=where))
        return
    for i, road in enumerate(changes.get("road") or []):  # Grand Chancellorsville: a road across the seam
        if not isinstance(road, dict) or set(road) - {"name", "hexes"} or not isinstance(road.get("hexes"), list):
            out.append(src.problem_at(f"{where}.road[{i}]", "expected { name = text, hexes = [hexes] }", table=f"{where}.road", index=i + 1))
    hexsides = (files.map.data or {}).get("hexsides") or {}
    for i, change in enumerate(changes.get("hexside_features") or []):
        at = f"{where}.hexside_features[{i}]"
        if not isinstance(change, dict) or set(change) - MAP_CHANGE_KEYS or not isinstance(change.get("where"), str):
            out.append(src.problem_at(at, "expected { where = feature, add = [features], except = [hexsides] }", table=f"{where}.hexside_features", index=i + 1))
            continue
        if not isinstance(change.get("add"), list) or not all(f in terrain.HEXSIDE_FEATURES for f in change["add"]):
            out.append(src.problem_at(at, f"add: expected a list of hexside features ({', '.join(sorted(terrain.HEXSIDE_FEATURES))})", table=f"{where}.hexside_features", index=i + 1))
        for key in change.get("except") or []:
            side = hexsides.get(key)
            if not isinstance(side, dict) or change["where"] not in (side.get("features") or []):
                out.append(src.problem_at(at, f"except: {key!r} is no {change['where']} hexside of the map", table=f"{where}.hexside_features", index=i + 1))


# -- scenario.toml -----------------------------------------------------------------------------------
def _check_scenario(src: Source, out: list[Problem]) -> int | None:
    """The top of scenario.toml (14.3: who is first, how many Game-Turns, which are night). Returns
    the number of Game-Turns when it is sound."""
    d = src.data
    for key in sorted(set(d) - SCENARIO_KEYS):
        out.append(src.problem_at(f"key {key}", f"unknown key (expected one of: {', '.join(sorted(SCENARIO_KEYS))})", key=key))
    for key in ("id", "name"):
        if not isinstance(d.get(key), str) or not d.get(key):
            out.append(src.problem_at(f"key {key}", "missing or not a non-empty string", key=key))
    rulesets = d.get("rulesets")
    if not isinstance(rulesets, list) or not rulesets:
        out.append(src.problem_at("key rulesets", f"missing or empty: a list of rule sets ({', '.join(RULESETS)})", key="rulesets"))
    else:
        for r in rulesets:
            if r not in RULESETS:
                out.append(src.problem_at("key rulesets", f"unknown rule set {r!r} (known: {', '.join(RULESETS)})", key="rulesets"))
    turns = d.get("turns")
    if not _positive_int(turns):
        out.append(src.problem_at("key turns", "missing or not a whole number of Game-Turns of at least 1", key="turns"))
        turns = None
    nights = d.get("night_turns", [])
    if not isinstance(nights, list) or not all(_positive_int(n) for n in nights):
        out.append(src.problem_at("key night_turns", "not a list of Game-Turn numbers", key="night_turns"))
    elif turns is not None:
        for n in nights:
            if n > turns:
                out.append(src.problem_at("key night_turns", f"night Game-Turn {n} is after the last Game-Turn ({turns})", key="night_turns"))
    if d.get("first_player") not in SIDES:
        out.append(src.problem_at("key first_player", f"must be one of: {', '.join(SIDES)}", key="first_player"))
    for table in ("provenance", "cases"):
        if table in d and not isinstance(d[table], dict):
            out.append(src.problem_at(f"key {table}", "must be a table", key=table))
    for key, value in (d.get("provenance") or {}).items():
        if not isinstance(value, str):
            out.append(src.problem_at(f"provenance.{key}", "must be a string", table="provenance", key=key))
    for ruleset, cases in (d.get("cases") or {}).items():
        if ruleset not in RULESETS:
            out.append(src.problem_at(f"cases.{ruleset}", f"unknown rule set {ruleset!r}", table=f"cases.{ruleset}"))
        if not isinstance(cases, dict) or not all(isinstance(v, str) for v in cases.values()):
            out.append(src.problem_at(f"cases.{ruleset}", 'must map rule names to case numbers written as strings ("16.11")', table=f"cases.{ruleset}"))
    _check_battle(src, out)
    _check_crt(src, out)
    return turns


def _check_crt(src: Source, out: list[Problem]) -> None:
    """7.6: the Combat Results Table, when given: odds columns, six die rolls, one known result per
    column, and a provenance note."""
    crt = src.data.get("crt")
    if crt is None:
        return
    if not isinstance(crt, dict):
        out.append(src.problem_at("key crt", "must be a table", key="crt"))
        return
    columns = crt.get("columns")
    if not isinstance(columns, list) or not columns or not all(isinstance(c, str) and _odds(c) for c in columns):
        out.append(src.problem_at("crt.columns", 'must list the odds columns, like "1-5", "1-1", "6-1"', table="crt", key="columns"))
        return
    rows = crt.get("rows")
    if not isinstance(rows, dict) or sorted(rows) != [str(d) for d in range(1, 7)]:
        out.append(src.problem_at("crt.rows", "must have one row per die roll, 1 to 6", table="crt"))
        return
    for die, row in rows.items():
        if not isinstance(row, list) or len(row) != len(columns) or not all(r in CRT_RESULTS for r in row):
            out.append(
                src.problem_at(
                    f"crt.rows.{die}",
                    f"must give one result ({', '.join(CRT_RESULTS)}) for each of the {len(columns)} columns",
                    table="crt.rows",
                    key=die,
                )
            )
    if not isinstance(crt.get("provenance", ""), str) or not crt.get("provenance"):
        out.append(src.problem_at("crt.provenance", "say where the table comes from and how it was read", table="crt"))


def _odds(column: str) -> bool:
    a, sep, b = column.partition("-")
    return bool(sep) and a.isdigit() and b.isdigit() and "1" in (a, b)


# -- map.toml ----------------------------------------------------------------------------------------
class Board:
    """What the rest of the checks need from a map: the grid, every hex's terrain, every hexside's
    features (roads and trails included) and the areas."""

    def __init__(self, grid: Grid, hexes: dict[str, str]):
        self.grid = grid
        self.hexes = hexes
        self.features: dict[str, set[str]] = {}
        self.areas: dict[str, list[str]] = {}

    def on_edge(self, number: str) -> bool:
        """A map-edge hex: one of its six neighbours is not on the map."""
        return sum(1 for n in self.grid.neighbours(number) if n in self.hexes) < 6


def _check_map(src: Source, out: list[Problem]) -> Board | None:
    d = src.data
    for key in sorted(set(d) - MAP_KEYS):
        out.append(src.problem_at(f"key {key}", f"unknown key (expected one of: {', '.join(sorted(MAP_KEYS))})", key=key))
    lower = d.get("lower_columns")
    if lower not in ("even", "odd"):
        out.append(src.problem_at("key lower_columns", 'must be "even" or "odd": which columns sit half a hex lower (2.1)', key="lower_columns"))
        return None
    grid = Grid(lower)
    raw = d.get("hexes")
    if not isinstance(raw, dict) or not raw:
        out.append(src.problem_at("key hexes", 'missing: every hex of the map with its terrain, "XXYY" = "clear"', key="hexes"))
        return None
    hexes: dict[str, str] = {}
    for number, kind in raw.items():
        try:
            parse_hex(number)
        except HexError:
            out.append(src.problem_at(f"hex {number}", "is not a hex number: expected four digits XXYY (column, row)", table="hexes", key=number))
            continue
        if kind not in terrain.HEX_TERRAIN:
            out.append(src.problem_at(f"hex {number}", f"unknown terrain {kind!r} (known: {', '.join(sorted(terrain.HEX_TERRAIN))})", table="hexes", key=number))
        hexes[number] = kind
    board = Board(grid, hexes)
    _check_outline(src, board, out)
    _check_hexsides(src, board, out)
    _check_paths(src, board, out)
    _check_ferries(src, board, out)
    _check_areas(src, board, out)
    _check_levels(src, board, out)
    return board


def _bounds(src: Source, key: str, default: tuple[int, int], out: list[Problem]) -> tuple[int, int]:
    value = src.data.get(key)
    if value is None:
        return default
    if isinstance(value, list) and len(value) == 2 and all(_positive_int(v) or v == 0 for v in value) and value[0] <= value[1]:
        return value[0], value[1]
    out.append(src.problem_at(f"key {key}", "must be [first, last], two whole numbers", key=key))
    return default


def _check_outline(src: Source, board: Board, out: list[Problem]) -> None:
    """2.1: the map is a whole grid: every hex inside its outline is listed (no holes), none outside.

    The outline is ``columns`` × ``rows`` (by default the smallest rectangle holding every listed hex);
    ``lower_columns_rows`` gives the rows of the lower columns where a map cuts their last half hex;
    ``column_rows`` ({"22": [1, 24]}) the rows of a column whose map edge is cut shorter still (a sheet
    whose corner is off the map, as Chickamauga's south-east)."""
    parsed = [parse_hex(h) for h in board.hexes]
    cols = _bounds(src, "columns", (min(c for c, _ in parsed), max(c for c, _ in parsed)), out)
    rows = _bounds(src, "rows", (min(r for _, r in parsed), max(r for _, r in parsed)), out)
    lower_rows = _bounds(src, "lower_columns_rows", rows, out)
    shift = 0 if board.grid.lower_columns == "even" else 1
    cut = _column_rows(src, out)

    def rows_of(column: int) -> tuple[int, int]:
        if column in cut:
            return cut[column]
        return lower_rows if (column + shift) % 2 == 0 else rows

    for column in range(cols[0], cols[1] + 1):
        first, last = rows_of(column)
        for row in range(first, last + 1):
            number = hex_number(column, row)
            if number not in board.hexes:
                out.append(src.problem_at(
                    f"hex {number}",
                    f"is missing: the map has a hole (every hex of columns {cols[0]:02d}-{cols[1]:02d}, "
                    f"rows {first:02d}-{last:02d} must be listed with its terrain)",
                    table="hexes",
                ))
    for number in board.hexes:
        column, row = parse_hex(number)
        first, last = rows_of(column)
        if not (cols[0] <= column <= cols[1] and first <= row <= last):
            out.append(src.problem_at(f"hex {number}", f"is outside the map's outline (columns {cols[0]:02d}-{cols[1]:02d}, rows {first:02d}-{last:02d})", table="hexes", key=number))


def _column_rows(src: Source, out: list[Problem]) -> dict[int, tuple[int, int]]:
    """``column_rows``: {"CC": [first, last]}, the rows of the columns whose edge is cut."""
    value = src.data.get("column_rows")
    if value is None:
        return {}
    cut: dict[int, tuple[int, int]] = {}
    if isinstance(value, dict):
        for column, bounds in value.items():
            if (
                str(column).isdigit()
                and isinstance(bounds, list)
                and len(bounds) == 2
                and all(_positive_int(v) for v in bounds)
                and bounds[0] <= bounds[1]
            ):
                cut[int(column)] = (bounds[0], bounds[1])
                continue
            out.append(src.problem_at(f"column_rows {column}", 'must be "CC" = [first, last], two whole numbers', table="column_rows", key=str(column)))
        return cut
    out.append(src.problem_at("key column_rows", 'must be a table of columns, "CC" = [first, last]', key="column_rows"))
    return cut


def _side_hexes(key: str) -> tuple[str, str] | None:
    a, sep, b = key.partition("|")
    try:
        parse_hex(a)
        parse_hex(b)
    except HexError:
        return None
    return (a, b) if sep else None


def _check_hexsides(src: Source, board: Board, out: list[Problem]) -> None:
    """Hexside features: known names, between two adjacent hexes of the map; a bridge or ford only on a
    creek (5.25); a redoubt with its barbed hex, one of its two hexes (18.12)."""
    raw = src.data.get("hexsides") or {}
    if not isinstance(raw, dict):
        out.append(src.problem_at("key hexsides", 'must be a table: "AAAA|BBBB" = { features = [...] }', key="hexsides"))
        return
    for key, entry in raw.items():
        def problem(message: str, _key: str = key) -> None:
            out.append(src.problem_at(f"hexside {_key}", message, table="hexsides", key=_key))

        pair = _side_hexes(key)
        if pair is None:
            problem("is not a hexside: expected two hex numbers 'AAAA|BBBB'")
            continue
        a, b = pair
        if not isinstance(entry, dict) or not isinstance(entry.get("features"), list):
            problem("must be { features = [...] } (and barbed = \"XXYY\" for a redoubt)")
            continue
        for extra in sorted(set(entry) - HEXSIDE_KEYS):
            problem(f"unknown key {extra!r} (expected features, barbed, high)")
        off = [h for h in (a, b) if h not in board.hexes]
        if off:
            problem(f"{' and '.join(off)} {'is' if len(off) == 1 else 'are'} not on the map")
            continue
        if not board.grid.adjacent(a, b):
            problem(f"{a} and {b} are not adjacent (with {board.grid.lower_columns} columns lower): a hexside lies between two neighbouring hexes")
            continue
        name = hexside(a, b)
        if name in board.features:
            problem(f"is given twice (as {name} and {key})")
            continue
        features = entry["features"]
        unknown = [f for f in features if f not in terrain.HEXSIDE_FEATURES]
        if unknown:
            problem(f"unknown feature {unknown[0]!r} (known: {', '.join(sorted(terrain.HEXSIDE_FEATURES))})")
        for feature, needs in terrain.REQUIRES.items():
            if feature in features and needs not in features:
                problem(f"a {feature} needs a {needs} on the same hexside (5.25: creeks are crossed at bridges and fords)")
        barbed = entry.get("barbed")
        if terrain.REDOUBT in features:
            if barbed is None:
                problem("a redoubt needs barbed = the hex on its barbed (enemy) side (18.12)")
            elif barbed not in (a, b):
                problem(f"the barbed hex {barbed} is not one of the redoubt's two hexes {a} and {b} (18.12)")
        elif barbed is not None:
            problem("barbed is given but the hexside has no redoubt")
        crossed = {board.hexes[a], board.hexes[b]} & {terrain.FERRY, terrain.PONTOON}
        if terrain.FERRY_CROSSING in features and not crossed:
            problem("a ferry_crossing (a ferry's arrow, 19.11, or a pontoon's, revised 6.28) needs a ferry or pontoon hex on one side")
        board.features[name] = set(features)


def _check_paths(src: Source, board: Board, out: list[Problem]) -> None:
    """Roads and trails written as paths: hexes of the map, each next to the one before, never a river
    hex. Each step becomes a road (trail) hexside (5.22, 5.23)."""
    for kind, feature in PATHS.items():
        paths = src.data.get(kind) or []
        if not isinstance(paths, list):
            out.append(src.problem_at(f"key {kind}", f"write each {kind} as [[{kind}]] hexes = [...]", key=kind))
            continue
        for i, entry in enumerate(paths):
            label = f"{kind} {entry.get('name', i + 1)!s}" if isinstance(entry, dict) else f"{kind} {i + 1}"
            hexes = entry.get("hexes") if isinstance(entry, dict) else None
            if not isinstance(hexes, list) or len(hexes) < 2:
                out.append(src.problem_at(label, "needs hexes = [...] with at least two hexes", table=kind, index=i))
                continue
            for h in hexes:
                if h not in board.hexes:
                    out.append(src.problem_at(label, f"{h} is not on the map", table=kind, index=i, value=str(h)))
                elif board.hexes[h] == terrain.RIVER:
                    out.append(src.problem_at(label, f"{h} is a river hex; a {kind} cannot run through it", table=kind, index=i, value=h))
            for a, b in pairwise(hexes):
                if a in board.hexes and b in board.hexes:
                    if not board.grid.adjacent(a, b):
                        out.append(src.problem_at(label, f"{a} and {b} are not adjacent: a {kind} runs from hex to neighbouring hex", table=kind, index=i, value=b))
                    else:
                        board.features.setdefault(hexside(a, b), set()).add(feature)


def _check_ferries(src: Source, board: Board, out: list[Problem]) -> None:
    """19.11, 5.24: a ferry hex is a crossing of the river: river hexes on two opposite sides, and the
    arrows (ferry_crossing hexsides) through which it is entered and left. Revised 6.28 (Fredericksburg
    18.1: "Pontoons are identical in their use to river ferry hexes"): a pontoon hex likewise, its
    ferry_crossing hexsides the ones "to which the pontoon symbol connects"."""
    for number, kind in board.hexes.items():
        if kind not in (terrain.FERRY, terrain.PONTOON):
            continue
        what = "a ferry hex" if kind == terrain.FERRY else "a pontoon hex"
        q, r = board.grid.axial(number)
        around = []
        for dq, dr in DIRECTIONS:
            try:
                around.append(board.grid.number(q + dq, r + dr))
            except HexError:
                around.append(None)
        river = [board.hexes.get(h) == terrain.RIVER for h in around]
        if not any(river[i] and river[i + 3] for i in range(3)):
            out.append(src.problem_at(f"hex {number}", f"{what} must touch river hexes on two opposite sides (19.11)", table="hexes", key=number))
        arrows = [h for h in around if h and terrain.FERRY_CROSSING in board.features.get(hexside(number, h), ())]
        if len(arrows) < 2:
            out.append(src.problem_at(f"hex {number}", f"{what} needs two ferry_crossing hexsides, its arrows (19.11); found {len(arrows)}", table="hexes", key=number))


def _check_levels(src: Source, board: Board, out: list[Problem]) -> None:
    """Revised 2.4, 6.26: the level (1, 2 or 3) of hexes above level 1, by hex on the map."""
    raw = src.data.get("levels") or {}
    if not isinstance(raw, dict):
        out.append(src.problem_at("key levels", 'must be a table of "XXYY" = level', key="levels"))
        return
    for number, level in raw.items():
        if number not in board.hexes:
            out.append(src.problem_at(f"levels.{number}", "not a hex of the map", table="levels", key=number))
        if level not in terrain.LEVELS:
            out.append(src.problem_at(f"levels.{number}", "a level is 1, 2 or 3 (revised 2.4)", table="levels", key=number))


def _check_areas(src: Source, board: Board, out: list[Problem]) -> None:
    raw = src.data.get("areas") or {}
    if not isinstance(raw, dict):
        out.append(src.problem_at("key areas", "must be a table of name = [hexes]", key="areas"))
        return
    for name, hexes in raw.items():
        if not isinstance(hexes, list):
            out.append(src.problem_at(f"area {name}", "must be a list of hexes", table="areas", key=name))
            continue
        for h in hexes:
            if h not in board.hexes:
                out.append(src.problem_at(f"area {name}", f"{h} is not on the map", table="areas", key=name))
        board.areas[name] = list(hexes)


# -- oob.toml ----------------------------------------------------------------------------------------
def _gunboat_setting(src: Source) -> tuple[bool, frozenset[str]]:
    """(may the scenario have gunboats: not when it may be played under the 1975 rules, which have
    none; the extra hexes its gunboats may be in, ``[exclusive.gunboats] hexes``, 9.62)."""
    d = src.data
    rulesets = d.get("rulesets") if isinstance(d.get("rulesets"), list) else []
    block = (d.get("exclusive") or {}).get("gunboats") or {}
    extra = block.get("hexes", []) if isinstance(block, dict) else []
    return "classic" not in rulesets, frozenset(h for h in extra if isinstance(h, str))


def _stacking_units(src: Source) -> tuple[int, frozenset[str]]:
    """Road to Vicksburg 19.4: the units a hex may hold (``[exclusive.stacking] units``, else two, 6.32)
    and the sizes of which it holds at most one (``at_most_one``)."""
    block = (src.data or {}).get("exclusive", {}).get("stacking")
    block = block if isinstance(block, dict) else {}
    units = block.get("units")
    sizes = block.get("at_most_one")
    return (units if isinstance(units, int) else 2), frozenset(x for x in sizes if isinstance(x, str)) if isinstance(sizes, list) else frozenset()


def _stacking_points(src: Source) -> int | None:
    """Olustee 18.2: the Combat Strength Points a hex may hold (``[exclusive.stacking] strength_points``),
    or None (two units, 5.32, 6.32)."""
    block = (src.data or {}).get("exclusive", {}).get("stacking")
    points = block.get("strength_points") if isinstance(block, dict) else None
    return points if isinstance(points, int) else None


def _set_aside(src: Source) -> frozenset[str]:
    """The units set aside at the start, that enter play only by replacing another unit (Road to
    Vicksburg 16.2, 19.61: the "Out of Ammo" units, ``[exclusive.counterattack.depletion] out_of_ammo``)."""
    block = (src.data or {}).get("exclusive", {}).get("counterattack")
    depletion = block.get("depletion") if isinstance(block, dict) else None
    spares = depletion.get("out_of_ammo") if isinstance(depletion, dict) else None
    return frozenset(v for v in spares.values() if isinstance(v, str)) if isinstance(spares, dict) else frozenset()


def _symbolic(src: Source) -> frozenset[str]:
    """Road to Vicksburg 18.1, 18.2: the symbolic units (``[exclusive.symbolic_units] units``), of no
    Combat Strength and counted against no stacking limit."""
    block = (src.data or {}).get("exclusive", {}).get("symbolic_units")
    units = block.get("units") if isinstance(block, dict) else None
    return frozenset(u for u in units if isinstance(u, str)) if isinstance(units, list) else frozenset()


def _table_groups(src: Source) -> frozenset[str] | None:
    """The groups the Reinforcement Table names (``[exclusive.reinforcement_table] table``, Savage's
    Station 17.2: "A/a" is group A at entry point a); None when the table does not decode (its own
    problem is reported with the block)."""
    block = (src.data or {}).get("exclusive", {}).get("reinforcement_table")
    if not isinstance(block, dict):
        return frozenset()
    try:
        rows = block.get("table") or []
        return frozenset(c.split("/")[0] for row in rows for c in row if isinstance(c, str) and not c.startswith("-"))
    except (AttributeError, TypeError):
        return None


def _interior_entry(src: Source) -> frozenset[str]:
    """The entry hexes inside the map that the charts name (``[exclusive.reinforcements] interior_entry``:
    Road to Richmond 17.31, the Union corps that arrive in their lines at 0410 and 0412-0419)."""
    block = (src.data.get("exclusive") or {}).get("reinforcements") or {}
    hexes = block.get("interior_entry", []) if isinstance(block, dict) else []
    return frozenset(h for h in hexes if isinstance(h, str)) if isinstance(hexes, list) else frozenset()


def _gunboat_problems(u: dict, board: Board | None, setting: tuple[bool, frozenset[str]]) -> list[tuple[str, str | None]]:
    """Revised 9.6: what is wrong with a gunboat of the order of battle ((message, key) pairs)."""
    allowed, extra = setting
    out: list[tuple[str, str | None]] = []
    if not allowed:
        out.append(("is a gunboat, and the classic rule set (1975) has no gunboats (revised 9.6): list only \"revised\" in rulesets", "type"))
    if u.get("side") != "union":
        out.append(("is a gunboat: only the Union has gunboats (9.61)", "side"))
    if board is None:
        return out
    hexes = [u["hex"]] if "hex" in u else [h for h in u.get("entry") or [] if isinstance(h, str)]
    for h in hexes:
        if h in board.hexes and board.hexes[h] != terrain.RIVER and h not in extra:
            out.append((f"is a gunboat on {h}, {board.hexes[h]}: gunboats are only in river hexes and the hexes of [exclusive.gunboats] hexes (9.62)", "hex" if "hex" in u else "entry"))
    return out


def _check_oob(
    src: Source,
    board: Board | None,
    turns: int | None,
    out: list[Problem],
    gunboats: tuple[bool, frozenset[str]] = (False, frozenset()),
    interior_entry: frozenset[str] = frozenset(),
    table_groups: frozenset[str] | None = frozenset(),
    stacking_points: int | None = None,
    set_aside: frozenset[str] = frozenset(),
    symbolic: frozenset[str] = frozenset(),
    stacking_units: tuple[int, frozenset[str]] = (2, frozenset()),
) -> dict[str, dict]:
    """The order of battle (14.1, 14.2, 15.21): unique ids, known sides and types, each unit either on
    a hex it may occupy or arriving at entry hexes on the map edge; no more than two units in a hex
    (5.32) and no unit adjacent to an enemy at start. Returns the sound units by id."""
    d = src.data
    for key in sorted(set(d) - {"unit"}):
        out.append(src.problem_at(f"key {key}", "unknown key (each unit is a [[unit]] table)", key=key))
    raw = d.get("unit")
    if not isinstance(raw, list) or not raw:
        out.append(src.problem_at("key unit", "no units: write each as a [[unit]] table", key="unit"))
        return {}
    units: dict[str, dict] = {}
    first_line: dict[str, int | None] = {}
    placed: list[tuple[int, dict]] = []
    for i, u in enumerate(raw):
        uid = u.get("id")
        label = f"unit {uid}" if isinstance(uid, str) else f"unit #{i + 1}"

        def problem(message: str, key: str | None = None, value: str | None = None, _i: int = i, _label: str = label) -> None:
            out.append(src.problem_at(_label, message, table="unit", index=_i, key=key, value=value))

        for extra in sorted(set(u) - UNIT_KEYS):
            problem(f"unknown key {extra!r}", key=extra)
        if not isinstance(uid, str) or not uid:
            problem("needs an id, a string unique in the scenario")
            continue
        if uid in units or uid in first_line:
            problem(f"duplicate unit id {uid!r} (first at line {first_line[uid]}); designations may repeat, ids may not", key="id")
            continue
        first_line[uid] = src.line_of("unit", index=i, key="id")
        ok = True
        if u.get("side") not in SIDES:
            problem(f"side must be one of: {', '.join(SIDES)}", key="side")
            ok = False
        if u.get("type") not in UNIT_TYPES:
            problem(f"type must be one of: {', '.join(UNIT_TYPES)} (the charts' \"a\" is artillery, \"c\" cavalry)", key="type")
            ok = False
        gunboat = u.get("type") == "gunboat"
        if gunboat:
            for message, key in _gunboat_problems(u, board, gunboats):
                problem(message, key=key)
                ok = False
        if uid in symbolic:  # Road to Vicksburg 18.1: "The Train unit has no Combat Strength"
            if u.get("strength") != 0:
                problem("strength must be 0: a symbolic unit has no Combat Strength (exclusive.symbolic_units)", key="strength")
                ok = False
        elif not _positive_int(u.get("strength")):
            problem("strength must be a whole number of Strength Points, at least 1", key="strength")
            ok = False
        if not isinstance(u.get("designation"), str) or not u.get("designation"):
            problem("needs a designation, the name printed on the counter", key="designation")
            ok = False
        if "movement_allowance" in u and not _positive_int(u["movement_allowance"]):
            problem("movement_allowance must be a whole number of Movement Points", key="movement_allowance")
        if "command" in u and (not isinstance(u["command"], str) or not u["command"]):
            problem("command must be the name of the command the counter is marked with (Peachtree Creek 17.3)", key="command")
        if "size" in u and u["size"] not in get_args(UnitSize):
            problem(f"size must be one of: {', '.join(get_args(UnitSize))} (Road to Vicksburg 19.4)", key="size")
        has_hex, arrives = "hex" in u, u.get("arrives")
        if "group" in u:  # Savage's Station 17.1: brought by the Reinforcement Table
            group = u["group"]
            if has_hex or arrives is not None or "entry" in u:
                problem("a unit of a group of the Reinforcement Table (17.1) has no hex, arrives or entry: the table's roll gives them", key="group")
                ok = False
            elif not isinstance(group, str) or (table_groups is not None and group not in table_groups):
                known = ", ".join(sorted(table_groups or ())) or "none: the scenario has no [exclusive.reinforcement_table]"
                problem(f"group {group!r} is not a group of the Reinforcement Table (its groups: {known})", key="group")
                ok = False
        elif u.get("id") in set_aside:  # Road to Vicksburg 16.2, 19.61: set aside, enters by replacing a unit
            if has_hex or arrives is not None or "entry" in u:
                problem("a unit set aside at the start (it replaces another unit: [exclusive.counterattack]) has no hex, arrives or entry")
                ok = False
        elif has_hex == (arrives is not None):
            problem("needs either hex (deployed at start) or arrives and entry (a reinforcement), not both")
            ok = False
        elif has_hex:
            h = u["hex"]
            if board is not None and h not in board.hexes:
                problem(f"is deployed on {h}, which is not on the map", key="hex")
                ok = False
            elif board is not None and board.hexes[h] in IMPASSABLE and not gunboat:
                problem(f"is deployed on {h}, {IMPASSABLE[board.hexes[h]]}, which no unit may occupy", key="hex")
                ok = False
        else:
            if not _positive_int(arrives) or (turns is not None and arrives > turns):
                problem(f"arrives must be a Game-Turn from 1 to {turns}", key="arrives")
                ok = False
            entry = u.get("entry")
            if not isinstance(entry, list) or not entry:
                problem("a reinforcement needs entry = [hexes on the map edge]", key="entry")
                ok = False
            elif board is not None:
                for h in entry:
                    if h not in board.hexes:
                        problem(f"entry hex {h} is not on the map", value=str(h))
                        ok = False
                    elif gunboat:
                        pass  # 9.61, 9.62: a gunboat enters where its chart says, in its waters (checked above)
                    elif board.hexes[h] in IMPASSABLE:
                        problem(f"entry hex {h} is {IMPASSABLE[board.hexes[h]]}, which no unit may enter and stay in", value=h)
                        ok = False
                    elif not board.on_edge(h) and h not in interior_entry:
                        problem(f"entry hex {h} is not on the map edge (reinforcements enter from off the map, 15.0)", value=h)
                        ok = False
        if ok:
            units[uid] = u
            if has_hex:
                placed.append((i, u))
    if board is not None:
        _check_deployment(src, board, [(i, u) for i, u in placed if u["id"] not in symbolic], out, stacking_points, stacking_units)  # 18.2
    return units


def _check_deployment(
    src: Source, board: Board, placed: list[tuple[int, dict]], out: list[Problem], stacking_points: int | None = None,
    stacking_units: tuple[int, frozenset[str]] = (2, frozenset()),
) -> None:
    limit, one_of = stacking_units  # Road to Vicksburg 19.4
    by_hex: dict[str, list[tuple[int, dict]]] = {}
    for i, u in placed:
        by_hex.setdefault(u["hex"], []).append((i, u))
    for h, here in by_hex.items():
        if len({u["side"] for _, u in here}) > 1:
            i, u = here[-1]
            out.append(src.problem_at(f"unit {u['id']}", f"is deployed on {h} with an enemy unit (5.12)", table="unit", index=i, key="hex"))
        elif stacking_points is not None:  # Olustee 18.2: "Up to eight Combat Strength Points may stack in a hex"
            total = sum(u["strength"] for _, u in here if isinstance(u.get("strength"), int))
            if total > stacking_points:
                i, u = here[-1]
                ids = ", ".join(x["id"] for _, x in here)
                out.append(src.problem_at(f"unit {u['id']}", f"{total} Combat Strength Points start in {h} ({ids}); at most {stacking_points} may stack (18.2)", table="unit", index=i, key="hex"))
        elif len(here) > limit:
            i, u = here[-1]
            ids = ", ".join(x["id"] for _, x in here)
            most = "two" if limit == 2 else str(limit)
            out.append(src.problem_at(f"unit {u['id']}", f"{len(here)} units start in {h} ({ids}); at most {most} may stack (5.32)", table="unit", index=i, key="hex"))
        for size in sorted(one_of):
            alike = [(i, u) for i, u in here if u.get("size") == size]
            if len(alike) > 1:
                i, u = alike[-1]
                ids = ", ".join(x["id"] for _, x in alike)
                out.append(src.problem_at(f"unit {u['id']}", f"{len(alike)} units of size {size} start in {h} ({ids}); at most one may stack (Road to Vicksburg 19.4)", table="unit", index=i, key="hex"))
    for (_, u), (j, v) in combinations(placed, 2):
        if u["side"] != v["side"] and board.grid.adjacent(u["hex"], v["hex"]):
            out.append(src.problem_at(
                f"unit {v['id']}",
                f"starts on {v['hex']}, adjacent to the enemy unit {u['id']} on {u['hex']}: no unit may start in an enemy zone of control",
                table="unit", index=j, key="hex",
            ))


# -- the exclusive rules' parameters -----------------------------------------------------------------
def _check_battle(src: Source, out: list[Problem]) -> None:
    """The blocks of ``[exclusive]`` and of each ``[exclusive_overrides.<rule set>]`` (merged over the
    block of the same name) decode into the battle's components (rules/core/components): known names and
    keys, values of the right types. One problem for each block that does not."""
    d = src.data
    exclusive = d.get("exclusive", {})
    broken = _decode_blocks(src, exclusive, {}, "exclusive", out)
    _check_options(src, exclusive, broken, out)
    overrides = d.get("exclusive_overrides", {})
    if not isinstance(overrides, dict):
        _battle_problem(src, schema.BattleError(("exclusive_overrides",), "expected a table of rule sets"), out)
        return
    for ruleset, blocks in overrides.items():
        where = f"exclusive_overrides.{ruleset}"
        if ruleset not in RULESETS:
            out.append(src.problem_at(where, f"unknown rule set {ruleset!r}", table=where))
        elif ruleset not in (d.get("rulesets") or []):
            out.append(src.problem_at(where, f"the scenario does not list the rule set {ruleset!r}", table=where))
        base = {k: v for k, v in exclusive.items() if k not in broken} if isinstance(exclusive, dict) else {}
        _decode_blocks(src, blocks, base, where, out)


def _check_options(src: Source, exclusive, broken: set[str], out: list[Problem]) -> None:
    """The battle's optional rules (``[options.<name>]``, rules.core.scenario.ScenarioOption): a title
    and a case, and each of their blocks decodes merged over the battle's block of the same name."""
    options = src.data.get("options", {})
    if not isinstance(options, dict):
        out.append(src.problem_at("options", "expected a table of optional rules", table="options"))
        return
    base = {k: v for k, v in exclusive.items() if k not in broken} if isinstance(exclusive, dict) else {}
    for name, option in options.items():
        where = f"options.{name}"
        if not isinstance(option, dict):
            out.append(src.problem_at(where, "expected a table (title, case, units, replaces, exclusive)", table=where))
            continue
        for key in sorted(set(option) - OPTION_KEYS):
            out.append(src.problem_at(where, f"unknown key {key!r} (known: {', '.join(sorted(OPTION_KEYS))})", table=where))
        for key in ("title", "case"):
            if not isinstance(option.get(key), str):
                out.append(src.problem_at(where, f"{key}: expected a string", table=where))
        for key in ("units", "replaces"):
            if not isinstance(option.get(key, []), list):
                out.append(src.problem_at(where, f"{key}: expected a list of unit ids", table=where))
        _decode_blocks(src, option.get("exclusive", {}), base, f"{where}.exclusive", out)


def _decode_blocks(src: Source, blocks, base: dict, root: str, out: list[Problem]) -> set[str]:
    """Decode each block (merged over ``base``'s block of the same name); the names of those that fail."""
    if not isinstance(blocks, dict):
        try:
            schema.convert(blocks, battle.Battle, root)
        except schema.BattleError as e:
            _battle_problem(src, e, out)
        return set()
    failed = set()
    for name, block in blocks.items():
        merged = {**base[name], **block} if isinstance(base.get(name), dict) and isinstance(block, dict) else block
        try:
            schema.convert({name: merged}, battle.Battle, root)
        except schema.BattleError as e:
            _battle_problem(src, e, out)
            failed.add(name)
    return failed


def _battle_problem(src: Source, error: schema.BattleError, out: list[Problem]) -> None:
    out.append(Problem(src.name, _line(src, error.path), schema.where(error.path), error.reason))


def _line(src: Source, path: tuple[str | int, ...]) -> int | None:
    """The line of the deepest key of ``path`` found in the file: under its own ``[table]`` (or the
    n-th ``[[table]]``), else under a table that holds it inline; else the nearest table's header."""
    for i in range(len(path) - 1, 0, -1):
        key, head, index = path[i], list(path[:i]), None
        if not isinstance(key, str):
            continue
        if isinstance(head[-1], int):
            index = head.pop()
        if all(isinstance(p, str) for p in head):
            line = src.line_of(".".join(head), index=index, key=key)
            if line is not None:
                return line
    for i in range(len(path), 0, -1):
        if all(isinstance(p, str) for p in path[:i]) and (line := src.line_of(".".join(path[:i]))) is not None:
            return line
    return None


def _check_exclusive(src: Source, board: Board, units: dict[str, dict], out: list[Problem]) -> None:
    """What the components' types cannot say: the hexes, units and areas the exclusive rules name
    exist; the ferries are the map's ferry hexes; the trench markers are sound."""
    d = src.data
    roots = [("exclusive", d.get("exclusive"))]
    if isinstance(d.get("exclusive_overrides"), dict):
        roots += [(f"exclusive_overrides.{r}", blocks) for r, blocks in d["exclusive_overrides"].items()]
    options = d.get("options") if isinstance(d.get("options"), dict) else {}
    roots += [(f"options.{n}.exclusive", o.get("exclusive", {})) for n, o in options.items() if isinstance(o, dict)]
    known = {"hex": board.hexes, "unit": units, "area": board.areas}
    for n, o in options.items():  # the units an option brings into (or takes out of) play are units of the order of battle
        for key in ("units", "replaces"):
            for u in (o.get(key) if isinstance(o, dict) and isinstance(o.get(key), list) else []):
                if u not in units:
                    out.append(src.problem_at(f"options.{n}", f"names no unit of the order of battle: {u!r}", table=f"options.{n}"))
    for root, blocks in roots:
        for kind, path, value in schema.references(battle.Battle, blocks):
            if value in known[kind]:
                continue
            where = (*root.split("."), *path)
            while isinstance(where[-1], int):
                where = where[:-1]
            message = {
                "hex": f"{value} is not on the map",
                "unit": f"names no unit of the order of battle: {value!r}",
                "area": f"names no area of the map: {value!r}",
            }[kind]
            out.append(Problem(src.name, _line(src, where), schema.where(where), message))
    exclusive = d.get("exclusive") or {}
    if not isinstance(exclusive, dict):
        return
    _check_trenches(src, board, exclusive.get("trenches"), out)
    _check_exits_along_road(src, board, exclusive.get("exits"), out)
    _check_alternate_entry(src, units, exclusive.get("reinforcements"), out)
    _check_commands(src, units, exclusive.get("movement_allocation"), out)
    ferries = exclusive.get("ferries")
    if isinstance(ferries, dict) and isinstance(ferries.get("hexes"), list):
        listed = set(ferries["hexes"])
        actual = {h for h, t in board.hexes.items() if t == terrain.FERRY}
        for h in sorted(listed - actual):
            if h in board.hexes:
                out.append(src.problem_at("exclusive.ferries.hexes", f"{h} is {board.hexes[h]}, not a ferry hex, on the map", table="exclusive.ferries", key="hexes"))
        for h in sorted(actual - listed):
            out.append(src.problem_at("exclusive.ferries.hexes", f"the map's ferry hex {h} is not listed", table="exclusive.ferries", key="hexes"))


def _check_alternate_entry(src: Source, units: dict[str, dict], block, out: list[Problem]) -> None:
    """Road to Richmond 17.32 ("on hex 1301, or hex 1901 if occupied or in the Zone of Control of a
    Union unit"): an ``alternate_entry`` hex is an entry hex of some reinforcement, and every
    reinforcement that may enter there also has the hex its opening depends on among its entry hexes
    (else the condition never opens it, or opens it for a unit that could not have entered at the other)."""
    alternates = block.get("alternate_entry") if isinstance(block, dict) else None
    if not isinstance(alternates, list):
        return
    entries = {uid: u["entry"] for uid, u in units.items() if isinstance(u.get("entry"), list)}
    for alt in alternates:
        if not isinstance(alt, dict) or not isinstance(alt.get("hex"), str):
            continue  # the component's type reports it
        hex_, other = alt["hex"], alt.get("if_occupied_or_controlled")
        using = sorted(uid for uid, entry in entries.items() if hex_ in entry)
        where = "exclusive.reinforcements.alternate_entry"
        if not using:
            out.append(src.problem_at(where, f"{hex_} is no reinforcement's entry hex: no unit of the order of battle lists it in entry (17.32)", table="exclusive.reinforcements", key="alternate_entry"))
        for uid in using:
            if other not in entries[uid]:
                out.append(src.problem_at(where, f"{uid} may enter at {hex_} but does not list {other}, the hex whose occupation or control opens {hex_} (17.32)", table="exclusive.reinforcements", key="alternate_entry"))


def _check_exits_along_road(src: Source, board: Board, block, out: list[Problem]) -> None:
    """Road to Vicksburg 19.3: with ``along_road`` ("Such units must exit along a road"), each exit hex
    of ``hexes`` is a road hex of the map (a road hexside joins it to a neighbour)."""
    if not isinstance(block, dict) or block.get("along_road") is not True or not isinstance(block.get("hexes"), list):
        return
    for h in block["hexes"]:
        if h not in board.hexes:
            continue  # reported with the other hexes
        if not any(terrain.ROAD in board.features.get(hexside(h, n), ()) for n in board.grid.neighbours(h) if n in board.hexes):
            out.append(src.problem_at(
                "exclusive.exits.hexes",
                f"{h} is not a road hex: with along_road units must exit along a road (19.3), so each exit hex needs a road running through it on the map",
                table="exclusive.exits", key="hexes",
            ))


def _check_commands(src: Source, units: dict[str, dict], block, out: list[Problem]) -> None:
    """Peachtree Creek 17.3: where a side's units move by command allocations (``movement_allocation``
    limits with a ``command``) and no limit binds the whole side, each unit of the side is of one of those
    commands (its ``command`` in oob.toml: the colour its counter is marked with)."""
    if not isinstance(block, dict) or not isinstance(block.get("limits"), list):
        return
    limits = [lim for lim in block["limits"] if isinstance(lim, dict)]
    for side in {lim.get("side") for lim in limits if lim.get("command")}:
        if any(lim.get("side") == side and not lim.get("command") for lim in limits):
            continue
        commands = sorted({lim["command"] for lim in limits if lim.get("side") == side and lim.get("command")})
        for uid, u in units.items():
            if u.get("side") == side and u.get("command") not in commands:
                out.append(src.problem_at(
                    "exclusive.movement_allocation.limits",
                    f"unit {uid} has no command of {', '.join(commands)}: each {side} unit moves by its command's allocation (17.3)",
                    table="exclusive.movement_allocation", key="limits",
                ))


def _check_trenches(src: Source, board: Board, block, out: list[Problem]) -> None:
    """Revised 10.33, 10.39: ``[[exclusive.trenches.markers]]``, the Breastworks Markers of the Initial
    Deployment (Trenches): one in a hex (10.36), facing three contiguous adjacent hexes (10.34 ii); the
    1975 rules have no fieldworks. (Their keys and types: rules/core/components/trenches.py.)"""
    if block is None:
        return
    table = "exclusive.trenches"
    if "classic" in (src.data.get("rulesets") or []):
        out.append(src.problem_at(table, "the classic rule set (1975) has no Breastworks Markers: trench markers need rulesets = [\"revised\"] (10.33)", table=table))
    try:
        trenches = schema.convert(block, Trenches, table)
    except schema.BattleError:
        return  # reported by _check_battle
    seen: set[str] = set()
    for i, m in enumerate(trenches.markers):
        where = f"{table}.markers #{i + 1}"

        def problem(message: str, _where: str = where) -> None:
            out.append(src.problem_at(_where, message, table=table, key="markers"))

        if m.hex not in board.hexes:
            continue  # reported with the other hexes
        if m.hex in seen:
            problem(f"a second marker on {m.hex}: no more than one Breastworks Marker in a hex (10.36)")
        seen.add(m.hex)
        if isinstance(m.facing, str):
            continue  # a direction (Peachtree Creek 16.1 "facing south"): three contiguous hexsides
        ring = board.grid.neighbours(m.hex)
        contiguous = [tuple(ring[(j + k) % 6] for k in range(3)) for j in range(6)]
        if sorted(m.facing) not in [sorted(c) for c in contiguous]:
            problem(f"facing must be three contiguous hexes adjacent to {m.hex}, e.g. {list(contiguous[0])} (10.34 ii)")


def _positive_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1
