"""Movement (5.0–5.3) with the Terrain Effects Chart (9.0), zones of control (6.0–6.3), night (10.2)
and the exclusive rules' restrictions.

A move is one command for one unit and its whole path (5.0: "units are moved one at a time"; 5.17:
once moved it may not move again this phase). ``reachable`` gives every hex a unit may end its move
in, with the cost and a cheapest path; ``check_path`` validates a path a player proposes. Both apply
the same rules, step by step:

- 5.16 each hex adjacent to the one before; on the map;
- 5.12 never into an enemy-occupied hex;
- 5.21–5.25, 9.0: terrain costs (Game.steps): roads, trails, rivers and ferry arrows, creeks only at
  bridges and fords (ford +1);
- 5.15 the costs add up to no more than the movement allowance (6);
- 6.0 a unit that enters an enemy-controlled hex stops there; 5.13 a unit in one may not leave it
  during movement; 10.2 / 17.2 at night;
- 5.24, 19.12 a move never ends in a river ferry hex (so a unit enters one only with points enough to
  reach the far bank);
- 5.32 no dead end for stacking (stacking.resolvable).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable, Iterator
from operator import countOf

from rules.core.arith import movement_points
from rules.core.commands import MoveUnit
from rules.core.errors import RuleViolation
from rules.core.events import Event, ForcedMarched, MovementDieRolled, UnitMoved
from rules.core.gunboats import GUNBOAT
from rules.core.handlers import Dice, apply
from rules.core.scenario import other_side
from rules.core.state import MOVEMENT, State
from rules.core.unfolding import Unfolding
from rules.procedures import allocation
from rules.procedures.night import zoc_rules
from rules.procedures.sequence import night_turn
from rules.queries import stacking
from rules.queries.control import entered
from rules.queries.zoc import EnemyZones, enemy_controlled, enemy_occupied


def movement_costs(game, side=None) -> tuple[dict, dict]:
    """5.2, 9.0 (the rule set's procedure ``movement_costs``): one step table for every unit type;
    a step into an enemy-controlled hex costs what any step costs. ``side``: the 1975 rules have no
    side's own costs (a battle's ``terrain_costs`` is read by the revised procedure only)."""
    steps = {}
    for a, around in game.neighbours.items():
        out = []
        for b in around:
            cost = game.step_cost_1975(a, b)
            if cost is not None:
                out.append((b, cost))
        steps[a] = tuple(out)
    return {t: steps for t in ("infantry", "cavalry", "artillery")}, {}


class Reach:
    """The hexes one unit may reach: cheapest cost to each, and a path."""

    __slots__ = ("origin", "cost", "prev", "ends", "forced")

    def __init__(self, origin: str, cost: dict[str, int], prev: dict[str, str | None], ends: list[str]):
        self.origin = origin
        self.cost = cost
        self.prev = prev
        self.ends = ends  # the hexes a move may end in
        self.forced: Reach | None = None  # Grand Chancellorsville 23.2: the Forced March's, when it reaches further

    def with_forced(self, forced: Reach) -> Reach:
        """Grand Chancellorsville 23.2: this reach and a Forced March's merged: the hexes only the
        Forced March reaches added, with its costs and paths."""
        extra = [h for h in forced.ends if h not in self.cost]
        if not extra and all(h in self.ends for h in forced.ends):
            return self
        cost = {**forced.cost, **self.cost}
        merged = Reach(self.origin, cost, self.prev, [*self.ends, *(h for h in forced.ends if h not in self.ends)])
        merged.forced = forced
        return merged

    def path(self, hex_: str) -> tuple[str, ...]:
        out = [hex_]
        prev = self.prev
        if hex_ not in prev:  # Grand Chancellorsville 23.2: a hex only a Forced March reaches
            return self.forced.path(hex_)
        while (p := prev[out[-1]]) is not None:
            out.append(p)
        return tuple(reversed(out))


# -- who may move --------------------------------------------------------------------------------
def why_unit_may_not_move(state: State, unit: str, entering: bool = False) -> RuleViolation | None:
    """The reason ``unit`` may not start a move now (sequence 5.11, 5.17, exclusive rules), or None.
    Zones of control and terrain are the path's business."""
    game = state.game
    u = game.units.get(unit)
    if u is None:
        return game.violation("movement", f"there is no unit {unit!r} in this game")
    name = u.designation
    if state.phase != MOVEMENT or u.side != state.phasing:
        return game.violation(
            "out_of_sequence",
            f"{name} may not move now: units move only in their own side's Movement Phase",
        )
    if not entering and unit not in state.positions:
        return game.violation("movement", f"{name} is not on the map")
    if unit in state.moved:
        return game.violation("moved_once", f"{name} has already moved this Movement Phase")
    for restriction in game.movement_restrictions:  # the battle's (16.11, 17.2, 17.11), the rule set's
        problem = restriction(state, unit)
        if problem is not None:
            return problem
    return None


