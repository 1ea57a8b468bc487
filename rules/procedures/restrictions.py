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

from rules.core.events import (
    AttackDeclared,
    CombatResolved,
    Event,
    ImmobilityReleased,
    MovementRestrictionsLifted,
    ReinforcementEntered,
    UnitExited,
    UnitMoved,
)
from rules.core.handlers import only_with
from rules.core.hexes import hexside
from rules.core.scenario import other_side
from rules.core.state import State


@only_with("movement_quota")
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


# -- Fredericksburg 19.1: immobility and its releases ------------------------------------------------
@only_with("immobility")
def release_immobile(state: State, events: list[Event], after: State) -> list[Event]:
    """Fredericksburg 19.11-19.13: the releases a command's events bring about (``state``: the state
    before them, ``after`` the state after them), the units released for good. 19.11 and 19.12 release
    every unit still immobile at once; 19.13 each unit an enemy unit came within range of, by movement,
    retreat or advance (the hexes it stands in after the command and those its paths went through)."""
    rule = state.game.battle.immobility
    if rule is None or not events:
        return []
    bound = rule.bound(after)
    if not bound:
        return []
    game = state.game
    units = game.units
    enemy = other_side(rule.side)
    if rule.released_when_attacked:  # Ezra Church 17.2: "If any Union unit in hex row 19XX is attacked"
        for e in events:
            if isinstance(e, AttackDeclared):
                hit = [h for h in e.attack.defenders if rule.in_rows(h) and any(units[u].side == rule.side for u in state.units_in(h))]
                if hit:
                    by = next((u for u in e.attack.attackers + e.attack.bombarding), "")
                    return [_released(state, rule, bound, "attacked", by, hit[0], "immobility.attacked")]
    if rule.released_each_turn:  # Ezra Church 17.2: "One unit may be released each Game-Turn"
        moved = [e.unit for e in events if isinstance(e, UnitMoved) and e.unit in bound]
        if moved:
            return [_released(state, rule, moved[:1], "each_turn", moved[0], "", "immobility.each_turn")]
    for e in events:  # 19.11: "as soon as any Union unit exits the map sheet from hexes 2501 or 2027"
        if isinstance(e, UnitExited) and units[e.unit].side == rule.side and e.path[-1] in rule.released_by_exit_at:
            return [_released(state, rule, bound, "exit", e.unit, e.path[-1], "immobility.exit")]
    for h in rule.released_by_enemy_occupying:  # 19.12: occupation, 21.21
        if after.control.get(h) == enemy and state.control.get(h) != enemy:
            unit = next((u for u, where in after.positions.items() if where == h), "")
            if not unit:  # moved through: the last unit of the enemy whose path crossed it
                unit = next((e.unit for e in reversed(events) if h in getattr(e, "path", ())), "")
            return [_released(state, rule, bound, "occupation", unit, h, "immobility.occupation")]
    within = rule.released_by_enemy_within
    if within is None:
        return []
    # 19.13: where enemy units went in this command (their paths) and where they stand after it
    near: dict[str, str] = {}
    for e in events:
        unit = getattr(e, "unit", None)
        path = getattr(e, "path", None)
        if path and unit in units and units[unit].side == enemy:
            for h in path:
                near.setdefault(h, unit)
    for u, h in after.positions.items():
        if units[u].side == enemy and state.positions.get(u) != h:
            near.setdefault(h, u)
    grid = game.grid
    released, by = [], ""
    for u in bound:
        here = after.positions[u]
        came = next((near[h] for h in sorted(near) if grid.distance(here, h) <= within), None)
        if came is not None:
            released.append(u)
            by = by or came
    if not released:
        return []
    return [_released(state, rule, released, "within", by, "", "immobility.within")]


def _released(state: State, rule, units: list[str], cause: str, unit: str, hex_: str, case: str) -> ImmobilityReleased:
    return ImmobilityReleased(
        side=rule.side, units=units, cause=cause, unit=unit, hex=hex_, case=state.game.case(case)
    )


def apply_released(state: State, event: ImmobilityReleased) -> None:
    state.released = state.released | set(event.units)
    if event.cause == "each_turn":  # Ezra Church 17.2: one a Game-Turn
        from rules.core.components.immobility import EACH_TURN

        state.scored.update(f"{EACH_TURN}{state.turn}:{u}" for u in event.units)


# -- First Bull Run 17.1, 17.2: units held until released ---------------------------------------------
@only_with("may_not_move_until")
def release_holds(state: State, events: list[Event], after: State) -> list[Event]:
    """17.1, 17.2 (the battle's ``may_not_move_until``): the releases a command's events bring about.
    ``until_attacked``: a combat resolved with one of the side's units among its defenders (17.1: "a
    Confederate unit has been attacked"); ``until_enemy_enters``: a unit of the other side stepped from
    a hex outside the area into one of its hexes, by movement, retreat or advance (17.2: "crossed Bull
    Run"). Every unit of the hold is released for good (``ImmobilityReleased``)."""
    rule = state.game.battle.may_not_move_until
    if rule is None or not events:
        return []
    game = state.game
    units = game.units
    out: list[Event] = []
    for hold in rule.holds:
        bound = [u.id for u in game.scenario.units if hold.binds(u) and u.id not in state.released]
        if not bound or (hold.until_turn is not None and state.turn >= hold.until_turn):
            continue
        cause, by, where = "", "", ""
        if hold.until_itself_attacked:  # Olustee 18.1: "unless it is attacked": each unit by itself
            hit = sorted({d for e in events if isinstance(e, CombatResolved) for d in e.defending if d in bound})
            if hit:
                case = game.case(hold.rule)
                out.append(ImmobilityReleased(side=hold.side, units=hit, cause="attacked", unit=hit[0], hex=state.positions.get(hit[0], ""), case=case))
            continue
        if hold.until_attacked:
            for e in events:
                if isinstance(e, CombatResolved):
                    hit = [d for d in e.defending if units[d].side == hold.side]
                    if hit:
                        cause, by, where = "attacked", hit[0], state.positions.get(hit[0], "")
                        break
        if not cause and hold.until_enemy_enters is not None:
            area = set(game.scenario.map.areas.get(hold.until_enemy_enters, ()))
            enemy = other_side(hold.side)
            for e in events:
                unit, path = getattr(e, "unit", None), getattr(e, "path", None)
                if not path or unit not in units or units[unit].side != enemy:
                    continue
                step = next((b for a, b in zip(path, path[1:], strict=False) if a not in area and b in area), None)
                if step is not None:
                    cause, by, where = "crossed", unit, step
                    break
        if cause:
            case = game.case(hold.rule)
            out.append(ImmobilityReleased(side=hold.side, units=bound, cause=cause, unit=by, hex=where, case=case))
    return out
