"""Victory points and levels of victory (Chattanooga 20.0–20.2), by the battle's Victory Point
schedule and levels (``game.battle.victory``, rules/core/components/victory.py: points per enemy unit
eliminated 20.11 (1), (3); for first control of hexes 20.11 (2); for a map area in the zone of control
of the side's units 20.12 (1); for last control of hexes 20.12 (2); the levels by the differential
Union points minus Confederate points 20.2).

Points during play are awarded right after the command that earned them (an ``after_command`` hook:
eliminations come from combat, from retreats with no hex open and from reinforcements lost at the end
of a Movement Phase; control from any move, retreat or advance); ``state.scored`` remembers what has
scored. At the end of the final Game-Turn (4.0) the end-of-game points are awarded, the level of
victory determined, and the game ends with it (``GameEnded.result``).

Rulings (docs/RULINGS.md):
- 20.12 (1): a town hex occupied by a unit of the scoring type counts too (occupying a hex is more than
  controlling it; 21.2 speaks of "occupying ... Chattanooga").
- 20.11 (2): each of the two hexes scores 4 the first time it is controlled (8 for both), whenever
  that happens, even if the hex is later lost.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.core.components.victory import VictoryPoints
from rules.core.events import (
    EVENT_TYPES,
    CombatResolved,
    Event,
    GameEnded,
    PhaseEnded,
    ReinforcementLost,
    UnitEliminated,
    UnitExited,
    UnitMoved,
    VictoryDetermined,
    VictoryPointsAwarded,
)
from rules.core.handlers import apply, only_with
from rules.core.scenario import SIDES, other_side
from rules.core.state import State
from rules.procedures.exits import exit_points, exit_points_during_play, exited_during_play
from rules.procedures.sequence import phases
from rules.queries.communications import cut_off
from rules.queries.exits import exited, exited_by, has_exited


def params(state_or_game) -> VictoryPoints | None:
    """The battle's Victory Point schedule and levels, or None (a battle without victory points)."""
    game = state_or_game.game if isinstance(state_or_game, State) else state_or_game
    return game.battle.victory


# -- points during play (20.11) --------------------------------------------------------------------
def due(state: State) -> list[VictoryPointsAwarded]:
    """20.11: the points earned during play and not yet awarded."""
    p = params(state)
    if not p:
        return []
    game = state.game
    case = game.case("victory")
    out = []
    for u in state.eliminated:
        if f"eliminated:{u}" in state.scored:
            continue
        side = other_side(game.units[u].side)
        points = p.for_unit(side, u, game.battle.victory_strength(game.units[u], game.units))  # Road to Richmond 22.11 ii): the Train
        if points:
            out.append(VictoryPointsAwarded(side=side, points=points, kind="eliminated", subject=u, case=case))
    for first in p.first_controls:  # 20.11 (2); Ezra Church 18.12 ii), iii): a list
        side = first.side
        for h in first.hexes:
            if state.control.get(h) == side and f"first_control:{h}" not in state.scored:
                out.append(
                    VictoryPointsAwarded(side=side, points=first.points_each, kind="first_control", subject=h, case=case)
                )
    return out


def occupies(state: State, event: Event | None, o) -> bool:
    """Savage's Station 19.13: after ``event`` (applied to ``state``), has a unit of ``o.side`` been in
    ``o.hex``: it stands there, or the event's path (a move, retreat, advance, entry) went through it."""
    game = state.game
    path = getattr(event, "path", None)
    if path and o.hex in path and game.units[event.unit].side == o.side:
        return True
    return any(h == o.hex and game.units[u].side == o.side for u, h in state.positions.items())


def first_occupations(state: State, events: list[Event]) -> list[VictoryPointsAwarded]:
    """Savage's Station 19.11 ii): the first occurrences of a side's occupying a hex (19.13: a unit of
    the side in it, after any of ``events``, applied one by one from ``state``), each scored by the
    Game-Turn it happened on; once per side and hex."""
    p = params(state)
    if not p or not p.first_occupation:
        return []
    game = state.game
    todo = [o for o in p.first_occupation if f"first_occupation:{o.key}" not in state.scored]
    if not todo:
        return []
    out: list[VictoryPointsAwarded] = []
    scratch = state.copy()
    for event in [None, *events]:
        if event is not None:
            apply(scratch, event)
        for o in list(todo):
            if occupies(scratch, event, o):
                out.append(VictoryPointsAwarded(side=o.side, points=o.points_on(scratch.turn), kind="first_occupation", subject=o.key, case=game.case("victory")))
                todo.remove(o)
    return out