def may_move(state: State, unit: str) -> bool:
    return why_unit_may_not_move(state, unit) is None


# -- where it may go -----------------------------------------------------------------------------
def gunboat_step_problem(game, a: str, b: str) -> tuple[str, str] | None:
    """Revised 9.62: a gunboat moves only from one hex of its waters into an adjacent one."""
    if (a, b) in game.step_cost_by_type[GUNBOAT]:
        return None
    return "gunboat_moves", f"{b} is not a river hex (nor one the scenario opens to gunboats): gunboats move only through contiguous river hexes"


def enemy_zones_for(state: State, unit: str) -> set[str]:
    """The enemy-controlled hexes that matter to ``unit``'s move: none for a gunboat (revised 9.64)."""
    if state.game.units[unit].type == GUNBOAT:
        return set()
    return enemy_controlled(state, state.game.units[unit].side)


def allowance_now(state: State, unit: str, strategic: bool = False):
    """The unit's movement allowance this Game-Turn: Fredericksburg 18.2 halves it in fog; revised 11.11
    takes one off at night; the battle's rules' ``movement_allowance`` but for Strategic Movement
    (``strategic``)."""
    game = state.game
    n = game.battle.allowance(state, game.movement_allowance(unit))
    reduced = game.battle.reduced_allowance
    if reduced is not None:
        n = reduced.allowance_of(state, unit, n)  # Peachtree Creek 17.2: three on Game-Turn One
    if not strategic:  # the battle's rules (Road to Vicksburg 19.51: double-quick time)
        for allowance in game.rules.movement_allowance:
            n = allowance(state, unit, n)
    march = game.battle.reinforcements.first_turn_march
    if march is not None and game.battle.reinforcements.marching(state.turn, game.units[unit]):
        n *= march.multiplier  # Road to Richmond 17.2: twice the allowance on Game-Turn One
    return at_night(state, n)


def at_night(state: State, n):
    """Revised 11.11: an allowance ``n`` less one at night (the rule set's ``night_allowance_change``)."""
    change = state.game.ruleset.night_allowance_change
    return n + change if change and night_turn(state) else n


def forced_march_now(state: State, unit: str) -> tuple[object, frozenset[str] | None] | None:
    """Grand Chancellorsville 23.2: (the Forced March allowance, the hexes the move must lie in or None
    for anywhere) when ``unit`` may Forced March move now and that allowance exceeds its own; else None.
    Revised 11.11: one less at night, as every allowance."""
    march = state.game.battle.forced_march
    if march is None:
        return None
    region = march.region(state, unit)
    if region is False:
        return None
    n = at_night(state, march.allowance)
    if n <= allowance_now(state, unit):
        return None
    return n, region


def artillery_barred(state: State, unit: str, ezoc: set[str]) -> set[str] | frozenset:
    """Revised 7.3: the enemy-controlled hexes an artillery unit may not enter (those without a
    friendly infantry or cavalry unit already in them); empty for other units and in 1975."""
    held = artillery_support(state, unit)
    return frozenset() if held is None else ezoc - held


def artillery_support(state: State, unit: str) -> set[str] | None:
    """Revised 7.3: the hexes of a friendly infantry or cavalry unit, the only enemy-controlled hexes an
    artillery unit may enter; None when 7.3 does not bind the unit (not artillery; 1975)."""
    game = state.game
    u = game.units[unit]
    if not game.ruleset.artillery_zoc_support or u.type != "artillery":
        return None
    units = game.units
    return {h for v, h in state.positions.items() if units[v].side == u.side and units[v].type in ("infantry", "cavalry")}


def ferry_closed(state: State, unit: str) -> str | None:
    """Shiloh 20.0: why ``unit`` may not use the battle's ferries now (its side; the landing
    occupied by the enemy), or None."""
    ferries = state.game.battle.ferries
    return None if ferries is None else ferries.closed_to(state, state.game.units[unit].side)


def zone_closed(state: State, unit: str) -> frozenset[str]:
    """Road to Richmond 20.1: the hexes of the battle's Command Control Zone while ``unit``'s side may not
    enter it; none otherwise."""
    zone = state.game.battle.command_control_zone
    if zone is None or not zone.closed_to(state.scored, state.game.units[unit].side, state.turn):
        return frozenset()
    return frozenset(state.game.scenario.map.areas.get(zone.area, ()))


