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
Savage's Station 18.1, 18.2: ``by_die`` (six counts, die rolls 1-6: the Union Command Table, [3, 4, 5,
6, 7, 8]) instead of ``units``: "At the beginning of each Union Player Movement Phase, the Union Player
rolls a die and refers to the Union Command Table. The result is the number of units that the Union
Player may move during the Movement Phase"; ``per_enemy_groups`` (2): "For each two groups of
Confederate Reinforcements that have entered play, one is added to the Union Player's die roll" (the
groups the enemy's ``reinforcement_table`` has brought). The roll is ``MovementQuotaRolled``
(rules/procedures/phase_rolls.py), kept in ``state.scored`` as ``movement_quota_rolled:<turn>:<units>``.

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
- Savage's Station 18.2: a die roll raised above 6 by 18.1's additions reads the table's last row
  (6: eight units); a group "has entered play" when the Reinforcement Table brings it (17.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.components.values import Component, Count, HexNumber
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.state import State


ROLLED = "movement_quota_rolled:"


class MovementQuota(Component, frozen=True):
    side: Side
    units: Count | None = None  # required unless by_die gives the units (Savage's Station 18.2)
    bonus_units: Count = 0
    bonus_hex: HexNumber | None = None
    reinforcements_exempt_before_turn: Count = 0
    reinforcements_exempt: bool = False
    first_turn_units: Count | None = None
    lifted_by_enemy_crossing: list[str] = []
    lifted_by_enemy_occupying: list[HexNumber] = []
    by_die: list[Count] = []
    per_enemy_groups: Count = 0

    def __post_init__(self):
        if self.units is None and not self.by_die:
            raise ValueError("missing the required key 'units' (or by_die, a die roll's units)")
        if self.by_die and len(self.by_die) != 6:
            raise ValueError("by_die gives the units for each die roll, 1 to 6 (Savage's Station 18.2)")

    def to_roll(self, state: State) -> bool:
        """Savage's Station 18.1: is the Command Table's die still to be rolled in this Game-Turn's
        Movement Phase of the side (the caller asks in a Movement Phase)?"""
        return bool(self.by_die) and state.phasing == self.side and self.rolled(state) is None

    def die_modifier(self, state: State) -> int:
        """18.1: one added for each two groups of enemy reinforcements that have entered play."""
        table = state.game.battle.reinforcement_table
        if not self.per_enemy_groups or table is None or table.side == self.side:
            return 0
        return len(table.brought(state)) // self.per_enemy_groups

    def by_roll(self, modified: int) -> int:
        """18.2: the units the Command Table gives for a (modified) die roll; above 6, the last row."""
        return self.by_die[min(max(modified, 1), 6) - 1]

    def rolled(self, state: State) -> int | None:
        """18.1: the units this Game-Turn's roll gave, or None before the roll."""
        prefix = f"{ROLLED}{state.turn}:"
        for key in state.scored:
            if key.startswith(prefix):
                return int(key[len(prefix):])
        return None

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
        if self.by_die:  # Savage's Station 18.1: the Command Table's roll (before it, no move is made)
            units = self.rolled(state)
            if units is None:
                return None
        else:
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
