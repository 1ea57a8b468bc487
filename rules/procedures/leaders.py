"""Leaders (Grand Chancellorsville 23.5; rules/core/components/leaders.py): what becomes of a Leader whose
unit is destroyed, and the points for killing him.

An ``after_command_rolls`` hook (``fates``): after a command whose events eliminate units, 23.56 "Roll a
die for each Leader present with the destroyed combat unit. A die roll of '1' results in the Leader being
killed" (``LeaderKilled``, and 23.58's points: ``VictoryPointsAwarded`` of kind "leader"); "Any other result
requires that the Leader is placed immediately on the nearest unit of his command" (``LeaderPlaced``);
23.53 "If all units within a particular command have been eliminated the commander is removed from play"
(``LeaderRemoved``, no die, no points).

Rulings (docs/RULINGS.md): a Leader is present with a destroyed unit when he was in its hex as the command
began; the die is rolled for any elimination of such a unit (a combat result, a loss taken, a retreat it
could not make). "The nearest unit of his command" is one on the map at the fewest hexes from the
destroyed unit's hex (ties: the first by id); when none of his command is on the map but some are still
to arrive, he waits with the first of those by id.
"""

from __future__ import annotations

from rules.core.components.leaders import KILLED, REMOVED, WITH, Leader, Leaders
from rules.core.events import (
    Event,
    LeaderKilled,
    LeaderPlaced,
    LeaderRemoved,
    ReinforcementLost,
    UnitEliminated,
    VictoryPointsAwarded,
)
from rules.core.handlers import Dice
from rules.core.scenario import other_side
from rules.core.state import State


def fates(state: State, events: list[Event], after: State, dice: Dice | None) -> list[Event]:
    """23.56, 23.53, 23.58: the dice for the Leaders present with the units ``events`` destroyed."""
    rule = state.game.battle.leaders
    if rule is None:
        return []
    gone = [e.unit for e in events if isinstance(e, UnitEliminated | ReinforcementLost)]
    if not gone:
        return []
    from rules.procedures.combat import roll

    game = state.game
    hexes = {state.positions.get(u) for u in gone} - {None}
    out: list[Event] = []
    for leader in rule.leaders:
        if not rule.in_play(after, leader):
            continue
        was = rule.hex_of(state, leader)
        carried_off = rule.unit_of(state, leader) in gone
        if was not in hexes and not carried_off:
            continue
        left = _command_left(after, rule, leader)
        if not left:
            out.append(LeaderRemoved(leader=leader.id, case=game.case("leaders.removed")))  # 23.53
            continue
        die = roll(dice, f"the die for {leader.name} (23.56)")
        if die in rule.killed_on:
            out.append(LeaderKilled(leader=leader.id, roll=die, case=game.case("leaders.killed")))
            side = other_side(leader.side)
            out.append(
                VictoryPointsAwarded(side=side, points=rule.points(leader), kind="leader", subject=leader.id, case=game.case("leaders.points"))
            )  # 23.58
            continue
        origin = was or state.positions.get(rule.unit_of(state, leader))
        out.append(LeaderPlaced(leader=leader.id, unit=_nearest(after, left, origin), roll=die, case=game.case("leaders.killed")))
    return out


def _command_left(state: State, rule: Leaders, leader: Leader) -> list[str]:
    """The units of ``leader``'s command not eliminated (on the map or still to arrive)."""
    game = state.game
    dead = set(state.eliminated)
    return sorted(u for u in game.units if u not in dead and rule.commands(state, leader, u) and game.units[u].type != "gunboat")


def _nearest(state: State, units: list[str], origin: str | None) -> str:
    """23.56: "the nearest unit of his command"."""
    on_map = [u for u in units if u in state.positions]
    if not on_map:
        return units[0]
    if origin is None:
        return on_map[0]
    grid = state.game.grid
    return min(on_map, key=lambda u: (grid.distance(origin, state.positions[u]), u))


def apply_killed(state: State, event: LeaderKilled) -> None:
    state.scored.add(f"{KILLED}{event.leader}")


def apply_removed(state: State, event: LeaderRemoved) -> None:
    state.scored.add(f"{REMOVED}{event.leader}")


def apply_placed(state: State, event: LeaderPlaced) -> None:
    prefix = f"{WITH}{event.leader}:"
    state.scored.difference_update([s for s in state.scored if s.startswith(prefix)])
    state.scored.add(f"{prefix}{event.unit}")
