"""Variable reinforcements written down in secret (Road to Richmond 17.6; the ``variable_reinforcements``
component, rules/core/components/variable_reinforcements.py, which says how the secret is kept).

- 17.62 "before the game starts": while the battle has the component and nothing is written down, the
  only command is the side's ``WriteDownReinforcements``, a commitment for every variable unit.
- 17.62-17.64: a variable unit enters only by ``EnterWrittenReinforcement``, whose opening must match
  its commitment; the opening (``WrittenReinforcementShown``) makes it a reinforcement of the chart
  Game-Turn written down, entering at that Game-Turn's hexes from the Game-Turn 17.5 gives it
  (rules/procedures/reinforcements.py ``arrival_turn``, ``chart_entry``); then it enters as any
  reinforcement (15.11-15.13, revised 5.0-5.5: withheld as long as its player likes).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.core.commands import (
    Command,
    EnterReinforcement,
    EnterWrittenReinforcement,
    WriteDownReinforcements,
)
from rules.core.components.variable_reinforcements import DIGEST, SALT, SHOWN, WRITTEN, commitment
from rules.core.errors import RuleViolation
from rules.core.events import Event, ReinforcementsWrittenDown, WrittenReinforcementShown
from rules.core.handlers import Dice, apply
from rules.core.state import State
from rules.procedures import reinforcements


def variable_units(state: State) -> tuple[str, ...]:
    """17.61: the units the player may write down for a later Game-Turn (none without the variant)."""
    game = state.game
    vr = game.battle.variable_reinforcements
    if vr is None:
        return ()
    cached = game.__dict__.get("_variable_units")
    if cached is None:
        cached = game.__dict__["_variable_units"] = vr.units(game.scenario.units)
    return cached


def written(state: State) -> dict[str, str]:
    """The commitments written down, by unit (empty: not yet)."""
    vr = state.game.battle.variable_reinforcements
    return {} if vr is None else vr.written(state.scored)


def shown(state: State) -> dict[str, int]:
    """The chart Game-Turn of each variable unit whose commitment has been opened."""
    vr = state.game.battle.variable_reinforcements
    return {} if vr is None else vr.shown(state.scored)


def must_write_down(state: State) -> bool:
    """17.62: does the game wait for the choice to be written down before anything else?"""
    return bool(variable_units(state)) and not written(state)


def before_the_game(state: State, command: Command) -> RuleViolation | None:
    """17.62 "before the game starts": every command but the writing down waits for it."""
    if isinstance(command, WriteDownReinforcements):
        return None
    return not_written_yet(state)


def not_written_yet(state: State) -> RuleViolation | None:
    """17.62: why nothing but the writing down may be done yet (None: it is written down, or there is
    nothing to write down)."""
    if must_write_down(state):
        side = state.game.battle.variable_reinforcements.side
        return state.game.violation(
            "variable_reinforcements",
            f"the {side.title()} Player first writes down which reinforcements arrive later (before the game starts)",
        )
    return None


def decide_write_down(state: State, command: WriteDownReinforcements, dice: Dice | None) -> list[Event]:
    """17.62: one commitment for each variable unit, once, before the game starts, by the side."""
    game = state.game
    vr = game.battle.variable_reinforcements
    units = variable_units(state)
    if not units:
        raise game.violation("sequence", "this game has no variable reinforcements to write down")
    if written(state):
        raise game.violation("variable_reinforcements", "the reinforcements were written down already")
    if state.phasing != vr.side or state.turn != 1:
        raise game.violation(
            "variable_reinforcements", f"the {vr.side.title()} Player writes them down before the game starts"
        )
    given = command.commitments
    if set(given) != set(units):
        missing = sorted(set(units) - set(given))
        extra = sorted(set(given) - set(units))
        raise game.violation(
            "variable_reinforcements",
            "write down one commitment for each Game-Turn One reinforcement from "
            f"{', '.join(vr.entry)}" + (f"; missing {', '.join(missing)}" if missing else "")
            + (f"; not one of them: {', '.join(extra)}" if extra else ""),
        )
    bad = sorted(u for u, d in given.items() if not DIGEST.fullmatch(d))
    if bad:
        raise game.violation("variable_reinforcements", f"a commitment is 64 hexadecimal digits: not {', '.join(bad)}'s")
    return [ReinforcementsWrittenDown(side=vr.side, commitments={u: given[u] for u in units})]


def apply_written_down(state: State, event: ReinforcementsWrittenDown) -> None:
    state.scored.update(f"{WRITTEN}{u}:{d}" for u, d in event.commitments.items())


def opening_problem(state: State, unit: str, turn: int, salt: str) -> RuleViolation | None:
    """17.62: why (``unit``, ``turn``, ``salt``) does not open the commitment written down for ``unit``."""
    game = state.game
    vr = game.battle.variable_reinforcements
    digest = written(state).get(unit)
    if digest is None:
        return game.violation("variable_reinforcements", f"nothing was written down for {unit!r}")
    if unit in shown(state):
        return game.violation("variable_reinforcements", f"{game.designation(unit)}'s choice was shown already")
    if turn not in vr.turns() or not SALT.fullmatch(salt) or commitment(unit, turn, salt) != digest:
        return game.violation(
            "variable_reinforcements.written",
            f"{game.designation(unit)} was not written down to arrive with the Game-Turn {turn} reinforcements"
            " (the opening does not match the commitment in the log)",
        )
    return None


def decide_enter_written(state: State, command: EnterWrittenReinforcement, dice: Dice | None) -> list[Event]:
    """17.62-17.64: the opening of the unit's commitment, then its entry as a reinforcement of the
    Game-Turn written down (at that Game-Turn's hexes, from the Game-Turn 17.5 gives it)."""
    problem = opening_problem(state, command.unit, command.turn, command.salt)
    if problem is not None:
        raise problem
    shown_event = WrittenReinforcementShown(unit=command.unit, turn=command.turn, salt=command.salt)
    after = state.copy()
    apply(after, shown_event)
    return [shown_event, *reinforcements.decide_enter(after, EnterReinforcement(unit=command.unit, path=command.path), dice)]


def apply_shown(state: State, event: WrittenReinforcementShown) -> None:
    state.scored.add(f"{SHOWN}{event.unit}:{event.turn}")


def unopened(state: State, unit: str) -> bool:
    """Is ``unit`` a variable unit whose commitment is still closed (it enters only by opening it)?"""
    return unit in variable_units(state) and unit not in shown(state)


def as_written(state: State, turns: Mapping[str, int] | None) -> State:
    """17.62-17.64: ``state`` as the player who wrote the choice down knows it, for his legal choices
    (rules/legal.py): every variable unit whose commitment is still closed counts as a reinforcement
    of the chart Game-Turn ``turns`` gives it (unit -> Game-Turn, the server's kept choice), as
    ``decide`` will count it once its entry opens the commitment. ``state`` itself when there is
    nothing to add. Only that player's choices may be computed so: the other's must not show it."""
    if not turns:
        return state
    vr = state.game.battle.variable_reinforcements
    if vr is None:
        return state
    closed = {u: t for u, t in turns.items() if t in vr.turns() and unopened(state, u)}
    if not closed:
        return state
    known = state.copy()
    known.scored.update(f"{SHOWN}{u}:{t}" for u, t in closed.items())
    return known
