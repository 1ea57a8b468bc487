"""The combat choices of the player to act, structured so that a client needs no rule to offer them.

In a Combat Phase with nothing pending: ``attack_options``, one ``AttackOption`` per set of enemy
hexes that may be attacked together now (7.21, 7.25), with the attacking hexes that may take part:
``adjacent``, every set of adjacent hexes that may make the attack (each with its strength, the
defence it meets after terrain and the odds, 7.0, 7.4), and ``bombard``, the artillery hexes that may
add a bombardment (8.2; any of them, or none). A declaration is accepted exactly when its defenders
are an option's ``defenders``, its hexes one of the option's ``adjacent`` sets plus any of its
``bombard`` hexes, and its units every unit of those hexes (``groups``, 7.22). Under the revised rules
(``separate``: 8.22, 9.14) the units of a hex may attack separately: ``adjacent`` also lists each part
of its sets' stacks (``units``), and any of a bombarding group's batteries may join. The empty adjacent set
is listed only where bombardment alone may make the attack (8.13); under the revised rules, where
bombardment alone may not be below 1-5 (9.18), it is listed when all the option's ``bombard`` hexes
together reach 1-5, and fewer of them may be refused. Sets that would leave an
obligation unmeetable are not offered (no dead end). ``rules.procedures.combat.preview`` gives the odds of any
other selection, ``combat_breakdown`` how its odds are built.

With a decision pending, ``decision_choice`` gives its options: resolve (the columns the odds may be
reduced to, 7.9), retreat (each hex, with the unit to displace or the elimination it means),
exchange losses (each set of units), advance (each unit and hex; declining is always allowed).
"""

from __future__ import annotations

from itertools import combinations, product

import msgspec

from rules.core.breakdown import CombatBreakdown
from rules.core.decisions import (
    PendingAdvance,
    PendingAttack,
    PendingBeforeCombat,
    PendingLosses,
    PendingRally,
    PendingRetreat,
)
from rules.core.errors import RuleViolation
from rules.core.gunboats import GUNBOAT, combat_occupants
from rules.core.state import State
from rules.procedures.combat import (
    AdjacentChoice,
    engagement,
    examine,
    loss_options,
    may_attack,
    phase_problem,
    separate_attacks,
)
from rules.procedures.retreat import AdvanceOption, RetreatOption, advance_options, retreat_options
from rules.queries import artillery
from rules.queries.zoc import enemy_controlled


class AttackerGroup(msgspec.Struct, frozen=True):
    """The units of one hex that attack together (7.22) and their strength; ``bombarding``: from range
    (8.1)."""

    hex: str
    units: tuple[str, ...]
    strength: int
    bombarding: bool = False


class AttackOption(msgspec.Struct, frozen=True, omit_defaults=True):
    """Enemy hexes that may be attacked together now, and who may attack them (see the module).
    ``separate``: the units of a group may attack without the others (revised 8.22, 9.14): any of an
    adjacent set's units offered in ``adjacent`` (a part has its own entry), any of a bombarding
    group's."""

    defenders: tuple[str, ...]
    defending: tuple[str, ...]
    owed: bool
    adjacent: tuple[AdjacentChoice, ...]
    bombard: tuple[str, ...]
    groups: dict[str, AttackerGroup]
    separate: bool = False


class Preview(msgspec.Struct, frozen=True):
    """What a declaration would be: the odds, or why it is refused."""

    odds: str | None
    attack: int = 0
    defence: int = 0
    refused_case: str | None = None
    refused: str | None = None


def preview(state: State, attackers, defenders) -> Preview:
    """The odds of any declaration (or the reason it would be refused), for a client's selection."""
    try:
        a = examine(state, attackers, defenders)
    except RuleViolation as e:
        return Preview(odds=None, refused_case=e.case, refused=e.message)
    return Preview(odds=a.odds, attack=a.attack, defence=a.defence)


def combat_breakdown(state: State, attackers, defenders) -> CombatBreakdown:
    """How the odds of declaring ``attackers`` against ``defenders`` now are built: each unit's strength
    with its modifiers named with their cases, the totals, the shifts and the column
    (rules/core/breakdown.py), by the rule set in force; RuleViolation when the declaration would be
    refused. The totals and the column are those the declaration would get."""
    attack = examine(state, attackers, defenders)
    return state.game.ruleset.procedures.combat.breakdown(state, attack)


