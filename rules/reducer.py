"""The reducer: ``decide`` turns a command into events or refuses it; ``evolve`` applies an event.

    game = Game(scenario, "classic")
    state = new_game(game)
    events = decide(state, MoveUnit("u-1704", ("1704", "1803")), dice)
    for e in events:
        state = evolve(state, e)

Each command type has one decider and each event type one evolver, in the handler table of the rule
set in force (rules/core/handlers.py ``Handlers``, as the game has it: ``state.game.handlers``). Deciders raise
``RuleViolation`` (with the case of the rule set in force); evolvers mutate the state they are given and never fail on an event
a decider produced, never roll dice, never read a clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.core.commands import Command
from rules.core.errors import RuleViolation
from rules.core.events import Event
from rules.core.game import Game
from rules.core.handlers import Dice, Emitted, apply
from rules.core.scenario import Scenario, other_side
from rules.core.state import State
from rules.procedures import variable_reinforcements
from rules.queries.trenches import initial_trenches
from rules.rulesets import get as get_ruleset


def starting_points(game: Game) -> dict[str, int]:
    """Each side's Victory Points at the start: none, but where the battle gives some (Fredericksburg
    21.35: "The Confederate Player starts the game with four Victory Points")."""
    p = game.battle.victory
    at_start = p.at_start if p is not None else {}
    return {"union": at_start.get("union", 0), "confederate": at_start.get("confederate", 0)}


def new_game(scenario: Scenario | Game, ruleset: str = "classic", options: dict | None = None) -> State:
    """The state before the first command: Game-Turn 1, the first player's Movement Phase, every
    unit on its set-up hex (3.0)."""
    game = scenario if isinstance(scenario, Game) else Game(scenario, get_ruleset(ruleset), options)
    sc = game.scenario
    positions = {u.id: u.hex for u in sc.units if u.hex is not None}
    control: dict[str, Any] = {h: None for h in sorted(game.control_hexes)}
    for u in sc.units:  # 17.15: having a unit in the hex
        if u.hex in control:
            control[u.hex] = u.side
    held = game.battle.control_hexes
    if held is not None and held.zone_of_control:  # Wilderness 19.13: or its zone of control
        reached: dict[str, set[str]] = {}
        for u in sc.units:
            if u.hex is not None and not game.battle.symbolic(u.id):  # Road to Vicksburg 18.3: no zone
                for n in game.zoc_into[u.hex]:
                    if n in control and control[n] is None:
                        reached.setdefault(n, set()).add(u.side)
        for n, by in reached.items():
            if len(by) == 1:  # a hex both sides' zones reach at the start: neither has been "the last"
                control[n] = next(iter(by))
    if game.battle.control_hexes is not None:  # Chickamauga 21.2: occupied at the start of play
        control.update(game.battle.control_hexes.at_start())
    state = State(
        scenario=sc.id,
        ruleset=game.ruleset.name,
        options=dict(game.options),
        turn=1,
        phasing=first_side(game),
        phase=game.ruleset.day_phases[0] if 1 not in sc.night_turns else game.ruleset.night_phases[0],
        positions=positions,
        eliminated=[],
        moved=set(),
        control=control,
        pending=[],
        vp=starting_points(game),
        breastworks=initial_trenches(game),  # revised 10.33
    )
    return state.attach(game)


def first_side(game: Game) -> str:
    """The side whose Player-Turn opens Game-Turn 1: the first player (4.0), unless the battle gives it
    none then (Cemetery Hill 16.32)."""
    first = game.scenario.first_player
    return first if game.battle.player_turns.has_player_turn(first, 1) else other_side(first)


def decide(state: State, command: Command, dice: Dice | None = None) -> list[Event]:
    """The events ``command`` causes in ``state``, or ``RuleViolation``. The command is taken to come
    from the player to act (``rules.procedures.sequence.to_act``); the server checks the seat."""
    game = state.game
    if state.game_over:
        raise game.violation("sequence", "the game is over")
    handlers = game.handlers  # the rule set's, without the hooks of battle rules this battle lacks
    handler = handlers.deciders.get(type(command))
    if handler is None:
        tag = type(command).__struct_config__.tag
        raise game.violation("sequence", f"the {game.ruleset.name} rules have no {tag!r} command")
    waiting = variable_reinforcements.before_the_game(state, command)  # Road to Richmond 17.62
    if waiting is not None:
        raise waiting
    rolled: list[Event] = []
    for roll in handlers.phase_rolls:  # the game's first phase: its rolls before its first command
        rolled.extend(roll(state if not rolled else fold(state, rolled), dice))
    if rolled:
        events = [*rolled, *handler(fold(state, rolled), command, dice)]
    else:
        events = handler(state, command, dice)
    after = None
    if type(events) is Emitted:  # the decider's events with its own scratch state after them
        after, events = events.after, list(events)
    if handlers.after_command or handlers.after_command_rolls:  # what follows from any command's events (victory points, 20.11)
        if after is None:
            after = fold(state, events)  # one scratch state for every hook, kept up to date
        for hook in handlers.after_command:
            more = hook(state, events, after)
            if more:
                events = [*events, *more]
                for event in more:
                    apply(after, event)
        for roll_hook in handlers.after_command_rolls:  # Grand Chancellorsville 23.56
            more = roll_hook(state, events, after, dice)
            if more:
                events = [*events, *more]
                for event in more:
                    apply(after, event)
    return events


def evolve(state: State, event: Event) -> State:
    """The state after ``event``; ``state`` itself is left as it was."""
    new = state.copy()
    apply(new, event)
    return new


def fold(state: State, events: Iterable[Event]) -> State:
    """The state after all ``events``: one copy, then every event applied in place."""
    new = state.copy()
    table = state.game.handlers.evolvers
    for event in events:
        table[type(event)](new, event)
    return new


def execute(state: State, command: Command, dice: Dice | None = None) -> tuple[State, list[Event]]:
    """``decide`` then ``fold``: the new state and the events (a convenience for tests and self-play)."""
    events = decide(state, command, dice)
    return fold(state, events), events


__all__ = [
    "Dice",
    "RuleViolation",
    "apply",
    "decide",
    "evolve",
    "execute",
    "fold",
    "new_game",
]
