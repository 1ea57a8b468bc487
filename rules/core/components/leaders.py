"""Leaders (Grand Chancellorsville 23.5): counters with stars and a command, that ride with a unit of
their command and help it in combat; killing one scores Victory Points.

    [exclusive.leaders]
    points_per_star = 2        # 23.58
    killed_on = [1]            # 23.56
    saved_on = [1, 2, 3]       # 23.55
    movement_allowance = 12    # 23.51 (absent: Leaders never move on their own)
    forced_march = 24          # 23.51 "may use Forced March Movement to double this to 24"
    leaders = [
      { id = "cs-jackson", name = "Jackson", side = "confederate", stars = 3, command = ["cs-heth-h", ...], with = "cs-heth-h" },
      { id = "cs-lee", name = "Lee", side = "confederate", stars = 4, with = "cs-barksdale-m" },
      { id = "us-hooker", name = "Hooker", side = "union", stars = 4, with = "us-art-reserve", saves = false },
    ]

23.5: "Leaders with one star are Confederate divisional and Union corps commanders. Leaders with more than
one star are army (Union and Confederate) and corps (Confederate) commanders." A leader's ``command`` is
the units of his command (empty: every unit of his side, an army commander's); ``with`` the unit he is
deployed with (23.59: "Leaders are deployed with any unit in their command, whether on the map sheet or as
Reinforcements"): he is in its hex, on the map or not yet (kept in ``state.scored`` as
``leader_with:<leader>:<unit>`` once he has changed unit; ``leader_killed:<leader>``,
``leader_removed:<leader>``). 23.51: with a ``movement_allowance`` a Leader may move on his own in his
side's Movement Phase (``MoveLeader``, rules/mechanisms/leaders.py): he leaves his unit and stands in a hex
(``leader_at:<leader>:<hex>``) until, as a phase ends, a unit he may ride with is in that hex
(``LeaderJoined``); ``leader_moved:<Game-Turn>:<leader>`` records his one move of the Game-Turn's
Movement Phase of his side.

The rules it answers (rules/mechanisms/leaders.py):
- 23.56: "If a Leader is stacked with a combat unit that receives a combat result that leads to that
  unit's elimination ... Roll a die for each Leader present with the destroyed combat unit. A die roll of
  '1' results in the Leader being killed. Any other result requires that the Leader is placed immediately
  on the nearest unit of his command" (``killed_on``);
- 23.53: "If all units within a particular command have been eliminated the commander is removed from play";
- 23.58: "Victory Points equivalent to twice the number of stars on the counter for eliminating a
  commander" (``points_per_star``);
- 23.55: "Any unit suffering a Disruption result that is stacked with a Leader receives a 'saving' die
  roll ... on a die roll of '1-3' the Disruption result is void. Exception: Hooker does not produce this
  benefit" (``saved_on``; a leader's ``saves = false``);
- 23.57: "Units that attempt to Rally automatically succeed if stacked with a Leader."
- 23.51: "They have a Movement Allowance of twelve and may use Forced March Movement to double this to 24
  Movement Points. Leaders may not use Strategic Movement" (``movement_allowance``, ``forced_march``);
- 23.54: "if alone in a hex they do not impede the movement of any Enemy units ... If an Enemy combat unit
  moves into or through a hex containing a Leader, that Leader is eliminated" (``LeaderEliminated``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import msgspec

from rules.core.components.values import Component, Count, DieFace, UnitId
from rules.core.scenario import Side

if TYPE_CHECKING:
    from rules.core.state import State

WITH = "leader_with:"
KILLED = "leader_killed:"
REMOVED = "leader_removed:"
AT = "leader_at:"
MOVED = "leader_moved:"
PLACED = (WITH, AT)


class Place(NamedTuple):
    """Where a Leader is, read from his marks (``Leaders.places``)."""

    unit: str | None  # 23.59: the unit he rides with; None while he stands on his own (23.51)
    standing: str | None  # 23.51: the hex he stands in on his own, or None
    hex: str | None  # his hex (his own, or his unit's), or None (killed, removed, not yet arrived)


class Leader(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    side: Side
    stars: Count
    # ``with`` is a Python keyword: the field is ``with_`` in code, ``with`` in scenario.toml
    with_: UnitId = msgspec.field(name="with")
    command: list[UnitId] = []
    saves: bool = True


class Leaders(Component, frozen=True):
    leaders: list[Leader]
    points_per_star: Count = 2
    killed_on: list[DieFace] = msgspec.field(default_factory=lambda: [1])
    saved_on: list[DieFace] = msgspec.field(default_factory=lambda: [1, 2, 3])
    movement_allowance: Count | None = None  # 23.51: twelve
    forced_march: Count | None = None  # 23.51: 24

    def __post_init__(self):
        ids = [x.id for x in self.leaders]
        if len(set(ids)) != len(ids):
            raise ValueError("the leaders' ids are distinct")
        for x in self.leaders:
            if x.command and x.with_ not in x.command:
                raise ValueError(f"{x.id} is deployed with a unit of his command (23.59)")
            if ":" in x.id:
                raise ValueError(f"{x.id}: a leader's id has no ':' (it separates the details of his marks)")

    def leader(self, leader_id: str) -> Leader:
        return next(x for x in self.leaders if x.id == leader_id)

    def in_play(self, state: State, leader: Leader) -> bool:
        """Neither killed (23.56) nor removed from play (23.53)."""
        return f"{KILLED}{leader.id}" not in state.scored and f"{REMOVED}{leader.id}" not in state.scored

    def places(self, state: State) -> dict[str, Place]:
        """Every Leader's ``Place`` by id, from one pass over ``state.scored`` (his last ``leader_with:``
        mark, else the unit he was deployed with; his ``leader_at:``; 23.56, 23.53: killed or removed): a
        caller asking after several Leaders reads them once."""
        rides: dict[str, str] = {}
        stands: dict[str, str] = {}
        for s in state.scored:
            if not s.startswith(PLACED):
                continue
            if s.startswith(WITH):
                found, details = rides, s[len(WITH) :]
            else:
                found, details = stands, s[len(AT) :]
            leader_id, sep, detail = details.partition(":")
            if sep:
                found.setdefault(leader_id, detail)  # the first of the set's order, as ever
        positions = state.positions
        out = {}
        for x in self.leaders:
            at = stands.get(x.id)
            unit = rides.get(x.id, x.with_)
            if not self.in_play(state, x):
                here = None
            else:
                here = at if at is not None else positions.get(unit)  # not standing: riding
            out[x.id] = Place(unit=unit if at is None else None, standing=at, hex=here)
        return out

    def place(self, state: State, leader: Leader) -> Place:
        """``leader``'s ``Place`` (``places`` for several Leaders)."""
        return self.places(state)[leader.id]

    def unit_of(self, state: State, leader: Leader) -> str | None:
        """23.59: the unit ``leader`` rides with now (the one he was deployed with, until he changed);
        None while he stands in a hex on his own (23.51: since his own move)."""
        return self.place(state, leader).unit

    def standing(self, state: State, leader: Leader) -> str | None:
        """23.51: the hex ``leader`` stands in on his own (riding with no unit), or None."""
        return self.place(state, leader).standing

    def hex_of(self, state: State, leader: Leader) -> str | None:
        """The hex of ``leader`` (his own, or his unit's), or None (killed, removed, not yet arrived)."""
        return self.place(state, leader).hex

    def alone(self, state: State, leader: Leader, place: Place | None = None) -> bool:
        """23.54: is ``leader`` on the map in a hex without a combat unit of his side? ``place``: his
        ``Place`` when already read."""
        here = (place or self.place(state, leader)).hex
        if here is None:
            return False
        return not self.his_side_in(state, leader, here)

    def his_side_in(self, state: State, leader: Leader, hex_: str) -> list[str]:
        """The units of ``leader``'s side in ``hex_``, in id order."""
        units = state.game.units
        return [u for u in state.units_in(hex_) if units[u].side == leader.side]

    def may_not_stand(self, state: State, leader: Leader) -> frozenset[str]:
        """23.53: the hexes ``leader`` may not end a move in. "One-star Leaders may stack only with units of
        their command. Exception: a one-star Leader may stack in any hex where there is a higher commander
        present" (a Leader of his side with more stars). Leaders of more stars stack with any unit of their
        side: none."""
        if leader.stars > 1:
            return frozenset()
        units = state.game.units
        barred = {h for u, h in state.positions.items() if units[u].side == leader.side and not self.commands(state, leader, u)}
        if barred:
            places = self.places(state)
            barred -= {places[x.id].hex for x in self.leaders if x.side == leader.side and x.stars > leader.stars}
        return frozenset(barred)

    def rides_with(self, state: State, leader: Leader, hex_: str) -> str | None:
        """The unit of ``hex_`` ``leader`` rides with when he stands there: the first of his command by id;
        for a Leader of more than one star, else the first unit of his side there (a one-star Leader with
        no unit of his command there stays on his own: 23.53)."""
        here = self.his_side_in(state, leader, hex_)
        mine = [u for u in here if self.commands(state, leader, u)]
        if mine:
            return mine[0]
        return here[0] if here and leader.stars > 1 else None

    def moved(self, state: State, leader: Leader) -> bool:
        """23.51: has ``leader`` moved on his own in this Game-Turn (his side's one Movement Phase)?"""
        return f"{MOVED}{state.turn}:{leader.id}" in state.scored

    def commands(self, state: State, leader: Leader, unit: str) -> bool:
        """Is ``unit`` of ``leader``'s command (an army commander's: any unit of his side)?"""
        if leader.command:
            return unit in leader.command
        return state.game.units[unit].side == leader.side

    def stacked_with(self, state: State, unit: str) -> list[Leader]:
        """The leaders of ``unit``'s side in its hex, the highest ranking first (23.52)."""
        here = state.positions.get(unit)
        if here is None:
            return []
        side = state.game.units[unit].side
        places = self.places(state)
        found = [x for x in self.leaders if x.side == side and places[x.id].hex == here]
        return sorted(found, key=lambda x: -x.stars)

    def saving(self, state: State, unit: str) -> Leader | None:
        """23.55: the leader whose presence gives ``unit`` a saving roll against a Disruption (not
        Hooker's: ``saves`` false), or None. "Only one Leader may affect units in a stack"."""
        return next((x for x in self.stacked_with(state, unit) if x.saves), None)

    def points(self, leader: Leader) -> int:
        """23.58: "twice the number of stars on the counter"."""
        return self.points_per_star * leader.stars
