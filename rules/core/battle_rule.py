"""A battle rule: one exclusive-rule mechanism of the battles (Road to Vicksburg's restraints, its creeks,
...) behind a small fixed vocabulary of hooks, so that the mechanics ask the rules in force, never which
battle is played (as a python-chess variant overrides named hooks and the board never asks which variant
it is).

A mechanism is a subclass of ``BattleRule`` in its own module of ``rules/mechanisms/``, listed once in the
explicit tuple ``rules/mechanisms/__init__.py:MECHANISMS``; the rule sets carry that tuple
(``Ruleset.mechanisms``). A game holds the rules its battle sets (``BattleRules``: one object per
mechanism whose ``[exclusive.<component>]`` block the scenario has, in the tuple's order), and the
mechanics call the hooks the way ``for hook in game.rules.restrict_move: hook(state, unit)`` does.
Every hook has a default that does nothing; a mechanism overrides the ones its rules need, and only
overridden hooks are called.

The hooks of the sequence of play (``after_command`` ... ``phase_rolls``, ``restrict_move``) run where the
rule set's handler table puts ``THE_BATTLES_RULES`` in the table of the same name (rules/core/handlers.py
``Handlers.for_battle``): the book decides where in its sequence the battle's rules come. A mechanism
that is ``late`` (Grand Chancellorsville's Leaders) has its hooks at ``THE_BATTLES_LATE_RULES`` instead,
after the book's own steps of that table, where a table has that place (else with the others).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.events import Event
    from rules.core.scenario import Map
    from rules.core.state import State


#: As in rules/core/handlers.py (not imported from there: that module imports this one).
Dice = Callable[[], int]
Decider = Callable[..., "list[Event]"]
Evolver = Callable[..., None]


class AttackFactor(NamedTuple):
    """A factor a battle rule applies to an attacking unit's Combat Strength, with its words for the
    combat breakdown and the name of its case (``Game.case_named``)."""

    factor: Fraction
    what: str
    case: str


class BattleRule:
    """One mechanism's hooks. ``component``: the field of ``rules.core.components.battle.Battle`` (the
    ``[exclusive.<component>]`` block) that brings the rule into a battle, and whose settings the rule
    holds (``self.settings``); ``books``: the rule sets it is played under (None: every one)."""

    component: ClassVar[str]
    books: ClassVar[frozenset[str] | None] = None
    #: its sequence-of-play hooks run at a table's ``THE_BATTLES_LATE_RULES`` (after the book's own steps)
    late: ClassVar[bool] = False
    #: its commands: command type -> ``decide(state, command, dice) -> events`` (as a rule set's deciders)
    deciders: ClassVar[Mapping[type, Decider]] = {}
    #: its events: event type -> ``apply(state, event)`` in place (as a rule set's evolvers)
    evolvers: ClassVar[Mapping[type, Evolver]] = {}

    def __init__(self, settings: Any) -> None:
        self.settings = settings

    # -- the map's tables, built once by rules/core/game.py ``Game`` ---------------------------------
    def barred_steps(self, board: Map, unit_type: str) -> frozenset[tuple[str, str]]:
        """As the game's step tables are built: the steps (a, b) a unit of ``unit_type`` never takes in a
        move (they leave its type's table). Returns the steps barred (none by default)."""
        return frozenset()

    def barred_retreat_steps(self, board: Map, unit_type: str) -> frozenset[tuple[str, str]]:
        """As the game is built: the steps (a, b) a unit of ``unit_type`` never takes in a retreat either
        (``Game.crossing_barred``, read by rules/procedures/retreat.py)."""
        return frozenset()

    def optional_attack_hexsides(self, board: Map) -> frozenset[str]:
        """As the game is built: the hexsides across which attacks are at the Phasing Player's option
        (``Game.optional_attack_hexsides``, read by rules/procedures/combat.py)."""
        return frozenset()

    # -- movement -------------------------------------------------------------------------------------
    def restrict_move(self, state: State, unit: str) -> RuleViolation | None:
        """Before a unit starts a move (rules/procedures/movement.py ``why_unit_may_not_move``, at the
        place of ``THE_BATTLES_RULES`` in the rule set's ``movement_restrictions``): the reason ``unit`` may
        not move now, or None."""
        return None

    def movement_allowance(self, state: State, unit: str, allowance):
        """As a unit's allowance for a move is worked out (rules/procedures/movement.py ``allowance_now``,
        not for Strategic Movement): the allowance ``unit`` has now, given ``allowance`` (returned as is by
        default)."""
        return allowance

    def closed_hexes(self, state: State, unit: str) -> frozenset[str]:
        """As a move, an entry or a Strategic Movement is searched (rules/procedures/movement.py
        ``no_entry``, rules/revised/movement.py ``ferries_closed``): the hexes ``unit`` may neither enter nor
        move through now."""
        return frozenset()

    def refuse_entry(self, state: State, unit: str, hex_: str, strategic: bool) -> RuleViolation | None:
        """As a proposed path enters a hex (rules/procedures/movement.py ``check_path``; rules/revised/
        movement.py ``decide_strategic_move`` with ``strategic``): why ``unit`` may not enter ``hex_``, or
        None. A hex refused here is one of ``closed_hexes``."""
        return None

    def bars_enemy_zoc(self, state: State, unit: str) -> tuple[str, str] | None:
        """As a move, an entry or a search meets an enemy zone of control: (the name of the case, the words
        that end the refusal, e.g. "until released") when ``unit`` may not enter one now, else None."""
        return None

    # -- combat ---------------------------------------------------------------------------------------
    def attack_factors(self, state: State, unit: str, adjacent: bool) -> tuple[AttackFactor, ...]:
        """As an attack's strengths are worked out (rules/revised/combat_procedures.py ``attack_stages``
        and the breakdown): the factors applied to attacking ``unit`` (``adjacent``: not bombarding)."""
        return ()

    # -- the sequence of play (rules/reducer.py, rules/procedures/sequence.py) ---------------------------
    def after_command(self, state: State, events: list[Event], after: State) -> list[Event]:
        """After every command, with the state before it, its events and the scratch state after them
        (read it, never change it): the events that follow from them."""
        return []

    def after_command_rolls(self, state: State, events: list[Event], after: State, dice: Dice | None) -> list[Event]:
        """As ``after_command``, after every ``after_command`` hook, with the command's dice."""
        return []

    def before_end_of_phase(self, state: State) -> list[Event]:
        """Before a phase may end (a scratch state with the events so far): events, and their decisions."""
        return []

    def end_of_phase(self, state: State) -> list[Event]:
        """As a phase ends, before ``PhaseEnded``: the events."""
        return []

    def start_of_phase(self, state: State) -> list[Event]:
        """Right after ``PhaseBegan``: the events."""
        return []

    def phase_rolls(self, state: State, dice: Dice | None) -> list[Event]:
        """At the beginning of a phase (as ``EndPhase`` begins it, and before the first command of the
        game's first phase): the die rolls due, as events ([] when none)."""
        return []

    def end_of_game_turn(self, state: State) -> list[Event]:
        """In the Game-Turn Record Interphase (the final Game-Turn's too): the events."""
        return []

    def end_of_game_turn_rolls(self, state: State, dice: Dice | None) -> list[Event]:
        """As a Game-Turn ends, after every ``end_of_game_turn`` hook: the die rolls, as events."""
        return []

    def end_of_game(self, state: State) -> list[Event]:
        """After the final Game-Turn, before ``GameEnded``: the events (points at the end)."""
        return []


#: The hooks a rule set's handler table places with ``THE_BATTLES_RULES``, by the table's name.
TABLE_HOOKS = {
    "after_command": "after_command",
    "after_command_rolls": "after_command_rolls",
    "before_end_of_phase": "before_end_of_phase",
    "end_of_phase": "end_of_phase",
    "start_of_phase": "start_of_phase",
    "end_of_game_turn": "end_of_game_turn",
    "end_of_game_turn_rolls": "end_of_game_turn_rolls",
    "end_of_game": "end_of_game",
    "phase_rolls": "phase_rolls",
    "movement_restrictions": "restrict_move",
}

#: The hooks the mechanics call themselves (``game.rules.<hook>``).
CALLED_HOOKS = (
    "barred_steps",
    "barred_retreat_steps",
    "optional_attack_hexsides",
    "restrict_move",
    "movement_allowance",
    "closed_hexes",
    "refuse_entry",
    "bars_enemy_zoc",
    "attack_factors",
)


class _Place:
    """A place in a rule set's hook table where the battle's rules are called (the two below)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: In a rule set's hook table (rules/core/handlers.py ``Handlers``): the place of the battle's rules'
#: hooks of that table, in the order of ``MECHANISMS``; ``Handlers.for_battle`` puts them there.
THE_BATTLES_RULES: Any = _Place("THE_BATTLES_RULES")
#: The place of the ``late`` battle rules' hooks of a table, after the book's own steps; a table without
#: it has them at ``THE_BATTLES_RULES``, after the others.
THE_BATTLES_LATE_RULES: Any = _Place("THE_BATTLES_LATE_RULES")


class BattleRules:
    """The rules of one game's battle: ``active``, one ``BattleRule`` per mechanism of ``mechanisms`` whose
    component the battle sets and that the rule set plays, in that order; and for each hook, the tuple of
    the active rules' own (overridden) hooks, bound (``rules.restrict_move``), so that a hook no rule
    overrides costs nothing."""

    def __init__(self, mechanisms: tuple[type[BattleRule], ...], battle: Any, ruleset_name: str) -> None:
        active = []
        for mechanism in mechanisms:
            settings = getattr(battle, mechanism.component)
            if settings is not None and (mechanism.books is None or ruleset_name in mechanism.books):
                active.append(mechanism(settings))
        self.active: tuple[BattleRule, ...] = tuple(active)
        for hook in {*CALLED_HOOKS, *TABLE_HOOKS.values()}:
            setattr(self, hook, self.hooks(hook))

    def hooks(self, name: str, late: bool | None = None) -> tuple:
        """The active rules' own hooks called ``name``, bound, in order (``late``: only those of the rules
        that are, or are not, ``late``; None: every one)."""
        default = getattr(BattleRule, name)
        return tuple(
            getattr(r, name)
            for r in self.active
            if getattr(type(r), name) is not default and (late is None or r.late == late)
        )

    def deciders(self) -> dict[type, Decider]:
        return {t: d for r in self.active for t, d in r.deciders.items()}

    def evolvers(self) -> dict[type, Evolver]:
        return {t: e for r in self.active for t, e in r.evolvers.items()}

    def __iter__(self):
        return iter(self.active)
