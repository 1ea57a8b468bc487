"""Battle templates: a scenario folder whose missing items are marked unknown, never guessed, and the
owner-supplied ``setup.toml`` that completes one into a playable scenario (docs/SCENARIOS.md,
"Templates").

A template's ``scenario.toml`` has a ``[template]`` table: ``[[template.missing]]`` entries (``item``:
``"map"`` for the whole map sheet, ``"units.union"`` / ``"units.confederate"`` for a side's order of
battle; ``reason``: why the text does not give it) and ``hexes``, every hex the text names with what it
says of it (the supplied map must hold each). In ``oob.toml`` a unit's field the text does not give is
``"?"`` (``hex``, ``strength``, ``type``, ``arrives``, ``entry``, ``command``), with its reason in the unit's
``unknown`` table: ``strength = "?"`` and ``unknown = { strength = "the OCR lost it" }``. A template
has no ``map.toml`` when its missing list names ``map``.

``setup.toml`` (beside the template, or given to ``bluegray scenario complete``) supplies them:
``[map]`` (what ``map.toml`` holds, under ``map.``), ``[[unit]]`` tables (a template unit's id fills its
``"?"`` fields; a new id adds a unit of a side whose order of battle is missing) and an optional
``provenance`` string (where the owner's data comes from).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from scenarios import validate
from scenarios.source import FILES, DataSource, Files, Problem, Source

UNKNOWN = "?"
SETUP = "setup.toml"
#: The fields of a unit that a template may leave unknown.
UNIT_FIELDS = ("hex", "strength", "type", "arrives", "entry", "command")
TEMPLATE_KEYS = {"missing", "hexes", "areas", "note"}
SETUP_KEYS = {"map", "unit", "provenance"}
WHOLE_ITEMS = ("map", "units.union", "units.confederate")


class Missing(tuple):
    """One item a template still needs: (what, reason)."""

    def __new__(cls, what: str, reason: str):
        return super().__new__(cls, (what, reason))

    @property
    def what(self) -> str:
        return self[0]

    @property
    def reason(self) -> str:
        return self[1]

    def __str__(self) -> str:
        return f"{self[0]}: {self[1]}"


def is_template(folder: Path) -> bool:
    """The folder's scenario.toml has a ``[template]`` table."""
    return isinstance((Files(folder).scenario.data or {}).get("template"), dict)


def template_hash(folder: Path) -> str:
    """SHA-256 of the template's own files (not the setup): the completed scenario names it."""
    h = hashlib.sha256()
    for name in FILES:
        try:
            data = (folder / name).read_bytes()
        except OSError:
            data = b""
        h.update(f"{name}:{len(data)}:".encode())
        h.update(data)
    return h.hexdigest()


def _template_table(files: Files) -> dict:
    return (files.scenario.data or {}).get("template") or {}


