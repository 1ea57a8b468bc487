"""Rule sets: the tables and case numbers of one rule book.

The 1975 Standard Rules are ``classic``; the revised 2nd edition (``revised``) will bring its own tables
and its own case numbers (5.13 in the 1975 book is 6.13 in the revised one).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Ruleset:
    """What one rule book fixes: movement allowance, stacking limit, Terrain Effects Chart costs,
    the phases of a Player-Turn, and the case number of each rule, by name."""

    name: str
    movement_allowance: int
    stacking_limit: int
    # Movement points to enter a hex, by terrain; None: may not enter.
    terrain_cost: dict[str, int | None]
    road_cost: int  # entering a hex through a road hexside (5.22)
    trail_cost: int  # entering forest and/or rough through a trail hexside (5.23); never more than the terrain
    ford_extra: int  # crossing a ford hexside (5.25)
    # The phases of a Player-Turn, in order, by day and by night.
    day_phases: tuple[str, ...]
    night_phases: tuple[str, ...]
    # Case numbers by rule name; exclusive rules' names too, as the book numbers them.
    cases: dict[str, str] = field(default_factory=dict)
    # Combat (the Terrain Effects Chart's combat column): the defender's strength multiplied in these
    # hexes, and when every attacker attacks across these hexside features (7.4, 9.0).
    defence_terrain: dict[str, int] = field(default_factory=dict)
    defence_hexside: dict[str, int] = field(default_factory=dict)
    bombard_range: int = 0  # artillery range, counting the target hex (8.11, 8.12)
    blocking_terrain: frozenset[str] = frozenset()  # hexes that block a line of sight (8.33)

    def case(self, name: str) -> str:
        return self.cases[name]


def get(name: str) -> Ruleset:
    """The rule set called ``name`` ("classic")."""
    if name == "classic":
        from rules.rulesets.classic import CLASSIC

        return CLASSIC
    raise KeyError(f"unknown rule set {name!r}: expected 'classic'")
