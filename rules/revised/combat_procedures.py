"""The revised rule set's combat procedures (003: 8.x, 9.x, 11.2x, 12.x), plugged into the shared combat
code through the rule set's procedure ``combat`` (rules/core/ruleset.py ``CombatProcedures``).

What differs from 1975 and is decided here:

- Strengths and odds (8.3, 8.4, 9.19, 9.48, 9.53, 10.2, 12.2): rules/revised/combat.py adjusts each unit
  (range, morale, terrain, rounded to the nearest at each stage, at least 1) and finds the terrain's
  halving and column shifts; the odds are read on the 12-column table of rules/revised/crt.py with 8.61's
  die modifiers. 9.18: bombardment alone may not be made below 1-5 (unless the scenario's exclusive
  rules say otherwise: ``[exclusive.artillery] case_9_18 = false``, Chattanooga 19.14).
- Night (11.21-11.24): night Game-Turns have a Combat Phase; units that stayed in an enemy zone of
  control need not attack (``voluntary``), units that moved into one must; the attacker's total is
  doubled, kept or halved by a separate die rolled just before the combat die (11.23); artillery may
  not bombard at night (11.24).
- Results (8.6): Ae, Ae*, Ar, Dr, De, Ex, Ex*; Ae* and Ex* choices are exchange-loss decisions
  (``PendingLosses``: Ae* the defender picks one attacking unit; Ex* the attacker picks one defending
  unit, then loses attackers whose printed strengths at least equal it, 12.26); morale follows 12.11-12.13
  (artillery retreating from an enemy zone suffers two Disorders, 12.11; retreating artillery is
  Disordered without a roll, 12.12); one advance into each vacated hex (8.76), never by artillery (9.47)
  nor by a Routed unit (12.35).
- Morale (12.x): ``state.morale``; a Routed unit is also ``ineffective``, so the shared rules for
  ineffective units (may not attack, may not enter an enemy zone of control, retreats at the end of the
  Combat Phase when it began it in one: rules/procedures/effectiveness.py) are 12.23, 12.31 and 12.32-12.33; town
  hexes disorder every unit in them after each command (12.17); at the start of a night Combat Phase
  the phasing side's units not in an enemy zone of control recover (11.3, 12.41 a); rally (12.41 b):
  ``PlaceRally`` at the start of the Movement Phase, the units may not move, and the dice are rolled
  (``RollRally``) at the start of the Combat Phase before any attack.

Rulings (docs/RULINGS.md, "Revised rule set"):
- 8.45, 10.25: when the forest shift and the other terrain benefits would give different odds, the
  defender chooses (``ChooseTerrain``, a decision before the die); until then the attack shows the one
  better for him (the lower column, then the smaller die modifier).
- 8.22, 9.14: the units of a stack, batteries included, may attack in separate attacks (``separate_attacks``,
  read by rules/procedures/combat.py); each unit left out keeps its own obligation (8.12), and a result touches only
  the engaged units. 8.23 is read unit by unit: a unit need not attack an adjacent enemy that another
  attacking unit, stacked with it or not, engages.
- 12.12, 12.13: the disorder dice are rolled and applied when the result is applied, not after the
  retreats and advances of the combat (the book's timing); the one difference is that a Shaken unit
  routed by the roll of an Ex may not then advance (12.35).
- 9.19: "three hexes" is the bombarding unit's distance to the nearest defending hex it may bombard.
- 11.23 with 8.9: a reduced column is kept after the night die unless the night die gives a lower one.
"""

from __future__ import annotations

from fractions import Fraction

import msgspec

from rules.core.breakdown import ColumnShift, CombatBreakdown, Modifier, Note, UnitStrength
from rules.core.breastworks import BUILDING
from rules.core.commands import ChooseTerrain, PlaceRally, RetreatBeforeCombat, RollRally, VoluntaryRout
from rules.core.decisions import (
    PendingAdvance,
    PendingAttack,
    PendingBeforeCombat,
    PendingLosses,
    PendingRally,
    PendingRetreat,
    first_pending,
    made,
)
from rules.core.errors import RuleViolation
from rules.core.events import (
    AttackDeclared,
    AttackRecomputed,
    AttackVoided,
    BeforeCombatChosen,
    DecisionDeclined,
    DecisionsAwaited,
    DisorderRolled,
    DisruptionSaved,
    Event,
    IneffectiveUnitsEngaged,
    MoraleChanged,
    NightCombatDie,
    OddsReduced,
    RallyMarkersPlaced,
    RallyRolled,
    StationaryRecorded,
    TerrainChosen,
    UnitEliminated,
)
from rules.core.gunboats import GUNBOAT, combat_occupants
from rules.core.handlers import Dice, apply, only_with
from rules.core.scenario import other_side
from rules.core.state import COMBAT, MOVEMENT, State
from rules.procedures import counterattack
from rules.procedures.combat import AdjacentChoice, resolution_column, resolved, roll
from rules.procedures.outcomes import Emitter, settle
from rules.procedures.retreat import retreat_options
from rules.procedures.sequence import night_turn
from rules.queries import artillery
from rules.queries.zoc import enemy_controlled
from rules.revised import combat as rc
from rules.revised import crt as table
from rules.revised import morale

INFANTRY_OR_CAVALRY = ("infantry", "cavalry")


# -- events and commands -------------------------------------------------------------------------------


# -- the procedures --------------------------------------------------------------------------------------
def level_of(state: State, unit: str) -> str:
    return state.morale.get(unit, morale.GOOD)


def _bombard_distance(game, hex_: str, defenders, unit: str) -> int:
    ds = [game.grid.distance(hex_, d) for d in defenders if artillery.may_bombard(game, hex_, d, game.bombard_range(unit))]
    return min(ds) if ds else min(game.grid.distance(hex_, d) for d in defenders)


def _streams_unhalved(game, attackers, defenders, hexside_of):
    """Road to Richmond 18.51: attacked exclusively across stream hexsides (a bridge over a stream
    included), the defender is not doubled: those hexsides halve no attacker. ``hexside_of`` as
    ``rc.terrain_options`` takes it; unchanged otherwise."""
    streams = game.battle.streams
    if streams is None or streams.halve_attacker:
        return hexside_of
    around = game.neighbours
    pairs = [(a.hex, d) for a in attackers if a.adjacent for d in defenders if d in around[a.hex]]

    def across_stream(a: str, d: str) -> bool:
        return "stream" in hexside_of(a, d)[0] or streams.is_stream_bridge(a, d)

    if not pairs or not all(across_stream(a, d) for a, d in pairs):
        return hexside_of

    def of(a: str, d: str):
        features, barbed = hexside_of(a, d)
        return features - {"stream", "bridge"}, barbed

    return of


def _hexside(game):
    sides = game.scenario.map.hexsides
    from rules.core.hexes import hexside

    def of(a: str, d: str):
        s = sides.get(hexside(a, d))
        if s is None:
            return frozenset(), None
        features = s.features
        high = getattr(s, "high", None)
        if "slope" in features and high is not None and high != d:
            features = features - {"slope"}  # 10.1: only attacking up a slope halves
        return features, s.barbed

    return of


class Strengths:
    """An attack's adjusted totals (8.32), its net column shift and what it reads on the table; for a
    breakdown, the terrain option chosen and how its shifts came about."""

    __slots__ = ("attack", "defence", "defending", "passive", "shift", "level", "choices", "option", "right", "why", "breastworks")

    def __init__(self, attack, defence, defending, passive, shift, level):
        self.attack, self.defence, self.defending, self.passive = attack, defence, defending, passive
        self.shift, self.level = shift, level
        self.choices: tuple[str, ...] = ()
        self.option: rc.TerrainOption | None = None  # the terrain option the totals are for
        self.right: tuple[int, str] = (0, "")  # the attacker's best right shift and its terrain (10.26)
        self.why: dict = {}  # rc.terrain_options' reasons
        self.breastworks = False  # 10.38: the option's left shift is the completed breastworks'

    def attack_of(self, attack: PendingAttack | None = None, **fields) -> PendingAttack:
        """The declared attack (``attack`` with ``fields`` changed, or a new one of ``fields``) at these
        strengths, on the column they give (8.6, 8.61)."""
        col = column(self.level)
        fields.update(
            attack=self.attack, defence=self.defence, odds=col, column=col, shift=self.shift,
            modifier=table.die_modifier(self.level),
        )
        return PendingAttack(**fields) if attack is None else msgspec.structs.replace(attack, **fields)


