"""Surprise Assault (Shiloh 19.0): on the battle's first Game-Turns one side, caught by surprise, moves
only as it is told, and the other's attacks are helped.

- ``side``: the side surprised; ``turns``: the Game-Turns it lasts (19.1: "each of the first two
  Game-Turns").
- ``directions``: 19.1 "all Union units not locked by Confederate Zones of Control must move one, and only
  one, hex either to the north or north-east (Union Player's choice)": each unit of ``side`` on the map
  moves exactly one hex, into the adjacent hex in one of these directions ("north", "north_east",
  "south_east", "south", "south_west", "north_west"; north is the top of the map), by an ordinary move
  (the movement rules apply to the step; no Strategic Movement). "A unit that is in an Enemy Zone of
  Control may not move" (the standard 6.13). Its Movement Phase does not end while a unit that must
  move, and may, has not moved (``must_move``, a phase-end check).
- ``enemy_attack_die_modifier``: 19.2 "Subtract '1' from the combat die roll for any Confederate attack
  during the first two Game-Turns": added to the die of every attack of the other side in ``turns``
  (bombardments included), after 8.61's (rules/revised/combat_procedures.py).

    [exclusive.surprise_assault]
    side = "union"
    turns = [1, 2]
    directions = ["north", "north_east"]
    enemy_attack_die_modifier = -1

Rulings (docs/RULINGS.md): a unit that can make none of its moves (every hex in those directions off the
map, prohibited, enemy-held or refused by the movement rules) stays; the side's units entering as
reinforcements in those Game-Turns are not bound (none do at Shiloh).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rules.core.components.values import Component, Count
from rules.core.hexes import HexError
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.state import State

Direction = Literal["north", "north_east", "south_east", "south", "south_west", "north_west"]

#: Axial steps of each direction (rules/core/hexes.py DIRECTIONS: north first, clockwise).
STEPS: dict[str, tuple[int, int]] = {
    "north": (0, -1),
    "north_east": (1, -1),
    "south_east": (1, 0),
    "south": (0, 1),
    "south_west": (-1, 1),
    "north_west": (-1, 0),
}


class SurpriseAssault(Component, frozen=True):
    side: Side
    turns: list[Count]
    directions: list[Direction] = []
    enemy_attack_die_modifier: int = 0

    def binds(self, state: State, unit: str) -> bool:
        """19.1: is ``unit`` bound to the surprise move now (its side's unit, in one of the turns)?"""
        return (
            bool(self.directions)
            and state.turn in self.turns
            and state.game.units[unit].side == self.side
        )

    def hexes_ahead(self, state: State, hex_: str) -> tuple[str, ...]:
        """19.1: the hexes of the map adjacent to ``hex_`` in the directions allowed."""
        game = state.game
        q, r = game.grid.axial(hex_)
        out = []
        for d in self.directions:
            dq, dr = STEPS[d]
            try:
                h = game.grid.number(q + dq, r + dr)
            except HexError:
                continue
            if h in game.terrain:
                out.append(h)
        return tuple(out)

    def die_modifier(self, state: State, attacker: str) -> int:
        """19.2: what is added to the combat die of an attack by ``attacker``'s side now."""
        if attacker != self.side and state.turn in self.turns:
            return self.enemy_attack_die_modifier
        return 0
