"""A battle's exclusive rules: the components it lists, decoded from its ``[exclusive]`` blocks (and,
under a rule set, its ``[exclusive_overrides.<rule set>]`` blocks merged key by key over them).

Each block's name is a component's; a battle lists only the components it uses. An absent component
is None, or, where the standard rules are one setting of it (reinforcements, town_disorders,
artillery, breastworks, trenches, gunboats, player_turns), the component with its defaults. The rules ask the battle (``rules.core.game.Game.battle``) rather than a block's raw values; the
questions several components answer together are asked of the battle itself
(``movement_restrictions``, ``tracked_hexes``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from rules.core.components.ammunition import Ammunition
from rules.core.components.army_rout import ArmyRout
from rules.core.components.artillery import Artillery
from rules.core.components.breastworks import Breastworks
from rules.core.components.command_control_zone import CommandControlZone
from rules.core.components.conditional_reinforcements import ConditionalReinforcements
from rules.core.components.control_hexes import ControlHexes
from rules.core.components.corps_command import CorpsCommand
from rules.core.components.counterattack import Counterattack
from rules.core.components.creeks import Creeks
from rules.core.components.crossing_die import CrossingDie
from rules.core.components.demoralization import Demoralization
from rules.core.components.early_arrival import EarlyArrival
from rules.core.components.exit_and_return import ExitAndReturn
from rules.core.components.exits import Exits
from rules.core.components.fatigue import Fatigue
from rules.core.components.ferries import Ferries
from rules.core.components.fog import Fog
from rules.core.components.forced_march import ForcedMarch
from rules.core.components.gunboats import GunboatWaters
from rules.core.components.immediate_victory import ImmediateVictory
from rules.core.components.immobile_artillery import ImmobileArtillery
from rules.core.components.immobility import Immobility
from rules.core.components.leaders import Leaders
from rules.core.components.line_of_communications import LineOfCommunications
from rules.core.components.may_not_move import MayNotMove
from rules.core.components.may_not_move_until import MayNotMoveUntil
from rules.core.components.movement_allocation import MovementAllocation
from rules.core.components.movement_die import MovementDie
from rules.core.components.movement_quota import MovementQuota
from rules.core.components.night_movement import NightMovement
from rules.core.components.player_turns import PlayerTurns
from rules.core.components.reduced_allowance import ReducedAllowance
from rules.core.components.reinforcement_table import ReinforcementTable
from rules.core.components.reinforcements import Reinforcements
from rules.core.components.restraints import Restraints
from rules.core.components.retreat_before_combat import CAVALRY_HIGHEST_ROLL, RetreatBeforeCombat
from rules.core.components.rifled_artillery import RifledArtillery
from rules.core.components.schema import BattleError, convert
from rules.core.components.stacking import Stacking
from rules.core.components.streams import Streams
from rules.core.components.surprise_assault import SurpriseAssault
from rules.core.components.symbolic_units import SymbolicUnits
from rules.core.components.terrain_costs import TerrainCosts
from rules.core.components.terrain_restrictions import TerrainRestrictions
from rules.core.components.town_disorders import TownDisorders
from rules.core.components.train_artillery import TrainArtillery
from rules.core.components.trains import Trains
from rules.core.components.trenches import Trenches
from rules.core.components.values import Component
from rules.core.components.variable_reinforcements import VariableReinforcements
from rules.core.components.victory import VictoryPoints
from rules.core.scenario import Unit

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.state import State

    Restriction = Callable[[State, str], RuleViolation | None]


class Battle(Component, frozen=True):
    """The components of one battle, by the name of their block in ``scenario.toml``."""

    immobile_artillery: ImmobileArtillery | None = None  # Chattanooga 16.11-16.13
    night_movement: NightMovement | None = None  # 17.2
    movement_quota: MovementQuota | None = None  # 17.11-17.15
    ferries: Ferries | None = None  # 19.11-19.13
    reinforcements: Reinforcements = Reinforcements()  # 15.12
    victory: VictoryPoints | None = None  # 20.1, 20.2
    control_hexes: ControlHexes | None = None  # 17.15, beyond the hexes above
    town_disorders: TownDisorders = TownDisorders()  # revised 12.17
    artillery: Artillery = Artillery()  # revised 9.18 (Chattanooga 19.14)
    breastworks: Breastworks = Breastworks()  # revised 10.34
    trenches: Trenches = Trenches()  # revised 10.33, 10.39
    gunboats: GunboatWaters = GunboatWaters()  # revised 9.62
    line_of_communications: LineOfCommunications | None = None  # Chickamauga 21.32
    retreat_before_combat: RetreatBeforeCombat | None = None  # Chickamauga 20.0
    exits: Exits | None = None  # Chickamauga 18.0
    trains: Trains | None = None  # Chickamauga 19.0
    command_control_zone: CommandControlZone | None = None  # Road to Richmond 20.0
    streams: Streams | None = None  # Road to Richmond 18.5, 18.6
    early_arrival: EarlyArrival | None = None  # Road to Richmond 17.4, 17.5, 22.14
    variable_reinforcements: VariableReinforcements | None = None  # Road to Richmond 17.6 (a variant)
    surprise_assault: SurpriseAssault | None = None  # Shiloh 19.0
    may_not_move: MayNotMove | None = None  # Antietam 20.2
    rifled_artillery: RifledArtillery | None = None  # Antietam 18.0
    player_turns: PlayerTurns = PlayerTurns()  # Cemetery Hill 16.32 (every Player-Turn, by default)
    terrain_costs: TerrainCosts | None = None  # Wilderness 18.13, 18.21
    terrain_restrictions: TerrainRestrictions | None = None  # Wilderness 18.11, 18.12, 18.14
    movement_die: MovementDie | None = None  # Wilderness 20.2 (an optional rule)
    fog: Fog | None = None  # Fredericksburg 18.2
    immobility: Immobility | None = None  # Fredericksburg 19.1
    reinforcement_table: ReinforcementTable | None = None  # Savage's Station 17.1, 17.2
    immediate_victory: ImmediateVictory | None = None  # Olustee 20.0
    movement_allocation: MovementAllocation | None = None  # Peachtree Creek 17.3, 17.4; Atlanta 17.2
    reduced_allowance: ReducedAllowance | None = None  # Peachtree Creek 17.2
    fatigue: Fatigue | None = None  # Ezra Church 17.4
    restraints: Restraints | None = None  # Road to Vicksburg 17.0-17.5
    may_not_move_until: MayNotMoveUntil | None = None  # First Bull Run 17.1, 17.2
    stacking: Stacking | None = None  # First Bull Run 17.2; Olustee 18.2
    army_rout: ArmyRout | None = None  # First Bull Run 18.0
    demoralization: Demoralization | None = None  # Hooker and Lee 20.0, 21.3
    crossing_die: CrossingDie | None = None  # Hooker and Lee 19.14
    exit_and_return: ExitAndReturn | None = None  # Hooker and Lee 18.22-18.27
    corps_command: CorpsCommand | None = None  # Grand Chancellorsville 23.4
    forced_march: ForcedMarch | None = None  # Grand Chancellorsville 23.2
    leaders: Leaders | None = None  # Grand Chancellorsville 23.5
    conditional_reinforcements: ConditionalReinforcements | None = None  # Second Bull Run 17.3
    train_artillery: TrainArtillery | None = None  # Olustee 19.5-19.7
    ammunition: Ammunition | None = None  # Olustee 19.1
    counterattack: Counterattack | None = None  # Road to Vicksburg 19.5, 19.6
    creeks: Creeks | None = None  # Road to Vicksburg 19.11-19.15
    symbolic_units: SymbolicUnits | None = None  # Road to Vicksburg 18.0-18.3

    def components(self) -> list[Component]:
        """The battle's components, those with their defaults included, in the order above."""
        return [getattr(self, f) for f in self.__struct_fields__ if getattr(self, f) is not None]

    def movement_restrictions(self) -> tuple[Restriction, ...]:
        """Who may not move, beyond the standard rules: each returns a RuleViolation or None. In this
        order, so that a unit refused for two reasons is given the first: 16.11, Antietam 20.2,
        First Bull Run 17.1 and 17.2, Fredericksburg 19.1, Wilderness 20.2, 17.2, 17.11."""
        return tuple(
            c.restriction
            for c in (
                self.immobile_artillery,
                self.may_not_move,
                self.may_not_move_until,
                self.immobility,
                self.movement_die,
                self.corps_command,
                self.night_movement,
                self.movement_quota,
            )
            if c
        )

    def tracked_hexes(self) -> frozenset[str]:
        """17.15: every hex whose control the battle's components ask about."""
        return frozenset(h for c in self.components() for h in c.tracked_hexes())

    def alone_barred(self, positions: dict[str, str], unit: str) -> frozenset[str]:
        """First Bull Run 17.2: the hexes ``unit`` may not end in, for no unit stacks with Runyon's."""
        return frozenset() if self.stacking is None else self.stacking.barred(positions, unit)

    def quota_remaining(self, state: State, side: str) -> int | None:
        """17.11, 17.14 (and the Atlanta Campaign's allocations, 17.2-17.4): how many more units ``side``
        may move this Movement Phase; None: no quota."""
        left = [
            c.remaining(state, side) for c in (self.movement_quota, self.movement_allocation) if c is not None
        ]  # Atlanta 17.2: the allocations too
        known = [n for n in left if n is not None]
        return min(known) if known else None

    def retreat_eliminates(self, unit: Unit) -> bool:
        """16.11: a unit eliminated instead of retreating (or being displaced)."""
        if self.symbolic(unit.id):  # Road to Vicksburg 18.1: "If forced to retreat after a combat, it is eliminated"
            return True
        return self.immobile_artillery is not None and self.immobile_artillery.retreat_eliminates(unit)

    def symbolic(self, unit_id: str) -> bool:
        """Road to Vicksburg 18.0: a symbolic unit (the Union Train: rules/core/components/symbolic_units.py)."""
        return self.symbolic_units is not None and self.symbolic_units.binds(unit_id)

    def may_not_advance(self, unit: Unit) -> bool:
        """16.11: a unit that may not advance after combat."""
        return self.immobile_artillery is not None and self.immobile_artillery.may_not_advance(unit)

    def rifled(self, unit: Unit) -> RifledArtillery | None:
        """Antietam 18.0: the battle's rifled artillery parameters when ``unit`` is such artillery."""
        r = self.rifled_artillery
        return r if r is not None and r.binds(unit) else None

    def victory_strength(self, unit: Unit, units: Mapping[str, Unit]) -> int:
        """The Combat Strength a unit counts for Victory Points: as printed, or (Road to Vicksburg 19.63)
        the full strength of the unit its "Out of Ammo" unit replaced."""
        c = self.counterattack
        return unit.strength if c is None else c.victory_strength(unit, units)

    def demoralized(self, state: State, side: str) -> bool:
        """Hooker and Lee 20.12, 20.22: is ``side``'s army Demoralized now?"""
        return self.demoralization is not None and self.demoralization.demoralized(state, side)

    def may_retreat_before_combat(self, unit: Unit) -> bool:
        """8.77: cavalry may retreat before combat; Chickamauga 20.0: and the units the battle names."""
        extra = self.retreat_before_combat
        return unit.type == "cavalry" or (extra is not None and extra.applies_to(unit.id))

    def retreat_before_combat_roll(self, unit: Unit) -> int:
        """8.77: the highest die roll on which the unit retreats before combat (cavalry 5; Chickamauga
        20.0: Wilder 4)."""
        extra = self.retreat_before_combat
        if unit.type != "cavalry" and extra is not None and extra.applies_to(unit.id):
            return extra.highest_roll
        return CAVALRY_HIGHEST_ROLL

    def allowance(self, state: State, allowance):
        """Fredericksburg 18.2: a Movement Allowance (or a Strategic Movement bonus) as the Game-Turn's
        fog leaves it."""
        return allowance if self.fog is None else self.fog.halved(state, allowance)

    def fog_now(self, state: State) -> bool:
        """Fredericksburg 18.2: a Fog Game-Turn (no bombardment)."""
        return self.fog is not None and self.fog.now(state)

    @property
    def may_build_breastworks(self) -> bool:
        """Revised 10.34: may breastworks be built in this battle?"""
        return self.breastworks.may_build


def merged(exclusive: Mapping[str, dict], overrides: Mapping[str, dict] | None) -> dict[str, dict]:
    """The blocks in force under a rule set: each block of ``overrides`` (the scenario's
    ``exclusive_overrides[<rule set>]``) merged key by key over the block of the same name."""
    if not overrides:
        return dict(exclusive)
    out = dict(exclusive)
    for name, block in overrides.items():
        out[name] = {**(exclusive.get(name) or {}), **block}
    return out


def decode(exclusive: Mapping[str, dict], overrides: Mapping[str, dict] | None = None) -> Battle:
    """The battle whose blocks are ``exclusive`` with ``overrides`` merged over them; raises
    BattleError naming the block, the key and the reason of the first value that is wrong."""
    return convert(merged(exclusive, overrides), Battle, "exclusive")


__all__ = ["Battle", "BattleError", "decode", "merged"]
