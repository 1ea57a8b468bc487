"""Units that may cross by one River ferry hex only, once a die has allowed it (Hooker and Lee 19.14):

    [exclusive.crossing_die]
    side = "union"
    units = ["us-1-averill", "us-2-averill"]
    hex = "0226"
    succeeds_on = [1]

19.14: "The units of Averill's Cavalry Division may not cross Ely's Ford until the Union Player rolls a
'1' on the die. The die is rolled once for each Game-Turn. As soon as a '1' is rolled, both Averill
units may cross, either on that Game-Turn or on any following Game-Turn. These units may not cross at
any other River ferry hex."

The die is rolled at the beginning of each Movement Phase of ``side`` from the Game-Turn the first of
``units`` arrives (or from Game-Turn One when one starts on the map), until a roll in ``succeeds_on``
(rules/procedures/crossing_die.py, a rule set's ``phase_rolls``: ``CrossingDieRolled``); its Game-Turns
and the success are kept in ``state.scored`` (``crossing_die:<Game-Turn>``, ``crossing_die_allowed``).
Until then ``hex`` is closed to the units; every other River ferry hex always is (rules/procedures/
movement.py ``no_entry``: movement, Strategic Movement, entry).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core.components.values import Component, DieFace, HexNumber, UnitId
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.state import State

ROLLED = "crossing_die:"
ALLOWED = "crossing_die_allowed"


class CrossingDie(Component, frozen=True):
    side: Side
    units: list[UnitId]
    hex: HexNumber
    succeeds_on: list[DieFace] = msgspec.field(default_factory=lambda: [1])

    def binds(self, unit: str) -> bool:
        return unit in self.units

    def allowed(self, state: State) -> bool:
        """19.14: has a '1' been rolled?"""
        return ALLOWED in state.scored

    def first_turn(self, state: State) -> int:
        """The Game-Turn the first of the units is on the map (its arrival; One when one starts there)."""
        units = state.game.units
        return min((units[u].arrives or 1) for u in self.units if u in units)

    def to_roll(self, state: State) -> bool:
        """19.14: "The die is rolled once for each Game-Turn", at the beginning of the side's Movement
        Phase, until it allows the crossing."""
        return (
            state.phase == "movement"
            and state.phasing == self.side
            and not self.allowed(state)
            and state.turn >= self.first_turn(state)
            and f"{ROLLED}{state.turn}" not in state.scored
        )

    def closed(self, state: State, unit: str) -> frozenset[str]:
        """19.14: the River ferry hexes ``unit`` may not enter now."""
        if not self.binds(unit):
            return frozenset()
        ferries = state.game.ferry_hexes
        others = frozenset(h for h in ferries if h != self.hex)
        return others if self.allowed(state) else others | {self.hex}
