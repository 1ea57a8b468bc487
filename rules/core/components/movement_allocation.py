"""How many units a side (or one of its commands) may move each Game-Turn, a number fixed, set per
Game-Turn or rolled on a table (the Atlanta Campaign's Movement Restrictions):

- Peachtree Creek 17.3, 17.4: "The Confederate Player rolls the die once for Stewart's command (marked
  in blue) and once for Hardee's command (marked in red) at the beginning of each Friendly Movement
  Phase and may move the indicated number of units during that Movement Phase. Units that are in an
  Enemy Zone of Control do not count against these allocations. Allocations may not be transferred
  from Stewart to Hardee or vice versa; allocations may not be saved from one Game-Turn for use on a
  later Game-Turn." (``by_die``, ``command``, ``enemy_zoc_exempt``)
- Atlanta 17.2: "Each Player may move no more than twelve units each Game-Turn." (``units``, one
  limit per side)
- Jonesborough 17.2: "This number is determined by subtracting the number of the current Game Turn
  from nineteen." (``by_turn``: 18, 17, ... on Game-Turns One, Two, ...)

    [[exclusive.movement_allocation.limits]]
    side = "confederate"
    command = "Stewart"                   # the units whose counter is marked so (oob.toml command)
    by_die = [{ turns = [1], units = [4, 4, 5, 5, 6, 7] }, { turns = [2, 3, 4, 5, 6], units = [3, 3, 4, 4, 5, 6] }]
    enemy_zoc_exempt = true

Each limit binds the units of ``side`` (of ``command`` only, when given); give exactly one of
``units``, ``by_turn`` and ``by_die``. A move beyond the limit is refused (case
``movement_allocation``). Nothing is carried over: the count is of the units moved in the Movement
Phase (one a Game-Turn for each side). The die of a ``by_die`` limit (``units`` by die roll 1-6) is
rolled at the beginning of the side's Movement Phase (``AllocationRolled``; rules/procedures/allocation.py
``roll_at_start``, a rule set's ``phase_rolls``: as the phase begins, or by the game's first command). With
``enemy_zoc_exempt``, a unit that starts its move in an enemy zone of control does not count
(rules/procedures/allocation.py records it). The state keeps the roll and the exempt units in
``state.scored`` (``allocation:<Game-Turn>:<limit>:<units>``, ``allocation_exempt:<Game-Turn>:<unit>``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import msgspec

from rules.core.components.values import Component, Count
from rules.core.scenario import Side, Unit

if TYPE_CHECKING:
    from rules.core.state import State

ROLLED = "allocation:"
EXEMPT = "allocation_exempt:"


class DieTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Peachtree Creek 17.4: on these Game-Turns, the number of units by die roll (1 to 6)."""

    turns: list[Count]
    units: Annotated[list[Count], msgspec.Meta(min_length=6, max_length=6)]


class Limit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    side: Side
    command: str | None = None
    units: Count | None = None
    by_turn: list[Count] = []
    by_die: list[DieTable] = []
    enemy_zoc_exempt: bool = False

    def __post_init__(self) -> None:
        given = [k for k in ("units", "by_turn", "by_die") if getattr(self, k) not in (None, [])]
        if len(given) != 1:
            raise ValueError("give exactly one of units, by_turn and by_die")

    def binds(self, unit: Unit) -> bool:
        return unit.side == self.side and (self.command is None or unit.command == self.command)

    def die_table(self, turn: int) -> DieTable | None:
        return next((t for t in self.by_die if turn in t.turns), None)

    def name(self) -> str:
        return f"{self.command}'s command" if self.command else f"the {self.side.title()} player"


class MovementAllocation(Component, frozen=True):
    limits: list[Limit]

    def limit_of(self, unit: Unit) -> int | None:
        """The index of the limit that binds ``unit`` (the first that does), or None."""
        return next((i for i, lim in enumerate(self.limits) if lim.binds(unit)), None)

    def rolled(self, state: State, index: int) -> int | None:
        """17.4: the number the die gave this Game-Turn for the limit, or None (not rolled yet)."""
        prefix = f"{ROLLED}{state.turn}:{index}:"
        return next((int(k[len(prefix):]) for k in state.scored if k.startswith(prefix)), None)

    def allowed(self, state: State, index: int) -> int | None:
        """17.2, 17.4: how many of the limit's units may move this Game-Turn; None: the die is still to
        be rolled. A Game-Turn past a ``by_turn`` list or without a die table: no limit (the largest
        number, never reached)."""
        lim = self.limits[index]
        if lim.units is not None:
            return lim.units
        if lim.by_turn:
            return lim.by_turn[state.turn - 1] if state.turn <= len(lim.by_turn) else 10**6
        if lim.die_table(state.turn) is None:
            return 10**6
        return self.rolled(state, index)

    def counts(self, state: State, unit: str) -> bool:
        """17.3: a unit moved this Movement Phase that counts against its limit (not one that began its
        move in an enemy zone of control, under ``enemy_zoc_exempt``)."""
        return f"{EXEMPT}{state.turn}:{unit}" not in state.scored

    def used(self, state: State, index: int) -> int:
        units = state.game.units
        lim = self.limits[index]
        return sum(1 for u in state.moved if lim.binds(units[u]) and self.counts(state, u))

    def remaining(self, state: State, side: str) -> int | None:
        """How many more of ``side``'s units may move this Movement Phase under its limits (a die not
        yet rolled counted at its highest); None: no limit binds the side."""
        out = None
        for i, lim in enumerate(self.limits):
            if lim.side != side:
                continue
            allowed = self.allowed(state, i)
            if allowed is None:
                table = lim.die_table(state.turn)
                allowed = max(table.units) if table is not None else 10**6
            out = (out or 0) + max(0, allowed - self.used(state, i))
        return out

    def refusal(self, state: State, unit: str, in_enemy_zoc: bool) -> tuple[str, str] | None:
        """17.2, 17.3: (case, message) when moving ``unit`` now would exceed its limit; None otherwise.
        ``in_enemy_zoc``: the unit stands in an enemy zone of control now."""
        u = state.game.units[unit]
        index = self.limit_of(u)
        if index is None:
            return None
        lim = self.limits[index]
        if lim.enemy_zoc_exempt and in_enemy_zoc:
            return None
        allowed = self.allowed(state, index)
        if allowed is None:
            return None  # not rolled: a state no command made (the die is rolled as the phase begins)
        used = self.used(state, index)
        if used < allowed:
            return None
        return (
            "movement_allocation",
            f"{u.designation} may not move: {lim.name()} has moved {used} units this Game-Turn, "
            f"the {allowed} allowed",
        )
