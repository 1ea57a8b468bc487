"""The hexes a validator problem concerns, so that the editor can show it on the map: the hex or
hexside it is about, a unit's hex (or entry hexes), and any hex of the map its reason names."""

from __future__ import annotations

import re

from scenarios.document import Document
from scenarios.source import Problem

_HEX = re.compile(r"(?<![0-9])([0-9]{4})(?![0-9])")


def hexes_of(problem: Problem, document: Document) -> list[str]:
    """Every hex of the document's map the problem concerns, in the order found (none: the problem
    is about the whole scenario, a turn or a rule)."""
    on_map = document.map.hexes
    found: list[str] = []
    kind, _, what = problem.location.partition(" ")
    if kind == "unit":
        for u in document.oob.unit:
            if u.id == what:
                found += [u.hex] if u.hex else list(u.entry)
                break
    for text in (problem.location, problem.message):
        found += _HEX.findall(text)
    seen: list[str] = []
    for h in found:
        if h in on_map and h not in seen:
            seen.append(h)
    return seen
