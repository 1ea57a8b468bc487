"""Combat (1975 7.0–7.9, with artillery 8.0–8.4 and the Terrain Effects Chart's combat column 9.0).

The Phasing Player attacks in his Combat Phase, one attack at a time: he declares it
(``DeclareAttack``: which units against which hexes), may reduce its odds (7.9) and resolves it
(``ResolveAttack``: the die is rolled in ``decide`` and written into ``CombatResolved``); the result
is applied at once (7.0) and may leave decisions pending (retreats, exchange losses, an advance:
rules/procedures/retreat.py) that are made before the next attack.

Who attacks (7.1, 7.2):
- 7.11, 7.12, 7.23: every phasing unit in an enemy zone of control attacks, and every enemy unit that
  has a phasing unit in its zone of control is attacked, in some attack of the phase; the phase may
  not end before (``check_attacks_made``).
- 7.14: no unit attacks or is attacked twice in a phase (``state.attacked``), except 7.74: a unit that
  retreated into a hex attacked later adds no strength but suffers the result.
- 7.15, 7.25: units attacking from adjacent hexes must be adjacent to every defending hex (and, 9.0,
  not across a creek hexside without bridge or ford: exactly the hexes whose zone of control they are
  in, 6.6); bombarding artillery (8.1) need only be in range of one of them (8.22).
- 7.21: a hex is attacked with all its units as one strength; 7.22, 8.14: the units of one hex that
  may attack attack together (all of them or none), so two batteries of a hex bombard the same hex.
  A rule set whose stacked units may attack separately says so (``separate_attacks``: revised 8.22,
  9.14); then any of a hex's units may attack, and those left out keep their own obligation.
- 8.13: bombardment alone attacks one hex; 8.41, 8.42: artillery in an enemy zone of control attacks
  like infantry and may not bombard.
- 7.75: a unit that advanced after combat neither attacks nor is attacked again that phase.
- 10.1: no combat at night; 11.2 (optional): an ineffective unit may not attack.

No dead end: a declaration is refused when, supposing its defenders stay where they are, some phasing
unit in an enemy zone of control would be left with no enemy it may still attack, or some enemy unit
that must be attacked (7.11, 7.23) with no unit left that may attack it from an adjacent hex. The
obligations are counted per unit (a unit of a stack left out of an attack under 8.22 still owes its
own), which in 1975, where a stack attacks whole, is the same as per hex. Results only remove units
from zones of control, so what remains can always be completed (every pair of attackers and defenders
can be split into attacks of one attacking unit, or hex, against its neighbours or of its neighbours
against one hex). Ruling (docs/RULINGS.md): bombardment is not counted on to meet such an
obligation, because a displacement may silence the battery (7.82) before it fires; bombard that hex
first, then make the other attack.

Odds (7.0, 7.4, 7.6, 9.0, 18.1x): attack strength to defence strength, the defence multiplied by the
terrain (``defence_multiplier``), rounded in the defender's favour on the game's table (rules/core/crt.py).

Results (7.6): Ae, De as printed (bombarding artillery suffers nothing, 8.15, 8.23); Ex: all defenders
eliminated, the attacker chooses losses among the units that attacked from adjacent hexes whose
printed strengths total at least the defenders' (never bombarding artillery, 8.0); Ar: the adjacent
attackers retreat, bombarding artillery may elect to (8.16); Dr: the defenders retreat; then one
victorious unit may advance into a vacated hex (7.75).

Rulings (docs/RULINGS.md):
- 7.4, 9.0: terrain multipliers do not combine; the greatest one applies (rough, forest & rough or
  town x2; every adjacent attacker across bridge or ford x2; every adjacent attacker across a redoubt
  hexside from its barbed side x3, 18.12). 7.4 calls the increase "a multiple of the original Combat
  Strength"; the revised rules say so outright (003 8.43: only the terrain most favourable to the
  defender is used).
- Hexside effects count the units attacking from adjacent hexes; bombarding artillery crosses no
  hexside, neither spoils nor earns them, and a bombardment alone gets no hexside effect.
- Ex: the attacker's loss is a set of participants whose printed strengths reach the defenders' total
  with no unit to spare (no unit in it could be kept and still reach it); when all of them together
  do not reach it, all are lost.
- After an Ex the surviving attackers are victorious and one may advance; after Ae or Ar one defending
  unit that added its strength may advance into a hex the attackers left (7.75: "whenever a hex is
  vacated").
"""

from __future__ import annotations

from itertools import combinations

import msgspec

from rules.core import crt
from rules.core.breakdown import CombatBreakdown, Modifier, UnitStrength
from rules.core.commands import ChooseLosses, DeclareAttack, ResolveAttack
from rules.core.decisions import (
    PendingAdvance,
    PendingAttack,
    PendingLosses,
    PendingRetreat,
    first_pending,
    made,
)
from rules.core.errors import RuleViolation
from rules.core.events import (
    AttackDeclared,
    CombatResolved,
    DecisionsAwaited,
    Event,
    LossesTaken,
    OddsReduced,
    UnitEliminated,
)
from rules.core.gunboats import GUNBOAT, combat_occupants
from rules.core.handlers import Dice
from rules.core.hexes import hexside
from rules.core.scenario import other_side
from rules.core.state import COMBAT, MOVEMENT, State, kept
from rules.core.terrain import BRIDGE, FORD, REDOUBT
from rules.procedures import effectiveness, night
from rules.procedures.outcomes import Emitter, auto_single_choice, settle
from rules.queries import artillery
from rules.queries.trenches import trench_facings
from rules.queries.zoc import enemy_controlled

