"""Events: what happened. Frozen msgspec Structs, a tagged union on the field ``type`` with explicit
tag strings and a schema version ``schema``; ``rules.reducer.evolve`` applies them. An event carries
everything its application needs (die rolls included), so applying one never consults the dice,
the clock or the scenario's rules.

Every event type of both rule books is here, and ``EVENT_TYPES`` declares the union a log decodes
against: a new event is a class here and a line there (tests/rules/test_unions.py checks both, and
that each rule set that produces it has an evolver for it).
"""

from __future__ import annotations

from typing import Union

import msgspec

from rules.core.decisions import Decision, PendingAttack
from rules.core.scenario import Side


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every event; never recorded itself."""

    schema: int = 1



class UnitExited(Event, frozen=True, tag="unit_exited"):
    """A unit moved along ``path`` to an exit hex and left the map there, spending ``cost`` Movement
    Points in all, the exit's own included (Chickamauga 18.1-18.3)."""

    unit: str
    path: tuple[str, ...]
    cost: int | str


class UnitMoved(Event, frozen=True, tag="unit_moved"):
    """A unit moved along ``path`` (its start hex first), spending ``cost`` movement points (an int, or
    an exact fraction "n/d" along turnpikes, revised 6.22: rules/core/arith.py ``movement_points``)."""

    unit: str
    path: tuple[str, ...]
    cost: int | str


class ReinforcementEntered(Event, frozen=True, tag="reinforcement_entered"):
    """A reinforcement entered the map at ``path[0]`` and moved along ``path`` for ``cost`` points (as
    ``UnitMoved``'s)."""

    unit: str
    path: tuple[str, ...]
    cost: int | str


class ReinforcementsWrittenDown(Event, frozen=True, tag="reinforcements_written_down"):
    """Road to Richmond 17.62: ``side`` wrote down its choice: only a commitment per variable unit."""

    side: Side
    commitments: dict[str, str]


class WrittenReinforcementShown(Event, frozen=True, tag="written_reinforcement_shown"):
    """Road to Richmond 17.62-17.64: the commitment of ``unit`` opened: it was written down to arrive
    with the reinforcements of chart Game-Turn ``turn``; ``salt`` lets anyone check it."""

    unit: str
    turn: int
    salt: str


class ReinforcementsBlocked(Event, frozen=True, tag="reinforcements_blocked"):
    """Revised 5.5: these reinforcements could not move on to the map on their scheduled Game-Turn
    (every entry hex enemy-occupied or beyond the movement left in its column, or the unit barred from
    moving): on a later Game-Turn they may also enter at a map-edge hex within three of their entry
    hexes."""

    units: tuple[str, ...]


class ReinforcementLost(Event, frozen=True, tag="reinforcement_lost"):
    """A reinforcement that did not enter in time is eliminated (15.12)."""

    unit: str


class PhaseEnded(Event, frozen=True, tag="phase_ended"):
    turn: int
    side: Side
    phase: str


class PhaseBegan(Event, frozen=True, tag="phase_began"):
    turn: int
    side: Side
    phase: str


class GameTurnAdvanced(Event, frozen=True, tag="game_turn_advanced"):
    """The Game-Turn Record Interphase (4.1): ``turn`` is the new Game-Turn."""

    turn: int


class GameEnded(Event, frozen=True, tag="game_ended"):
    """The game is over: ``reason`` ("last_turn" after the final Game-Turn; "automatic_victory" when a
    battle's automatic victory ends it sooner, Fredericksburg 20.0, or an army routs, First Bull Run
    18.0), ``result`` (the level of
    victory, when victory conditions have been consulted)."""

    reason: str
    result: str | None = None



# -- combat ------------------------------------------------------------------------------------------

class AttackDeclared(Event, frozen=True, tag="attack_declared"):
    """An attack is declared: its units are engaged for the phase (7.14); it waits to be resolved."""

    attack: PendingAttack

class OddsReduced(Event, frozen=True, tag="odds_reduced"):
    """7.9: the attacker resolves the attack at ``column`` instead of its ``odds``."""

    odds: str
    column: str

class CombatResolved(Event, frozen=True, tag="combat_resolved"):
    """The die roll (rolled in ``decide``) and the result read on the table (7.0, 7.6)."""

    attackers: tuple[str, ...]
    bombarding: tuple[str, ...]
    defenders: tuple[str, ...]
    defending: tuple[str, ...]
    attack: int
    defence: int
    odds: str
    column: str
    die: int
    result: str