def attack_stages(state: State, a: rc.Attacker, defenders) -> tuple[Fraction | int, Fraction, bool]:
    """8.32 stages 1 and 2 of an attacking unit: the range factor (9.19, 9.25, 9.48; Antietam 18.2: none
    for rifled artillery), the morale factor (12.21, 12.22), and whether a rifled battery escaped a range
    factor other than 1."""
    game = state.game
    unit = game.units[a.unit]
    distance = 1 if a.adjacent else _bombard_distance(game, a.hex, defenders, a.unit)
    rifled = game.battle.rifled(unit)  # Antietam 18.2: "not subject to Range effects"
    rf = rc.range_factor(unit.type, distance, a.adjacent)
    exempt = rifled is not None and not rifled.range_effects and rf != 1
    if exempt:
        rf = 1
    mf = morale.attack_factor(level_of(state, a.unit)) or Fraction(1)
    if _in_halving_ferry(game, a.hex):  # Grand Chancellorsville 22.11: halved when attacking
        mf = mf * Fraction(1, 2)
    for factors in game.rules.attack_factors:  # the battle's rules (Road to Vicksburg 17.3 i)
        for f in factors(state, a.unit, a.adjacent):
            mf = mf * f.factor
    return rf, mf, exempt


def _in_halving_ferry(game, hex_: str) -> bool:
    """Grand Chancellorsville 22.11: "Units in River ferry hexes have their Combat Strength halved when
    attacking and defending"."""
    ferries = game.battle.ferries
    return ferries is not None and ferries.halved and game.terrain.get(hex_) == "ferry"


def defence_stages(state: State, u: str, d: str, occ, adjacent: bool) -> tuple[int, Fraction, Fraction]:
    """A defending unit's strength before adjustment (Road to Richmond 21.23: a rifled battery's own
    defence strength) and its 8.32 stages: the artillery bonus (9.53; Antietam 18.2: none for rifled
    artillery) and the morale factor (12.22, 12.23); no terrain stage for the defender."""
    game = state.game
    unit = game.units[u]
    rifled = game.battle.rifled(unit)  # Antietam 18.2: no 9.53 bonus for rifled artillery
    bonus_allowed = rifled is None or rifled.defence_bonus
    supported = unit.type == "artillery" and bonus_allowed and _supported(state, u, d, occ)
    bonus, factor = rc.defence_factor(level_of(state, u), unit.type == "artillery", supported, adjacent)
    printed = unit.strength if rifled is None else rifled.defence(unit.strength)  # Road to Richmond 21.23
    if _in_halving_ferry(game, d):  # Grand Chancellorsville 22.11: halved when defending
        factor = factor * Fraction(1, 2)
    return printed, bonus, factor


def right_shift(state: State, defenders) -> tuple[int, str]:
    """10.26: the attacker's best shift to the right and the terrain it is for: a defender in a bridge or
    ford hex (10.1), a unit building breastworks ("building", 10.34 i)."""
    game = state.game
    right, why = 0, ""
    for d in defenders:
        kind = game.terrain.get(d, "")
        n = rc.RIGHT_SHIFT_HEX.get(kind, 0)
        if n > right:
            right, why = n, kind
    markers = [m for d in defenders if (m := state.breastworks.get(d)) is not None]
    if any(m.status == BUILDING for m in markers) and right < 1:
        right, why = 1, "building"  # 10.34 i: attacking a unit building breastworks, one column right
    return right, why


def leader_point(state: State, units) -> str | None:
    """Grand Chancellorsville 23.55: "any Leader with more than one star adds one Combat Strength Point to
    any non-artillery unit or units with which it is stacked. Only one Leader may affect units in a
    stack"; 23.52: "Only the highest ranking Leader in an attack will affect combat". The unit of
    ``units`` (one side's in the attack) that takes the point, or None: one point for the side, on the
    first non-artillery unit (by id) in the hex of its highest ranking Leader, when he has more than one star."""
    leaders = state.game.battle.leaders
    if leaders is None:
        return None
    kinds = state.game.units
    foot = sorted(u for u in units if kinds[u].type not in ("artillery", "gunboat"))
    best = None
    for u in foot:
        here = leaders.stacked_with(state, u)
        if here and (best is None or here[0].stars > best[1].stars):
            best = (u, here[0])
    return best[0] if best is not None and best[1].stars > 1 else None


def strengths(state: State, adjacent, bombarding, defenders, passive_units=None, choose: str | None = None) -> Strengths:
    """8.32: every unit adjusted (range, morale, terrain), summed; the terrain option ``choose`` (8.45:
    the defender's choice) or else the one best for the defender; the odds level with the net shift
    (8.42, 10.27). ``Strengths.choices``: the options that differ in outcome, when there are two."""
    game = state.game
    units = game.units
    defenders = tuple(defenders)
    before = state.attacked if passive_units is None else passive_units  # 8.74: attacked before
    attackers = [
        rc.Attacker(u, state.positions[u], True, units[u].type == "artillery") for u in adjacent
    ] + [rc.Attacker(u, state.positions[u], False, True) for u in bombarding]
    # defence (stage 1: 9.53; stage 2: morale 12.22, 12.23; no terrain stage for the defender)
    defence = 0
    defending: list[str] = []
    passive: list[str] = []
    occ = combat_occupants(state)  # 9.66: a gunboat is never a defender
    for d in defenders:
        here = sorted(occ.get(d, []))
        defending.extend(here)
        for u in here:
            if u in before:
                passive.append(u)  # 8.74
                continue
            if game.battle.symbolic(u):
                continue  # Road to Vicksburg 18.1: "has no Defence Strength"
            printed, bonus, factor = defence_stages(state, u, d, occ, bool(adjacent))
            defence += rc.stage(rc.stage(printed, bonus), factor)
    if leader_point(state, [u for u in defending if u not in passive and not game.battle.symbolic(u)]) is not None:
        defence += 1  # Grand Chancellorsville 23.55: a Leader of more than one star
    right = right_shift(state, defenders)
    markers = [m for d in defenders if (m := state.breastworks.get(d)) is not None]
    why: dict = {}
    options = rc.terrain_options(attackers, defenders, game.terrain, _streams_unhalved(game, attackers, defenders, _hexside(game)), right_shift=right[0], why=why) if attackers else []
    adjacent_hexes = {a.hex for a in attackers if a.adjacent}
    breastworks: set[str] = set()
    if adjacent_hexes and any(
        m.status != BUILDING and all(m.covers(h) for h in adjacent_hexes) for m in markers
    ):  # 10.38: attacked entirely through the marker's hexsides (bombardment never spoils it): one left,
        # like any other shift, but not with the forest shift (8.45, 10.25)
        breastworks = {o.name for o in options if o.name != rc.FOREST and right[0] - 1 < o.shift}
        options = [
            o if o.name == rc.FOREST else rc.TerrainOption(o.name, o.halved, min(o.shift, right[0] - 1)) for o in options
        ]
    stages = {a.unit: attack_stages(state, a, defenders) for a in attackers}
    base = _printed_in_attack(state, [a.unit for a in attackers])  # Road to Vicksburg 19.53 i
    extra = train_shift(game, bombarding)  # Olustee 19.6: in addition to any other applicable shifts
    led = 1 if leader_point(state, adjacent) is not None else 0  # Grand Chancellorsville 23.55
    best = None
    outcomes = {}
    for opt in options or [rc.TerrainOption("terrain", frozenset(), right[0])]:
        attack = led
        for a in attackers:
            rf, mf, _ = stages[a.unit]
            attack += rc.adjusted(base[a.unit], range_factor=rf, morale_factor=mf, halved=a.unit in opt.halved)
        level = table.shifted(table.column_index(attack, defence), opt.shift + extra)
        key = (level, table.die_modifier(level))
        outcomes[opt.name] = (key, attack, opt.shift + extra, level, opt)
        if best is None or key < best[0]:
            best = (key, attack, opt.shift + extra, level, opt)
    if choose in outcomes:
        best = outcomes[choose]
    _, attack, shift, level, opt = best
    s = Strengths(attack, defence, tuple(defending), tuple(passive), shift, level)
    keys = {v[0] for v in outcomes.values()}
    s.choices = tuple(sorted(outcomes)) if len(keys) > 1 else ()
    s.option, s.right, s.why, s.breastworks = opt, right, why, opt.name in breastworks
    return s


