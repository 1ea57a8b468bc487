"""The 1975 SPI Blue & Gray Standard Rules (SPI, 1975: the Blue & Gray rule book with the Chattanooga exclusive rules) and the
case numbers its Chattanooga exclusive rules carry in that book."""

from __future__ import annotations

from rules.core import events as ev
from rules.core import terrain
from rules.core.battle_rule import THE_BATTLES_RULES
from rules.core.commands import (
    Advance,
    ChooseLosses,
    DeclareAttack,
    Decline,
    EndPhase,
    EnterReinforcement,
    MoveUnit,
    ResolveAttack,
    Retreat,
)
from rules.core.decisions import PendingAdvance, PendingLosses, PendingRetreat
from rules.core.events import (
    AttackDeclared,
    AttackEffectivenessLost,
    AttackEffectivenessRecovered,
    CombatResolved,
    DecisionDeclined,
    DecisionsAwaited,
    IneffectiveUnitsEngaged,
    LossesTaken,
    OddsReduced,
    UnitAdvanced,
    UnitEliminated,
    UnitRetreated,
    VictoryDetermined,
    VictoryPointsAwarded,
)
from rules.core.handlers import Handlers
from rules.core.ruleset import Procedures, Ruleset
from rules.mechanisms import MECHANISMS
from rules.procedures import (
    allocation,
    ammunition,
    combat,
    effectiveness,
    movement,
    night,
    outcomes,
    phase_rolls,
    reinforcements,
    restrictions,
    retreat,
    sequence,
    symbolic,
    trains,
    victory,
)
from rules.queries import artillery, stacking

# 9.0 Terrain Effects Chart: movement points to enter a hex (None: may not enter).
TERRAIN_COST: dict[str, int | None] = {
    terrain.CLEAR: 1,
    terrain.FOREST: 3,
    terrain.ROUGH: 3,
    terrain.FOREST_ROUGH: 6,
    terrain.TOWN: 1,
    terrain.RIVER: None,  # 5.24: units may never enter river hexes
    terrain.FERRY: 3,  # 9.0 "3 MP (see 5.24)"; Chattanooga 19.11
}

CASES: dict[str, str] = {
    # Standard rules
    "sequence": "4.1",
    "movement": "5.0",
    "out_of_sequence": "5.11",
    "enemy_occupied": "5.12",
    "leave_enemy_zoc": "5.13",
    "allowance": "5.15",
    "consecutive": "5.16",
    "moved_once": "5.17",
    "terrain": "5.21",
    "road": "5.22",
    "trail": "5.23",
    "river": "5.24",
    "ferry": "5.24",  # never end in a ferry hex (revised 6.28)
    "creek": "5.25",
    "stacking": "5.32",
    "zone_of_control": "6.0",
    "zoc_exit": "6.3",
    "zoc_extent": "6.6",
    "no_combat_in_movement": "5.14",
    "combat": "7.0",
    "must_be_attacked": "7.11",
    "must_attack": "7.12",
    "attack_once": "7.14",
    "unitary_strength": "7.14",  # a unit named twice in one attack
    "adjacent": "7.15",
    "whole_stack_defends": "7.21",
    "whole_stack_attacks": "7.22",
    "attack_all_adjacent": "7.23",
    "multi_hex": "7.25",
    "terrain_combat": "7.4",
    "crt": "7.6",
    "exchange": "7.6",
    "retreat": "7.71",
    "retreat_blocked": "7.72",
    "retreat_stacking": "7.73",
    "advance": "7.75",
    "advance_one": "7.76",
    "displacement": "7.81",
    "displacement_eliminates": "7.82",
    "reduce_odds": "7.9",
    "bombard": "8.11",
    "bombard_range": "8.12",
    "bombard_one_hex": "8.13",
    "bombard_same_hex": "8.14",
    "bombard_retreat": "8.16",
    "combined": "8.22",
    "line_of_sight": "8.31",
    "artillery_in_zoc": "8.41",
    "creek_attack": "9.0",
    "night_combat": "10.1",
    "night_zoc": "10.2",
    "ineffective": "11.2",
    "ineffective_zoc": "11.2",  # "may not enter an Enemy-controlled hex until ... Attack Effectiveness"
    "ineffective_retreat": "11.31",
    # Exclusive rules of Chattanooga as this book numbers them (a scenario's own `cases` win).
    "reinforcements": "15.1",
    "reinforcements.when": "15.11",
    "reinforcements.enemy_zoc": "15.12",
    "reinforcements.lost": "15.12",
    "reinforcements.cost": "15.13",
    "reinforcements.stacking": "15.15",
    "immobile_artillery": "16.11",
    "movement_quota": "17.11",
    "movement_quota.bonus": "17.14",
    "control": "17.15",
    "exclusive_night_movement": "17.2",
    "ferries": "19.11",
    "ferries.end": "19.12",
    "ferries.retreat": "19.13",
    "redoubts": "18.12",
    "victory": "20.1",
    "victory.levels": "20.2",
}