def no_entry(state: State, unit: str) -> frozenset[str]:
    """Chickamauga 19.21, 19.22: hexes ``unit`` may neither enter nor move through: a train's for every
    other unit, every occupied hex for a train; none in a battle without trains. Shiloh 20.0: and the
    ferry hexes while the unit may not use them. Road to Richmond 20.1: and the Command Control Zone
    while closed to its side. Hooker and Lee 19.14: and the River ferry hexes closed to Averill's units."""
    game = state.game
    closed = game.ferry_hexes if ferry_closed(state, unit) is not None else frozenset()
    closed = closed | zone_closed(state, unit)
    for hexes in game.rules.closed_hexes:  # the battle's rules (Road to Vicksburg 17.1)
        closed = closed | hexes(state, unit)
    if game.battle.crossing_die is not None:  # Hooker and Lee 19.14: Ely's Ford only, after a '1'
        closed = closed | game.battle.crossing_die.closed(state, unit)
    if game.battle.trains is None:
        return closed
    if game.is_train(unit):
        return closed | frozenset(h for u, h in state.positions.items() if u != unit)
    positions = state.positions  # the trains' hexes: a few trains looked up, not every unit asked
    return closed | frozenset(positions[u] for u in game.battle.trains.units if u in positions)


def barred_from_enemy_zoc(state: State, unit: str) -> bool:
    """Wilderness 18.32: "The Train Defence units may never enter an Enemy controlled hex" (the
    battle's ``trains.enter_enemy_zoc = false``)."""
    t = state.game.battle.trains
    if t is not None and not t.enter_enemy_zoc and t.is_train(unit):
        return True
    if out_of_ammunition(state, unit):  # Olustee 19.1
        return True
    return any(bars(state, unit) is not None for bars in state.game.rules.bars_enemy_zoc)  # the battle's rules


def out_of_ammunition(state: State, unit: str) -> bool:
    """Olustee 19.1: "No Confederate units may thereafter enter an Enemy Zone of Control"."""
    a = state.game.battle.ammunition
    return a is not None and a.out_of_ammunition(state, state.game.units[unit].side, unit)  # 19.3: per unit


def terrain_restricted(state: State, unit: str):
    """Wilderness 18.11, 18.12: the battle's ``terrain_restrictions`` when they bind ``unit`` on this
    Game-Turn, else None; ``.step_problem(game, turn, side, a, b, enemy_zoc)`` asks of each step."""
    r = state.game.battle.terrain_restrictions
    if r is None or not r.binds(state.turn, state.game.units[unit].side):
        return None
    return r


def surprise_moves(state: State, unit: str) -> tuple[str, ...] | None:
    """Shiloh 19.1: the hexes ``unit`` may move to now, each one step from its hex (north or
    north-east), or None when the surprise assault does not bind it."""
    surprise = state.game.battle.surprise_assault
    if surprise is None or unit not in state.positions or not surprise.binds(state, unit):
        return None
    return surprise.hexes_ahead(state, state.positions[unit])


def reachable(
    state: State, unit: str, origin: str | None = None, spent: int = 0, allowance=None
) -> Reach:
    """Every hex ``unit`` may end a move in from ``origin`` (its hex), having already spent ``spent``
    points (a reinforcement's entry hex, 15.13). Stacking is not considered here. Grand
    Chancellorsville 23.2: with the hexes a Forced March reaches beyond (the move's own allowance)."""
    game = state.game
    if origin is None and spent == 0 and game.battle.surprise_assault is not None:
        ahead = surprise_moves(state, unit)
        if ahead is not None:  # Shiloh 19.1: one step, and only one, in the directions allowed
            return _one_step(state, unit, ahead, allowance)
    forced = forced_march_now(state, unit) if allowance is None and game.battle.forced_march is not None else None
    reach = _reach(state, unit, origin, spent, allowance_now(state, unit) if allowance is None else allowance)
    if forced is None:
        return reach
    n, region = forced  # 23.21-23.23: no enemy zone of control; 23.21: only in ``region``
    return reach.with_forced(_reach(state, unit, origin, spent, n, forced=True, region=region))