def _printed_in_attack(state: State, attacking) -> dict[str, int]:
    """Each attacking unit's Combat Strength before 8.32's stages: as printed, or (Road to Vicksburg
    19.53 i: "Both brigades have their Combat Strength tripled for that Player-Turn only") multiplied by
    the battle's counterattack."""
    units = state.game.units
    if state.game.battle.counterattack is None:
        return {u: units[u].strength for u in attacking}
    return {u: units[u].strength * counterattack.strength_factor(state, u, attacking) for u in attacking}


def train_shift(game, bombarding) -> int:
    """Olustee 19.6: "The Train may combine with other units to make an attack, in which case the
    Confederate Player receives one odds column shift to the right" (``train_artillery.column_shift``),
    whatever its Range (two or three hexes)."""
    gun = game.battle.train_artillery
    return gun.column_shift if gun is not None and any(gun.binds(u) for u in bombarding) else 0


_MORALE_WORDS = {morale.DISORDERED: "Disordered", morale.SHAKEN: "Shaken", morale.ROUTED: "Routed"}
_ATTACK_MORALE_CASE = {morale.DISORDERED: "12.21", morale.SHAKEN: "12.22"}
_DEFENCE_MORALE_CASE = {morale.SHAKEN: "12.22", morale.ROUTED: "12.23"}
_LEFT_CASE = {"forest": "8.42", "town": "8.42", "fort": "8.42", "redoubt": "8.46", "entrenchment": "8.46", "breastworks": "10.38"}


def _words(terrain: str) -> str:
    return terrain.replace("_", " ").replace("forest rough", "forest-rough")


def _factor(f: Fraction | int) -> str:
    f = Fraction(f)
    return f"x{f.numerator}" if f.denominator == 1 else f"x{f.numerator}/{f.denominator}"


def _step(mods: list, strength: int, factor, what: str, case: str) -> int:
    """One 8.32 stage: ``strength`` times ``factor`` rounded to the nearest, at least 1 (``rc.stage``),
    named in ``mods`` when the factor is not 1."""
    after = rc.stage(strength, factor)
    if factor != 1:
        mods.append(Modifier(what=what, case=case, factor=_factor(factor), before=strength, after=after))
    return after


def _demoralized_bombardment(state: State, level: int) -> bool:
    """Hooker and Lee 20.12: a bombardment is voluntary, so a Demoralized army's may not be at odds
    below the battle's least (1:3) at this odds ``level``."""
    low = state.game.battle.demoralization
    return (
        low is not None
        and low.demoralized(state, state.phasing)
        and (level < table.LOWEST or low.below_least_odds(column(level)))
    )


def breakdown(state: State, adjacent, bombarding, defenders) -> CombatBreakdown:
    """How an attack's odds are built under the revised rules (rules/core/breakdown.py): each unit's
    strength through 8.32's stages (range 9.19, 9.25, 9.48, 9.53; morale 12.21-12.23; terrain 8.41, 8.46,
    8.47, 10.22), the totals, the ratio's column, the shifts (8.42, 8.46, 10.26, 10.27, 10.34 i, 10.38; the
    forest shift 8.45), the column (8.62: never below 1-5) and the die modifier (8.61); then what is still
    to come: the night die (11.23), the defender's terrain choice (8.45), a battle's die modifier. The
    figures are ``strengths``' own: the same stages and the terrain option it finds."""
    game = state.game
    units = game.units
    defenders = tuple(defenders)
    s = strengths(state, adjacent, bombarding, defenders)
    opt = s.option
    occ = combat_occupants(state)
    defending_led = leader_point(state, [u for u in s.defending if u not in s.passive and not game.battle.symbolic(u)])
    attacking_led = leader_point(state, adjacent)
    lines_d: list[UnitStrength] = []
    for d in defenders:
        for u in sorted(occ.get(d, [])):
            if u in s.passive:
                lines_d.append(UnitStrength(unit=u, hex=d, role="passive", printed=units[u].strength, strength=0))
                continue
            printed, bonus, factor = defence_stages(state, u, d, occ, bool(adjacent))
            mods: list[Modifier] = []
            if printed != units[u].strength:  # Road to Richmond 21.23
                mods.append(Modifier(what="rifled artillery: its own defence strength", case=game.case_named("rifled_artillery", "exclusive rules"), factor=f"={printed}", before=units[u].strength, after=printed))
            x = _step(mods, printed, bonus, "artillery supported by friendly infantry or cavalry, attacked by adjacent units", "9.53")
            level = level_of(state, u)
            x = _step(mods, x, factor, f"{_MORALE_WORDS.get(level, level)}, defending", _DEFENCE_MORALE_CASE.get(level, "12.2"))
            if u == defending_led:  # Grand Chancellorsville 23.55
                x = _leader_step(state, mods, u, x)
            lines_d.append(UnitStrength(unit=u, hex=d, role="defending", printed=units[u].strength, strength=x, modifiers=tuple(mods)))
    halved_why = s.why.get("halved", {})
    lines_a: list[UnitStrength] = []
    combined = bool(adjacent)
    base = _printed_in_attack(state, [*adjacent, *bombarding])
    for u, adj in [*((u, True) for u in adjacent), *((u, False) for u in bombarding)]:
        a = rc.Attacker(u, state.positions[u], adj, adj is False or units[u].type == "artillery")
        rf, mf, exempt = attack_stages(state, a, defenders)
        mods = []
        x = units[u].strength
        if base[u] != x:  # Road to Vicksburg 19.53 i
            mods.append(Modifier(what="the counterattack: Combat Strength multiplied", case=game.case_named("counterattack", "exclusive rules"), factor=_factor(Fraction(base[u], x)), before=x, after=base[u]))
            x = base[u]
        if exempt:
            mods.append(Modifier(what="rifled artillery: not subject to range effects", case=game.case_named("rifled_artillery", "exclusive rules"), factor="x1", before=x, after=x))
        if adj:
            what, case = "artillery making an adjacent attack, before terrain", "9.48"
        else:
            what, case = "artillery bombarding at three hexes' range", "9.25" if combined else "9.19"
        x = _step(mods, x, rf, what, case)
        level = level_of(state, u)
        what, case = f"{_MORALE_WORDS.get(level, level)}, attacking", _ATTACK_MORALE_CASE.get(level, "12.2")
        for factors in game.rules.attack_factors:  # the battle's rules (Road to Vicksburg 17.3 i), with the morale factor
            for f in factors(state, u, adj):
                what, case = (f.what if level == morale.GOOD else f"{f.what}; {what}"), game.case_named(f.case, case)
        x = _step(mods, x, mf, what, case)
        if opt is not None and u in opt.halved:
            kind, d, over = halved_why.get(u, ("terrain", defenders[0], False))
            what = f"attacking over a {_words(kind)} hexside into {d}" if over else f"attacking into {_words(kind)} ({d})"
            x = _step(mods, x, Fraction(1, 2), what, "8.46" if kind in rc.DIRECTIONAL else "8.41")
        if adj and u == attacking_led:  # Grand Chancellorsville 23.55
            x = _leader_step(state, mods, u, x)
        lines_a.append(UnitStrength(unit=u, hex=a.hex, role="adjacent" if adj else "bombarding", printed=units[u].strength, strength=x, modifiers=tuple(mods)))
    shifts: list[ColumnShift] = []
    right, right_kind = s.right
    if opt is not None and opt.name == rc.FOREST:
        if right:
            shifts.append(_right_shift(right, right_kind))
        case = "8.45" if s.choices else "8.42"
        shifts.append(ColumnShift(what="defending in forest (instead of any other terrain benefit)" if s.choices else "defending in forest", case=case, columns=-1))
    elif opt is not None:
        if right:
            shifts.append(_right_shift(right, right_kind))
        if s.breastworks:
            shifts.append(ColumnShift(what="attacked entirely through the breastworks' hexsides", case="10.38", columns=opt.shift - right))
        elif right - opt.shift:
            kind = s.why.get("left", "terrain")
            where = f"across {_words(kind)} hexsides" if kind in rc.LEFT_SHIFT_HEXSIDE else f"in {_words(kind)}"
            shifts.append(ColumnShift(what=f"defending {where}", case=_LEFT_CASE.get(kind, "8.42"), columns=opt.shift - right))
    elif right:
        shifts.append(_right_shift(right, right_kind))
    if extra := train_shift(game, bombarding):
        shifts.append(ColumnShift(what="the Train combining with other units in the attack", case=game.case_named("train_artillery.shift", "exclusive rules"), columns=extra))
    raw = table.column_index(s.attack, s.defence)
    later: list[Note] = []
    if night_turn(state):
        later.append(Note(what="night: before the combat die a night die doubles the attack's total (1), keeps it (2-3) or halves it (4-6)", case="11.23"))
    if s.choices:
        later.append(Note(what="the defender chooses the forest shift or the other terrain benefits (the odds shown are the better for him)", case="8.45"))
    surprise = game.battle.surprise_assault
    if surprise is not None and (m := surprise.die_modifier(state, state.phasing)):
        later.append(Note(what=f"surprise assault: {m:+d} to the combat die", case=game.case_named("surprise_assault.die", "exclusive rules")))
    if game.battle.counterattack is not None and any(base[u] != units[u].strength for u in base):
        m = game.battle.counterattack.die_modifier
        later.append(Note(what=f"the counterattack: {m:+d} to the combat die", case=game.case_named("counterattack", "exclusive rules")))
    return CombatBreakdown(
        attackers=tuple(lines_a),
        defenders=tuple(lines_d),
        attack=s.attack,
        defence=s.defence,
        ratio=table.LEVELS[raw] if raw >= 0 else "below 1-5",
        odds=column(s.level),
        table_case="8.6",
        shifts=tuple(shifts),
        die_modifier=table.die_modifier(s.level),
        later=tuple(later),
    )


