"""A movement quota (Chattanooga 17.11-17.15; revised 18.11-18.15): no more than ``units`` of the
side move in one Movement Phase, ``bonus_units`` more while the side controls ``bonus_hex`` (17.14);
its reinforcements do not count before Game-Turn ``reinforcements_exempt_before_turn`` (17.12).
Antietam 20.1: ``first_turn_units`` on Game-Turn One ("He may move only fifteen units on Game-Turn
One"); ``lifted_by_enemy_crossing`` (hexside features, ["creek"]): "All movement restrictions are
permanently removed ... in the Union Player-Turn following the movement of any Confederate unit across
a creek hex side" (rules/procedures/restrictions.py records the crossing: ``state.released``).
Hooker and Lee 19.12: ``reinforcements_exempt`` (true): "Union Reinforcements arriving on Game-Turns Four
and Five are not subject to or affected by this restriction at any time during the game".
Fredericksburg 19.0: ``lifted_by_enemy_occupying`` (hexes, ["0206"]): "This restriction is lifted if a
Confederates unit occupies Burnside's headquarters (hex 0206), either due to movement, or retreat or
advance" (occupation, 21.21; lifted for good at once, the same ``state.released``).

    [exclusive.movement_quota]
    side = "union"
    units = 11
    bonus_units = 7
    bonus_hex = "1025"
    reinforcements_exempt_before_turn = 5

Rulings (docs/RULINGS.md):
- 17.14, taking the bonus hex mid-phase: the quota is checked at each move against control at that
  moment, so a Union unit that moves into 1025 gives the seven extra moves at once; the move that
  takes it is one of the eleven.
- 17.12: a reinforcement's entry onto the map is a move; before the exempt Game-Turn it does not
  count, from then on it counts like any other unit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.components.values import Component, Count, HexNumber
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.state import State


class MovementQuota(Component, frozen=True):
    side: Side
    units: Count
    bonus_units: Count = 0
    bonus_hex: HexNumber | None = None
    reinforcements_exempt_before_turn: Count = 0
    reinforcements_exempt: bool = False
    first_turn_units: Count | None = None
    lifted_by_enemy_crossing: list[str] = []
    lifted_by_enemy_occupying: list[HexNumber] = []

    def tracked_hexes(self) -> tuple[str, ...]:
        """17.14, 17.15: the bonus hex's control is tracked; Fredericksburg 19.0: the hexes whose
        occupation by the enemy lifts the quota."""
        return (() if self.bonus_hex is None else (self.bonus_hex,)) + tuple(self.lifted_by_enemy_occupying)

    def counts(self, state: State, unit: str) -> bool:
        """17.11, 17.12: does moving this unit use one of its side's quota?"""
        u = state.game.units[unit]
        if u.side != self.side:
            return False
        if u.arrives is not None and self.reinforcements_exempt:  # Hooker and Lee 19.12: "at any time"
            return False
        return not (u.arrives is not None and state.turn < self.reinforcements_exempt_before_turn)

    def _holds_bonus(self, state: State) -> bool:
        return self.bonus_hex is not None and state.control.get(self.bonus_hex) == self.side

    def quota(self, state: State, side: str) -> int | None:
        """How many units ``side`` may move this Movement Phase as things stand (17.11, 17.14), or
        None when the quota does not bind it."""
        if side != self.side or side in state.released:  # Antietam 20.1: removed for good
            return None
        units = self.first_turn_units if state.turn == 1 and self.first_turn_units is not None else self.units
        return units + self.bonus_units if self._holds_bonus(state) else units

    def used(self, state: State) -> int:
        """17.11: the units of the side that have moved this Movement Phase and count."""
        return sum(1 for u in state.moved if self.counts(state, u))

    def remaining(self, state: State, side: str) -> int | None:
        """How many more units ``side`` may move this Movement Phase, or None (no quota binds it)."""
        q = self.quota(state, side)
        return None if q is None else q - self.used(state)

    def restriction(self, state: State, unit: str) -> RuleViolation | None:
        """17.11, 17.14: refuse a move beyond the quota."""
        if not self.counts(state, unit):
            return None
        side = self.side
        used = self.used(state)
        quota = self.quota(state, side)
        if quota is None or used < quota:
            return None
        with_bonus = self._holds_bonus(state)
        bonus = self.bonus_hex
        if with_bonus:
            extra = f" ({self.units} and {self.bonus_units} more while holding {bonus})"
        elif bonus:
            extra = f"; {self.bonus_units} more while the {side.title()} controls {bonus}"
        else:
            extra = ""
        return state.game.violation(
            "movement_quota.bonus" if with_bonus else "movement_quota",
            f"{state.game.designation(unit)} may not move: the {side.title()} player has already moved "
            f"{used} units this Movement Phase, his limit{extra}",
        )