def _reach(
    state: State, unit: str, origin: str | None, spent, allowance, forced: bool = False, region: frozenset[str] | None = None
) -> Reach:
    """``reachable``'s search, within ``allowance``; a Forced March's (23.2) when ``forced``: into no
    enemy-controlled hex, and through the hexes of ``region`` only when given (23.21)."""
    start = state.positions[unit] if origin is None else origin
    cost = {start: spent}
    prev: dict[str, str | None] = {start: None}
    for _ in _search(state, unit, origin, allowance, forced, region, cost, prev):
        pass
    return Reach(start, cost, prev, list(filter(_may_end(state, unit, start), cost)))  # 5.24, 19.12


def _may_end(state: State, unit: str, start: str) -> Callable[[str], bool]:
    """Is a reached hex one ``unit``'s move may end in (a function of the hex)?"""
    game = state.game
    ferries = game.no_end_hexes  # 5.24, 19.12 (Grand Chancellorsville 22.11: a River ferry hex may be ended in)
    alone = game.stacking_barred(state.positions, unit)  # First Bull Run 17.2
    return lambda h: h != start and h not in ferries and h not in alone


def possible_ends(state: State, unit: str) -> Iterable[str]:
    """``reachable(state, unit).ends`` (from its hex, with its allowance), found one after another in
    the same order, for a caller that may stop at the first that serves (5.32: a hex with room)."""
    game = state.game
    if game.battle.surprise_assault is not None or game.battle.forced_march is not None:
        return reachable(state, unit).ends  # Shiloh 19.1, Grand Chancellorsville 23.2: the whole search
    start = state.positions[unit]
    found = _search(state, unit, None, allowance_now(state, unit), False, None, {start: 0}, {start: None})
    return filter(_may_end(state, unit, start), found)


def possible_ends_from(state: State, unit: str, origin: str, spent) -> Iterable[str]:
    """``reachable(state, unit, origin, spent).ends`` found one after another (a reinforcement's, from
    its entry hex): the hexes of its own allowance first, then those only a Forced March reaches
    (Grand Chancellorsville 23.2), perhaps some twice; for a caller that stops at the first that serves."""
    found = _search(state, unit, origin, allowance_now(state, unit), False, None, {origin: spent}, {origin: None})
    forced = forced_march_now(state, unit) if state.game.battle.forced_march is not None else None
    if forced is not None:
        n, region = forced  # as ``reachable``: 23.21-23.23
        found = itertools.chain(found, _search(state, unit, origin, n, True, region, {origin: spent}, {origin: None}))
    return filter(_may_end(state, unit, origin), found)


def _search(
    state: State, unit: str, origin: str | None, allowance, forced: bool, region: frozenset[str] | None,
    cost: dict[str, int], prev: dict[str, str | None],
) -> Iterator[str]:
    """``_reach``'s search (Dijkstra's, from the one hex in ``cost``): each hex as it is first reached,
    ``cost`` and ``prev`` filled in as it goes."""
    game = state.game
    side = game.units[unit].side
    (start, spent), = cost.items()
    ezoc = enemy_zones_for(state, unit)
    enemies = enemy_occupied(state, side)
    closed = no_entry(state, unit)  # Chickamauga 19.21, 19.22
    rules = zoc_rules(state, side, unit)  # 10.2, 17.2; 11.2 for an ineffective unit
    if start in ezoc and not rules.may_exit:
        return  # 5.13
    if region is not None and start not in region:
        return  # 23.21: a Forced March only in those hexes
    if forced:
        closed = closed | ezoc  # 23.21-23.23: "may not enter Enemy Zones of Control"
        if region is not None:
            closed = closed | (game.terrain.keys() - region)
    steps = game.steps_for(unit)
    zoc_cost = game.zoc_cost_for(unit)  # revised 7.2
    barred = artillery_barred(state, unit, ezoc)  # revised 7.3
    one_hex = game.ruleset.always_one_hex and origin is None and spent == 0 and not forced  # revised 6.16
    restricted = terrain_restricted(state, unit)  # Wilderness 18.11, 18.12
    no_zoc = barred_from_enemy_zoc(state, unit)  # Wilderness 18.32
    heap = [(spent, start)]
    while heap:
        c, h = heapq.heappop(heap)
        if c > cost[h] or (h in ezoc and h != start):
            continue  # 6.0: a unit stops on entering an enemy-controlled hex
        for b, step in steps[h]:
            if zoc_cost is not None and b in ezoc:
                step = zoc_cost[(h, b)]
            nc = c + step
            if b in enemies or b in closed:  # 5.12; Chickamauga 19.21, 19.22
                continue
            if nc > allowance and not (one_hex and h == start):  # 5.15; revised 6.16
                continue
            if b in ezoc and (not rules.may_enter or b in barred or no_zoc):  # 10.2, 17.2; revised 7.3; Wilderness 18.32
                continue
            if restricted is not None and restricted.step_problem(game, state.turn, side, h, b, b in ezoc):
                continue  # Wilderness 18.11, 18.12
            if nc < cost.get(b, 99):
                if b not in cost:
                    yield b
                cost[b] = nc
                prev[b] = h
                heapq.heappush(heap, (nc, b))


