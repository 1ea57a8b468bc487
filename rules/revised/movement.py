"""The revised 2nd edition's own movement procedures (003, 6.2x, 7.2, 11.1x), selected by the rule
set (rules/rulesets/revised.py ``procedures``); the shared mechanics (rules/procedures/movement.py, zoc.py,
night.py, reinforcements.py) call them where the book differs.

- ``movement_costs(game)``: per unit type (artillery pays the second figure of 10.1), the movement
  points of every step (6.21-6.29, 10.1), and of a step into an enemy-controlled hex (7.2: never
  less than two; no turnpike, road, railway or trail rate into an enemy zone of control, 6.25).
- ``zoc_rules``: at night a unit may leave an enemy-controlled hex, and one that does may not enter
  another in the same Game-Turn (11.12); by day the shared rule (7.0, 6.13).

Rulings (docs/RULINGS.md):
- 6.26: a hex's level is the map's ``levels`` (default 1); a unit climbs when it enters a hex of a
  higher level or crosses a ``slope`` hexside toward its ``high`` hex. Along a route (turnpike, road,
  railway, trail) no climb is paid; into an enemy-controlled hex it is, since the route's rate may
  not be used there (7.2).
- 6.22-6.24: the route's rate applies when the step crosses a hexside with that route; a ferry hex
  costs 3 even along a road (as the 1975 ruling 19.11).
- 7.2: the cost into an enemy-controlled hex is max(2, the hex's terrain cost) plus the hexside
  costs (the book's two examples: stream into forest 4, stream into clear 4).
"""

from __future__ import annotations

from fractions import Fraction

import msgspec

from rules.core import gunboats, terrain
from rules.core.arith import movement_points
from rules.core.commands import BuildBreastworks, CompleteBreastworks, StrategicMove
from rules.core.events import (
    BreastworksBegun,
    BreastworksCompleted,
    BreastworksRemoved,
    Event,
    ReinforcementsBlocked,
)
from rules.core.scenario import Side
from rules.core.state import MOVEMENT, State
from rules.procedures.night import ZocRules, standard_zoc_rules
from rules.procedures.reinforcements import arrival_turn, chart_entry, due, entry_problem, why_may_not_enter
from rules.procedures.sequence import night_turn
from rules.queries.zoc import enemy_occupied

UNIT_TYPES = ("infantry", "cavalry", "artillery")
_TRAIL_SLOW = frozenset({terrain.FOREST, terrain.ROUGH, terrain.FOREST_ROUGH, terrain.SWAMP})  # 6.24


def hex_cost(game, unit_type: str, b: str, side: Side | None = None):
    """10.1, 6.21: the movement points to enter ``b`` for a unit of this type (None: prohibited);
    of ``side`` when given (Wilderness 18.13: the battle's ``terrain_costs``)."""
    rs = game.ruleset
    kind = game.terrain[b]
    own = game.battle.terrain_costs
    if own is not None and rs.terrain_cost.get(kind) is not None and (c := own.hex_cost(side, kind)) is not None:
        return c
    by_type = rs.terrain_cost_by_type.get(unit_type, {})
    if kind in by_type:
        return by_type[kind]
    if kind == terrain.CLEAR and rs.level_cost:
        return rs.level_cost[game.scenario.map.level(b)]
    return rs.terrain_cost.get(kind)


def climbs(game, a: str, b: str) -> bool:
    """6.26: does a step from a into b go up slope?"""
    m = game.scenario.map
    if m.level(b) > m.level(a):
        return True
    side = m.hexsides.get(_hexside(a, b))
    return side is not None and terrain.SLOPE in side.features and side.high == b


