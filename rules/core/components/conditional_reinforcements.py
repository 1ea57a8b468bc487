"""Reinforcements that arrive only on a die roll (Second Bull Run 17.3: "Beginning with Game-Turn Ten,
the Union Player rolls the die at the start of his Player-Turn to determine whether his II Corps will
arrive on the battlefield. On a die roll result of '6' he receives the following units at hex 0116 ...
Beginning with Game-Turn Twelve, the Union Player rolls the die ... whether his Kanawha Division will
arrive ... If the II Corps has not arrived, make separate die rolls for each group of reinforcements.
... The Union Player may not decline to bring his Conditional Reinforcements into play.").

    [[exclusive.conditional_reinforcements.groups]]
    name = "II Corps"
    side = "union"
    units = ["us-crawford", "us-gordon", ...]   # units of oob.toml, each with arrives and entry
    from_turn = 10
    on = [6]

Each group not yet arrived is rolled for, one die a group, at the start of its side's Movement Phase
(its Player-Turn) on every Game-Turn from ``from_turn`` (rules/procedures/phase_rolls.py, with the
Reinforcement Table's rolls): ``ConditionalReinforcementsRolled``; on a roll in ``on`` the group arrives:
its units are that Game-Turn's reinforcements at their ``entry`` hexes (oob.toml), entering as any other
(the rule set's 15.0 / 5.0). Until then they are not reinforcements at all: a unit of a group never
brought never enters (and traces no line of communication). ``state.scored`` keeps
``conditional_rolled:<name>:<turn>`` and ``conditional_arrived:<name>:<turn>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core.components.values import Component, Count, DieFace, UnitId
from rules.core.marks import marks
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.state import State

ROLLED = "conditional_rolled:"
ARRIVED = "conditional_arrived:"


class Group(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """17.3: one group of Conditional Reinforcements."""

    name: str
    side: Side
    units: list[UnitId]
    from_turn: Count
    on: list[DieFace] = msgspec.field(default_factory=lambda: [6])


class ConditionalReinforcements(Component, frozen=True):
    groups: list[Group]

    def group_of(self, unit: str) -> Group | None:
        return next((g for g in self.groups if unit in g.units), None)

    def arrived(self, state: State, group: Group) -> int | None:
        """17.3: the Game-Turn the group arrived on, or None."""
        turns = [int(m) for m in marks(state.scored, f"{ARRIVED}{group.name}:")]
        return min(turns) if turns else None

    def to_roll(self, state: State) -> list[Group]:
        """17.3: the groups to roll for now (the start of the side's Player-Turn, from ``from_turn``, not
        yet arrived, not yet rolled for this Game-Turn)."""
        return [
            g
            for g in self.groups
            if g.side == state.phasing
            and state.turn >= g.from_turn
            and self.arrived(state, g) is None
            and f"{ROLLED}{g.name}:{state.turn}" not in state.scored
        ]
