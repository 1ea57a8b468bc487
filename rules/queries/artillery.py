"""Artillery (1975 8.0–8.5): who bombards, at what range, with what line of sight.

- 8.11, 8.12: artillery may attack a non-adjacent enemy hex up to three hexes distant (the rule set's
  ``bombard_range``), counting the target hex but not its own.
- 8.41: artillery in an enemy-controlled hex is treated like infantry and may not bombard; so a
  battery bombards only from a hex no enemy controls. 8.45: across a creek hexside from the only
  adjacent enemy it is not in that enemy's zone (6.6) and may bombard it, range 1.
- 8.31–8.35: the line of sight, from the centre of the firer's hex to the target's, is blocked by any
  hex it crosses that holds forest, forest & rough or town (the rule set's ``blocking_terrain``);
  along a hexside (8.32) only when both hexes beside it block; the firer's and target's hexes never
  block (8.34); units never block (8.35). ``Grid.line_of_sight`` computes it exactly. A rule set with
  its own line of sight gives it as its procedure ``line_of_sight`` (revised 9.3x with elevation:
  rules/revised/sight.py).
- 8.13, 8.14 (one target hex, batteries of one hex together), 8.15, 8.16 (no result but an elective
  Ar), 8.2 (combined attacks: in range of one of the defending hexes is enough) are applied in
  rules/procedures/combat.py where the attack is declared and resolved.
- 8.51: artillery never adds strength to a defence: bombardment happens only in its own Combat Phase.
"""

from __future__ import annotations

from rules.core.game import Game

BOMBARDING_TYPES = frozenset({"artillery", "gunboat"})  # revised 9.65: gunboats attack as artillery


def in_range(game: Game, firer: str, target: str, reach: int | None = None) -> bool:
    """8.11, 8.12: up to ``bombard_range`` hexes (``reach``: the unit's own, Game.bombard_range; a
    gunboat's is six, revised 9.65), counting the target hex, not the firer's."""
    return 1 <= game.grid.distance(firer, target) <= (game.ruleset.bombard_range if reach is None else reach)


def sight_blocker(game: Game, firer: str, target: str) -> str | None:
    """What blocks the line of sight from ``firer`` to ``target`` (words), or None when it is clear.

    The rule set's procedure ``line_of_sight(game, firer, target)``: 1975 8.31-8.35
    (``standard_sight_blocker``); revised 9.3x, with elevation (rules/revised/sight.py). It depends on
    the map and the rule set only, so each pair's answer is kept in ``game.sight_blockers``."""
    key = (firer, target)
    kept = game.sight_blockers
    if key not in kept:
        kept[key] = game.ruleset.procedures.line_of_sight(game, firer, target)
    return kept[key]


def standard_sight_blocker(game: Game, firer: str, target: str) -> str | None:
    """8.31-8.35: nothing between the two hexes blocks (8.32 along a hexside: both hexes)."""
    blocking = game.ruleset.blocking_terrain
    terrain = game.terrain
    if game.grid.line_of_sight(firer, target, lambda h: terrain.get(h) in blocking):
        return None
    return "forest or town"


def line_of_sight(game: Game, firer: str, target: str) -> bool:
    """The line of sight from ``firer`` to ``target`` is clear (``sight_blocker``)."""
    return sight_blocker(game, firer, target) is None


def may_bombard(game: Game, firer: str, target: str, reach: int | None = None) -> bool:
    """Range (8.11, 8.12; ``reach`` as in ``in_range``) and line of sight (8.31) from ``firer`` to
    ``target``; kept in ``game.bombard_pairs`` (the map and the rule set decide it)."""
    key = (firer, target, reach)
    kept = game.bombard_pairs
    answer = kept.get(key)
    if answer is None:
        answer = kept[key] = (
            in_range(game, firer, target, reach) and line_of_sight(game, firer, target) and not _from_ferry(game, firer)
        )
    return answer


def _from_ferry(game: Game, firer: str) -> bool:
    """Grand Chancellorsville 22.11: "Artillery units may not bombard from a River ferry hex"."""
    ferries = game.battle.ferries
    return ferries is not None and ferries.no_bombard and game.terrain.get(firer) == "ferry"


def bombard_problem(game: Game, firer: str, target: str, reach: int | None = None) -> tuple[str, str] | None:
    """Why artillery (or a gunboat, ``reach`` 6) at ``firer`` may not bombard ``target`` (rule name,
    words), or None."""
    if not in_range(game, firer, target, reach):
        d = game.grid.distance(firer, target)
        n = game.ruleset.bombard_range if reach is None else reach
        who = (
            "artillery bombards"
            if n == game.ruleset.bombard_range
            else "a gunboat bombards" if n == game.ruleset.gunboat_range else "this artillery bombards"
        )
        return "bombard", f"{target} is {d} hexes from {firer}; {who} up to {n} hexes"
    blocker = sight_blocker(game, firer, target)
    if blocker is not None:
        return "line_of_sight", f"the line of sight from {firer} to {target} is blocked by {blocker}"
    if _from_ferry(game, firer):
        return "ferries.bombard", f"artillery may not bombard from the River ferry hex {firer}"
    return None