def route_cost(game, a: str, b: str, base, side: Side | None = None):
    """6.22-6.24: the rate of the best route the step follows, or None (no route). Wilderness 18.21:
    a side whose units move along trails at the road rate (the battle's ``terrain_costs``)."""
    rs = game.ruleset
    features = game.scenario.map.features(a, b)
    kind = game.terrain[b]
    if kind in (terrain.FERRY, terrain.PONTOON):
        return None  # the ferry's cost holds even along a road (ruling)
    best = None
    if terrain.TURNPIKE in features and rs.turnpike_cost is not None:
        best = rs.turnpike_cost  # 6.22
    elif terrain.ROAD in features or terrain.RAILWAY in features:
        best = rs.road_cost  # 6.23
    elif terrain.TRAIL in features:
        own = game.battle.terrain_costs
        if own is not None and own.trail_at_road_rate(side):
            best = rs.road_cost  # Wilderness 18.21: "at the road movement rate"
        else:
            best = min(base, rs.trail_cost if kind in _TRAIL_SLOW else 1)  # 6.24; 10.1 "use other cost if less"
    return best


def step_costs(game, unit_type: str, a: str, b: str, side: Side | None = None):
    """(cost of a step a->b, cost of the same step into an enemy-controlled hex) for a unit of this
    type (and side: Wilderness 18.13, 18.21), or None when the step is prohibited (game.step_problem,
    or terrain this type may not enter)."""
    if game.step_problem(a, b) is not None:
        return None
    base = hex_cost(game, unit_type, b, side)
    if base is None:
        return None
    rs = game.ruleset
    features = game.scenario.map.features(a, b)
    extra = sum((rs.hexside_cost[f] for f in features if f in rs.hexside_cost and f != terrain.SLOPE), 0)  # 6.25, 6.29
    climb = rs.hexside_cost.get(terrain.SLOPE, 0) if climbs(game, a, b) else 0  # 6.26
    route = route_cost(game, a, b, base, side)
    normal = (route if route is not None else base + climb) + extra
    into_zoc = max(rs.zoc_minimum_cost, base) + climb + extra  # 7.2, 6.25
    return _exact(normal), _exact(into_zoc)


def movement_costs(game, side: Side | None = None):
    """The step tables by unit type and the costs into enemy-controlled hexes (Game.__init__); with
    ``side``, that side's own (Wilderness 18.13, 18.21: the battle's ``terrain_costs``)."""
    steps_by_type: dict[str, dict[str, tuple]] = {}
    zoc_by_type: dict[str, dict[tuple[str, str], object]] = {}
    cache: dict[tuple, tuple] = {}
    for t in UNIT_TYPES:
        key = "artillery" if t == "artillery" else "infantry"  # 10.1 "*": infantry and cavalry alike
        if key in cache:
            steps_by_type[t], zoc_by_type[t] = cache[key]
            continue
        steps: dict[str, tuple] = {}
        zoc: dict[tuple[str, str], object] = {}
        for a, around in game.neighbours.items():
            out = []
            for b in around:
                c = step_costs(game, key, a, b, side)
                if c is not None:
                    out.append((b, c[0]))
                    zoc[(a, b)] = c[1]
            steps[a] = tuple(out)
        cache[key] = (steps, zoc)
        steps_by_type[t], zoc_by_type[t] = steps, zoc
    return steps_by_type, zoc_by_type


def zoc_rules(state: State, side: Side, unit: str | None = None, here: str | None = None) -> ZocRules:
    """11.12 at night: a unit may leave an enemy-controlled hex; one that begins in one may not enter
    another this Game-Turn. A scenario's ``night_movement`` may say otherwise
    (``may_enter_enemy_zoc``, ``may_exit_enemy_zoc``). By day: the shared rule (7.0, 6.13)."""
    if not night_turn(state):
        return standard_zoc_rules(state, side, unit, here)
    night = state.game.battle.night_movement
    may_exit = night is None or night.may_exit_enemy_zoc
    may_enter = night is None or night.may_enter_enemy_zoc
    if unit is not None:
        here = state.positions.get(unit)
    if here is not None and may_enter:
        from rules.queries.zoc import enemy_controlled

        if here in enemy_controlled(state, side):
            may_enter = False  # 11.12: "may not subsequently re-enter"
    return ZocRules(may_enter, may_exit, "night_zoc")