def _leader_step(state: State, mods: list, unit: str, x):
    """Grand Chancellorsville 23.55: the Leader's Combat Strength Point, on the breakdown's line."""
    game = state.game
    top = game.battle.leaders.stacked_with(state, unit)[0]
    mods.append(Modifier(what=f"stacked with {top.name}, a Leader of {top.stars} stars", case=game.case_named("leaders.strength", "exclusive rules"), factor="+1", before=x, after=x + 1))
    return x + 1


def _right_shift(n: int, kind: str) -> ColumnShift:
    if kind == "building":
        return ColumnShift(what="attacking a unit building breastworks", case="10.34", columns=n)
    return ColumnShift(what=f"the defender is in a {_words(kind).replace(' hex', '')} hex", case="10.26", columns=n)


def _supported(state: State, unit: str, hex_: str, occ) -> bool:
    """9.53: stacked with or adjacent to a friendly infantry or cavalry unit."""
    game = state.game
    side = game.units[unit].side
    for h in (hex_, *game.neighbours.get(hex_, ())):
        for u in occ.get(h, ()):
            if u != unit and game.units[u].side == side and game.units[u].type in INFANTRY_OR_CAVALRY:
                return True
    return False


def column(level: int) -> str:
    return table.COLUMNS[min(table.TOP, max(table.LOWEST, level))]


def below_lowest_allowed(state: State) -> bool:
    """9.18 unless the scenario's ``[exclusive.artillery] case_9_18 = false`` (Chattanooga 19.14: "The
    provisions of Case 9.18 do not apply to this game")."""
    return not state.game.battle.artillery.case_9_18


def town_hexes(game) -> frozenset[str]:
    """12.17: the town/urban hexes (``[exclusive.town_disorders]``: a terrain and/or a named area of the
    map; by default every town hex)."""
    cached = game.__dict__.get("_town_hexes")
    if cached is None:
        cached = game.battle.town_disorders.hexes(game.scenario.map)
        game.__dict__["_town_hexes"] = cached
    return cached