#: The events after which points may be due (20.11): an elimination, a lost reinforcement, a unit
#: moving along a path (a move, an entry, an exit, a retreat, an advance: control may change).
_SCORING = frozenset(
    t for t in EVENT_TYPES if issubclass(t, UnitEliminated | ReinforcementLost) or "path" in t.__struct_fields__
)


def award_during_play(state: State, events: list[Event], after: State) -> list[Event]:
    """20.11: award what a command's events earned (an elimination, a first control, Savage's Station
    19.11 ii) a first occupation); ``after`` is the state after them."""
    if state.game.battle.victory is None or not events or isinstance(events[-1], GameEnded):
        return []
    occupied = first_occupations(state, events)
    if _SCORING.isdisjoint(map(type, events)):
        return list(occupied)
    return [*due(after), *occupied, *exit_points_during_play(after, events)]  # Chickamauga 21.11 ii)


def apply_awarded(state: State, event: VictoryPointsAwarded) -> None:
    state.vp[event.side] = state.vp.get(event.side, 0) + event.points
    if event.kind in ("eliminated", "first_control", "early_arrival", "first_occupation", "symbolic_moved", "symbolic_bombarded"):  # Road to Richmond 17.4: its Game-Turn; Road to Vicksburg 21.3
        state.scored.add(f"{event.kind}:{event.subject}")


# -- points at the end (20.12) and the level of victory (20.2) ---------------------------------------
def end_points(state: State) -> list[VictoryPointsAwarded]:
    """20.12: the points awarded at the game's end, from the final position."""
    p = params(state)
    if not p:
        return []
    game = state.game
    case = game.case("victory")
    out = []
    town = p.town_in_zoc
    if town:
        side = town.side
        kind = town.unit_type
        hexes = game.scenario.map.areas.get(town.area, [])
        reach: set[str] = set()
        for u, h in state.positions.items():
            unit = game.units[u]
            if unit.side == side and (kind is None or unit.type == kind):
                reach.add(h)  # Ruling: occupying counts
                reach.update(game.zoc_into[h])
        for h in hexes:
            if h in reach:
                out.append(VictoryPointsAwarded(side=side, points=town.points_each, kind="town_zoc", subject=h, case=case))
    last = p.last_control
    if last:
        side = last.side
        for h in last.hexes:
            if state.control.get(h) == side:
                out.append(
                    VictoryPointsAwarded(side=side, points=last.points_each, kind="last_control", subject=h, case=case)
                )
    line = game.battle.line_of_communications
    lost: list[str] = []  # the units without a line, "considered eliminated"
    if line is not None:  # Chickamauga 21.32: "considered eliminated for the purposes of Victory Conditions"
        per_point = line.per_enemy_strength_point_cut_off  # Cemetery Hill 20.11, 20.12: one per Strength Point
        lost = cut_off(state, line)
        for u in lost:
            side = other_side(game.units[u].side)
            strength = game.battle.victory_strength(game.units[u], game.units)  # Road to Vicksburg 19.63
            points = per_point.get(side, 0) * strength if per_point else p.for_unit(side, u, strength)
            out.append(VictoryPointsAwarded(side=side, points=points, kind="cut_off", subject=u, case=game.case("line_of_communications")))
    out.extend(exit_points(state))  # Chickamauga 21.11 ii)-iv), 21.31; Road to Richmond 22.12 i)-v)
    for n in p.never_entered:  # Road to Richmond 22.12 vi): "if the Union Train unit did not enter the map"
        if n.unit not in state.positions and n.unit not in state.eliminated and not has_exited(state, n.unit):
            side = other_side(game.units[n.unit].side)
            out.append(VictoryPointsAwarded(side=side, points=n.points, kind="never_entered", subject=n.unit, case=case))
    holders = occupation_holders(state)
    for o in p.occupation:  # Chickamauga 21.12, 21.2
        occupier = holders[o.hex]
        if o.scores_for(occupier):
            out.append(VictoryPointsAwarded(side=occupier, points=o.points, kind="occupation", subject=o.hex, case=case))
    gone = {*state.eliminated, *lost}  # Road to Vicksburg 20.0: a unit without a line counts as eliminated
    for a in p.all_eliminated:  # Wilderness 19.12 iii): "the elimination of both Union Train Defence units"
        if a.scores(gone):
            out.append(VictoryPointsAwarded(side=a.side, points=a.points, kind="all_eliminated", subject=" ".join(a.units), case=case))
    for c in p.control_of_all:  # Antietam 19.1: "control of all four hexes of Sharpsburg"
        holder = c.held_by(state.control)
        if holder is not None:
            out.append(
                VictoryPointsAwarded(side=holder, points=c.points, kind="control_of_all", subject=" ".join(c.hexes), case=case)
            )
    return out


