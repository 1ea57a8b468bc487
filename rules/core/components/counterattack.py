"""A counterattack with special bonuses for two named units' first attack, and the ammunition it costs
(Road to Vicksburg 19.5, 19.6: "Bowen's Counterattack", "Ammunition Depletion").

19.52: "The two infantry brigades of Bowen's division (Green and Cockrell) have special bonuses for their
first attack. They only receive these bonuses if: i) Both units attack in the same Combat Phase; and ii)
Both units are stacked with or adjacent to each other." 19.53: "They do not have to attack the same hex
to receive these benefits. i) Both brigades have their Combat Strength tripled for that Player-Turn only;
ii) Any die rolls for their attacks are modified by subtracting one".

    [exclusive.counterattack]
    side = "confederate"
    units = ["cs-bowen-green", "cs-bowen-cockrell"]     # 19.52: the two brigades
    strength_factor = 3                                  # 19.53 i: "tripled"
    die_modifier = -1                                    # 19.53 ii: "subtracting one"
    advance_hexes = 4                                    # 19.53 iii: "may advance up to four hexes after combat"
    [exclusive.counterattack.depletion]                  # 19.6
    runs_out_at_most = 2                                 # 19.61: "If the die roll is '1-2'"
    per_hex_beyond_first = -1                            # 19.62: "Subtract '1' ... for each hex entered after the first"
    least_modifier = -3                                  # 19.62: "up to a maximum modifier of minus '3'"
    out_of_ammo = { "cs-bowen-green" = "cs-bowen-green-ooa", "cs-bowen-cockrell" = "cs-bowen-cockrell-ooa" }

19.53 iii: "Each brigade may advance up to four hexes after combat (exception to normal advance limit),
regardless of Terrain, subject only to the following restrictions: a) Bowen's Counterattack is an
exception to the rule that no more than one unit can advance into a given hex after an individual
combat; b) A prohibited hex side cannot be crossed; c) The first hex entered by each brigade must be the
hex vacated by the unit or units that the brigade attacked; d) The advance must cease immediately when an
Enemy Zone of Control is entered (this includes the first hex entered)" (``advance_hexes``; 1: the
standard advance): each unit's own advance decision, one hex at a time (``PendingCounterattackAdvance``).

The counterattack is made by the first attack either unit takes part in (rules/procedures/counterattack.py):
it has the bonuses when, as it is declared, the two units are on the map, stacked with or adjacent to
each other, and the other takes part in the same attack or must still attack in this Combat Phase (in an
Enemy Zone of Control, revised 8.12); then the other's attack of this Player-Turn has them too. A first
attack made otherwise forgoes them for good ("their first attack"). Rulings: docs/RULINGS.md.

19.61: "At the start of the Confederate Movement Phase in the Game-Turn following Bowen's Counterattack,
the Confederate Player must roll a die ... If the die roll is '1-2', then both brigades have run out of
ammunition for the rest of the game. Replace the Green and Cockrell brigade units with the reduced Combat
Strength units that have 'Out of Ammo' printed on them" (``out_of_ammo``: each unit and the unit that
replaces it, set aside at the start: its order of battle entry has no hex). 19.63: "Both brigades are
still counted at full strength for Victory Point purposes even if Ammunition Depleted"
(``victory_strength``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core.components.values import Component, Count, UnitId
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.scenario import Unit
    from rules.core.state import State

MADE = "counterattack_made:"  # + the Game-Turn of the counterattack
FORGONE = "counterattack_forgone"  # the first attack was made without the bonuses
ADVANCED = "counterattack_advanced:"  # + unit + ":" + hexes advanced (19.62)
DEPLETION_ROLLED = "counterattack_depletion_rolled"


class Depletion(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    runs_out_at_most: int = 2
    per_hex_beyond_first: int = -1
    least_modifier: int = -3
    out_of_ammo: dict[UnitId, UnitId] = {}


class Counterattack(Component, frozen=True):
    side: Side
    units: list[UnitId]
    strength_factor: Count = 3
    die_modifier: int = -1
    advance_hexes: Count = 1
    depletion: Depletion | None = None

    def made_on(self, state: State) -> int | None:
        """19.52: the Game-Turn of the counterattack, or None."""
        turns = [int(k[len(MADE):]) for k in state.scored if k.startswith(MADE)]
        return min(turns) if turns else None

    def settled(self, state: State) -> bool:
        """Has the units' first attack been made (with the bonuses or not)?"""
        return FORGONE in state.scored or self.made_on(state) is not None

    def in_force(self, state: State) -> bool:
        """19.53 i: "for that Player-Turn only": the side's Player-Turn of the counterattack's Game-Turn."""
        return state.phasing == self.side and self.made_on(state) == state.turn

    def together(self, state: State) -> bool:
        """19.52 ii: "Both units are stacked with or adjacent to each other" (both on the map)."""
        hexes = [state.positions.get(u) for u in self.units]
        if len(hexes) < 2 or any(h is None for h in hexes):
            return False
        first = hexes[0]
        return all(h == first or state.game.grid.distance(first, h) == 1 for h in hexes[1:])

    def factor(self, state: State, unit: str) -> int:
        """19.53 i: the multiple of ``unit``'s Combat Strength in its attack now (1: none)."""
        return self.strength_factor if unit in self.units and self.in_force(state) else 1

    def die(self, state: State, attackers) -> int:
        """19.53 ii: what is added to the die of an attack by ``attackers`` now (0: nothing)."""
        return self.die_modifier if self.in_force(state) and any(u in self.units for u in attackers) else 0

    def advanced(self, state: State) -> int:
        """19.62: the longest advance after combat of either unit in the counterattack, in hexes."""
        lengths = [int(k.rsplit(":", 1)[1]) for k in state.scored if k.startswith(ADVANCED)]
        return max(lengths, default=0)

    def depletion_modifier(self, state: State) -> int:
        """19.62: "Subtract '1' from the die roll for each hex entered after the first ... (up to a
        maximum modifier of minus '3' for a four-hex advance)"."""
        d = self.depletion
        if d is None:
            return 0
        beyond = max(0, self.advanced(state) - 1)
        return max(d.least_modifier, beyond * d.per_hex_beyond_first)

    def depletion_due(self, state: State) -> bool:
        """19.61: "At the start of the Confederate Movement Phase in the Game-Turn following Bowen's
        Counterattack": due then, once."""
        made = self.made_on(state)
        return (
            self.depletion is not None
            and made is not None
            and state.turn == made + 1
            and state.phasing == self.side
            and DEPLETION_ROLLED not in state.scored
        )

    def replaced_by(self) -> dict[str, str]:
        """19.61: each unit and the "Out of Ammo" unit that replaces it."""
        return dict(self.depletion.out_of_ammo) if self.depletion is not None else {}

    def set_aside(self) -> frozenset[str]:
        """16.2: "The two Confederate units with 'Out of Ammo' printed on their backs are set aside"."""
        return frozenset(self.replaced_by().values())

    def victory_strength(self, unit: Unit, units: dict[str, Unit]) -> int:
        """19.63, 21.1: an "Out of Ammo" unit counts at the full strength of the unit it replaced."""
        for brigade, spare in self.replaced_by().items():
            if spare == unit.id and brigade in units:
                return units[brigade].strength
        return unit.strength
