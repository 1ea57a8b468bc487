"""Reinforcements by a die-roll table (Savage's Station 17.1, 17.2):

    [exclusive.reinforcement_table]
    side = "confederate"
    # 17.2: one row per die roll 1-6, one column per Game-Turn: "group/entry point", "-/-" for none
    table = [
      ["A/a", "A/a", "A/a", "A/a", "A/a", "A/a"],
      ...
    ]
    entries = { a = "entry_a", b = "entry_b", c = "entry_c" }   # each entry point: an area of the map

17.1: "At the beginning of each Confederate Movement Phase, the Confederate Player rolls a die and
refers to the Confederate Reinforcement Table, using the column that corresponds to the current
Game-Turn. The result is the units that enter and the hexes at which they enter. If units in the result
have previously entered as Reinforcements, then the result is considered to be no Reinforcements for
the Game-Turn."

A group is the units of the order of battle whose ``group`` is its letter (oob.toml ``group = "A"``:
such a unit has neither ``hex`` nor ``arrives``). The roll (``ReinforcementTableRolled``, made by
rules/procedures/phase_rolls.py at the start of the side's Movement Phase) brings the group of its cell
on that Game-Turn at the hexes of the entry point's area; from then on its units are reinforcements of
that Game-Turn like any other (the rule set's 15.0 / 5.0). A group brought before is no reinforcement
(17.1), and a group never brought never enters. ``state.scored`` keeps ``reinforcement_table:<turn>``
(the roll of the Game-Turn is made) and ``reinforcement_table_group:<group>:<turn>:<entry>``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rules.core.components.values import AreaName, Component
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.state import State

ROLLED = "reinforcement_table:"
GROUP = "reinforcement_table_group:"
NONE = "-"
CELL = re.compile(r"^(-|[A-Za-z0-9]+)/(-|[A-Za-z0-9]+)$")


class ReinforcementTable(Component, frozen=True):
    side: Side
    table: list[list[str]]
    entries: dict[str, AreaName]

    def __post_init__(self):
        if len(self.table) != 6:
            raise ValueError("the table has one row per die roll, 1 to 6 (17.2)")
        for row in self.table:
            for cell in row:
                m = CELL.match(cell)
                if m is None:
                    raise ValueError(f"{cell!r} is not a table result 'group/entry' ('-/-': none)")
                group, entry = m.groups()
                if (group == NONE) != (entry == NONE):
                    raise ValueError(f"{cell!r}: a group needs its entry point and '-' needs '-'")
                if entry != NONE and entry not in self.entries:
                    raise ValueError(f"{cell!r}: entry point {entry!r} is not one of entries ({', '.join(self.entries)})")

    def groups(self) -> frozenset[str]:
        """The groups the table names (17.2)."""
        return frozenset(c.split("/")[0] for row in self.table for c in row if not c.startswith(NONE))

    def result(self, turn: int, roll: int) -> tuple[str | None, str | None]:
        """17.2: the (group, entry point) of the column of ``turn`` and the row of ``roll``; (None, None)
        for "-/-" or a Game-Turn beyond the table."""
        row = self.table[roll - 1]
        if not 1 <= turn <= len(row) or row[turn - 1].startswith(NONE):
            return None, None
        group, entry = row[turn - 1].split("/")
        return group, entry

    def to_roll(self, state: State) -> bool:
        """17.1: is the die still to be rolled in this Game-Turn's Movement Phase of the side (the caller
        asks in a Movement Phase)?"""
        return state.phasing == self.side and f"{ROLLED}{state.turn}" not in state.scored

    @staticmethod
    def brought(state: State) -> dict[str, tuple[int, str]]:
        """The groups the table has brought so far: group -> (its Game-Turn, its entry point)."""
        out = {}
        for key in state.scored:
            if key.startswith(GROUP):
                group, turn, entry = key[len(GROUP):].rsplit(":", 2)
                out[group] = (int(turn), entry)
        return out

    def arrival(self, state: State, group: str) -> int | None:
        """17.1: the Game-Turn the group's units were brought on, or None (not brought: they do not enter)."""
        got = self.brought(state).get(group)
        return None if got is None else got[0]

    def entry_hexes(self, state: State, group: str) -> list[str]:
        """17.1: "the hexes at which they enter": the hexes of the area of the entry point rolled."""
        got = self.brought(state).get(group)
        if got is None:
            return []
        return list(state.game.scenario.map.areas.get(self.entries[got[1]], []))