def occupants(state: State) -> dict[str, str]:
    """Chickamauga 21.2 "having a Friendly unit physically in the hex"; Wilderness 19.13 "the last Player
    to have a unit ... in the hex", "calculated at the end of Game-Turn Sixteen": the side of the units
    standing in each hex now. At the end it outweighs the holder at the start (``held_at_start``: Wilderness
    19.13 "initially controlled by the Confederate Player") that a unit set up in the hex never moved to
    take; after any entry the two agree (5.12: no unit enters an enemy's hex)."""
    units = state.game.units
    return {h: units[u].side for u, h in state.positions.items()}


def occupation_holders(state: State) -> dict[str, str | None]:
    """Chickamauga 21.12, 21.2; Wilderness 19.13: who would score each hex the schedule awards for
    occupation if the game ended now: the side of a unit standing in it, else its holder by control
    (``held_at_start``, the last to enter it or bring a zone of control into it); None: nobody."""
    p = params(state)
    standing = occupants(state)
    return {o.hex: standing.get(o.hex, state.control.get(o.hex)) for o in (p.occupation if p else ())}


# -- Road to Richmond 22.13: hexes occupied at the end of each Game-Turn --------------------------------
def occupied_awards(state: State, turn: int) -> list[VictoryPointsAwarded]:
    """22.13: "At the end of each Game-Turn after Game-Turn Eight that a Player physically occupies
    hexes 1823 and/or 1826 he gains one Victory Point for each of these two hexes he occupies"."""
    p = params(state)
    if not p or not p.occupied_each_turn:
        return []
    game = state.game
    held = {h: game.units[u].side for u, h in state.positions.items()}
    out = []
    for rule in p.occupied_each_turn:
        if turn <= rule.after_turn:
            continue
        for h in rule.hexes:
            side = state.control.get(h) if rule.by_control else held.get(h)  # Road to Vicksburg 21.2: control
            if side is not None and rule.points_for(side):
                out.append(
                    VictoryPointsAwarded(side=side, points=rule.points_for(side), kind="occupied", subject=f"{h}@{turn}", case=game.case("victory.occupied"))
                )
    return out


def award_occupied(state: State) -> list[Event]:
    """22.13, as the last phase of a Game-Turn ends (4.0: the second Player's last phase)."""
    p = params(state)
    if not p or not p.occupied_each_turn or state.phase != phases(state)[-1] or state.phasing == state.game.scenario.first_player:
        return []
    return list(occupied_awards(state, state.turn))


def level_of(state_or_game, differential: int) -> str | None:
    """20.2: the level of victory for a differential (Union minus Confederate points)."""
    p = params(state_or_game)
    return None if p is None else p.level_of(differential)


def determine_victory(state: State) -> list[Event]:
    """4.0, 20.0: at the end of the final Game-Turn: points still due, the end-of-game points, then
    the differential and the level of victory."""
    p = params(state)
    if not p:
        return []
    awards: list[Event] = [*due(state), *end_points(state)]
    totals = {s: state.vp.get(s, 0) for s in SIDES}
    for a in awards:
        totals[a.side] += a.points
    diff = totals["union"] - totals["confederate"]
    exited = exit_points_by_hex(state, awards)  # Road to Vicksburg 21.3
    level = p.level_for(totals, state.control, exited) or "undetermined"  # 20.2; Antietam 19.2: by the ratio; Shiloh 18.2
    low = state.game.battle.demoralization
    if low is not None:  # Hooker and Lee 21.3: a Demoralized winner's victory is one level lower
        level = low.level_after(state, level)
    return [*awards, VictoryDetermined(union=totals["union"], confederate=totals["confederate"], differential=diff, level=level)]


def exit_points_by_hex(state: State, awards: list[Event]) -> dict[tuple[str, str], int]:
    """Road to Vicksburg 21.3 ("no Friendly units exited from the western map edge can be included in
    his Victory Point total"): each side's exit points by exit hex: those of ``awards`` (the end of the
    game's) and those awarded during play as the units exited (Chickamauga 21.11 ii):
    ``exited_during_play``), which ``state.vp`` already holds."""
    game = state.game
    out: dict[tuple[str, str], int] = {}
    for a in awards:
        if isinstance(a, VictoryPointsAwarded) and a.kind == "exited":
            key = (a.side, exited_by(state, a.subject) or "")
            out[key] = out.get(key, 0) + a.points
    if game.battle.exits is not None and game.battle.exits.points_per_strength_point:
        for u in exited(state):
            unit = game.units[u]
            points = exited_during_play(game, unit.side) * unit.strength
            if points:
                key = (unit.side, exited_by(state, u) or "")
                out[key] = out.get(key, 0) + points
    return out


