"""The battle at a glance, as the server tells a client (a part of the view, api/views.py): the turn
track (each Game-Turn, whether it is a night turn, the reinforcements due on it and where they
enter), the Victory Point schedule and the levels of victory in words, the objective hexes (what each
is worth, to whom, and who holds it now), each side's Victory Points, the level of victory the game
would end with now (the rules' own end-of-game determination on a copy: rules/procedures/victory.py
``level_if_ended_now``), the units and Strength Points each side has lost, and the chance of each result on
each odds column of the Combat Results Table in force.

Read from the battle's own components (rules/core/components/victory.py, exits.py,
line_of_communications.py) and the rules state: nothing here decides anything; the rules award the
points (rules/procedures/victory.py). The static part is computed once per game (`Battle`); the
rest per version (`standing`)."""

from __future__ import annotations

from functools import lru_cache

import msgspec

from replay.crt_odds import all_columns, table_of
from rules.core.game import Game
from rules.core.scenario import SIDES
from rules.core.state import State
from rules.procedures.victory import level_if_ended_now, occupation_holders

SIDE = {"union": "Union", "confederate": "Confederate"}
OCCUPIED_AT_THE_END = "occupied at the end"  # an Objective's rule: scored for the side occupying it at the end


class Arrival(msgspec.Struct, frozen=True, kw_only=True):
    unit: str
    side: str
    entry: list[str]


class TrackTurn(msgspec.Struct, frozen=True, kw_only=True):
    """One box of the turn track: the Game-Turn, a night turn or not, the reinforcements due on it."""

    turn: int
    night: bool
    reinforcements: list[Arrival]


class Objective(msgspec.Struct, frozen=True, kw_only=True):
    """A hex the Victory Point schedule or a level of victory names: ``points`` (0: a level's
    condition) to ``side`` (None: either), ``rule`` in words, and ``holder``: the side that holds it now
    as its rule counts it (17.15 control; for a hex scored for occupation at the end, the side standing
    in it, as the game would be scored if it ended now; None: nobody yet)."""

    hex: str
    points: int
    side: str | None
    rule: str
    holder: str | None = None


class Losses(msgspec.Struct, frozen=True, kw_only=True):
    units: int
    strength: int


class Glance(msgspec.Struct, frozen=True, kw_only=True):
    """The battle at a glance (see the module documentation)."""

    turns: list[TrackTurn]
    schedule: list[str]
    levels: list[str]
    objectives: list[Objective]
    vp: dict[str, int]
    level_now: str | None
    eliminated: dict[str, Losses]
    chances: dict[str, dict[str, float]] = {}  # by odds column: the chance of each result (one die)


@lru_cache(maxsize=64)
def _chances(game: Game) -> dict[str, dict[str, float]]:
    """The chance of each result on each column of the table the game's combats are read on (the
    revised book's for a revised game, 003 8.6; else the battle's own, 7.6): its die rows out of six."""
    table = table_of(game)
    return all_columns(table) if table is not None else {}


@lru_cache(maxsize=64)
def _static(game: Game) -> tuple[list[TrackTurn], list[str], list[str], list[Objective]]:
    """The static part of the glance: the Game-Turn track, the victory schedule, its levels and the
    objectives."""
    sc = game.scenario
    turns = _track(sc)
    schedule: list[str] = []
    objectives: list[Objective] = []
    levels: list[str] = []
    v = game.battle.victory
    if v is not None:
        _victory_schedule(v, schedule, objectives)
        _victory_levels(v, levels, objectives)
    _exits_schedule(game, schedule)
    return turns, schedule, levels, objectives


def _track(sc) -> list[TrackTurn]:
    """The Game-Turn track: each turn, night or not, and the reinforcements due on it."""
    due: dict[int, list[Arrival]] = {}
    for u in sc.units:
        if u.hex is None and u.arrives is not None:
            due.setdefault(u.arrives, []).append(Arrival(unit=u.id, side=u.side, entry=list(u.entry)))
    turns = [
        TrackTurn(turn=t, night=t in sc.night_turns, reinforcements=due.get(t, [])) for t in range(1, sc.turns + 1)
    ]
    return turns


