"""*Blue & Grey (revised) 2nd edition* Standard Rules 1.0-14.0 and Charts & Tables
(the revised 2nd edition rule book, with every battle's exclusive rules).

The tables of this book and the case number of every shared mechanic in its numbering; the
procedures that differ from the 1975 ones are in ``PROCEDURES``; its handler table (``HANDLERS``) is
the 1975 one with this book's own commands, events and steps added. Movement points are exact: ``Fraction`` where
the book gives thirds (6.22: a turnpike is 2/3 MP), ints otherwise; never floats.
"""

from __future__ import annotations

from fractions import Fraction

from rules.core import events as ev
from rules.core import terrain
from rules.core.battle_rule import THE_BATTLES_LATE_RULES, THE_BATTLES_RULES
from rules.core.commands import (
    BuildBreastworks,
    ChooseTerrain,
    CompleteBreastworks,
    EnterWrittenReinforcement,
    ExitMap,
    PlaceRally,
    RemoveBreastworks,
    RetreatBeforeCombat,
    RollRally,
    StrategicMove,
    VoluntaryRout,
    WriteDownReinforcements,
)
from rules.core.decisions import PendingAttack, PendingBeforeCombat, PendingCounterattackAdvance
from rules.core.events import (
    AttackRecomputed,
    AttackVoided,
    BeforeCombatChosen,
    BreastworksBegun,
    BreastworksCompleted,
    BreastworksRemoved,
    DisorderRolled,
    MoraleChanged,
    NightCombatDie,
    RallyMarkersPlaced,
    RallyRolled,
    ReinforcementsBlocked,
    StationaryRecorded,
    TerrainChosen,
    UnitExited,
)
from rules.core.handlers import Handlers
from rules.core.ruleset import Procedures, Ruleset
from rules.mechanisms import MECHANISMS
from rules.procedures import (
    counterattack,
    crossing_die,
    exits,
    phase_rolls,
    retreat,
    victory,
)
from rules.procedures import variable_reinforcements as variable
from rules.revised import combat_procedures as rcp
from rules.revised import fieldworks
from rules.revised import movement as rm
from rules.revised import sight as revised_sight
from rules.rulesets.classic import HANDLERS as CLASSIC_HANDLERS

# 10.1 Terrain Effects Chart: movement points to enter a hex (None: may not enter). "Where two
# Movement Point costs are indicated ... the first cost applies to infantry and cavalry units, and the
# second cost applies to artillery and horse artillery units": the second is TERRAIN_COST_BY_TYPE.
TERRAIN_COST: dict[str, int | Fraction | None] = {
    terrain.CLEAR: 1,  # level 1 and 2: 1; level 3: 2 (LEVEL_COST)
    terrain.FOREST: 2,  # "Forest/woods 2/3*"
    terrain.ROUGH: 3,
    terrain.FOREST_ROUGH: 5,  # "Forest/woods-rough 5/6*"
    terrain.SWAMP: 3,  # "Swamp 3/4*"
    terrain.TOWN: 1,
    terrain.RIVER: None,  # 6.27 "Units may never enter river ... or lake hexes"
    terrain.LAKE: None,
    terrain.POND: None,  # 10.1 "Pond: May not enter"
    terrain.FERRY: 3,  # 10.1 "River ferry hex 3"; 6.28
    terrain.PONTOON: 1,  # 10.1 "Pontoon hex 1"; 6.28
}
TERRAIN_COST_BY_TYPE: dict[str, dict[str, int | Fraction | None]] = {
    "artillery": {terrain.FOREST: 3, terrain.FOREST_ROUGH: 6, terrain.SWAMP: 4},
}
LEVEL_COST: dict[int, int | Fraction] = {1: 1, 2: 1, 3: 2}  # 10.1 "Clear (level 1/2/3)"

# 6.25, 6.26, 6.29, 10.1: movement points added for crossing a hexside, never negated by a route
# (except a slope climbed along a route, 6.26).
HEXSIDE_COST: dict[str, int | Fraction] = {
    terrain.STREAM: 2,  # "Stream hex side + 2"
    terrain.BRIDGE: 1,  # 6.29 "one additional Movement Point cost for moving through a bridge hex side"
    terrain.FORD: 1,  # 6.29 "Movement through a ford hex side also costs one additional Movement Point"
    terrain.SLOPE: 1,  # 6.26 up slope; down slope costs nothing
    terrain.RIDGE: 2,  # "Ridge hex side + 2"
}

