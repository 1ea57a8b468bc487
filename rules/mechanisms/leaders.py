"""Leaders (Grand Chancellorsville 23.5): the battle rule of the ``[exclusive.leaders]`` block, whose
settings and their questions are rules/core/components/leaders.py (the scenario's schema: ``Battle``
decodes the block there); what becomes of a Leader whose unit is destroyed, and the points for killing
him. (His effects in combat, 23.55 and 23.57, are still asked by rules/revised/combat_procedures.py.)

An ``after_command_rolls`` hook (``fates``): after a command whose events eliminate units, 23.56 "Roll a
die for each Leader present with the destroyed combat unit. A die roll of '1' results in the Leader being
killed" (``LeaderKilled``, and 23.58's points: ``VictoryPointsAwarded`` of kind "leader"); "Any other result
requires that the Leader is placed immediately on the nearest unit of his command" (``LeaderPlaced``);
23.53 "If all units within a particular command have been eliminated the commander is removed from play"
(``LeaderRemoved``, no die, no points).

23.51, a Leader's own move (``decide_move_leader``, ``leader_reach`` for the legal choices): as an infantry
unit of his side, up to the battle's ``movement_allowance``, or by a Forced March up to ``forced_march``
(``ForcedMarched`` of his id, into no enemy zone of control); ``LeaderMoved`` leaves him standing in the
hex, and an ``end_of_phase`` hook (``join``) makes him ride with a unit there (``LeaderJoined``). 23.54, a
Leader alone: an ``after_command`` hook (``overrun``) eliminates him when an enemy unit enters his hex
(``LeaderEliminated``, with 23.58's points).

Rulings (docs/RULINGS.md): a Leader is present with a destroyed unit when he was in its hex as the command
began; the die is rolled for any elimination of such a unit (a combat result, a loss taken, a retreat it
could not make). "The nearest unit of his command" is one on the map at the fewest hexes from the
destroyed unit's hex (ties: the first by id); when none of his command is on the map but some are still
to arrive, he waits with the first of those by id.
"""

from __future__ import annotations

import heapq

from rules.core.arith import movement_points
from rules.core.battle_rule import BattleRule
from rules.core.commands import MoveLeader
from rules.core.components.leaders import AT, KILLED, MOVED, REMOVED, WITH, Leader, Leaders, Place
from rules.core.errors import RuleViolation
from rules.core.events import (
    Event,
    ForcedMarched,
    LeaderEliminated,
    LeaderJoined,
    LeaderKilled,
    LeaderMoved,
    LeaderPlaced,
    LeaderRemoved,
    ReinforcementEntered,
    ReinforcementLost,
    UnitAdvanced,
    UnitEliminated,
    UnitExited,
    UnitMoved,
    UnitRetreated,
    VictoryPointsAwarded,
)
from rules.core.handlers import Dice
from rules.core.scenario import other_side
from rules.core.state import MOVEMENT, State
from rules.procedures.movement import Reach, at_night
from rules.procedures.night import zoc_rules
from rules.queries.zoc import enemy_controlled, enemy_occupied


def fates(state: State, events: list[Event], after: State, dice: Dice | None) -> list[Event]:
    """23.56, 23.53, 23.58: the dice for the Leaders present with the units ``events`` destroyed."""
    rule = state.game.battle.leaders
    if rule is None:
        return []
    gone = [e.unit for e in events if isinstance(e, UnitEliminated | ReinforcementLost)]
    if not gone:
        return []
    from rules.procedures.combat import roll

    game = state.game
    hexes = {state.positions.get(u) for u in gone} - {None}
    out: list[Event] = []
    places = rule.places(state)
    for leader in rule.leaders:
        if not rule.in_play(after, leader):
            continue
        was, unit = places[leader.id].hex, places[leader.id].unit
        carried_off = unit in gone
        if was not in hexes and not carried_off:
            continue
        left = _command_left(after, rule, leader)
        if not left:
            out.append(LeaderRemoved(leader=leader.id, case=game.case("leaders.removed")))  # 23.53
            continue
        die = roll(dice, f"the die for {leader.name} (23.56)")
        if die in rule.killed_on:
            out.append(LeaderKilled(leader=leader.id, roll=die, case=game.case("leaders.killed")))
            side = other_side(leader.side)
            out.append(
                VictoryPointsAwarded(side=side, points=rule.points(leader), kind="leader", subject=leader.id, case=game.case("leaders.points"))
            )  # 23.58
            continue
        origin = was or state.positions.get(unit)
        out.append(LeaderPlaced(leader=leader.id, unit=_nearest(after, left, origin), roll=die, case=game.case("leaders.killed")))
    return out


