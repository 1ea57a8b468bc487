"""An army demoralized by its losses (Hooker and Lee 20.0, 21.3):

    [[exclusive.demoralization.armies]]
    side = "union"
    losses_above = 47                 # 20.11 i)
    raised = { units = ["us-1-i", "us-2-i", "us-3-i", "us-art-i"], out_of = "north_bank", losses_above = 58 }
    [[exclusive.demoralization.armies]]
    side = "confederate"
    losses_above = 52                 # 20.21

    [exclusive.demoralization]
    least_odds = "1-3"                # 20.12
    reduced = [{ side = "confederate", level = "Confederate Decisive Victory", to = "..." }, ...]

20.11: "If the Union Army suffers combat losses in excess of the following, it becomes Demoralized: i)
Before all I Corps units cross the river, 47 Combat Strength Points; or ii) After all I Corps units
cross the river, 58 Combat Strength Points." 20.21: the Confederate "in excess of 52".

An army's losses are the Combat Strength Points of its units eliminated (``state.eliminated``). It is
Demoralized while its losses exceed its limit: ``losses_above``, or, once every one of ``raised.units``
has arrived and stands on the map outside the area ``raised.out_of`` (20.11 ii): "After all I Corps units
cross the river"; kept for good in ``state.scored`` as ``demoralization_raised:<side>``),
``raised.losses_above``. So 20.15's recovery ("If all the Reinforcement units of Reynolds' I Corps arrive
and Union losses are lower than 59, the Union Player's units are recovered") follows from the raised
limit, and an army without ``raised`` never recovers (20.23). rules/mechanisms/demoralization.py records
each change after the command that made it (``ArmyDemoralized``: 20.13 "The effect of Demoralization is
immediate"), kept in ``state.scored`` as ``demoralized:<side>`` and ``demoralized_on:<side>:<Game-Turn>``.

Effects (20.12, 20.22): a Demoralized army's units may not advance after combat and may not voluntarily
attack at odds below ``least_odds`` (20.12 "less than 1:3"): a bombardment or a reduction of the odds
(8.9) to such a column is refused (case ``demoralization``); 20.14 an attack the rules require of them
(8.11, 8.12) at such odds "automatically receive[s] an Attacker Retreat combat result", from the
Game-Turn after the demoralization on (20.13: on its own Game-Turn such attacks "already scheduled ...
may be resolved"). 21.3: ``reduced`` lists, for each level of victory a side may win, the level one lower:
the level of the game when that side alone is Demoralized at the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core.components.values import AreaName, Component, Count, UnitId
from rules.core.scenario import Side, other_side

if TYPE_CHECKING:
    from rules.core.state import State

DEMORALIZED = "demoralized:"
ON = "demoralized_on:"
RAISED = "demoralization_raised:"
COLUMNS = ("1-5", "1-4", "1-3", "1-2", "2-3", "1-1", "3-2", "2-1", "3-1", "4-1", "5-1", "6-1")  # revised 8.6


class Raised(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """20.11 ii), 20.15: the limit once every one of ``units`` has crossed out of the area ``out_of``."""

    units: list[UnitId]
    out_of: AreaName
    losses_above: Count


class Army(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    side: Side
    losses_above: Count
    raised: Raised | None = None


class Reduced(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """21.3: ``side``'s victory ``level`` "is reduced by one Level" to ``to`` when it is Demoralized."""

    side: Side
    level: str
    to: str


class Demoralization(Component, frozen=True):
    armies: list[Army]
    least_odds: str = "1-3"
    reduced: list[Reduced] = []

    def __post_init__(self):
        if self.least_odds not in COLUMNS:
            raise ValueError(f"least_odds is a column of the Combat Results Table (8.6): one of {', '.join(COLUMNS)}")
        sides = [a.side for a in self.armies]
        if len(set(sides)) != len(sides):
            raise ValueError("one army per side")

    def army(self, side: str) -> Army | None:
        return next((a for a in self.armies if a.side == side), None)

    # -- the state ---------------------------------------------------------------------------------
    def losses(self, state: State, side: str) -> int:
        """20.11, 20.21: the Combat Strength Points of the side's units eliminated."""
        units = state.game.units
        return sum(units[u].strength for u in state.eliminated if units[u].side == side)

    def crossed(self, state: State, side: str) -> bool:
        """20.11 ii), 20.15: have all the units of ``raised`` arrived and crossed out of its area?"""
        army = self.army(side)
        if army is None or army.raised is None:
            return False
        if f"{RAISED}{side}" in state.scored:
            return True
        area = set(state.game.scenario.map.areas.get(army.raised.out_of, ()))
        return all(u in state.positions and state.positions[u] not in area for u in army.raised.units)

    def limit(self, state: State, side: str) -> int | None:
        """The losses the side's army may suffer without being Demoralized (None: no army)."""
        army = self.army(side)
        if army is None:
            return None
        if army.raised is not None and f"{RAISED}{side}" in state.scored:
            return army.raised.losses_above
        return army.losses_above

    def demoralized(self, state: State, side: str) -> bool:
        """20.13: the army's state as last recorded (``ArmyDemoralized``)."""
        return f"{DEMORALIZED}{side}" in state.scored

    def demoralized_before_this_turn(self, state: State, side: str) -> bool:
        """20.14: Demoralized on an earlier Game-Turn than this one."""
        if not self.demoralized(state, side):
            return False
        prefix = f"{ON}{side}:"
        return any(k.startswith(prefix) and int(k[len(prefix):]) < state.turn for k in state.scored)

    def below_least_odds(self, column: str) -> bool:
        """20.12: odds "of less than 1:3"."""
        return column in COLUMNS and COLUMNS.index(column) < COLUMNS.index(self.least_odds)

    # -- 21.3 ----------------------------------------------------------------------------------------
    def level_after(self, state: State, level: str) -> str:
        """21.3: "If one side or the other is Demoralized, but wins a victory, that Victory is reduced by
        one Level ... If both sides are Demoralized, there is no effect."""
        for r in self.reduced:
            if r.level == level and self.demoralized(state, r.side) and not self.demoralized(state, other_side(r.side)):
                return r.to
        return level
