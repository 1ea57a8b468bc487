"""Sequence of play (4.0, 4.1): Game-Turns of two Player-Turns, each a Movement Phase then a Combat
Phase (no Combat Phase on a night Game-Turn, 10.0), the Game-Turn Record Interphase, and the end of
the game after the final Game-Turn.

The rule set's handler table (rules/core/handlers.py ``Handlers``) names the steps other topics add at
each moment: checks before a phase may end, events before and as it ends, as the next begins, in the
Interphase and at the end of the game.
"""

from __future__ import annotations

from rules.core.commands import EndPhase
from rules.core.errors import RuleViolation
from rules.core.events import Event, GameEnded, GameTurnAdvanced, PhaseBegan, PhaseEnded
from rules.core.handlers import Dice, Emitted, apply
from rules.core.scenario import Side, other_side
from rules.core.state import State


# -- questions -----------------------------------------------------------------------------------
def night_turn(state: State, turn: int | None = None) -> bool:
    """Is this a night Game-Turn (10.0)?"""
    return (state.turn if turn is None else turn) in state.game.scenario.night_turns


def phases(state: State, turn: int | None = None) -> tuple[str, ...]:
    """The phases of each Player-Turn of a Game-Turn, in order (4.1; 10.1 at night)."""
    rs = state.game.ruleset
    return rs.night_phases if night_turn(state, turn) else rs.day_phases


def first_player(state: State) -> Side:
    return state.game.scenario.first_player


def to_act(state: State) -> Side | None:
    """The side whose decision the game waits for: the owner of the first pending decision, else the
    Phasing Player; None once the game is over."""
    if state.game_over:
        return None
    if state.pending:
        return state.pending[0].side
    return state.phasing


def why_phase_may_not_end(state: State) -> RuleViolation | None:
    """The RuleViolation that ``EndPhase`` would raise now, or None when the phase may end."""
    game = state.game
    if state.game_over:
        return game.violation("sequence", "the game is over")
    if state.pending:
        return game.violation("sequence", "a decision is pending and must be made before the phase ends")
    for phase, check in game.ruleset.handlers.phase_end_checks:
        if phase is None or phase == state.phase:
            try:
                check(state)
            except RuleViolation as e:
                return e
    return None


def next_phase(state: State) -> tuple[int, Side, str] | None:
    """(turn, side, phase) after the current phase, or None after the final Game-Turn (4.1); a
    Player-Turn the battle takes away is passed over (Cemetery Hill 16.32)."""
    order = phases(state)
    i = order.index(state.phase)
    if i + 1 < len(order):
        return state.turn, state.phasing, order[i + 1]
    turn, side = state.turn, state.phasing
    player_turns = state.game.battle.player_turns
    while True:
        if side == first_player(state):
            side = other_side(side)
        elif turn >= state.game.scenario.turns:
            return None
        else:
            turn, side = turn + 1, first_player(state)
        if player_turns.has_player_turn(side, turn):
            return turn, side, phases(state, turn)[0]


# -- EndPhase ------------------------------------------------------------------------------------
def decide_end_phase(state: State, command: EndPhase, dice: Dice | None) -> list[Event]:
    """4.1: the phase ends; the next begins (through the Interphase when a Game-Turn ends), or the
    game ends after the final Game-Turn."""
    problem = why_phase_may_not_end(state)
    if problem is not None:
        raise problem
    hooks = state.game.handlers  # the rule set's, without the hooks of battle rules this battle lacks
    scratch = state.copy()
    events: list[Event] = Emitted(scratch)

    def emit(new: list[Event]) -> None:
        for e in new:
            apply(scratch, e)
            events.append(e)

    for hook in hooks.before_end_of_phase:
        emit(hook(scratch))
    if scratch.pending:  # decisions to make first (11.31); the player ends the phase again after them
        return events
    for hook in hooks.end_of_phase:
        emit(hook(scratch))
    emit([PhaseEnded(turn=state.turn, side=state.phasing, phase=state.phase)])
    nxt = next_phase(state)
    if nxt is None:  # after the final Game-Turn (4.0)
        for hook in hooks.end_of_game_turn:
            emit(hook(scratch))
        for rolls in hooks.end_of_game_turn_rolls:  # First Bull Run 18.0: "At the end of each Game-Turn"
            emit(rolls(scratch, dice))
        if scratch.result is not None:  # an army routed as the last Game-Turn ends: "play stops"
            emit([GameEnded(reason="automatic_victory", result=scratch.result)])
            return events
        for hook in hooks.end_of_game:
            emit(hook(scratch))
        emit([GameEnded(reason="last_turn", result=scratch.result)])  # the level of victory (20.2)
        return events
    turn, side, phase = nxt
    if turn != state.turn:  # Game-Turn Record Interphase
        for hook in hooks.end_of_game_turn:
            emit(hook(scratch))
        for rolls in hooks.end_of_game_turn_rolls:  # First Bull Run 18.0
            emit(rolls(scratch, dice))
        if scratch.result is not None:  # Fredericksburg 20.0, First Bull Run 18.0: determined before the last Game-Turn
            emit([GameEnded(reason="automatic_victory", result=scratch.result)])
            return events
        emit([GameTurnAdvanced(turn=turn)])
    emit([PhaseBegan(turn=turn, side=side, phase=phase)])
    for hook in hooks.start_of_phase:
        emit(hook(scratch))
    for roll in hooks.phase_rolls:  # Savage's Station 17.1, 18.1: "At the beginning of each ... Movement Phase"
        emit(roll(scratch, dice))
    return events


def apply_phase_ended(state: State, event: PhaseEnded) -> None:
    state.moved = set()


def apply_phase_began(state: State, event: PhaseBegan) -> None:
    state.turn = event.turn
    state.phasing = event.side
    state.phase = event.phase
    state.moved = set()
    state.entries = {}  # revised 5.0
    # 7.14, 7.75, 7.82, 11.31: what a Combat Phase remembers lasts that phase only.
    state.attacked = set()
    state.advanced = set()
    state.silenced = set()
    state.engaged = set()


def apply_game_turn_advanced(state: State, event: GameTurnAdvanced) -> None:
    state.turn = event.turn


def apply_game_ended(state: State, event: GameEnded) -> None:
    state.game_over = True
    state.result = event.result
