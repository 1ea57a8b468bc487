"""Lines of communications traced along roads (Chickamauga 21.31, 21.32; Cemetery Hill 20.2, 20.4).

Readings made here (docs/RULINGS.md, "Chickamauga"):
- 21.32 "a path ... no more than ten hexes in length": counted in hexes entered from the unit's hex
  (a unit on a qualifying road hex needs none); any adjacent hex of the map may be entered, whatever
  its terrain or hexside, except one holding an enemy unit ("not an Enemy unit").
- "a road which, via a series of contiguous road hexes, leads off the map sheet at hex 0101 or 0111":
  contiguous along road hexsides, from the exit hex, through no hex holding an enemy unit (a unit
  physically blocks the road, as 21.31 says of the Confederate's line).

Antietam 19.1 (the ``hexes`` form): "a series of contiguous hexes free of Enemy units or Enemy Zones of
Control to hex 0126": the hexes entered, 0126 included, hold no enemy unit and lie in no enemy zone of
control (a friendly unit there does not help); the unit's own hex is where the line starts and is not
judged (a unit in an enemy zone of control may still trace one out of it); any adjacent hex of the map
may be entered, whatever its terrain or hexside (as for 21.32); no limit of length.

Cemetery Hill 20.4 (the ``friendly_edges`` form): "a road which in turn leads off a Friendly map edge" is
a hex of that edge where a road ends (rules/queries/edges.py ``road_ends``: a road that only runs along
the edge does not lead off it); 0127, the south-west corner, is on the west edge. The path, road included, enters no hex holding an enemy unit nor
an enemy-controlled hex, except a hex holding a friendly unit ("regardless of Enemy Zones of Control");
any length; any adjacent hex of the map. A reinforcement not entered traces from its entry hexes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from rules.core import terrain
from rules.core.components.line_of_communications import LineForm, LineOfCommunications
from rules.core.hexes import hexside
from rules.core.scenario import Side
from rules.core.state import State
from rules.queries.edges import on_edge, road_ends, roads_off_edge
from rules.queries.exits import exited_by, has_exited
from rules.queries.zoc import enemy_controlled

PROHIBITED = frozenset({terrain.RIVER, terrain.LAKE, terrain.POND})  # no unit may enter them (5.24, 6.27, 10.1)


def occupied_by_enemy(state: State, side: str) -> set[str]:
    units = state.game.units
    return {h for u, h in state.positions.items() if units[u].side != side}


def road_to_exits(state: State, side: str, exits: Iterable[str], blocked: set[str], trails: bool = False) -> set[str]:
    """21.31, 21.32: the road hexes joined to one of ``exits`` by contiguous road hexes, none blocked
    (Road to Richmond 22.22, ``trails``: "a road or trail")."""
    routes = {terrain.ROAD, terrain.TRAIL} if trails else {terrain.ROAD}
    game = state.game
    sides = game.scenario.map.hexsides
    start = [h for h in exits if h in game.terrain and h not in blocked]
    seen, todo = set(start), deque(start)
    while todo:
        h = todo.popleft()
        for n in game.neighbours[h]:
            if n in seen or n in blocked:
                continue
            side_ = sides.get(hexside(h, n))
            if side_ is not None and side_.features & routes:
                seen.add(n)
                todo.append(n)
    return seen


def traces(
    state: State, origins: Iterable[str], goal: set[str], blocked: set[str], length: int | None, judged: bool = True,
    hexsides: bool = False,
) -> bool:
    """21.32: a path of at most ``length`` hexes (None: any length, Antietam 19.1) from one of
    ``origins`` to a hex of ``goal``; no hex entered is in ``blocked``, nor an origin unless it is not
    ``judged`` (a unit's own hex); with ``hexsides`` no step no unit may make (Road to Vicksburg 20.1:
    "prohibited Terrain", a hexside no unit may cross included: ``Game.step_problem``)."""
    game = state.game
    neighbours = game.neighbours
    start = [h for h in origins if h in neighbours and (not judged or h not in blocked)]
    seen = set(start)
    frontier = start
    for _ in range(len(neighbours) + 1 if length is None else length + 1):
        if any(h in goal for h in frontier):
            return True
        nxt = []
        for h in frontier:
            for n in neighbours[h]:
                if n not in seen and n not in blocked and not (hexsides and game.step_problem(h, n) is not None):
                    seen.add(n)
                    nxt.append(n)
        if not nxt:
            return False
        frontier = nxt
    return False


def blocked_for(state: State, side: Side, line: LineOfCommunications) -> set[str]:
    """The hexes no line of ``side`` may enter: enemy units' (21.32); with ``enemy_zoc_blocks`` enemy
    zones of control (Antietam 19.1, Cemetery Hill 20.4), but with ``through_friendly_units`` never a hex
    holding a friendly unit (Cemetery Hill 20.4); with ``prohibited_terrain_blocks`` the hexes no unit
    may enter (Road to Vicksburg 20.1: "free of ... prohibited Terrain")."""
    blocked = occupied_by_enemy(state, side)
    if line.enemy_zoc_blocks:  # Antietam 19.1: "free of Enemy units or Enemy Zones of Control"
        zones = enemy_controlled(state, side)
        if line.through_friendly_units:  # Cemetery Hill 20.4 "regardless of Enemy Zones of Control"
            units = state.game.units
            zones = zones - {h for u, h in state.positions.items() if units[u].side == side}
        blocked |= zones
    if line.prohibited_terrain_blocks:  # Road to Vicksburg 20.1
        blocked |= {h for h, kind in state.game.terrain.items() if kind in PROHIBITED}
    return blocked


def road_hexes(game, hexes: Iterable[str]) -> set[str]:
    """Road to Vicksburg 20.3: of ``hexes``, those a road runs through (a road hexside)."""
    sides = game.scenario.map.hexsides

    def road(a: str, b: str) -> bool:
        s = sides.get(hexside(a, b))
        return s is not None and terrain.ROAD in s.features

    return {h for h in hexes if h in game.terrain and any(road(h, n) for n in game.neighbours[h])}


def goal_of(state: State, side: Side, line: LineOfCommunications, blocked: set[str]) -> set[str]:
    """The hexes a line of ``side`` ends in, by its form (``line.form``), none of them ``blocked``; with
    ``friendly_controlled`` none whose recorded control is the enemy's (Road to Vicksburg 20.1)."""
    form = line.form(side)
    if form.exits:
        goal = road_to_exits(state, side, form.exits, blocked, line.along_trails)
    elif form.hexes:
        goal = {h for h in form.hexes if h not in blocked}
    elif form.edge_area is not None:  # Second Bull Run 19.0: a road leading off the map's east edge
        edge = state.game.scenario.map.areas.get(form.edge_area, ())
        goal = road_to_exits(state, side, road_ends(state.game, edge), blocked)
    elif isinstance(form, LineForm):  # Road to Vicksburg 20.3: "any road hex on the eastern or western edges"
        edges: set[str] = set()
        for e in form.road_hexes_on:
            edges |= on_edge(state.game, e)
        goal = road_hexes(state.game, edges) - blocked
    else:  # Cemetery Hill 20.4: a road leading off the side's friendly edge
        goal = road_to_exits(state, side, roads_off_edge(state.game, line.friendly_edges[side]), blocked)
    if line.friendly_controlled:  # Road to Vicksburg 20.1: "to certain Friendly controlled hexes"
        goal = {h for h in goal if state.control.get(h) in (None, side)}
    return goal