# -- commands and events -------------------------------------------------------------------------


def separate_attacks(game) -> bool:
    """May the units of one hex attack separately (revised 8.22, 9.14)? In 1975 they attack together
    (7.22, 8.14)."""
    return game.ruleset.procedures.combat.separate_attacks


# -- who may attack, who must -------------------------------------------------------------------------
def why_may_not_attack(state: State, unit: str) -> RuleViolation | None:
    """A phasing unit on the map that may not take part in an attack now, and why (7.14, 7.75, 7.82,
    11.2)."""
    game = state.game
    name = game.designation(unit)
    if game.is_train(unit):
        return game.violation("trains.attack", f"{name} is a non-combat unit and may never attack")  # Chickamauga 19.11
    if game.battle.symbolic(unit):
        return game.violation("symbolic_units.attack", f"{name} has no Combat Strength and may never attack")  # Road to Vicksburg 18.1
    if unit in state.advanced:
        return game.violation("advance", f"{name} advanced after combat and may not attack again this phase")
    if unit in state.attacked:
        return game.violation("attack_once", f"{name} has already attacked this Combat Phase")
    if unit in state.silenced:
        return game.violation(
            "displacement_eliminates", f"{name} was displaced before it fired and may not fire this phase"
        )
    if unit in state.ineffective:
        return game.violation("ineffective", f"{name} has lost its Attack Effectiveness and may not attack")
    if _train_gun_in_enemy_zoc(state, unit):
        return game.violation(
            "train_artillery", f"{name} is in an Enemy Zone of Control and may not attack at all"
        )  # Olustee 19.5
    return None


def _train_gun_in_enemy_zoc(state: State, unit: str) -> bool:
    """Olustee 19.5: a Train serving as artillery "may not attack at all if in an Enemy Zone of Control"."""
    gun = state.game.battle.train_artillery
    if gun is None or not gun.binds(unit) or unit not in state.positions:
        return False
    return state.positions[unit] in enemy_controlled(state, state.game.units[unit].side)


def may_attack(state: State, unit: str) -> bool:
    return not (
        unit in state.attacked
        or unit in state.advanced
        or unit in state.silenced
        or unit in state.ineffective
        or state.game.is_train(unit)  # Chickamauga 19.11
        or state.game.battle.symbolic(unit)  # Road to Vicksburg 18.1
        or _train_gun_in_enemy_zoc(state, unit)  # Olustee 19.5
    )


class Engagement(msgspec.Struct, frozen=True):
    """Who must still attack whom (7.11, 7.12, 7.23; revised 8.11, 8.12, 8.23), as things stand.

    ``targets``: for each hex holding phasing units that may attack and are in an enemy zone of
    control, the enemy hexes they may still attack (7.14, 7.75); ``owed``: for each enemy hex that
    must still be attacked, the hexes of ``targets`` adjacent to it; ``units``: the units of each
    hex of ``targets`` that may attack (together, 7.22; or each on its own, revised 8.22)."""

    targets: dict[str, frozenset[str]]
    owed: dict[str, frozenset[str]]
    units: dict[str, tuple[str, ...]]
    # hexes of ``targets`` whose units may attack but need not (revised 11.21: at night, units that
    # stayed in an enemy zone of control; 10.39: units in a trench with enemies only across its hexsides),
    # and the units of ``units`` that need not attack (11.21)
    optional: frozenset[str] = frozenset()
    voluntary: frozenset[str] = frozenset()
    # revised 10.39: per trench hex of ``targets``, the enemy hexes across its trench hexsides, which
    # must all be attacked if its units attack
    trench: dict[str, frozenset[str]] = {}

    def owing(self, h: str, attacking=frozenset()) -> tuple[str, ...]:
        """The units at ``h`` that still owe an attack once the units ``attacking`` have attacked (a
        unit of a stack left out of an attack still owes its own, revised 8.22)."""
        if h in self.optional:
            return ()
        return tuple(u for u in self.units[h] if u not in attacking and u not in self.voluntary)

    def feasible(self, attacking, defending) -> bool:
        """Can every obligation still be met after an attack by the units ``attacking`` on the hexes
        ``defending`` (supposing its defenders stay in place)?"""
        return self.stranded(attacking, defending) is None

    def stranded(self, attacking, defending) -> tuple[str, str] | None:
        """("attacker", hex) or ("defender", hex): the first obligation left unmeetable by an attack of
        the units ``attacking`` on the hexes ``defending``, or None."""
        for h in sorted(self.targets):
            if not (self.targets[h] - defending) and self.owing(h, attacking):
                return "attacker", h
        for e in sorted(self.owed):
            if e not in defending and not any(
                u not in attacking for h in self.owed[e] for u in self.units[h]
            ):
                return "defender", e
        if self.trench:  # 10.39: once a trench hex's units attack, every adjacent enemy is owed
            fighting = {t for t in self.trench if any(u in attacking for u in self.units[t])}
            for t in sorted(fighting):
                for e in sorted(self.trench[t] - defending - self.owed.keys()):
                    if not any(
                        u not in attacking for h, ts in self.targets.items() if e in ts for u in self.units[h]
                    ):
                        return "defender", e
        return None