class LossesTaken(Event, frozen=True, tag="losses_taken"):
    """7.6 Ex: the attacker chose these units to lose (each then ``UnitEliminated``)."""

    side: str
    units: tuple[str, ...]

# -- effectiveness -----------------------------------------------------------------------------------

class AttackEffectivenessLost(Event, frozen=True, tag="attack_effectiveness_lost"):
    """11.1: these units become ineffective (their counters are turned face-down)."""

    units: tuple[str, ...]

class AttackEffectivenessRecovered(Event, frozen=True, tag="attack_effectiveness_recovered"):
    """11.4: these units are effective again (the end of a night Game-Turn)."""

    units: tuple[str, ...]

class IneffectiveUnitsEngaged(Event, frozen=True, tag="ineffective_units_engaged"):
    """11.31: the ineffective units in an enemy-controlled hex at the start of their Combat Phase."""

    units: tuple[str, ...]

# -- outcomes ----------------------------------------------------------------------------------------

class UnitEliminated(Event, frozen=True, tag="unit_eliminated"):
    """A unit is removed from the map (7.6 Ae, De, Ex; 7.72 no hex open to retreat into; 7.82
    displacement that would eliminate; 16.11; 19.13). ``case``: the rule that removed it."""

    unit: str
    case: str

class DecisionsAwaited(Event, frozen=True, tag="decisions_awaited"):
    """Decisions the game now waits for, in order; ``first``: before those already pending."""

    decisions: tuple[Decision, ...]
    first: bool = False

class DecisionDeclined(Event, frozen=True, tag="decision_declined"):
    """The first pending decision is dropped: declined by its player, or lapsed (``reason``)."""

    side: Side
    kind: str
    reason: str

# -- retreat -----------------------------------------------------------------------------------------

class UnitRetreated(Event, frozen=True, tag="unit_retreated"):
    """``unit`` retreated along ``path`` (its hex, the hex it entered); ``displaces``: the unit it
    displaced there (7.81), whose own retreat is decided next."""

    unit: str
    path: tuple[str, str]
    cause: str = "combat"
    displaces: str | None = None

class UnitAdvanced(Event, frozen=True, tag="unit_advanced"):
    """``unit`` advanced after combat along ``path`` (its hex, the vacated hex) (7.75)."""

    unit: str
    path: tuple[str, str]

# -- revised_combat_procedures -----------------------------------------------------------------------

class MoraleChanged(Event, frozen=True, tag="morale_changed"):
    """Units' morale levels change (12.1, 12.17, 12.41): ``changes`` pairs a unit with its new level
    ("" when it recovers); ``case``: the rule."""

    changes: tuple[tuple[str, str], ...]
    case: str

class DisorderRolled(Event, frozen=True, tag="disorder_rolled"):
    """12.12, 12.13: the die rolled for each unit that may become Disordered (4-6 disorders)."""

    rolls: tuple[tuple[str, int], ...]

class NightCombatDie(Event, frozen=True, tag="night_combat_die"):
    """11.23: the attacker's separate die before a night combat and the attack strength it gives."""

    die: int
    attack: int

class StationaryRecorded(Event, frozen=True, tag="stationary_recorded"):
    """The phasing units that did not move in the Movement Phase just ended (11.21, 12.16)."""

    units: tuple[str, ...]

class RallyMarkersPlaced(Event, frozen=True, tag="rally_markers_placed"):
    """12.41 (b): Rally markers on these units; they may not move in this Movement Phase."""

    units: tuple[str, ...]

class RallyRolled(Event, frozen=True, tag="rally_rolled"):
    """12.41 (b), 12.42: a rally die for each unit with a Rally marker; the markers are removed."""

    rolls: tuple[tuple[str, int], ...]
    units: tuple[str, ...] = ()  # every unit whose Rally marker is removed

class BeforeCombatChosen(Event, frozen=True, tag="before_combat_chosen"):
    """8.77 / 12.34: the units named to retreat two hexes before the die; for cavalry the defender's die
    (1-5: they retreat; 6: they stay and defend)."""

    kind: str
    units: tuple[str, ...]
    die: int | None = None

