"""Exiting the map (Chickamauga 18.0) and its Victory Points (21.11 ii)-iv), 21.31), for a battle with
an ``exits`` component (rules/core/components/exits.py).

- 18.1, 18.5: a unit exits only from one of the battle's exit hexes, in its own Movement Phase, as its
  move (5.17: it has not moved yet; the battle's movement restrictions apply);
- 18.2: exiting costs ``cost`` Movement Points beyond the path to the exit hex (the movement rules of
  ``check_path`` apply to that path: zones of control, terrain, the allowance);
- 18.3: the unit is removed from play for good (rules/queries/exits.py);
- 18.6: no retreat leaves the map (a retreat goes only to hexes of the map: rules/procedures/retreat.py);
- 18.7: any number of units may exit by the same hex.
- 5.32 (revised 6.32): the exit is a move, and under a movement quota (Fredericksburg 19.0) one of the
  quota's: it is refused when an over-full hex would be left with too few moves to empty it.
- Hooker and Lee 18.22, 18.23: a battle's ``exit_and_return`` hexes are exits too for its side on the
  Game-Turns it names (``UnitMarchedOff``: the unit returns later as a reinforcement).
- Road to Vicksburg 19.3: with ``along_road``, "Such units must exit along a road": only from an exit
  hex a road runs through (rules/queries/exits.py ``exit_hexes``).
- Hooker and Lee 18.11, 18.21: with ``not_occupied_or_controlled_by_enemy`` no exit from an exit hex in
  an enemy zone of control, by night too (``exit_hex_controlled``).
- Cemetery Hill 18.2: only the ``unit_types`` (cavalry) exit, from any hex of the exit ``edges`` (east,
  south), for ``cost`` (one) Movement Point; 20.3: ``excess_exited`` points at the end of each Union
  Player-Turn (``award_excess_exited``, an end-of-phase step).

Readings made here (docs/RULINGS.md, "Chickamauga"):
- A unit that ends its path in an enemy zone of control (6.0: it stops there), or stands in one and
  may not leave it (5.13; the rule set's zone rules), may not exit: leaving the map is leaving the hex.
- The exit points of 21.11 ii) are "Awarded During Play": as the unit exits. Those of iii) are awarded at
  the end of the game, when 21.31's line of communications ("free of Union units at the end of the
  game") is judged; iv)'s (the Train "fails to exit") at the end too.
"""

from __future__ import annotations

from collections import deque

import msgspec

from rules.core import terrain
from rules.core.arith import movement_points
from rules.core.commands import ExitMap
from rules.core.components.exit_and_return import RETURNING
from rules.core.errors import RuleViolation
from rules.core.events import Event, UnitExited, UnitMarchedOff, VictoryPointsAwarded
from rules.core.handlers import Dice, only_with
from rules.core.hexes import hexside
from rules.core.scenario import other_side
from rules.core.state import State
from rules.procedures.movement import (
    allowance_now,
    check_no_dead_end,
    check_path,
    enemy_zones_for,
    reachable,
    why_unit_may_not_move,
)
from rules.procedures.night import zoc_rules
from rules.procedures.sequence import phases
from rules.queries import stacking
from rules.queries.communications import cut_off
from rules.queries.control import entered
from rules.queries.edges import on_edge
from rules.queries.exits import (
    EXITED,
    EXITED_BY,
    exit_hexes,
    exited,
    exited_by,
    exited_of,
    has_exited,
    is_road_hex,
)