def attackable(state: State, hex_: str, occupants: dict[str, list[str]] | None = None) -> bool:
    """May the enemy hex be attacked now: it holds a unit not yet attacked (7.14, 7.74) and none that
    advanced after combat (7.75: an advanced unit may not be attacked; 7.21: a hex is attacked whole)."""
    units = (occupants or state.occupants()).get(hex_, [])
    return any(u not in state.attacked for u in units) and not any(u in state.advanced for u in units)


def engagement(state: State) -> Engagement:
    """The obligations of the current Combat Phase (see ``Engagement``), worked out once per position
    (``rules.core.state.kept``: the choices, the declaration and the end of the phase all ask)."""
    return kept(state, "engagement", _engagement)


def _engagement(state: State) -> Engagement:
    game = state.game
    units = game.units
    side = state.phasing
    zoc_into = game.zoc_into
    occ = combat_occupants(state)  # revised 9.64, 9.66: gunboats neither owe nor are owed
    enemy = {h: us for h, us in occ.items() if units[us[0]].side != side}
    friendly = {h: us for h, us in occ.items() if units[us[0]].side == side}
    live = {h for h, us in enemy.items() if attackable(state, h, occ)}
    # Chickamauga 19.3: a train has no zone of control: a hex holding only trains binds nobody to attack
    t = game.battle.trains  # Wilderness 18.3: trains with a zone of control bind as any unit
    trains = frozenset(h for h, us in occ.items() if all(game.is_train(u) for u in us)) if t and not t.zone_of_control else frozenset()
    symbolic = game.battle.symbolic_units  # Road to Vicksburg 18.1, 18.3: a hex of symbolic units only, as a train's
    if symbolic is not None:
        trains = trains | frozenset(h for h, us in occ.items() if all(symbolic.binds(u) for u in us))
    present = {h for h, us in enemy.items() if not all(u in state.advanced for u in us)}
    targets: dict[str, frozenset[str]] = {}
    hex_units: dict[str, tuple[str, ...]] = {}
    binding: set[str] = set()  # friendly hexes with a unit that binds its neighbours to be attacked
    voluntary = game.ruleset.procedures.combat.voluntary(state)  # revised 11.21
    optional: set[str] = set()
    trenches = trench_facings(state)  # revised 10.39
    trench: dict[str, frozenset[str]] = {}
    for h, us in friendly.items():
        around = zoc_into[h]
        if not any(e in present for e in around):
            continue
        across = trenches.get(h, frozenset())
        optional_across = _optional_across(game, h, around)  # Road to Vicksburg 19.15
        # 10.39: none across a trench hexside; Chickamauga 19.3: none from a train
        in_zone = any(e in present and e not in across and e not in optional_across and e not in trains for e in around)
        if h in trains:
            continue  # Chickamauga 19.11, 19.3: a train neither attacks nor binds an enemy to be attacked
        if in_zone and any(
            u not in state.advanced and u not in state.ineffective and u not in voluntary for u in us
        ):
            binding.add(h)
        eligible = tuple(sorted(u for u in us if may_attack(state, u)))
        if eligible:
            targets[h] = frozenset(e for e in around if e in live)
            hex_units[h] = eligible
            if not in_zone or all(u in voluntary for u in eligible):
                optional.add(h)
            if across & targets[h]:
                trench[h] = across & targets[h]
    owed: dict[str, frozenset[str]] = {}
    fought = {t for t in trenches if t in friendly and any(u in state.attacked for u in friendly[t])}
    for e in live:
        if e in trains:
            continue  # Chickamauga 19.3: "Confederate units are not required to attack the Train unit"
        around = zoc_into[e]
        # 7.11 (a phasing unit in its zone); 10.39: a trench unit that attacked attacks all adjacent units
        if any(f in binding and e not in trenches.get(f, ()) and not _optional_pair(game, f, e) for f in around) or any(
            f in fought for f in around
        ):
            owed[e] = frozenset(f for f in around if f in targets)
    return Engagement(
        targets=targets,
        owed=owed,
        units=hex_units,
        optional=frozenset(optional),
        voluntary=frozenset(u for us in hex_units.values() for u in us if u in voluntary),
        trench=trench,
    )


def _optional_across(game, h: str, around) -> frozenset[str]:
    """Road to Vicksburg 19.15: the hexes around ``h`` across an optional-attack hexside."""
    if not game.optional_attack_hexsides:
        return frozenset()
    return frozenset(e for e in around if _optional_pair(game, h, e))


def _optional_pair(game, a: str, b: str) -> bool:
    """Road to Vicksburg 19.15: "Units are not required to attack across a Baker's Creek bridge hex side;
    such attacks are at the option of the Phasing Player" (the battle's ``creeks``)."""
    return bool(game.optional_attack_hexsides) and hexside(a, b) in game.optional_attack_hexsides


def check_attacks_made(state: State) -> None:
    """7.11, 7.12: the Combat Phase ends only when every phasing unit in an enemy zone of control has
    attacked and every enemy unit with a phasing unit in its zone of control has been attacked."""
    eng = engagement(state)
    game = state.game
    owing = [h for h in eng.targets if eng.owing(h)]
    if owing:
        h = min(owing)
        owing = eng.owing(h)
        names = ", ".join(game.designation(u) for u in owing)
        they = "they are" if len(owing) > 1 else "it is"
        raise game.violation("must_attack", f"{names} at {h} must attack: {they} in an enemy zone of control")
    if eng.owed:
        e = min(eng.owed)
        names = ", ".join(game.designation(u) for u in state.units_in(e))
        raise game.violation(
            "must_be_attacked", f"{names} at {e} must be attacked: friendly units are in its zone of control"
        )


