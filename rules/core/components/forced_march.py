"""Forced March Movement (Grand Chancellorsville 23.2): a larger Movement Allowance for a move that
enters no Enemy Zone of Control (and, for some units, stays in some hexes):

    [exclusive.forced_march]
    allowance = 12
    no_bombard = ["cs-1a-beckham"]
    grants = [
      { side = "union", turns = [1, 2, 3, 4, 5], within = ["stafford_bank", "north_of_rappahannock"] },
      { side = "confederate", turns = [2, 3] },
      { types = ["cavalry"], units = ["cs-1a-beckham"] },
    ]

23.2: "Forced March Movement may not be combined with Strategic Movement." 23.21: "For the first five
Game-Turns for the Union Player only, all units moving in hexes north of the Rappahannock River; not
including the River ferry or pontoon hexes, may Forced March move with twelve Movement Points, but may
not enter Enemy Zones of Control during a Game-Turn in which they do so." 23.22: "On Game-Turns Two and
Three only, any Confederate unit may Forced March move with twelve Movement Points". 23.23: "All cavalry
units have Forced March Movement capabilities throughout the entire game ... Beckham ... is treated as
cavalry for movement purposes, but it may not bombard if it uses Forced March Movement."

A grant binds a unit of its ``side`` (any side when absent) on its ``turns`` (every Game-Turn when
empty), of one of its ``types`` or one of its ``units`` (any unit when both are empty). A unit some grant
binds may make a move (or a reinforcement's entry) of up to ``allowance`` Movement Points (less the
night's one, revised 11.11) that enters no enemy-controlled hex; when every grant that binds it has
``within`` areas, every hex of that move lies in them, no ferry or pontoon hex among them.

Ruling (docs/RULINGS.md): a move is a Forced March when, and only when, it spends more than the unit's
normal allowance: the player chooses it by the path he gives, and the computer players are offered
every such move with the others (rules/procedures/movement.py ``reachable``). The move is recorded by a
``ForcedMarched`` event before its ``UnitMoved`` (or ``ReinforcementEntered``); ``no_bombard`` units
that made one may not bombard in that Game-Turn (kept in ``state.scored`` as
``forced_march:<Game-Turn>:<unit>``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core.components.values import AreaName, Component, Count, UnitId
from rules.core.scenario import Side, UnitType

if TYPE_CHECKING:
    from rules.core.state import State

MARCHED = "forced_march:"


class Grant(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    side: Side | None = None
    turns: list[Count] = []
    types: list[UnitType] = []
    units: list[UnitId] = []
    within: list[AreaName] = []

    def binds(self, state: State, unit: str) -> bool:
        """23.21-23.23: may ``unit`` Forced March move now under this grant?"""
        u = state.game.units[unit]
        if self.side is not None and u.side != self.side:
            return False
        if self.turns and state.turn not in self.turns:
            return False
        if self.types or self.units:
            return u.type in self.types or unit in self.units
        return True


class ForcedMarch(Component, frozen=True):
    allowance: Count
    grants: list[Grant]
    no_bombard: list[UnitId] = []

    def region(self, state: State, unit: str) -> frozenset[str] | None | bool:
        """23.21-23.23: False when no grant lets ``unit`` Forced March move now; None when it may do
        so anywhere; else the hexes its whole move must lie in (23.21: "hexes north of the
        Rappahannock River; not including the River ferry or pontoon hexes")."""
        bound = [g for g in self.grants if g.binds(state, unit)]
        if not bound:
            return False
        if any(not g.within for g in bound):
            return None
        game = state.game
        areas = game.scenario.map.areas
        hexes = {h for g in bound for a in g.within for h in areas.get(a, ())}
        return frozenset(hexes) - game.ferry_hexes

    def marched(self, state: State, unit: str) -> bool:
        """23.23: did ``unit`` Forced March move this Game-Turn?"""
        return f"{MARCHED}{state.turn}:{unit}" in state.scored

    def may_not_bombard(self, state: State, unit: str) -> bool:
        """23.23: "it may not bombard if it uses Forced March Movement" (that Game-Turn)."""
        return unit in self.no_bombard and self.marched(state, unit)