class AttackRecomputed(Event, frozen=True, tag="attack_recomputed"):
    """The declared attack after units retreated before combat: the strengths and odds of those left."""

    attack: PendingAttack

class AttackVoided(Event, frozen=True, tag="attack_voided"):
    """8.79, 12.34: every defending unit retreated before combat; the attack is over (its units have
    attacked for the phase)."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]

class TerrainChosen(Event, frozen=True, tag="terrain_chosen"):
    """8.45: the defender's terrain option; the attack as it now stands follows (``AttackRecomputed``)."""

    option: str

# -- revised_movement --------------------------------------------------------------------------------

class BreastworksBegun(Event, frozen=True, tag="breastworks_begun"):
    unit: str
    hex: str
    side: str
    turn: int

class BreastworksCompleted(Event, frozen=True, tag="breastworks_completed"):
    hex: str
    facing: tuple[str, ...]
    unit: str

class BreastworksRemoved(Event, frozen=True, tag="breastworks_removed"):
    """10.34 i: an Under Construction Marker removed (its unit moved off, or an enemy unit ended a
    Combat Phase adjacent to it)."""

    hex: str
    reason: str

class MovementDieRolled(Event, frozen=True, tag="movement_die_rolled"):
    """The Wilderness 20.2 (General Burnside): the die rolled before the first of the battle's
    ``movement_die`` units moves in ``side``'s Movement Phase; ``held``: the roll failed (a '6') and
    none of them moves this phase."""

    side: Side
    roll: int
    held: bool
    case: str


class ForcedMarched(Event, frozen=True, tag="forced_marched"):
    """Grand Chancellorsville 23.2: the move (or entry) that follows, ``unit``'s, is a Forced March: it
    spends more than the unit's Movement Allowance, up to the battle's ``forced_march.allowance``
    (23.51: ``unit`` a Leader's id before his ``LeaderMoved``, up to ``leaders.forced_march``)."""

    unit: str
    case: str


class StrategicMovementUsed(Event, frozen=True, tag="strategic_movement_used"):
    """Road to Vicksburg 19.2 (the battle's ``rifled_artillery``): ``unit`` moves by Strategic Movement
    (the move follows): it may not bombard this Player-Turn."""

    unit: str
    case: str


class LeaderKilled(Event, frozen=True, tag="leader_killed"):
    """Grand Chancellorsville 23.56: the die rolled for ``leader``, present with a destroyed unit, killed him
    (``roll``, a '1'); 23.58 his stars' points follow in a ``VictoryPointsAwarded`` (kind "leader")."""

    leader: str
    roll: int
    case: str


class LeaderPlaced(Event, frozen=True, tag="leader_placed"):
    """Grand Chancellorsville 23.56: ``leader`` survived the die (``roll``) and is placed on ``unit``, the
    nearest unit of his command."""

    leader: str
    unit: str
    roll: int
    case: str


class DisruptionSaved(Event, frozen=True, tag="disruption_saved"):
    """Grand Chancellorsville 23.55: the saving die rolled for each unit stacked with a Leader that suffers a
    Disruption (revised: a Disorder); ``saved``: those whose roll voided it ('1-3')."""

    rolls: tuple[tuple[str, int], ...]
    saved: tuple[str, ...]
    case: str


class LeaderMoved(Event, frozen=True, tag="leader_moved"):
    """Grand Chancellorsville 23.51: ``leader`` moved on his own along ``path`` (his hex first), spending
    ``cost`` Movement Points (a ``ForcedMarched`` of his id before it when more than his allowance); he
    stands in ``path[-1]`` on his own, no longer with his unit."""

    leader: str
    path: tuple[str, ...]
    cost: int | str
    case: str


class LeaderJoined(Event, frozen=True, tag="leader_joined"):
    """Grand Chancellorsville 23.51, 23.53: as a phase ends, ``leader``, standing on his own in the hex of
    ``unit`` (one he may stack with), rides with it from now on."""

    leader: str
    unit: str
    case: str


class LeaderEliminated(Event, frozen=True, tag="leader_eliminated"):
    """Grand Chancellorsville 23.54: the enemy combat unit ``unit`` moved into or through ``hex``, where
    ``leader`` was alone: he is eliminated (23.58's points follow in a ``VictoryPointsAwarded``)."""

    leader: str
    unit: str
    hex: str
    case: str