# -- strengths and odds --------------------------------------------------------------------------
def defence_multiplier(state: State, hex_: str, attacking_hexes) -> int:
    """7.4, 9.0, 18.12: the multiple of its strength a defending hex defends at. Ruling: multipliers
    do not combine; the greatest applies. Hexside effects apply when every adjacent attacking hex
    attacks across such a hexside (a redoubt: from its barbed side); bombardment crosses none."""
    return defence_terrain(state, hex_, attacking_hexes)[0]


def defence_terrain(state: State, hex_: str, attacking_hexes) -> tuple[int, str]:
    """``defence_multiplier`` and the terrain that gives it: the hex's terrain, or the hexside feature
    every adjacent attacker crosses ("bridge", "ford", "redoubt"); "" when it is 1."""
    game = state.game
    rs = game.ruleset
    terrain_ = game.terrain[hex_]
    best = rs.defence_terrain.get(terrain_, 1)
    why = terrain_ if best > 1 else ""
    attacking_hexes = list(attacking_hexes)
    if attacking_hexes and rs.defence_hexside:
        sides = game.scenario.map.hexsides
        crossing = [sides.get(hexside(a, hex_)) for a in attacking_hexes]
        if all(s is not None and (BRIDGE in s.features or FORD in s.features) for s in crossing):
            water = max(rs.defence_hexside.get(BRIDGE, 1), rs.defence_hexside.get(FORD, 1))
            if water > best:
                best = water
                bridges = [BRIDGE in s.features for s in crossing]
                why = BRIDGE if all(bridges) else FORD if not any(bridges) else "bridge_or_ford"
        if all(
            s is not None and REDOUBT in s.features and s.barbed == a
            for s, a in zip(crossing, attacking_hexes, strict=True)
        ):
            redoubt = rs.defence_hexside.get(REDOUBT, 1)
            if redoubt > best:
                best, why = redoubt, REDOUBT
    return best, why


def defence_strength(
    state: State, defenders, attacking_hexes
) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """7.21, 7.4, 7.74: the total defence of the hexes (each hex's units not yet attacked, times its
    multiplier), every unit in them, and those that add nothing (attacked before, 7.74)."""
    units = state.game.units
    total = 0
    defending: list[str] = []
    passive: list[str] = []
    for d in defenders:
        here = state.units_in(d)
        defending.extend(here)
        fresh = [u for u in here if u not in state.attacked]
        passive.extend(u for u in here if u in state.attacked)
        total += sum(units[u].strength for u in fresh) * defence_multiplier(state, d, attacking_hexes)
    return total, tuple(defending), tuple(passive)


def odds_of(state: State, attack: int, defence: int) -> str:
    table = state.game.scenario.crt
    if table is None:
        raise state.game.violation("crt", "this game has no Combat Results Table")
    return crt.column_of(attack, defence, table.columns)


# -- declaring ------------------------------------------------------------------------------------
def phase_problem(state: State) -> RuleViolation | None:
    """Why no attack may be declared now (sequence 4.1, 5.14, 10.1), or None."""
    game = state.game
    problem = game.ruleset.procedures.combat.night_problem(state)  # 10.1; revised 11.2
    if problem is not None:
        return problem
    if state.phase == MOVEMENT:
        return game.violation("no_combat_in_movement", "no combat takes place during the Movement Phase")
    if state.phase != COMBAT:
        return game.violation(
            "sequence", f"attacks are declared in the Combat Phase, not the {state.phase} phase"
        )
    if state.pending:
        return game.violation("sequence", "a decision is pending and must be made before another attack")
    return None


def examine(state: State, attackers, defenders, eng: Engagement | None = None) -> PendingAttack:
    """The attack ``attackers`` against ``defenders`` would be, or the RuleViolation refusing it."""
    # 7.0, 8.0; revised 8.3, 8.4, 9.x, 10.2, 12.2: the book's own strengths, shifts and table
    return state.game.ruleset.procedures.combat.pending_attack(state, *allowed(state, attackers, defenders, eng))


