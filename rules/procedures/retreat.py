"""Retreat, displacement and advance after combat (1975 7.7, 7.8; Chattanooga 16.11, 17.13, 19.13).

Each is a decision of the owning player (rules/core/decisions.py), made one unit at a time in the order
the game lists them; the defender makes his own retreats during the attacker's Combat Phase.

Retreat (7.71–7.73): one hex, to a hex no enemy controls, not enemy-occupied (5.12), not into
prohibited terrain or across a prohibited hexside (the moves of Game.step_problem: rivers, creeks
without bridge or ford, ferry hexes except through their arrows), stacking kept (a friendly hex with
room). Two units of one hex may go different ways. No hex open: eliminated (7.72).
- 19.13: a retreat into a ferry hex (through its arrow) eliminates the unit.
- 16.11: Union artillery (except 1a Sherman) is eliminated instead of retreating.
- Trains (Chickamauga 19.21, 19.23, 19.24; rules/core/components/trains.py): a train retreats only
  through a road or trail hexside and never into an occupied hex; no unit retreats into a train's hex;
  a train never displaces nor is displaced. Where that leaves no retreat, the unit is eliminated.

Displacement (7.81, 7.82): only when no hex is open (a ferry hex counts as open), into a friendly
hex that is full; the unit chooses which unit of the stack it displaces; the displaced unit is moved
back by its owner as if retreating (next decision, before any other), and may itself displace
(chains) only when it has no other hex; a displacement is allowed only if the displaced unit can
go somewhere without anyone being eliminated, otherwise the retreating unit is eliminated instead;
displaced artillery of the phasing side that has not yet fought may not fire that phase.

Advance (7.75, 7.76): one victorious unit that took part may move into one hex the combat left
empty, adjacent to it, whatever the zones of control, never across a prohibited hexside; decided at
once (before any other combat); never forced (``Decline``); the advanced unit neither attacks nor
is attacked again that phase. 16.11: immobile Union artillery never advances. 11.2 (optional):
an ineffective unit does not advance into an enemy-controlled hex.

17.13: retreats and advances are not moves of the Movement Phase and use no movement quota.
17.15: a hex entered by retreat or advance is "moved through" (control).

Rulings (docs/RULINGS.md):
- Order of retreats: the units retreat one at a time in the order of the combat's listing (by hex,
  then unit); each one's hexes are those open when its turn comes.
- A chain of displacements is at most six units long and never displaces a unit of the same chain
  twice (7.82 allows a unit to be displaced more than once per phase, not in a loop).
- 19.13 "forced to retreat into a Ferry Hex": a unit is forced into a ferry hex (and eliminated) only
  when nothing else is open to it, displacement included (docs/RULINGS.md); a displaced unit never
  goes into one (it would be eliminated, 7.82).
"""

from __future__ import annotations

from typing import NamedTuple

import msgspec

from rules.core.commands import Advance, Decline, Retreat
from rules.core.decisions import (
    PendingAdvance,
    PendingCounterattackAdvance,
    PendingRetreat,
    first_pending,
    made,
)
from rules.core.errors import RuleViolation
from rules.core.events import (
    DecisionDeclined,
    DecisionsAwaited,
    Event,
    UnitAdvanced,
    UnitEliminated,
    UnitExited,
    UnitRetreated,
)
from rules.core.handlers import Dice
from rules.core.state import State
from rules.procedures import counterattack
from rules.procedures.outcomes import Emitter, auto_single_choice, settle
from rules.procedures.trains import beside_enemy
from rules.queries import stacking
from rules.queries.control import entered
from rules.queries.zoc import enemy_controlled, enemy_occupied

MAX_CHAIN = 6  # Ruling: the longest chain of displacements considered (7.82)


# -- commands and events -------------------------------------------------------------------------


class RetreatOption(msgspec.Struct, frozen=True):
    """A hex ``to`` a unit may retreat into; ``displace``: the unit it must displace there (7.81);
    ``eliminated``: the retreat eliminates it (a ferry hex, 19.13)."""

    to: str
    displace: str | None = None
    eliminated: bool = False


class AdvanceOption(msgspec.Struct, frozen=True):
    unit: str
    to: str