class RevisedEntry:
    """Reinforcements under the revised 5.0-5.5 (rules/procedures/reinforcements.py asks this object).

    - 5.0: a column of stacks of two: the first two units entering at a hex pay its cost, the next two
      one Movement Point more, the third two more, and so on; along a turnpike 2/3 MP more per stack.
      The count is per entry hex and per Movement Phase (``state.entries``).
    - 5.4: a reinforcement may enter at a hex in an enemy zone of control (never an enemy-occupied
      one); it stops there, and the step into it costs at least 2 (7.2).
    - 5.0, 5.3: it may be held back, and enters later at its entry hexes; 5.5: one that *could not*
      enter on its scheduled Game-Turn (``state.blocked``, ``blocked_reinforcements``) may on a later
      one also enter at a map-edge hex within three hexes of one of them.
    - Cemetery Hill 18.1 (``[exclusive.reinforcements] when_blocked``): instead of 5.4 and 5.5, an entry
      hex controlled or occupied by an enemy unit blocks it; delayed, it enters on a later Game-Turn only
      at the next unblocked map-edge (road) hex toward the directions given (``next_unblocked``).
    """

    may_enter_enemy_zoc = True  # 5.4 (Cemetery Hill 18.1: not a side with ``when_blocked``, ``entry_problem``)

    def entry_hexes(self, state: State, unit: str) -> list[str]:
        game = state.game
        u = game.units[unit]
        hexes = scheduled_entry(state, unit)
        arrives = arrival_turn(state, unit)
        if arrives is None or state.turn <= arrives or unit not in state.blocked:
            return hexes  # 5.0: held back by choice, it enters where it was scheduled to
        instead = game.battle.reinforcements.when_blocked.get(u.side)
        if instead is not None:  # Cemetery Hill 18.1, instead of 5.5
            return next_unblocked(state, u.side, hexes, instead)
        near = [h for h in _edge_hexes_near(game, chart_entry(state, unit)) if h not in hexes]  # 5.5
        if u.type == gunboats.GUNBOAT:
            sea = gunboats.waters(game)
            near = [h for h in near if h in sea]  # 9.62: a gunboat only in its waters
        return hexes + near

    def entry_cost(self, state: State, unit: str, hex_: str):
        game = state.game
        if game.units[unit].type == gunboats.GUNBOAT:  # 9.62, 10.1: 1 MP into its waters; 9.64: no zones
            return gunboats.STEP_COST if hex_ in gunboats.waters(game) else None
        base = hex_cost(game, game.units[unit].type, hex_)
        if base is None:
            return None
        from rules.queries.zoc import enemy_controlled

        if hex_ in enemy_controlled(state, game.units[unit].side):
            base = max(game.ruleset.zoc_minimum_cost, base)  # 5.4 with 7.2
        stacks = state.entries.get(hex_, 0) // 2  # 5.0: stacks of two entered before
        per_stack = game.ruleset.turnpike_cost if _on_turnpike(game, hex_) else 1
        return _exact(base + stacks * per_stack)


def blocked_reinforcements(state: State) -> list[Event]:
    """5.5, as the phasing player's Movement Phase ends: the reinforcements scheduled for this Game-Turn
    that could not move on to the map: barred from moving, or every entry hex refused (enemy-occupied,
    5.12; or its cost, grown with the column of stacks entered there, 5.0, beyond the unit's allowance).
    Ruling: judged on the position at the end of the phase (docs/RULINGS.md)."""
    if state.phase != MOVEMENT:
        return []
    game = state.game
    when_blocked = game.battle.reinforcements.when_blocked
    barred: set[str] = set()
    if state.phasing in when_blocked:  # Cemetery Hill 18.1: "controlled or occupied by an Enemy unit"
        from rules.queries.zoc import enemy_controlled

        barred = enemy_occupied(state, state.phasing) | enemy_controlled(state, state.phasing)
    blocked = tuple(
        u
        for u in due(state)
        if arrival_turn(state, u) == state.turn
        and (
            all(h in barred for h in scheduled_entry(state, u))
            if state.phasing in when_blocked
            else why_may_not_enter(state, u) is not None
            or all(entry_problem(state, u, h) is not None for h in scheduled_entry(state, u))
        )
    )
    return [ReinforcementsBlocked(units=blocked)] if blocked else []