class RevisedCombat:
    """The procedure ``combat`` of the revised rule set (see the module)."""

    # 8.22, 9.14: the units of a stack may be used in separate attacks (rules/procedures/combat.py ``examine``).
    separate_attacks = True

    def voluntary(self, state: State) -> frozenset[str]:
        """11.21: at night, attacking is voluntary for units that stayed in an enemy zone of control."""
        if not night_turn(state):
            return frozenset()
        return frozenset(state.stationary)

    def night_problem(self, state: State) -> RuleViolation | None:
        """11.2: night Game-Turns have combat (the rule set's night phases)."""
        return None

    def bombardment_allowed(self, state: State) -> bool:
        """11.24: "Artillery may not attack from a non-adjacent hex during a Night Game-Turn";
        Fredericksburg 18.2: "artillery may not bombard during these [Fog] Game-Turns"."""
        return not night_turn(state) and not state.game.battle.fog_now(state)

    def pending_attack(self, state: State, adjacent, bombarding, defenders) -> PendingAttack:
        return self._declared(state, adjacent, bombarding, defenders)[0]

    def _declared(self, state: State, adjacent, bombarding, defenders) -> tuple[PendingAttack, Strengths]:
        """The attack and its strengths (8.32), or the RuleViolation of its odds (9.18, 11.24)."""
        game = state.game
        if bombarding and night_turn(state):
            raise game.violation("night_bombard", "artillery may not attack from a non-adjacent hex during a night Game-Turn")
        if bombarding and game.battle.fog_now(state):  # Fredericksburg 18.2
            raise game.violation("fog", "artillery may not bombard during a Fog Game-Turn")
        s = strengths(state, adjacent, bombarding, defenders)
        low = game.battle.demoralization
        if not adjacent and _demoralized_bombardment(state, s.level):  # Hooker and Lee 20.12
            raise game.violation(
                "demoralization.odds",
                f"the {state.phasing.title()} army is Demoralized: it may not voluntarily attack at odds of less than "
                f"{low.least_odds.replace('-', ':')} (the bombardment would be at {column(max(s.level, table.LOWEST))})",
            )
        if not adjacent and s.level < table.LOWEST and not below_lowest_allowed(state):
            raise game.violation(
                "bombard_odds",
                f"the bombardment would be at {s.attack} to {s.defence}, below 1-5: artillery may not bombard at less "
                "than 1-5 odds",
            )
        attack = s.attack_of(
            side=state.phasing,
            attackers=tuple(adjacent),
            bombarding=tuple(bombarding),
            defenders=tuple(defenders),
            defending=s.defending,
            passive=s.passive,
        )
        return attack, s

    def adjacent_choice(self, state: State, adjacent, hexes, guns, defenders, part=()) -> AdjacentChoice | None:
        """The odds of the ``adjacent`` units from ``hexes`` (``part``: when they are a part of those
        hexes' stacks, 8.22), with and without the bombarding ``guns`` of the option; None when
        bombardment alone would be below 1-5 (9.18)."""
        if night_turn(state):
            guns = []
        s = strengths(state, adjacent, (), defenders) if adjacent else None
        sb = strengths(state, adjacent, guns, defenders) if guns else None
        if s is None and (sb is None or (sb.level < table.LOWEST and not below_lowest_allowed(state))):
            return None
        if s is None and _demoralized_bombardment(state, sb.level):  # Hooker and Lee 20.12
            return None
        base = s or sb
        return AdjacentChoice(
            hexes=tuple(hexes),
            attack=base.attack if base else 0,
            defence=base.defence if base else 0,
            odds=column(s.level) if s else None,
            odds_with_bombardment=column(sb.level) if sb else None,
            units=tuple(part),
        )

    def breakdown(self, state: State, attack: PendingAttack) -> CombatBreakdown:
        """How the odds of ``attack`` (as ``pending_attack`` makes it, before it is declared) are built:
        8.32's stages for each unit, the shifts and the column (see ``breakdown``)."""
        return breakdown(state, attack.attackers, attack.bombarding, attack.defenders)

    def declare(self, state: State, adjacent, bombarding, defenders) -> list[Event]:
        """The attack declared, then 12.34 (the attacker's choice first) and 8.77-8.79 (then the
        defender's): decisions before the die."""
        attack, s = self._declared(state, adjacent, bombarding, defenders)
        declared = AttackDeclared(attack=attack)
        decisions = []
        routed = tuple(u for u in attack.defending if level_of(state, u) == morale.ROUTED)
        if routed:
            decisions.append(PendingBeforeCombat(side=attack.side, what="routed", units=routed))
        cavalry = cavalry_may_retreat(state, attack)
        if cavalry:
            decisions.append(PendingBeforeCombat(side=other_side(attack.side), what="cavalry", units=cavalry))
        # 8.45: the defender's terrain choice, if there is one once the retreats are made, comes last
        terrain = PendingBeforeCombat(side=other_side(attack.side), what="terrain", units=())
        decisions.append(terrain)
        emit = Emitter(state)
        emit(declared, DecisionsAwaited(decisions=tuple(decisions), first=True))
        if len(decisions) == 1:  # no retreat before combat: the choices are the declared attack's own
            if len(s.choices) > 1:
                return emit.events  # the defender chooses (8.45)
            emit(no_terrain_choice(terrain))
        settle(emit)
        return emit.events

    def reductions(self, state: State, head: PendingAttack) -> list[str]:
        found = table.reductions(head.odds)
        low = state.game.battle.demoralization
        if low is not None and low.demoralized(state, head.side):  # Hooker and Lee 20.12
            # 20.12: no reduction below its least odds; an attack standing below them keeps its own
            # column (20.13, 20.14 resolve it)
            found = [c for c in found if c == head.odds or not low.below_least_odds(c)]
        return found

    def resolve(self, state: State, head: PendingAttack, odds: str | None, dice: Dice | None) -> list[Event]:
        chosen = resolution_column(state, head, odds, table.reductions(head.odds))
        emit = Emitter(state)
        low = state.game.battle.demoralization
        if low is not None and low.demoralized(state, head.side):
            if chosen != head.odds and low.below_least_odds(chosen):  # Hooker and Lee 20.12: 8.9 is voluntary
                raise state.game.violation(
                    "demoralization.odds",
                    f"the {head.side.title()} army is Demoralized: it may not reduce the odds below "
                    f"{low.least_odds.replace('-', ':')}",
                )
            if head.attackers and low.below_least_odds(head.odds) and low.demoralized_before_this_turn(state, head.side):
                # 20.14: "an attack at 1:3 odds is unavoidable ... automatically receive an Attacker Retreat
                # combat result": no die is rolled (die 0)
                emit(resolved(head, head.attack, head.odds, 0, table.AR))
                apply_result(emit, head, table.AR, dice)
                settle(emit)
                return emit.events
        attack = head.attack
        level = table.shifted(table.column_index(attack, head.defence), head.shift)
        if night_turn(state):  # 11.23: the night die, just before the combat die
            nd = roll(dice, "resolving an attack")
            attack = rc.night_total(head.attack, nd)
            level = table.shifted(table.column_index(attack, head.defence), head.shift)
            emit(NightCombatDie(die=nd, attack=attack))
        col = column(level)
        modifier = table.die_modifier(level)
        if chosen != head.odds:  # 8.9: the reduced column, unless the night gave a lower one
            emit(OddsReduced(odds=head.odds, column=chosen))
            if table.COLUMNS.index(chosen) < table.COLUMNS.index(col):
                col, modifier = chosen, 0
        for d in head.defenders:  # 10.34 i: "the Breastworks Under Construction Marker is automatically removed"
            m = state.breastworks.get(d)
            if m is not None and m.status == BUILDING:
                from rules.core.events import BreastworksRemoved

                emit(BreastworksRemoved(hex=d, reason="its unit was attacked"))
        surprise = state.game.battle.surprise_assault
        if surprise is not None:  # Shiloh 19.2: "Subtract '1' from the combat die roll for any Confederate attack"
            modifier -= surprise.die_modifier(state, head.side)
        if state.game.battle.counterattack is not None:  # Road to Vicksburg 19.53 ii: "subtracting one"
            modifier -= counterattack.die_modifier(state, (*head.attackers, *head.bombarding))
        die = roll(dice, "resolving an attack")
        result = table.result(col, die, modifier)
        emit(resolved(head, attack, col, die, result))
        apply_result(emit, head, result, dice)
        settle(emit)
        return emit.events


def advances_into(state: State, side: str, units, hexes) -> tuple[PendingAdvance, ...]:
    """8.75, 8.76: one advance decision for each vacated hex, among ``units`` that took part; never
    artillery (9.47) nor a Routed unit (12.35); Road to Richmond 18.52, 18.6: never across a stream
    hexside without a bridge, nor into a swamp hex."""
    kinds = state.game.units
    if state.game.battle.demoralized(state, side):  # Hooker and Lee 20.12: "they may not advance after combat"
        return ()
    movers = tuple(u for u in units if kinds[u].type != "artillery" and level_of(state, u) != morale.ROUTED)
    movers, own = counterattack.advance_decisions(state, side, movers, hexes)  # Road to Vicksburg 19.53 iii
    out: list[PendingAdvance] = list(own)
    for h in hexes:
        may = tuple(u for u in movers if _may_advance(state, u, h))
        if may:
            out.append(PendingAdvance(side=side, units=may, hexes=(h,)))
    return tuple(out)


def _may_advance(state: State, unit: str, hex_: str) -> bool:
    """Road to Richmond 18.52: not across a stream hexside (a bridge over it is drawn creek + bridge);
    18.6: not into a swamp hex."""
    streams = state.game.battle.streams
    if streams is None:
        return True
    game = state.game
    if not streams.advance_into_swamp and game.terrain.get(hex_) == "swamp":
        return False
    here = state.positions.get(unit)
    if not streams.advance_across and here is not None and "stream" in game.scenario.map.features(here, hex_):
        return False
    return True


def unaffected_by_retreat(state: State, attack: PendingAttack) -> frozenset[str]:
    """Antietam 18.1: the defending rifled artillery "not affected by Retreat combat results when
    attacked solely by Enemy artillery units" (every attacking unit, adjacent or bombarding, artillery)."""
    game = state.game
    units = game.units
    if game.battle.rifled_artillery is None:
        return frozenset()
    if not all(units[u].type == "artillery" for u in (*attack.attackers, *attack.bombarding)):
        return frozenset()
    return frozenset(
        u for u in attack.defending if (r := game.battle.rifled(units[u])) is not None and not r.retreat_when_bombarded
    )