class LeaderRemoved(Event, frozen=True, tag="leader_removed"):
    """Grand Chancellorsville 23.53: every unit of ``leader``'s command is eliminated: he is removed from play."""

    leader: str
    case: str


class ReinforcementTableRolled(Event, frozen=True, tag="reinforcement_table_rolled"):
    """Savage's Station 17.1: the die rolled at the beginning of ``side``'s Movement Phase of Game-Turn
    ``turn`` on the Reinforcement Table (17.2): ``group`` and ``entry`` as the table reads ("" for "-");
    ``enters``: the group is brought (false when the table gives none or the group has entered before:
    "considered to be no Reinforcements for the Game-Turn")."""

    side: Side
    turn: int
    roll: int
    group: str
    entry: str
    enters: bool
    case: str


class MovementQuotaRolled(Event, frozen=True, tag="movement_quota_rolled"):
    """Savage's Station 18.1, 18.2: the die rolled at the beginning of ``side``'s Movement Phase of
    Game-Turn ``turn`` on the Command Table: ``roll`` plus ``modifier`` (one for each two groups of enemy
    reinforcements entered) gives ``units``, how many units the side may move this phase."""

    side: Side
    turn: int
    roll: int
    modifier: int
    units: int
    case: str


class AllocationRolled(Event, frozen=True, tag="allocation_rolled"):
    """Peachtree Creek 17.3, 17.4: the die rolled on the Command Allocation Table for ``command`` (its
    ``limit``, the index in the battle's ``movement_allocation``; "" for a whole side) of ``side`` at
    the beginning of its Movement Phase: ``units`` of them may move this phase."""

    side: Side
    command: str
    limit: int
    roll: int
    units: int
    case: str


class RestraintRolled(Event, frozen=True, tag="restraint_rolled"):
    """Road to Vicksburg 17.1 iii (17.2 iii, 17.3 iii): the die rolled at the beginning of ``side``'s
    Movement Phase of Game-Turn ``turn`` for the units held as ``name``; ``released``: the roll releases
    them ("a '6'")."""

    side: Side
    name: str
    turn: int
    roll: int
    released: bool
    case: str


class CounterattackRecorded(Event, frozen=True, tag="counterattack_recorded"):
    """Road to Vicksburg 19.52 (the battle's ``counterattack``): the first attack of one of the units is
    declared; ``bonus``: it is the counterattack (19.53's bonuses for both units this Player-Turn), else
    the bonuses are forgone."""

    side: Side
    turn: int
    units: tuple[str, ...]
    bonus: bool
    case: str


class CounterattackAdvanced(Event, frozen=True, tag="counterattack_advanced"):
    """Road to Vicksburg 19.53 iii, 19.62: ``unit`` has advanced ``hexes`` hexes in all after the
    counterattack's combat (the Ammunition Depletion die counts the longest advance)."""

    unit: str
    hexes: int


class AmmunitionDepletionRolled(Event, frozen=True, tag="ammunition_depletion_rolled"):
    """Road to Vicksburg 19.61, 19.62: the die rolled at the start of ``side``'s Movement Phase of the
    Game-Turn after the counterattack, with ``modifier`` (the longest advance); ``out``: the units run out
    of ammunition and are replaced by their "Out of Ammo" units (``replaced``: (unit, replacement) pairs,
    the units on the map)."""

    side: Side
    turn: int
    roll: int
    modifier: int
    out: bool
    replaced: tuple[tuple[str, str], ...]
    case: str


class RestraintAttacked(Event, frozen=True, tag="restraint_attacked"):
    """Road to Vicksburg 17.3 i: ``unit``, held as ``name``, took part in a non-bombardment attack: an
    attack on the units no longer releases them."""

    side: Side
    name: str
    unit: str
    case: str


class RestraintReleased(Event, frozen=True, tag="restraint_released"):
    """Road to Vicksburg 17.1 i, ii; 17.5 i: the units held as ``name`` are released for good because
    ``unit`` ``cause``d it: "attacked" (it attacked a unit of the division from an adjacent hex, in
    ``hex``) or "within" (an enemy unit ended its Player-Turn in ``hex``, near the set-up hex); 17.3 release
ii: "unblocked" (no unit of the enemy force blocks the area at the end of its Player-Turn; ``unit`` and
``hex`` empty)."""

    side: Side
    name: str
    cause: str
    unit: str
    hex: str
    case: str


