"""Symbolic units (Road to Vicksburg 18.0-18.3, the Union "Train"; the ``symbolic_units`` component,
rules/core/components/symbolic_units.py): what follows from any command for them.

18.3: "If the Train unit is in an Enemy Zone of Control at any time while not stacked with a Friendly
unit, it is eliminated": after every command, a symbolic unit in an enemy-controlled hex with no other
unit of its side there is eliminated. 21.3: the points to the enemy "for each Game-Turn the Union Train
unit is bombarded by Confederate artillery" (an attack on its hex with bombarding artillery, once a
Game-Turn) and "if the Union Train unit moves from its set-up hex" (once).
"""

from __future__ import annotations

from rules.core.events import CombatResolved, Event, UnitEliminated, UnitMoved, VictoryPointsAwarded
from rules.core.handlers import only_with
from rules.core.state import State
from rules.queries.zoc import enemy_controlled

MOVED = "symbolic_moved"
BOMBARDED = "symbolic_bombarded"


def alone_in_enemy_zoc(state: State, unit: str) -> bool:
    """18.3: is ``unit`` in an enemy zone of control with no friendly unit in its hex?"""
    game = state.game
    here = state.positions.get(unit)
    if here is None:
        return False
    side = game.units[unit].side
    if here not in enemy_controlled(state, side):
        return False
    return not any(h == here and u != unit and game.units[u].side == side for u, h in state.positions.items())


@only_with("symbolic_units")
def consequences(state: State, events: list[Event], after: State) -> list[Event]:
    """18.3 and 21.3 after any command (an ``after_command`` hook: ``after`` is the state after its events)."""
    symbolic = state.game.battle.symbolic_units
    if symbolic is None or not events:
        return []
    game = state.game
    out: list[Event] = []
    for u in symbolic.units:
        if alone_in_enemy_zoc(after, u):
            out.append(UnitEliminated(unit=u, case=game.case("symbolic_units.zoc")))
    case = game.case("symbolic_units.points")
    bombarded = symbolic.bombarded
    if bombarded is not None and bombarded.points:
        scored = set(after.scored)
        for e in events:
            if not isinstance(e, CombatResolved) or not e.bombarding or game.units[e.bombarding[0]].side != bombarded.side:
                continue
            for u in symbolic.units:
                key = f"{u}@{after.turn}"
                if u in e.defending and f"{BOMBARDED}:{key}" not in scored:
                    out.append(VictoryPointsAwarded(side=bombarded.side, points=bombarded.points, kind=BOMBARDED, subject=key, case=case))
                    scored.add(f"{BOMBARDED}:{key}")
    moved = symbolic.moved
    if moved is not None and moved.points:
        for u in symbolic.units:
            if f"{MOVED}:{u}" not in after.scored and any(isinstance(e, UnitMoved) and e.unit == u and len(e.path) > 1 for e in events):
                out.append(VictoryPointsAwarded(side=moved.side, points=moved.points, kind=MOVED, subject=u, case=case))
    return out
