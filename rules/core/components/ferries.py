"""Ferries (Chattanooga 19.11-19.13; revised 20.21-20.23; Shiloh 20.0): the battle's river ferry hexes.
A ferry hex costs 3 Movement Points and is entered and left only through its arrows (the map's
``ferry_crossing`` hexsides, rules/core/game.py), no unit ends its movement in one (19.12) and a unit forced
to retreat through one is eliminated (19.13, rules/procedures/retreat.py).

    [exclusive.ferries]
    hexes = ["1305", "1013", "0814", "0517"]

The list must be the map's ferry hexes, all of them (scenarios/validate.py). Shiloh 20.0 ("the Ferry
Crossing") adds who may use them and when:

- ``sides``: the sides whose units may use the ferries ("Only Union units may use the Ferry Crossing");
  default both.
- ``one_way`` [{hex, enter_from, leave_to}]: the ferry is crossed only from ``enter_from`` into
  ``leave_to`` ("they may only cross from east to west"; "may not be used to evacuate trapped Union
  forces on the west bank"): no step into the ferry from any other hex, none out of it into any
  other hex, whoever moves (``Game.step_problem``: retreats too).
- ``closed_while_occupied`` {side, hexes}: the ferries may not be used while ``side`` occupies one of
  these hexes ("may not be used if Pittsburg Landing (hex 1508) is occupied by Confederate units"; 18.31
  occupation, rules/queries/control.py; the hexes are tracked); an enemy zone of control there does not
  close it ("It may be used if hex 1508 is merely in a Confederate Zone of Control").

    [exclusive.ferries]
    hexes = ["1608"]
    sides = ["union"]
    one_way = [{ hex = "1608", enter_from = "1709", leave_to = "1508" }]
    closed_while_occupied = { side = "confederate", hexes = ["1508"] }

Rulings (docs/RULINGS.md): "occupied by Confederate units" is 18.31's occupation (a Confederate unit in
1508, or the last to have moved into or through it); the closure binds moves (and reinforcements'
entries), not retreats, which never enter a ferry hex (revised 8.72).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from rules.core.components.values import Component, HexNumber
from rules.core.scenario import SIDES, Side

if TYPE_CHECKING:
    from rules.core.state import State


class OneWay(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Shiloh 20.0: the ferry ``hex`` is entered only from ``enter_from`` and left only into ``leave_to``."""

    hex: HexNumber
    enter_from: HexNumber
    leave_to: HexNumber


class Occupation(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Shiloh 20.0: the ferries are closed while ``side`` occupies one of ``hexes`` (18.31)."""

    side: Side
    hexes: list[HexNumber]


class Ferries(Component, frozen=True):
    hexes: list[HexNumber]
    sides: list[Side] = msgspec.field(default_factory=lambda: list(SIDES))
    one_way: list[OneWay] = []
    closed_while_occupied: Occupation | None = None
    may_end: bool = False  # Grand Chancellorsville 22.11: "units may end their Movement Phase in a River ferry hex"
    halved: bool = False  # 22.11: "Units in River ferry hexes have their Combat Strength halved when attacking and defending"
    zoc_through_arrows: bool = False  # 22.11: "Zones of Control extend into and out of River ferry hexes solely through the entry hex sides"
    no_bombard: bool = False  # 22.11: "Artillery units may not bombard from a River ferry hex"

    def tracked_hexes(self) -> tuple[str, ...]:
        """Shiloh 20.0, 18.31: the hexes whose occupation closes the ferries."""
        c = self.closed_while_occupied
        return () if c is None else tuple(c.hexes)

    def step_problem(self, a: str, b: str) -> str | None:
        """Shiloh 20.0: why no unit may step from ``a`` into ``b`` against a one-way ferry, or None."""
        for way in self.one_way:
            if b == way.hex and a != way.enter_from:
                return f"the ferry {way.hex} may be crossed only from {way.enter_from} to {way.leave_to}"
            if a == way.hex and b != way.leave_to:
                return f"the ferry {way.hex} may be crossed only from {way.enter_from} to {way.leave_to}"
        return None

    def closed_to(self, state: State, side: str) -> str | None:
        """Shiloh 20.0: why ``side``'s units may not use the ferries now, or None."""
        if side not in self.sides:
            return f"only {' and '.join(s.title() for s in self.sides)} units may use the ferry"
        c = self.closed_while_occupied
        if c is not None:
            held = [h for h in c.hexes if state.control.get(h) == c.side]
            if held:
                return f"the ferry may not be used while {held[0]} is occupied by {c.side.title()} units"
        return None