# -- where a unit may retreat ------------------------------------------------------------------------
class _Around(NamedTuple):
    """The hexes around a retreating unit, by what a retreat into each would be."""

    open: list[RetreatOption]  # open to it (7.72, 7.73)
    full: list[str]  # friendly hexes that would be open but for stacking: it might displace there (7.81)
    ferries: list[RetreatOption]  # ferry hexes a retreat into would eliminate it (19.13)
    barred: str | None  # the case of a train's rule that closed a hex otherwise open (19.23, 19.24)


def _around(state: State, unit: str, here: str, displaced: bool) -> _Around:
    game = state.game
    side = game.units[unit].side
    ezoc = enemy_controlled(state, side)
    enemies = enemy_occupied(state, side)
    limit = stacking.limit(state)  # 7.72 with 6.32; Olustee 18.2: Combat Strength Points
    mine = stacking.weight(state, unit)
    ferries_eliminate = game.battle.ferries is not None
    trains = game.battle.trains
    roads = game.step_cost_for(unit) if game.road_bound(unit) else None  # 19.23, 21.23: roads and trails only
    is_train = game.is_train(unit)
    with_train = frozenset(h for u, h in state.positions.items() if u != unit and game.is_train(u)) if trains else ()
    open_: list[RetreatOption] = []
    full: list[str] = []
    ferries: list[RetreatOption] = []
    barred = None
    alone = game.stacking_barred(state.positions, unit)  # First Bull Run 17.2
    crossing = game.crossing_barred.get(game.units[unit].type, ())  # Road to Vicksburg 19.12
    for n in game.neighbours[here]:
        if n in enemies or n in ezoc or game.step_problem(here, n) is not None:
            continue
        if (here, n) in crossing:
            barred = barred or "creeks"  # 19.12: artillery crosses Jackson's Creek only at a bridge or ford
            continue
        if n in alone:
            barred = barred or "stacking.alone"  # 17.2: no unit stacks with Runyon's, nor he with another
            continue
        if roads is not None and (here, n) not in roads:
            barred = barred or "trains.retreat"  # 19.23: never through a non-road, non-trail hexside
            continue
        if n in game.ferry_hexes:
            if ferries_eliminate and not displaced:
                ferries.append(RetreatOption(n, eliminated=True))  # 19.13
            continue
        occupants = sum(stacking.weight(state, u) for u, h in state.positions.items() if h == n)
        if n in with_train or (is_train and occupants):
            if trains.displacement:  # Road to Richmond 21.16: "may Displace and be Displaced"
                full.append(n)  # 21.13: a train stacks with none, so the hex is full either way
                continue
            barred = "trains.displacement"  # 19.21: no stacking with a train; 19.24: no displacing
            continue
        if occupants + mine <= limit:
            open_.append(RetreatOption(n))
        else:
            full.append(n)
    return _Around(open_, full, ferries, barred)


def retreat_options(state: State, unit: str, displaced: bool = False, chain: tuple[str, ...] = ()) -> list[RetreatOption]:
    """Every legal retreat of ``unit`` now (7.71–7.82; 16.11, 19.13); [] when it must be eliminated.
    ``displaced``: the unit is being displaced (7.81: never into a hex where it would be eliminated);
    ``chain``: the units of its chain of displacements, which it may not displace again (Ruling, 7.82:
    without it two full hexes could displace each other's units for ever)."""
    if unit not in state.positions or state.game.battle.retreat_eliminates(state.game.units[unit]):
        return []
    here = state.positions[unit]
    open_, full, ferries, _ = _around(state, unit, here, displaced)
    if open_:
        return _unrestricted_first(state, unit, here, open_)  # 7.82: no displacement while another path is open
    out = []
    before = frozenset({unit, *chain})
    for n in full:
        for d in state.units_in(n):
            if d not in before and _displaceable(state, unit, n, d, 1 + len(chain), before):
                out.append(RetreatOption(n, displace=d))
    return out or ferries  # 19.13: "forced" into a ferry hex only when nothing else is open


def _restriction(state: State, unit: str):
    """Wilderness 18.11, 18.12: the battle's terrain restrictions binding ``unit`` now, or None."""
    r = state.game.battle.terrain_restrictions
    return r if r is not None and r.binds(state.turn, state.game.units[unit].side) else None