def check(folder: Path) -> tuple[list[Problem], list[Missing]]:
    """A template's problems (an ill-formed template) and every item it still needs, each with its reason."""
    files = Files(folder)
    out: list[Problem] = []
    if files.scenario.problem:
        return [files.scenario.problem], []
    table = _template_table(files)
    src = files.scenario
    for key in sorted(set(table) - TEMPLATE_KEYS):
        out.append(src.problem_at(f"template.{key}", f"unknown key (known: {', '.join(sorted(TEMPLATE_KEYS))})", table="template"))
    declared: dict[str, str] = {}
    for i, entry in enumerate(table.get("missing") or []):
        item, reason = (entry.get("item"), entry.get("reason")) if isinstance(entry, dict) else (None, None)
        if item not in WHOLE_ITEMS or not isinstance(reason, str) or not reason:
            out.append(src.problem_at(f"template.missing #{i + 1}", f"needs item (one of: {', '.join(WHOLE_ITEMS)}) and a reason", table="template"))
            continue
        declared[item] = reason
    hexes = table.get("hexes") or {}
    if not isinstance(hexes, dict) or not all(isinstance(v, str) for v in hexes.values()):
        out.append(src.problem_at("template.hexes", 'must map each hex the text names to what it says: "1207" = "Groveton (18.0)"', table="template.hexes"))
        hexes = {}
    areas = table.get("areas") or {}
    if not isinstance(areas, dict) or not all(isinstance(v, str) for v in areas.values()):
        out.append(src.problem_at("template.areas", "must map each area the rules need to what it is", table="template.areas"))
        areas = {}
    scenario = DataSource(src.name, {k: v for k, v in src.data.items() if k != "template"}, lambda t, i, k, v: src.line_of(t, index=i, key=k, value=v))
    turns = validate._check_scenario(scenario, out)
    missing: list[Missing] = []
    board = None
    if "map" in declared:
        if files.map.problem is None:
            out.append(files.map.problem_at("map.toml", "the template lists the map as missing, yet has a map.toml: drop one of them"))
        missing.append(Missing("map", declared["map"] + _hexes_note(hexes)))
        for name, what in areas.items():
            missing.append(Missing(f"map area {name}", what))
    elif files.map.problem:
        out.append(files.map.problem)
    else:
        board = validate._check_map(files.map, out)
        for h in hexes:
            if board is not None and h not in board.hexes:
                out.append(src.problem_at(f"template.hexes {h}", f"{h} is not on the map", table="template.hexes", key=h))
        for name in areas:
            if board is not None and name not in board.areas:
                out.append(src.problem_at(f"template.areas {name}", "is not an area of the map", table="template.areas", key=name))
    for side in ("union", "confederate"):
        if f"units.{side}" in declared:
            missing.append(Missing(f"units {side}", declared[f"units.{side}"]))
    if files.oob.problem:
        if not declared.keys() & {"units.union", "units.confederate"}:
            out.append(files.oob.problem)
        return out, missing
    known, complete = [], []
    for i, u in enumerate(files.oob.data.get("unit") or []):
        unknown = u.get("unknown") if isinstance(u, dict) else None
        if unknown is None:
            complete.append(u)
            continue
        known.append(u)
        label = f"unit {u.get('id')}"
        fields = {k for k in UNIT_FIELDS if u.get(k) == UNKNOWN}
        if not isinstance(unknown, dict) or not all(isinstance(r, str) and r for r in unknown.values()):
            out.append(files.oob.problem_at(label, "unknown must map each field given as \"?\" to the reason it is unknown", table="unit", index=i, key="unknown"))
            continue
        for k in sorted(fields - set(unknown)):
            out.append(files.oob.problem_at(label, f"{k} is \"?\" without a reason in unknown", table="unit", index=i, key=k))
        for k in sorted(set(unknown) - fields):
            out.append(files.oob.problem_at(label, f"unknown names {k!r}, which is not \"?\"", table="unit", index=i, key="unknown"))
        for k in sorted(fields & set(unknown)):
            missing.append(Missing(f"unit {u.get('id')} {k}", unknown[k]))
        if u.get("side") not in validate.SIDES or not isinstance(u.get("id"), str):
            out.append(files.oob.problem_at(label, "needs an id and a side even in a template", table="unit", index=i))
    if complete:
        oob = DataSource(files.oob.name, {"unit": complete})
        validate._check_oob(oob, board, turns, out, validate._gunboat_setting(scenario), validate._interior_entry(scenario), validate._table_groups(scenario), validate._stacking_points(scenario), validate._set_aside(scenario))
    return out, missing


def _hexes_note(hexes: dict) -> str:
    if not hexes:
        return ""
    return "; it must hold the hexes the text names: " + "; ".join(f"{h} {what}" for h, what in hexes.items())