def apply_result(emit: Emitter, attack: PendingAttack, result: str, dice: Dice) -> None:
    """8.6 (and 12.11-12.13): apply a revised result; bombarding artillery is untouched (9.15) but may
    elect to take an Ar (9.17)."""
    state = emit.state
    game = state.game
    a_side = attack.side
    d_side = other_side(a_side)
    units = game.units
    case = game.case("crt")
    adjacent = attack.attackers
    defending = attack.defending
    if not adjacent:  # Road to Vicksburg 18.1: "cannot be eliminated solely by artillery bombardment"
        defending = tuple(u for u in defending if not game.battle.symbolic(u))
    contributing = tuple(u for u in defending if u not in attack.passive and not game.battle.symbolic(u))  # Road to Vicksburg 18.1
    attacking_hexes = tuple(sorted({state.positions[u] for u in adjacent}))
    decisions: list = []
    changes: dict[str, str] = {}

    def disorder(us, steps_for_artillery=1):
        us = saved_from_disruption(emit, us, dice)  # Grand Chancellorsville 23.55
        for u in us:
            steps = steps_for_artillery if units[u].type == "artillery" else 1
            changes[u] = morale.worsen(changes.get(u, level_of(state, u)), steps)

    def advances(side, us, hexes):
        decisions.extend(advances_into(state, side, us, hexes))

    def rolls_for(us) -> None:
        rolled = tuple((u, roll(dice)) for u in us)
        if rolled:
            emit(DisorderRolled(rolls=rolled))
            disorder([u for u, d in rolled if morale.disorder_roll(fatigued(state, u, d))])

    d_in_zoc = enemy_controlled(state, d_side)
    d_engaged = [  # 12.12, 12.13; Road to Vicksburg 18.1: no Disorder for the Train (eliminated or unaffected)
        u for u in defending if state.positions.get(u) in d_in_zoc and not game.battle.symbolic(u)
    ]
    if result == table.AE:
        emit(*(UnitEliminated(unit=u, case=case) for u in adjacent))
        advances(d_side, contributing, attacking_hexes)
    elif result == table.DE:
        emit(*(UnitEliminated(unit=u, case=case) for u in defending))
        advances(a_side, adjacent, attack.defenders)
    elif result in (table.AR, table.AE_STAR):
        if adjacent:
            if result == table.AE_STAR:  # the defender picks the attacking unit eliminated
                decisions.append(PendingLosses(side=d_side, candidates=adjacent, at_least=1))
            disorder(adjacent, steps_for_artillery=2)  # 12.11
            decisions.extend(PendingRetreat(side=a_side, unit=u) for u in adjacent)
        if result == table.AR:
            decisions.extend(
                PendingRetreat(side=a_side, unit=u, cause="bombardment", optional=True)
                for u in attack.bombarding
                if units[u].type != GUNBOAT
            )  # 9.17; ruling: never a gunboat (9.62: it moves only in its waters; 9.66)
        advances(d_side, contributing, attacking_hexes)
    elif result == table.DR:
        stay = unaffected_by_retreat(state, attack)  # Antietam 18.1
        guns = [u for u in d_engaged if units[u].type == "artillery" and u not in stay]
        disorder(guns)  # 12.12: retreating artillery is Disordered without a roll
        rolls_for([u for u in d_engaged if units[u].type != "artillery"])
        decisions.extend(PendingRetreat(side=d_side, unit=u) for u in defending if u not in stay)
        advances(a_side, adjacent, attack.defenders)
    elif result == table.EX:
        at_least = sum(units[u].strength for u in defending)  # 12.26: printed strengths
        emit(*(UnitEliminated(unit=u, case=case) for u in defending))
        rolls_for(adjacent)  # 12.13 (the unit lost to the exchange rolls in vain)
        if adjacent:
            decisions.append(PendingLosses(side=a_side, candidates=adjacent, at_least=at_least))
        advances(a_side, adjacent, attack.defenders)
    elif result == table.EX_STAR:
        rolls_for([*adjacent, *d_engaged])  # 12.13
        decisions.append(PendingLosses(side=a_side, candidates=defending, at_least=1, then_lose=adjacent))
        stay = unaffected_by_retreat(state, attack)  # Antietam 18.1
        decisions.extend(PendingRetreat(side=d_side, unit=u) for u in defending if u not in stay)
        advances(a_side, adjacent, attack.defenders)
    else:
        raise ValueError(f"unknown combat result {result!r}")
    changed = tuple((u, lv) for u, lv in sorted(changes.items()) if lv != level_of(emit.state, u))
    if changed:
        emit(MoraleChanged(changes=changed, case=game.case("morale")))
    if decisions:
        emit(DecisionsAwaited(decisions=tuple(decisions)))


def saved_from_disruption(emit: Emitter, units, dice: Dice) -> list[str]:
    """Grand Chancellorsville 23.55: "Any unit suffering a Disruption result that is stacked with a Leader
    receives a 'saving' die roll to cancel the Disruption result: on a die roll of '1-3' the Disruption
    result is void. Exception: Hooker does not produce this benefit." The units still Disordered."""
    units = list(units)
    leaders = emit.state.game.battle.leaders
    if leaders is None:
        return units
    state = emit.state
    rolled = tuple((u, roll(dice)) for u in units if leaders.saving(state, u) is not None)
    if not rolled:
        return units
    saved = tuple(u for u, d in rolled if d in leaders.saved_on)
    emit(DisruptionSaved(rolls=rolled, saved=saved, case=state.game.case("leaders.saving")))
    return [u for u in units if u not in saved]


def apply_disruption_saved(state: State, event: DisruptionSaved) -> None:
    pass  # on record; the saved units' Disorder is not in the MoraleChanged that follows


def fatigued(state: State, unit: str, die: int) -> int:
    """Ezra Church 17.4: the die of a Disorder check of ``unit``, with its side's fatigue added."""
    tired = state.game.battle.fatigue
    return die if tired is None else tired.disorder_die(state.game.units[unit].side, die)


def apply_morale_changed(state: State, event: MoraleChanged) -> None:
    for u, lv in event.changes:
        if u not in state.positions:
            continue
        if lv:
            state.morale[u] = lv
        else:
            state.morale.pop(u, None)
        if lv == morale.ROUTED:  # 12.23, 12.31: as an ineffective unit (11.2)
            state.ineffective.add(u)
        else:
            state.ineffective.discard(u)


def apply_disorder_rolled(state: State, event: DisorderRolled) -> None:
    pass  # the rolls are on record; their effect is the MoraleChanged that follows


def apply_night_die(state: State, event: NightCombatDie) -> None:
    pass  # on record; the CombatResolved that follows carries the strength it gave


# -- hooks: town hexes, night recovery, stationary units, routed units in an enemy zone ----------------------
def town_disorder(state: State) -> MoraleChanged | None:
    """12.17: every unit in a town hex is at least Disordered."""
    towns = town_hexes(state.game)
    positions = state.positions
    if towns.isdisjoint(positions.values()):  # asked after every command: most positions hold no town
        return None
    levels = state.morale
    found = [u for u, h in positions.items() if h in towns and u not in levels]
    if not found:
        return None
    changes = tuple((u, morale.DISORDERED) for u in sorted(found))
    return MoraleChanged(changes=changes, case=state.game.case("town_disorders"))


def disorder_in_towns(state: State, events: list[Event], after: State) -> list[Event]:
    """12.17 after every command (moves, retreats, advances, arrivals; Union units set up in a town are
    Disordered by the first command of the game); ``after`` is the state after the command's events."""
    if state.game_over:
        return []
    if after.game_over:
        return []
    event = town_disorder(after)
    return [event] if event else []


@only_with("trains")
def train_attacker_retreat(state: State, events: list[Event], after: State) -> list[Event]:
    """Wilderness 18.31 (the battle's ``trains.attacker_retreat``): a train's automatic retreat is "an
    Attacker Retreat combat result", and 12.11 Disorders attacking units that suffer one from an Enemy
    controlled hex: each train whose automatic retreat a command's events have just required (a
    ``PendingRetreat`` of cause "train") is Disordered (worse if already so, 12.14, 12.15) when its hex
    is in an enemy zone of control."""
    trains = state.game.battle.trains
    if trains is None or not trains.attacker_retreat or after.game_over:
        return []
    owed = [
        p.unit
        for e in events
        if isinstance(e, DecisionsAwaited)
        for p in e.decisions
        if isinstance(p, PendingRetreat) and p.cause == "train" and p.unit in after.positions
    ]
    if not owed:
        return []
    units = state.game.units
    changes = tuple(
        (u, morale.worsen(level_of(after, u)))
        for u in sorted(set(owed))
        if after.positions[u] in enemy_controlled(after, units[u].side)
    )
    return [MoraleChanged(changes=changes, case=state.game.case("trains.attack"))] if changes else []


