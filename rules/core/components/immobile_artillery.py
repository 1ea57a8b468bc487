"""Immobile artillery (Chattanooga 16.11-16.13; revised 19.11-19.13): one side's artillery may not
move, is eliminated instead of retreating, and may not advance after combat; the units named in
``except`` move normally (16.13: 1a Sherman).

    [exclusive.immobile_artillery]
    side = "union"
    except = ["us-sherman-art"]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core.components.values import Component, UnitId
from rules.core.scenario import Side, Unit

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.state import State


class ImmobileArtillery(Component, frozen=True):
    side: Side
    except_: list[UnitId] = msgspec.field(default_factory=list, name="except")

    def binds(self, unit: Unit) -> bool:
        """16.11, 16.13: is this one of the side's artillery units that may not be moved?"""
        return unit.type == "artillery" and unit.side == self.side and unit.id not in self.except_

    def restriction(self, state: State, unit: str) -> RuleViolation | None:
        """16.11: "may not be moved"."""
        u = state.game.units[unit]
        if not self.binds(u):
            return None
        return state.game.violation(
            "immobile_artillery", f"{u.designation} is {u.side.title()} artillery and may not be moved"
        )

    def retreat_eliminates(self, unit: Unit) -> bool:
        """16.11: "If forced to retreat due to combat, these artillery units are eliminated instead." A
        displacement (7.81: "moved back ... as if it were retreating") eliminates them too."""
        return self.binds(unit)

    def may_not_advance(self, unit: Unit) -> bool:
        """16.11: "These artillery units may not advance after combat in any attack." """
        return self.binds(unit)