def allowed(state: State, attackers, defenders, eng: Engagement | None = None) -> tuple[tuple, tuple, tuple]:
    """The attack of ``attackers`` against ``defenders`` as the rules allow it: its adjacent units, its
    bombarding units and its defending hexes; or the RuleViolation refusing it."""
    game = state.game
    problem = phase_problem(state)
    if problem is not None:
        raise problem
    side = state.phasing
    attackers = tuple(attackers)
    defenders = tuple(defenders)
    if not attackers or not defenders:
        raise game.violation("combat", "an attack needs at least one attacking unit and one defending hex")
    if len(set(attackers)) != len(attackers):  # 8.31 (revised): a unit's strength is never divided
        twice = next(u for u in attackers if attackers.count(u) > 1)
        name = game.designation(twice) if twice in game.units else repr(twice)
        raise game.violation(
            "unitary_strength", f"{name} is named twice: a unit attacks once, with all its strength"
        )
    if len(set(defenders)) != len(defenders):
        raise game.violation("combat", "a hex is named twice in the attack")
    occ = state.occupants()
    for d in defenders:
        if d not in game.terrain:
            raise game.violation("combat", f"{d} is not on the map")
        here = [u for u in occ.get(d, []) if game.units[u].type != GUNBOAT]
        if not here and occ.get(d):
            raise game.violation(
                "gunboat_never_attacked", f"{d} holds only gunboats, which may never be attacked"
            )
        if not here or game.units[here[0]].side == side:
            raise game.violation("combat", f"{d} holds no enemy unit to attack")
        if any(u in state.advanced for u in here):
            raise game.violation(
                "advance", f"the units at {d} advanced after combat and may not be attacked this phase"
            )
        if all(u in state.attacked for u in here):
            names = ", ".join(game.designation(u) for u in here)
            raise game.violation("attack_once", f"{names} at {d} has already been attacked this Combat Phase")
    ezoc = enemy_controlled(state, side)
    beside_trains: set[str] = set()
    if game.battle.trains is not None and not game.battle.trains.zone_of_control:  # Chickamauga 19.3: no zone of control, yet attacked from beside it
        trains_at = (h for u, h in state.positions.items() if game.is_train(u) and game.units[u].side != side)
        beside_trains = {n for h in trains_at for n in game.zoc_into[h]} - ezoc
    # 10.39: a unit in a trench with enemies across it is in no enemy zone, but may attack them from there
    facings = trench_facings(state)
    if facings:
        enemy_at = {h for h, us in occ.items() if game.units[us[0]].side != side}
        trenched = {t for t, f in facings.items() if f & enemy_at}
    else:
        trenched = set()
    adjacent: list[str] = []
    bombarding: list[str] = []
    hexes_used: dict[str, list[str]] = {}
    for u in attackers:
        unit = game.units.get(u)
        if unit is None:
            raise game.violation("combat", f"there is no unit {u!r} in this game")
        if unit.side != side:
            raise game.violation(
                "combat", f"{unit.designation} is not the Phasing Player's: only he attacks (7.0)"
            )
        h = state.positions.get(u)
        if h is None:
            raise game.violation("combat", f"{unit.designation} is not on the map")
        problem = why_may_not_attack(state, u)
        if problem is not None:
            raise problem
        hexes_used.setdefault(h, []).append(u)
        # adjacent attack (8.41: artillery in an enemy zone attacks like infantry; revised 9.64: never a gunboat)
        if unit.type != GUNBOAT and (
            h in ezoc
            or (h in trenched and unit.type not in artillery.BOMBARDING_TYPES)
            # 19.3: beside a train only, artillery attacks it from beside it or bombards as ever (9.41 is
            # about enemy zones of control, and a train has none)
            or (h in beside_trains and (unit.type not in artillery.BOMBARDING_TYPES or set(defenders) <= set(game.neighbours.get(h, ()))))
        ):
            for d in defenders:
                if d not in game.zoc_into[h]:
                    if unit.type == "artillery" and d not in game.neighbours.get(h, ()):
                        raise game.violation(
                            "artillery_in_zoc",
                            f"{unit.designation} at {h} is in an enemy zone of control: it attacks adjacent units "
                            f"like infantry and may not bombard {d}",
                        )
                    raise _not_adjacent(state, unit.designation, h, d, len(defenders))
            adjacent.append(u)
        elif unit.type in artillery.BOMBARDING_TYPES:  # bombardment (8.1, 8.22; revised 9.65)
            march = game.battle.forced_march
            if march is not None and march.may_not_bombard(state, u):  # Grand Chancellorsville 23.23
                raise game.violation(
                    "forced_march.bombard", f"{unit.designation} used Forced March Movement this Game-Turn and may not bombard"
                )
            rifled = game.battle.rifled_artillery
            if rifled is not None and rifled.may_not_bombard(state, u):  # Road to Vicksburg 19.2
                raise game.violation(
                    "rifled_artillery.strategic", f"{unit.designation} used Strategic Movement this Player-Turn and may not bombard"
                )
            problems = [artillery.bombard_problem(game, h, d, game.bombard_range(u)) for d in defenders]
            if all(problems):
                rule, words = problems[0]
                raise game.violation(rule, f"{unit.designation} at {h} may not bombard: {words}")
            bombarding.append(u)
        else:
            raise _not_adjacent(state, unit.designation, h, defenders[0], len(defenders))
    gun = game.battle.train_artillery
    if gun is not None:
        for u in attackers:
            if not gun.binds(u):
                continue
            near = [d for d in defenders if game.grid.distance(state.positions[u], d) < gun.min_range]
            if near:  # Olustee 19.5: "It may not attack adjacent Enemy units"
                raise game.violation(
                    "train_artillery",
                    f"{game.designation(u)} at {state.positions[u]} may not attack {near[0]}: "
                    f"only at a Range of {gun.min_range} hexes or more, never adjacent Enemy units",
                )
        if all(gun.binds(u) for u in attackers):  # Olustee 19.7: "The Train may not attack by itself"
            raise game.violation(
                "train_artillery.alone",
                f"{', '.join(game.designation(u) for u in attackers)} may not attack by itself: "
                "only with other units",
            )
    if not adjacent and len(defenders) > 1:
        raise game.violation(
            "bombard_one_hex",
            "bombarding artillery attacks a single hex unless it joins an attack from adjacent hexes",
        )
    for h, used in (
        hexes_used.items() if not separate_attacks(game) else ()
    ):  # 7.22, 8.14 (not revised 8.22, 9.14)
        fellows = [
            u
            for u in state.units_in(h)
            if may_attack(state, u)
            and (h in ezoc or h in beside_trains or h in trenched or game.units[u].type in artillery.BOMBARDING_TYPES)
            and u not in used
        ]
        if fellows:
            names = ", ".join(game.designation(u) for u in fellows)
            rule = "whole_stack_attacks" if h in ezoc or h in beside_trains or h in trenched else "bombard_same_hex"
            raise game.violation(rule, f"the units at {h} attack together: {names} must join this attack too")
    eng = engagement(state) if eng is None else eng
    stranded = eng.stranded(frozenset(adjacent), frozenset(defenders))
    if stranded is not None:
        raise _dead_end(state, eng, stranded, frozenset(adjacent))
    return tuple(adjacent), tuple(bombarding), defenders


