"""A rule set's handler table: what each command and event does, and the steps the sequence of play
takes at each of its moments. One explicit value per rule set (rules/rulesets/), never filled by
importing a module: the reducer and the sequence of play read the table of the rule set in force as
the game in play has it, ``state.game.handlers`` (below: without the hooks of battle rules its battle
lacks).

- ``deciders``: command type -> ``decide(state, command, dice) -> events`` (raises RuleViolation);
  a command type missing from the table is one the rule set does not allow.
- ``evolvers``: event type -> ``apply(state, event)``, in place.
- ``after_command``: called after every command with the state before it, its events and the state
  after them (a scratch state shared by the hooks: read it, never change it); returns the events that
  follow from them whatever the command was (victory points for eliminations, 20.11).
- ``after_command_rolls``: as ``after_command``, after them, with the command's source of die rolls:
  ``hook(state, events, after, dice)`` (Grand Chancellorsville 23.56: a die for each Leader present with
  a destroyed unit).
- ``phase_end_checks``: (phase or None for every phase, check): a check raises RuleViolation while
  the phase may not end (stacking 5.32, attacks still owed 7.11).
- ``before_end_of_phase``: events, and their decisions, that come before a phase may end (11.31:
  ineffective units retreat); ``end_of_phase``: events as a phase ends, before ``PhaseEnded``
  (reinforcements lost 15.12); ``start_of_phase``: right after ``PhaseBegan`` (11.31);
  ``end_of_game_turn``: in the Interphase (11.4); ``end_of_game``: before ``GameEnded`` (20.12).
  Each is called with a scratch state that has the events decided so far applied.
- ``phase_rolls``: die rolls made at the beginning of a phase (Savage's Station 17.1, 18.1), each
  ``roll(state, dice) -> events`` ([] when none is due): as ``EndPhase`` begins the next phase, and
  before the first command of the game's first phase (no command begins it).
- ``end_of_game_turn_rolls``: die rolls made as a Game-Turn ends, after ``end_of_game_turn`` (the
  final Game-Turn's included), each ``roll(state, dice) -> events`` (First Bull Run 18.0's rout check).
- ``automatic``: pending decision type -> the events that make it when its player has no choice,
  or None.
- ``movement_restrictions``: who may not start a move, beyond the standard rules (night 17.2,
  rallying revised 12.41): each returns a RuleViolation or None.

A hook that answers one battle rule only (the trains' retreats, a Leader's fate) says so where it is
defined, ``@only_with("trains")``: it does nothing in a battle without that component. Each game then
reads its own table (``Game.handlers``, ``Handlers.for_battle``) with those hooks left out, so that a
command does not ask every battle rule of the book whether it applies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from rules.core.battle_rule import TABLE_HOOKS, THE_BATTLES_LATE_RULES, THE_BATTLES_RULES

if TYPE_CHECKING:
    from rules.core.battle_rule import BattleRules
    from rules.core.errors import RuleViolation
    from rules.core.events import Event
    from rules.core.state import State

#: A source of die rolls for ``decide``: called with no argument, returns 1..6. Deciders that roll
#: write each roll into the events they return.
Dice = Callable[[], int]

Decider = Callable[["State", Any, "Dice | None"], "list[Event]"]
Evolver = Callable[["State", Any], None]
AfterCommand = Callable[["State", "list[Event]", "State"], "list[Event]"]
AfterCommandRoll = Callable[["State", "list[Event]", "State", "Dice | None"], "list[Event]"]
Hook = Callable[["State"], "list[Event]"]
Check = Callable[["State"], None]
Automatic = Callable[["State", Any], "list[Event] | None"]
Restriction = Callable[["State", str], "RuleViolation | None"]
PhaseRoll = Callable[["State", "Dice | None"], "list[Event]"]

#: The hook tables (the fields of ``Handlers`` that are tuples of hooks), which ``for_battle`` filters.
HOOK_TABLES = (
    "after_command",
    "after_command_rolls",
    "before_end_of_phase",
    "end_of_phase",
    "start_of_phase",
    "end_of_game_turn",
    "end_of_game_turn_rolls",
    "end_of_game",
    "phase_rolls",
)


def only_with(component: str) -> Callable:
    """Declares that the hook it decorates does nothing (returns []) in a battle whose exclusive rules
    lack ``component`` (a field of ``rules.core.components.battle.Battle``); the hook itself is
    unchanged. A test calls every such hook in battles without its component."""

    def mark(hook):
        hook.only_with = component
        return hook

    return mark


@dataclass(frozen=True)
class Handlers:
    deciders: Mapping[type, Decider]
    evolvers: Mapping[type, Evolver]
    after_command: tuple[AfterCommand, ...] = ()
    after_command_rolls: tuple[AfterCommandRoll, ...] = ()
    phase_end_checks: tuple[tuple[str | None, Check], ...] = ()
    before_end_of_phase: tuple[Hook, ...] = ()
    end_of_phase: tuple[Hook, ...] = ()
    start_of_phase: tuple[Hook, ...] = ()
    end_of_game_turn: tuple[Hook, ...] = ()
    end_of_game_turn_rolls: tuple[PhaseRoll, ...] = ()
    end_of_game: tuple[Hook, ...] = ()
    phase_rolls: tuple[PhaseRoll, ...] = ()
    automatic: Mapping[type, Automatic] = field(default_factory=dict)
    movement_restrictions: tuple[Restriction, ...] = ()

    def for_battle(self, battle: Any, rules: BattleRules | None = None) -> Handlers:
        """This table for one battle: the hooks ``only_with`` a component the battle lacks left out (an
        unknown component name raises AttributeError); the battle's ``rules`` (rules/core/battle_rule.py)
        put in: their hooks where a table has ``THE_BATTLES_RULES`` (the ``late`` ones' at
        ``THE_BATTLES_LATE_RULES`` where it has that place), their commands and events added."""

        def present(hook) -> bool:
            component = getattr(hook, "only_with", None)
            return component is None or getattr(battle, component) is not None

        def placed(name: str, hooks: tuple) -> tuple:
            if rules is None:
                return tuple(h for h in hooks if h is not THE_BATTLES_RULES and h is not THE_BATTLES_LATE_RULES)
            hook = TABLE_HOOKS[name]
            if THE_BATTLES_LATE_RULES in hooks:
                at = {THE_BATTLES_RULES: rules.hooks(hook, late=False), THE_BATTLES_LATE_RULES: rules.hooks(hook, late=True)}
            else:
                at = {THE_BATTLES_RULES: rules.hooks(hook)}
            return tuple(x for h in hooks for x in at.get(h, (h,)))

        tables = {name: placed(name, tuple(h for h in getattr(self, name) if present(h))) for name in (*HOOK_TABLES, "movement_restrictions")}
        if rules is None:
            return replace(self, **tables)
        return replace(self, deciders={**self.deciders, **rules.deciders()}, evolvers={**self.evolvers, **rules.evolvers()}, **tables)


def apply(state: State, event: Event) -> None:
    """Apply one event to ``state`` in place, by the evolver of the rule set in force (or of the battle's
    rules: the game's table, ``Game.handlers``)."""
    state.game.handlers.evolvers[type(event)](state, event)


class Emitted(list):
    """A decider's events together with ``after``, its own scratch state with them applied (a copy
    of the state it decided on, nothing else changed): ``rules.reducer.decide`` gives it to the
    after-command hooks instead of folding the same events again."""

    __slots__ = ("after",)

    def __init__(self, after: State) -> None:
        super().__init__()
        self.after = after