def exit_problem(state: State, unit: str, path: tuple[str, ...]) -> RuleViolation | None:
    """Why ``unit`` may not exit along ``path`` now (18.1, 18.2, 18.5), or None."""
    game = state.game
    exits = game.battle.exits
    if exits is None:
        return game.violation("movement", "no unit may exit the map in this battle")
    problem = why_unit_may_not_move(state, unit)
    if problem is not None:
        return problem
    name = game.designation(unit)
    here = state.positions[unit]
    if not path or path[0] != here:
        return game.violation("movement", f"an exit of {name} must start at its hex {here}")
    kind = game.units[unit].type
    if marching_off(state, unit, path[-1] if path else ""):  # Hooker and Lee 18.22: the flank march's hexes
        pass
    elif not exits.may_exit(kind, game.units[unit].side):  # Cemetery Hill 18.2 "Only cavalry units may exit the map sheet"
        allowed = " or ".join(exits.unit_types) or " or ".join(exits.sides)
        return game.violation("exits", f"{name} may not exit the map: only {allowed} units may ({kind})")
    flank = game.battle.exit_and_return
    if flank is not None and path[-1] in flank.hexes and path[-1] not in exit_hexes(game) and not marching_off(state, unit, path[-1]):
        return game.violation(  # Hooker and Lee 18.22, 18.27
            "exit_and_return",
            f"{name} may not exit the map at {path[-1]}: only {flank.side.title()} units, on Game-Turns "
            f"{', '.join(str(r.exited_on) for r in flank.returns)}, {flank.units} in all",
        )
    if (
        exits.along_road  # Road to Vicksburg 19.3: an exit hex of the list, but no road runs through it
        and not is_road_hex(game, path[-1])
        and (path[-1] in exits.hexes or any(path[-1] in on_edge(game, e) for e in exits.edges))
        and not marching_off(state, unit, path[-1])
    ):
        return game.violation("exits", f"{name} may not exit the map at {path[-1]}: units must exit along a road, and no road runs through {path[-1]}")
    if path[-1] not in exit_hexes(game) and not marching_off(state, unit, path[-1]):
        listed = ", ".join([*exits.hexes, *(f"the {e} edge" for e in exits.edges)])
        return game.violation("exits", f"{name} may exit the map only at {listed}, not at {path[-1]}")
    try:
        cost = check_path(state, unit, path) if len(path) > 1 else 0
    except RuleViolation as refused:
        return refused
    ezoc = enemy_zones_for(state, unit)
    if path[-1] in ezoc and (len(path) > 1 or not zoc_rules(state, game.units[unit].side, unit).may_exit):
        return game.violation("exits", f"{name} is in an enemy zone of control at {path[-1]} and may not leave the map")
    if path[-1] in ezoc and exits.not_occupied_or_controlled_by_enemy:
        return exit_hex_controlled(state, unit, path[-1])
    allowance = allowance_now(state, unit)
    if cost + exits.cost > allowance:
        return game.violation(
            "exits.cost",
            f"{name} would spend {cost} movement points reaching {path[-1]} and {exits.cost} more to exit; "
            f"its movement allowance is {allowance}",
        )
    return dead_end_problem(state, unit, path)


def exit_hex_controlled(state: State, unit: str, hex_: str) -> RuleViolation:
    """Hooker and Lee 18.11, 18.21: units exit only from the exit hexes "if those hexes are not occupied or
    controlled by [enemy] units"; the book lifts this at no time, so on a Night Game-Turn, when revised
    11.12 lets a unit leave an enemy-controlled hex, it still may not leave the map from one."""
    game = state.game
    return game.violation(
        "exits",
        f"{game.designation(unit)} may not exit the map at {hex_}: the enemy controls {hex_}, "
        "and units exit only by exit hexes not occupied or controlled by enemy units",
    )


def dead_end_problem(state: State, unit: str, path: tuple[str, ...]) -> RuleViolation | None:
    """5.32 (revised 6.32), no dead end: the exit is the unit's move, and under a movement quota
    (Fredericksburg 19.0) it uses one; refused when the side's over-full hexes could then no longer
    be brought within the stacking limit by the moves left (rules/procedures/movement.py
    ``check_no_dead_end``)."""
    side = state.game.units[unit].side
    if not stacking.overstacked(state, side):
        return None  # an exit empties a place: it cannot make a hex over-full
    after = state.copy()
    apply_unit_exited(after, UnitExited(unit=unit, path=path, cost=0))
    try:
        check_no_dead_end(after, unit)
    except RuleViolation as refused:
        return refused
    return None


