"""Symbolic units (Road to Vicksburg 18.0-18.3, the Union "Train" unit: "a symbolic unit representative of
the various hospital units, supply dumps, reserve ammunition trains and other rear echelon tail
organizations"). Not Chickamauga's trains (the ``trains`` component: a train there never stacks and
retreats when beside an enemy unit); what they share, moving only along roads (18.4), is that
component's ``road_only``.

    [exclusive.symbolic_units]
    units = ["us-train"]
    bombarded = { side = "confederate", points = 5 }
    moved = { side = "confederate", points = 5 }

What a symbolic unit is, case by case (the rules that read this component cite them):
- 18.1 "no Combat Strength; it may never attack and has no Defence Strength": it never attacks
  (rules/procedures/combat.py) and adds nothing to its hex's defence (rules/revised/combat_procedures.py
  ``strengths``); "If forced to retreat after a combat, it is eliminated" (``Battle.retreat_eliminates``);
  "cannot be eliminated solely by artillery bombardment": an attack by bombardment alone leaves it where
  it is, neither eliminated nor retreated (``apply_result``; docs/RULINGS.md);
- 18.2 "may stack with any other unit and does not count against the stacking limit in a hex. A
  Friendly unit may move through the Train unit's hex as normal": it counts for no stacking limit
  (rules/queries/stacking.py);
- 18.3 "no Zone of Control" (rules/queries/zoc.py); "If the Train unit is in an Enemy Zone of Control at
  any time while not stacked with a Friendly unit, it is eliminated": after any command
  (rules/procedures/symbolic.py).
- Road to Vicksburg 21.3, to the enemy: ``bombarded`` "for each Game-Turn the Union Train unit is
  bombarded by Confederate artillery" (an attack with bombarding artillery on its hex, once a Game-Turn),
  ``moved`` "if the Union Train unit moves from its set-up hex" (once).
"""

from __future__ import annotations

import msgspec

from rules.core.components.values import Component, Count, UnitId
from rules.core.scenario import Side


class Award(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """21.3: ``points`` to ``side``."""

    side: Side
    points: Count


class SymbolicUnits(Component, frozen=True):
    units: list[UnitId]
    bombarded: Award | None = None  # 21.3: each Game-Turn it is bombarded
    moved: Award | None = None  # 21.3: if it moves from its set-up hex

    def __post_init__(self):
        if not self.units:
            raise ValueError("give the symbolic units (Road to Vicksburg 18.0: the Union Train)")

    def binds(self, unit_id: str) -> bool:
        return unit_id in self.units