def record_stationary(state: State) -> list[Event]:
    """11.21, 12.16: remember which phasing units did not move in the Movement Phase now ending."""
    if state.phase != MOVEMENT:
        return []
    positions, moved = state.positions, state.moved
    still = tuple(sorted(u for u in state.game.side_units[state.phasing] if u in positions and u not in moved))
    return [StationaryRecorded(units=still)]


def apply_stationary(state: State, event: StationaryRecorded) -> None:
    state.stationary = set(event.units)


def combat_phase_begins(state: State) -> list[Event]:
    """At the start of a Combat Phase (revised): 11.3 and 12.41 (a) at night; 12.41 (b) rally dice
    awaited; 12.32 the Routed units in an enemy zone of control noted (they retreat at its end unless
    freed: rules/procedures/effectiveness.py ``retreat_engaged``)."""
    if state.phase != COMBAT:
        return []
    side = state.phasing
    units = state.game.units
    ezoc = enemy_controlled(state, side)
    out: list[Event] = []
    if night_turn(state):  # 11.3, 12.41 (a); 12.17: a unit in a town stays Disordered
        towns = town_hexes(state.game)
        changes = tuple(
            sorted(
                (u, morale.DISORDERED if state.positions.get(u) in towns else morale.GOOD)
                for u, lv in state.morale.items()
                if units[u].side == side and state.positions.get(u) not in ezoc and u in state.positions
            )
        )
        changes = tuple((u, lv) for u, lv in changes if lv != state.morale.get(u, morale.GOOD))
        if changes:
            event = MoraleChanged(changes=changes, case=state.game.case("night_recovery"))
            state = state.copy()  # the caller applies the events; the rally and the routed units below
            apply(state, event)  # are read after the recovery
            out.append(event)
    rallying = tuple(sorted(u for u in state.rallying if u in state.positions and units[u].side == side))
    if rallying:  # (what follows reads nothing this decision changes)
        out.append(DecisionsAwaited(decisions=(PendingRally(side=side, units=rallying),)))
    routed = tuple(
        sorted(u for u, lv in state.morale.items() if lv == morale.ROUTED and units[u].side == side and state.positions.get(u) in ezoc)
    )
    if routed:
        out.append(IneffectiveUnitsEngaged(units=routed))
    return out


# -- retreat before combat (8.77-8.79, 12.19, 12.34) ----------------------------------------------------
def two_hex_retreat(state: State, unit: str) -> bool:
    """8.77: "The cavalry units must be able to retreat two hexes" (all normal retreat rules applying)."""
    for o in retreat_options(state, unit):
        if o.eliminated:
            continue
        after = state.copy()
        after.positions[unit] = o.to
        if o.displace is not None:
            after.positions.pop(o.displace, None)  # it goes somewhere (7.81 checked that it can)
        if any(not o2.eliminated for o2 in retreat_options(after, unit)):
            return True
    return False


def cavalry_may_retreat(state: State, attack: PendingAttack) -> tuple[str, ...]:
    """8.77, 8.78: the defending cavalry that may try to retreat before combat: no attacking unit is
    cavalry; from a bombardment alone only cavalry adjacent to other enemy units; able to go two hexes."""
    units = state.game.units
    if any(units[u].type == "cavalry" for u in (*attack.attackers, *attack.bombarding)):
        return ()
    d_side = other_side(attack.side)
    ezoc = enemy_controlled(state, d_side) if not attack.attackers else None
    out = []
    may_retreat = state.game.battle.may_retreat_before_combat  # 8.77; Chickamauga 20.0
    for u in attack.defending:
        if not may_retreat(units[u]) or u in attack.passive:
            continue
        if ezoc is not None and state.positions.get(u) not in ezoc:
            continue  # 8.78
        if two_hex_retreat(state, u):
            out.append(u)
    return tuple(out)


def _still_there(state: State, head: PendingBeforeCombat) -> tuple[str, ...]:
    attack = next((p for p in state.pending if isinstance(p, PendingAttack)), None)
    if attack is None:
        return ()
    return tuple(u for u in head.units if state.positions.get(u) in attack.defenders)


def defenders_left(state: State, attack: PendingAttack) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The attack's defending units still in its hexes (8.77, 12.34: others may have retreated before
    combat), and the hexes they hold."""
    present = tuple(u for u in attack.defending if state.positions.get(u) in attack.defenders)
    hexes = tuple(d for d in attack.defenders if any(state.positions.get(u) == d for u in present))
    return present, hexes


def against_those_left(state: State, attack: PendingAttack, hexes, choose: str | None = None) -> Strengths:
    """The strengths of the declared attack on the units left in ``hexes`` (8.77, 12.34), with the
    terrain option ``choose`` (8.45) or the defender's best."""
    return strengths(state, attack.attackers, attack.bombarding, hexes, passive_units=set(attack.passive), choose=choose)


def recomputed(state: State, attack: PendingAttack, present, hexes, choose: str | None = None) -> PendingAttack:
    """The declared attack on the ``present`` units left in ``hexes``; its hexes stay, for the advance
    into those vacated before combat (8.76, 12.34)."""
    s = against_those_left(state, attack, hexes, choose)
    return s.attack_of(attack, defending=present, passive=tuple(u for u in attack.passive if u in present))


def terrain_choices(state: State) -> tuple[str, ...]:
    """8.45, 10.25: the terrain options the defender may choose between for the declared attack now
    ("forest": the forest shift alone; "terrain": the halving and the other shifts), when they differ."""
    attack = next((p for p in state.pending if isinstance(p, PendingAttack)), None)
    if attack is None:
        return ()
    _, hexes = defenders_left(state, attack)
    if not hexes:
        return ()
    return against_those_left(state, attack, hexes).choices


def decide_choose_terrain(state: State, command: ChooseTerrain, dice: Dice | None) -> list[Event]:
    game = state.game
    head = first_pending(state)
    if not isinstance(head, PendingBeforeCombat) or head.what != "terrain":
        raise game.violation("sequence", "no terrain choice is awaited now")
    options = terrain_choices(state)
    if command.option not in options:
        raise game.violation("terrain_combat", f"the terrain options of this attack are: {', '.join(options)}")
    attack = next(p for p in state.pending if isinstance(p, PendingAttack))
    new = recomputed(state, attack, *defenders_left(state, attack), choose=command.option)
    emit = Emitter(state)
    emit(TerrainChosen(option=command.option), AttackRecomputed(attack=new))
    settle(emit)
    return emit.events


def apply_terrain_chosen(state: State, event: TerrainChosen) -> None:
    made(state, PendingBeforeCombat)


def no_terrain_choice(head: PendingBeforeCombat) -> DecisionDeclined:
    """8.45: the terrain decision passes when its options do not differ in outcome."""
    return DecisionDeclined(side=head.side, kind="before_combat", reason="no terrain choice in this attack")


def automatic_before_combat(state: State, head: PendingBeforeCombat) -> list[Event] | None:
    if head.what == "terrain":
        return [no_terrain_choice(head)] if len(terrain_choices(state)) < 2 else None
    if not _still_there(state, head):
        return [DecisionDeclined(side=head.side, kind="before_combat", reason="no unit left to retreat before combat")]
    return None


