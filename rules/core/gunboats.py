"""Gunboats (revised 9.6–9.66): a unit type only the revised rule set has.

- 9.61: the Union may begin with gunboats or receive them as reinforcements (a unit ``type =
  "gunboat"`` in the order of battle; the validator refuses a Confederate one, and any under the 1975
  rules, which have none).
- 9.62: an unlimited Movement Allowance, but only through contiguous river hexes, plus the hexes a
  scenario names (``[exclusive.gunboats] hexes``: Shiloh's 1701). ``waters`` are those hexes; the step
  table gives each step between two of them 1 MP (10.1 "1 MP for gunboats") and ``ALLOWANCE`` is
  more than any path on a map can cost, i.e. unlimited.
- 9.63: two gunboats may stack in a hex: the stacking limit (6.32) itself; land units never enter a
  river hex, so gunboats there stack only with gunboats. Ruling: at a scenario's extra hex a gunboat
  counts toward the limit like any unit.
- 9.64: no zone of control, and none affects them (rules/queries/zoc.py leaves them out; movement gives a
  gunboat no enemy-controlled hexes; combat never makes one owe an attack nor cause one).
- 9.65: they bombard as artillery at range 6 (``RANGE``), line of sight as artillery, their strength
  unchanged by range (rules/revised/combat.py ``range_factor``). Never an adjacent attack: a gunboat is
  in no enemy zone, so even next to its target it bombards (range 1).
- 9.66: never attacked: a hex holding only gunboats is not a target; where a gunboat shares a hex
  with other units (an extra hex), it is not among the defenders (adds nothing, suffers nothing).
  Ruling: a gunboat still "contains an Enemy unit" for 6.12, so no enemy unit enters, retreats into,
  or advances into its hex.
"""

from __future__ import annotations

from rules.core import terrain

GUNBOAT = "gunboat"
RANGE = 6  # 9.65
STEP_COST = 1  # 10.1 "1 MP for gunboats"
# 9.62: a gunboat's allowance is unlimited: no path of 1 MP steps on any map reaches this.
ALLOWANCE = 10_000


def is_gunboat(game, unit: str) -> bool:
    return game.units[unit].type == GUNBOAT


def waters(game) -> frozenset[str]:
    """9.62: the hexes a gunboat may move through: every river hex (a river ferry hex too, never ended
    in: 6.28) and the battle's named extra hexes
    (rules/core/components/gunboats.py)."""
    extra = game.battle.gunboats.hexes
    # Ruling: a river ferry hex is a river hex to a gunboat (6.28: it never ends its move there).
    river = (terrain.RIVER, terrain.FERRY)
    return frozenset(h for h, t in game.scenario.map.hexes.items() if t in river) | frozenset(extra)


def steps(game) -> dict[str, tuple]:
    """9.62: the gunboat step table: from each hex of its waters into each adjacent one, 1 MP."""
    w = waters(game)
    return {a: tuple((b, STEP_COST) for b in game.neighbours[a] if b in w) if a in w else () for a in game.neighbours}


def without_gunboats(occupants: dict[str, list[str]], units) -> dict[str, list[str]]:
    """9.64, 9.66: the occupied hexes with their units other than gunboats (hexes of gunboats only
    left out): what combat sees."""
    out = {}
    for h, us in occupants.items():
        rest = [u for u in us if units[u].type != GUNBOAT]
        if rest:
            out[h] = rest
    return out


def combat_occupants(state) -> dict[str, list[str]]:
    """9.64, 9.66: ``state.occupants()`` as combat sees it, without gunboats (``without_gunboats``;
    the occupants as they are in a battle with none)."""
    occupants = state.occupants()
    return without_gunboats(occupants, state.game.units) if state.game.gunboats else occupants


def unplayable(scenario, ruleset) -> str | None:
    """Why the scenario may not be played under ``ruleset`` for its gunboats (a book without 9.6), or
    None."""
    if ruleset.gunboat_range:
        return None
    for u in scenario.units:
        if u.type == GUNBOAT:
            return (
                f"unit {u.id} ({u.designation}) is a gunboat; the {ruleset.name} rule set has no gunboats "
                "(revised 9.6 only)"
            )
    return None
