"""Self-play: computer players that play whole games through the legal choices, and a referee that
checks the rules' invariants as they play. Pure: players take a ``random.Random`` and return commands;
nothing is read or written.

- ``random_command`` / ``random_player``: uniform among the legal choices (``random_command`` from the
  full ``rules.legal.choices``; ``random_player`` the same distribution, computing only what it picks
  from). In a phase that may end it ends it with probability ``end_weight``.
- ``greedy_player``: moves like the random player; in combat it declares the attack with the best
  odds it can (all the bombardment it can add), resolves at full odds, loses the least it can, keeps
  bombarding artillery in place, advances whenever it may.
- ``Referee``: no unit attacks or is attacked twice in a phase (7.14, 7.74 aside); no hex over the
  stacking limit when a phase ends (5.32); no unit in a river, a ferry hex or off the map; no unit
  leaves an enemy zone of control by movement (5.13; 17.2 at night); the player
  to act always has a choice or may end the phase (no dead end); at the end, victory points recounted
  from the event log equal the state's (20.1) and the game has a level of victory (20.2).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterator

from rules.combat_choices import (
    AdvanceChoice,
    AttackOption,
    BeforeCombatChoice,
    LossesChoice,
    RallyChoice,
    ResolveChoice,
    RetreatChoice,
    attack_options,
    decision_choice,
)
from rules.core.commands import (
    Advance,
    ChooseLosses,
    ChooseTerrain,
    Command,
    DeclareAttack,
    Decline,
    EndPhase,
    EnterReinforcement,
    EnterWrittenReinforcement,
    MoveLeader,
    MoveUnit,
    PlaceRally,
    ResolveAttack,
    Retreat,
    RetreatBeforeCombat,
    RollRally,
    StrategicMove,
    VoluntaryRout,
    WriteDownReinforcements,
)
from rules.core.components.variable_reinforcements import commitment
from rules.core.crt import ratio
from rules.core.errors import RuleViolation
from rules.core.events import AttackDeclared, Event, PhaseBegan, PhaseEnded, UnitEliminated, UnitMoved
from rules.core.gunboats import GUNBOAT
from rules.core.gunboats import waters as gunboat_waters
from rules.core.handlers import apply
from rules.core.state import COMBAT, MOVEMENT, State
from rules.legal import (
    Choices,
    Destination,
    arriving,
    choices,
    entry_moves,
    leader_destinations,
    leader_movers,
    unit_moves,
)
from rules.legal import movers as legal_movers
from rules.procedures.night import zoc_rules
from rules.procedures.sequence import night_turn, why_phase_may_not_end
from rules.procedures.variable_reinforcements import must_write_down, unopened, variable_units
from rules.procedures.victory import params, recount
from rules.queries.stacking import overstacked
from rules.queries.zoc import enemy_controlled
from rules.reducer import Dice, decide, fold
from rules.revised.combat_procedures import rally_candidates, rout_candidates

Player = Callable[[State, random.Random], Command]


class DeadEnd(AssertionError):
    """The player to act has nothing legal to do and may not end the phase: the rules must never
    allow it."""


# -- choosing among the options -----------------------------------------------------------------------
def answer(decision, option=None) -> Command:
    """The command answering a pending retreat, losses, advance or terrain decision with ``option``, one
    of its ``options`` (None: declined, where the decision may be)."""
    if isinstance(decision, RetreatChoice):
        return Decline() if option is None else Retreat(decision.unit, option.to, option.displace)
    if isinstance(decision, AdvanceChoice):
        return Decline() if option is None else Advance(option.unit, option.to)
    if isinstance(decision, LossesChoice):
        return ChooseLosses(option)
    if isinstance(decision, BeforeCombatChoice) and decision.options:  # revised 8.45
        return ChooseTerrain(option)
    raise DeadEnd(f"no answer by option to {decision!r}")


def declinable(decision) -> bool:
    """May the decision be declined (``Decline``): an advance (8.6), an optional retreat?"""
    return isinstance(decision, AdvanceChoice) or (isinstance(decision, RetreatChoice) and decision.optional)


def random_decision(decision, rng: random.Random) -> Command:
    """A uniformly random answer to a pending decision."""
    if isinstance(decision, ResolveChoice):
        column = rng.choice(decision.columns)
        return ResolveAttack(odds=None if column == decision.columns[0] else column)
    if isinstance(decision, RallyChoice):
        return RollRally()
    if isinstance(decision, BeforeCombatChoice) and not decision.options:
        return RetreatBeforeCombat(tuple(u for u in decision.units if rng.random() < 0.5))
    if isinstance(decision, (RetreatChoice, LossesChoice, AdvanceChoice, BeforeCombatChoice)):
        return answer(decision, rng.choice([*decision.options, *([None] if declinable(decision) else [])]))
    raise DeadEnd(f"no answer to {decision!r}")


def declaration(
    option: AttackOption, hexes: tuple[str, ...], bombard: tuple[str, ...], part: tuple[str, ...] = ()
) -> DeclareAttack:
    """The command declaring ``option`` with these adjacent and bombarding hexes (all their units, 7.22;
    ``part``: only these adjacent units, revised 8.22, as an ``AdjacentChoice.units`` offers)."""
    adjacent = part or tuple(u for h in hexes for u in option.groups[h].units)
    units = adjacent + tuple(u for h in bombard for u in option.groups[h].units)
    return DeclareAttack(attackers=units, defenders=option.defenders)


def random_attack(attacks: list[AttackOption], rng: random.Random) -> DeclareAttack:
    option = rng.choice(attacks)
    adjacent = rng.choice(option.adjacent)
    bombard = tuple(b for b in option.bombard if rng.random() < 0.5)
    if not adjacent.hexes:  # bombardment alone: every battery offered (revised 9.18 may refuse fewer)
        bombard = option.bombard
    command = declaration(option, adjacent.hexes, bombard, adjacent.units)
    if option.separate and adjacent.hexes and bombard:  # revised 9.14: a battery of a stack may stay out
        guns = {u for h in bombard for u in option.groups[h].units}
        kept = tuple(u for u in command.attackers if u not in guns or rng.random() < 0.7)
        if any(u in guns for u in kept):
            command = DeclareAttack(attackers=kept, defenders=option.defenders)
    return command


def random_command(
    state: State, rng: random.Random, end_weight: float = 0.15, legal: Choices | None = None
) -> Command:
    """A legal command picked at random from the full choices (``summary_command``, answered from
    their tables of destinations)."""
    legal = choices(state) if legal is None else legal
    tables = {"move": legal.moves, "enter": legal.reinforcements, "strategic": legal.strategic, "leader": legal.leader_moves}
    return answered(summary_command(legal, rng, end_weight), lambda how, unit: tables[how].get(unit, {}))


Reaching = Generator[tuple[str, str], dict[str, Destination], Command]


def summary_command(legal: Choices, rng: random.Random, end_weight: float = 0.15) -> Reaching:
    """A legal command picked at random from the choices, needing only their summary (a client's,
    ``choices(state, destinations=False)``): a pending decision's option; else end the phase with
    probability ``end_weight`` when it may end; else declare a random attack, or draw a mover from
    ``may_move``, ``may_enter`` and ``may_move_strategically`` (revised 6.4) and move it to a random
    destination. A generator: it yields ``(how, unit)`` for the drawn mover's destinations
    (``rules.legal.reach``) and is sent them; a mover with none (5.13, 5.32) is dropped and another
    drawn, never the same one twice; with none left it ends the phase, if it may. Returns the command
    (``StopIteration.value``; ``answered`` runs it with a function giving the destinations)."""
    if legal.decision is not None:
        return random_decision(legal.decision, rng)
    if legal.rally and rng.random() < 0.5:  # revised 12.41 (b)
        return PlaceRally(tuple(u for u in legal.rally if rng.random() < 0.5) or legal.rally[:1])
    if legal.rout and rng.random() < 0.3:  # revised 12.16
        return VoluntaryRout(legal.rout[:1])
    if legal.attacks:
        if legal.may_end_phase and rng.random() < end_weight:
            return EndPhase()
        return random_attack(legal.attacks, rng)
    movers = [("move", u) for u in legal.may_move] + [("enter", u) for u in legal.may_enter]
    movers += [("strategic", u) for u in legal.may_move_strategically]
    movers += [("leader", x) for x in legal.may_move_leader]  # Grand Chancellorsville 23.51
    if legal.may_end_phase and (not movers or rng.random() < end_weight):
        return EndPhase()
    while movers:
        how, unit = movers.pop(rng.randrange(len(movers)))
        dests = yield how, unit
        if dests:
            path = dests[sorted(dests)[rng.randrange(len(dests))]].path
            if how == "move":
                return MoveUnit(unit, path)
            if how == "enter":
                return EnterReinforcement(unit, path)
            if how == "leader":
                return MoveLeader(leader=unit, path=path)
            return StrategicMove(unit=unit, path=path)
    if legal.may_end_phase:
        return EndPhase()
    raise DeadEnd(f"dead end: {legal.end_phase_refused}")


def answered(picking: Reaching, destinations: Callable[[str, str], dict[str, Destination]]) -> Command:
    """The command a ``summary_command`` returns, each ``(how, unit)`` it asks answered by
    ``destinations(how, unit)``."""
    try:
        ask = next(picking)
        while True:
            ask = picking.send(destinations(*ask))
    except StopIteration as done:
        return done.value


def _random_move(state: State, rng: random.Random, end_weight: float) -> Command:
    """A random move as ``random_command`` would pick it, computing only the moves of the unit picked
    (each unit that has a destination is equally likely)."""
    rally = rally_candidates(state)
    if rally and rng.random() < 0.5:  # revised 12.41 (b)
        return PlaceRally(tuple(u for u in rally if rng.random() < 0.5) or rally[:1])
    leaving = exit_command(state, rng)  # a battle's exits (Chickamauga 18.0)
    if leaving is not None:
        return leaving
    may_end = why_phase_may_not_end(state) is None
    if may_end and rng.random() < end_weight:
        return EndPhase()
    if state.game.ruleset.strategic_bonus:  # revised 6.4, 10.34 (no die is drawn under the 1975 rules)
        extra = revised_movement_command(state, rng)
        if extra is not None:
            return extra
    leading = leader_command(state, rng)  # Grand Chancellorsville 23.51
    if leading is not None:
        return leading
    # The reinforcements with somewhere to enter, drawn among with the units on the map before any
    # one's destinations are listed: only the drawn one's are (the same draw as from the full tables).
    movers = [("enter", u) for u in arriving(state)] + [("move", u) for u in legal_movers(state)]
    rng.shuffle(movers)
    for kind, unit in movers:
        dests = entry_moves(state, unit) if kind == "enter" else unit_moves(state, unit)
        if not dests:
            continue
        dest = dests[sorted(dests)[rng.randrange(len(dests))]]
        return MoveUnit(unit, dest.path) if kind == "move" else EnterReinforcement(unit, dest.path)
    if may_end:
        return EndPhase()
    raise DeadEnd(f"dead end: {why_phase_may_not_end(state)}")


def leader_command(state: State, rng: random.Random, chance: float = 0.1) -> Command | None:
    """In a battle whose Leaders move on their own (Grand Chancellorsville 23.51): now and then a move of
    one of the phasing side's Leaders, drawn at random, to a random destination; None otherwise. Draws
    nothing in a battle without such Leaders."""
    rule = state.game.battle.leaders
    if rule is None or rule.movement_allowance is None or rng.random() >= chance:
        return None
    movers = leader_movers(state)
    if not movers:
        return None
    leader = movers[rng.randrange(len(movers))]
    dests = leader_destinations(state, leader)
    if not dests:
        return None
    return MoveLeader(leader=leader, path=dests[sorted(dests)[rng.randrange(len(dests))]].path)


def exit_command(state: State, rng: random.Random, chance: float = 0.2) -> Command | None:
    """In a battle with exits (Chickamauga 18.0): a unit of the phasing side near an exit hex leaves
    the map there, each with probability ``chance`` (a unit the enemy scores for if it stays,
    21.11 iv), always); None otherwise. Draws nothing in a battle without exits."""
    from rules.core.commands import ExitMap
    from rules.procedures.exits import exit_paths
    from rules.queries.exits import exit_hexes

    game = state.game
    exits = game.battle.exits
    if exits is None:
        return None
    must = {m.unit for m in exits.must_exit}
    units = game.units
    near = sorted(
        u
        for u, h in state.positions.items()
        if units[u].side == state.phasing
        and u not in state.moved
        and exits.may_exit(units[u].type, units[u].side)  # Cemetery Hill 18.2: cavalry only
        and min(game.grid.distance(h, x) for x in exit_hexes(game)) <= game.movement_allowance(u)
    )
    for unit in near:
        if unit not in must and rng.random() >= chance:
            continue
        paths = exit_paths(state, unit)
        if paths:
            return ExitMap(unit=unit, path=paths[sorted(paths)[0]])
    return None


def revised_movement_command(state: State, rng: random.Random, chance: float = 0.1) -> Command | None:
    """Now and then, a revised-only movement decision: a strategic move (6.4), breastworks begun or
    completed (10.34), for one unit drawn at random; None when the draw or the unit offers nothing."""
    from rules.core.commands import BuildBreastworks, CompleteBreastworks, StrategicMove
    from rules.revised.movement import build_problem, complete_problem, facings, strategic_reach

    if rng.random() >= chance:
        return None
    units = state.game.units
    mine = sorted(u for u in state.positions if units[u].side == state.phasing and u not in state.moved)
    if not mine:
        return None
    unit = mine[rng.randrange(len(mine))]
    options: list[Command] = []
    if state.game.battle.may_build_breastworks:
        if complete_problem(state, unit) is None:
            options.append(CompleteBreastworks(unit=unit, facing=rng.choice(facings(state, unit))))
        elif build_problem(state, unit) is None:
            options.append(BuildBreastworks(unit=unit))
    reach = strategic_reach(state, unit)
    if reach is not None and reach.ends:
        options.append(StrategicMove(unit=unit, path=reach.path(reach.ends[rng.randrange(len(reach.ends))])))
    for command in options:
        try:
            decide(state, command)
        except RuleViolation:
            continue  # e.g. no room for it at the end of the phase (6.32)
        return command
    return None


def random_player(state: State, rng: random.Random, end_weight: float = 0.15) -> Command:
    """Uniform among the legal choices (see ``random_command``)."""
    if state.pending:
        return random_decision(decision_choice(state), rng)
    if state.phase == MOVEMENT:
        return _random_move(state, rng, end_weight)
    rout = rout_candidates(state)
    if rout and rng.random() < 0.3:  # revised 12.16
        return VoluntaryRout(rout[:1])
    attacks = attack_options(state)
    may_end = why_phase_may_not_end(state) is None
    if attacks and not (may_end and rng.random() < end_weight):
        return random_attack(attacks, rng)
    if may_end:
        return EndPhase()
    raise DeadEnd(f"dead end: {why_phase_may_not_end(state)}")


def _odds_value(odds: str | None) -> float:
    return float(ratio(odds)) if odds else 0.0


def greedy_player(state: State, rng: random.Random, end_weight: float = 0.15) -> Command:
    """Prefers the best odds (see the module)."""
    if state.pending:
        decision = decision_choice(state)
        if isinstance(decision, ResolveChoice):
            return ResolveAttack()
        if isinstance(decision, RetreatChoice):
            if decision.optional:
                return Decline()
            plain = [o for o in decision.options if o.displace is None and not o.eliminated]
            pick = rng.choice(plain or list(decision.options))
            return Retreat(decision.unit, pick.to, pick.displace)
        if isinstance(decision, LossesChoice):
            units = state.game.units
            cheapest = min(decision.options, key=lambda o: (sum(units[u].strength for u in o), len(o), o))
            return ChooseLosses(cheapest)
        if isinstance(decision, AdvanceChoice):
            return (
                Advance(decision.options[0].unit, decision.options[0].to) if decision.options else Decline()
            )
        return random_decision(decision, rng)
    if state.phase != COMBAT:
        return _random_move(state, rng, end_weight)
    attacks = attack_options(state)
    if not attacks:
        if why_phase_may_not_end(state) is None:
            return EndPhase()
        raise DeadEnd(f"dead end: {why_phase_may_not_end(state)}")
    best = None
    for option in attacks:
        for adjacent in option.adjacent:
            odds = adjacent.odds_with_bombardment or adjacent.odds
            key = (option.owed, _odds_value(odds), len(adjacent.hexes))
            if best is None or key > best[0]:
                best = (key, option, adjacent)
    assert best is not None  # ``attacks`` is not empty
    _, option, adjacent = best
    return declaration(option, adjacent.hexes, option.bombard, adjacent.units)


PLAYERS: dict[str, Player] = {"random": random_player, "greedy": greedy_player}


def dice_from(rng: random.Random) -> Dice:
    return lambda: rng.randint(1, 6)


# -- playing ---------------------------------------------------------------------------------------------
class WrittenDown:
    """Road to Richmond 17.62 (the game option ``variable_reinforcements``) for the computer players:
    they write down an empty list (every Game-Turn One reinforcement arrives as the chart says; the
    commitments' salts drawn from the game's generator), and enter a variable unit by opening its
    commitment. Without the variant it does nothing and draws nothing."""

    def __init__(self) -> None:
        self.salts: dict[str, str] = {}

    def write_down(self, state: State, rng: random.Random) -> WriteDownReinforcements:
        rule = state.game.battle.variable_reinforcements
        assert rule is not None  # only when ``must_write_down``: the variant is in force
        turn = rule.turn
        self.salts = {u: f"{rng.getrandbits(128):032x}" for u in variable_units(state)}
        return WriteDownReinforcements(commitments={u: commitment(u, turn, s) for u, s in self.salts.items()})

    def opened(self, state: State, command: Command) -> Command:
        if isinstance(command, EnterReinforcement) and command.unit in self.salts and unopened(state, command.unit):
            rule = state.game.battle.variable_reinforcements
            assert rule is not None  # ``salts`` were drawn: the variant is in force
            turn = rule.turn
            return EnterWrittenReinforcement(unit=command.unit, path=command.path, turn=turn, salt=self.salts[command.unit])
        return command


def play(
    state: State,
    rng: random.Random,
    max_commands: int = 10_000,
    players: dict[str, Player] | Player | None = None,
    dice: Dice | None = None,
) -> Iterator[tuple[State, Command, list[Event]]]:
    """Play legal commands until the game ends (or ``max_commands``); yields the state before each
    command, the command and its events. ``players``: one player for both sides or one per side
    ("union", "confederate"); the random player by default. ``dice``: the rolls (default: drawn from
    ``rng``, which the players draw from too; a die of its own keeps the rolls the same whatever the
    players do, as paired games need: players/arena.py)."""
    dice = dice or dice_from(rng)
    written = WrittenDown()
    for _ in range(max_commands):
        if state.game_over:
            return
        side = state.pending[0].side if state.pending else state.phasing
        player: Player
        if players is None:
            player = random_player
        elif callable(players):
            player = players
        else:
            player = players[side]
        if must_write_down(state):  # Road to Richmond 17.62, the variant: before anything else
            command: Command = written.write_down(state, rng)
        else:
            command = written.opened(state, player(state, rng))
        events = decide(state, command, dice)
        yield state, command, events
        state = fold(state, events)


def play_game(
    state: State,
    rng: random.Random,
    max_commands: int = 10_000,
    players: dict[str, Player] | Player | None = None,
) -> tuple[State, list[Event]]:
    """A whole game: the final state and every event."""
    log: list[Event] = []
    final = state
    for before, _command, events in play(state, rng, max_commands, players):
        log.extend(events)
        final = fold(before, events)
    return final, log


# -- the referee -----------------------------------------------------------------------------------------
class InvariantBroken(AssertionError):
    """A rule the engine must never let happen, happened."""


def leaving_zoc(before: State, event: UnitMoved) -> None:
    """5.13: a unit that begins its move in an enemy zone of control never leaves it by movement (at
    night, only where 17.2 lets it)."""
    side = before.game.units[event.unit].side
    if event.path[0] in enemy_controlled(before, side) and not (
        night_turn(before) and zoc_rules(before, side).may_exit
    ):
        raise InvariantBroken(
            f"5.13: {before.game.designation(event.unit)} left an enemy zone of control at {event.path[0]}"
        )


class Referee:
    """Watches a game event by event and raises ``InvariantBroken`` at the first broken invariant."""

    def __init__(self, start: State):
        self.start = start
        self.log: list[Event] = []
        self.engaged: set[str] = set()  # units that attacked or were attacked this phase (7.14)
        self.phases = 0

    def watch(self, before: State, events: list[Event]) -> State:
        """Check ``events`` applied one by one to ``before``; returns the state after them."""
        state = before.copy()
        game = state.game
        for event in events:
            if isinstance(event, AttackDeclared):
                a = event.attack
                fresh = (*a.attackers, *a.bombarding, *(u for u in a.defending if u not in a.passive))
                again = [u for u in fresh if u in self.engaged]
                if again:
                    raise InvariantBroken(f"7.14: {', '.join(again)} attack or are attacked twice in a phase")
                self.engaged.update(fresh)
            if isinstance(event, PhaseEnded):
                self.phases += 1
                over = overstacked(state)
                if over:
                    raise InvariantBroken(
                        f"5.32: {over} over the stacking limit as the {state.phase} phase ends"
                    )
            if isinstance(event, PhaseBegan):
                self.engaged = set()
            if isinstance(event, UnitMoved):
                leaving_zoc(state, event)
            apply(state, event)
            if isinstance(event, UnitEliminated) and event.unit in state.positions:
                raise InvariantBroken(f"{event.unit} eliminated but still on the map")
        h: str | None  # a hex on the map, then a Leader's place (None: off the map)
        for u, h in state.positions.items():
            kind = game.terrain.get(h)
            if game.units[u].type == GUNBOAT:  # revised 9.62: a gunboat only in its waters
                if h not in gunboat_waters(game) or h in game.ferry_hexes:
                    raise InvariantBroken(
                        f"{game.designation(u)} is at {h} ({kind}): not in a gunboat's waters (9.62)"
                    )
            elif kind is None or kind == "river" or h in game.no_end_hexes:  # Grand Chancellorsville 22.11: a ferry may be held
                raise InvariantBroken(
                    f"{game.designation(u)} is at {h} ({kind}): off the map, in a river or a ferry hex"
                )
        leaders = game.battle.leaders
        places = leaders.places(state) if leaders is not None else {}
        for x in leaders.leaders if leaders is not None else ():  # Grand Chancellorsville 23.54
            h = places[x.id].hex
            if h is not None and any(p == h and game.units[u].side != x.side for u, p in state.positions.items()):
                raise InvariantBroken(f"23.54: {x.name} is at {h} with an enemy unit")
        self.log.extend(events)
        return state

    def finish(self, final: State) -> None:
        if not final.game_over:
            raise InvariantBroken("the game did not end")
        if params(final):
            counted = recount(self.start, self.log)
            if counted != {s: final.vp.get(s, 0) for s in counted}:
                raise InvariantBroken(
                    f"20.1: victory points recounted from the log {counted} != the state's {final.vp}"
                )
            if final.result in (None, "undetermined"):
                raise InvariantBroken(
                    f"20.2: the game ended without a level of victory ({final.result}; the scenario's levels?)"
                )


def refereed_game(
    start: State,
    rng: random.Random,
    players: dict[str, Player] | Player | None = None,
    max_commands: int = 20_000,
) -> tuple[State, list[Event], Referee]:
    """A whole game played under the referee's eye; raises ``InvariantBroken`` or ``DeadEnd``."""
    referee = Referee(start)
    state = start
    for before, _command, events in play(start, rng, max_commands, players):
        state = referee.watch(before, events)
    referee.finish(state)
    return state, referee.log, referee
