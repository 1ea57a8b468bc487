"""A rule set: the tables, the case numbers, the handler table and the differing procedures of one
rule book, as a value (the two books' own values are in rules/rulesets/).

The 1975 Standard Rules are ``classic`` (rules/rulesets/classic.py); the revised 2nd edition is
``revised`` (rules/rulesets/revised.py), with its own tables and its own case numbers (5.13 in the
1975 book is 6.13 in the revised one).

The seam: a ``Ruleset`` holds data (tables, case numbers) that the shared mechanics read, its handler
table (rules/core/handlers.py), and its ``procedures``: one implementation for each step where the books'
procedures differ, typed by the Protocols below. The 1975 book has its own implementation of each
(``classic``), the revised book its own (``revised``); the mechanics call ``ruleset.procedures.<name>``
and never ask which book is in force.

- ``movement_costs(game) -> (steps by unit type, zoc step cost by unit type)``: the movement points
  of every step (1975 5.2, 9.0; revised 6.2x, 7.2, 10.1);
- ``zoc_rules(state, side, unit, here) -> ZocRules``: how enemy zones of control bind a moving unit (1975
  6.0, 10.2, 17.2; revised 7.0, 11.12);
- ``reinforcement_entry``: where and at what cost a reinforcement enters (1975 15.1x; revised 5.0-5.5);
- ``line_of_sight(game, firer, target) -> str | None``: what blocks an artillery unit's line of sight
  (words; None: clear) (1975 8.3x; revised 9.3x with elevation);
- ``combat``: declaring and resolving attacks (1975 7.0-8.0, 10.1; revised 8.0-12.0).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from rules.core.battle_rule import BattleRule
    from rules.core.breakdown import CombatBreakdown
    from rules.core.decisions import PendingAttack
    from rules.core.errors import RuleViolation
    from rules.core.events import Event
    from rules.core.game import Game
    from rules.core.handlers import Dice, Handlers
    from rules.core.scenario import Side
    from rules.core.state import State
    from rules.procedures.combat import AdjacentChoice
    from rules.procedures.night import ZocRules

#: Movement points: whole numbers in the 1975 book; exact fractions in the revised one (6.22: 2/3).
MP = int | Fraction


class ReinforcementEntry(Protocol):
    """Where and at what cost a reinforcement enters the map."""

    may_enter_enemy_zoc: bool  # 1975 15.12: no; revised 5.4: yes, and it stops there

    def entry_hexes(self, state: State, unit: str) -> list[str]: ...

    def entry_cost(self, state: State, unit: str, hex_: str) -> MP | None: ...


class CombatProcedures(Protocol):
    """Declaring and resolving attacks where the books differ."""

    separate_attacks: bool  # may the units of one hex attack separately (1975 7.22, 8.14: no; revised 8.22: yes)

    def voluntary(self, state: State) -> frozenset[str]: ...

    def night_problem(self, state: State) -> RuleViolation | None: ...

    def bombardment_allowed(self, state: State) -> bool: ...

    def pending_attack(self, state: State, adjacent, bombarding, defenders) -> PendingAttack: ...

    def adjacent_choice(self, state: State, adjacent, hexes, guns, defenders, part=()) -> AdjacentChoice | None: ...

    def breakdown(self, state: State, attack: PendingAttack) -> CombatBreakdown: ...

    def declare(self, state: State, adjacent, bombarding, defenders) -> list[Event]:
        """The events of declaring the attack (``allowed``'s units and hexes): ``AttackDeclared``, then
        the decisions before the die."""

    def reductions(self, state: State, head: PendingAttack) -> list[str]: ...

    def resolve(self, state: State, head: PendingAttack, odds: str | None, dice: Dice | None) -> list[Event]: ...


@dataclass(frozen=True)
class Procedures:
    """One rule book's implementation of each step where the books differ (see the module)."""

    movement_costs: Callable[[Game], tuple[dict, dict]]
    zoc_rules: Callable[[State, Side, str | None, str | None], ZocRules]
    reinforcement_entry: ReinforcementEntry
    line_of_sight: Callable[[Game, str, str], str | None]
    combat: CombatProcedures


@dataclass(frozen=True)
class Ruleset:
    """What one rule book fixes: movement allowance, stacking limit, Terrain Effects Chart costs,
    the phases of a Player-Turn, and the case number of each rule, by name."""

    name: str
    movement_allowance: int
    stacking_limit: int
    # Movement points to enter a hex, by terrain; None: may not enter.
    terrain_cost: dict[str, int | None]
    road_cost: int  # entering a hex through a road hexside (5.22)
    trail_cost: int  # entering forest and/or rough through a trail hexside (5.23); never more than the terrain
    ford_extra: int  # crossing a ford hexside (5.25)
    # The phases of a Player-Turn, in order, by day and by night.
    day_phases: tuple[str, ...]
    night_phases: tuple[str, ...]
    # Case numbers by rule name; exclusive rules' names too, as the book numbers them.
    cases: dict[str, str] = field(default_factory=dict)
    # Combat (the Terrain Effects Chart's combat column): the defender's strength multiplied in these
    # hexes, and when every attacker attacks across these hexside features (7.4, 9.0).
    defence_terrain: dict[str, int] = field(default_factory=dict)
    defence_hexside: dict[str, int] = field(default_factory=dict)
    # The combat column of the Terrain Effects Chart in the book's words, by hex terrain and by hexside
    # feature, for people (the map's legend); the mechanics read the tables above or the book's own.
    combat_effects: dict[str, str] = field(default_factory=dict)
    bombard_range: int = 0  # artillery range, counting the target hex (8.11, 8.12)
    gunboat_range: int = 0  # revised 9.65: six; 0: the book has no gunboats (rules/core/gunboats.py)
    blocking_terrain: frozenset[str] = frozenset()  # hexes that block a line of sight (8.33)
    # -- revised tables (empty or neutral in the 1975 book) --------------------------------------
    # Movement allowance by unit type where it differs (revised 2.4: cavalry 8), and the least
    # allowance a unit type ever has, whatever its counter prints (2.4: cavalry at least 8).
    movement_allowance_by_type: dict[str, int] = field(default_factory=dict)
    minimum_allowance_by_type: dict[str, int] = field(default_factory=dict)
    # Terrain costs that differ by unit type (revised 10.1 "*": artillery pays the second figure).
    terrain_cost_by_type: dict[str, dict[str, MP | None]] = field(default_factory=dict)
    # Clear terrain by level (revised 10.1: levels 1 and 2 cost 1, level 3 costs 2).
    level_cost: dict[int, MP] = field(default_factory=dict)
    # Extra movement points for crossing a hexside feature (revised 6.25, 6.26, 6.29, 10.1).
    hexside_cost: dict[str, MP] = field(default_factory=dict)
    turnpike_cost: MP | None = None  # revised 6.22
    # Revised 7.2: the least cost of entering an enemy-controlled hex (0: no such rule).
    zoc_minimum_cost: int = 0
    night_allowance_change: int = 0  # revised 11.11: -1
    # Revised 6.42, 6.43, 6.46: movement points strategic movement adds, by unit type (empty: no
    # strategic movement in this book).
    strategic_bonus: dict[str, int] = field(default_factory=dict)
    always_one_hex: bool = False  # revised 6.16: a unit may always move one hex
    artillery_zoc_support: bool = False  # revised 7.3: artillery enters an enemy zone only beside friends
    deployment_trenches: bool = False  # revised 10.33: a deployment's Breastworks Markers are Trenches
    # How long an ineffective unit stays out of enemy zones of control, in the book's words (1975 11.2:
    # Attack Effectiveness; revised 12.31: a Routed unit, Rout).
    ineffective_until: str = "until it recovers its Attack Effectiveness"
    artillery_advances: bool = True  # revised 9.47: "Artillery units may never advance after combat"
    # This book's implementation of each step where the books differ (see the module's docstring).
    procedures: Procedures | None = None
    # What each command and event does, and the steps of the sequence of play (rules/core/handlers.py).
    handlers: Handlers | None = None
    # The battles' exclusive-rule mechanisms this book plays (rules/core/battle_rule.py; the one tuple
    # rules/mechanisms/__init__.py ``MECHANISMS``): each game holds those its battle sets (``Game.rules``).
    mechanisms: tuple[type[BattleRule], ...] = ()

    def case(self, name: str) -> str:
        return self.cases[name]