def _command_left(state: State, rule: Leaders, leader: Leader) -> list[str]:
    """The units of ``leader``'s command not eliminated (on the map or still to arrive)."""
    game = state.game
    dead = set(state.eliminated)
    return sorted(u for u in game.units if u not in dead and rule.commands(state, leader, u) and game.units[u].type != "gunboat")


def _nearest(state: State, units: list[str], origin: str | None) -> str:
    """23.56: "the nearest unit of his command"."""
    on_map = [u for u in units if u in state.positions]
    if not on_map:
        return units[0]
    if origin is None:
        return on_map[0]
    grid = state.game.grid
    return min(on_map, key=lambda u: (grid.distance(origin, state.positions[u]), u))


def apply_killed(state: State, event: LeaderKilled) -> None:
    state.scored.add(f"{KILLED}{event.leader}")


def apply_removed(state: State, event: LeaderRemoved) -> None:
    state.scored.add(f"{REMOVED}{event.leader}")


def apply_placed(state: State, event: LeaderPlaced | LeaderJoined) -> None:
    """23.56 (placed on the nearest unit of his command), 23.51 (joined to a unit where he stands): he
    rides with ``event.unit`` from now on."""
    _forget_place(state, event.leader)
    state.scored.add(f"{WITH}{event.leader}:{event.unit}")


# -- 23.51: a Leader's own move ----------------------------------------------------------------------
def why_leader_may_not_move(state: State, leader_id: str, places: dict[str, Place] | None = None) -> RuleViolation | None:
    """23.51: the reason the Leader ``leader_id`` may not start a move of his own now, or None.
    ``places``: the Leaders' places (``Leaders.places``) when a caller asks after several Leaders."""
    game = state.game
    rule = game.battle.leaders
    if rule is None or rule.movement_allowance is None:
        return game.violation("movement", "the Leaders of this battle move only with their units")
    leader = next((x for x in rule.leaders if x.id == leader_id), None)
    if leader is None:
        return game.violation("movement", f"there is no Leader {leader_id!r} in this game")
    if state.phase != MOVEMENT or leader.side != state.phasing or state.pending:
        return game.violation("out_of_sequence", f"{leader.name} may not move now: Leaders move only in their own side's Movement Phase")
    place = places[leader.id] if places is not None else rule.place(state, leader)
    if place.hex is None:
        return game.violation("movement", f"{leader.name} is not on the map")
    if rule.moved(state, leader):
        return game.violation("leaders.move", f"{leader.name} has already moved this Movement Phase")
    unit = place.unit
    if unit is not None and unit in state.moved:  # ruling: his unit's move carried him; it was his move
        return game.violation("leaders.move", f"{leader.name} moved with {game.designation(unit)} this Movement Phase")
    return None


class _Terms:
    """What binds a Leader's move now (23.51; ruling: as an infantry unit of his side, docs/RULINGS.md)."""

    def __init__(self, state: State, leader: Leader):
        game = state.game
        rule = game.battle.leaders
        side = leader.side
        self.steps = game.steps_of(side, "infantry")  # 10.1, 22.11
        self.step_cost = game.step_cost_of(side, "infantry")
        self.zoc_cost = game.zoc_cost_of(side, "infantry")  # 7.2
        self.ezoc = enemy_controlled(state, side)  # 7.0
        self.enemies = enemy_occupied(state, side)  # 6.12
        ferries = game.battle.ferries
        self.closed = game.ferry_hexes if ferries is not None and ferries.closed_to(state, side) else frozenset()
        self.start = rule.hex_of(state, leader)
        rules = zoc_rules(state, side, here=self.start)  # 7.0; revised 11.12 from the hex he begins in
        self.may_enter, self.may_exit = rules.may_enter, rules.may_exit
        self.allowance = at_night(state, rule.movement_allowance)  # 23.51, 11.11
        self.forced = at_night(state, rule.forced_march) if rule.forced_march is not None else None

    def step(self, a: str, b: str):
        """The Movement Points of the step ``a`` -> ``b`` (None: the step may not be taken)."""
        if b in self.enemies or b in self.closed or (a, b) not in self.step_cost:
            return None
        if b in self.ezoc:
            if not self.may_enter:
                return None
            return self.zoc_cost[(a, b)] if self.zoc_cost is not None else self.step_cost[(a, b)]
        return self.step_cost[(a, b)]


