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

The die is rolled at the start of ``side``'s Movement Phase (its Player-Turn), from ``from_turn``, until
it runs out (rules/procedures/phase_rolls.py: ``AmmunitionRolled``). From then on its units may not enter
an Enemy Zone of Control (rules/procedures/movement.py, case ``ammunition``) and each of its units in an
Enemy Zone of Control in its Combat Phase retreats one hex, or is eliminated when it cannot
(rules/procedures/ammunition.py). ``state.scored`` keeps ``ammunition_rolled:<turn>`` and
``ammunition_out:<turn>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import msgspec

from rules.core.components.values import Component, Count
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.state import State

ROLLED = "ammunition_rolled:"
OUT = "ammunition_out:"

Face = Annotated[int, msgspec.Meta(ge=1, le=6)]


class Ammunition(Component, frozen=True):
    side: Side
    from_turn: Count
    runs_out_on: list[Face] = msgspec.field(default_factory=lambda: [1, 2, 3, 4])

    def out_since(self, state: State) -> int | None:
        """19.1: the Game-Turn the side ran out of ammunition, or None."""
        turns = [int(s[len(OUT) :]) for s in state.scored if s.startswith(OUT)]
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

    def out_of_ammunition(self, state: State, unit_side: str) -> bool:
        """19.1: are ``unit_side``'s units out of ammunition now?"""
        return unit_side == self.side and self.out_since(state) is not None