CASES: dict[str, str] = {
    # Standard rules: the names rules/ cites (as in rules/rulesets/classic.py), revised numbering.
    "sequence": "4.0",
    "reinforcements": "5.0",
    "reinforcements.when": "5.1",
    "reinforcements.cost": "5.0",
    "reinforcements.column": "5.0",
    "reinforcements.late": "5.3",
    "reinforcements.enemy_occupied": "5.4",
    "reinforcements.enemy_zoc": "5.4",
    "reinforcements.elsewhere": "5.5",
    "reinforcements.stacking": "6.32",
    "off_map": "5.6",
    "movement": "6.0",
    "out_of_sequence": "6.11",
    "enemy_occupied": "6.12",
    "leave_enemy_zoc": "6.13",
    "no_combat_in_movement": "6.14",
    "allowance": "6.15",
    "always_one_hex": "6.16",
    "consecutive": "6.17",
    "moved_once": "6.18",
    "terrain": "6.21",
    "turnpike": "6.22",
    "road": "6.23",
    "trail": "6.24",
    "hexside_cost": "6.25",
    "zoc_no_road": "6.25",
    "slope": "6.26",
    "river": "6.27",
    "ferry": "6.28",
    "ferries.end": "6.28",
    "creek": "6.29",
    "bridge": "6.29",
    "stacking": "6.32",
    "strategic": "6.4",
    "strategic.distance": "6.41",
    "strategic.bonus": "6.42",
    "strategic.cavalry": "6.43",
    "strategic.approach": "6.44",
    "strategic.routes": "6.45",
    "strategic.night": "6.46",
    "zone_of_control": "7.0",
    "zoc_always": "7.1",
    "zoc_cost": "7.2",
    "artillery_zoc": "7.3",
    "zoc_exit": "7.4",
    "zoc_mutual": "7.5",
    "zoc_extent": "7.6",
    "night_zoc": "11.12",
    "night_movement": "11.11",
    "fieldworks": "10.3",
    "breastworks": "10.34",
    "breastworks.complete": "10.34",
    "breastworks.one_per_hex": "10.36",
    "breastworks.remove": "10.37",
    "trench": "10.39",
    # Combat: the revised numbers of the names rules/procedures/combat.py, retreat.py and
    # rules/revised/combat_procedures.py cite.
    "combat": "8.0",
    "must_be_attacked": "8.11",
    "must_attack": "8.12",
    "attack_once": "8.14",
    "adjacent": "8.15",
    "whole_stack_defends": "8.21",
    "whole_stack_attacks": "8.22",
    "attack_all_adjacent": "8.23",
    "multi_hex": "8.25",
    "unitary_strength": "8.31",
    "terrain_combat": "8.4",
    "crt": "8.6",
    "exchange": "8.6",
    "retreat": "8.71",
    "retreat_blocked": "8.72",
    "retreat_stacking": "8.73",
    "advance": "8.75",
    "advance_one": "8.76",
    "displacement": "8.81",
    "displacement_eliminates": "8.82",
    "reduce_odds": "8.9",
    "bombard": "9.11",
    "bombard_range": "9.12",
    "bombard_one_hex": "9.13",
    "bombard_same_hex": "9.14",
    "bombard_retreat": "9.17",
    "combined": "9.21",
    "line_of_sight": "9.31",
    "artillery_in_zoc": "9.41",
    "creek_attack": "10.1",  # 10.1 creek hexside: "Artillery only"
    "night_combat": "11.2",
    "night_bombard": "11.24",
    "bombard_odds": "9.18",
    "trenches": "10.39",
    "gunboats": "9.6",
    "gunboat_moves": "9.62",
    "gunboat_never_attacked": "9.66",
    "morale": "12.0",
    "town_disorders": "12.17",
    "ineffective": "12.23",  # "Routed units may not attack"
    "ineffective_zoc": "12.31",  # "Routed units may not enter an Enemy controlled hex until they have recovered from Rout"
    "artillery_advance": "9.47",  # "Artillery units may never advance after combat"
    "routed_advance": "12.35",  # "A Routed unit may not advance after combat"
    "ineffective_retreat": "12.32",
    "night_recovery": "12.41",
    "rally": "12.41",
    "retreat_before_combat": "8.77",
    "routed_before_combat": "12.34",
    "voluntary_rout": "12.16",
}


