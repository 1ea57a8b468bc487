"""Movement restrictions removed for good (Fredericksburg 19.0: an enemy unit occupies one of the
quota's ``lifted_by_enemy_occupying`` hexes, by movement, retreat or advance; Antietam 20.1: "All movement restrictions are permanently
removed from the Union Player in the Union Player-Turn following the movement of any Confederate unit
across a creek hex side"), by the battle's ``movement_quota.lifted_by_enemy_crossing``.

An ``after_command`` hook: when a command's events move a unit of the other side across a hexside with
one of the features named, ``MovementRestrictionsLifted`` follows and the side is in ``state.released``
from then on. The other side moves only in its own Player-Turn, so the bound side's next Movement Phase
is the "Player-Turn following" it.

Rulings (docs/RULINGS.md, "Antietam"):
- "the movement of any Confederate unit": a move in a Movement Phase (``UnitMoved``, the path of a
  reinforcement entering, ``ReinforcementEntered``); a retreat or an advance after combat is not
  movement (Chattanooga 17.13 draws the same line for the quota), so it lifts nothing.
- "All movement restrictions": the quota of 20.1; the Union artillery stays immobile (18.1: "during the
  course of the game"; 20.1: "free to move all units (which are capable of movement)").
"""

from __future__ import annotations

from rules.core.events import Event, MovementRestrictionsLifted, ReinforcementEntered, UnitMoved
from rules.core.hexes import hexside
from rules.core.state import State


def lift_on_crossing(state: State, events: list[Event], after: State) -> list[Event]:
    """20.1: the lifting that follows a command's moves (``state``: the state before them, ``after``
    the state after them)."""
    quota = state.game.battle.movement_quota
    if quota is None or quota.side in state.released:
        return []
    if quota.lifted_by_enemy_occupying:
        lifted = lift_on_occupation(state, events, after)
        if lifted:
            return lifted
    if not quota.lifted_by_enemy_crossing:
        return []
    game = state.game
    features = set(quota.lifted_by_enemy_crossing)
    sides = game.scenario.map.hexsides
    for e in events:
        if not isinstance(e, UnitMoved | ReinforcementEntered) or game.units[e.unit].side == quota.side:
            continue
        for a, b in zip(e.path, e.path[1:], strict=False):
            key = hexside(a, b)
            found = sides.get(key)
            if found is not None and features & found.features:
                case = game.case("movement_quota.lifted")
                return [MovementRestrictionsLifted(side=quota.side, unit=e.unit, hexside=key, case=case)]
    return []


def lift_on_occupation(state: State, events: list[Event], after: State) -> list[Event]:
    """Fredericksburg 19.0: "This restriction is lifted if a Confederates unit occupies Burnside's
    headquarters (hex 0206), either due to movement, or retreat or advance in prospect of or after
    combat": the command left a hex of ``lifted_by_enemy_occupying`` occupied (21.21, control) by the
    other side, which it was not before; whatever the command (a move, a retreat, an advance)."""
    quota = state.game.battle.movement_quota
    enemy = "confederate" if quota.side == "union" else "union"
    for h in quota.lifted_by_enemy_occupying:
        if after.control.get(h) == enemy and state.control.get(h) != enemy:
            unit = next((u for u, where in after.positions.items() if where == h), "")
            if not unit:  # moved through: the last unit of the enemy whose path crossed it
                unit = next((e.unit for e in reversed(events) if h in getattr(e, "path", ())), "")
            case = state.game.case("movement_quota.lifted")
            return [MovementRestrictionsLifted(side=quota.side, unit=unit, hexside="", hex=h, case=case)]
    return []


def apply_lifted(state: State, event: MovementRestrictionsLifted) -> None:
    state.released = state.released | {event.side}
