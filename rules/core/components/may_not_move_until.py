"""Units that may not move until a Game-Turn comes or an event of the game releases them (First Bull
Run 17.1: "No Confederate units may move until Game-Turn Three or a Confederate unit has been
attacked, whichever occurs first"; 17.2: "Runyon's division may not move until a Confederate unit has
crossed Bull Run"). Each hold binds every unit of ``side`` (or only ``units``) until the first of:

- ``until_turn``: that Game-Turn has come (17.1: Three);
- ``until_attacked``: a unit of ``side`` has been attacked (17.1): a combat resolved with one of its
  units among the defenders (rules/procedures/restrictions.py ``release_holds``);
- ``until_itself_attacked``: Olustee 18.1 ("64 GA infantry may not move during the first two Game-Turns
  unless it is attacked"): each unit of the hold is released by itself, once a combat is resolved with
  it among the defenders;
- ``until_enemy_enters``: a unit of the other side has entered a hex of this map area (17.2: the hexes
  beyond Bull Run from the Confederate set-up, "crossed Bull Run"), by movement, retreat or advance,
  from a hex outside it.

    [[exclusive.may_not_move_until.holds]]
    side = "confederate"
    until_turn = 3
    until_attacked = true
    rule = "may_not_move_until.attacked"      # the [cases] name cited when a move is refused

    [[exclusive.may_not_move_until.holds]]
    side = "union"
    units = ["us-runyon"]
    until_enemy_enters = "across_bull_run"
    rule = "may_not_move_until.crossed"

A release by an event is ``ImmobilityReleased`` (cause ``attacked`` or ``crossed``; the hold's units,
for good: ``state.released``). Rulings (docs/RULINGS.md, "First Bull Run"): "may not move" bars movement
in the Movement Phase (a move, strategic movement, an entry), as Antietam 20.2's; the units still
attack, retreat and advance. "Attacked": any combat resolved against one of the side's units, a
bombardment included; one such attack releases every unit of the hold ("a Confederate unit").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core.components.values import AreaName, Component, Count, UnitId
from rules.core.scenario import Side, Unit

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.state import State


class Hold(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """17.1, 17.2: ``side``'s units (``units`` only, when given) held until the first release."""

    side: Side
    rule: str
    units: list[UnitId] = []
    until_turn: Count | None = None
    until_attacked: bool = False
    until_itself_attacked: bool = False  # Olustee 18.1: "unless it is attacked"
    until_enemy_enters: AreaName | None = None

    def __post_init__(self):
        if self.until_turn is None and not self.until_attacked and not self.until_itself_attacked and self.until_enemy_enters is None:
            raise ValueError("give until_turn, until_attacked or until_enemy_enters (17.1, 17.2: what releases the units)")

    def binds(self, unit: Unit) -> bool:
        return unit.side == self.side and (not self.units or unit.id in self.units)

    def held(self, state: State, unit: Unit) -> bool:
        """17.1, 17.2: is ``unit`` held now?"""
        if not self.binds(unit) or unit.id in state.released:
            return False
        return self.until_turn is None or state.turn < self.until_turn


class MayNotMoveUntil(Component, frozen=True):
    holds: list[Hold]

    def restriction(self, state: State, unit: str) -> RuleViolation | None:
        """17.1, 17.2: refuse a move of a unit still held."""
        u = state.game.units[unit]
        for hold in self.holds:
            if hold.held(state, u):
                why = []
                if hold.until_turn is not None:
                    why.append(f"Game-Turn {hold.until_turn}")
                if hold.until_attacked:
                    why.append(f"a {hold.side.title()} unit has been attacked")
                if hold.until_itself_attacked:
                    why.append("it is attacked")
                if hold.until_enemy_enters is not None:
                    why.append(f"an enemy unit has entered {hold.until_enemy_enters.replace('_', ' ')}")
                return state.game.violation(hold.rule, f"{u.designation} may not move until {' or '.join(why)}")
        return None