def _toward(game, origin: str, hex_: str, directions) -> bool:
    """Cemetery Hill 18.1: does ``hex_`` lie to the ``directions`` ("and/or": any of them) of
    ``origin``? North and south by the hexes' heights (a lower column's hexes sit half a hex lower)."""
    lower = 0 if game.scenario.map.lower_columns == "even" else 1

    def at(h):
        c, r = int(h[:2]), int(h[2:])
        return c, 2 * r + (1 if c % 2 == lower else 0)

    (c0, y0), (c, y) = at(origin), at(hex_)
    checks = {"north": y < y0, "south": y > y0, "east": c > c0, "west": c < c0}
    return any(checks[d] for d in directions)


def next_unblocked(state: State, side: Side, origins: list[str], instead) -> list[str]:
    """Cemetery Hill 18.1: the next unblocked map-edge hex (with ``instead.road`` a map-edge road hex: a
    road leads off the map there, rules/queries/edges.py ``road_ends``) toward
    ``instead.toward`` from the original entry hexes: the nearest of them neither enemy-occupied nor
    enemy-controlled now (ties: the lower hex number); [] when there is none."""
    from rules.queries.edges import road_ends
    from rules.queries.zoc import enemy_controlled

    game = state.game
    barred = enemy_occupied(state, side) | enemy_controlled(state, side)
    candidates = road_ends(game, edge_hexes(game)) if instead.road else sorted(edge_hexes(game))
    grid = game.grid
    best = sorted(
        (min(grid.distance(h, o) for o in origins), h)
        for h in candidates
        if h not in origins and h not in barred and any(_toward(game, o, h, instead.toward) for o in origins)
    )
    return [best[0][1]] if best else []


def scheduled_entry(state: State, unit: str) -> list[str]:
    """The entry hexes the order of battle schedules ``unit`` to enter at (5.0; Savage's Station 17.1:
    the entry point the Reinforcement Table's roll gave its group)."""
    game = state.game
    return [h for h in chart_entry(state, unit) if h in game.terrain]


def apply_reinforcements_blocked(state: State, event: ReinforcementsBlocked) -> None:
    state.blocked.update(event.units)


# -- strategic movement (6.4) ---------------------------------------------------------------------


def strategic_allowance(state: State, unit: str):
    """6.42, 6.43, 6.46, 11.11 (Fredericksburg 18.2: both halved in fog): the allowance plus the bonus (one less at night), or None when the
    rule set has no strategic movement."""
    from rules.procedures.movement import allowance_now

    game = state.game
    bonus = game.ruleset.strategic_bonus.get(game.units[unit].type)
    if bonus is None:
        return None
    if night_turn(state):
        bonus -= 1  # 6.46
    # Road to Vicksburg 19.51: "may not utilise double-quick time and Strategic Movement in the same Movement Phase"
    return allowance_now(state, unit, strategic=True) + game.battle.allowance(state, bonus)  # Fredericksburg 18.2: halved in fog


def _far(game, hex_: str, enemies: set[str]) -> bool:
    """6.41, 6.44: three or more hexes from every enemy unit."""
    return hex_ not in _within(game, enemies, 2)


