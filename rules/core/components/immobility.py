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


class Immobility(Component, frozen=True):
    side: Side
    unit_types: list[UnitType]
    hexes: list[HexNumber]
    released_by_exit_at: list[HexNumber] = []
    released_by_enemy_occupying: list[HexNumber] = []
    released_by_enemy_within: Count | None = None

    def binds(self, unit: Unit) -> bool:
        """19.0: one of the side's units of these types that starts the game in one of the hexes?"""
        return unit.side == self.side and unit.type in self.unit_types and unit.hex in self.hexes

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
        return state.game.violation(
            "immobility",
            f"{u.designation} began the game in {u.hex} and may not move until released (19.11-19.13)",
        )
