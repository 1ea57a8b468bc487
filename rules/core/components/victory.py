"""A Victory Point schedule and levels of victory (Chattanooga 20.1, 20.2; revised 21.1, 21.2):

- ``per_enemy_unit_eliminated`` {side: points}: 20.11 (1), (3): a side scores this for each enemy unit
  eliminated (reinforcements lost under 15.12 included).
- ``first_control`` {side, hexes, points_each}: 20.11 (2): the side scores for each of these hexes the
  first time it controls it (17.15), once in the game. A list of them when the hexes are worth
  different points (Ezra Church 18.12 ii), iii): "Ten Victory Points for the occupation of hex 1504 at
  any time during the game", "25 Victory Points for the occupation of hex 1602 at any time").
- ``town_in_zoc`` {side, area, points_each, unit_type}: 20.12 (1): at the game's end, for each hex of
  the map's area in the zone of control of (or occupied by) one of the side's units of that type.
- ``last_control`` {side, hexes, points_each}: 20.12 (2): at the game's end, for each of these hexes
  the side was the last to control.
- ``per_enemy_strength_point_eliminated`` {side: points}: Chickamauga 21.11 i): a side scores this
  for each Combat Strength Point of the enemy units eliminated.
- ``occupation`` [{hex, points, side}]: Chickamauga 21.12: at the game's end, the hex's points to the
  side that occupies it (21.2: control, rules/queries/control.py); to ``side`` only when it is given,
  to either Player when it is not (21.12 iii).
- ``control_of_all`` [{hexes, points, side}]: Antietam 19.1: at the game's end, ``points`` to the side
  that controls every one of ``hexes`` (17.15, rules/queries/control.py), to ``side`` only when it is
  given; nothing for some of them ("No Victory Points are awarded for individual hexes").
- ``all_eliminated`` [{side, units, points}]: Wilderness 19.12 iii): at the game's end, ``points`` to
  ``side`` when every one of ``units`` has been eliminated ("Fifteen Victory Points for the elimination
  of both Union Train Defence units"); nothing for some of them.
- ``levels`` [{level, min, max}]: 20.2, by the differential Union points minus Confederate points; an
  absent bound is open. With ``ratio_of`` [a, b] (Antietam 19.2: "the ratio of Union Victory Points to
  Confederate Victory Points"), by the ratio of side a's points to side b's instead: each level's
  bounds are ratios written as the book prints them, "2:1", "1:1.25" (``at_least``, ``above``,
  ``at_most``, ``below``); an absent bound is open. Ruling: when both sides have no points the ratio is
  1:1. A level may also ask that a side occupy hexes at the end (``occupied = {side, hexes}``, Shiloh
  18.2, 18.31: control, rules/queries/control.py; the hexes are tracked). The first level of the list
  whose every condition holds is the game's.

Road to Richmond 22.1:
- ``unit_eliminated`` [{unit, points}]: 22.11 ii): the enemy scores ``points`` for eliminating the unit
  (the Union Train: ten), instead of its Combat Strength Points.
- ``never_entered`` [{unit, points}]: 22.12 vi): at the end, the enemy scores ``points`` if the unit
  (a reinforcement) never entered the map (it is not on it, was not eliminated and did not exit).
- ``occupied_each_turn`` [{hexes, points_each, after_turn, by_control, points}]: 22.13: at the end of
  each Game-Turn after ``after_turn``, each Player scores ``points_each`` for each of ``hexes`` one of his
  units physically occupies (a unit in the hex: not control). Road to Vicksburg 21.3: ``by_control``, the
  Player controlling it then, ``points`` by side (the crossroads 1309: ten to the Confederate, five to the
  Union).

Savage's Station 19.1:
- ``first_occupation`` [{side, hex, points, from_turn, then}]: 19.11 ii): ``points`` to ``side`` on the
  first occurrence of its occupying ``hex`` (19.13: a unit of the side in the hex, there or passing
  through it), ``then`` points instead from Game-Turn ``from_turn`` on ("If during any of Game-Turns One
  to Three the Confederate Player occupies Savage's Station (hex 2516) he is awarded 25 Victory Points.
  If during Game-Turn Four onwards ... 15 ... These are single and exclusive awards"): once per side and
  hex in the game.
- ``control_of_all`` entries with ``failing`` (a side): 19.12 ii): ``points`` to ``side`` when
  ``failing`` does not control every one of the hexes at the end ("if the Confederate Player has failed
  to occupy all of hexes 1835, 3216 and 4716").

Fredericksburg:
- ``at_start`` {side: points}: 21.35: "The Confederate Player starts the game with four Victory Points
  as a result of a previous exit" (the state's points at the start, ``rules.reducer.new_game``).
- ``automatic`` {side, at_end_of_turn, at_least, unless_enemy_occupies, level}: 20.0: "At the end of
  Game-Turn Five ... If the Confederate Player has a total in Victory Points of 3:1 or greater than the
  Union Player (counting Points for elimination of Enemy units only), and if the Union Player does not
  occupy hexes 1113, 1711 or 2401, the Confederate Player automatically wins the game": the game ends
  then with ``level`` (the hexes are tracked).

rules/procedures/victory.py awards the points and determines the level.

    [exclusive.victory]
    per_enemy_unit_eliminated = { confederate = 3, union = 2 }
    first_control = { side = "confederate", hexes = ["1514", "1417"], points_each = 4 }
    [[exclusive.victory.levels]]
    level = "Draw"
    min = -5
    max = 5
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated

import msgspec

from rules.core.components.values import AreaName, Component, Count, HexNumber, UnitId
from rules.core.scenario import Side, UnitType

#: A ratio as the book prints it, "2:1", "1:1.25", "1.5:1" (Antietam 19.2).
Ratio = Annotated[str, msgspec.Meta(pattern=r"^[0-9]+(\.[0-9]+)?:[0-9]+(\.[0-9]+)?$")]


def _fraction(ratio: str) -> tuple[Fraction, Fraction]:
    a, b = ratio.split(":")
    return Fraction(a), Fraction(b)


def _compare(a: int, b: int, ratio: str) -> int:
    """The sign of a:b minus ``ratio`` (-1, 0, 1), by cross-multiplying (exact; b may be 0)."""
    x, y = _fraction(ratio)
    left, right = a * y, b * x
    return (left > right) - (left < right)


class HexPoints(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """20.11 (2), 20.12 (2): ``points_each`` to ``side`` for each of ``hexes``."""

    side: Side
    hexes: list[HexNumber]
    points_each: Count


class AreaInZoc(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """20.12 (1): ``points_each`` to ``side`` for each hex of the map's ``area`` in the zone of
    control of one of its units (of ``unit_type``, or of any type)."""

    side: Side
    area: AreaName
    points_each: Count
    unit_type: UnitType | None = None


class HexValue(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Chickamauga 21.12: ``points`` for occupying ``hex`` at the end, to ``side`` (None: either Player)."""

    hex: HexNumber
    points: Count
    side: Side | None = None

    def scores_for(self, occupier: Side | None) -> bool:
        return occupier is not None and (self.side is None or self.side == occupier)


