"""The choices of the player to act, structured for a client that knows no rule.

In a Movement Phase: for each unit that may move, every hex it may end its move in, with the cost
and a cheapest path (any other legal path to the same hex is accepted by ``decide`` too); for each
reinforcement that may enter, every hex it may reach, entry hex first in the path; and whether the
phase may end now (and if not, why). In a Combat Phase: the attacks that may be declared; with a
decision pending (a declared attack, a retreat, exchange losses, an advance), its options
(rules/combat_choices.py). ``decide`` and these choices agree: every offered move is
accepted, and every accepted move ends in an offered hex (tests/rules/test_properties.py).
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from rules.combat_choices import AttackOption, DecisionChoice, attack_options, decision_choice
from rules.core.arith import movement_points
from rules.core.errors import RuleViolation
from rules.core.events import ReinforcementEntered, UnitMoved
from rules.core.handlers import apply
from rules.core.scenario import Side
from rules.core.state import COMBAT, MOVEMENT, State
from rules.mechanisms import leaders
from rules.procedures import movement, reinforcements, variable_reinforcements
from rules.procedures.exits import exit_paths
from rules.procedures.night import zoc_rules
from rules.procedures.sequence import to_act, why_phase_may_not_end
from rules.queries import stacking
from rules.queries.exits import exit_hexes
from rules.queries.zoc import enemy_occupied
from rules.revised.combat_procedures import rally_candidates, rout_candidates
from rules.revised.fieldworks import removable


class Destination(msgspec.Struct, frozen=True):
    """A hex a unit may end its move in: the movement points it costs and a cheapest path (the
    unit's hex first; for a reinforcement, its entry hex first). ``cost`` is exact: an int when
    whole, else the fraction as a string "n/d" (revised 6.22: turnpike hexes cost 2/3; rules/core/arith.py
    ``movement_points``)."""

    cost: int | str
    path: tuple[str, ...]


def _destination(cost, path: tuple[str, ...]) -> Destination:
    return Destination(movement_points(cost), path)


class Refusal(msgspec.Struct, frozen=True):
    """Why something is not allowed now: the rule's case and a sentence."""

    case: str
    message: str


class Arrival(msgspec.Struct, kw_only=True):
    """Road to Richmond 17.61: a chart Game-Turn a variable unit may be written down to arrive with, and
    that Game-Turn's entry hexes."""

    turn: int
    entry: list[str]


class WriteDownChoice(msgspec.Struct, kw_only=True):
    """Road to Richmond 17.62 (the game option ``variable_reinforcements``), before the game starts:
    the ``units`` to write down (17.61: the Game-Turn One reinforcements of the chart's hex) and the
    ``arrivals`` each may be written down for, its own first (17.63, 17.64: the later ones)."""

    units: list[str]
    arrivals: list[Arrival]


class Choices(msgspec.Struct, kw_only=True):
    """What the player to act may do now.

    In a Movement Phase, ``may_move``, ``may_enter`` and ``may_move_strategically`` name the units
    that may start a move, enter, or use Strategic Movement; where each may end is ``reach`` (the
    server sends the choices without destinations, and one unit's reach when the client asks). The
    full form, ``choices(state)``, also fills ``moves``, ``reinforcements`` and ``strategic`` with
    every unit's destinations (rules tests and bots); a unit listed as free to start can still turn
    out to have no hex to end in (5.13, 5.32), and is then absent from the tables."""

    side: Side | None
    turn: int
    phase: str
    may_move: list[str] = []
    may_enter: list[str] = []
    may_move_strategically: list[str] = []  # revised 6.4; empty under the 1975 rules
    moves: dict[str, dict[str, Destination]] = {}
    reinforcements: dict[str, dict[str, Destination]] = {}
    # Revised 6.4: per unit that may use Strategic Movement, every hex it may reach by it (a
    # ``StrategicMove`` command, rules/revised/movement.py); empty under the 1975 rules.
    strategic: dict[str, dict[str, Destination]] = {}
    # A battle's exits (Chickamauga 18.0, rules/procedures/exits.py): per unit that may leave the map now,
    # for each exit hex it may leave by, the movement points spent (the exit's own included, 18.2) and a
    # cheapest path to that hex (an ``ExitMap`` command); in both forms; empty in a battle without exits.
    exits: dict[str, dict[str, Destination]] = {}
    # Revised 10.34: the units that may begin breastworks now (``BuildBreastworks``), and per unit
    # whose marker may be flipped, the facings it may take (``CompleteBreastworks``).
    build_breastworks: list[str] = []
    complete_breastworks: dict[str, list[tuple[str, ...]]] = {}
    # Revised 10.37: in the Combat Phase, once it may end, the hexes whose Breastworks Marker the
    # phasing player may remove (``RemoveBreastworks``, rules/core/breastworks.py).
    remove_breastworks: list[str] = []
    # Grand Chancellorsville 23.51: the Leaders of the phasing side that may move on their own now (a
    # ``MoveLeader`` command); in the full form, per Leader, every hex he may end his move in.
    may_move_leader: list[str] = []
    leader_moves: dict[str, dict[str, Destination]] = {}
    attacks: list[AttackOption] = []  # Combat Phase: the attacks that may be declared (rules/combat_choices.py)
    decision: DecisionChoice | None = None  # the options of the first pending decision
    rally: tuple[str, ...] = ()  # revised 12.41 (b): units that may be given a Rally marker now (PlaceRally)
    rout: tuple[str, ...] = ()  # revised 12.16: Shaken units that may be turned Routed now (VoluntaryRout)
    may_end_phase: bool = False
    end_phase_refused: Refusal | None = None
    # Road to Richmond 17.62: before the game starts, what is to be written down (the only command
    # until then is ``WriteDownReinforcements``: nothing else is offered); None at any other time.
    write_down: WriteDownChoice | None = None


def choices(state: State, destinations: bool = True, written: Mapping[str, int] | None = None) -> Choices:
    """Everything the player to act may do in ``state``; without ``destinations``, the Movement
    Phase's units that may move but not where (``reach`` gives one unit's). ``written`` (Road to
    Richmond 17.62): the chart Game-Turn each variable unit was written down for, known to the
    player who wrote it down (give it only for his choices): his reinforcements as ``decide`` will
    take them once each entry opens its commitment."""
    state = variable_reinforcements.as_written(state, written)
    out = Choices(side=to_act(state), turn=state.turn, phase=state.phase)
    if state.game_over:
        return out
    waiting = variable_reinforcements.not_written_yet(state)
    if waiting is not None:  # Road to Richmond 17.62: before the game starts
        out.write_down = write_down_choice(state)
        out.end_phase_refused = Refusal(waiting.case, waiting.message)
        return out
    if state.phase == MOVEMENT and not state.pending:
        out.may_move = movers(state)
        out.may_enter = entrants(state)
        if state.game.ruleset.strategic_bonus:
            out.may_move_strategically = strategic_movers(state, out.may_move)
        if destinations:
            memo: dict[str, list[str]] = {}
            out.moves = movement_choices(state, memo)
            out.reinforcements = reinforcement_choices(state, memo)
            if state.game.ruleset.strategic_bonus:
                out.strategic = strategic_choices(state, memo)
        if state.game.battle.exits is not None:  # Chickamauga 18.0
            out.exits = exit_choices(state, out.may_move)
        if state.game.battle.may_build_breastworks:  # revised 10.34
            out.build_breastworks, out.complete_breastworks = breastworks_choices(state, out.may_move)
        out.rally = rally_candidates(state)
        chiefs = state.game.battle.leaders
        if chiefs is not None and chiefs.movement_allowance is not None:  # Grand Chancellorsville 23.51
            out.may_move_leader = leader_movers(state)
            if destinations:
                out.leader_moves = leader_choices(state, out.may_move_leader)
    if state.pending:
        out.decision = decision_choice(state)
    elif state.phase == COMBAT:
        out.attacks = attack_options(state)
        out.rout = rout_candidates(state)
    problem = why_phase_may_not_end(state)
    out.may_end_phase = problem is None
    if problem is None and state.breastworks:
        out.remove_breastworks = removable(state, may_end=None)
    if problem is not None:
        out.end_phase_refused = Refusal(problem.case, problem.message)
    return out


def write_down_choice(state: State) -> WriteDownChoice:
    """Road to Richmond 17.61-17.64: the variable units and the arrivals each may be written down for."""
    vr = state.game.battle.variable_reinforcements
    return WriteDownChoice(
        units=list(variable_reinforcements.variable_units(state)),
        arrivals=[Arrival(turn=t, entry=vr.entry_for(t)) for t in vr.turns()],
    )


def movers(state: State) -> list[str]:
    """The phasing player's units on the map that may start a move now (5.11, 5.17, exclusive rules)."""
    units = state.game.units
    side = state.phasing
    return sorted(u for u in state.positions if units[u].side == side and movement.may_move(state, u))


def entrants(state: State) -> list[str]:
    """The reinforcements that may enter now at one of their entry hexes at least (15.11-15.13)."""
    return [
        u
        for u in reinforcements.due(state)
        if reinforcements.why_may_not_enter(state, u) is None
        and any(reinforcements.entry_problem(state, u, e) is None for e in reinforcements.entry_hexes(state, u))
    ]


def strategic_movers(state: State, free: list[str]) -> list[str]:
    """Revised 6.4: of the units that may start a move (``free``), those that may use Strategic
    Movement now, with a route to take (6.45)."""
    from rules.revised.movement import route_out, strategic_problem

    enemies = enemy_occupied(state, state.phasing)
    return [u for u in free if strategic_problem(state, u, enemies) is None and route_out(state, u, enemies)]


def leader_movers(state: State) -> list[str]:
    """Grand Chancellorsville 23.51: the phasing side's Leaders who may start a move of their own now."""
    rule = state.game.battle.leaders
    places = rule.places(state)  # each Leader's marks read once
    return [x.id for x in rule.leaders if x.side == state.phasing and leaders.why_leader_may_not_move(state, x.id, places) is None]


def leader_destinations(state: State, leader: str) -> dict[str, Destination]:
    """23.51: every hex the Leader ``leader`` may end a move of his own in now ({} when he may not move)."""
    found = leaders.leader_reach(state, leader)
    if found is None:
        return {}
    return {d: _destination(found.cost[d], found.path(d)) for d in sorted(found.ends)}


def leader_choices(state: State, movers: list[str]) -> dict[str, dict[str, Destination]]:
    """23.51: per Leader of ``movers``, his destinations."""
    out = {}
    for leader in movers:
        found = leader_destinations(state, leader)
        if found:
            out[leader] = found
    return out


def reach(
    state: State, unit: str, how: str = "move", written: Mapping[str, int] | None = None
) -> tuple[dict[str, Destination], Refusal | None]:
    """Where ``unit`` may end a move now (``how``: "move", "enter" as a reinforcement, "strategic" for
    revised 6.4, "leader" for a Leader's own move, Grand Chancellorsville 23.51: ``unit`` his id), exactly
    as the full choices list it; when nowhere, the reason. ``written``: as for ``choices`` (Road to
    Richmond 17.62)."""
    state = variable_reinforcements.as_written(state, written)
    waiting = variable_reinforcements.not_written_yet(state)  # Road to Richmond 17.62
    if waiting is not None:
        return {}, Refusal(waiting.case, waiting.message)
    if how == "leader":
        problem = leaders.why_leader_may_not_move(state, unit)
        found = {} if problem else leader_destinations(state, unit)
        if problem is None and not found:
            problem = state.game.violation("movement", f"{unit} has no hex he may end a move in now")
        return found, None if problem is None else Refusal(problem.case, problem.message)
    if how == "enter":
        problem = reinforcements.why_may_not_enter(state, unit)
        found = {} if problem else entry_moves(state, unit)
    elif how == "strategic":
        from rules.revised.movement import strategic_problem

        problem = None
        if not state.game.ruleset.strategic_bonus:
            problem = state.game.violation("movement", "there is no Strategic Movement under these rules")
        problem = problem or strategic_problem(state, unit)  # (5.17 and the rest first: why_unit_may_not_move)
        found = {} if problem else strategic_moves(state, unit)
    else:
        problem = movement.why_unit_may_not_move(state, unit)
        found = {} if problem else unit_moves(state, unit)
    if problem is None and not found:
        problem = _nowhere(state, unit, how)
    return found, None if problem is None else Refusal(problem.case, problem.message)


def _nowhere(state: State, unit: str, how: str) -> RuleViolation:
    """Why a unit free to start a move has no hex to end it in: 5.13, or 5.32 dead ends, or none open."""
    game = state.game
    name = game.designation(unit)
    if how == "move":
        here = state.positions[unit]
        side = game.units[unit].side
        if here in movement.enemy_zones_for(state, unit) and not zoc_rules(state, side, unit).may_exit:
            return game.violation(
                "leave_enemy_zoc", f"{name} is in an enemy zone of control at {here} and may not leave it during movement"
            )
        if movement.reachable(state, unit).ends:
            return game.violation(
                "stacking",
                f"{name} has no hex to end a move in: each would leave a hex that could not be brought back "
                f"to {stacking.limit(state)} {stacking.what(state)} by the end of the phase",
            )
    if how == "strategic":
        return game.violation(
            "strategic.routes",
            f"{name} has no route to follow from {state.positions[unit]} that keeps three hexes from every enemy unit",
        )
    return game.violation("movement", f"{name} has no hex it may end a move in now")


def unit_moves(state: State, unit: str, memo: dict | None = None) -> dict[str, Destination]:
    """Every hex ``unit`` may end a move in now, with cost and path ({} when it may not move)."""
    if movement.why_unit_may_not_move(state, unit) is not None:
        return {}
    memo = {} if memo is None else memo
    reach = movement.reachable(state, unit)
    memo[unit] = reach.ends
    return _ends(state, unit, reach, memo)


def _ends(state: State, unit: str, reach: movement.Reach, memo: dict) -> dict[str, Destination]:
    """The hexes of ``reach`` a move of ``unit`` on the map may end in (5.32: no dead end), with cost
    and path."""
    free = _free_hexes(state, state.game.units[unit].side)
    ends = _DeadEnds(state, unit, memo)
    out = {}
    for d in reach.ends:
        path = reach.path(d)
        if free is None or d not in free:
            if not ends.allows(UnitMoved(unit=unit, path=path, cost=movement_points(reach.cost[d]))):
                continue
        out[d] = _destination(reach.cost[d], path)
    return out


def movement_choices(state: State, memo: dict | None = None) -> dict[str, dict[str, Destination]]:
    """Per unit of the phasing side on the map, its destinations (units that may not move left out)."""
    memo = {} if memo is None else memo
    out = {}
    for unit in movers(state):
        moves = unit_moves(state, unit, memo)
        if moves:
            out[unit] = moves
    return out


def entry_moves(state: State, unit: str, memo: dict | None = None) -> dict[str, Destination]:
    """Every hex a reinforcement that may enter now may reach, with the path from its entry hex
    (15.13: the cheapest over its entry hexes)."""
    memo = {} if memo is None else memo
    free = _free_hexes(state, state.phasing)
    ends = _DeadEnds(state, unit, memo)
    best: dict[str, Destination] = {}
    least: dict[str, object] = {}  # the exact cost of each of ``best``
    for entry in reinforcements.entry_hexes(state, unit):
        if reinforcements.entry_problem(state, unit, entry) is not None:
            continue
        reach = reinforcements.reachable_from_entry(state, unit, entry)
        for d in reach.ends:
            cost = reach.cost[d]
            if d in least and least[d] <= cost:
                continue
            path = reach.path(d)
            if free is None or d not in free:
                if not ends.allows(ReinforcementEntered(unit=unit, path=path, cost=movement_points(cost))):
                    continue
            best[d], least[d] = _destination(cost, path), cost
    return dict(sorted(best.items()))


def may_enter_somewhere(state: State, unit: str, memo: dict | None = None) -> bool:
    """Has the reinforcement ``unit`` a hex to enter to now: is ``entry_moves(state, unit)`` not empty?
    Answered without listing them: a hex with room (no 5.32 question) answers at once, else the 5.32
    no-dead-end check of each end only until one passes (a player draws a reinforcement first and
    lists the destinations of that one alone, ``entry_moves``)."""
    memo = {} if memo is None else memo
    free = _free_hexes(state, state.phasing)
    reaches = []
    for entry in reinforcements.entry_hexes(state, unit):
        if reinforcements.entry_problem(state, unit, entry) is not None:
            continue
        if free is not None and any(d in free for d in reinforcements.possible_entry_ends(state, unit, entry)):
            return True  # the search stops at the first end with room
        reaches.append(reinforcements.reachable_from_entry(state, unit, entry))
    ends = _DeadEnds(state, unit, memo)
    return any(
        ends.allows(ReinforcementEntered(unit=unit, path=reach.path(d), cost=movement_points(reach.cost[d])))
        for reach in reaches
        for d in reach.ends
        if free is None or d not in free
    )


def arriving(state: State, memo: dict | None = None) -> list[str]:
    """The reinforcements that may enter now and have a hex to enter to: the units of
    ``reinforcement_choices``, in its order, without their destinations."""
    memo = {} if memo is None else memo
    return [
        u
        for u in reinforcements.due(state)
        if reinforcements.why_may_not_enter(state, u) is None and may_enter_somewhere(state, u, memo)
    ]


def reinforcement_choices(state: State, memo: dict | None = None) -> dict[str, dict[str, Destination]]:
    """Per reinforcement that may enter now, every hex it may reach (path from its entry hex)."""
    memo = {} if memo is None else memo
    out = {}
    for unit in reinforcements.due(state):
        if reinforcements.why_may_not_enter(state, unit) is not None:
            continue
        best = entry_moves(state, unit, memo)
        if best:
            out[unit] = best
    return out


def strategic_moves(state: State, unit: str, memo: dict | None = None) -> dict[str, Destination]:
    """Revised 6.4: every hex ``unit`` may reach by Strategic Movement ({} when it may not use it)."""
    from rules.revised.movement import strategic_reach

    reach = strategic_reach(state, unit)
    if reach is None:
        return {}
    return _ends(state, unit, reach, {} if memo is None else memo)


def strategic_choices(state: State, memo: dict | None = None) -> dict[str, dict[str, Destination]]:
    """Revised 6.4: per unit of the phasing side that may use Strategic Movement, its destinations."""
    memo = {} if memo is None else memo
    units = state.game.units
    out = {}
    for unit in sorted(u for u in state.positions if units[u].side == state.phasing):
        best = strategic_moves(state, unit, memo)
        if best:
            out[unit] = best
    return out


def exit_choices(state: State, free: list[str]) -> dict[str, dict[str, Destination]]:
    """Chickamauga 18.1, 18.2: of the units that may start a move (``free``), those that may leave the map
    now, with each exit hex's cost (the exit's own included) and path. Only units that could be near
    enough are searched: the cheapest step costs 2/3 of a Movement Point (revised 6.22 turnpike)."""
    game = state.game
    exits = game.battle.exits
    out: dict[str, dict[str, Destination]] = {}
    for unit in free:
        here = state.positions[unit]
        if not exits.may_exit(game.units[unit].type, game.units[unit].side):  # Cemetery Hill 18.2: cavalry only
            continue
        nearest = min(game.grid.distance(here, x) for x in exit_hexes(game))
        if 2 * nearest > 3 * movement.allowance_now(state, unit):
            continue
        found = {}
        for hex_, path in exit_paths(state, unit).items():
            cost = (movement.check_path(state, unit, path) if len(path) > 1 else 0) + exits.cost
            found[hex_] = _destination(cost, path)
        if found:
            out[unit] = found
    return out


def breastworks_choices(state: State, free: list[str]) -> tuple[list[str], dict[str, list[tuple[str, ...]]]]:
    """Revised 10.34: of the units that may start a move (``free``: a builder spends its move), who may
    begin breastworks; and whose marker may be flipped with which facings."""
    from rules.revised.movement import build_problem, complete_problem, facings

    units = state.game.units
    mine = sorted(u for u in state.positions if units[u].side == state.phasing)
    enemies = enemy_occupied(state, state.phasing)
    build = [u for u in free if build_problem(state, u, enemies) is None]
    complete = {u: facings(state, u) for u in mine if complete_problem(state, u) is None}
    return build, complete


def _free_hexes(state: State, side: str) -> set[str] | None:
    """Hexes a unit may end in without any stacking question: those with room, when no hex is over the
    limit. None when some hex is over the limit (every destination must then be checked)."""
    if stacking.overstacked(state, side) or stacking.by_strength(state):  # Olustee 18.2: each unit's own room
        return None
    n = stacking.limit(state)
    full = {h for h, c in stacking.counts(state, side).items() if c >= n}
    return _NotIn(full)


class _NotIn:
    __slots__ = ("full",)

    def __init__(self, full: set[str]):
        self.full = full

    def __contains__(self, hex_: str) -> bool:
        return hex_ not in self.full


class _DeadEnds:
    """5.32, no dead end, at every hex one unit might end its move in: ``movement.check_no_dead_end``
    on the state after each move, with what does not depend on the hex worked out once
    (``stacking.Arrivals``). The states after two moves of the unit differ only in its place, unless the
    paths change the control of different hexes (17.14: the quota's bonus hex) or, for a
    reinforcement, start at different entry hexes: one ``Arrivals`` per such difference."""

    def __init__(self, state: State, unit: str, memo: dict):
        self.state = state
        self.unit = unit
        self.side = state.game.units[unit].side
        self.destinations = movement.kept_ends(memo)
        self._arrivals: dict[tuple, stacking.Arrivals] = {}
        self._whole = self._trains_matter()  # asked once for all the unit's destinations

    def allows(self, event: UnitMoved | ReinforcementEntered) -> bool:
        if self._whole:
            return self._checked(event)
        control = self.state.control
        path = event.path
        key = (path[0], frozenset(h for h in path if h in control and control[h] != self.side))
        arrivals = self._arrivals.get(key)
        if arrivals is None:
            after = self.state.copy()
            apply(after, event)
            quota = after.game.battle.quota_remaining(after, self.side)
            arrivals = stacking.Arrivals(after, self.unit, movement.may_move, self.destinations, quota)
            self._arrivals[key] = arrivals
        return arrivals.allows(path[-1])

    def _trains_matter(self) -> bool:
        """Chickamauga 19.21, 19.22: does where this unit ends change where its side's units may go
        while the phase's stacking is put right? Yes when it is a train (its hex is closed to the
        others), or when a train of its side may still move (every occupied hex is closed to it). An
        enemy train, or one that may not move again, goes nowhere: the ends of the units that may are
        the same after any of this unit's moves, as in a battle without trains."""
        state = self.state
        trains = state.game.battle.trains
        if trains is None:
            return False
        if trains.is_train(self.unit):
            return True
        units = state.game.units
        return any(
            u in state.positions and units[u].side == self.side and movement.may_move(state, u) for u in trains.units
        )

    def _checked(self, event: UnitMoved | ReinforcementEntered) -> bool:
        """Chickamauga 19.22: a train closes its hex to every other unit and every occupied hex to
        itself, so a move changes where the others may go: each state after a move is checked whole."""
        after = self.state.copy()
        apply(after, event)
        try:
            movement.check_no_dead_end(after, self.unit)
        except RuleViolation:
            return False
        return True