# The 1975 handlers and this book's own (rules/core/handlers.py), in the order of the sequence of play.
HANDLERS = Handlers(
    deciders={
        **CLASSIC_HANDLERS.deciders,
        StrategicMove: rm.decide_strategic_move,  # 6.4
        BuildBreastworks: rm.decide_build,  # 10.3
        CompleteBreastworks: rm.decide_complete,  # 10.3
        RemoveBreastworks: fieldworks.decide_remove,  # 10.37
        ChooseTerrain: rcp.decide_choose_terrain,  # 10.2
        RetreatBeforeCombat: rcp.decide_retreat_before_combat,  # 8.77
        PlaceRally: rcp.decide_place_rally,  # 12.41
        RollRally: rcp.decide_roll_rally,  # 12.41
        VoluntaryRout: rcp.decide_voluntary_rout,  # 12.16
        ExitMap: exits.decide_exit,  # a battle's exits (Chickamauga 18.0)
        WriteDownReinforcements: variable.decide_write_down,  # Road to Richmond 17.62
        EnterWrittenReinforcement: variable.decide_enter_written,  # Road to Richmond 17.62-17.64
    },
    evolvers={
        **CLASSIC_HANDLERS.evolvers,
        BreastworksBegun: rm.apply_begun,
        BreastworksCompleted: rm.apply_completed,
        BreastworksRemoved: rm.apply_removed,
        ReinforcementsBlocked: rm.apply_reinforcements_blocked,
        MoraleChanged: rcp.apply_morale_changed,
        DisorderRolled: rcp.apply_disorder_rolled,
        ev.DisruptionSaved: rcp.apply_disruption_saved,  # Grand Chancellorsville 23.55
        NightCombatDie: rcp.apply_night_die,
        StationaryRecorded: rcp.apply_stationary,
        TerrainChosen: rcp.apply_terrain_chosen,
        BeforeCombatChosen: rcp.apply_before_combat_chosen,
        AttackRecomputed: rcp.apply_attack_recomputed,
        AttackVoided: rcp.apply_attack_voided,
        RallyMarkersPlaced: rcp.apply_rally_placed,
        RallyRolled: rcp.apply_rally_rolled,
        UnitExited: exits.apply_unit_exited,  # Chickamauga 18.3
        ev.UnitMarchedOff: exits.apply_marched_off,  # Hooker and Lee 18.22, 18.23
        ev.CrossingDieRolled: crossing_die.apply_rolled,  # Hooker and Lee 19.14
        ev.CorpsCommandRolled: phase_rolls.apply_corps_rolled,  # Grand Chancellorsville 23.4
        ev.CounterattackRecorded: counterattack.apply_recorded,  # Road to Vicksburg 19.52
        ev.StrategicMovementUsed: rm.apply_strategic_movement_used,  # Road to Vicksburg 19.2
        ev.CounterattackAdvanced: counterattack.apply_advanced,  # Road to Vicksburg 19.53 iii, 19.62
        ev.AmmunitionDepletionRolled: counterattack.apply_depletion_rolled,  # Road to Vicksburg 19.61
        ev.ReinforcementsWrittenDown: variable.apply_written_down,  # Road to Richmond 17.62
        ev.WrittenReinforcementShown: variable.apply_shown,  # Road to Richmond 17.62
    },
    after_command=(
        *(h for h in CLASSIC_HANDLERS.after_command if h is not victory.immediate_victory),
        rcp.disorder_in_towns,  # 12.17
        THE_BATTLES_LATE_RULES,  # the late battle rules' (Road to Richmond 17.4, Hooker and Lee 20.11, Grand Chancellorsville 23.54)
        rcp.train_attacker_retreat,  # Wilderness 18.31, 12.11
        counterattack.record,  # Road to Vicksburg 19.52
        victory.immediate_victory,  # Olustee 20.0: the last, it may end the game
    ),
    after_command_rolls=(THE_BATTLES_RULES, THE_BATTLES_LATE_RULES),  # the battle's rules (Leaders 23.56)
    phase_end_checks=CLASSIC_HANDLERS.phase_end_checks,
    before_end_of_phase=CLASSIC_HANDLERS.before_end_of_phase,
    end_of_phase=(
        *CLASSIC_HANDLERS.end_of_phase,
        rm.blocked_reinforcements,  # 5.5
        rm.remove_unfinished_breastworks,  # 10.35
        rcp.record_stationary,  # 12.16
        exits.award_excess_exited,  # a battle's exits (Cemetery Hill 20.3)
        victory.award_occupied,  # a battle's hexes occupied each Game-Turn (Road to Richmond 22.13)
        THE_BATTLES_LATE_RULES,  # the late battle rules' (Grand Chancellorsville's Leaders 23.51)
    ),
    start_of_phase=(*CLASSIC_HANDLERS.start_of_phase, rcp.combat_phase_begins),  # 12.34, 12.32
    end_of_game_turn=CLASSIC_HANDLERS.end_of_game_turn,
    end_of_game_turn_rolls=CLASSIC_HANDLERS.end_of_game_turn_rolls,
    end_of_game=CLASSIC_HANDLERS.end_of_game,
    phase_rolls=(*CLASSIC_HANDLERS.phase_rolls, crossing_die.roll_at_start, phase_rolls.roll_corps_command, counterattack.roll_depletion),  # Savage's Station 17.1, 18.1; Hooker and Lee 19.14
    automatic={
        **CLASSIC_HANDLERS.automatic,
        PendingBeforeCombat: rcp.automatic_before_combat,
        PendingAttack: rcp.attack_after_retreats_before_combat,
        PendingCounterattackAdvance: retreat.automatic_advance,  # Road to Vicksburg 19.53 iii
    },
    movement_restrictions=(*CLASSIC_HANDLERS.movement_restrictions, rcp.rally_restriction),  # 12.41 b
)

