"""Activation of early reinforcements (Road to Richmond 17.4, 17.5, 22.14): the battle rule of the
``[exclusive.early_arrival]`` block, whose settings are rules/core/components/early_arrival.py (how far
the activation brings the reinforcements forward is asked by rules/procedures/reinforcements.py).

An ``after_command`` hook: during the Movement or Combat Phase of the component's side, when a unit of
that side is on a trigger hex (17.4 i), ii)) before or after a command, or passes through one in it,
activation happens: ``VictoryPointsAwarded`` kind ``early_arrival`` (22.14's points, subject the
Game-Turn) records it. Rulings (docs/RULINGS.md): "exists during some part of its Movement or Combat
Phase" counts a unit that stands on such a hex in that phase, whatever brought it there, and one whose
move or advance passes through one; only while an activation would bring some reinforcement forward
(up to Game-Turn Eleven in Road to Richmond: from Twelve, 17.5's earliest is the chart's own Game-Turn),
since 22.14 pays for triggering "Early Arrival" (the Confederate Game-Turn Fifteen reinforcements entering
at 0117, south of the Chickahominy, would otherwise activate in every game).
"""

from __future__ import annotations

from rules.core.battle_rule import BattleRule
from rules.core.events import Event, VictoryPointsAwarded
from rules.core.scenario import other_side
from rules.core.state import COMBAT, MOVEMENT, State


def trigger_hexes(game) -> frozenset[str]:
    """17.4 i), ii): the hexes of the areas and those within range of the named hexes; once per game."""
    cached = game.__dict__.get("_early_arrival_hexes")
    if cached is None:
        ea = game.battle.early_arrival
        hexes: set[str] = set()
        if ea is not None:
            areas = game.scenario.map.areas
            for a in ea.areas:
                hexes.update(areas.get(a, ()))
            for near in ea.near:
                hexes.update(h for h in game.terrain if any(game.grid.distance(h, n) <= near.within for n in near.hexes))
        cached = frozenset(hexes)
        game.__dict__["_early_arrival_hexes"] = cached
    return cached


def triggered(state: State, events: list[Event], after: State) -> bool:
    """17.4: does a unit of the side stand on, or pass through, a trigger hex in this command of its
    Movement or Combat Phase?"""
    game = state.game
    ea = game.battle.early_arrival
    if state.phasing != ea.side or state.phase not in (MOVEMENT, COMBAT) or state.game_over:
        return False
    hexes = trigger_hexes(game)
    units = game.units
    for s in (state, after):
        if any(h in hexes for u, h in s.positions.items() if units[u].side == ea.side):
            return True
    for e in events:
        path = getattr(e, "path", None)
        unit = getattr(e, "unit", None)
        if path and unit in units and units[unit].side == ea.side and any(h in hexes for h in path):
            return True
    return False


def activate(state: State, events: list[Event], after: State) -> list[Event]:
    """17.4, 22.14: the activation a command brings about, once in the game."""
    ea = state.game.battle.early_arrival
    if ea is None or not events or ea.activated(state.scored) is not None or not ea.brings_forward(state.turn):
        return []  # Ruling: an activation that brings no reinforcement forward triggers no Early Arrival (22.14)
    if not triggered(state, events, after):
        return []
    case = state.game.case("early_arrival")
    sides = list(ea.points) or [other_side(ea.side)]
    return [
        VictoryPointsAwarded(side=s, points=ea.points.get(s, 0), kind="early_arrival", subject=str(state.turn), case=case)
        for s in sides
    ]


class EarlyArrivalRule(BattleRule):
    """The mechanism (rules/core/battle_rule.py): activation after a command; ``late``, after the revised
    book's 12.17, where its table had it."""

    component = "early_arrival"
    books = frozenset({"revised"})
    late = True

    def after_command(self, state: State, events: list[Event], after: State) -> list[Event]:
        return activate(state, events, after)  # 17.4, 22.14