class MovementRestrictionsLifted(Event, frozen=True, tag="movement_restrictions_lifted"):
    """Antietam 20.1: ``unit`` of the other side moved across the ``hexside`` ("0612|0613"), a creek:
    ``side``'s movement restrictions are removed for good from its next Player-Turn. Fredericksburg
    19.0: ``hex`` instead ("0206", ``hexside`` empty): the other side came to occupy it (21.21), by
    movement, retreat or advance; lifted at once."""

    side: Side
    unit: str
    hexside: str
    case: str
    hex: str = ""


class ImmobilityReleased(Event, frozen=True, tag="immobility_released"):
    """Fredericksburg 19.11-19.13: ``units`` of ``side`` are released from immobility for good, because
    ``unit`` ``cause``d it: "exit" (19.11: a unit of the side exited at ``hex``), "occupation" (19.12:
    an enemy unit occupies the pontoon or ford ``hex``) or "within" (19.13: an enemy unit came within
    range of each of ``units``). First Bull Run 17.1, 17.2 (``may_not_move_until``): "attacked" (a unit
    of the side was attacked, ``unit`` the defender) or "crossed" (``unit`` of the other side entered
    the hold's area at ``hex``)."""

    side: Side
    units: list[str]
    cause: str
    unit: str
    hex: str
    case: str

class CorpsCommandRolled(Event, frozen=True, tag="corps_command_rolled"):
    """Grand Chancellorsville 23.4: the Command Control Phase of ``side``'s Game-Turn ``turn``: the die
    rolled for each corps on the map (``rolls``, by corps) and the corps that may not move (``held``)."""

    side: Side
    turn: int
    rolls: dict[str, int]
    held: list[str]
    case: str


class UnitMarchedOff(Event, frozen=True, tag="unit_marched_off"):
    """Hooker and Lee 18.22, 18.23: a unit moved along ``path`` to an exit hex of the battle's
    ``exit_and_return`` and left the map there (``cost`` Movement Points, the exit's included), to
    return as a reinforcement on Game-Turn ``returns``."""

    unit: str
    path: tuple[str, ...]
    cost: int | str
    returns: int


class CrossingDieRolled(Event, frozen=True, tag="crossing_die_rolled"):
    """Hooker and Lee 19.14: the die rolled at the beginning of ``side``'s Movement Phase of Game-Turn
    ``turn`` for Averill's crossing of Ely's Ford: ``allowed`` when it is a '1' (for good)."""

    side: Side
    turn: int
    roll: int
    allowed: bool
    case: str


class DemoralizationLimitRaised(Event, frozen=True, tag="demoralization_limit_raised"):
    """Hooker and Lee 20.11 ii), 20.15: every unit the battle names (the I Corps) has crossed the river:
    ``side``'s army is Demoralized only by losses above ``limit`` from now on."""

    side: Side
    limit: int
    case: str


class ArmyDemoralized(Event, frozen=True, tag="army_demoralized"):
    """Hooker and Lee 20.11, 20.13, 20.21: ``side``'s army becomes Demoralized (``demoralized``) with
    ``losses`` Combat Strength Points lost, above its ``limit``; 20.15: or is recovered (not
    ``demoralized``: its losses are no longer above the raised limit)."""

    side: Side
    demoralized: bool
    losses: int
    limit: int
    case: str


# -- victory -----------------------------------------------------------------------------------------

class VictoryPointsAwarded(Event, frozen=True, tag="victory_points_awarded"):
    """``side`` scores ``points`` for ``kind`` ("eliminated", "first_control", "town_zoc",
    "last_control", "occupation", "cut_off", "exited", "not_exited", "control_of_all", "all_eliminated") about ``subject`` (a unit id, a
    hex, or hexes separated by spaces)."""

    side: Side
    points: int
    kind: str
    subject: str
    case: str

class VictoryDetermined(Event, frozen=True, tag="victory_determined"):
    """20.2: the final totals, the differential (Union minus Confederate) and the level of victory."""

    union: int
    confederate: int
    differential: int
    level: str


class AmmunitionRolled(Event, frozen=True, tag="ammunition_rolled"):
    """Olustee 19.1 (the battle's ``ammunition``): at the start of ``side``'s Player-Turn of Game-Turn
    ``turn`` it rolled ``roll``; ``out``: its forces run out of ammunition."""

    side: Side
    turn: int
    roll: int
    out: bool
    case: str