def decide_exit(state: State, command: ExitMap, dice: Dice | None) -> list[Event]:
    """18.1, 18.2: the unit moves to the exit hex and off the map."""
    path = tuple(command.path)
    problem = exit_problem(state, command.unit, path)
    if problem is not None:
        raise problem
    cost = (check_path(state, command.unit, path) if len(path) > 1 else 0) + state.game.battle.exits.cost
    if marching_off(state, command.unit, path[-1]):  # Hooker and Lee 18.22, 18.23
        returns = state.game.battle.exit_and_return.return_turn(state.turn)
        return [UnitMarchedOff(unit=command.unit, path=path, cost=movement_points(cost), returns=returns)]
    return [UnitExited(unit=command.unit, path=path, cost=movement_points(cost))]


def marching_off(state: State, unit: str, hex_: str) -> bool:
    """Hooker and Lee 18.22: is an exit of ``unit`` by ``hex_`` now the battle's exit and return (one of
    its hexes, its side, one of its Game-Turns, fewer than its units gone)? An exit hex of the ``exits``
    component stays an ordinary exit."""
    rule = state.game.battle.exit_and_return
    return rule is not None and hex_ in rule.hexes and hex_ not in exit_hexes(state.game) and rule.open_to(state, unit)


def apply_marched_off(state: State, event: UnitMarchedOff) -> None:
    """18.23: off the map until its Game-Turn of return, neither eliminated nor exited."""
    state.positions.pop(event.unit, None)
    state.moved.add(event.unit)
    state.scored.add(f"{RETURNING}{event.returns}:{event.unit}")
    entered(state, state.game.units[event.unit].side, event.path[1:])  # 21.2: moved through


def apply_unit_exited(state: State, event: UnitExited) -> None:
    """18.3: removed from play, never to return."""
    state.positions.pop(event.unit, None)
    state.moved.add(event.unit)
    state.scored.add(EXITED + event.unit)
    battle = state.game.battle
    line = battle.line_of_communications  # Road to Vicksburg 20.0: units exited at these hexes trace from them
    judged = battle.victory is not None and any(lv.without_exits for lv in battle.victory.levels)  # Road to Vicksburg 21.3
    if battle.exits.awards or battle.command_control_zone is not None or (line is not None and line.exited_at) or judged:  # Road to Richmond 22.12, 20.1
        state.scored.add(f"{EXITED_BY}{event.path[-1]}:{state.turn}:{event.unit}")
    entered(state, state.game.units[event.unit].side, event.path[1:])  # 21.2: moved through


def exit_paths(state: State, unit: str) -> dict[str, tuple[str, ...]]:
    """The exits ``unit`` may make now: for each exit hex, a cheapest path to it (the legal moves)."""
    game = state.game
    exits = game.battle.exits
    if exits is None or not exits.may_exit(game.units[unit].type, game.units[unit].side) or why_unit_may_not_move(state, unit) is not None:
        return {}
    reach = reachable(state, unit)
    out = {}
    flank = game.battle.exit_and_return
    marching = tuple(h for h in flank.hexes if marching_off(state, unit, h)) if flank is not None else ()
    for h in (*exit_hexes(game), *marching):
        if h in reach.cost:
            path = reach.path(h) if h != reach.origin else (h,)
            if exit_problem(state, unit, path) is None:
                out[h] = path
    return out


# -- Victory Points (21.11 ii)-iv), 21.31) -----------------------------------------------------------
def line_to_edge(state: State, side: str, edge: str) -> bool:
    """21.31: contiguous road hexes from an exit hex off the ``edge`` of the map, free of enemy units
    (enemy zones of control do not block it)."""
    game = state.game
    sides = game.scenario.map.hexsides
    blocked = {h for u, h in state.positions.items() if game.units[u].side != side}
    edge_hexes = on_edge(game, edge)
    start = [h for h in game.battle.exits.hexes if h not in blocked]
    seen, todo = set(start), deque(start)
    while todo:
        h = todo.popleft()
        if h in edge_hexes:
            return True
        for n in game.neighbours[h]:
            road = sides.get(hexside(h, n))
            if n not in seen and n not in blocked and road is not None and terrain.ROAD in road.features:
                seen.add(n)
                todo.append(n)
    return False


