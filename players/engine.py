"""A computer opponent: a heuristic search over the player's decisions, through the public reducer and
legal choices only (``rules.legal.choices``, ``rules.reducer.decide``/``fold``): it has no rule of its own.

- **Combat** (an expectimax of depth one): every attack the legal choices offer (each adjacent set, with
  and without its bombardment) is declared on a scratch state and resolved six times, once for each
  face of the die; the decisions that follow (retreats, losses, advances, either side's) are taken by
  the default policy below, and each outcome is scored by ``evaluate``. The die is a chance node with
  the die's own odds: the engine never sees the game's dice. It declares the attack of best expected
  score when that beats not attacking (an attack owed, 7.11, is always made), else ends the phase.
- **Movement** (one-ply greedy improvement): each command moves the unit, to the hex, that most
  improves a positional score (``Position.gain``: the battle's objectives within reach, local odds for
  and against, stacking), confirmed by ``decide``; when no move gains, the phase ends.
- **Decisions** (retreat, losses, advance, terrain, rally): each legal answer is applied to a scratch
  state and the one ``evaluate`` scores best is taken.

``evaluate(state, side)`` knows the battle's victory conditions through the rules' own bookkeeping:
the side's Victory Points less the enemy's, with the points the position would earn if the game ended
now (``rules.procedures.victory.due`` and ``end_points``), plus the strength each side still has on the
map, weighted by what an enemy Strength Point is worth.

A level is a budget: how many attacks are examined per Combat decision and how many units per move,
and the seconds a decision may take. The time is a bound on the whole decision, checked inside the
costly loops (``Budget``): no further attack or unit is examined once it is spent, an attack being
weighed is scored by the faces of the die already weighed, and the decisions that follow it are
then answered by their first legal answer; the overrun is at most about one evaluation.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from players.selfplay import answer, declinable
from rules.combat_choices import (
    AdvanceChoice,
    BeforeCombatChoice,
    LossesChoice,
    RallyChoice,
    ResolveChoice,
    RetreatChoice,
    decision_choice,
)
from rules.core.commands import (
    Command,
    DeclareAttack,
    Decline,
    EndPhase,
    EnterReinforcement,
    ExitMap,
    MoveLeader,
    MoveUnit,
    ResolveAttack,
    RetreatBeforeCombat,
    RollRally,
    StrategicMove,
)
from rules.core.errors import RuleViolation
from rules.core.events import VictoryDetermined, VictoryPointsAwarded
from rules.core.scenario import SIDES, other_side
from rules.core.state import COMBAT, MOVEMENT, State
from rules.legal import Choices, choices, entry_moves, leader_destinations, strategic_moves, unit_moves
from rules.procedures.victory import determine_victory, params
from rules.queries.stacking import overstacked
from rules.reducer import decide, fold

if TYPE_CHECKING:
    from rules.core.scenario import Side

#: A Strength Point on the map is worth this share of what eliminating it scores (it may still score).
MATERIAL = 0.6
#: The level of victory the position would have if the game ended now, a win or a loss, is worth this
#: many enemy Strength Points eliminated at the end of the game, and the share of the game played
#: before (early on the level may still change many times).
LEVEL = 20.0
#: A unit's move is worth this much for each hex it comes nearer to a hex a level of victory asks a
#: side to occupy (Shiloh 18.2: Pittsburg Landing): the army marches on it, or back to hold it.
MARCH = 1.0


@dataclass(frozen=True)
class Level:
    """A budget per decision: ``attacks`` examined in a Combat decision (the best odds first), ``movers``
    units considered for each move (drawn at random when there are more), and ``seconds`` for the
    whole decision (``Budget``: then the decision depends on the machine's speed)."""

    name: str
    attacks: int
    movers: int
    seconds: float


LEVELS = {
    "easy": Level("easy", attacks=4, movers=4, seconds=0.5),
    # normal examined 12 attacks and 40 units until 2026-12-07: as many as hard on Chattanooga, where the
    # two then played alike (docs/ENGINE.md); cut so that the levels differ
    "normal": Level("normal", attacks=6, movers=12, seconds=1.2),
    "hard": Level("hard", attacks=40, movers=200, seconds=5.0),
}
DEFAULT_LEVEL = "normal"


@dataclass
class Budget:
    """One decision's time: its ``deadline`` (``time.perf_counter`` seconds; None: no limit) and the
    work done, counted: ``evaluations`` (positions scored) and ``units`` (units whose moves were listed).
    It is spent when the longest piece of work yet (``slowest``: an evaluation, a unit's moves) would
    no longer end before the deadline: a big battle's evaluation, or a loaded machine, leaves more room."""

    deadline: float | None = None
    evaluations: int = 0
    units: int = 0
    slowest: float = 0.0

    @classmethod
    def seconds(cls, seconds: float) -> Budget:
        return cls(deadline=time.perf_counter() + seconds)

    def spent(self, reserve: float = 0.0) -> bool:
        """Whether the time is spent (keeping ``reserve`` seconds for later)."""
        return self.deadline is not None and time.perf_counter() + self.slowest + reserve > self.deadline

    def took(self, since: float) -> None:
        """A piece of work begun at ``since`` has ended."""
        self.slowest = max(self.slowest, time.perf_counter() - since)


def scored(state: State, side: Side, budget: Budget | None) -> float:
    """``evaluate``, counted and timed in ``budget``."""
    if budget is None:
        return evaluate(state, side)
    budget.evaluations += 1
    began = time.perf_counter()
    value = evaluate(state, side)
    budget.took(began)
    return value


# -- the evaluation -----------------------------------------------------------------------------------
def point_value(state: State, side: Side) -> float:
    """What one enemy Strength Point eliminated scores for ``side`` (1 where the battle says nothing)."""
    p = params(state)
    if p is None:
        return 1.0
    per_sp = p.per_enemy_strength_point_eliminated.get(side)
    if per_sp:
        return float(per_sp)
    per_unit = p.per_enemy_unit_eliminated.get(side)
    if per_unit:
        return per_unit / 4.0  # a unit of about four Strength Points
    return 1.0


def victor(level: str | None) -> str | None:
    """The side a level of victory names ("Union Marginal Victory" is the Union's), or None (a Draw)."""
    text = (level or "").lower()
    return next((s for s in SIDES if text.startswith(s)), None)


def evaluate(state: State, side: Side) -> float:
    """The position for ``side``: points held and due if the game ended now, less the enemy's, plus the
    strength on the map, plus the level of victory the game would end with now (the rules' own
    ``determine_victory``: its Victory Point ratio or differential, and whatever changes the level, such
    as a Demoralized winner's, Hooker and Lee 21.3), weighed by the share of the game played."""
    enemy = other_side(side)
    points = {side: state.vp.get(side, 0), enemy: state.vp.get(enemy, 0)}
    level = state.result
    if params(state) is not None and not state.game_over:
        for event in determine_victory(state):
            if isinstance(event, VictoryPointsAwarded):
                points[event.side] += event.points
            elif isinstance(event, VictoryDetermined):
                level = event.level
    outcome = 0.0
    if level is not None and (params(state) is not None or state.game_over):
        won = victor(level)
        played = 1.0 if state.game_over else min(1.0, state.turn / max(1, state.game.scenario.turns))
        outcome = (0.0 if won is None else 1.0 if won == side else -1.0) * LEVEL * played * point_value(state, side)
    strength = {side: 0, enemy: 0}
    units = state.game.units
    for u in state.positions:
        unit = units[u]
        strength[unit.side] += unit.strength
    return (
        points[side]
        - points[enemy]
        + outcome
        + MATERIAL * (strength[side] * point_value(state, enemy) - strength[enemy] * point_value(state, side))
    )


# -- dice as chance nodes -----------------------------------------------------------------------------
def die_showing(face: int, rng: random.Random):
    """Dice whose first roll shows ``face``; any later roll (a morale check, a second die) is drawn by
    the engine's own generator."""
    rolls = iter([face])

    def roll() -> int:
        return next(rolls, None) or rng.randint(1, 6)

    return roll


# -- decisions by the default policy ------------------------------------------------------------------
def answers(decision) -> list[Command]:
    """Every legal answer to a pending decision (a Resolve at its own odds only)."""
    if isinstance(decision, ResolveChoice):
        return [ResolveAttack()]
    if isinstance(decision, RallyChoice):
        return [RollRally()]
    if isinstance(decision, BeforeCombatChoice) and not decision.options:
        return [RetreatBeforeCombat(()), RetreatBeforeCombat(tuple(decision.units))]
    if isinstance(decision, (RetreatChoice, LossesChoice, AdvanceChoice, BeforeCombatChoice)):
        return [answer(decision, o) for o in decision.options] + ([Decline()] if declinable(decision) else [])
    return []


def best_answer(state: State, rng: random.Random, budget: Budget | None = None) -> Command:
    """The answer to the first pending decision that leaves its side the best position (each answer
    tried once, with the engine's own dice where one rolls); once ``budget`` is spent, the best of those
    tried (none tried: the first answer)."""
    decision = decision_choice(state)
    options = answers(decision)
    if len(options) == 1:
        return options[0]
    side = state.pending[0].side
    best, best_score = options[0], None
    for command in options:
        if budget is not None and budget.spent():
            break
        try:
            after = fold(state, decide(state, command, die_showing(rng.randint(1, 6), rng)))
        except RuleViolation:
            continue
        score = scored(after, side, budget)
        if best_score is None or score > best_score:
            best, best_score = command, score
    return best


def settled(state: State, rng: random.Random, face: int, limit: int = 12, budget: Budget | None = None) -> State:
    """The state once the pending decisions are all taken by ``best_answer`` (the first die showing
    ``face``): an attack's outcome."""
    first = True
    for _ in range(limit):
        if not state.pending or state.game_over:
            return state
        command = best_answer(state, rng, budget)
        dice = die_showing(face, rng) if first else die_showing(rng.randint(1, 6), rng)
        if isinstance(command, ResolveAttack):
            first = False
        try:
            state = fold(state, decide(state, command, dice))
        except RuleViolation:
            return state
    return state


# -- combat -------------------------------------------------------------------------------------------
def declarations(legal: Choices) -> list[tuple[bool, float, DeclareAttack]]:
    """Every attack offered: (owed, odds as a number, the command), each adjacent set with and without
    its bombardment."""
    from rules.core.crt import ratio

    out = []
    for option in legal.attacks:
        for adjacent in option.adjacent:
            units = adjacent.units or tuple(u for h in adjacent.hexes for u in option.groups[h].units)
            guns = tuple(u for h in option.bombard for u in option.groups[h].units)
            variants = [(units, adjacent.odds)]
            if guns:
                variants.append((units + guns, adjacent.odds_with_bombardment or adjacent.odds))
            for attackers, odds in variants:
                if not attackers:
                    continue
                value = float(ratio(odds)) if odds else 0.0
                out.append((option.owed, value, DeclareAttack(attackers=attackers, defenders=option.defenders)))
    out.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return out


#: The order the faces of the die are weighed in: a low and a high face alternately, so that the mean of
#: the faces weighed before the time runs out is not all good or all bad luck.
FACES = (1, 6, 3, 4, 2, 5)


def expected(
    state: State, command: DeclareAttack, side: Side, rng: random.Random, budget: Budget | None = None
) -> float | None:
    """The mean score for ``side`` over the six faces of the die of ``command``'s attack (once ``budget``
    is spent, over the faces weighed so far, one at least); None when the rules refuse it."""
    try:
        declared = fold(state, decide(state, command))
    except RuleViolation:
        return None
    total, faces = 0.0, 0
    for face in FACES:
        if faces and budget is not None and budget.spent():
            break
        total += scored(settled(declared, rng, face, budget=budget), side, budget)
        faces += 1
    return total / faces


def combat_command(state: State, legal: Choices, level: Level, rng: random.Random, budget: Budget | None = None) -> Command:
    side = state.phasing
    budget = budget or Budget.seconds(level.seconds)
    base = scored(state, side, budget)
    best: tuple[float, Command] | None = None
    for _owed, _odds, command in declarations(legal)[: level.attacks]:
        if best is not None and budget.spent():
            break  # the budget is spent: the best odds were weighed first
        score = expected(state, command, side, rng, budget)
        if score is None:
            continue
        if best is None or score > best[0]:
            best = (score, command)
    if best is not None and (best[0] > base + 0.05 or not legal.may_end_phase):
        return best[1]
    if legal.may_end_phase:
        return EndPhase()
    if best is not None:
        return best[1]
    raise RuntimeError(f"the engine found nothing to do: {legal.end_phase_refused}")


# -- movement -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Style:
    """The weights of ``Position``'s movement score: ``threat`` (the enemy strength a unit's odds
    threaten), ``risk`` (the strength it risks where it stands) and ``objectives`` (the battle's
    objective hexes drawing the nearest unit). The engine plays the default; the searching player
    (players/search.py) makes whole-phase plans in several styles and keeps the one its look-ahead
    scores best, so a style is a candidate generator there, not a level's tweak."""

    threat: float = 1.0
    risk: float = 1.2
    objectives: float = 1.0


DEFAULT_STYLE = Style()


@dataclass
class Position:
    """A positional score for the units of ``side`` about to move: the battle's objectives (each
    objective hex's points, for the nearest friendly unit, decreasing with distance), and for each unit
    the odds it makes against adjacent enemy hexes (an enemy on an objective: its points too) and
    suffers from them, in Strength Points: counted in Victory Points instead (878e99c), they made the
    revised Chattanooga Confederate draw 11 of 40 games against the greedy player, 2 of 40 in Strength
    Points (seeds 1-40, docs/ENGINE.md)."""

    state: State
    side: str
    objectives: list[tuple[str, float]] = field(default_factory=list)
    style: Style = DEFAULT_STYLE

    def __post_init__(self) -> None:
        state, game = self.state, self.state.game
        self.grid = game.grid
        self.units = game.units
        self.here = dict(state.positions)
        self.enemy_at: dict[str, int] = {}
        self.mine_at: dict[str, int] = {}
        for u, h in self.here.items():
            table = self.mine_at if self.units[u].side == self.side else self.enemy_at
            table[h] = table.get(h, 0) + self.units[u].strength
        self.neighbours = game.neighbours
        self.objectives = objectives(state)
        self.goals = goals(state)
        self.objective_at: dict[str, float] = {}
        for h, points in self.objectives:
            self.objective_at[h] = self.objective_at.get(h, 0.0) + points
        # per objective, the two nearest friendly units: (distance, unit), nearest first
        mine = [(u, h) for u, h in self.here.items() if self.units[u].side == self.side]
        self.closest = [
            sorted((self.grid.distance(h, o), u) for u, h in mine)[:2] + [(99, ""), (99, "")]
            for o, _ in self.objectives
        ]

    def nearest(self, i: int, without: str | None = None) -> int:
        """The distance from the ``i``-th objective to the nearest friendly unit (but ``without``)."""
        first, second = self.closest[i][0], self.closest[i][1]
        return second[0] if first[1] == without else first[0]

    def local(self, unit: str, hex_: str | None, mine_at: dict[str, int]) -> float:
        """The odds term of ``unit`` in ``hex_``: the enemy strength it threatens, less its risk."""
        if hex_ is None:
            return 0.0
        strength = self.units[unit].strength
        threat = 0.0
        danger = 0.0
        for n in self.neighbours.get(hex_, ()):
            enemy = self.enemy_at.get(n)
            if not enemy:
                continue
            attack = sum(mine_at.get(m, 0) for m in self.neighbours.get(n, ()))
            odds = min(1.0, max(0.0, (attack / enemy - 1.0) / 3.0))
            # an enemy on an objective: the odds against it are worth the objective's points too
            threat += enemy * odds + self.objective_at.get(n, 0.0) * odds
            danger += enemy
        stack = mine_at.get(hex_, 0)
        risk = strength * min(1.0, max(0.0, (danger / max(1, stack) - 1.0) / 3.0)) if danger else 0.0
        return self.style.threat * threat - self.style.risk * risk

    def gain(self, unit: str, dest: str) -> float:
        """How much moving ``unit`` to ``dest`` improves the score."""
        start = self.here.get(unit)
        strength = self.units[unit].strength
        before = dict(self.mine_at)
        after = dict(self.mine_at)
        if start is not None:
            after[start] -= strength
        after[dest] = after.get(dest, 0) + strength
        value = self.local(unit, dest, after) - self.local(unit, start, before)
        for i, (hex_, points) in enumerate(self.objectives):
            was = self.nearest(i)
            now = min(self.nearest(i, without=unit), self.grid.distance(dest, hex_))
            value += self.style.objectives * points * (1.0 / (1 + now) - 1.0 / (1 + was))
        if start is None:
            value += strength  # a reinforcement on the map
        elif self.goals:
            value += MARCH * (self.to_goal(start) - self.to_goal(dest))
        return value

    def to_goal(self, hex_: str) -> int:
        return min(self.grid.distance(hex_, g) for g in self.goals)


def goals(state: State) -> list[str]:
    """The hexes a level of victory asks a side to occupy at the end (Shiloh 18.2: 1508)."""
    p = params(state)
    out: list[str] = []
    for level in p.levels if p is not None else ():
        if level.occupied is not None:
            out += [h for h in level.occupied.hexes if h not in out and h in state.game.terrain]
    return out


def objectives(state: State) -> list[tuple[str, float]]:
    """The hexes the battle's victory conditions name, with their points (either side cares: one to take
    them, the other to hold them); exit hexes at what a unit scores by leaving."""
    p = params(state)
    out: list[tuple[str, float]] = []
    if p is not None:
        for hp in (*p.first_controls, p.last_control):
            if hp is not None:
                out += [(h, float(hp.points_each)) for h in hp.hexes]
        out += [(o.hex, float(o.points)) for o in p.occupation]
        for every in p.control_of_all:
            out += [(h, float(every.points) / max(1, len(every.hexes))) for h in every.hexes]
        if p.town_in_zoc is not None:
            area = state.game.scenario.map.areas.get(p.town_in_zoc.area, [])
            out += [(h, float(p.town_in_zoc.points_each)) for h in area]
        for each in p.occupied_each_turn:  # points each Game-Turn for occupying (Road to Richmond 22.13)
            worth = max([each.points_each, *each.points.values()])  # Road to Vicksburg 21.3: by side
            out += [(h, float(worth)) for h in each.hexes]
        out += [(h, 10.0) for h in goals(state) if (h, 10.0) not in out]  # Shiloh 18.2: 1508
    exits = state.game.battle.exits
    if exits is not None and exits.points_per_strength_point.get(state.phasing):
        out += [(h, 2.0) for h in exits.hexes]
    return [(h, pts) for h, pts in out if h in state.game.terrain]


def unit_commands(state: State, legal: Choices, unit: str, memo: dict) -> Iterable[tuple[str, Command]]:
    """Every move ``unit`` may make now (the legal choices' destinations of one unit: a move, an entry
    as a reinforcement, a Strategic Movement), as (destination, command)."""
    if unit in legal.may_move:
        for hex_, d in unit_moves(state, unit, memo).items():
            yield hex_, MoveUnit(unit, d.path)
    if unit in legal.may_enter:
        for hex_, d in entry_moves(state, unit, memo).items():
            yield hex_, EnterReinforcement(unit, d.path)
    if unit in legal.may_move_strategically:
        for hex_, d in strategic_moves(state, unit, memo).items():
            yield hex_, StrategicMove(unit=unit, path=d.path)


#: A move gains when it improves the positional score by more than this.
GAINS = 0.05


def movement_command(
    state: State,
    legal: Choices,
    level: Level,
    rng: random.Random,
    budget: Budget | None = None,
    idle: set[str] | None = None,
    style: Style = DEFAULT_STYLE,
) -> Command:
    """The move of best ``Position.gain`` among the units examined (``legal`` may be the choices without
    destinations: each unit's are listed as it is examined, in a random order, until the budget is
    spent, or 60% of it once a move that gains is found); the end of the phase when none gains.
    ``idle``: the units found without a move that gains earlier in this phase, not examined again (and
    added to), so that the units examined by the decisions of a phase add up to the whole army.
    ``style``: the weights of the positional score."""
    side = legal.side or state.phasing
    budget = budget or Budget.seconds(level.seconds)
    idle = set() if idle is None else idle
    pos = Position(state, side, style=style)
    every = sorted({*legal.may_move, *legal.may_enter, *legal.may_move_strategically})
    units = rng.sample(every, min(len(every), level.movers))
    memo: dict = {}
    found: list[tuple[float, str, Command]] = []
    examined: set[str] = set()
    gains = False
    for unit in units:
        if found and budget.spent(0.4 * level.seconds if gains else 0.0):
            break  # without a move that gains, the rest of the time goes on finding one
        if unit in idle:
            continue
        budget.units += 1
        examined.add(unit)
        began = time.perf_counter()
        mine = [(pos.gain(unit, h), h, c) for h, c in unit_commands(state, legal, unit, memo)]
        budget.took(began)
        if any(value > GAINS for value, _h, _c in mine):
            gains = True
        else:
            idle.add(unit)
        found += mine
    ranked = sorted(found, key=lambda t: (t[0], t[1]), reverse=True)
    exits = state.game.battle.exits
    if exits is not None and exits.points_per_strength_point.get(side):
        for unit, dests in legal.exits.items():
            for hex_, d in dests.items():
                ranked.insert(0, (pos.units[unit].strength * 2.0, hex_, ExitMap(unit=unit, path=d.path)))
    command: Command | None
    for value, _h, command in ranked[:8]:
        if value <= GAINS and legal.may_end_phase:
            break
        try:
            decide(state, command)
        except RuleViolation:
            continue
        return command
    if legal.may_end_phase:
        return EndPhase()
    # The phase may not end (5.32: a hex over the stacking limit; Shiloh 19.1: units that must move): the
    # units of the side's over-full hexes first, every one of them scored; the others while the budget
    # lasts; then the best move the rules accept; failing that, the first of any unit left.
    crowded = overstacked(state, side)
    rest = sorted((u for u in every if u not in examined), key=lambda u: (state.positions.get(u) not in crowded, u))
    listed = 0
    for unit in rest:
        if ranked and state.positions.get(unit) not in crowded and budget.spent():
            break
        budget.units += 1
        ranked += [(pos.gain(unit, h), h, c) for h, c in unit_commands(state, legal, unit, memo)]
        listed += 1
    command = first_accepted(state, ranked)
    for unit in rest[listed:]:
        if command is not None:
            break
        budget.units += 1
        command = first_accepted(state, [(0.0, h, c) for h, c in unit_commands(state, legal, unit, memo)])
    if command is None:
        raise RuntimeError(f"the engine found nothing to do: {legal.end_phase_refused}")
    return command


def first_accepted(state: State, ranked: list[tuple[float, str, Command]]) -> Command | None:
    """The best-scoring of ``ranked`` (score, hex, command) that ``decide`` accepts, or None."""
    for _value, _h, command in sorted(ranked, key=lambda t: (t[0], t[1]), reverse=True):
        try:
            decide(state, command)
        except RuleViolation:
            continue
        return command
    return None


def leader_command(state: State, legal: Choices, idle: set[str] | None = None) -> Command | None:
    """Grand Chancellorsville 23.51: the move of a Leader away from the front to the strongest stack of his
    side in contact with the enemy that he would ride with (23.55: his saving roll, and one Strength Point
    for a Leader of more stars, count where units fight), one Leader a decision; None when no Leader of
    ``legal.may_move_leader`` is away from the front with such a stack within reach. ``idle``: as for
    ``movement_command``; a Leader found without such a stack is added as ``leader:<id>`` and not
    examined again in the phase."""
    if not legal.may_move_leader:
        return None
    rule = state.game.battle.leaders
    assert rule is not None  # ``legal.may_move_leader`` is not empty: the battle has Leaders
    game = state.game
    units = game.units
    enemies = {h for u, h in state.positions.items() if units[u].side != state.phasing}
    front = {n for h in enemies for n in game.neighbours[h]}  # the hexes beside an enemy
    strength: dict[str, int] = {}
    for u, h in state.positions.items():
        if units[u].side == state.phasing and h in front and units[u].type != "artillery":
            strength[h] = strength.get(h, 0) + units[u].strength
    idle = set() if idle is None else idle
    places = rule.places(state)
    for lid in legal.may_move_leader:
        leader = rule.leader(lid)
        if f"leader:{lid}" in idle or places[lid].hex in front:
            continue
        dests = leader_destinations(state, lid)
        best = max(
            (h for h in dests if h in strength and rule.rides_with(state, leader, h) is not None),
            key=lambda h: (strength[h], h),
            default=None,
        )
        if best is not None:
            return MoveLeader(leader=lid, path=dests[best].path)
        idle.add(f"leader:{lid}")
    return None


# -- the player ---------------------------------------------------------------------------------------
class Engine:
    """A player (``players.selfplay.Player``): ``engine(state, rng)`` returns its command."""

    def __init__(self, level: str | Level = DEFAULT_LEVEL, style: Style = DEFAULT_STYLE):
        if isinstance(level, Level):
            self.level = level  # a budget of its own (players/search.py's look-ahead)
        elif level in LEVELS:
            self.level = LEVELS[level]
        else:
            raise ValueError(f"no level {level!r} (known: {', '.join(LEVELS)})")
        self.style = style
        self.budget: Budget | None = None
        self._idle_key: tuple | None = None
        self._idle: set[str] = set()
        self._moved: set[str] = set()

    def idle_units(self, state: State) -> set[str]:
        """The units found without a move that gains earlier in this Movement Phase (``movement_command``),
        forgotten when another phase begins (its Game-Turn, side and phase), a unit is eliminated, or
        the units moved in the phase are not those of before and more (another game)."""
        key = (state.turn, state.phasing, state.phase, len(state.eliminated))
        if self._idle_key != key or not self._moved <= state.moved:
            self._idle_key, self._idle = key, set()
        self._moved = set(state.moved)
        return self._idle

    def __call__(self, state: State, rng: random.Random) -> Command:
        budget = Budget.seconds(self.level.seconds)
        self.budget = budget  # the last decision's: its work counted
        if state.pending:
            return best_answer(state, rng, budget)
        legal = choices(state, destinations=False)  # a unit's destinations are listed as it is examined
        if legal.rally:
            from rules.core.commands import PlaceRally

            return PlaceRally(legal.rally)
        if state.phase == COMBAT:
            return combat_command(state, legal, self.level, rng, budget)
        if state.phase == MOVEMENT:
            idle = self.idle_units(state)
            leading = leader_command(state, legal, idle)  # Grand Chancellorsville 23.51
            if leading is not None:
                return leading
            return movement_command(state, legal, self.level, rng, budget, idle, self.style)
        return EndPhase()