def level_if_ended_now(state: State) -> str | None:
    """The level of victory the game would end with if it ended now: the result, once it has one; else
    what the end-of-game determination (``determine_victory``, 20.2, with the points still due and the
    end-of-game points, Road to Vicksburg's level judged ``without_exits``, Hooker and Lee 21.3's
    Demoralization) gives now; None without one (api/glance.py shows it live)."""
    if state.result is not None:
        return state.result
    return next((e.level for e in determine_victory(state) if isinstance(e, VictoryDetermined)), None)


def elimination_points(state: State) -> dict[str, int]:
    """Each side's points for eliminating enemy units so far (20.11; Fredericksburg 20.0 "counting Points
    for elimination of Enemy units only")."""
    p = params(state)
    game = state.game
    out = {s: 0 for s in SIDES}
    for u in state.eliminated:
        side = other_side(game.units[u].side)
        out[side] += p.for_unit(side, u, game.battle.victory_strength(game.units[u], game.units))
    return out


def automatic_victory(state: State) -> list[Event]:
    """Fredericksburg 20.0, as Game-Turn ``at_end_of_turn`` ends (an ``end_of_game_turn`` hook): when
    the side's points for eliminations are at least the ratio to the enemy's and the enemy occupies none
    of the hexes, the side wins at once (``VictoryDetermined`` with the rule's level; the game ends:
    rules/procedures/sequence.py). Otherwise play goes on to the last Game-Turn."""
    p = params(state)
    rule = p.automatic if p else None
    if rule is None or state.turn != rule.at_end_of_turn or state.game_over:
        return []
    if not rule.holds(elimination_points(state), state.control):
        return []
    totals = {s: state.vp.get(s, 0) for s in SIDES}
    return [
        VictoryDetermined(
            union=totals["union"],
            confederate=totals["confederate"],
            differential=totals["union"] - totals["confederate"],
            level=rule.level,
        )
    ]


def edge_goal(game, rule) -> set[str]:
    """Olustee 20.0: the hexes of the edge a Line of Communication may end at ("any clear, road or
    railway hex on the eastern map edge")."""
    from rules.queries.edges import on_edge

    want = rule.line_to_edge
    hexes = on_edge(game, want.edge)
    if not want.terrain and not want.features:
        return set(hexes)
    m = game.scenario.map
    features = set(want.features)
    return {
        h for h in hexes
        if game.terrain[h] in want.terrain or any(features & m.features(h, n) for n in game.neighbours[h])
    }


@only_with("immediate_victory")
def immediate_victory(state: State, events: list[Event], after: State) -> list[Event]:
    """Olustee 20.0 (an ``after_command`` hook, the last): the game ends at once when a unit of the side
    occupies a hex of Olustee Station with its Line of Communication to the east edge, or when one of its
    infantry exits by 4104 or 4108 with a Line of Communication from there to 1011 (19.4,
    rules/queries/communications.py ``supply_line``): ``VictoryDetermined`` with the rule's level and
    ``GameEnded`` reason ``immediate_victory``."""
    rules = state.game.battle.immediate_victory
    if rules is None or not events or after.game_over:
        return []
    # imported in a battle that has the rule: asked after every command
    from rules.queries.communications import supply_line

    game = state.game
    level = None
    for rule in rules.occupy:
        hexes = set(rules.occupy_hexes(rule, game.scenario.map.areas))
        held = sorted({h for u, h in after.positions.items() if h in hexes and game.units[u].side == rule.side})
        if held and (rule.line_to_edge is None or supply_line(after, rule.side, held, edge_goal(game, rule))):
            level = rule.level
            break
    for e in events:
        if level is not None:
            break
        if not isinstance(e, UnitExited):
            continue
        u = game.units[e.unit]
        for rule in rules.exit:
            if rule.counts(u.side, u.type, e.path[-1]) and (not rule.line_to or supply_line(after, rule.side, [e.path[-1]], set(rule.line_to))):
                level = rule.level
                break
    if level is None:
        return []
    totals = {s: after.vp.get(s, 0) for s in SIDES}
    return [
        VictoryDetermined(union=totals["union"], confederate=totals["confederate"], differential=totals["union"] - totals["confederate"], level=level),
        GameEnded(reason="immediate_victory", result=level),
    ]


