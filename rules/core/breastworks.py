"""Breastworks Markers (revised 10.3), as the state holds them.

``state.breastworks`` maps a hex to its ``Breastworks`` marker (10.36: never more than one per hex):

- ``status`` "building": the Under Construction side (10.32, 10.34 i), placed on an infantry unit
  that did not move; "breastworks": flipped (10.34 ii) with its ``facing``, the three adjacent hexes
  whose hexsides it covers (10.34 ii, 10.38); "trench": placed at set-up (10.33, 10.39).
- ``side``: whose marker; ``unit``: the unit that built it; ``turn``: the Game-Turn it was begun.

Building and completing markers is rules/revised/movement.py; removing one by choice (10.37)
rules/revised/fieldworks.py; trenches and zones of control rules/queries/trenches.py; the combat
effects (10.38, 10.34 i, 10.35) are the combat rules'.
"""

from __future__ import annotations

import msgspec

BUILDING = "building"
BREASTWORKS = "breastworks"
TRENCH = "trench"


class Breastworks(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    status: str
    side: str
    unit: str | None = None
    turn: int = 0
    facing: tuple[str, ...] = ()

    def covers(self, from_hex: str) -> bool:
        """10.38: is an attack from ``from_hex`` through one of the marker's hexsides?"""
        return self.status != BUILDING and from_hex in self.facing