def _unrestricted_first(state: State, unit: str, here: str, open_: list[RetreatOption]) -> list[RetreatOption]:
    """Wilderness 18.14: a unit retreats into a hex it is prohibited from entering during the Movement
    Phase "only if it is the sole path of retreat open to them": the others first (a retreat never
    enters an enemy zone of control, so the exemption of 18.11 plays no part)."""
    r = _restriction(state, unit)
    if r is None:
        return open_
    side = state.game.units[unit].side
    allowed = [o for o in open_ if r.step_problem(state.game, state.turn, side, here, o.to, False) is None]
    return allowed or open_


def _displaceable(state: State, mover: str, hex_: str, unit: str, depth: int, chain: frozenset[str]) -> bool:
    """7.81, 7.82: may ``mover`` take ``unit``'s place in ``hex_``? Only if ``unit`` can then be moved
    back without anyone being eliminated (through a chain of displacements if it has no other hex)."""
    if state.game.battle.retreat_eliminates(state.game.units[unit]):
        return False  # 16.11: it would be eliminated
    after = state.copy()
    after.positions[mover] = hex_
    open_, full, _, _ = _around(after, unit, hex_, displaced=True)
    if open_:
        return True
    if depth >= MAX_CHAIN:
        return False
    chain = chain | {unit}
    return any(
        _displaceable(after, unit, n, d, depth + 1, chain) for n in full for d in after.units_in(n) if d not in chain
    )


def elimination_case(state: State, unit: str) -> str:
    """The case that eliminates a unit with no retreat: 16.11, 7.82 (only displacements, each of which
    would eliminate), a train's rule (19.23 no road or trail open; 19.24 a train in the way, or a train
    with only occupied hexes), or 7.72 (no hex open)."""
    game = state.game
    if game.battle.symbolic(unit):
        return game.case("symbolic_units.retreat")  # Road to Vicksburg 18.1
    if state.game.battle.retreat_eliminates(state.game.units[unit]):
        return game.case("immobile_artillery")
    around = _around(state, unit, state.positions[unit], False)
    if around.full:
        return game.case("displacement_eliminates")
    return game.case(around.barred or "retreat_blocked")


def _retreat_events(state: State, head: PendingRetreat, option: RetreatOption) -> list[Event]:
    game = state.game
    if option.eliminated:
        return [UnitEliminated(unit=head.unit, case=game.case("ferries.retreat"))]
    return [
        UnitRetreated(
            unit=head.unit, path=(state.positions[head.unit], option.to), cause=head.cause, displaces=option.displace
        )
    ]


def automatic_retreat(state: State, head: PendingRetreat) -> list[Event] | None:
    if head.unit not in state.positions:
        return [DecisionDeclined(side=head.side, kind="retreat", reason="the unit is no longer on the map")]
    if head.cause == "train" and not beside_enemy(state, head.unit):
        return [DecisionDeclined(side=head.side, kind="retreat", reason="no enemy unit is beside it now")]  # 19.11
    if head.optional and state.game.battle.retreat_eliminates(state.game.units[head.unit]):
        return [DecisionDeclined(side=head.side, kind="retreat", reason="the unit may not be moved")]
    options = retreat_options(state, head.unit, displaced=head.cause == "displaced", chain=head.chain)
    if not options:
        if head.optional:
            return [DecisionDeclined(side=head.side, kind="retreat", reason="no hex is open")]
        exits = state.game.battle.exits
        here = state.positions[head.unit]
        if exits is not None and state.game.units[head.unit].side in exits.retreat_off and here in exits.hexes:
            # Hooker and Lee 18.21: "Confederate units exiting the map sheet through these hexes for any
            # reason, even as a result of combat, are not considered eliminated"
            return [UnitExited(unit=head.unit, path=(here,), cost=0)]
        return [UnitEliminated(unit=head.unit, case=elimination_case(state, head.unit))]
    if len(options) == 1 and not head.optional and auto_single_choice(state):
        return _retreat_events(state, head, options[0])
    return None