def decide_retreat_before_combat(state: State, command: RetreatBeforeCombat, dice: Dice | None) -> list[Event]:
    game = state.game
    head = first_pending(state)
    if not isinstance(head, PendingBeforeCombat) or head.what == "terrain":
        raise game.violation("sequence", "no retreat before combat is awaited now")
    rule = "retreat_before_combat" if head.what == "cavalry" else "routed_before_combat"
    allowed = set(_still_there(state, head))
    chosen = tuple(sorted(set(command.units)))
    for u in chosen:
        if u not in allowed:
            name = game.designation(u) if u in game.units else repr(u)
            what = "cavalry that may retreat two hexes" if head.what == "cavalry" else "Routed defending units"
            raise game.violation(rule, f"{name} may not retreat before this combat: only the {what} may")
    emit = Emitter(state)
    die = None
    if head.what == "cavalry" and chosen:
        die = roll(dice, "a retreat before combat")
    emit(BeforeCombatChosen(kind=head.what, units=chosen, die=die))
    # 8.77: 1-5 they retreat, 6 they stay; Chickamauga 20.0: Wilder on 1-4
    going = tuple(u for u in chosen if die is None or die <= game.battle.retreat_before_combat_roll(game.units[u]))
    if going:
        side = other_side(state.phasing)
        retreats = tuple(PendingRetreat(side=side, unit=u, cause="before_combat") for u in going for _ in (1, 2))
        emit(DecisionsAwaited(decisions=retreats, first=True))
    settle(emit)
    return emit.events


def apply_before_combat_chosen(state: State, event: BeforeCombatChosen) -> None:
    made(state, PendingBeforeCombat)


def attack_after_retreats_before_combat(state: State, head: PendingAttack) -> list[Event] | None:
    """8.77, 12.34: when units retreated before combat, the attack is on those left (or over)."""
    present, hexes = defenders_left(state, head)
    if present == head.defending:
        return None
    if not hexes:
        events: list[Event] = [AttackVoided(attackers=head.attackers, defenders=head.defenders)]
        advances = advances_into(state, head.side, head.attackers, head.defenders)
        if advances:
            events.append(DecisionsAwaited(decisions=advances, first=True))
        return events
    return [AttackRecomputed(attack=recomputed(state, head, present, hexes))]


def apply_attack_recomputed(state: State, event: AttackRecomputed) -> None:
    i = next(i for i, p in enumerate(state.pending) if isinstance(p, PendingAttack))
    state.pending = [*state.pending[:i], event.attack, *state.pending[i + 1 :]]


def apply_attack_voided(state: State, event: AttackVoided) -> None:
    made(state, PendingAttack)


# -- rally (12.41 b) ----------------------------------------------------------------------------------

def rally_candidates(state: State) -> tuple[str, ...]:
    """12.41 (b): the phasing units that may get a Rally marker now: at the start of the Movement Phase
    (no unit moved yet), Disordered, Shaken or Routed, not in an enemy zone of control, none yet."""
    if state.phase != MOVEMENT or state.moved or state.pending or state.game_over:
        return ()
    side = state.phasing
    units = state.game.units
    ezoc = enemy_controlled(state, side)
    return tuple(
        sorted(
            u
            for u in state.morale
            if u in state.positions and units[u].side == side and state.positions[u] not in ezoc and u not in state.rallying
        )
    )


def decide_place_rally(state: State, command: PlaceRally, dice: Dice | None) -> list[Event]:
    game = state.game
    allowed = set(rally_candidates(state))
    chosen = tuple(sorted(set(command.units)))
    if not chosen:
        raise game.violation("rally", "name the units to rally")
    for u in chosen:
        if u not in allowed:
            name = game.designation(u) if u in game.units else repr(u)
            raise game.violation(
                "rally",
                f"{name} may not be given a Rally marker now: only Disordered, Shaken or Routed units of the moving "
                "side, not in an enemy zone of control, at the start of the Movement Phase before any unit moves",
            )
    return [RallyMarkersPlaced(units=chosen)]


def apply_rally_placed(state: State, event: RallyMarkersPlaced) -> None:
    state.rallying.update(event.units)


def rally_restriction(state: State, unit: str) -> RuleViolation | None:
    """12.41 (b): "Rallying units may not move in that Movement Phase"."""
    if unit in state.rallying:
        return state.game.violation("rally", f"{state.game.designation(unit)} is rallying and may not move this Movement Phase")
    return None


def decide_roll_rally(state: State, command: RollRally, dice: Dice | None) -> list[Event]:
    game = state.game
    head = first_pending(state)
    if not isinstance(head, PendingRally):
        raise game.violation("rally", "no rally dice are awaited now")
    if dice is None:
        raise ValueError("a rally needs a source of die rolls")
    emit = Emitter(state)
    # a unit that recovered meanwhile (11.3 at night) needs no roll; its marker goes all the same (12.42)
    leaders = game.battle.leaders  # Grand Chancellorsville 23.57: "automatically succeed if stacked with a Leader"
    sure = [
        u for u in head.units
        if leaders is not None and u in state.positions and level_of(state, u) != morale.GOOD and leaders.stacked_with(state, u)
    ]
    rolls = tuple((u, roll(dice)) for u in head.units if u in state.positions and level_of(state, u) != morale.GOOD and u not in sure)
    emit(RallyRolled(rolls=rolls, units=head.units))
    changes = []
    towns = town_hexes(game)
    if sure:  # 23.57; 12.17 and 12.41's exception: in a town hex the unit stays at least Disordered
        rallied = tuple((u, morale.in_town(morale.GOOD) if state.positions[u] in towns else morale.GOOD) for u in sure)
        emit(MoraleChanged(changes=rallied, case=game.case("leaders.rally")))
    for u, die in rolls:
        tired = game.battle.fatigue
        if tired is not None:
            die = tired.rally_die(game.units[u].side, die)  # Ezra Church 17.4: "add one to the die roll"
        after = morale.rally(level_of(state, u), die, town=state.positions[u] in towns)
        if after == morale.ELIMINATED:
            emit(UnitEliminated(unit=u, case=game.case("rally")))  # 12.43
        else:
            changes.append((u, after))
    if changes:
        emit(MoraleChanged(changes=tuple(changes), case=game.case("rally")))
    settle(emit)
    return emit.events


def apply_rally_rolled(state: State, event: RallyRolled) -> None:
    made(state, PendingRally)
    state.rallying.difference_update(u for u, _ in event.rolls)  # 12.42
    state.rallying.difference_update(event.units)


# -- voluntary rout (12.16) ---------------------------------------------------------------------------
def rout_candidates(state: State) -> tuple[str, ...]:
    """12.16: the phasing Shaken units that did not move this Player-Turn, at the start of the Combat
    Phase (no attack declared yet, nothing pending)."""
    if state.phase != COMBAT or state.pending or state.attacked or state.game_over:
        return ()
    units = state.game.units
    return tuple(
        sorted(
            u
            for u, lv in state.morale.items()
            if lv == morale.SHAKEN and u in state.positions and units[u].side == state.phasing and u in state.stationary
        )
    )


def decide_voluntary_rout(state: State, command: VoluntaryRout, dice: Dice | None) -> list[Event]:
    game = state.game
    allowed = set(rout_candidates(state))
    chosen = tuple(sorted(set(command.units)))
    if not chosen:
        raise game.violation("voluntary_rout", "name the Shaken units to rout")
    for u in chosen:
        if u not in allowed:
            name = game.designation(u) if u in game.units else repr(u)
            raise game.violation(
                "voluntary_rout",
                f"{name} may not be routed now: only Shaken units that did not move, at the start of the Combat Phase",
            )
    events: list[Event] = [MoraleChanged(changes=tuple((u, morale.ROUTED) for u in chosen), case=game.case("voluntary_rout"))]
    ezoc = enemy_controlled(state, state.phasing)
    engaged = tuple(sorted({*state.engaged, *(u for u in chosen if state.positions[u] in ezoc)}))
    if engaged != tuple(sorted(state.engaged)):
        events.append(IneffectiveUnitsEngaged(units=engaged))  # 12.32: it retreats at the end of the phase
    return events

