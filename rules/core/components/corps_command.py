"""Command control by corps: a die for each corps before its side moves (Grand Chancellorsville 23.4):

    [exclusive.corps_command]
    side = "union"
    from_turn = 7
    groups = [
      { name = "I", units = ["us-1-i", ...], moves_on = [1, 2, 3] },
      { name = "Cavalry", units = ["us-1-pleasanton", ...], moves_on = [1, 2, 3, 4] },
    ]
    attached = ["us-art-reserve"]
    attached_to = ["I", "II", "III", "V", "VI", "XI", "XII"]

23.4: "Starting with Game-Turn Seven, the Union Player has a Command Control Phase preceding his
Movement Phase. During this Phase, the Union Player rolls the die for each Corps (I, II, III, V, XI, etc.)
on the map sheet. On a roll of '1-3', all units in that particular corps may move on that Game-Turn. On
a die roll of '4-6', no units in that corps may move on that Game-Turn. All cavalry units are considered
as belonging to one separate corps, and may move on a die roll of '1-4'. The Reserve artillery unit may
be considered as belonging to any corps to which it is assigned by the Union Player at the beginning of
any particular Command Control Phase, except the Cavalry Corps."

At the beginning of each Movement Phase of ``side`` from Game-Turn ``from_turn``, one die for each group
with a unit on the map (rules/procedures/phase_rolls.py: ``CorpsCommandRolled``, kept in ``state.scored``
as ``corps_command:<Game-Turn>``, ``corps_command:<Game-Turn>:<group>`` and ``corps_held:<Game-Turn>:<group>``); a unit of a group whose roll is
not in its ``moves_on`` may not move that Game-Turn (case ``corps_command``). A group without a unit on the
map rolls nothing: its reinforcements enter and move freely. Ruling (docs/RULINGS.md): an ``attached``
unit (the Reserve artillery) is assigned to a group of ``attached_to`` whose roll let it move whenever
there is one, so it is held only when every such group that rolled was held.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core.components.values import Component, Count, DieFace, UnitId
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.state import State

ROLLED = "corps_command:"
HELD = "corps_held:"


class Group(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    units: list[UnitId]
    moves_on: list[DieFace]


class CorpsCommand(Component, frozen=True):
    side: Side
    from_turn: Count
    groups: list[Group]
    attached: list[UnitId] = []
    attached_to: list[str] = []

    def __post_init__(self):
        names = [g.name for g in self.groups]
        if len(set(names)) != len(names) or set(self.attached_to) - set(names):
            raise ValueError("the groups' names are distinct, and attached_to names groups")

    def to_roll(self, state: State) -> bool:
        """23.4: the Command Control Phase precedes the side's Movement Phase from ``from_turn`` on."""
        return (
            state.phase == "movement"
            and state.phasing == self.side
            and state.turn >= self.from_turn
            and f"{ROLLED}{state.turn}" not in state.scored
        )

    def present(self, state: State) -> list[Group]:
        """23.4: "each Corps ... on the map sheet": the groups with a unit on the map."""
        return [g for g in self.groups if any(u in state.positions for u in g.units)]

    def held(self, state: State, unit: str) -> str | None:
        """The group whose roll holds ``unit`` this Game-Turn, or None."""
        turn = state.turn
        for g in self.groups:
            if unit in g.units:
                return g.name if f"{HELD}{turn}:{g.name}" in state.scored else None
        if unit in self.attached:  # ruling: assigned to a corps free to move, when one rolled so
            rolled = [n for n in self.attached_to if f"{ROLLED}{turn}:{n}" in state.scored]
            if rolled and all(f"{HELD}{turn}:{n}" in state.scored for n in rolled):
                return "every corps it may join"
        return None

    def restriction(self, state: State, unit: str) -> RuleViolation | None:
        """23.4: "On a die roll of '4-6', no units in that corps may move on that Game-Turn"."""
        if state.game.units[unit].side != self.side:
            return None
        group = self.held(state, unit)
        if group is None:
            return None
        return state.game.violation(
            "corps_command", f"{state.game.designation(unit)} may not move this Game-Turn: the die rolled for its corps ({group}) failed"
        )