def declared_breakdown(state: State) -> CombatBreakdown | None:
    """How the odds of the declared attack waiting for its die (the first ``PendingAttack`` of
    ``state.pending``, 7.0) are built, read as at its declaration: the breakdown of the same attack in
    the position without it (its units not yet marked as attacked, 7.14; those attacked before stay
    passive, 7.74, revised 8.74). None when no attack waits. What changed the position since (the
    defender's terrain choice, revised 8.45; a retreat before combat, 8.77, 12.34) is not in it: the
    declared attack's own totals and odds then differ from the breakdown's."""
    attack = next((p for p in state.pending if isinstance(p, PendingAttack)), None)
    if attack is None:
        return None
    before = state.copy()
    before.pending = [p for p in state.pending if p is not attack]
    marked = {*attack.attackers, *attack.bombarding, *(set(attack.defending) - set(attack.passive))}
    before.attacked = set(state.attacked) - marked
    return state.game.ruleset.procedures.combat.breakdown(before, attack)


def attack_options(state: State) -> list[AttackOption]:
    """Every attack the phasing player may declare now (see the module)."""
    if state.pending or phase_problem(state) is not None:
        return []
    game = state.game
    units = game.units
    side = state.phasing
    eng = engagement(state)
    occ = combat_occupants(state)  # revised 9.66: gunboats are never attacked
    ezoc = enemy_controlled(state, side)
    live = {
        h
        for h, us in occ.items()
        if units[us[0]].side != side
        and any(u not in state.attacked for u in us)
        and not any(u in state.advanced for u in us)
    }
    groups: dict[str, AttackerGroup] = {}
    for h, us in eng.units.items():
        groups[h] = AttackerGroup(h, us, sum(units[u].strength for u in us))
    reach: dict[str, frozenset[str]] = {}
    for h, us in state.occupants().items():
        if units[us[0]].side != side:
            continue
        guns = tuple(sorted(u for u in us if _bombards(state, h, u, ezoc)))
        if not guns:
            continue
        # the units of a hex bombard together (8.14): a target is in range of each (revised 9.65: six for a gunboat)
        targets = frozenset(
            e
            for e in live
            if all(artillery.may_bombard(game, h, e, game.bombard_range(u)) and not _train_too_near(game, h, e, u) for u in guns)
        )
        if targets:
            reach[h] = targets
            groups[h] = AttackerGroup(h, guns, sum(units[u].strength for u in guns), bombarding=True)
    proc = game.ruleset.procedures.combat
    if not proc.bombardment_allowed(state):  # revised 11.24: none at night
        reach = {}
    split = separate_attacks(game)
    train_guns = game.battle.train_artillery
    sets: set[tuple[str, ...]] = set()
    for ts in eng.targets.values():
        ordered = sorted(ts)
        for r in range(1, len(ordered) + 1):
            sets.update(combinations(ordered, r))
    for targets in reach.values():
        sets.update((e,) for e in targets)
    out = []
    for defenders in sorted(sets):
        dset = frozenset(defenders)
        candidates = sorted(h for h, ts in eng.targets.items() if dset <= ts)
        bombard = tuple(sorted(b for b, ts in reach.items() if ts & dset))
        guns = [u for b in bombard for u in groups[b].units]
        adjacent = []
        for r in range(len(candidates) + 1):
            for hexes in combinations(candidates, r):
                if not hexes and (len(defenders) > 1 or not bombard):
                    continue
                if not hexes and train_guns and all(train_guns.binds(u) for u in guns):
                    continue  # Olustee 19.7: "The Train may not attack by itself"
                for part in _parts(groups, hexes, split):
                    attacking = part or [u for h in hexes for u in groups[h].units]
                    if not eng.feasible(frozenset(attacking), dset):
                        continue
                    # the rule set's strengths and odds (7.4, 7.5, 8.1; revised 8.3, 8.4, 9.x, 12.2)
                    choice = proc.adjacent_choice(state, attacking, hexes, guns, defenders, part)
                    if choice is not None:
                        adjacent.append(choice)
        if not adjacent:
            continue
        used = {h for a in adjacent for h in a.hexes} | set(bombard)
        defending = tuple(u for d in defenders for u in sorted(occ[d]))
        out.append(
            AttackOption(
                defenders=defenders,
                defending=defending,
                owed=any(d in eng.owed for d in defenders),
                adjacent=tuple(adjacent),
                bombard=bombard,
                groups={h: groups[h] for h in sorted(used)},
                separate=split,
            )
        )
    return out


