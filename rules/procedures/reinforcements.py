"""Reinforcements (Chattanooga 15.1x, driven by each unit's ``arrives`` and ``entry`` hexes and the
scenario parameter ``reinforcements``).

- 15.11: a reinforcement may enter at any time during its side's Movement Phase of its Game-Turn
  (``Unit.arrives``), at one of its entry hexes (``Unit.entry``).
- 15.12: not into an entry hex that is enemy-controlled (in an enemy zone of control) or, 5.12,
  enemy-occupied. With ``lost_if_not_entered``, a reinforcement that has not entered by the end of
  that Movement Phase is eliminated and counts as a unit eliminated (``ReinforcementLost``).
  Without it, a reinforcement may enter in any later Movement Phase of its side.
- 15.13: it pays the terrain cost of the entry hex and may go on moving from there (5.0–5.3).
- 15.14: once on the map it is a unit like any other.
- 15.15: the stacking limit applies as to any move (5.32, at the end of the phase, no dead end).
- Road to Richmond 17.32: an ``alternate_entry`` hex (1901) is an entry hex only while its other hex
  (1301) holds an enemy unit or lies in an enemy zone of control (``alternate_entry_closed``).

Rulings (docs/RULINGS.md):
- 15.12 "not able to enter": every reinforcement not entered by the end of that Movement Phase is
  lost, whether it could not or its player chose not to (15.0: "must arrive" in that phase).
- 15.13: the entry hex costs its terrain's points; a road or trail does not make it cheaper (the unit
  crosses no road hexside of the map to reach it).
- 15.15: passing through an entry hex is free like any other (5.33); the limit holds at the end of
  the phase, with the same no-dead-end check as any move.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.core.arith import movement_points
from rules.core.commands import EnterReinforcement
from rules.core.components.command_control_zone import ENTERED_ON
from rules.core.components.reinforcements import AlternateEntry
from rules.core.errors import RuleViolation
from rules.core.events import Event, ReinforcementEntered, ReinforcementLost
from rules.core.handlers import Dice, apply
from rules.core.state import MOVEMENT, State
from rules.procedures import movement
from rules.queries.control import entered
from rules.queries.exits import has_exited
from rules.queries.zoc import enemy_controlled, enemy_occupied


class StandardEntry:
    """15.11-15.13 (the rule set's procedure ``reinforcement_entry``): at one of the unit's entry
    hexes, never one in an enemy zone of control, for the terrain cost of the entry hex."""

    may_enter_enemy_zoc = False  # 15.12

    def entry_hexes(self, state: State, unit: str) -> list[str]:
        return chart_entry(state, unit)  # 15.11

    def entry_cost(self, state: State, unit: str, hex_: str) -> int | None:
        game = state.game
        return game.ruleset.terrain_cost.get(game.terrain[hex_])  # 15.13


def lost_if_not_entered(state: State) -> bool:
    return state.game.battle.reinforcements.lost_if_not_entered  # 15.12


def chart_entry(state: State, unit: str) -> list[str]:
    """15.11: the entry hexes the chart gives ``unit``; Savage's Station 17.1: for a unit of a group of
    the Reinforcement Table, the hexes of the entry point its roll gave; Road to Richmond 17.32: an
    alternate entry hex only while its condition holds (``alternate_entry_closed``)."""
    hexes = charted_entry(state, unit)
    if state.game.battle.reinforcements.alternate_entry:
        return [h for h in hexes if alternate_entry_closed(state, unit, h) is None]
    return hexes


def alternate_entry_closed(state: State, unit: str, hex_: str) -> AlternateEntry | None:
    """Road to Richmond 17.32: "on hex 1301 (or hex 1901 if occupied or in the Zone of Control of a Union
    unit)": the battle's alternate entry at ``hex_`` if it is closed to ``unit`` now, its other hex
    holding no enemy unit and lying in no enemy zone of control; else None."""
    side = state.game.units[unit].side
    for alternate in state.game.battle.reinforcements.alternate_entry:
        if alternate.hex == hex_:
            other = alternate.if_occupied_or_controlled
            if other not in enemy_occupied(state, side) and other not in enemy_controlled(state, side):
                return alternate
    return None


def charted_entry(state: State, unit: str) -> list[str]:
    """15.11: the entry hexes the chart (or the table, the flank march, the hexes written down) gives
    ``unit``, whatever their conditions."""
    u = state.game.units[unit]
    table = state.game.battle.reinforcement_table
    if u.group is not None and table is not None:
        return table.entry_hexes(state, u.group)
    flank = state.game.battle.exit_and_return
    if flank is not None and unit in flank.returning(state.scored):  # Hooker and Lee 18.24
        return list(flank.entry)
    turn = written_turn(state, unit)
    if turn is not None:  # Road to Richmond 17.63, 17.64: the hexes of the Game-Turn written down
        return state.game.battle.variable_reinforcements.entry_for(turn)
    return list(u.entry)


def written_turn(state: State, unit: str) -> int | None:
    """Road to Richmond 17.62: the chart Game-Turn ``unit`` was written down to arrive with, once its
    commitment is opened (None: not a variable unit, or not yet shown)."""
    vr = state.game.battle.variable_reinforcements
    if vr is None:
        return None
    return vr.shown(state.scored).get(unit)


def waiting(state: State, side: str | None = None) -> list[str]:
    """Reinforcements not yet on the map and not eliminated, in scenario order (Savage's Station 17.1:
    a group's units once the Reinforcement Table has brought it)."""
    gone = set(state.eliminated)
    table = state.game.battle.reinforcement_table
    brought = table.brought(state) if table is not None else {}
    flank = state.game.battle.exit_and_return
    returning = flank.returning(state.scored) if flank is not None else {}  # Hooker and Lee 18.23
    # every unit may be one that returns (Hooker and Lee 18.23); else only those scheduled to arrive
    candidates = state.game.scenario.units if flank is not None else state.game.scheduled
    return [
        u.id
        for u in candidates
        if (u.arrives is not None or (u.group is not None and u.group in brought) or u.id in returning)
        and u.id not in state.positions
        and u.id not in gone
        and not has_exited(state, u.id)  # Chickamauga 18.3: an exited unit never returns
        and (side is None or u.side == side)
    ]


def arrival_turn(state: State, unit: str) -> int | None:
    """The Game-Turn from which ``unit`` may enter: its chart's (15.11), or earlier after Road to
    Richmond's activation of early reinforcements (17.5); Savage's Station 17.1: the Game-Turn the
    Reinforcement Table brought its group (None: not brought); Second Bull Run 17.3: the Game-Turn a
    roll brought its group of Conditional Reinforcements (None: not yet)."""
    u = state.game.units[unit]
    table = state.game.battle.reinforcement_table
    if u.group is not None and table is not None:
        return table.arrival(state, u.group)
    flank = state.game.battle.exit_and_return
    if flank is not None and u.arrives is None:  # Hooker and Lee 18.23: the Game-Turn of its return
        back = flank.returning(state.scored).get(unit)
        if back is not None:
            return back
    conditional = state.game.battle.conditional_reinforcements
    group = conditional.group_of(unit) if conditional is not None else None
    if group is not None:  # Second Bull Run 17.3: the Game-Turn of the roll that brought its group
        return conditional.arrived(state, group)
    arrives = u.arrives
    turn = written_turn(state, unit)
    if turn is not None:  # Road to Richmond 17.63, 17.64: with the Game-Turn written down
        arrives = turn
    early = state.game.battle.early_arrival
    if arrives is None or early is None:
        return arrives
    return early.arrival(arrives, state.scored)


def due(state: State) -> list[str]:
    """The reinforcements that may enter in the current phase (15.11)."""
    if state.phase != MOVEMENT:
        return []
    return [u for u in waiting(state, state.phasing) if (turn := arrival_turn(state, u)) is not None and turn <= state.turn]


def entry_hexes(state: State, unit: str) -> list[str]:
    """The hexes ``unit`` may enter at now: its entry hexes (15.11), or the rule set's own answer
    (revised 5.5: also map-edge hexes near them on a later Game-Turn)."""
    return state.game.ruleset.procedures.reinforcement_entry.entry_hexes(state, unit)


def entry_problem(state: State, unit: str, hex_: str) -> RuleViolation | None:
    """Why ``unit`` may not enter the map at ``hex_`` now (15.12, 15.13, 5.12), or None."""
    game = state.game
    u = game.units[unit]
    own = game.ruleset.procedures.reinforcement_entry
    closed = alternate_entry_closed(state, unit, hex_) if hex_ in charted_entry(state, unit) else None
    if closed is not None:  # Road to Richmond 17.32
        return game.violation(
            "reinforcements.alternate_entry",
            f"{u.designation} may enter at {hex_} only if {closed.if_occupied_or_controlled} is occupied by an "
            f"enemy unit or in an enemy zone of control",
        )
    if hex_ not in entry_hexes(state, unit):
        listed = ", ".join(entry_hexes(state, unit)) or "none"
        return game.violation("reinforcements", f"{u.designation} may enter only at its entry hexes ({listed}), not {hex_}")
    if hex_ not in game.terrain:
        return game.violation("movement", f"the entry hex {hex_} is not on the map")
    if hex_ in enemy_occupied(state, u.side):
        return game.violation("enemy_occupied", f"{u.designation} may not enter at {hex_}: it holds an enemy unit")
    if hex_ in movement.zone_closed(state, unit):  # Road to Richmond 20.1
        return game.violation("command_control_zone", f"{u.designation} may not enter at {hex_}: the Command Control Zone is closed to it")
    if hex_ in movement.no_entry(state, unit):  # Chickamauga 19.21, 19.22
        return game.violation("trains", f"{u.designation} may not enter at {hex_}: no unit stacks with a train")
    if movement.barred_from_enemy_zoc(state, unit) and hex_ in enemy_controlled(state, u.side):  # Wilderness 18.32
        return game.violation(
            "trains.enemy_zoc", f"{u.designation} may not enter at {hex_}: it may never enter an enemy controlled hex"
        )
    blocking = u.side in game.battle.reinforcements.when_blocked  # Cemetery Hill 18.1: "controlled"
    if hex_ in enemy_controlled(state, u.side) and (blocking or not own.may_enter_enemy_zoc):
        return game.violation(
            "reinforcements.enemy_zoc",
            f"{u.designation} may not enter at {hex_}: the entry hex is in an enemy zone of control",
        )
    cost = entry_cost(state, hex_, unit)
    if cost is None or hex_ in game.no_end_hexes:
        return game.violation("reinforcements.cost", f"{u.designation} may not enter at {hex_}: its terrain may not be entered")
    if cost > movement.allowance_now(state, unit):
        return game.violation("reinforcements.cost", f"{u.designation} has not the movement points to enter {hex_}")
    return None


def entry_cost(state: State, hex_: str, unit: str | None = None) -> int | None:
    """15.13: the terrain cost of the entry hex (9.0); the rule set's own (revised 5.0: rising with
    each stack entered there before) when it has one."""
    game = state.game
    if unit is not None:
        return game.ruleset.procedures.reinforcement_entry.entry_cost(state, unit, hex_)
    return game.ruleset.terrain_cost.get(game.terrain[hex_])


def why_may_not_enter(state: State, unit: str) -> RuleViolation | None:
    game = state.game
    u = game.units.get(unit)
    if u is None:
        return game.violation("movement", f"there is no unit {unit!r} in this game")
    if unit not in waiting(state):
        return game.violation("reinforcements", f"{u.designation} is not a reinforcement waiting to enter")
    turn = arrival_turn(state, unit)
    if turn is None:  # Second Bull Run 17.3: a group of Conditional Reinforcements no roll has brought
        return game.violation("conditional_reinforcements", f"{u.designation} arrives only when a die roll brings its group")
    if state.phase != MOVEMENT or u.side != state.phasing or turn > state.turn:
        return game.violation(
            "reinforcements.when",
            f"{u.designation} may enter only during the {u.side.title()} Movement Phase of Game-Turn {turn}"
            + ("" if lost_if_not_entered(state) else " or later"),
        )
    return movement.why_unit_may_not_move(state, unit, entering=True)


def reachable_from_entry(state: State, unit: str, hex_: str) -> movement.Reach:
    """Where ``unit`` may end its move entering at ``hex_`` (the entry hex itself included)."""
    reach = movement.reachable(state, unit, origin=hex_, spent=entry_cost(state, hex_, unit))
    if hex_ in movement.enemy_zones_for(state, unit):
        reach.ends = []
    if may_end_in_entry_hex(state, unit, hex_):
        reach.ends = [hex_, *reach.ends]
    return reach


def possible_entry_ends(state: State, unit: str, hex_: str) -> Iterable[str]:
    """``reachable_from_entry(state, unit, hex_).ends`` one after another (perhaps some twice), for a
    caller that stops at the first that serves."""
    if may_end_in_entry_hex(state, unit, hex_):
        yield hex_
    if hex_ not in movement.enemy_zones_for(state, unit):
        yield from movement.possible_ends_from(state, unit, hex_, entry_cost(state, hex_, unit))


def may_end_in_entry_hex(state: State, unit: str, hex_: str) -> bool:
    """May ``unit``'s move end in its entry hex ``hex_`` (stacking aside)? 5.24, 19.12: not a hex no
    move ends in; First Bull Run 17.2: never into Runyon's hex."""
    return hex_ not in state.game.no_end_hexes and hex_ not in state.game.stacking_barred(state.positions, unit)


def decide_enter(state: State, command: EnterReinforcement, dice: Dice | None) -> list[Event]:
    vr = state.game.battle.variable_reinforcements
    if vr is not None and command.unit in vr.written(state.scored) and written_turn(state, command.unit) is None:
        raise state.game.violation(  # Road to Richmond 17.62: it enters as written down
            "variable_reinforcements.written",
            f"{state.game.designation(command.unit)} enters only as written down (enter_written_reinforcement)",
        )
    problem = why_may_not_enter(state, command.unit)
    if problem is not None:
        raise problem
    game = state.game
    path = tuple(command.path)
    if not path:
        raise game.violation("reinforcements", "a reinforcement's path starts with its entry hex")
    problem = entry_problem(state, command.unit, path[0])
    if problem is not None:
        raise problem
    spent = entry_cost(state, path[0], command.unit)
    cost = movement.check_path(state, command.unit, path, spent=spent, entering=True)
    event = ReinforcementEntered(unit=command.unit, path=path, cost=movement_points(cost))
    after = state.copy()
    apply(after, event)
    movement.check_no_dead_end(after, command.unit)
    rolled = movement.movement_die_roll(state, command.unit, dice)  # Wilderness 20.2: entering is moving
    if rolled and rolled[0].held:
        return rolled
    marched = movement.forced_march_events(state, command.unit, path, cost, spent, entering=True)  # 23.2
    return [*rolled, *marched, event]


def apply_entered(state: State, event: ReinforcementEntered) -> None:
    state.positions[event.unit] = event.path[-1]
    state.moved.add(event.unit)
    state.entries[event.path[0]] = state.entries.get(event.path[0], 0) + 1  # revised 5.0: the column
    entered(state, state.game.units[event.unit].side, event.path)  # 17.15
    zone = state.game.battle.command_control_zone
    if zone is not None and zone.watches_entry(event.unit):  # Road to Richmond 20.1: when they came
        state.scored.add(f"{ENTERED_ON}{state.turn}:{event.unit}")


def lose_reinforcements(state: State) -> list[Event]:
    """15.12: reinforcements still waiting when their Movement Phase ends are eliminated."""
    if not lost_if_not_entered(state) or state.phase != MOVEMENT:
        return []
    return [ReinforcementLost(unit=u) for u in due(state)]


def apply_lost(state: State, event: ReinforcementLost) -> None:
    state.eliminated.append(event.unit)