def _search(terms: _Terms, allowance, forced: bool) -> dict[str, tuple]:
    """The cheapest cost and the hex before of each hex a Leader may reach within ``allowance``; a Forced
    March's (``forced``) enters no enemy-controlled hex (23.2)."""
    start = terms.start
    best: dict[str, tuple] = {start: (0, None)}
    if start in terms.ezoc and not terms.may_exit:
        return best  # 6.13
    heap = [(0, start)]
    while heap:
        c, h = heapq.heappop(heap)
        if c > best[h][0] or (h in terms.ezoc and h != start):
            continue  # 7.0: "All units must cease movement when they enter an Enemy controlled hex"
        for b, _ in terms.steps[h]:
            step = terms.step(h, b)
            if step is None or (forced and b in terms.ezoc):
                continue
            nc = c + step
            if nc <= allowance and (b not in best or nc < best[b][0]):
                best[b] = (nc, h)
                heapq.heappush(heap, (nc, b))
    return best


def leader_reach(state: State, leader_id: str) -> Reach | None:
    """23.51: where the Leader ``leader_id`` may end a move of his own now, with the cost and a cheapest
    path to each hex (the Forced March's beyond his allowance); None when he may not move."""
    if why_leader_may_not_move(state, leader_id) is not None:
        return None
    rule = state.game.battle.leaders
    leader = rule.leader(leader_id)
    terms = _Terms(state, leader)
    barred = state.game.no_end_hexes | rule.may_not_stand(state, leader)  # 6.28, 23.53: once for both searches
    reach = _as_reach(terms, barred, _search(terms, terms.allowance, False))
    if terms.forced is None or terms.forced <= terms.allowance:
        return reach
    return reach.with_forced(_as_reach(terms, barred, _search(terms, terms.forced, True)))


def _as_reach(terms: _Terms, barred: frozenset[str], best: dict[str, tuple]) -> Reach:
    """The ``Reach`` of a search's ``best``: every hex but his own and the ``barred`` ones (where he may
    not end) an end."""
    ends = [h for h in best if h != terms.start and h not in barred]
    return Reach(terms.start, {h: c for h, (c, _) in best.items()}, {h: p for h, (_, p) in best.items()}, ends)


def check_leader_path(state: State, leader: Leader, path: tuple[str, ...]):
    """23.51: the Movement Points ``leader`` spends along ``path`` and whether it is a Forced March, or
    RuleViolation."""
    game = state.game
    rule = game.battle.leaders
    terms = _Terms(state, leader)
    name = leader.name
    if len(path) < 2 or path[0] != terms.start or path[-1] == terms.start:
        raise game.violation("movement", f"a move of {name} starts at his hex {terms.start} and ends in another hex")
    cost = 0
    for i in range(1, len(path)):
        a, b = path[i - 1], path[i]
        if b not in game.terrain or b not in game.neighbours[a]:
            raise game.violation("consecutive", f"{name} may not move from {a} to {b}: hexes must be entered one by one")
        if a in terms.ezoc and (i > 1 or not terms.may_exit):
            case = "zone_of_control" if i > 1 else "leave_enemy_zoc"
            raise game.violation(case, f"{name} may not leave the enemy zone of control at {a} during movement")
        if b in terms.enemies:
            raise game.violation("enemy_occupied", f"{name} may not enter {b}: it holds an enemy unit")
        step = terms.step(a, b)
        if step is None:
            raise game.violation("terrain", f"{name} may not move from {a} to {b}")
        cost += step
    forced = cost > terms.allowance
    if forced and (terms.forced is None or cost > terms.forced):
        limit = terms.allowance if terms.forced is None else terms.forced
        raise game.violation("allowance", f"{name} would spend {cost} Movement Points; he may spend {limit} (23.51)")
    if forced and any(h in terms.ezoc for h in path[1:]):
        raise game.violation("forced_march", f"{name} may not enter an enemy zone of control on a Forced March (more than {terms.allowance})")
    if path[-1] in game.no_end_hexes:
        raise game.violation("ferry", f"{name} may not end his move in the river ferry hex {path[-1]}")
    if path[-1] in rule.may_not_stand(state, leader):  # 23.53
        raise game.violation(
            "leaders.stacking", f"{name} may not end his move in {path[-1]}: a one-star Leader stacks only with units of his command"
        )
    return cost, forced


def decide_move_leader(state: State, command: MoveLeader, dice: Dice | None) -> list[Event]:
    """23.51: ``command.leader`` moves along ``command.path`` on his own (a ``ForcedMarched`` first when it
    spends more than his allowance, 23.2), leaving his unit."""
    problem = why_leader_may_not_move(state, command.leader)
    if problem is not None:
        raise problem
    game = state.game
    leader = game.battle.leaders.leader(command.leader)
    path = tuple(command.path)
    cost, forced = check_leader_path(state, leader, path)
    moved = LeaderMoved(leader=leader.id, path=path, cost=movement_points(cost), case=game.case("leaders.move"))
    if forced:
        return [ForcedMarched(unit=leader.id, case=game.case("leaders.move")), moved]
    return [moved]


