"""Night movement (Chattanooga 17.2; revised 18.2): the sides in ``immobile_sides`` may not move at
all during a night Game-Turn; how the others are bound by enemy zones of control at night
(``may_exit_enemy_zoc``, ``may_enter_enemy_zoc``) replaces the standard rule (1975 10.2: neither
enter nor leave; revised 11.12).

    [exclusive.night_movement]
    immobile_sides = ["union"]

The 1975 17.2 lets the Confederates leave but not enter enemy zones of control at night: its block
present, ``may_exit_enemy_zoc`` (default true) is the 1975 rule's answer and entering is refused
(rules/procedures/night.py). Under the revised book the standard 11.12 applies unless the keys say otherwise
(rules/revised/movement.py ``zoc_rules``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.components.values import Component
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.state import State


class NightMovement(Component, frozen=True):
    immobile_sides: list[Side] = []
    may_exit_enemy_zoc: bool = True
    may_enter_enemy_zoc: bool = True

    def restriction(self, state: State, unit: str) -> RuleViolation | None:
        """17.2: no unit of an immobile side moves during a night Game-Turn (10.0)."""
        if state.turn not in state.game.scenario.night_turns:
            return None
        side = state.game.units[unit].side
        if side not in self.immobile_sides:
            return None
        return state.game.violation(
            "exclusive_night_movement",
            f"{state.game.designation(unit)} may not move: no {side.title()} unit may move during a night Game-Turn",
        )
