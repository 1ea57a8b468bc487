"""Road to Vicksburg 19.5, 19.6 (the battle's ``counterattack``, rules/core/components/counterattack.py):
when the units' first attack is the counterattack, what it adds to the attacks (19.53 i, ii: read by
rules/revised/combat_procedures.py), the record of it (an ``after_command`` hook), the advance it allows
(19.53 iii: rules/procedures/retreat.py) and the Ammunition Depletion die (19.61, 19.62: a phase roll)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.components.counterattack import ADVANCED, DEPLETION_ROLLED, FORGONE, MADE
from rules.core.decisions import PendingCounterattackAdvance
from rules.core.events import (
    AmmunitionDepletionRolled,
    AttackDeclared,
    CounterattackAdvanced,
    CounterattackRecorded,
    DecisionsAwaited,
)
from rules.core.handlers import only_with
from rules.core.state import MOVEMENT, State

if TYPE_CHECKING:
    from rules.core.events import Event
    from rules.core.handlers import Dice


def begins_now(state: State, attackers) -> bool:
    """19.52: would an attack of ``attackers`` declared now be the counterattack? The units' first attack
    (none made yet), one of them in it, the two stacked with or adjacent to each other (ii), and the other
    in the same attack or bound to attack in this Combat Phase (i: "Both units attack in the same Combat
    Phase"; revised 8.12: a unit in an Enemy Zone of Control must attack)."""
    c = state.game.battle.counterattack
    if c is None or c.settled(state) or state.phasing != c.side:
        return False
    attackers = set(attackers)
    if not attackers & set(c.units) or not c.together(state):
        return False
    from rules.procedures.combat import engagement

    eng = engagement(state)
    for other in c.units:
        if other in attackers:
            continue
        h = state.positions[other]
        if other in state.attacked or h not in eng.units or other not in eng.owing(h, attackers):
            return False
    return True


def strength_factor(state: State, unit: str, attackers) -> int:
    """19.53 i: the multiple of ``unit``'s Combat Strength in an attack of ``attackers`` now."""
    c = state.game.battle.counterattack
    if c is None or unit not in c.units:
        return 1
    if c.in_force(state) or begins_now(state, attackers):
        return c.strength_factor
    return 1


def die_modifier(state: State, attackers) -> int:
    """19.53 ii: "Any die rolls for their attacks are modified by subtracting one" (resolved after the
    declaration has recorded the counterattack)."""
    c = state.game.battle.counterattack
    return 0 if c is None else c.die(state, attackers)


def advance_decisions(state: State, side: str, movers, hexes) -> tuple[tuple[str, ...], tuple[PendingCounterattackAdvance, ...]]:
    """19.53 iii: of the ``movers`` that may advance into the vacated ``hexes`` after an attack, the units
    of the counterattack in force get each their own advance (a: "an exception to the rule that no more
    than one unit can advance into a given hex"); returns the others and those decisions."""
    c = state.game.battle.counterattack
    if c is None or c.advance_hexes <= 1 or side != c.side or not c.in_force(state):
        return tuple(movers), ()
    own = tuple(PendingCounterattackAdvance(side=side, units=(u,), hexes=tuple(hexes)) for u in movers if u in c.units)
    return tuple(u for u in movers if u not in c.units), own


def advance_hexes(state: State, head: PendingCounterattackAdvance) -> list[str]:
    """19.53 iii: where the unit of ``head`` may advance now: the first hex one its attack vacated (c),
    then any adjacent hex; "regardless of Terrain" but never across a prohibited hexside nor into a hex
    no unit may enter (b), nor into an enemy-held hex."""
    from rules.queries.zoc import enemy_occupied

    game = state.game
    unit = head.units[0]
    here = state.positions.get(unit)
    if here is None:
        return []
    around = game.neighbours[here]
    enemy = enemy_occupied(state, head.side)
    candidates = [h for h in head.hexes if h in around] if head.entered == 0 else sorted(around)
    return [h for h in candidates if h not in enemy and game.step_problem(here, h) is None and _room(state, unit, h)]


def _room(state: State, unit: str, hex_: str) -> bool:
    """Ruling (docs/RULINGS.md): 19.53 iii a) lifts the one-unit advance, not the stacking limit (6.32;
    Road to Vicksburg 19.4): the brigade enters only a hex it may end the phase in (it may stop anywhere)."""
    from rules.queries import stacking

    game = state.game
    here = [u for u, h in state.positions.items() if h == hex_ and u != unit]
    if sum(stacking.weight(state, u) for u in here) + stacking.weight(state, unit) > stacking.limit(state):
        return False
    rule = game.battle.stacking
    if rule is not None and rule.at_most_one:
        sizes = {u: game.units[u].size for u in (*here, unit)}
        if rule.sized_crowded({u: hex_ for u in (*here, unit)}, sizes) is not None:
            return False
    return True


def after_advance(state: State, head: PendingCounterattackAdvance, unit: str) -> list[Event]:
    """19.53 iii d), 19.62: after ``unit`` advanced one hex (``state`` after it): the hexes advanced so
    far recorded, and the next hex offered unless it entered an Enemy Zone of Control ("The advance must
    cease immediately ... this includes the first hex entered") or the limit is reached."""
    from rules.queries.zoc import enemy_controlled

    c = state.game.battle.counterattack
    entered = head.entered + 1
    out: list[Event] = [CounterattackAdvanced(unit=unit, hexes=entered)]
    if c is not None and entered < c.advance_hexes and state.positions.get(unit) not in enemy_controlled(state, head.side):
        nxt = PendingCounterattackAdvance(side=head.side, units=(unit,), hexes=(), entered=entered)
        out.append(DecisionsAwaited(decisions=(nxt,), first=True))
    return out


@only_with("counterattack")
def record(state: State, events: list[Event], after: State) -> list[Event]:
    """19.52: the first attack one of the units takes part in is the counterattack, or forgoes it (an
    ``after_command`` hook; ``state`` is before the declaration)."""
    c = state.game.battle.counterattack
    if c is None or c.settled(state):
        return []
    for e in events:
        if isinstance(e, AttackDeclared):
            attackers = (*e.attack.attackers, *e.attack.bombarding)
            if any(u in c.units for u in attackers):
                bonus = begins_now(state, attackers)
                return [
                    CounterattackRecorded(
                        side=c.side, turn=state.turn, units=tuple(u for u in c.units if u in attackers), bonus=bonus,
                        case=state.game.case("counterattack"),
                    )
                ]
    return []


def apply_recorded(state: State, event: CounterattackRecorded) -> None:
    state.scored.add(f"{MADE}{event.turn}" if event.bonus else FORGONE)


def apply_advanced(state: State, event: CounterattackAdvanced) -> None:
    """19.62: the unit's advance so far (the longest counts)."""
    state.scored.difference_update({k for k in state.scored if k.startswith(f"{ADVANCED}{event.unit}:")})
    state.scored.add(f"{ADVANCED}{event.unit}:{event.hexes}")


@only_with("counterattack")
def roll_depletion(state: State, dice: Dice | None) -> list[Event]:
    """19.61, 19.62: the Ammunition Depletion die, at the start of the side's Movement Phase of the
    Game-Turn after the counterattack; on a modified '1-2' (``runs_out_at_most``) the units on the map are
    replaced by their "Out of Ammo" units."""
    c = state.game.battle.counterattack
    if c is None or state.phase != MOVEMENT or state.game_over or not c.depletion_due(state):
        return []
    from rules.procedures.combat import roll

    d = roll(dice, "the Ammunition Depletion die (19.61)")
    modifier = c.depletion_modifier(state)
    out = d + modifier <= c.depletion.runs_out_at_most
    replaced = tuple((u, spare) for u, spare in c.replaced_by().items() if out and u in state.positions)
    return [
        AmmunitionDepletionRolled(
            side=c.side, turn=state.turn, roll=d, modifier=modifier, out=out, replaced=replaced,
            case=state.game.case("counterattack.depletion"),
        )
    ]


def apply_depletion_rolled(state: State, event: AmmunitionDepletionRolled) -> None:
    """19.61: "Replace the Green and Cockrell brigade units with the reduced Combat Strength units that
    have 'Out of Ammo' printed on them": each takes the hex and the morale of the unit it replaces, which
    leaves the map without being eliminated."""
    state.scored.add(DEPLETION_ROLLED)
    for unit, spare in event.replaced:
        h = state.positions.pop(unit, None)
        if h is None:
            continue
        state.positions[spare] = h
        level = state.morale.pop(unit, None)
        if level is not None:
            state.morale[spare] = level