def _within(game, hexes, n: int) -> frozenset[str]:
    """Every numbered hex at most ``n`` hexes (Grid.distance) from one of ``hexes``: ``h in
    _within(game, hexes, n)`` is ``any(game.grid.distance(h, e) <= n for e in hexes)``. The union of
    each hex's disk (kept per Game: the map does not change); the last few unions asked are kept
    too, so one position's checks share one table."""
    key = (n, frozenset(hexes))
    cache = game.__dict__.setdefault("_within", {})
    found = cache.get(key)
    if found is None:
        found = frozenset().union(*(_disk(game, h, n) for h in key[1]))
        if len(cache) >= 32:
            cache.clear()
        cache[key] = found
    return found


def _disk(game, hex_: str, n: int) -> frozenset[str]:
    """The numbered hexes at most ``n`` hexes from ``hex_`` (itself included)."""
    disks = game.__dict__.setdefault("_disks", {})
    found = disks.get((hex_, n))
    if found is None:
        from rules.core.hexes import HexError

        grid = game.grid
        q, r = grid.axial(hex_)
        out = set()
        for dq in range(-n, n + 1):
            for dr in range(max(-n, -dq - n), min(n, n - dq) + 1):
                try:
                    out.add(grid.number(q + dq, r + dr))
                except HexError:  # off the numbering: no hex there
                    pass
        found = disks[(hex_, n)] = frozenset(out)
    return found


def strategic_problem(state: State, unit: str, enemies: set[str] | None = None):
    """Why ``unit`` may not use Strategic Movement now (6.4x), or None. ``enemies``: the hexes of the
    unit's enemies, when the caller has them."""
    from rules.procedures.movement import why_unit_may_not_move

    problem = why_unit_may_not_move(state, unit)
    if problem is not None:
        return problem
    game = state.game
    if game.is_train(unit):  # Chickamauga 19.23
        return game.violation("trains.strategic", f"{game.designation(unit)} may not use Strategic Movement")
    if strategic_allowance(state, unit) is None:
        return game.violation("movement", f"the {game.ruleset.name} rules have no strategic movement")
    reduced = game.battle.reduced_allowance
    if reduced is not None and reduced.bars_strategic(state, unit):  # Peachtree Creek 17.2
        return game.violation("reduced_allowance.strategic", f"{game.designation(unit)} may not use Strategic Movement this Game-Turn")
    surprise = game.battle.surprise_assault
    if surprise is not None and surprise.binds(state, unit):  # Shiloh 19.1: one hex, no more
        return game.violation("surprise_assault", f"{game.designation(unit)} may move only one hex by the surprise assault")
    if enemies is None:
        enemies = enemy_occupied(state, game.units[unit].side)
    if not _far(game, state.positions[unit], enemies):
        return game.violation(
            "strategic.distance",
            f"{game.designation(unit)} is within two hexes of an enemy unit and may not use Strategic Movement",
        )
    return None


def route_out(state: State, unit: str, enemies: set[str] | None = None) -> bool:
    """6.44, 6.45: does a route lead from the unit's hex into a hex three or more hexes from every enemy
    unit? Without one, a unit free to use Strategic Movement has nowhere to go by it."""
    game = state.game
    if enemies is None:
        enemies = enemy_occupied(state, game.units[unit].side)
    near_enemy = _within(game, enemies, 2)
    here = state.positions[unit]
    m = game.scenario.map
    return any(m.features(here, b) & terrain.ROUTES and b not in near_enemy for b, _ in game.steps_for(unit)[here])