def _one_step(state: State, unit: str, ahead: tuple[str, ...], allowance) -> Reach:
    """Shiloh 19.1: the hexes of ``ahead`` ``unit`` may move into by one step (the movement rules
    apply to the step)."""
    start = state.positions[unit]
    cost: dict[str, int] = {start: 0}
    prev: dict[str, str | None] = {start: None}
    for b in ahead:
        try:
            cost[b] = check_path(state, unit, (start, b), allowance=allowance)
        except RuleViolation:
            continue
        prev[b] = start
    return Reach(start, cost, prev, [h for h in cost if h != start])


def check_path(
    state: State, unit: str, path: tuple[str, ...], spent: int = 0, allowance=None, entering: bool = False
) -> int:
    """The movement points ``unit`` spends along ``path`` (path[0] its start), or RuleViolation."""
    game = state.game
    name = game.designation(unit)
    side = game.units[unit].side
    forced = forced_march_now(state, unit) if allowance is None and game.battle.forced_march is not None else None
    allowance = allowance_now(state, unit) if allowance is None else allowance
    marching = False  # Grand Chancellorsville 23.2: the move spends more than its allowance
    gunboat = game.units[unit].type == GUNBOAT
    enemies = enemy_occupied(state, side)
    closed = no_entry(state, unit)  # Chickamauga 19.21, 19.22
    rules = zoc_rules(state, side, unit)
    step_cost = game.step_cost_for(unit)
    zoc_cost = game.zoc_cost_for(unit)  # revised 7.2
    one_hex = game.ruleset.always_one_hex and spent == 0 and len(path) == 2 and not entering  # revised 6.16
    restricted = terrain_restricted(state, unit)  # Wilderness 18.11, 18.12
    if not entering and spent == 0 and game.battle.surprise_assault is not None:
        ahead = surprise_moves(state, unit)
        if ahead is not None and (len(path) != 2 or path[-1] not in ahead):  # Shiloh 19.1
            raise game.violation(
                "surprise_assault",
                f"{name} must move one, and only one, hex {' or '.join(sorted(ahead)) or '(none open)'} "
                f"(surprise assault, Game-Turns {', '.join(map(str, game.battle.surprise_assault.turns))})",
            )
    cost = spent
    # whether each of the path's hexes is in an enemy zone of control, each asked once (revised 9.64: a
    # gunboat minds none)
    zoc = [False] * len(path) if gunboat else EnemyZones(state, side, enemies).of(path)
    held = artillery_support(state, unit) if any(zoc) else None  # revised 7.3
    for i in range(1, len(path)):
        a, b = path[i - 1], path[i]
        step = (a, b)
        if b not in game.terrain:
            raise game.violation("movement", f"{name} may not move to {b}: it is not on the map")
        if b not in game.neighbours[a]:
            raise game.violation(
                "consecutive", f"{name} may not move from {a} to {b}: hexes must be entered one by one"
            )
        if zoc[i - 1]:
            if i == 1 and not rules.may_exit:
                raise game.violation(
                    "leave_enemy_zoc",
                    f"{name} is in an enemy zone of control at {a} and may not leave it during movement",
                )
            if i > 1:
                raise game.violation(
                    "zone_of_control",
                    f"{name} entered an enemy zone of control at {a} and must stop there",
                )
        if b in enemies:
            raise game.violation("enemy_occupied", f"{name} may not enter {b}: it holds an enemy unit")
        if b in closed:  # each reason a hex is closed to the unit, in turn
            crossing = game.battle.crossing_die
            if crossing is not None and b in crossing.closed(state, unit):  # Hooker and Lee 19.14
                why = (
                    "it may cross only by its own River ferry hex" if b != crossing.hex or crossing.allowed(state)
                    else "the die has not yet allowed its crossing (a '1')"
                )
                raise game.violation("crossing_die", f"{name} may not enter {b}: {why}")
            if b in game.ferry_hexes:
                raise game.violation("ferries.use", f"{name} may not enter {b}: {ferry_closed(state, unit)}")  # Shiloh 20.0
            for refuse in game.rules.refuse_entry:  # the battle's rules (Road to Vicksburg 17.1)
                if (problem := refuse(state, unit, b, False)) is not None:
                    raise problem
            if b in zone_closed(state, unit):
                raise game.violation(
                    "command_control_zone", f"{name} may not enter {b}: the Command Control Zone is closed to it until its Game-Turn comes"
                )  # Road to Richmond 20.1
            raise game.violation(
                "trains", f"{name} may not enter {b}: no unit moves through or stacks with a train, nor a train with another unit"
            )
        problem = gunboat_step_problem(game, a, b) if gunboat else game.step_problem(a, b)
        if problem is not None:
            raise game.violation(problem[0], f"{name} may not move from {a} to {b}: {problem[1]}")
        if zoc[i]:  # entering an enemy zone of control
            if not rules.may_enter:
                raise game.violation(
                    rules.case,
                    f"{name} may not enter the enemy zone of control at {b} "
                    + (game.ruleset.ineffective_until if rules.case == "ineffective_zoc" else "during a night Game-Turn"),
                )
            for bars in game.rules.bars_enemy_zoc:  # the battle's rules (Road to Vicksburg 17.1, 17.3 ii, 17.4)
                if (barred := bars(state, unit)) is not None:
                    raise game.violation(barred[0], f"{name} may not enter an enemy zone of control ({b}) {barred[1]}")
            if out_of_ammunition(state, unit):
                raise game.violation("ammunition", f"{name} is out of ammunition and may not enter an Enemy Zone of Control ({b})")  # Olustee 19.1
            if barred_from_enemy_zoc(state, unit):
                raise game.violation("trains.enemy_zoc", f"{name} may never enter an enemy controlled hex ({b})")  # Wilderness 18.32
            if held is not None and b not in held:
                raise game.violation(
                    "artillery_zoc",
                    f"{name} is artillery and may not enter the enemy zone of control at {b} unless a friendly "
                    "infantry or cavalry unit is already there",
                )
        if step not in step_cost:
            if game.rail_bound(unit):
                raise game.violation("train_artillery.railway", f"{name} moves only on railway hexes: not from {a} to {b}")  # Olustee 19.2
            raise game.violation("terrain", f"{name} may not move from {a} to {b}: its type may not enter {b}")
        if restricted is not None and (why := restricted.step_problem(game, state.turn, side, a, b, zoc[i])):
            raise game.violation(restricted.rule(state.turn), f"{name} may not move from {a} to {b}: {why}")
        cost += zoc_cost[step] if zoc_cost is not None and zoc[i] else step_cost[step]
        if cost > allowance and not one_hex:
            if forced is not None and cost <= forced[0]:
                marching = True  # 23.2: a Forced March
                continue
            more = f" (a Forced March's, {forced[0]})" if forced is not None else ""
            raise game.violation(
                "allowance",
                f"{name} would spend {cost} movement points reaching {b}; its movement allowance is {allowance}{more}",
            )
    if marching:
        check_forced_march(state, unit, path, zoc, forced[1])
    if path[-1] in game.no_end_hexes:
        raise game.violation(
            "ferries.end" if game.battle.ferries is not None else "ferry",
            f"{name} may not end its movement in the river ferry hex {path[-1]}",
        )
    check_alone(state, unit, path[-1])
    return cost