def route_line(state: State, side: str, ends: list[str]) -> bool:
    """Road to Richmond 22.21: "a series of contiguous hexes from 0117 to hex 1528 inclusive completely
    along roads or trails that are connected at junctions", "free of Enemy units at the end of the
    game" (it may pass through enemy zones of control)."""
    game = state.game
    sides = game.scenario.map.hexsides
    blocked = {h for u, h in state.positions.items() if game.units[u].side != side}
    start, goal = ends
    if start in blocked or goal in blocked:
        return False
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        if h == goal:
            return True
        for n in game.neighbours[h]:
            route = sides.get(hexside(h, n))
            if n not in seen and n not in blocked and route is not None and route.features & {terrain.ROAD, terrain.TRAIL}:
                seen.add(n)
                todo.append(n)
    return False


def award_holds(state: State, award) -> bool:
    """Road to Richmond 22.12: are the award's conditions met at the end of the game?"""
    if award.after_exit is not None and exited_by(state, award.after_exit.unit) != award.after_exit.hex:
        return False  # ii), iv): "if the Union Train unit has exited the map from hex 1528"
    if award.line and not route_line(state, award.side, award.line):
        return False  # ii), iv): "and a ... Line of Communication exists from hex 0117 to hex 1528"
    gone = award.unless_present
    if gone is not None and (gone in state.positions or has_exited(state, gone)):
        return False  # v): "if the Union Train unit was eliminated or never entered the map sheet"
    if award.line_to_areas and not line_to_areas(state, award.side, award.hexes, award.line_to_areas):
        return False  # Grand Chancellorsville 23.61 i)
    return True


def line_to_areas(state: State, side: str, starts, areas) -> bool:
    """Grand Chancellorsville 23.61 i): "a series of contiguous hexes unobstructed by Enemy units or Zones
    of Control from hex F2501 to any hex north of the Rappahannock River through a bridge, River ferry or
    pontoon hex. Friendly units do not negate Enemy Zones of Control": from one of ``starts`` to a hex of
    ``areas``, never through a river or lake hex."""
    from rules.queries.zoc import enemy_controlled, enemy_occupied

    game = state.game
    goal = {h for a in areas for h in game.scenario.map.areas.get(a, ())}
    blocked = enemy_occupied(state, side) | enemy_controlled(state, side)
    todo = [h for h in starts if h in game.terrain and h not in blocked]
    seen = set(todo)
    while todo:
        h = todo.pop()
        if h in goal:
            return True
        for n in game.neighbours[h]:
            if n not in seen and n not in blocked and game.terrain.get(n) not in (terrain.RIVER, terrain.LAKE) and game.step_problem(h, n) is None:
                seen.add(n)
                todo.append(n)
    return False


def exit_awards(state: State) -> list[VictoryPointsAwarded]:
    """Road to Richmond 22.12 i)-v), Fredericksburg 21.12: the exit awards whose conditions hold, one
    award per unit counted."""
    game = state.game
    case = game.case("exits.points")
    out = []
    line = game.battle.line_of_communications  # Road to Vicksburg 20.0: an exited unit without a line
    lost = set(cut_off(state, line)) if line is not None and line.exited_at else set()  # "considered eliminated"
    for award in game.battle.exits.awards:
        if not award_holds(state, award):
            if award.cut_off_eliminated and award_holds(state, msgspec.structs.replace(award, line_to_areas=[])):
                out.extend(_cut_off(state, award))  # Grand Chancellorsville 23.61 i): "considered eliminated"
            continue
        paired = 0  # Road to Vicksburg 21.3 (per "two_units"): the units counted so far
        for u in exited(state):
            unit = game.units[u]
            if u not in lost and award.counts(u, unit.side, exited_by(state, u), unit.type, unit.size):
                points = award.points * (unit.strength if award.per == "strength_point" else 1)
                if award.per == "two_units":  # "for each two infantry regiments": on each second one
                    paired += 1
                    points = award.points if paired % 2 == 0 else 0
                if points:
                    out.append(VictoryPointsAwarded(side=award.side, points=points, kind="exited", subject=u, case=case))
    return out


def _cut_off(state: State, award) -> list[VictoryPointsAwarded]:
    """23.61 i): the exited units the award counts, without their Line of Communications, scored by the
    enemy as eliminated (its points per Strength Point eliminated)."""
    game = state.game
    victory = game.battle.victory
    enemy = other_side(award.side)
    out = []
    for u in exited(state):
        unit = game.units[u]
        if victory is not None and award.counts(u, unit.side, exited_by(state, u), unit.type, unit.size):
            points = victory.for_unit(enemy, u, unit.strength)
            if points:
                out.append(VictoryPointsAwarded(side=enemy, points=points, kind="cut_off", subject=u, case=game.case("exits.points")))
    return out