def _not_adjacent(state: State, name: str, h: str, d: str, n: int) -> RuleViolation:
    game = state.game
    if d in game.neighbours.get(h, ()):
        return game.violation(
            "creek_attack",
            f"{name} at {h} may not attack {d} across the creek hexside: only across bridges or fords",
        )
    if n > 1:
        return game.violation(
            "multi_hex",
            f"{name} at {h} is not adjacent to {d}: every attacking unit must be adjacent to every defending hex",
        )
    return game.violation(
        "adjacent", f"{name} at {h} is not adjacent to {d}; only artillery attacks from a distance"
    )


def _dead_end(state: State, eng: Engagement, stranded: tuple[str, str], attacking) -> RuleViolation:
    game = state.game
    kind, h = stranded
    if kind == "attacker":
        names = ", ".join(game.designation(u) for u in eng.owing(h, attacking))
        return game.violation(
            "must_attack",
            f"after this attack {names} at {h} would have no enemy left that it may attack, and it must attack: "
            "let it join this attack",
        )
    names = ", ".join(game.designation(u) for u in state.units_in(h))
    return game.violation(
        "attack_all_adjacent",
        f"{names} at {h} must be attacked and after this attack no unit could attack it from an adjacent hex: "
        "include it in this attack, or attack it first",
    )


def decide_declare(state: State, command: DeclareAttack, dice: Dice | None) -> list[Event]:
    # AttackDeclared, then (revised 8.77, 12.34) the decisions before the die (none in 1975)
    return state.game.ruleset.procedures.combat.declare(state, *allowed(state, command.attackers, command.defenders))


def apply_attack_declared(state: State, event: AttackDeclared) -> None:
    a = event.attack
    state.attacked.update(a.attackers)
    state.attacked.update(a.bombarding)
    state.attacked.update(a.defending)
    state.pending = [*state.pending, a]


# -- resolving ------------------------------------------------------------------------------------
def decide_resolve(state: State, command: ResolveAttack, dice: Dice | None) -> list[Event]:
    game = state.game
    head = first_pending(state)
    if not isinstance(head, PendingAttack):
        raise game.violation("sequence", "there is no declared attack to resolve")
    return game.ruleset.procedures.combat.resolve(
        state, head, command.odds, dice
    )  # revised 8.6, 8.61, 11.23, 12.1


class AdjacentChoice(msgspec.Struct, frozen=True, omit_defaults=True):
    """A set of adjacent attacking hexes that may make an attack, with its strength, the defence it
    meets (terrain included, 7.4), and the odds (None: bombardment alone) and odds with every
    bombarding hex of the option added. ``units``: under the revised rules (8.22) a part of those
    hexes' units that may make the attack without the others (every hex named gives at least one);
    absent: every unit of each hex's group."""

    hexes: tuple[str, ...]
    attack: int
    defence: int
    odds: str | None
    odds_with_bombardment: str | None
    units: tuple[str, ...] = ()