def apply_determined(state: State, event: VictoryDetermined) -> None:
    state.result = event.level


# -- an independent recount, for tests and for verifying a game ---------------------------------------
def recount(start: State, events: Iterable[Event]) -> dict[str, int]:
    """The victory points of the game whose log is ``events`` (from ``start``), counted from the log
    itself: eliminations from the elimination events, first control from every path a unit took,
    Cemetery Hill 20.3's exited units from the exits before each Union Player-Turn's end,
    end-of-game points from the final position. Equal to the state's points when the bookkeeping is
    right (a property test checks it)."""
    game = start.game
    p = params(start)
    firsts = p.first_controls if p else []
    totals = {s: start.vp.get(s, 0) for s in SIDES}  # Fredericksburg 21.35: points at the start
    controlled = [{h for h in f.hexes if start.control.get(h) == f.side} for f in firsts]
    final = start.copy()
    ended = False
    exits = game.battle.exits
    excess = exits.excess_exited if exits is not None else None
    left: dict[str, int] = {s: 0 for s in SIDES}  # Cemetery Hill 20.3: units exited so far, by side
    occupations = list(p.first_occupation) if p else []  # Savage's Station 19.11 ii)

    def occupied_now(state: State, event: Event | None = None) -> None:
        for o in list(occupations):
            if occupies(state, event, o):
                totals[o.side] += o.points_on(state.turn)
                occupations.remove(o)

    symbolic = game.battle.symbolic_units  # Road to Vicksburg 21.3: the Train bombarded, moved
    counted: set[tuple[str, int]] = set()

    def symbolic_points(e: Event, turn: int) -> None:
        if symbolic.bombarded is not None and isinstance(e, CombatResolved) and e.bombarding:
            if game.units[e.bombarding[0]].side == symbolic.bombarded.side:
                for u in symbolic.units:
                    if u in e.defending and (u, turn) not in counted:
                        counted.add((u, turn))
                        totals[symbolic.bombarded.side] += symbolic.bombarded.points
        if symbolic.moved is not None and isinstance(e, UnitMoved) and e.unit in symbolic.units and len(e.path) > 1:
            if (e.unit, 0) not in counted:
                counted.add((e.unit, 0))
                totals[symbolic.moved.side] += symbolic.moved.points

    occupied_now(final)
    for e in events:
        if excess is not None and isinstance(e, PhaseEnded) and e.side == excess.at_end_of and e.phase == phases(final, e.turn)[-1]:
            more = left[excess.side] - left[other_side(excess.side)]
            totals[excess.side] += excess.points * max(0, more)
        if p and p.occupied_each_turn and isinstance(e, PhaseEnded) and e.side != game.scenario.first_player and e.phase == phases(final, e.turn)[-1]:
            for a in occupied_awards(final, e.turn):  # Road to Richmond 22.13, from the position then
                totals[a.side] += a.points
        apply(final, e)
        if occupations:
            occupied_now(final, e)
        if isinstance(e, UnitExited) and exits.may_exit(game.units[e.unit].type):
            left[game.units[e.unit].side] += 1
        if isinstance(e, UnitExited) and exits.points_per_strength_point:  # Chickamauga 21.11 ii)
            unit = game.units[e.unit]
            totals[unit.side] += exited_during_play(game, unit.side) * unit.strength
        if symbolic is not None:
            symbolic_points(e, final.turn)
        if isinstance(e, VictoryPointsAwarded) and e.kind in ("early_arrival", "leader"):
            totals[e.side] += e.points  # Road to Richmond 22.14: the activation, recorded by its award; Grand Chancellorsville 23.58
        if isinstance(e, UnitEliminated | ReinforcementLost):
            side = other_side(game.units[e.unit].side)
            totals[side] += p.for_unit(side, e.unit, game.battle.victory_strength(game.units[e.unit], game.units)) if p else 0
        path = getattr(e, "path", None)
        for f, done in zip(firsts, controlled, strict=True):
            if path and game.units[e.unit].side == f.side:
                done.update(h for h in path if h in f.hexes)
        ended = ended or (isinstance(e, GameEnded) and e.reason == "last_turn")  # not 20.0's automatic victory
    for f, done in zip(firsts, controlled, strict=True):
        totals[f.side] += f.points_each * len(done)
    if ended:
        for a in end_points(final):
            totals[a.side] += a.points
    return totals