# -- where a unit may advance ------------------------------------------------------------------------
def advance_options(state: State, head: PendingAdvance) -> list[AdvanceOption]:
    """7.75, 7.76: each (unit, vacated hex) pair an advance may take now (Road to Vicksburg 19.53 iii: a
    unit of the counterattack, hex by hex)."""
    game = state.game
    if isinstance(head, PendingCounterattackAdvance):
        u = head.units[0]
        if _may_never_advance(state, u) is not None:
            return []
        return [AdvanceOption(u, h) for h in counterattack.advance_hexes(state, head)]
    occupied = set(state.positions.values())
    vacated = [h for h in head.hexes if h not in occupied]
    if not vacated:
        return []
    out = []
    ezoc = None
    for u in head.units:
        here = state.positions.get(u)
        if here is None or u in state.advanced or state.game.battle.may_not_advance(state.game.units[u]):  # 16.11; revised 8.76
            continue
        if _may_never_advance(state, u) is not None:  # revised 9.47, 12.35: offered only what decide accepts
            continue
        for h in vacated:
            if h not in game.neighbours[here] or game.step_problem(here, h) is not None:
                continue
            if u in state.ineffective:  # 11.2
                ezoc = enemy_controlled(state, head.side) if ezoc is None else ezoc
                if h in ezoc:
                    continue
            r = _restriction(state, u)
            if r is not None:  # Wilderness 18.14: never into a hex prohibited in the Movement Phase
                ezoc = enemy_controlled(state, head.side) if ezoc is None else ezoc
                if r.step_problem(game, state.turn, head.side, here, h, h in ezoc) is not None:
                    continue
            out.append(AdvanceOption(u, h))
    return out


def automatic_advance(state: State, head: PendingAdvance) -> list[Event] | None:
    if not advance_options(state, head):
        return [DecisionDeclined(side=head.side, kind="advance", reason="no unit may advance")]
    return None


# -- the commands ----------------------------------------------------------------------------------
def _head(state: State, kind: type, what: str):
    head = first_pending(state)
    if not isinstance(head, kind):
        waiting = "nothing" if head is None else f"a decision of another kind ({head.__struct_config__.tag})"
        raise state.game.violation("sequence", f"no {what} is awaited now; the game waits for {waiting}")
    return head


def decide_retreat(state: State, command: Retreat, dice: Dice | None) -> list[Event]:
    game = state.game
    head = _head(state, PendingRetreat, "retreat")
    if command.unit != head.unit:
        raise game.violation(
            "retreat",
            f"{game.designation(head.unit)} retreats next; {game.designation(command.unit)} may not retreat now",
        )
    options = retreat_options(state, head.unit, displaced=head.cause == "displaced", chain=head.chain)
    for option in options:
        if option.to == command.to and option.displace == command.displace:
            emit = Emitter(state)
            emit(*_retreat_events(state, head, option))
            settle(emit)
            return emit.events
    raise _why_not(state, head.unit, command, options)


def _why_not(state: State, unit: str, command: Retreat, options: list[RetreatOption]) -> RuleViolation:
    game = state.game
    name = game.designation(unit)
    here = state.positions[unit]
    to = command.to
    side = game.units[unit].side
    if to not in game.neighbours.get(here, ()):
        return game.violation("retreat", f"{name} retreats one hex from {here}; {to} is not next to it")
    if to in enemy_occupied(state, side):
        return game.violation("enemy_occupied", f"{name} may not retreat into {to}: it holds an enemy unit")
    if to in enemy_controlled(state, side):
        return game.violation("retreat_blocked", f"{name} may not retreat into {to}: an enemy unit controls it")
    problem = game.step_problem(here, to)
    if problem is not None:
        return game.violation("retreat_blocked", f"{name} may not retreat from {here} to {to}: {problem[1]}")
    if any(o.displace is None for o in options):
        if command.displace is not None:
            return game.violation(
                "displacement_eliminates",
                f"{name} has another path of retreat open and may not displace {game.designation(command.displace)}",
            )
        return game.violation("retreat_stacking", f"{name} may not retreat into {to}: no room in it (stacking)")
    if command.displace is None:
        return game.violation(
            "displacement", f"{to} is full: {name} may retreat there only by displacing one of its units"
        )
    return game.violation(
        "displacement_eliminates",
        f"{name} may not displace {game.designation(command.displace)} at {to}: the displaced unit could not "
        "retreat without a unit being eliminated",
    )