def exit_points_during_play(state: State, events: list[Event]) -> list[VictoryPointsAwarded]:
    """21.11 ii) (Victory Points Awarded During Play): "The Union Player receives one Victory Point for
    every Union Combat Strength Point exited from the map sheet": the points per Strength Point of a side
    whose exits need no line to a map edge, awarded as each unit of ``events`` exits (a side with 21.31's
    line scores at the end, when the line is judged: ``exit_points``)."""
    game = state.game
    exits = game.battle.exits
    if exits is None or not exits.points_per_strength_point:
        return []
    out = []
    for e in events:
        if isinstance(e, UnitExited):
            unit = game.units[e.unit]
            points = exited_during_play(game, unit.side) * unit.strength
            if points:
                case = game.case("exits.points")
                award = VictoryPointsAwarded(
                    side=unit.side, points=points, kind="exited", subject=e.unit, case=case
                )
                out.append(award)
    return out


def exited_during_play(game, side: str) -> int:
    """21.11 ii): the points per Strength Point ``side`` scores as its units exit (0: none, or only at the
    end of the game, when 21.31's line to the map edge is judged)."""
    exits = game.battle.exits
    return exits.points_per_strength_point.get(side, 0) if exits.edge_for(side) is None else 0


def exit_points(state: State) -> list[VictoryPointsAwarded]:
    """At the end of the game: 21.11 iii): points for the Strength Points a side with 21.31's line
    exited, if the line holds (a side without one scored them during play: ``exit_points_during_play``);
    iv): points to the enemy for each unit that must exit and has not."""
    game = state.game
    exits = game.battle.exits
    if exits is None:
        return []
    case = game.case("exits.points")
    out = []
    for u in exited(state):
        unit = game.units[u]
        per_point = exits.points_per_strength_point.get(unit.side, 0)
        edge = exits.edge_for(unit.side)
        if per_point and edge is not None and line_to_edge(state, unit.side, edge):  # 21.31
            out.append(VictoryPointsAwarded(side=unit.side, points=per_point * unit.strength, kind="exited", subject=u, case=case))
    out.extend(exit_awards(state))  # Road to Richmond 22.12
    for must in exits.must_exit:
        if not has_exited(state, must.unit):
            side = other_side(game.units[must.unit].side)
            out.append(VictoryPointsAwarded(side=side, points=must.points, kind="not_exited", subject=must.unit, case=game.case("exits.must_exit")))
    return out


# -- Cemetery Hill 20.3: exited cavalry ------------------------------------------------------------------
def excess_award(state: State, turn: int) -> VictoryPointsAwarded | None:
    """20.3: ``excess_exited.points`` to its side for each of its exited units (of the exit types) in
    excess of the enemy's, counted now; None when there is no excess (or no such rule)."""
    game = state.game
    exits = game.battle.exits
    rule = exits.excess_exited if exits is not None else None
    if rule is None:
        return None
    mine = exited_of(state, rule.side, exits.unit_types)
    theirs = exited_of(state, other_side(rule.side), exits.unit_types)
    if mine <= theirs:
        return None
    points = rule.points * (mine - theirs)
    return VictoryPointsAwarded(side=rule.side, points=points, kind="excess_exited", subject=str(turn), case=game.case("exits.excess"))


@only_with("exits")
def award_excess_exited(state: State) -> list[Event]:
    """20.3, as a phase ends: "At the end of each Union Player-Turn, each Player determines the
    cumulative total of his Cavalry units which have exited the map sheet up to that point"; the
    Confederate is awarded five Victory Points for each of his in excess of the Union's."""
    exits = state.game.battle.exits
    rule = exits.excess_exited if exits is not None else None
    if rule is None or state.phasing != rule.at_end_of or state.phase != phases(state)[-1]:
        return []  # not the end of the side's Player-Turn (4.0: its last phase)
    award = excess_award(state, state.turn)
    return [award] if award is not None else []
