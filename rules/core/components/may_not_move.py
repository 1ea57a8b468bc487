"""Units held in place on given Game-Turns (Antietam 20.2: "The Confederate units which begin the game
in hexes 0517, 0416, 0715, 0714, and 0613 may not move during Game-Turn One"; the chart 16.2: "The above
units may not move on Game-Turn One"): the units whose set-up hex is one of ``hexes`` may not move on
the Game-Turns ``turns``.

    [exclusive.may_not_move]
    hexes = ["0517", "0416", "0715", "0714", "0613"]
    turns = [1]

Ruling (docs/RULINGS.md, "Antietam"): "may not move" bars movement in the Movement Phase (a move,
strategic movement included); the units still attack, retreat and advance after combat (a unit that
"may not be moved", Chattanooga 16.11, needs its own words to be barred from advancing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.components.values import Component, Count, HexNumber

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.state import State


class MayNotMove(Component, frozen=True):
    hexes: list[HexNumber]
    turns: list[Count]

    def restriction(self, state: State, unit: str) -> RuleViolation | None:
        """20.2: refuse a move of a unit that began the game in one of the hexes, on those Game-Turns."""
        if state.turn not in self.turns:
            return None
        u = state.game.units[unit]
        if u.hex not in self.hexes:
            return None
        return state.game.violation(
            "may_not_move",
            f"{u.designation} began the game in {u.hex} and may not move during Game-Turn {state.turn}",
        )
