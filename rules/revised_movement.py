"""The revised 2nd edition's own movement procedures (003, 6.2x, 7.2, 11.1x), selected by the rule
set (rules/rulesets/revised.py ``procedures``); the shared mechanics (rules/movement.py, zoc.py,
night.py, reinforcements.py) call them where the book differs.

- ``movement_costs(game)``: per unit type (artillery pays the second figure of 10.1), the movement
  points of every step (6.21-6.29, 10.1), and of a step into an enemy-controlled hex (7.2: never
  less than two; no turnpike, road, railway or trail rate into an enemy zone of control, 6.25).
- ``zoc_rules``: at night a unit may leave an enemy-controlled hex, and one that does may not enter
  another in the same Game-Turn (11.12); by day the shared rule (7.0, 6.13).

Rulings (README "Rulings", "Revised rule set"):
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

from rules import terrain
from rules.night import ZocRules
from rules.scenario import Side
from rules.sequence import night_turn
from rules.state import State

UNIT_TYPES = ("infantry", "cavalry", "artillery")
_TRAIL_SLOW = frozenset({terrain.FOREST, terrain.ROUGH, terrain.FOREST_ROUGH, terrain.SWAMP})  # 6.24


def hex_cost(game, unit_type: str, b: str):
    """10.1, 6.21: the movement points to enter ``b`` for a unit of this type (None: prohibited)."""
    rs = game.ruleset
    kind = game.terrain[b]
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


def route_cost(game, a: str, b: str, base):
    """6.22-6.24: the rate of the best route the step follows, or None (no route)."""
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
        best = min(base, rs.trail_cost if kind in _TRAIL_SLOW else 1)  # 6.24; 10.1 "use other cost if less"
    return best


def step_costs(game, unit_type: str, a: str, b: str):
    """(cost of a step a->b, cost of the same step into an enemy-controlled hex) for a unit of this
    type, or None when the step is prohibited (game.step_problem, or terrain this type may not enter)."""
    if game.step_problem(a, b) is not None:
        return None
    base = hex_cost(game, unit_type, b)
    if base is None:
        return None
    rs = game.ruleset
    features = game.scenario.map.features(a, b)
    extra = sum((rs.hexside_cost[f] for f in features if f in rs.hexside_cost and f != terrain.SLOPE), 0)  # 6.25, 6.29
    climb = rs.hexside_cost.get(terrain.SLOPE, 0) if climbs(game, a, b) else 0  # 6.26
    route = route_cost(game, a, b, base)
    normal = (route if route is not None else base + climb) + extra
    into_zoc = max(rs.zoc_minimum_cost, base) + climb + extra  # 7.2, 6.25
    return _exact(normal), _exact(into_zoc)


def movement_costs(game):
    """The step tables by unit type and the costs into enemy-controlled hexes (Game.__init__)."""
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
                c = step_costs(game, key, a, b)
                if c is not None:
                    out.append((b, c[0]))
                    zoc[(a, b)] = c[1]
            steps[a] = tuple(out)
        cache[key] = (steps, zoc)
        steps_by_type[t], zoc_by_type[t] = steps, zoc
    return steps_by_type, zoc_by_type


def zoc_rules(state: State, side: Side, unit: str | None = None) -> ZocRules | None:
    """11.12 at night: a unit may leave an enemy-controlled hex; one that begins in one may not enter
    another this Game-Turn. A scenario's ``night_movement`` may say otherwise
    (``may_enter_enemy_zoc``, ``may_exit_enemy_zoc``). By day: None (the shared rule, 7.0, 6.13)."""
    if not night_turn(state):
        return None
    params = state.game.exclusive.get("night_movement") or {}
    may_exit = bool(params.get("may_exit_enemy_zoc", True))
    may_enter = bool(params.get("may_enter_enemy_zoc", True))
    if unit is not None and may_enter:
        from rules.zoc import enemy_controlled

        here = state.positions.get(unit)
        if here is not None and here in enemy_controlled(state, side):
            may_enter = False  # 11.12: "may not subsequently re-enter"
    return ZocRules(may_enter, may_exit, "night_zoc")


def _exact(x):
    """An int when whole, else the exact Fraction (6.22)."""
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


def _hexside(a: str, b: str) -> str:
    from rules.hexes import hexside

    return hexside(a, b)


PROCEDURES: dict = {
    "movement_costs": movement_costs,
    "zoc_rules": zoc_rules,
}