def check_forced_march(
    state: State, unit: str, path: tuple[str, ...], zoc: list[bool], region: frozenset[str] | None
) -> None:
    """Grand Chancellorsville 23.21-23.23: a Forced March "may not enter Enemy Zones of Control" (``zoc``:
    whether each hex of ``path`` is in one); the Union's (23.21) lies in "hexes north of the Rappahannock
    River; not including the River ferry or pontoon hexes" (``region``), its first hex included."""
    game = state.game
    name = game.designation(unit)
    n = game.battle.forced_march.allowance
    into = next((h for h, z in zip(path[1:], zoc[1:], strict=True) if z), None)
    if into is not None:
        raise game.violation(
            "forced_march", f"{name} may not enter the enemy zone of control at {into} on a Forced March (more than its movement allowance, up to {n})"
        )
    out = next((h for h in path if h not in region), None) if region is not None else None
    if out is not None:
        raise game.violation(
            "forced_march", f"{name} may Forced March (more than its movement allowance, up to {n}) only in the hexes its side may: not in {out}"
        )


def forced_march_events(state: State, unit: str, path: tuple[str, ...], cost, spent=0, entering: bool = False) -> list[Event]:
    """Grand Chancellorsville 23.2: a ``ForcedMarched`` before the move of ``unit`` along ``path`` that
    ``check_path`` accepted at ``cost``, when that spends more than its Movement Allowance ([] else;
    revised 6.16's one hex is no Forced March)."""
    if state.game.battle.forced_march is None or cost <= allowance_now(state, unit):
        return []
    if state.game.ruleset.always_one_hex and spent == 0 and len(path) == 2 and not entering:
        return []
    return [ForcedMarched(unit=unit, case=state.game.case("forced_march"))]