class AllHexes(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Antietam 19.1: ``points`` for control of all of ``hexes`` at the end, to ``side`` (None: either
    Player)."""

    hexes: list[HexNumber]
    points: Count
    side: Side | None = None
    failing: Side | None = None  # Savage's Station 19.12 ii): to ``side`` when this side does not hold all

    def __post_init__(self):
        if self.failing is not None and (self.side is None or self.side == self.failing):
            raise ValueError("with failing, side names the other side, the one that scores")

    def held_by(self, control: dict) -> Side | None:
        """19.1: the side that controls every one of the hexes, if one does and may score them;
        Savage's Station 19.12 ii): with ``failing``, ``side`` when ``failing`` does not control them all."""
        if self.failing is not None:
            return None if all(control.get(h) == self.failing for h in self.hexes) else self.side
        held = {control.get(h) for h in self.hexes}
        if len(held) != 1:
            return None
        (side,) = held
        return side if side is not None and (self.side is None or self.side == side) else None


class FirstOccupation(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Savage's Station 19.11 ii): ``points`` to ``side`` the first time it occupies ``hex`` (19.13: has a
    unit in it); ``then`` points instead when that first time is on Game-Turn ``from_turn`` or later."""

    side: Side
    hex: HexNumber
    points: Count
    from_turn: Count | None = None
    then: Count | None = None

    def __post_init__(self):
        if (self.from_turn is None) != (self.then is None):
            raise ValueError("from_turn and then go together: the points from that Game-Turn on")

    def points_on(self, turn: int) -> int:
        """19.11 ii): the award for a first occupation on Game-Turn ``turn``."""
        if self.from_turn is not None and turn >= self.from_turn:
            return self.then
        return self.points

    @property
    def key(self) -> str:
        return f"{self.side}:{self.hex}"


class AllEliminated(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Wilderness 19.12 iii): ``points`` to ``side`` for the elimination of every one of ``units``."""

    side: Side
    units: list[UnitId]
    points: Count

    def scores(self, eliminated) -> bool:
        return all(u in eliminated for u in self.units)