def _parts(groups: dict[str, AttackerGroup], hexes: tuple[str, ...], split: bool):
    """The adjacent units ``hexes`` may attack with: () for every unit of each group (7.22); where
    stacked units may attack separately (revised 8.22), also each part that takes at least one unit
    of every hex and not every unit of all of them."""
    yield ()
    if not split or not hexes:
        return
    choices = [
        [c for n in range(1, len(groups[h].units) + 1) for c in combinations(groups[h].units, n)] for h in hexes
    ]
    for pick in product(*choices):
        part = tuple(u for c in pick for u in c)
        if any(len(c) < len(groups[h].units) for c, h in zip(pick, hexes, strict=True)):
            yield part


# -- the pending decision -------------------------------------------------------------------------------
class ResolveChoice(msgspec.Struct, frozen=True, tag="resolve"):
    """Resolve the declared attack at one of ``columns`` (its odds first, then each lower column, 7.9)."""

    attack: PendingAttack
    columns: tuple[str, ...]


class RetreatChoice(msgspec.Struct, frozen=True, tag="retreat"):
    """Where ``unit`` may retreat (7.71–7.82); ``optional``: it may also stay (``Decline``, 8.16)."""

    unit: str
    hex: str
    options: tuple[RetreatOption, ...]
    optional: bool = False


class LossesChoice(msgspec.Struct, frozen=True, tag="exchange_losses"):
    """7.6 Ex: each set of units the attacker may lose (printed strengths at least ``at_least``)."""

    at_least: int
    options: tuple[tuple[str, ...], ...]


class AdvanceChoice(msgspec.Struct, frozen=True, tag="advance"):
    """7.75: each unit and vacated hex of a possible advance; declining is always allowed."""

    options: tuple[AdvanceOption, ...]


class RallyChoice(msgspec.Struct, frozen=True, tag="rally"):
    """Revised 12.41 (b): roll the rally die for ``units`` (``RollRally``)."""

    units: tuple[str, ...]


class BeforeCombatChoice(msgspec.Struct, frozen=True, tag="before_combat"):
    """Revised 8.77 ("cavalry", the defender's) or 12.34 ("routed", the attacker's): any of ``units`` may
    be named to retreat two hexes before the die (``RetreatBeforeCombat``; none: an empty list).
    8.45 ("terrain", the defender's): one of ``options`` ("forest" or "terrain", ``ChooseTerrain``)."""

    kind: str
    units: tuple[str, ...]
    options: tuple[str, ...] = ()


DecisionChoice = ResolveChoice | RetreatChoice | LossesChoice | AdvanceChoice | RallyChoice | BeforeCombatChoice


def decision_choice(state: State) -> DecisionChoice | None:
    """The options of the first pending decision."""
    if not state.pending:
        return None
    head = state.pending[0]
    if isinstance(head, PendingAttack):
        # 7.9 (revised 8.9 on its own table)
        return ResolveChoice(attack=head, columns=tuple(state.game.ruleset.procedures.combat.reductions(state, head)))
    if isinstance(head, PendingRetreat):
        options = retreat_options(state, head.unit, displaced=head.cause == "displaced", chain=head.chain)
        return RetreatChoice(head.unit, state.positions.get(head.unit, ""), tuple(options), head.optional)
    if isinstance(head, PendingLosses):
        return LossesChoice(head.at_least, tuple(loss_options(state, head)))
    if isinstance(head, PendingAdvance):
        return AdvanceChoice(tuple(advance_options(state, head)))
    if isinstance(head, PendingRally):
        return RallyChoice(head.units)
    if isinstance(head, PendingBeforeCombat):
        if head.what == "terrain":
            from rules.revised.combat_procedures import terrain_choices

            return BeforeCombatChoice(head.what, (), terrain_choices(state))
        return BeforeCombatChoice(head.what, head.units)
    return None


def _train_too_near(game, h: str, target: str, unit: str) -> bool:
    """Olustee 19.5: a Train serving as artillery "may not attack adjacent Enemy units" (nearer than its
    ``min_range``)."""
    gun = game.battle.train_artillery
    return gun is not None and gun.binds(unit) and game.grid.distance(h, target) < gun.min_range


def _bombards(state: State, h: str, unit: str, ezoc) -> bool:
    """May ``unit`` at ``h`` bombard now: artillery in no enemy zone (8.41), or a gunboat, which no
    enemy zone affects (revised 9.64, 9.65)."""
    kind = state.game.units[unit].type
    if kind == GUNBOAT:
        return may_attack(state, unit)
    march = state.game.battle.forced_march
    if march is not None and march.may_not_bombard(state, unit):  # Grand Chancellorsville 23.23
        return False
    rifled = state.game.battle.rifled_artillery
    if rifled is not None and rifled.may_not_bombard(state, unit):  # Road to Vicksburg 19.2
        return False
    return kind == "artillery" and h not in ezoc and may_attack(state, unit)