def apply_forced_marched(state: State, event: ForcedMarched) -> None:
    from rules.core.components.forced_march import MARCHED

    state.scored.add(f"{MARCHED}{state.turn}:{event.unit}")


def check_alone(state: State, unit: str, dest: str) -> None:
    """First Bull Run 17.2: "No unit may stack with Runyon's division" (the battle's ``stacking.alone``):
    no move, Strategic Movement or entry ends in a hex shared with such a unit. Road to Vicksburg 19.4 (the
    battle's ``stacking.at_most_one``): nor a brigade's in a hex holding another brigade."""
    game = state.game
    if dest in game.battle.alone_barred(state.positions, unit):
        raise game.violation(
            "stacking.alone", f"{game.designation(unit)} may not end its move in {dest}: no unit may stack with {_alone_names(state)}"
        )
    if dest in game.stacking_barred(state.positions, unit):
        size = game.units[unit].size
        raise game.violation(
            "stacking", f"{game.designation(unit)} may not end its move in {dest}: it holds a {size} already, and no more than one {size} may stack in a hex"
        )


def _alone_names(state: State) -> str:
    game = state.game
    return " or ".join(game.designation(u) for u in game.battle.stacking.alone)


def check_surprise_moves(state: State) -> None:
    """Shiloh 19.1 ("must move"): the surprised side's Movement Phase does not end while one of its
    units that must move one hex, and may (a move it may legally make now), has not moved."""
    surprise = state.game.battle.surprise_assault
    if surprise is None or state.phasing != surprise.side or state.turn not in surprise.turns:
        return
    game = state.game
    for unit, here in sorted(state.positions.items()):
        if unit in state.moved or not surprise.binds(state, unit) or why_unit_may_not_move(state, unit):
            continue
        for b in reachable(state, unit).ends:
            try:
                decide_move(state, MoveUnit(unit, (here, b)), None)
            except RuleViolation:
                continue
            raise game.violation(
                "surprise_assault",
                f"{game.designation(unit)} at {here} must move one hex ({', '.join(surprise.directions)}) "
                "before the Movement Phase ends",
            )


# -- no dead end ---------------------------------------------------------------------------------
def kept_ends(memo: dict) -> Callable[[State, str], Iterable[str]]:
    """A unit's possible ends (``possible_ends``) for the 5.32 checks, each unit's kept in ``memo``,
    found only as far as they are read."""

    def destinations(s: State, u: str) -> Iterable[str]:
        if u not in memo:
            memo[u] = Unfolding(possible_ends(s, u))
        return memo[u]

    return destinations


def within_limit_after(state: State, unit: str, dest: str) -> bool:
    """5.32: once ``unit`` is in ``dest``, ``dest`` and every hex of its side are within the stacking
    limit: then no dead end can follow (``state`` is the state before the move). A quick test, never
    True wrongly; when False, ``check_no_dead_end`` decides."""
    game = state.game
    side = game.units[unit].side
    n = stacking.limit(state)
    if stacking.by_strength(state):  # Olustee 18.2: Combat Strength Points
        after = stacking.counts(state, side)
        here_now = state.positions.get(unit)
        if here_now is not None:
            after[here_now] -= game.units[unit].strength
        after[dest] += game.units[unit].strength
        return max(after.values()) <= n and after[dest] + stacking.counts(state, other_side(side)).get(dest, 0) <= n
    where = state.positions.get
    if game.battle.symbolic_units is not None:  # Road to Vicksburg 18.2: a symbolic unit counts for nothing
        after = stacking.counts(state, side)
        here_now = where(unit)
        mine = stacking.weight(state, unit)
        if here_now is not None:
            after[here_now] -= mine
        after[dest] += mine
        return max(after.values(), default=0) <= n and after[dest] + stacking.counts(state, other_side(side)).get(dest, 0) <= n
    # Both sides' units by hex: a hex holds one side's units only, and ``dest``'s count is then the
    # side's and the enemy's at once. (An enemy hex over the limit, which no phase ends with, would
    # make the answer False: the caller then checks precisely.)
    positions = state.positions
    origin = where(unit)
    if origin != dest and stacking.known_within_limit(state):
        ok = countOf(positions.values(), dest) < n  # every other hex stays within the limit
    else:
        here = stacking.counts(state)  # both sides' (neither Olustee's points nor symbolic units here)
        if origin is not None:
            here[origin] -= 1
        here[dest] += 1
        ok = max(here.values()) <= n
    if ok:  # the next move of the phase starts from this position
        stacking.note_within_limit(game, {**positions, unit: dest})
    return ok