class Occupied(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Shiloh 18.2, 18.31: ``side`` occupies every one of ``hexes`` at the end of the game."""

    side: Side
    hexes: list[HexNumber]

    def holds(self, control: Mapping[str, str]) -> bool:
        return all(control.get(h) == self.side for h in self.hexes)


class WithoutExits(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Road to Vicksburg (the Levels of Victory, printed 19.4): "For the Confederate Player to win a
    decisive victory, no Friendly units exited from the western map edge can be included in his Victory
    Point total": ``side``'s points for its units exited at ``hexes`` are left out when this level is judged."""

    side: Side
    hexes: list[HexNumber]


class Level(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """20.2: a level of victory and the differentials it covers (``min`` to ``max``; None is open);
    Antietam 19.2: or the ratios (``at_least``, ``above``, ``at_most``, ``below``: "2:1", "1:1.25");
    Shiloh 18.2: and the hexes a side must occupy at the end (``occupied``; None: none); Road to
    Vicksburg: ``without_exits``, judged without a side's points for units exited at some hexes."""

    level: str
    min: int | None = None
    max: int | None = None
    at_least: Ratio | None = None
    above: Ratio | None = None
    at_most: Ratio | None = None
    below: Ratio | None = None
    occupied: Occupied | None = None
    without_exits: WithoutExits | None = None

    def totals_judged(self, totals: Mapping[str, int], exited: Mapping[tuple[str, str], int]) -> dict[str, int]:
        """Road to Vicksburg: ``totals`` less ``without_exits``'s side's points for units exited at its hexes
        (``exited``: points by (side, exit hex))."""
        out = dict(totals)
        w = self.without_exits
        if w is not None:
            out[w.side] = out.get(w.side, 0) - sum(exited.get((w.side, h), 0) for h in w.hexes)
        return out

    def covers(self, differential: int) -> bool:
        return (self.min is None or self.min <= differential) and (
            self.max is None or differential <= self.max
        )

    def occupied_as_asked(self, control: Mapping[str, str]) -> bool:
        """Shiloh 18.2, 18.31: the side the level names occupies its hexes (always, when it names none)."""
        return self.occupied is None or self.occupied.holds(control)

    def covers_ratio(self, a: int, b: int) -> bool:
        """19.2: does the ratio a:b fall within this level's bounds?"""
        if a == b == 0:
            a = b = 1  # Ruling: no points on either side is 1:1
        return (
            (self.at_least is None or _compare(a, b, self.at_least) >= 0)
            and (self.above is None or _compare(a, b, self.above) > 0)
            and (self.at_most is None or _compare(a, b, self.at_most) <= 0)
            and (self.below is None or _compare(a, b, self.below) < 0)
        )


class UnitPoints(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Road to Richmond 22.11 ii), 22.12 vi): ``points`` to the enemy of ``unit``."""

    unit: UnitId
    points: Count


class OccupiedEachTurn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Road to Richmond 22.13: ``points_each`` a Game-Turn for each of ``hexes`` a Player's unit
    occupies at the end of each Game-Turn after ``after_turn``. Road to Vicksburg 21.2, 21.3: with
    ``by_control``, the Player controlling the hex then (21.2: the last to occupy, pass through or exert
    an uncontested Zone of Control into it; the hexes are tracked) instead of a unit in it; ``points``
    by side ("10 Confederate Player, 5 Union Player") instead of ``points_each``."""

    hexes: list[HexNumber]
    points_each: Count = 0
    after_turn: Count = 0
    by_control: bool = False
    points: dict[Side, Count] = {}

    def points_for(self, side: str) -> int:
        return self.points.get(side, self.points_each)


class AutomaticVictory(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Fredericksburg 20.0: ``side`` wins at once at the end of Game-Turn ``at_end_of_turn`` when its
    points for eliminating enemy units are ``at_least`` the ratio to the enemy's (for eliminating its
    units) and the enemy occupies none of ``unless_enemy_occupies``; the game ends with ``level``."""

    side: Side
    at_end_of_turn: Count
    at_least: Ratio
    level: str
    unless_enemy_occupies: list[HexNumber] = []

    def holds(self, eliminations: Mapping[str, int], control: Mapping[str, str | None]) -> bool:
        """20.0: ``eliminations``: each side's points for eliminating enemy units; ``control``: who
        occupies each hex (21.21)."""
        enemy = next(s for s in ("union", "confederate") if s != self.side)
        mine, theirs = eliminations.get(self.side, 0), eliminations.get(enemy, 0)
        if mine == 0 and theirs == 0:  # the ratio of nothing to nothing is 1:1 (Ruling, 21.4)
            return False
        if _compare(mine, theirs, self.at_least) < 0:
            return False
        return not any(control.get(h) == enemy for h in self.unless_enemy_occupies)


class VictoryPoints(Component, frozen=True):
    per_enemy_unit_eliminated: dict[Side, Count] = {}
    first_control: HexPoints | list[HexPoints] | None = None
    town_in_zoc: AreaInZoc | None = None
    last_control: HexPoints | None = None
    per_enemy_strength_point_eliminated: dict[Side, Count] = {}
    occupation: list[HexValue] = []
    control_of_all: list[AllHexes] = []
    all_eliminated: list[AllEliminated] = []
    levels: list[Level] = []
    ratio_of: list[Side] = []
    unit_eliminated: list[UnitPoints] = []
    never_entered: list[UnitPoints] = []
    occupied_each_turn: list[OccupiedEachTurn] = []
    at_start: dict[Side, Count] = {}
    automatic: AutomaticVictory | None = None
    first_occupation: list[FirstOccupation] = []

    def tracked_hexes(self) -> tuple[str, ...]:
        """17.15, 21.2, Antietam 19.1: the hexes whose control scores."""
        held = (h for c in (*self.first_controls, self.last_control) if c is not None for h in c.hexes)
        levels = (h for lv in self.levels if lv.occupied is not None for h in lv.occupied.hexes)  # Shiloh 18.31
        return (
            *held,
            *(o.hex for o in self.occupation),
            *(h for o in self.occupied_each_turn if o.by_control for h in o.hexes),  # Road to Vicksburg 21.2
            *(h for c in self.control_of_all for h in c.hexes),
            *levels,
            *(self.automatic.unless_enemy_occupies if self.automatic is not None else ()),  # Fredericksburg 20.0
        )

    @property
    def first_controls(self) -> list[HexPoints]:
        """20.11 (2): every ``first_control`` entry (one, or a list: Ezra Church 18.12 ii), iii))."""
        f = self.first_control
        return [] if f is None else list(f) if isinstance(f, list) else [f]

    def for_elimination(self, side: str, strength: int = 0) -> int:
        """20.11 (1), (3): what ``side`` scores for an enemy unit eliminated; Chickamauga 21.11 i):
        and for each of its ``strength`` Combat Strength Points."""
        per_point = self.per_enemy_strength_point_eliminated.get(side, 0)
        return self.per_enemy_unit_eliminated.get(side, 0) + per_point * strength

    def for_unit(self, side: str, unit_id: str, strength: int) -> int:
        """What ``side`` scores for eliminating the enemy unit ``unit_id``: Road to Richmond 22.11 ii)
        its own award (the Train: ten) when it has one, else ``for_elimination``."""
        own = next((u.points for u in self.unit_eliminated if u.unit == unit_id), None)
        return self.for_elimination(side, strength) if own is None else own

    def level_of(self, differential: int) -> str | None:
        """20.2: the level of victory for a differential (Union minus Confederate points)."""
        for level in self.levels:
            if level.covers(differential):
                return level.level
        return None

    def level_for(
        self, totals: dict[str, int], control: Mapping[str, str] | None = None, exited: Mapping[tuple[str, str], int] | None = None
    ) -> str | None:
        """20.2, Antietam 19.2: the level of victory for the sides' totals: by the ratio of
        ``ratio_of``'s first side's points to the second's when it is given, else by the differential;
        Shiloh 18.2: the first level whose hexes to occupy (if any) its side occupies (``control``,
        18.31) at the end; Road to Vicksburg: a level ``without_exits`` judged without the points of
        ``exited`` (by side and exit hex) it names."""
        control = {} if control is None else control
        exited = {} if exited is None else exited
        if not self.ratio_of:
            for level in self.levels:
                judged = level.totals_judged(totals, exited)
                differential = judged.get("union", 0) - judged.get("confederate", 0)
                if level.covers(differential) and level.occupied_as_asked(control):
                    return level.level
            return None
        for level in self.levels:
            a, b = (level.totals_judged(totals, exited).get(s, 0) for s in self.ratio_of)
            if level.covers_ratio(a, b) and level.occupied_as_asked(control):
                return level.level
        return None

    def __post_init__(self):
        keys = [o.key for o in self.first_occupation]
        if len(keys) != len(set(keys)):
            raise ValueError("first_occupation: one entry per side and hex (19.11 ii): single and exclusive awards)")
        if self.ratio_of and (len(self.ratio_of) != 2 or self.ratio_of[0] == self.ratio_of[1]):
            raise ValueError("ratio_of names the two sides, the first the one whose points are divided")
