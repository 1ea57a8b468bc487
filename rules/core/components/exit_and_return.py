"""Units that leave the map by some hexes and come back later at others (Hooker and Lee 18.22-18.27,
Jackson's flanking manoeuvre of 2 May):

    [exclusive.exit_and_return]
    side = "confederate"
    hexes = ["2518", "2514"]
    units = 20
    returns = [{ exited_on = 1, turn = 4 }, { exited_on = 2, turn = 5 }]
    entry = ["1027", "1128", ...]

18.22: "During the first two Game-Turns, the Confederate Player may voluntarily exit a combined total of
20 units from the map sheet at the southern map edge from hexes 2518 and/or 2514." 18.23: "units which
exited the map sheet on Game-Turn One will return on Game-Turn Four; units which exited the map sheet
on Game-Turn Two will return on Game-Turn Five". 18.24: "Units re-enter at the western map edge
anywhere between hexes 1027 and 1928 inclusive, paying the entrance cost of the first hex".

A unit of ``side`` exits by one of ``hexes`` (the command ``ExitMap``, the exit rules of the ``exits``
component: its path, its cost, not from an enemy zone of control) on a Game-Turn that ``returns`` names
(``exited_on``), while fewer than ``units`` have done so: ``UnitMarchedOff`` (rules/procedures/exits.py),
kept in ``state.scored`` as ``returning:<Game-Turn>:<unit>``. It is then neither on the map nor
eliminated nor exited (18.23: it "must later re-enter"): a reinforcement of that Game-Turn at the
``entry`` hexes (rules/procedures/reinforcements.py), which enters as every revised reinforcement does
(5.0: the column of stacks, 18.25; 5.4: into an enemy zone of control, 18.26; held back or blocked, on a
later Game-Turn, 18.25). On any other Game-Turn the hexes are no exit (18.27: a unit forced off the map
there is eliminated, as every retreat off the map is).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core.components.values import Component, Count, HexNumber
from rules.core.marks import marks
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.state import State

RETURNING = "returning:"


class Return(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """18.23: a unit exited on Game-Turn ``exited_on`` returns on Game-Turn ``turn``."""

    exited_on: Count
    turn: Count


class ExitAndReturn(Component, frozen=True):
    side: Side
    hexes: list[HexNumber]
    units: Count
    returns: list[Return]
    entry: list[HexNumber]

    def __post_init__(self):
        if any(r.turn <= r.exited_on for r in self.returns):
            raise ValueError("a unit returns on a later Game-Turn than the one it exited on (18.23)")

    def returning(self, scored: set[str]) -> dict[str, int]:
        """18.23: the units that have left by the hexes, with the Game-Turn each returns on."""
        return {unit: int(turn) for turn, unit in (m.split(":", 1) for m in marks(scored, RETURNING))}

    def return_turn(self, turn: int) -> int | None:
        """18.23: the Game-Turn a unit leaving on ``turn`` returns on, or None (18.22: no exit then)."""
        return next((r.turn for r in self.returns if r.exited_on == turn), None)

    def open_to(self, state: State, unit: str) -> bool:
        """18.22: may ``unit`` leave by the hexes now: its side's, on one of the Game-Turns, fewer than
        ``units`` gone so far."""
        return (
            state.game.units[unit].side == self.side
            and self.return_turn(state.turn) is not None
            and len(self.returning(state.scored)) < self.units
        )