def strategic_reach(state: State, unit: str):
    """Every hex ``unit`` may reach by Strategic Movement: along routes only (6.45), never closer than
    three hexes to an enemy unit (6.44), within the strategic allowance. None when it may not."""
    import heapq

    from rules.procedures.movement import Reach

    if strategic_problem(state, unit) is not None:
        return None
    game = state.game
    allowance = strategic_allowance(state, unit)
    near_enemy = _within(game, enemy_occupied(state, game.units[unit].side), 2)  # 6.44
    closed = ferries_closed(state, unit)  # Shiloh 20.0
    start = state.positions[unit]
    steps = game.steps_for(unit)
    m = game.scenario.map
    cost = {start: 0}
    prev: dict[str, str | None] = {start: None}
    heap = [(0, start)]
    while heap:
        c, h = heapq.heappop(heap)
        if c > cost[h]:
            continue
        for b, step in steps[h]:
            if not (m.features(h, b) & terrain.ROUTES) or b in near_enemy or b in closed:
                continue
            nc = c + step
            if nc <= allowance and nc < cost.get(b, 99):
                cost[b] = nc
                prev[b] = h
                heapq.heappush(heap, (nc, b))
    alone = game.stacking_barred(state.positions, unit)  # First Bull Run 17.2
    ends = [h for h in cost if h != start and h not in game.no_end_hexes and h not in alone]
    return Reach(start, cost, prev, ends)


def ferries_closed(state: State, unit: str) -> frozenset[str]:
    """Shiloh 20.0: the ferry hexes ``unit`` may not use now; Road to Richmond 20.1: and the Command
    Control Zone while closed to its side."""
    from rules.procedures.movement import ferry_closed, zone_closed

    ferries = state.game.ferry_hexes if ferry_closed(state, unit) is not None else frozenset()
    closed = ferries | zone_closed(state, unit)
    for hexes in state.game.rules.closed_hexes:  # the battle's rules (Road to Vicksburg 17.1)
        closed = closed | hexes(state, unit)
    return closed


def decide_strategic_move(state: State, command: StrategicMove, dice) -> list:
    from rules.core.events import StrategicMovementUsed, UnitMoved
    from rules.core.handlers import apply
    from rules.procedures.movement import check_alone, check_no_dead_end, ferry_closed, zone_closed

    game = state.game
    problem = strategic_problem(state, command.unit)
    if problem is not None:
        raise problem
    name = game.designation(command.unit)
    path = tuple(command.path)
    here = state.positions[command.unit]
    if len(path) < 2 or path[0] != here or path[-1] == here:
        raise game.violation("movement", f"a move of {name} must start at its hex {here} and end in another hex")
    enemies = enemy_occupied(state, game.units[command.unit].side)
    step_cost = game.step_cost_for(command.unit)
    m = game.scenario.map
    cost = 0
    for a, b in zip(path, path[1:], strict=False):
        if b not in game.neighbours.get(a, ()):
            raise game.violation("consecutive", f"{name} may not move from {a} to {b}: hexes must be entered one by one")
        if (a, b) not in step_cost:
            problem = game.step_problem(a, b)
            raise game.violation(problem[0] if problem else "terrain", f"{name} may not move from {a} to {b}")
        if not (m.features(a, b) & terrain.ROUTES):
            raise game.violation(
                "strategic.routes", f"{name} may not leave the turnpikes, roads, railways and trails at {a}-{b} by Strategic Movement"
            )
        if b in game.ferry_hexes and (why := ferry_closed(state, command.unit)) is not None:
            raise game.violation("ferries.use", f"{name} may not enter {b}: {why}")  # Shiloh 20.0
        if b in zone_closed(state, command.unit):
            raise game.violation("command_control_zone", f"{name} may not enter {b}: the Command Control Zone is closed to it")  # Road to Richmond 20.1
        for refuse in game.rules.refuse_entry:  # the battle's rules (Road to Vicksburg 17.1)
            if (problem := refuse(state, command.unit, b, True)) is not None:
                raise problem
        if not _far(game, b, enemies):
            raise game.violation("strategic.approach", f"{name} may not come within two hexes of an enemy unit by Strategic Movement ({b})")
        cost += step_cost[(a, b)]
    allowance = strategic_allowance(state, command.unit)
    if cost > allowance:
        raise game.violation(
            "strategic.bonus", f"{name} would spend {cost} movement points; its strategic allowance is {allowance}"
        )
    if path[-1] in game.no_end_hexes:
        raise game.violation("ferries.end", f"{name} may not end its movement in the ferry hex {path[-1]}")
    check_alone(state, command.unit, path[-1])  # First Bull Run 17.2
    event = UnitMoved(unit=command.unit, path=path, cost=movement_points(cost))
    after = state.copy()
    apply(after, event)
    check_no_dead_end(after, command.unit)
    from rules.procedures.movement import movement_die_roll

    rolled = movement_die_roll(state, command.unit, dice)  # Wilderness 20.2
    if rolled and rolled[0].held:
        return rolled
    rifled = game.battle.rifled_artillery
    if rifled is not None and rifled.records_strategic_movement(game.units[command.unit]):  # Road to Vicksburg 19.2
        return [*rolled, StrategicMovementUsed(unit=command.unit, case=game.case("rifled_artillery.strategic")), event]
    return [*rolled, event]