# What each command and event does, and the steps of the sequence of play (rules/core/handlers.py).
HANDLERS = Handlers(
    deciders={
        EndPhase: sequence.decide_end_phase,  # 4.1
        MoveUnit: movement.decide_move,  # 5.0
        EnterReinforcement: reinforcements.decide_enter,  # 15.1
        DeclareAttack: combat.decide_declare,  # 7.0
        ResolveAttack: combat.decide_resolve,  # 7.5
        ChooseLosses: combat.decide_losses,  # 7.6 exchange
        Retreat: retreat.decide_retreat,  # 7.7
        Advance: retreat.decide_advance,  # 7.75
        Decline: retreat.decide_decline,
    },
    evolvers={
        ev.PhaseEnded: sequence.apply_phase_ended,
        ev.PhaseBegan: sequence.apply_phase_began,
        ev.GameTurnAdvanced: sequence.apply_game_turn_advanced,
        ev.GameEnded: sequence.apply_game_ended,
        ev.UnitMoved: movement.apply_unit_moved,
        ev.ReinforcementEntered: reinforcements.apply_entered,
        ev.ReinforcementLost: reinforcements.apply_lost,
        UnitEliminated: outcomes.apply_unit_eliminated,
        DecisionsAwaited: outcomes.apply_decisions_awaited,
        DecisionDeclined: outcomes.apply_decision_declined,
        AttackEffectivenessLost: effectiveness.apply_lost,
        AttackEffectivenessRecovered: effectiveness.apply_recovered,
        IneffectiveUnitsEngaged: effectiveness.apply_engaged,
        AttackDeclared: combat.apply_attack_declared,
        OddsReduced: combat.apply_odds_reduced,
        CombatResolved: combat.apply_combat_resolved,
        LossesTaken: combat.apply_losses_taken,
        UnitRetreated: retreat.apply_unit_retreated,
        UnitAdvanced: retreat.apply_unit_advanced,
        VictoryPointsAwarded: victory.apply_awarded,
        VictoryDetermined: victory.apply_determined,
        ev.MovementRestrictionsLifted: restrictions.apply_lifted,  # Antietam 20.1
        ev.MovementDieRolled: movement.apply_movement_die_rolled,  # Wilderness 20.2
        ev.ForcedMarched: movement.apply_forced_marched,  # Grand Chancellorsville 23.2
        ev.ImmobilityReleased: restrictions.apply_released,  # Fredericksburg 19.11-19.13
        ev.ReinforcementTableRolled: phase_rolls.apply_table_rolled,  # Savage's Station 17.1
        ev.MovementQuotaRolled: phase_rolls.apply_quota_rolled,  # Savage's Station 18.1
        ev.ConditionalReinforcementsRolled: phase_rolls.apply_conditional_rolled,  # Second Bull Run 17.3
        ev.AmmunitionRolled: phase_rolls.apply_ammunition_rolled,  # Olustee 19.1
        ev.AmmunitionResupplied: ammunition.apply_resupplied,  # Olustee 19.3
        ev.AllocationRolled: allocation.apply_allocation_rolled,  # Peachtree Creek 17.4
    },
    # Chickamauga 19.11; 20.11; Antietam 20.1; Fredericksburg 19.11-19.13
    after_command=(
        trains.automatic_retreats,
        symbolic.consequences,  # Road to Vicksburg 18.3, 21.3 (before the points for eliminations)
        ammunition.resupply,  # Olustee 19.3
        ammunition.automatic_retreats,  # Olustee 19.1
        victory.award_during_play,
        restrictions.lift_on_crossing,
        restrictions.release_immobile,
        restrictions.release_holds,  # First Bull Run 17.1, 17.2
        THE_BATTLES_RULES,  # rules/core/battle_rule.py: the battle's rules' after_command hooks
        victory.immediate_victory,  # Olustee 20.0: the last, it may end the game
    ),
    phase_end_checks=(
        (None, stacking.check_stacking_at_end_of_phase),  # 5.32
        ("movement", movement.check_surprise_moves),  # Shiloh 19.1 (a battle's surprise assault)
        ("combat", combat.check_attacks_made),  # 7.11
    ),
    after_command_rolls=(THE_BATTLES_RULES,),  # the battle's rules (none today)
    before_end_of_phase=(effectiveness.retreat_engaged,),  # 11.31
    end_of_phase=(reinforcements.lose_reinforcements, THE_BATTLES_RULES),  # 15.12; the battle's rules
    start_of_phase=(effectiveness.engaged_at_start_of_combat,),  # 11.31
    end_of_game_turn=(effectiveness.recover_at_night, victory.automatic_victory),  # 11.4; Fredericksburg 20.0
    end_of_game_turn_rolls=(THE_BATTLES_RULES,),  # the battle's rules (First Bull Run 18.0, revised)
    end_of_game=(victory.determine_victory,),  # 20.12
    phase_rolls=(phase_rolls.roll_at_start, allocation.roll_at_start, THE_BATTLES_RULES),  # Savage's Station 17.1, 18.1; Peachtree Creek 17.3
    automatic={
        PendingLosses: combat.automatic_losses,
        PendingRetreat: retreat.automatic_retreat,
        PendingAdvance: retreat.automatic_advance,
    },
    # 16.11, 17.2, 17.11 are the battle's (rules/core/components, Game.movement_restrictions); the
    # Atlanta Campaign's allocations (17.2, 17.3) ask whether a unit is in an enemy zone of control.
    movement_restrictions=(allocation.restriction, THE_BATTLES_RULES),
)