# This book's procedures where they differ from the 1975 ones (rules/core/ruleset.py).
PROCEDURES = Procedures(
    movement_costs=rm.movement_costs,  # 6.2x, 7.2, 10.1
    zoc_rules=rm.zoc_rules,  # 7.0, 11.12
    reinforcement_entry=rm.RevisedEntry(),  # 5.0-5.5
    line_of_sight=revised_sight.line_of_sight,  # 9.31-9.37 with elevation
    combat=rcp.RevisedCombat(),  # 8.0-12.0
)

REVISED = Ruleset(
    name="revised",
    movement_allowance=6,  # 2.4: "infantry and artillery units is six Movement Points"
    stacking_limit=2,  # 6.32
    terrain_cost=TERRAIN_COST,
    road_cost=1,  # 6.23 road or railway
    trail_cost=2,  # 6.24 into forest/woods, rough or swamp; 1 into clear of any level
    ford_extra=1,  # 6.29
    day_phases=("movement", "combat"),  # 4.0
    night_phases=("movement", "combat"),  # 4.0, 11.2: night Game-Turns have combat (11.21-11.24)
    cases=CASES,
    # 10.1 combat column: the combat half reads its own tables (shifts, halving) from this module.
    defence_terrain={},
    defence_hexside={},
    combat_effects={  # 10.1 combat column, 8.41-8.46
        terrain.FOREST: "one column left",
        terrain.ROUGH: "attacker halved",
        terrain.FOREST_ROUGH: "attacker halved",
        terrain.SWAMP: "attacker halved",
        terrain.TOWN: "one column left",
        terrain.STREAM: "attacker halved",
        terrain.BRIDGE: "attacker halved",
        terrain.FORD: "attacker halved",
        terrain.REDOUBT: "attacker halved and one column left, from the barbed side",
    },
    bombard_range=3,  # 9.1
    gunboat_range=6,  # 9.65
    # 9.33: forest/woods (with or without rough) and town; the revised line of sight, with elevation
    # (rough blocks only from lower ground), is the procedure ``line_of_sight`` (rules/revised/sight.py).
    blocking_terrain=frozenset({terrain.FOREST, terrain.FOREST_ROUGH, terrain.TOWN}),
    movement_allowance_by_type={"cavalry": 8},  # 2.4
    minimum_allowance_by_type={"cavalry": 8},  # 2.4 "cavalry units always have a minimum ... of eight"
    terrain_cost_by_type=TERRAIN_COST_BY_TYPE,
    level_cost=LEVEL_COST,
    hexside_cost=HEXSIDE_COST,
    turnpike_cost=Fraction(2, 3),  # 6.22
    zoc_minimum_cost=2,  # 7.2
    night_allowance_change=-1,  # 11.11
    strategic_bonus={"infantry": 2, "artillery": 2, "cavalry": 4},  # 6.42, 6.43
    always_one_hex=True,  # 6.16
    artillery_zoc_support=True,  # 7.3
    deployment_trenches=True,  # 10.33, 10.39
    ineffective_until="until it has recovered from Rout",  # 12.31
    artillery_advances=False,  # 9.47
    procedures=PROCEDURES,
    handlers=HANDLERS,
    mechanisms=MECHANISMS,
)