class AmmunitionResupplied(Event, frozen=True, tag="ammunition_resupplied"):
    """Olustee 19.3 (the battle's ``ammunition``): the Train having moved, ``units`` trace a Line of
    Communication of four or fewer hexes to it and are re-supplied."""

    units: tuple[str, ...]
    turn: int
    case: str


class ConditionalReinforcementsRolled(Event, frozen=True, tag="conditional_reinforcements_rolled"):
    """Second Bull Run 17.3 (the battle's ``conditional_reinforcements``): at the start of ``side``'s
    Player-Turn of Game-Turn ``turn`` it rolled ``roll`` for the group ``group`` ("II Corps");
    ``arrived``: the roll brings the group's units, reinforcements of this Game-Turn."""

    side: Side
    group: str
    turn: int
    roll: int
    arrived: bool
    case: str


class ArmyRoutChecked(Event, frozen=True, tag="army_rout_checked"):
    """First Bull Run 18.0 (the battle's ``army_rout``): at the end of a Game-Turn ``side`` rolled
    ``roll`` and added ``shaken_or_routed`` (one for each of its units Shaken or Routed) and twice
    ``eliminated`` (each of its units eliminated): ``total``; ``routed`` when it reached the threshold
    ("that Player's army has routed and fled the battlefield")."""

    side: Side
    roll: int
    shaken_or_routed: int
    eliminated: int
    total: int
    routed: bool
    case: str


# -- the union ------------------------------------------------------------------------------------------
#: Every event type, declared: the one union a log is decoded against.
EVENT_TYPES: tuple[type[Event], ...] = (
    UnitMoved,
    UnitExited,
    ReinforcementEntered,
    ReinforcementsWrittenDown,
    WrittenReinforcementShown,
    ReinforcementsBlocked,
    ReinforcementLost,
    PhaseEnded,
    PhaseBegan,
    GameTurnAdvanced,
    GameEnded,
    AttackDeclared,
    OddsReduced,
    CombatResolved,
    LossesTaken,
    AttackEffectivenessLost,
    AttackEffectivenessRecovered,
    IneffectiveUnitsEngaged,
    UnitEliminated,
    DecisionsAwaited,
    DecisionDeclined,
    UnitRetreated,
    UnitAdvanced,
    MoraleChanged,
    DisorderRolled,
    NightCombatDie,
    StationaryRecorded,
    RallyMarkersPlaced,
    RallyRolled,
    BeforeCombatChosen,
    AttackRecomputed,
    AttackVoided,
    TerrainChosen,
    BreastworksBegun,
    BreastworksCompleted,
    BreastworksRemoved,
    VictoryPointsAwarded,
    VictoryDetermined,
    MovementRestrictionsLifted,
    MovementDieRolled,
    ForcedMarched,
    LeaderKilled,
    LeaderPlaced,
    LeaderRemoved,
    LeaderMoved,
    LeaderJoined,
    LeaderEliminated,
    DisruptionSaved,
    ImmobilityReleased,
    ReinforcementTableRolled,
    MovementQuotaRolled,
    AllocationRolled,
    RestraintRolled,
    RestraintReleased,
    RestraintAttacked,
    StrategicMovementUsed,
    CounterattackRecorded,
    CounterattackAdvanced,
    AmmunitionDepletionRolled,
    ArmyRoutChecked,
    DemoralizationLimitRaised,
    ArmyDemoralized,
    CrossingDieRolled,
    UnitMarchedOff,
    CorpsCommandRolled,
    ConditionalReinforcementsRolled,
    AmmunitionRolled,
    AmmunitionResupplied,
)

AnyEvent = Union[EVENT_TYPES]  # noqa: UP007 - a declared tuple of types
_json_decoder = msgspec.json.Decoder(AnyEvent)
_msgpack_decoder = msgspec.msgpack.Decoder(AnyEvent)


def decode(data: bytes | str) -> Event:
    """An event from its JSON encoding."""
    return _json_decoder.decode(data)


def decode_msgpack(data: bytes) -> Event:
    return _msgpack_decoder.decode(data)


def encode(event: Event) -> bytes:
    return msgspec.json.encode(event)