# This book's implementation of each step where the books differ (rules/core/ruleset.py).
PROCEDURES = Procedures(
    movement_costs=movement.movement_costs,  # 5.2, 9.0
    zoc_rules=night.standard_zoc_rules,  # 6.0, 5.13, 10.2, 17.2
    reinforcement_entry=reinforcements.StandardEntry(),  # 15.11-15.13
    line_of_sight=artillery.standard_sight_blocker,  # 8.31-8.35
    combat=combat.StandardCombat(),  # 7.0-8.0, 10.1
)

CLASSIC = Ruleset(
    name="classic",
    movement_allowance=6,  # 2.4, 5.0
    stacking_limit=2,  # 5.32
    terrain_cost=TERRAIN_COST,
    road_cost=1,  # 5.22
    trail_cost=2,  # 5.23
    ford_extra=1,  # 5.25
    day_phases=("movement", "combat"),  # 4.1
    night_phases=("movement",),  # 10.0, 10.1: no Combat Phase at night
    cases=CASES,
    # 9.0, combat column: "Defender doubled in hex" (rough, forest & rough, town); "Defender doubled
    # if all attacking units attack across bridge (or ford) hexsides"; "Defender tripled if all
    # attacking units attack across Redoubt hexsides" (from the barbed side, Chattanooga 18.12).
    defence_terrain={terrain.ROUGH: 2, terrain.FOREST_ROUGH: 2, terrain.TOWN: 2},
    defence_hexside={terrain.BRIDGE: 2, terrain.FORD: 2, terrain.REDOUBT: 3},
    combat_effects={
        terrain.ROUGH: "defender doubled",
        terrain.FOREST_ROUGH: "defender doubled",
        terrain.TOWN: "defender doubled",
        terrain.BRIDGE: "defender doubled if every attacker attacks across it",
        terrain.FORD: "defender doubled if every attacker attacks across it",
        terrain.REDOUBT: "defender tripled from the barbed side",
    },
    bombard_range=3,  # 8.11, 8.12
    blocking_terrain=frozenset({terrain.FOREST, terrain.FOREST_ROUGH, terrain.TOWN}),  # 8.33
    procedures=PROCEDURES,
    handlers=HANDLERS,
    mechanisms=MECHANISMS,
)