def _victory_schedule(v, schedule: list[str], objectives: list[Objective]) -> None:
    """The Victory Points the battle awards, and the objectives they are scored for."""
    for side, pts in v.per_enemy_unit_eliminated.items():
        schedule.append(f"{SIDE[side]}: {pts} VP for each enemy unit eliminated")
    for side, pts in v.per_enemy_strength_point_eliminated.items():
        schedule.append(f"{SIDE[side]}: {pts} VP for each enemy Strength Point eliminated")
    for c in v.first_controls:
        schedule.append(f"{SIDE[c.side]}: {c.points_each} VP for each of {', '.join(c.hexes)} the first time it controls it")
        objectives += [Objective(hex=h, points=c.points_each, side=c.side, rule="first control") for h in c.hexes]
    if v.town_in_zoc is not None:
        t = v.town_in_zoc
        kind = f"{t.unit_type} " if t.unit_type else ""
        schedule.append(f"{SIDE[t.side]}: {t.points_each} VP at the end for each hex of {t.area.replace('_', ' ')} "
                        f"in the zone of control of its {kind}units")
    if v.last_control is not None:
        c = v.last_control
        schedule.append(f"{SIDE[c.side]}: {c.points_each} VP at the end for each of {', '.join(c.hexes)} it last controlled")
        objectives += [Objective(hex=h, points=c.points_each, side=c.side, rule="last control") for h in c.hexes]
    for o in v.occupation:
        who = SIDE[o.side] if o.side else "Either side"
        schedule.append(f"{who}: {o.points} VP at the end for occupying {o.hex}")
        objectives.append(Objective(hex=o.hex, points=o.points, side=o.side, rule=OCCUPIED_AT_THE_END))
    for c in v.control_of_all:
        who = SIDE[c.side] if c.side else "Either side"
        schedule.append(f"{who}: {c.points} VP at the end for controlling all of {', '.join(c.hexes)}")
        objectives += [Objective(hex=h, points=c.points, side=c.side, rule="all controlled at the end") for h in c.hexes]


def _victory_levels(v, levels: list[str], objectives: list[Objective]) -> None:
    """The levels of victory and their conditions, and the hexes a level's condition occupies."""
    basis = (
        f"the ratio of {SIDE[v.ratio_of[0]]} to {SIDE[v.ratio_of[1]]} points" if v.ratio_of
        else "Union points minus Confederate points"
    )
    for lv in v.levels:
        bounds = [
            f"{op} {value}" for op, value in (
                ("at least", lv.min), ("at most", lv.max), ("at least", lv.at_least), ("above", lv.above),
                ("at most", lv.at_most), ("below", lv.below),
            ) if value is not None
        ]
        cond = f"{basis} {' and '.join(bounds)}" if bounds else "otherwise"
        if lv.occupied is not None:
            cond += f", {SIDE[lv.occupied.side]} occupying {', '.join(lv.occupied.hexes)}"
            seen = {o.hex for o in objectives}
            objectives += [
                Objective(hex=h, points=0, side=lv.occupied.side, rule="a level's condition")
                for h in lv.occupied.hexes if h not in seen
            ]
        levels.append(f"{lv.level}: {cond}")


def _exits_schedule(game: Game, schedule: list[str]) -> None:
    """The Victory Points for exiting units off the map and for cutting lines of communications."""
    sc = game.scenario
    exits = game.battle.exits
    if exits is not None:
        for side, pts in exits.points_per_strength_point.items():
            schedule.append(f"{SIDE[side]}: {pts} VP for each Strength Point exited off the map")
        for m in exits.must_exit:
            name = next((u.designation for u in sc.units if u.id == m.unit), m.unit)
            schedule.append(f"The enemy scores {m.points} VP if {name} has not exited at the end")
        if exits.excess_exited is not None:
            e = exits.excess_exited
            schedule.append(f"{SIDE[e.side]}: {e.points} VP at the end of each {SIDE[e.at_end_of]} Player-Turn "
                            "for each unit it has exited beyond the enemy's")
    loc = game.battle.line_of_communications
    if loc is not None:
        for side, pts in loc.per_enemy_strength_point_cut_off.items():
            schedule.append(f"{SIDE[side]}: {pts} VP at the end for each enemy Strength Point without a line of communications")


def _holder(o: Objective, state: State, occupiers: dict[str, str | None]) -> str | None:
    """Who holds an objective now as its rule counts it: a hex scored for occupation at the end (Chickamauga
    21.2, Wilderness 19.13) by the unit standing in it, else by control, as the final determination will
    (rules.procedures.victory.end_points); any other by control (17.15)."""
    if o.rule == OCCUPIED_AT_THE_END:
        return occupiers.get(o.hex)
    return state.control.get(o.hex)


def glance(state: State) -> Glance:
    """The battle at a glance at `state` (the static part computed once per game)."""
    game = state.game
    turns, schedule, levels, objectives = _static(game)
    units = {u.id: u for u in game.scenario.units}
    lost = {side: [0, 0] for side in SIDES}
    for u in state.eliminated:
        unit = units.get(u)
        if unit is not None:
            lost[unit.side][0] += 1
            lost[unit.side][1] += unit.strength
    vp = {side: state.vp.get(side, 0) for side in SIDES}
    v = game.battle.victory
    occupiers = occupation_holders(state)
    return Glance(
        turns=turns,
        schedule=schedule,
        levels=levels,
        objectives=[msgspec.structs.replace(o, holder=_holder(o, state, occupiers)) for o in objectives],
        vp=vp,
        level_now=level_if_ended_now(state) if v is not None and v.levels else state.result,
        eliminated={side: Losses(units=n, strength=s) for side, (n, s) in lost.items()},
        chances=_chances(game),
    )
