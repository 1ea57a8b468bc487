"""Units immobile until released (Fredericksburg 19.0, 19.1): "all Union artillery and cavalry units
starting the game on the eastern side of the Rappahannock River may not move until released by a variety
of Confederate movements". The ``side``'s units of ``unit_types`` whose set-up hex is one of ``hexes``
may not move until released, for good:

- 19.11: all of them "as soon as any Union unit exits the map sheet from hexes 2501 or 2027"
  (``released_by_exit_at``);
- 19.12: all of them "as soon as a Confederate unit occupies a pontoon bridge or ford hex"
  (``released_by_enemy_occupying``; occupation is 21.21's, so these hexes are tracked: a unit moving
  through one occupies it, and no unit may end its move in a pontoon or ford hex);
- 19.13: each one "if a Confederate unit comes within three hexes of the immobile unit"
  (``released_by_enemy_within``).
"This release ... can result from movement, or advance or retreat in prospect of or after combat"
(19.13, 19.12): rules/procedures/restrictions.py ``release_immobile`` (an ``after_command`` hook) records
each release (``ImmobilityReleased``; ``state.released``).

    [exclusive.immobility]
    side = "union"
    unit_types = ["artillery", "cavalry"]
    hexes = ["0206", "0216", ...]              # the east bank's set-up hexes
    released_by_exit_at = ["2501", "2027"]
    released_by_enemy_occupying = ["0610", "0909", "1305", "0322", "0327", "0412"]
    released_by_enemy_within = 3

Ezra Church 17.2: "The Union Player may not move the units in hex row 19XX unless they are released.
One unit may be released each Game-Turn starting with Game-Turn One. If any Union unit in hex row 19XX is
attacked than all Union units are released."

    [exclusive.immobility]
    side = "union"
    columns = [19]                  # the units set up in hex row 19XX, of every type (no unit_types)
    released_each_turn = 1
    released_when_attacked = true

- ``columns``: the hex rows (columns "19XX") whose set-up units are bound, besides ``hexes``;
  ``unit_types`` absent: every type.
- ``released_each_turn``: so many bound units may be released each Game-Turn: a bound unit may move
  while fewer have been released this Game-Turn, and its move releases it for good (``ImmobilityReleased``
  cause ``each_turn``, case ``immobility.each_turn``); none is saved for a later Game-Turn.
- ``released_when_attacked``: every bound unit is released once an attack is declared on a hex of
  ``hexes`` or ``columns`` holding a unit of the side (cause ``attacked``, case ``immobility.attacked``).

Rulings (docs/RULINGS.md, "Fredericksburg"): "may not move" bars movement in the Movement Phase (a move,
strategic movement, an exit), as Antietam 20.2's; the units still attack, retreat and advance after combat.
"Comes within three hexes" counts a Confederate unit whose move, retreat or advance passes within three
hexes, as well as one that ends there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.components.values import Component, Count, HexNumber
from rules.core.scenario import Side, Unit, UnitType

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.state import State


EACH_TURN = "immobility_turn:"


class Immobility(Component, frozen=True):
    side: Side
    unit_types: list[UnitType] = []
    hexes: list[HexNumber] = []
    released_by_exit_at: list[HexNumber] = []
    released_by_enemy_occupying: list[HexNumber] = []
    released_by_enemy_within: Count | None = None
    columns: list[int] = []
    released_each_turn: Count = 0
    released_when_attacked: bool = False

    def in_rows(self, hex_: str | None) -> bool:
        """19.0: one of the hexes; Ezra Church 17.2: a hex of one of the hex rows."""
        return hex_ is not None and (hex_ in self.hexes or int(hex_[:2]) in self.columns)

    def binds(self, unit: Unit) -> bool:
        """19.0: one of the side's units of these types (any, when none is named) that starts the game
        in one of the hexes (Ezra Church 17.2: or hex rows)?"""
        return (
            unit.side == self.side
            and (not self.unit_types or unit.type in self.unit_types)
            and self.in_rows(unit.hex)
        )

    def released_this_turn(self, state: State) -> int:
        """Ezra Church 17.2: how many bound units were released this Game-Turn by ``released_each_turn``."""
        prefix = f"{EACH_TURN}{state.turn}:"
        return sum(1 for k in state.scored if k.startswith(prefix))

    def bound(self, state: State) -> list[str]:
        """19.1: the units still immobile, on the map."""
        units = state.game.units
        return sorted(
            u for u in state.positions if u not in state.released and self.binds(units[u])
        )

    def tracked_hexes(self) -> tuple[str, ...]:
        """19.12: the pontoon bridge and ford hexes, whose occupation (21.21) releases every unit."""
        return tuple(self.released_by_enemy_occupying)

    def restriction(self, state: State, unit: str) -> RuleViolation | None:
        """19.0, 19.1: refuse a move of a unit still immobile."""
        u = state.game.units[unit]
        if not self.binds(u) or unit in state.released:
            return None
        if self.released_this_turn(state) < self.released_each_turn:
            return None  # Ezra Church 17.2: this move releases it (rules/procedures/restrictions.py)
        return state.game.violation(
            "immobility",
            f"{u.designation} began the game in {u.hex} and may not move until released",
        )