def decide_advance(state: State, command: Advance, dice: Dice | None) -> list[Event]:
    game = state.game
    problem = _may_never_advance(state, command.unit)
    if problem is not None:
        raise problem
    head = _head(state, PendingAdvance, "advance")
    options = advance_options(state, head)
    if AdvanceOption(command.unit, command.to) not in options:
        if command.unit not in head.units:
            raise game.violation(
                "advance", f"{game.designation(command.unit)} did not take part in the combat as a victor and may not advance"
            )
        if state.game.battle.may_not_advance(state.game.units[command.unit]):
            raise game.violation("immobile_artillery", f"{game.designation(command.unit)} may not advance after combat")
        r = _restriction(state, command.unit)
        here = state.positions.get(command.unit)
        if r is not None and here is not None and command.to in game.neighbours[here]:
            ezoc = enemy_controlled(state, head.side)
            why = r.step_problem(game, state.turn, head.side, here, command.to, command.to in ezoc)
            if why is not None:  # Wilderness 18.14
                raise game.violation(
                    "terrain_restrictions.advance", f"{game.designation(command.unit)} may not advance after combat: {why}"
                )
        raise game.violation(
            "advance",
            f"{game.designation(command.unit)} may not advance into {command.to}: only into an adjacent hex the "
            f"combat vacated ({', '.join(head.hexes)})",
        )
    emit = Emitter(state)
    emit(UnitAdvanced(unit=command.unit, path=(state.positions[command.unit], command.to)))
    if isinstance(head, PendingCounterattackAdvance):  # Road to Vicksburg 19.53 iii, 19.62
        emit(*counterattack.after_advance(emit.state, head, command.unit))
    settle(emit)
    return emit.events


def _may_never_advance(state: State, unit: str) -> RuleViolation | None:
    """Revised 9.47: artillery never advances after combat; 12.35: nor a Routed unit."""
    game = state.game
    u = game.units.get(unit)
    if u is None:
        return None
    if u.type == "artillery" and not game.ruleset.artillery_advances:
        return game.violation("artillery_advance", f"{u.designation} is artillery: artillery units may never advance after combat")
    if state.morale.get(unit) == "routed":
        return game.violation("routed_advance", f"{u.designation} is Routed: a Routed unit may not advance after combat")
    return None


def decide_decline(state: State, command: Decline, dice: Dice | None) -> list[Event]:
    game = state.game
    head = first_pending(state)
    if isinstance(head, PendingAdvance):
        kind = "advance"
    elif isinstance(head, PendingRetreat) and head.optional:
        kind = "retreat"
    elif isinstance(head, PendingRetreat):
        raise game.violation("retreat", f"{game.designation(head.unit)} must retreat; the retreat is not optional")
    else:
        raise game.violation("sequence", "there is no optional decision to decline now")
    emit = Emitter(state)
    emit(DecisionDeclined(side=head.side, kind=kind, reason="declined"))
    settle(emit)
    return emit.events


# -- evolvers --------------------------------------------------------------------------------------
def apply_unit_retreated(state: State, event: UnitRetreated) -> None:
    game = state.game
    pending = state.pending
    chain: tuple[str, ...] = (event.unit,)
    if pending and isinstance(pending[0], PendingRetreat) and pending[0].unit == event.unit:
        chain = (*pending[0].chain, event.unit)
        pending = pending[1:]
    to = event.path[-1]
    state.positions[event.unit] = to
    side = game.units[event.unit].side
    entered(state, side, (to,))  # 17.15
    if event.displaces is not None:
        d = event.displaces
        # 7.82: displaced artillery of the phasing side that has not yet fought may not fire.
        if game.units[d].type == "artillery" and game.units[d].side == state.phasing and d not in state.attacked:
            state.silenced.add(d)
        pending = [PendingRetreat(side=side, unit=d, cause="displaced", chain=chain), *pending]
    state.pending = pending


def apply_unit_advanced(state: State, event: UnitAdvanced) -> None:
    made(state, PendingAdvance)
    to = event.path[-1]
    state.positions[event.unit] = to
    state.advanced.add(event.unit)  # 7.75: neither attacks nor is attacked again this phase
    entered(state, state.game.units[event.unit].side, (to,))  # 17.15


__all__ = [
    "Advance",
    "AdvanceOption",
    "Decline",
    "DecisionsAwaited",
    "Retreat",
    "RetreatOption",
    "UnitAdvanced",
    "UnitRetreated",
    "advance_options",
    "retreat_options",
]