def cut_off(state: State, line: LineOfCommunications) -> list[str]:
    """21.32, Antietam 19.1, Cemetery Hill 20.4, Road to Vicksburg 20.0: the units of the sides that
    trace (on the map, or reinforcements not entered, traced from their entry hexes; with ``exited_at``,
    units exited at those hexes, traced from their exit hex) that cannot trace the line of
    communications, in the order of the order of battle. Other exited units need none (Cemetery Hill 18.2)."""
    gate = line.unless_entered  # Road to Richmond 22.22: "If the Union Train unit was not brought on"
    if gate is not None and (gate in state.positions or gate in state.eliminated or has_exited(state, gate)):
        return []
    goals = {}
    for side in line.sides():
        blocked = blocked_for(state, side, line)
        goals[side] = (goal_of(state, side, line, blocked), blocked, line.form(side).hexes)
    gone = set(state.eliminated)
    out = []
    for unit in state.game.scenario.units:
        if unit.side not in goals or unit.id in gone:
            continue
        goal, blocked, hexes = goals[unit.side]
        if has_exited(state, unit.id):  # Road to Vicksburg 20.0: "the hex from which [it] exited"
            at = exited_by(state, unit.id)
            if at is None or at not in line.exited_at.get(unit.side, ()):
                continue
            if not traces(state, [at], goal, blocked, line.path_hexes, hexsides=line.prohibited_terrain_blocks):
                out.append(unit.id)
            continue
        here = state.positions.get(unit.id)
        if here is None and (unit.arrives is None or not line.reinforcements_not_entered):
            continue
        if here is not None:  # Antietam 19.1: the unit's own hex is not judged (at 0126 it is there)
            ok = here in hexes or traces(state, [here], goal, blocked, line.path_hexes, judged=False, hexsides=line.prohibited_terrain_blocks)
        else:  # 21.32: an entry hex holding an enemy unit is no start
            ok = traces(state, unit.entry, goal, blocked, line.path_hexes, hexsides=line.prohibited_terrain_blocks)
        if not ok:
            out.append(unit.id)
    return out


# -- Olustee 19.4: a Line of Communication ------------------------------------------------------------


def supply_line(state: State, side: str, origins: Iterable[str], goal: set[str], length: int | None = None) -> bool:
    """Olustee 19.4: "a series of contiguous hexes free of prohibited Terrain, Enemy units and Enemy
    Zones of Control unless the Enemy controlled hexes are occupied by Friendly units", from one of
    ``origins`` to a hex of ``goal``, both ends included; any length, or at most ``length`` hexes (19.3:
    "four or fewer hexes in length to the Train", counted as a Range is: the goal's hex, not the origin's)."""
    game = state.game
    units = game.units
    friendly = {h for u, h in state.positions.items() if units[u].side == side}
    blocked = {h for h, kind in game.terrain.items() if kind in PROHIBITED}
    blocked |= occupied_by_enemy(state, side)
    blocked |= enemy_controlled(state, side) - friendly
    goal = goal - blocked
    return bool(goal) and traces(state, origins, goal, blocked, length)