class StandardCombat:
    """The 1975 combat procedures (the rule set's procedure ``combat``; the revised book's are in
    rules/revised/combat_procedures.py)."""

    separate_attacks = False  # 7.22, 8.14: the units of a hex attack together

    def voluntary(self, state: State) -> frozenset[str]:
        return frozenset()  # 7.11: every unit in an enemy zone must attack

    def night_problem(self, state: State) -> RuleViolation | None:
        return night.no_combat_at_night(state)  # 10.1

    def bombardment_allowed(self, state: State) -> bool:
        return True  # 8.0

    def pending_attack(self, state: State, adjacent, bombarding, defenders) -> PendingAttack:
        """7.4 (strengths and terrain), 7.5 (odds), 8.1 (bombardment adds its strength)."""
        units = state.game.units
        attack = sum(units[u].strength for u in (*adjacent, *bombarding))
        attacking_hexes = frozenset(state.positions[u] for u in adjacent)
        defence, defending, passive = defence_strength(state, defenders, attacking_hexes)
        odds = odds_of(state, attack, defence)
        return PendingAttack(
            side=state.phasing,
            attackers=tuple(adjacent),
            bombarding=tuple(bombarding),
            defenders=defenders,
            defending=defending,
            passive=passive,
            attack=attack,
            defence=defence,
            odds=odds,
            column=odds,
        )

    def adjacent_choice(self, state: State, adjacent, hexes, guns, defenders, part=()):
        """The odds of the units of ``hexes`` against ``defenders``, with and without the bombarding
        ``guns`` (7.4, 7.5, 8.1)."""
        units = state.game.units
        attack = sum(units[u].strength for u in adjacent)
        bombard_strength = sum(units[u].strength for u in guns)
        defence, _, _ = defence_strength(state, defenders, hexes)
        return AdjacentChoice(
            hexes=hexes,
            attack=attack,
            defence=defence,
            odds=odds_of(state, attack, defence) if hexes else None,
            odds_with_bombardment=odds_of(state, attack + bombard_strength, defence) if guns else None,
        )

    def breakdown(self, state: State, attack: PendingAttack) -> CombatBreakdown:
        """How the odds of ``attack`` (as ``pending_attack`` makes it, before it is declared) are built:
        every unit at its printed strength (the 1975 rules modify no attacker: 7.4, 8.1), each defending
        hex's units multiplied by its terrain (7.4, 9.0, 18.12), the ratio read on the table (7.6)."""
        game = state.game
        units = game.units
        line = lambda u, role: UnitStrength(  # noqa: E731
            unit=u, hex=state.positions[u], role=role, printed=units[u].strength, strength=units[u].strength
        )
        attackers = tuple(line(u, "adjacent") for u in attack.attackers) + tuple(
            line(u, "bombarding") for u in attack.bombarding
        )
        attacking_hexes = frozenset(state.positions[u] for u in attack.attackers)
        defenders: list[UnitStrength] = []
        for d in attack.defenders:
            times, why = defence_terrain(state, d, attacking_hexes)
            for u in state.units_in(d):
                printed = units[u].strength
                if u in attack.passive:
                    defenders.append(UnitStrength(unit=u, hex=d, role="passive", printed=printed, strength=0))
                    continue
                mods = ()
                if times > 1:
                    mods = (Modifier(what=_defence_words(why), case=_defence_case(game, why), factor=f"x{times}", before=printed, after=printed * times),)
                defenders.append(UnitStrength(unit=u, hex=d, role="defending", printed=printed, strength=printed * times, modifiers=mods))
        return CombatBreakdown(
            attackers=attackers,
            defenders=tuple(defenders),
            attack=attack.attack,
            defence=attack.defence,
            ratio=attack.odds,
            odds=attack.odds,
            table_case=game.case("crt"),
        )

    def declare(self, state: State, adjacent, bombarding, defenders) -> list[Event]:
        # nothing comes between the declaration and the die in 1975
        return [AttackDeclared(attack=self.pending_attack(state, adjacent, bombarding, defenders))]

    def reductions(self, state: State, head: PendingAttack) -> list[str]:
        return crt.reductions(head.odds, state.game.scenario.crt.columns)  # 7.9

    def resolve(self, state: State, head: PendingAttack, odds: str | None, dice: Dice | None) -> list[Event]:
        """7.5-7.9: the die on the Combat Results Table, the result applied."""
        return _resolve_1975(state, head, odds, dice)


def _defence_words(why: str) -> str:
    if why == BRIDGE:
        return "attacked across bridge hexsides only"
    if why == FORD:
        return "attacked across ford hexsides only"
    if why == "bridge_or_ford":
        return "attacked across bridge or ford hexsides only"
    if why == REDOUBT:
        return "attacked across redoubt hexsides from their barbed side"
    return f"defending in {why.replace('_', ' & ')}"


def _defence_case(game, why: str) -> str:
    """7.4 (the terrain of the hex, with the Terrain Effects Chart, 9.0); 9.0 (bridge and ford
    hexsides); the battle's redoubts (Chattanooga 18.12)."""
    if why == REDOUBT:
        return game.case_named("redoubts", "9.0")
    if why in (BRIDGE, FORD, "bridge_or_ford"):
        return "9.0"
    return game.case("terrain_combat")


def _resolve_1975(state: State, head: PendingAttack, odds: str | None, dice: Dice | None) -> list[Event]:
    game = state.game
    table = game.scenario.crt
    if table is None:
        raise game.violation("crt", "this game has no Combat Results Table")
    column = resolution_column(state, head, odds, crt.reductions(head.odds, table.columns))
    die = roll(dice, "resolving an attack")
    result = crt.result(table, column, die)
    emit = Emitter(state)
    if column != head.column:
        emit(OddsReduced(odds=head.odds, column=column))
    emit(resolved(head, head.attack, column, die, result))
    apply_result(emit, head, result)
    settle(emit)
    return emit.events


def resolution_column(state: State, head: PendingAttack, odds: str | None, allowed) -> str:
    """7.9 (revised 8.9): the column the attack is resolved on, ``odds`` or its own; one of ``allowed``
    (its odds, then each lower column)."""
    column = odds or head.column
    if column not in allowed:
        raise state.game.violation(
            "reduce_odds",
            f"the attack is at {head.odds}; it may be resolved at {head.odds} or reduced to a lower column "
            f"({', '.join(allowed[1:]) or 'none'}), not at {column}",
        )
    return column


def roll(dice: Dice | None, what: str = "a die roll") -> int:
    """One die roll, 1 to 6, from the command's source of rolls (only ``decide`` rolls)."""
    if dice is None:
        raise ValueError(f"{what} needs a source of die rolls")
    die = int(dice())
    if not 1 <= die <= 6:
        raise ValueError(f"a die roll is 1 to 6, not {die}")
    return die


def resolved(head: PendingAttack, attack: int, column: str, die: int, result: str) -> CombatResolved:
    """The record of the declared attack ``head`` resolved (``attack``: its strength as rolled)."""
    return CombatResolved(
        attackers=head.attackers,
        bombarding=head.bombarding,
        defenders=head.defenders,
        defending=head.defending,
        attack=attack,
        defence=head.defence,
        odds=head.odds,
        column=column,
        die=die,
        result=result,
    )


