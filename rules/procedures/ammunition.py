"""Out of ammunition (Olustee 19.1; the ``ammunition`` component, rules/core/components/ammunition.py):
"all Confederate units in an Enemy Zone of Control must during the Combat Phase automatically retreat
one hex. If unable to retreat, the Confederate unit is eliminated."

Read as the train's automatic retreat (rules/procedures/trains.py): as the side's Combat Phase begins,
and whenever a command of that phase leaves one of its units newly in an Enemy Zone of Control, each such
unit retreats one hex as after combat (rules/procedures/retreat.py; eliminated when it cannot); no
advance follows, since no combat vacated its hex.
"""

from __future__ import annotations

from rules.core.components.ammunition import RESUPPLIED
from rules.core.decisions import PendingRetreat
from rules.core.events import AmmunitionResupplied, DecisionsAwaited, Event, ReinforcementEntered, UnitMoved
from rules.core.handlers import only_with
from rules.core.state import COMBAT, State
from rules.procedures.outcomes import Emitter, settle
from rules.queries.communications import supply_line
from rules.queries.zoc import enemy_controlled


def _in_enemy_zoc(state: State) -> set[str]:
    """19.1: the side's units in an Enemy Zone of Control in its Combat Phase, when it is out of
    ammunition (an empty set otherwise)."""
    a = state.game.battle.ammunition
    if a is None or state.game_over or state.phase != COMBAT or state.phasing != a.side:
        return set()
    if not a.side_out(state):
        return set()
    ezoc = enemy_controlled(state, a.side)
    units = state.game.units
    return {
        u for u, h in state.positions.items() if units[u].side == a.side and h in ezoc and a.out_of_ammunition(state, a.side, u)
    }  # 19.3: a re-supplied unit "ignores the restrictions outlined in Case 19.1"


@only_with("ammunition")
def resupply(state: State, events: list[Event], after: State) -> list[Event]:
    """19.3, 19.4: after a command that moved the Train (or brought it onto the map) while its side is out
    of ammunition, the side's units not yet re-supplied that trace a Line of Communication of at most
    ``resupply_path`` hexes to it are re-supplied (an ``after_command`` hook)."""
    a = after.game.battle.ammunition
    if a is None or a.train is None or after.game_over or not a.side_out(after):
        return []
    train = a.train
    if not any(isinstance(e, (UnitMoved, ReinforcementEntered)) and e.unit == train for e in events):
        return []
    at = after.positions.get(train)
    if at is None:
        return []
    units = after.game.units
    fresh = tuple(
        sorted(
            u
            for u, h in after.positions.items()
            if u != train
            and units[u].side == a.side
            and a.out_of_ammunition(after, a.side, u)
            and supply_line(after, a.side, [h], {at}, a.resupply_path)
        )
    )
    if not fresh:
        return []
    return [AmmunitionResupplied(units=fresh, turn=after.turn, case=after.game.case("ammunition.resupply"))]


def apply_resupplied(state: State, event: AmmunitionResupplied) -> None:
    """19.3: the units are re-supplied for good."""
    state.scored.update(f"{RESUPPLIED}{u}" for u in event.units)


@only_with("ammunition")
def automatic_retreats(state: State, events: list[Event], after: State) -> list[Event]:
    """19.1: after any command, the retreat of each unit of the side out of ammunition that is now in an
    Enemy Zone of Control in its Combat Phase and was not before the command (an ``after_command`` hook;
    ``state`` before the command's events, ``after`` after them)."""
    if after.game.battle.ammunition is None or not events:
        return []
    now = _in_enemy_zoc(after)
    if not now:
        return []
    before = _in_enemy_zoc(state) if state.turn == after.turn else set()
    owed = sorted(
        u
        for u in now - before
        if not any(isinstance(p, PendingRetreat) and p.unit == u for p in after.pending)
    )
    if not owed:
        return []
    emit = Emitter(after)
    emit(DecisionsAwaited(decisions=tuple(PendingRetreat(side=after.phasing, unit=u, cause="ammunition") for u in owed)))
    settle(emit)
    return emit.events