def apply_strategic_movement_used(state: State, event) -> None:
    """Road to Vicksburg 19.2: the unit may not bombard this Player-Turn."""
    from rules.core.components.rifled_artillery import STRATEGIC

    state.scored.add(f"{STRATEGIC}{state.turn}:{event.unit}")


# -- breastworks (10.34) ---------------------------------------------------------------------------


def _may_build(state: State) -> bool:
    return state.game.battle.may_build_breastworks


def _busy(state: State, unit: str):
    """The move-like restrictions a builder is under: it spends its move on the works (10.34 i: it
    forms part of a movement quota in each of the two Game-Turns)."""
    from rules.procedures.movement import why_unit_may_not_move

    return why_unit_may_not_move(state, unit)


def build_problem(state: State, unit: str, enemies: set[str] | None = None):
    """Why ``unit`` may not begin breastworks now (10.34 i, 10.36), or None. ``enemies``: the hexes of
    the unit's enemies, when the caller has them."""
    game = state.game
    if not _may_build(state):
        return game.violation("breastworks", "breastworks may not be built in this game (10.34: games of 1863 onwards)")
    problem = _busy(state, unit)
    if problem is not None:
        return problem
    u = game.units[unit]
    here = state.positions[unit]
    if u.type != "infantry":
        return game.violation("breastworks", f"{u.designation} is not infantry; only infantry builds breastworks")
    if state.morale.get(unit):
        return game.violation("breastworks", f"{u.designation} is {state.morale[unit]} and may not construct breastworks")
    if here in state.breastworks:
        return game.violation("breastworks.one_per_hex", f"{here} already has a Breastworks Marker")
    if here in _within(game, enemy_occupied(state, u.side) if enemies is None else enemies, 3):
        return game.violation("breastworks", f"{u.designation} is within three hexes of an enemy unit")
    return None


def complete_problem(state: State, unit: str):
    """Why ``unit``'s marker may not be flipped now (10.34 ii), or None."""
    game = state.game
    here = state.positions.get(unit)
    marker = state.breastworks.get(here) if here else None
    if marker is None or marker.status != "building" or marker.unit != unit:
        return game.violation("breastworks.complete", f"{game.designation(unit)} has no Breastworks Under Construction Marker")
    if marker.turn >= state.turn:
        return game.violation("breastworks.complete", "the marker is flipped in the owner's following Movement Phase")
    return _busy(state, unit)


def facings(state: State, unit: str) -> list[tuple[str, str, str]]:
    """10.34 ii: the ways to face three adjacent hexsides of the unit's hex (three contiguous hexes
    around it, clockwise from the first)."""
    game = state.game
    here = state.positions[unit]
    ring = game.grid.neighbours(here)  # in order around the hex
    return [tuple(ring[(i + k) % 6] for k in range(3)) for i in range(6)]


def decide_build(state: State, command: BuildBreastworks, dice) -> list:
    problem = build_problem(state, command.unit)
    if problem is not None:
        raise problem
    side = state.game.units[command.unit].side
    event = BreastworksBegun(unit=command.unit, hex=state.positions[command.unit], side=side, turn=state.turn)
    _no_dead_end(state, command.unit, event)
    return [event]