def apply_moved(state: State, event: LeaderMoved) -> None:
    _forget_place(state, event.leader)
    state.scored.add(f"{AT}{event.leader}:{event.path[-1]}")
    state.scored.add(f"{MOVED}{state.turn}:{event.leader}")


def join(state: State) -> list[Event]:
    """An ``end_of_phase`` hook: a Leader standing on his own in a hex with a unit he may ride with rides
    with it from now on (``LeaderJoined``; ruling: as the phase ends, so that the units that move later in
    the phase of his own move leave him where he stopped: one move per Leader per Movement Phase)."""
    rule = state.game.battle.leaders
    if rule is None or rule.movement_allowance is None:
        return []
    out: list[Event] = []
    places = rule.places(state)
    for leader in rule.leaders:
        at = places[leader.id].standing if rule.in_play(state, leader) else None
        unit = rule.rides_with(state, leader, at) if at is not None else None
        if unit is not None:
            out.append(LeaderJoined(leader=leader.id, unit=unit, case=state.game.case("leaders.move")))
    return out


def _forget_place(state: State, leader_id: str) -> None:
    for prefix in (f"{WITH}{leader_id}:", f"{AT}{leader_id}:"):
        state.scored.difference_update([s for s in state.scored if s.startswith(prefix)])


# -- 23.54: a Leader alone ------------------------------------------------------------------------
def _entered(event: Event) -> tuple[str, tuple[str, ...]] | None:
    """The unit and the hexes a move, entry, retreat or advance enters (every hex but the first of its
    path; a reinforcement's entry hex too), or None."""
    if isinstance(event, ReinforcementEntered):
        return event.unit, event.path
    if isinstance(event, UnitMoved | UnitRetreated | UnitAdvanced | UnitExited):
        return event.unit, event.path[1:]
    return None


def overrun(state: State, events: list[Event], after: State) -> list[Event]:
    """An ``after_command`` hook, 23.54: "If an Enemy combat unit moves into or through a hex containing a
    Leader, that Leader is eliminated" (a Leader alone in his hex as the command began: a Leader with a
    unit of his side is in no hex an enemy unit may enter); 23.58: his stars' points to the enemy. The
    hexes each side's units entered first: only a Leader in one his enemy entered is asked the rest."""
    rule = state.game.battle.leaders
    if rule is None:
        return []
    moves = [m for m in map(_entered, events) if m is not None]
    if not moves:
        return []
    game = state.game
    entered: dict[str, set[str]] = {}  # by side: the hexes the command's moves took its units into
    for u, hexes in moves:
        entered.setdefault(game.units[u].side, set()).update(hexes)
    out: list[Event] = []
    places = None  # read once, for the first Leader whose enemy entered some hex
    for leader in rule.leaders:
        enemy = other_side(leader.side)
        by_enemy = entered.get(enemy)
        if not by_enemy:
            continue
        places = places or rule.places(state)
        here = places[leader.id].hex
        if here not in by_enemy:
            continue  # the cheap test first: no enemy unit entered his hex
        if rule.his_side_in(state, leader, here) or not rule.in_play(after, leader):
            continue  # not alone (23.54), or already gone by this command's other events
        by = next(u for u, hexes in moves if game.units[u].side == enemy and here in hexes)
        out.append(LeaderEliminated(leader=leader.id, unit=by, hex=here, case=game.case("leaders.alone")))
        out.append(
            VictoryPointsAwarded(side=enemy, points=rule.points(leader), kind="leader", subject=leader.id, case=game.case("leaders.points"))
        )  # 23.58
    return out


def apply_eliminated(state: State, event: LeaderEliminated) -> None:
    state.scored.add(f"{KILLED}{event.leader}")


class LeadersRule(BattleRule):
    """The mechanism (rules/core/battle_rule.py): the Leader's move and his events; its hooks come after
    the revised book's own steps of each table (``late``), where they stood in its table before."""

    component = "leaders"
    books = frozenset({"revised"})
    late = True
    deciders = {MoveLeader: decide_move_leader}  # 23.51
    evolvers = {
        LeaderKilled: apply_killed,  # 23.56
        LeaderPlaced: apply_placed,  # 23.56
        LeaderRemoved: apply_removed,  # 23.53
        LeaderMoved: apply_moved,  # 23.51
        LeaderJoined: apply_placed,  # 23.51, 23.53
        LeaderEliminated: apply_eliminated,  # 23.54
    }

    def after_command(self, state: State, events: list[Event], after: State) -> list[Event]:
        return overrun(state, events, after)  # 23.54

    def after_command_rolls(self, state: State, events: list[Event], after: State, dice: Dice | None) -> list[Event]:
        return fates(state, events, after, dice)  # 23.56, 23.53, 23.58

    def end_of_phase(self, state: State) -> list[Event]:
        return join(state)  # 23.51