def completed_files(folder: Path, setup_path: Path) -> tuple[Files, list[Problem]]:
    """The template in ``folder`` merged with the owner's ``setup_path``: sources the validator checks as
    a scenario, and the problems of the merge itself (an item supplied that was not missing, an item
    still missing)."""
    files = Files(folder)
    setup = Source(setup_path)
    out: list[Problem] = []
    if setup.problem:
        return files, [setup.problem]
    table = _template_table(files)
    declared = {e.get("item") for e in (table.get("missing") or []) if isinstance(e, dict)}
    for key in sorted(set(setup.data) - SETUP_KEYS):
        out.append(setup.problem_at(f"key {key}", f"unknown key (a setup supplies: {', '.join(sorted(SETUP_KEYS))})", key=key))
    # scenario.toml: the template's, without [template], naming the template it completes
    s = {k: v for k, v in files.scenario.data.items() if k != "template"}
    provenance = dict(s.get("provenance") or {})
    provenance["template"] = f"completes the template {s.get('id')} (sha256 {template_hash(folder)})"
    if isinstance(setup.data.get("provenance"), str):
        provenance["setup"] = setup.data["provenance"]
    s["provenance"] = provenance
    src = files.scenario
    scenario = DataSource(src.name, s, lambda t, i, k, v: src.line_of(t, index=i, key=k, value=v))
    # map.toml: the template's, or the setup's [map]
    supplied_map = setup.data.get("map")
    if "map" in declared:
        if not isinstance(supplied_map, dict):
            out.append(Problem(setup.name, None, "map", "still missing: the setup must supply [map] (" + _reason(table, "map") + ")"))
            supplied_map = {}
        board = DataSource(f"{setup.name} [map]", supplied_map,
                         lambda t, i, k, v: setup.line_of(f"map.{t}" if t else "map", index=i, key=k, value=v))
    else:
        if supplied_map is not None:
            out.append(setup.problem_at("map", "the template has its map: a setup may not replace it", table="map"))
        board = files.map
    # oob.toml: the template's units, their "?" filled; then the units the setup adds
    template_units = list((files.oob.data or {}).get("unit") or []) if files.oob.problem is None else []
    by_id = {u.get("id"): i for i, u in enumerate(template_units) if isinstance(u, dict)}
    merged: list[dict] = [{k: v for k, v in u.items() if k != "unknown"} for u in template_units]
    origin: list[tuple[Source, int]] = [(files.oob, i) for i in range(len(merged))]
    for j, u in enumerate(setup.data.get("unit") or []):
        uid = u.get("id") if isinstance(u, dict) else None
        if uid in by_id:
            i = by_id[uid]
            for k, v in u.items():
                if k == "id":
                    continue
                if merged[i].get(k) != UNKNOWN:
                    out.append(setup.problem_at(f"unit {uid}", f"{k} is given by the template; a setup supplies only what is \"?\"", table="unit", index=j, key=k))
                    continue
                merged[i][k] = v
            origin[i] = (setup, j)
            continue
        side = u.get("side") if isinstance(u, dict) else None
        if f"units.{side}" not in declared:
            out.append(setup.problem_at(f"unit {uid}", f"the template's {side} order of battle is not missing: a setup may not add units to it", table="unit", index=j))
            continue
        merged.append(u)
        origin.append((setup, j))
    for i, u in enumerate(merged):
        for k in UNIT_FIELDS:
            if u.get(k) == UNKNOWN:
                reason = template_units[i].get("unknown", {}).get(k, "")
                out.append(setup.problem_at(f"unit {u.get('id')}", f"still missing: {k} ({reason})", table="unit"))
                u.pop(k)
        if u.get("hex") is None:
            u.pop("hex", None)
    for side in ("union", "confederate"):
        if f"units.{side}" in declared and not any(u.get("side") == side for u in merged):
            out.append(Problem(setup.name, None, f"units {side}", "still missing: the setup adds no unit of this side (" + _reason(table, f"units.{side}") + ")"))

    def oob_line(t, i, k, v):
        if t == "unit" and i is not None and i < len(origin):
            source, j = origin[i]
            return source.line_of(t, index=j, key=k, value=v)
        return None

    oob = DataSource(f"{files.oob.name} + {setup.name}", {"unit": merged}, oob_line)
    completed = Files.__new__(Files)
    completed.folder = folder
    completed.scenario, completed.map, completed.oob = scenario, board, oob
    return completed, out


def _reason(table: dict, item: str) -> str:
    for e in table.get("missing") or []:
        if isinstance(e, dict) and e.get("item") == item:
            return str(e.get("reason", ""))
    return ""