def check_no_dead_end(after: State, unit: str, cache: dict | None = None) -> None:
    """5.32: refuse a move after which some hex could no longer be brought within the stacking limit
    by the end of the phase. ``after`` is the state with the move applied. A unit that has left the
    map (Chickamauga 18.0, Fredericksburg 21.3: its exit is its move) ends in no hex, but its move
    still uses one of a movement quota's (Fredericksburg 19.0) and may leave too few for the units
    that must still leave an over-full hex: the same check, on the side's over-full hexes."""
    game = after.game
    side = game.units[unit].side
    dest = after.positions.get(unit)  # None: it has exited the map
    n = stacking.limit(after)
    crowded = dest is not None and stacking.counts(after).get(dest, 0) > n
    over = stacking.overstacked(after, side)
    if not crowded and not over:
        return
    destinations = kept_ends({} if cache is None else cache)
    if not stacking.resolvable(after, side, may_move, destinations, after.game.battle.quota_remaining(after, side)):
        if dest is None:
            hex_ = min(over)
            raise game.violation(
                "stacking",
                f"{game.designation(unit)} may not exit the map: {hex_} could then not be brought back "
                f"to {n} {stacking.what(after)} by the end of the phase (too few moves left to the "
                f"{side.title()} player this Movement Phase)",
            )
        raise game.violation(
            "stacking",
            f"{game.designation(unit)} may not end its move in {dest}: the hex could not be brought "
            f"back to {n} {stacking.what(after)} by the end of the phase",
        )


# -- the command ---------------------------------------------------------------------------------
def movement_die_roll(state: State, unit: str, dice: Dice | None) -> list[Event]:
    """Wilderness 20.2: the die rolled before ``unit`` moves, when it is the first of the battle's
    ``movement_die`` units to move this phase ([] otherwise). The caller moves nothing when the roll
    held them (``held``)."""
    die = state.game.battle.movement_die
    if die is None or not die.to_roll(state, unit):
        return []
    from rules.procedures.combat import roll  # here, not at the top: asked before every move

    r = roll(dice, "the General Burnside die (20.2)")
    return [MovementDieRolled(side=die.side, roll=r, held=r in die.fails_on, case=state.game.case("movement_die"))]


def apply_movement_die_rolled(state: State, event: MovementDieRolled) -> None:
    from rules.core.components.movement_die import HELD, ROLLED

    state.scored.add(f"{ROLLED}{state.turn}")
    if event.held:
        state.scored.add(f"{HELD}{state.turn}")


def decide_move(state: State, command: MoveUnit, dice: Dice | None) -> list[Event]:
    problem = why_unit_may_not_move(state, command.unit)
    if problem is not None:
        raise problem
    path = tuple(command.path)
    game = state.game
    here = state.positions[command.unit]
    if len(path) < 2 or path[0] != here:
        raise game.violation(
            "movement",
            f"a move of {game.designation(command.unit)} must start at its hex {here} and enter at least one hex",
        )
    if path[-1] == here:
        # Ruling (5.0, 5.17): a move ends in another hex; a unit brought back to its own hex has not
        # moved, and may not spend its one move (or a quota's) on a round trip.
        raise game.violation(
            "movement", f"{game.designation(command.unit)} must end its move in another hex than {here}"
        )
    cost = check_path(state, command.unit, path)
    event = UnitMoved(unit=command.unit, path=path, cost=movement_points(cost))
    if not within_limit_after(state, command.unit, path[-1]):  # else check_no_dead_end finds nothing
        after = state.copy()
        apply(after, event)
        check_no_dead_end(after, command.unit)
    rolled = movement_die_roll(state, command.unit, dice)  # Wilderness 20.2
    if rolled and rolled[0].held:
        return rolled
    return [*rolled, *forced_march_events(state, command.unit, path, cost), event]  # 23.2


def apply_unit_moved(state: State, event: UnitMoved) -> None:
    allocation.note_exempt(state, event.unit)  # Peachtree Creek 17.3: before it leaves its hex
    state.positions[event.unit] = event.path[-1]
    state.moved.add(event.unit)
    zone = not state.game.battle.symbolic(event.unit)  # Road to Vicksburg 18.3: no zone of control
    entered(state, state.game.units[event.unit].side, event.path[1:], zone)  # 17.15
