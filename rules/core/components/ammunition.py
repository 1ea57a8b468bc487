"""Running out of ammunition (Olustee 19.1): "Beginning on Game-Turn Four, the Confederate Player rolls
a die prior to commencing his Player-Turn. On a die roll result of '1-4' the Confederate forces run out
of ammunition. No Confederate units may thereafter enter an Enemy Zone of Control, and all Confederate
units in an Enemy Zone of Control must during the Combat Phase automatically retreat one hex. If unable
to retreat, the Confederate unit is eliminated. A die roll result of '5-6' has no effect. Once the
Confederates run out of ammunition, this die roll ceases."

    [exclusive.ammunition]
    side = "confederate"
    from_turn = 4
    runs_out_on = [1, 2, 3, 4]
    train = "cs-rail-gun"
    resupply_path = 4
    resupply_turns = 2

Re-supply (19.3, 19.4): "Once the Train has moved for the Game-Turn, each Confederate unit that can trace
a path of four or fewer hexes in length to the Train is considered immediately re-supplied and ignores
the restrictions outlined in Case 19.1. If the path is greater than four hexes in length to the Train,
the unit is re-supplied two full Game-Turns after that in which the ammunition ran out"; "The path to
the Train must be a Line of Communication" (rules/queries/communications.py ``supply_line``). After each
move (or entry) of ``train`` while the side is out, the units of the side with such a line of at most
``resupply_path`` hexes to it are re-supplied for good (``AmmunitionResupplied``,
rules/procedures/ammunition.py ``resupply``; ``state.scored`` keeps ``ammunition_resupplied:<unit>``);
every unit is re-supplied at the start of Game-Turn ``resupply_turns`` after the one it ran out on.

The die is rolled at the start of ``side``'s Movement Phase (its Player-Turn), from ``from_turn``, until
it runs out (rules/procedures/phase_rolls.py: ``AmmunitionRolled``). From then on its units may not enter
an Enemy Zone of Control (rules/procedures/movement.py, case ``ammunition``) and each of its units in an
Enemy Zone of Control in its Combat Phase retreats one hex, or is eliminated when it cannot
(rules/procedures/ammunition.py). ``state.scored`` keeps ``ammunition_rolled:<turn>`` and
``ammunition_out:<turn>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core.components.values import Component, Count, DieFace, UnitId
from rules.core.marks import marks
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.state import State

ROLLED = "ammunition_rolled:"
OUT = "ammunition_out:"
RESUPPLIED = "ammunition_resupplied:"



class Ammunition(Component, frozen=True):
    side: Side
    from_turn: Count
    runs_out_on: list[DieFace] = msgspec.field(default_factory=lambda: [1, 2, 3, 4])
    train: UnitId | None = None  # 19.3: the Train that re-supplies
    resupply_path: Count = 4  # 19.3: "a path of four or fewer hexes in length to the Train"
    resupply_turns: Count | None = None  # 19.3: "two full Game-Turns after" (None: never)

    def out_since(self, state: State) -> int | None:
        """19.1: the Game-Turn the side ran out of ammunition, or None."""
        turns = [int(m) for m in marks(state.scored, OUT)]
        return min(turns) if turns else None

    def to_roll(self, state: State) -> bool:
        """19.1: the die is due now (the side's Player-Turn from ``from_turn``; "Once the Confederates run
        out of ammunition, this die roll ceases")."""
        return (
            state.phasing == self.side
            and state.turn >= self.from_turn
            and self.out_since(state) is None
            and f"{ROLLED}{state.turn}" not in state.scored
        )

    def side_out(self, state: State) -> bool:
        """19.1: is the side out of ammunition now (19.3: until ``resupply_turns`` Game-Turns after the
        one it ran out on)?"""
        since = self.out_since(state)
        return since is not None and (self.resupply_turns is None or state.turn < since + self.resupply_turns)

    def out_of_ammunition(self, state: State, unit_side: str, unit: str | None = None) -> bool:
        """19.1: is ``unit`` (of ``unit_side``) out of ammunition now? 19.3: not once re-supplied."""
        if unit_side != self.side or not self.side_out(state):
            return False
        return unit is None or f"{RESUPPLIED}{unit}" not in state.scored