def apply_result(emit: Emitter, attack: PendingAttack, result: str) -> None:
    """7.6: apply ``result`` to the attack's units (bombarding artillery untouched, 8.15, 8.23)."""
    state = emit.state
    game = state.game
    attacker_side = attack.side
    defender_side = other_side(attacker_side)
    attacking_hexes = tuple(sorted({state.positions[u] for u in attack.attackers}))
    contributing = tuple(u for u in attack.defending if u not in attack.passive)
    crt_case = game.case("crt")
    decisions: list = []

    def advance(side, units, hexes):
        if units and hexes:
            decisions.append(PendingAdvance(side=side, units=tuple(units), hexes=tuple(hexes)))

    if result == crt.AE:
        emit(*(UnitEliminated(unit=u, case=crt_case) for u in attack.attackers))
        advance(defender_side, contributing, attacking_hexes)
    elif result == crt.DE:
        emit(*(UnitEliminated(unit=u, case=crt_case) for u in attack.defending))
        advance(attacker_side, attack.attackers, attack.defenders)
    elif result == crt.EX:
        at_least = sum(game.units[u].strength for u in attack.defending)
        emit(*(UnitEliminated(unit=u, case=crt_case) for u in attack.defending))
        if attack.attackers:
            decisions.append(
                PendingLosses(side=attacker_side, candidates=attack.attackers, at_least=at_least)
            )
        advance(attacker_side, attack.attackers, attack.defenders)
    elif result == crt.AR:
        lost = effectiveness.lose_effectiveness(state, attack.attackers)  # 11.1
        if lost:
            emit(lost)
        decisions.extend(PendingRetreat(side=attacker_side, unit=u) for u in attack.attackers)
        decisions.extend(
            PendingRetreat(side=attacker_side, unit=u, cause="bombardment", optional=True)
            for u in attack.bombarding
        )  # 8.16
        advance(defender_side, contributing, attacking_hexes)
    elif result == crt.DR:
        decisions.extend(PendingRetreat(side=defender_side, unit=u) for u in attack.defending)
        advance(attacker_side, attack.attackers, attack.defenders)
    else:
        raise ValueError(f"unknown combat result {result!r}")
    if decisions:
        emit(DecisionsAwaited(decisions=tuple(decisions)))


def apply_odds_reduced(state: State, event: OddsReduced) -> None:
    head = state.pending[0]
    state.pending = [msgspec.structs.replace(head, column=event.column), *state.pending[1:]]


def apply_combat_resolved(state: State, event: CombatResolved) -> None:
    state.pending = state.pending[1:]


# -- exchange losses (7.6 Ex) ----------------------------------------------------------------------------
def loss_options(state: State, head: PendingLosses) -> list[tuple[str, ...]]:
    """7.6 Ex: every set of the candidates the attacker may lose: printed strengths totalling at least
    ``at_least`` with no unit to spare (Ruling); all of them when together they do not reach it."""
    units = state.game.units
    cands = sorted(u for u in head.candidates if u in state.positions)
    need = head.at_least
    if sum(units[u].strength for u in cands) <= need:
        return [tuple(cands)] if cands else []
    out = []
    for n in range(1, len(cands) + 1):
        for combo in combinations(cands, n):
            total = sum(units[u].strength for u in combo)
            if total >= need and all(total - units[u].strength < need for u in combo):
                out.append(combo)
    return out


def automatic_losses(state: State, head: PendingLosses) -> list[Event] | None:
    options = loss_options(state, head)
    if len(options) > 1 or (options and not auto_single_choice(state)):
        return None
    return _losses_events(state, head, options[0] if options else ())


def _losses_events(state: State, head: PendingLosses, units) -> list[Event]:
    case = state.game.case("exchange")
    events: list[Event] = [
        LossesTaken(side=head.side, units=tuple(units)),
        *(UnitEliminated(unit=u, case=case) for u in units),
    ]
    if head.then_lose:  # revised 8.6 Ex*: the attacker's losses match the defending unit taken
        at_least = sum(state.game.units[u].strength for u in units)
        then = PendingLosses(side=head.side, candidates=head.then_lose, at_least=at_least)
        events.append(DecisionsAwaited(decisions=(then,), first=True))
    return events


def decide_losses(state: State, command: ChooseLosses, dice: Dice | None) -> list[Event]:
    game = state.game
    head = first_pending(state)
    if not isinstance(head, PendingLosses):
        raise game.violation("sequence", "no exchange losses are awaited now")
    chosen = tuple(sorted(command.units))
    options = loss_options(state, head)
    if chosen not in options:
        strangers = [u for u in chosen if u not in head.candidates]
        if strangers:
            raise game.violation(
                "exchange",
                f"{game.designation(strangers[0])} did not attack from an adjacent hex in this combat and may not be "
                "taken as an exchange loss",
            )
        raise game.violation(
            "exchange",
            f"the exchange costs units whose printed strengths total at least {head.at_least}, none to spare; "
            f"the choices are: {'; '.join(', '.join(game.designation(u) for u in o) for o in options)}",
        )
    emit = Emitter(state)
    emit(*_losses_events(state, head, chosen))
    settle(emit)
    return emit.events


def apply_losses_taken(state: State, event: LossesTaken) -> None:
    made(state, PendingLosses)