def decide_complete(state: State, command: CompleteBreastworks, dice) -> list:
    problem = complete_problem(state, command.unit)
    if problem is not None:
        raise problem
    facing = tuple(command.facing)
    if facing not in facings(state, command.unit):
        raise state.game.violation(
            "breastworks.complete", "breastworks face three adjacent hexsides: name three contiguous neighbouring hexes"
        )
    event = BreastworksCompleted(hex=state.positions[command.unit], facing=facing, unit=command.unit)
    _no_dead_end(state, command.unit, event)
    return [event]


def _no_dead_end(state: State, unit: str, event) -> None:
    """6.32: the builder stays put, so its hex must still be brought within the stacking limit by
    the others' moves (rules/procedures/movement.py ``check_no_dead_end``)."""
    from rules.core.handlers import apply
    from rules.procedures.movement import check_no_dead_end

    after = state.copy()
    apply(after, event)
    check_no_dead_end(after, unit)


def apply_begun(state: State, event: BreastworksBegun) -> None:
    from rules.core.breastworks import Breastworks

    state.breastworks[event.hex] = Breastworks("building", event.side, event.unit, event.turn)
    state.moved.add(event.unit)  # 10.34 i: it does not move, and counts against a movement quota


def apply_completed(state: State, event: BreastworksCompleted) -> None:
    old = state.breastworks[event.hex]
    state.breastworks[event.hex] = msgspec.structs.replace(old, status="breastworks", facing=event.facing)
    state.moved.add(event.unit)  # 10.34 i: the second Game-Turn of construction counts too


def apply_removed(state: State, event: BreastworksRemoved) -> None:
    state.breastworks.pop(event.hex, None)


def remove_unfinished_breastworks(state: State) -> list:
    """10.34 i: an Under Construction Marker goes when its unit has left the hex, and when an enemy
    unit ends a Combat Phase adjacent to it."""
    out = []
    for hex_, marker in sorted(state.breastworks.items()):
        if marker.status != "building":
            continue
        if state.positions.get(marker.unit) != hex_:
            out.append(BreastworksRemoved(hex=hex_, reason="its unit left the hex"))
        elif state.phase == "combat" and not enemy_occupied(state, marker.side).isdisjoint(state.game.neighbours[hex_]):
            out.append(BreastworksRemoved(hex=hex_, reason="an enemy unit ended the Combat Phase adjacent to it"))
    return out


def edge_hexes(game) -> frozenset[str]:
    """The hexes on the edge of the map: fewer than six neighbours on it (5.5)."""
    cached = game.__dict__.get("_edge_hexes")
    if cached is None:
        cached = frozenset(h for h, around in game.neighbours.items() if len(around) < 6)
        game.__dict__["_edge_hexes"] = cached
    return cached


def _edge_hexes_near(game, entry) -> tuple[str, ...]:
    """The map-edge hexes within three hexes of one of ``entry`` (5.5), sorted; once per Game and
    entry list."""
    cache = game.__dict__.setdefault("_edge_hexes_near", {})
    key = tuple(entry)
    found = cache.get(key)
    if found is None:
        grid = game.grid
        found = tuple(h for h in sorted(edge_hexes(game)) if any(grid.distance(h, e) <= 3 for e in key))
        cache[key] = found
    return found


def _on_turnpike(game, hex_: str) -> bool:
    """Ruling (5.0 "entering ... along a turnpike"): the entry hex has a turnpike hexside."""
    m = game.scenario.map
    return any(terrain.TURNPIKE in m.features(hex_, n) for n in game.neighbours[hex_])


def _exact(x):
    """An int when whole, else the exact Fraction (6.22)."""
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


def _hexside(a: str, b: str) -> str:
    from rules.core.hexes import hexside

    return hexside(a, b)
