"""A train's automatic retreat (Chickamauga 19.11; the ``trains`` component,
rules/core/components/trains.py).

19.11: "If circumstances result in it being adjacent to a Confederate unit during the Union Player Combat
Phase, it must automatically retreat. In this instance a Confederate unit may not advance into the
vacated hex." Read for any train of the battle: a train beside an enemy unit during its own side's
Combat Phase retreats, as a unit retreats after combat (rules/procedures/retreat.py: one hex, with the
train's own limits 19.21, 19.23, 19.24); no advance follows, since no combat vacated its hex.

Ruling (docs/RULINGS.md): the train retreats each time it comes to be beside an enemy unit in that
phase: when the phase begins with it there, or when a command of the phase puts an enemy unit beside
it (an enemy retreat or advance). A retreat that leaves it beside another enemy unit (across a hexside
no zone of control crosses) does not start another.
"""

from __future__ import annotations

from rules.core import terrain
from rules.core.decisions import PendingAdvance, PendingRetreat
from rules.core.events import DecisionsAwaited, Event
from rules.core.handlers import only_with
from rules.core.scenario import other_side
from rules.core.state import COMBAT, State
from rules.procedures.outcomes import Emitter, settle


def beside_enemy(state: State, unit: str) -> bool:
    """Is ``unit`` adjacent to an enemy unit (19.11: adjacent, whatever the zones of control)? Road to
    Richmond 21.11 (``beside_across_creeks = false``): not counting one "on the other side of a
    non-bridge or ford creek (not stream) hex side"."""
    game = state.game
    here = state.positions.get(unit)
    if here is None:
        return False
    side = game.units[unit].side
    around = game.neighbours[here]
    trains = game.battle.trains
    across = trains is None or trains.beside_across_creeks
    features = game.scenario.map.features
    return any(
        h in around and game.units[u].side != side and (across or not _across_creek(features(here, h)))
        for u, h in state.positions.items()
    )


def _across_creek(features) -> bool:
    """21.11: a non-bridge, non-ford creek hexside (a stream is no creek)."""
    return terrain.CREEK in features and not features & {terrain.BRIDGE, terrain.FORD}


def _beside(state: State, unit: str) -> tuple[str, ...]:
    """The enemy units adjacent to ``unit``."""
    game = state.game
    here = state.positions[unit]
    side = game.units[unit].side
    around = game.neighbours[here]
    return tuple(sorted(u for u, h in state.positions.items() if h in around and game.units[u].side != side))


def _enemy_advance(state: State, unit: str) -> PendingAdvance:
    """Wilderness 18.31: the enemy units beside the train may advance into the hex it leaves (revised
    8.75, 8.76: never artillery nor a Routed unit; the advance is offered once the hex is vacant)."""
    units = state.game.units
    movers = tuple(u for u in _beside(state, unit) if units[u].type != "artillery" and state.morale.get(u) != "routed")
    return PendingAdvance(side=other_side(units[unit].side), units=movers, hexes=(state.positions[unit],))


def _in_own_combat_phase(state: State, unit: str) -> bool:
    return state.phase == COMBAT and state.phasing == state.game.units[unit].side and not state.game_over


@only_with("trains")
def automatic_retreats(state: State, events: list[Event], after: State) -> list[Event]:
    """19.11: after any command, the retreat of each train that has just come to be beside an enemy
    unit in its side's Combat Phase (an ``after_command`` hook; ``state`` is the state before the
    command's events, ``after`` the state after them)."""
    trains = state.game.battle.trains
    if trains is None or not events:
        return []
    owed = [
        u
        for u in trains.units
        if _in_own_combat_phase(after, u)
        and beside_enemy(after, u)
        and not (_in_own_combat_phase(state, u) and state.turn == after.turn and beside_enemy(state, u))
        and not any(isinstance(p, PendingRetreat) and p.unit == u for p in after.pending)
    ]
    if not owed:
        return []
    emit = Emitter(after)
    decisions: list = [PendingRetreat(side=after.phasing, unit=u, cause="train") for u in owed]
    if trains.attacker_retreat:  # Wilderness 18.31: "The Confederate unit(s) ... may advance after combat"
        decisions.extend(_enemy_advance(after, u) for u in owed if _beside(after, u))
    emit(DecisionsAwaited(decisions=tuple(decisions)))
    settle(emit)
    return emit.events
