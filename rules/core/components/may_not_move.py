"""Units held in place on given Game-Turns (Antietam 20.2: "The Confederate units which begin the game
in hexes 0517, 0416, 0715, 0714, and 0613 may not move during Game-Turn One"; the chart 16.2: "The above
units may not move on Game-Turn One"): the units whose set-up hex is one of ``hexes`` may not move on
the Game-Turns ``turns``.

    [exclusive.may_not_move]
    hexes = ["0517", "0416", "0715", "0714", "0613"]
    turns = [1]

Olustee 18.1: ``units`` instead of (or beside) ``hexes``, and ``unless_attacked``: "64 GA infantry may
not move during the first two Game-Turns unless it is attacked": once an attack is declared against
it, it is released for good (``ImmobilityReleased`` cause "attacked", rules/procedures/restrictions.py
``release_attacked``; ``state.released``).

    [exclusive.may_not_move]
    units = ["cs-64-ga"]
    turns = [1, 2]
    unless_attacked = true

Ruling (docs/RULINGS.md, "Antietam"): "may not move" bars movement in the Movement Phase (a move,
strategic movement included); the units still attack, retreat and advance after combat (a unit that
"may not be moved", Chattanooga 16.11, needs its own words to be barred from advancing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.components.values import Component, Count, HexNumber, UnitId

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.state import State


class MayNotMove(Component, frozen=True):
    turns: list[Count]
    hexes: list[HexNumber] = []
    units: list[UnitId] = []
    unless_attacked: bool = False

    def __post_init__(self):
        if not self.hexes and not self.units:
            raise ValueError("give the set-up hexes (Antietam 20.2) or the units (Olustee 18.1) that may not move")

    def binds(self, unit) -> bool:
        """20.2: a unit that began the game in one of the hexes; Olustee 18.1: or one of the units."""
        return unit.id in self.units or (unit.hex is not None and unit.hex in self.hexes)

    def released_by_attack(self, state: State, unit: str) -> bool:
        """Olustee 18.1: "unless it is attacked": attacked once, it moves freely for good."""
        return self.unless_attacked and unit in state.released

    def restriction(self, state: State, unit: str) -> RuleViolation | None:
        """20.2: refuse a move of a unit that began the game in one of the hexes, on those Game-Turns;
        Olustee 18.1: of one of the units, until it is attacked."""
        if state.turn not in self.turns:
            return None
        u = state.game.units[unit]
        if not self.binds(u) or self.released_by_attack(state, unit):
            return None
        if u.id in self.units:
            why = " unless it is attacked" if self.unless_attacked else ""
            return state.game.violation("may_not_move", f"{u.designation} may not move during Game-Turn {state.turn}{why}")
        return state.game.violation(
            "may_not_move",
            f"{u.designation} began the game in {u.hex} and may not move during Game-Turn {state.turn}",
        )
