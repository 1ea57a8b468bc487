"""Stacking (5.31–5.33; 15.15 for reinforcements).

5.32: at the end of any phase no hex holds more than two units (the rule set's ``stacking_limit``);
5.31, 5.33: any number may pass through. A unit may therefore end its move on a full hex only if the
hex can still be brought within the limit before the phase ends: no dead end. ``resolvable`` decides
that, conservatively: it is true only when, for every over-full hex, enough of its units may still
move to hexes with room (a matching of units to free places) and the movement quota, counted as if
every one of those moves used it, allows them. Units passing through never matter: whole moves are
one command each.

Olustee 18.2 (``[exclusive.stacking] strength_points``): "Up to eight Combat Strength Points may stack
in a hex": every count is of Combat Strength Points (``weight``: a unit's strength, else 1) against that
limit; the matching of units to free places is then a greedy one (the heaviest units first, each to the
first destination with room for it), conservative as ever: a move it cannot prove resolvable is refused.

Road to Vicksburg 18.2 (``[exclusive.symbolic_units]``): "The Train unit may stack with any other unit and
does not count against the stacking limit in a hex": a symbolic unit weighs nothing (``weight`` 0, left
out of ``counts``) and is never one of the units that must leave an over-full hex.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from rules.core.state import State
from rules.core.unfolding import Unfolding


def by_strength(state: State) -> bool:
    """Olustee 18.2: does stacking count Combat Strength Points?"""
    rule = state.game.battle.stacking
    return rule is not None and rule.strength_points is not None


def counted(game, unit: str) -> bool:
    """Does ``unit`` count against the stacking limit (Road to Vicksburg 18.2: a symbolic unit does not)?"""
    return not game.battle.symbolic(unit)


def weight(state: State, unit: str) -> int:
    """What ``unit`` counts for stacking: one unit (5.32, 6.32), or its Combat Strength Points (Olustee
    18.2); nothing for a symbolic unit (Road to Vicksburg 18.2)."""
    if not counted(state.game, unit):
        return 0
    return state.game.units[unit].strength if by_strength(state) else 1


def limit(state: State) -> int:
    """The most a hex may hold at the end of a phase: two units (5.32, 6.32) or Olustee 18.2's points."""
    rule = state.game.battle.stacking
    if rule is not None and rule.units is not None:
        return rule.units  # Road to Vicksburg 19.4: "Up to five Friendly units"
    return state.game.ruleset.stacking_limit if rule is None or rule.strength_points is None else rule.strength_points


def what(state: State) -> str:
    """The stacking limit's measure, for messages."""
    return "Combat Strength Points" if by_strength(state) else "units"


def counts(state: State, side: str | None = None) -> Counter:
    """Units (Olustee 18.2: Combat Strength Points) per occupied hex (of one side, or of both)."""
    units = state.game.units
    symbolic = state.game.battle.symbolic_units  # Road to Vicksburg 18.2: not counted
    if by_strength(state):
        out: Counter = Counter()
        for u, h in state.positions.items():
            if (side is None or units[u].side == side) and (symbolic is None or not symbolic.binds(u)):
                out[h] += units[u].strength
        return out
    if symbolic is not None:
        return Counter([h for u, h in state.positions.items() if (side is None or units[u].side == side) and not symbolic.binds(u)])
    if side is None:
        return Counter(state.positions.values())
    out = Counter(map(state.positions.get, state.game.side_units[side]))
    out.pop(None, None)  # the side's units not on the map
    return out


def overstacked(state: State, side: str | None = None) -> dict[str, int]:
    """Hexes over the limit, with how many units too many."""
    if known_within_limit(state):
        return {}
    n = limit(state)
    found = counts(state, side)
    if max(found.values(), default=0) <= n:  # the usual answer, without a Python loop
        if side is None:
            note_within_limit(state.game, state.positions.copy())
        return {}
    return {h: c - n for h, c in found.items() if c > n}


def known_within_limit(state: State) -> bool:
    """Are these the units' hexes last found with every hex within the limit (``note_within_limit``)?
    One position is kept per Game: each move of a Movement Phase starts where the one before ended,
    and the phase ends where the last one did."""
    return state.positions == state.game.within_limit


def note_within_limit(game, positions: dict[str, str]) -> None:
    """Keep ``positions`` (a copy no one changes) as a position with every hex within the limit."""
    game.within_limit = positions


def check_stacking_at_end_of_phase(state: State) -> None:
    """5.32: no phase ends with more than two units in a hex (First Bull Run 17.2: nor with another unit
    in the hex of a unit none may stack with)."""
    alone = state.game.battle.stacking
    crowded = alone.crowded(state.positions) if alone is not None else None
    if crowded is not None:
        hex_, unit = crowded
        names = ", ".join(state.game.designation(u) for u in state.units_in(hex_))
        raise state.game.violation("stacking.alone", f"{hex_} holds {names}: no unit may stack with {state.game.designation(unit)}")
    sized = alone.sized_crowded(state.positions, {u: state.game.units[u].size for u in state.positions}) if alone is not None and alone.at_most_one else None
    if sized is not None:  # Road to Vicksburg 19.4: "no more than one of those units is brigade-sized"
        hex_, size = sized
        names = ", ".join(state.game.designation(u) for u in state.units_in(hex_))
        raise state.game.violation("stacking", f"{hex_} holds {names}: no more than one {size} may be in one hex at the end of a phase")
    over = overstacked(state)
    if over:
        game = state.game
        hex_ = min(over)
        names = ", ".join(game.designation(u) for u in state.units_in(hex_))
        raise game.violation(
            "stacking",
            f"{hex_} holds {over[hex_] + limit(state)} {what(state)} ({names}); no more than {limit(state)} "
            "may be in one hex at the end of a phase",
        )


def resolvable(
    state: State,
    side: str,
    movable: Callable[[State, str], bool],
    destinations: Callable[[State, str], Iterable[str]],
    quota_remaining: int | None,
) -> bool:
    """Can every over-full hex of ``side`` still be brought within the limit this phase?

    ``movable(state, unit)``: may the unit still move; ``destinations(state, unit)``: the hexes it
    could end a move in; ``quota_remaining``: moves left under a quota, or None."""
    return _resolvable(
        limit(state),
        overstacked(state, side),
        counts(state, side),
        lambda hex_: [u for u in state.units_in(hex_) if movable(state, u) and counted(state.game, u)],
        lambda u: destinations(state, u),
        quota_remaining,
        (lambda u: weight(state, u)) if by_strength(state) else None,
    )


class Arrivals:
    """5.32, no dead end, for one unit that has just moved, at each hex it might have ended its move
    in: ``after`` is the state after its move to any one of them. Only the unit's own place differs
    between those states, so who may still move, where, and the quota are worked out once."""

    def __init__(
        self,
        after: State,
        unit: str,
        movable: Callable[[State, str], bool],
        destinations: Callable[[State, str], Iterable[str]],
        quota_remaining: int | None,
    ):
        self.after = after
        self.unit = unit
        self.movable = movable
        self.destinations = destinations
        self.quota_remaining = quota_remaining
        self.n = limit(after)
        self.weight = (lambda u: weight(after, u)) if by_strength(after) else None
        self.occupancy = counts(after, after.game.units[unit].side)  # without the unit:
        self.occupancy[after.positions[unit]] -= weight(after, unit)
        self._candidates: dict[str, list[str]] = {}

    def allows(self, dest: str) -> bool:
        """Could every over-full hex still be brought within the limit, the unit having ended in ``dest``?"""
        occupancy = dict(self.occupancy)
        occupancy[dest] = occupancy.get(dest, 0) + weight(self.after, self.unit)
        over = {h: c - self.n for h, c in occupancy.items() if c > self.n}
        return _resolvable(
            self.n,
            over,
            occupancy,
            self._movable_in,
            lambda u: self.destinations(self.after, u),
            self.quota_remaining,
            self.weight,
        )

    def _movable_in(self, hex_: str) -> list[str]:
        if hex_ not in self._candidates:
            after = self.after
            self._candidates[hex_] = [
                u for u in after.units_in(hex_) if u != self.unit and self.movable(after, u) and counted(after.game, u)
            ]
        return self._candidates[hex_]


def _resolvable(
    n: int,
    over: dict[str, int],
    occupancy,
    movable_in: Callable[[str], list[str]],
    destinations: Callable[[str], Iterable[str]],
    quota_remaining: int | None,
    weight: Callable[[str], int] | None = None,
) -> bool:
    """``resolvable`` on its parts: the over-full hexes with their excess, units per hex, the units of
    a hex that may still move, a unit's possible ends, the quota left; Olustee 18.2: ``weight``, each
    unit's Combat Strength Points (``_resolvable_by_strength``)."""
    if not over:
        return True
    if weight is not None:
        return _resolvable_by_strength(n, over, occupancy, movable_in, destinations, quota_remaining, weight)
    need = sum(over.values())
    if quota_remaining is not None and need > quota_remaining:
        return False
    room = {}  # free places per hex, filled lazily
    # Each over-full hex needs `excess` of its units moved out to a hex with room.
    slots: list[str] = []  # one entry per unit that must leave, naming its hex
    candidates: dict[str, list[str]] = {}
    for hex_, excess in sorted(over.items()):
        units = movable_in(hex_)
        if len(units) < excess:
            return False
        candidates[hex_] = units
        slots.extend([hex_] * excess)
    home = {u: hex_ for hex_, units in candidates.items() for u in units}

    def with_room(d: str, home: str) -> bool:
        if d == home:
            return False
        if d not in room:
            room[d] = n - occupancy.get(d, 0)
        return room[d] > 0

    def options(u: str) -> Unfolding[str]:
        """The ends of ``u``'s possible moves with room (its hex's excess aside), found as far as the
        matching reads them."""
        return Unfolding(d for d in destinations(u) if with_room(d, home[u]))

    # Match units to the places they must free: each unit once, each hex at most `room` arrivals.
    return _match(slots, candidates, options, room)


def _resolvable_by_strength(n, over, occupancy, movable_in, destinations, quota_remaining, weight) -> bool:
    """Olustee 18.2: can the excess Combat Strength Points of every over-full hex be moved out to hexes
    with room for them? Greedy (each hex in order, its heaviest movable units first, each to the first
    of its destinations with room), so conservative: False may be said of a position that some other
    choice of moves would resolve, never True of one that none would."""
    room: dict[str, int] = {}
    moves = 0
    for hex_, excess in sorted(over.items()):
        left = excess
        for u in sorted(movable_in(hex_), key=lambda x: (-weight(x), x)):
            if left <= 0:
                break
            w = weight(u)
            for d in destinations(u):
                if d == hex_:
                    continue
                if d not in room:
                    room[d] = n - occupancy.get(d, 0)
                if room[d] >= w:
                    room[d] -= w
                    left -= w
                    moves += 1
                    break
        if left > 0:
            return False
    return quota_remaining is None or moves <= quota_remaining


def _match(slots: list[str], candidates: dict[str, list[str]], options_of: Callable[[str], Iterable[str]], room) -> bool:
    """Assign to each slot (an over-full hex) a distinct candidate unit of that hex with a
    destination that has room (augmenting paths over units and destination places). A unit's options
    (``options_of``: a search of its moves) are worked out when the matching first tries it: once the
    slots are filled, the candidates left untried cost nothing."""
    unit_dest: dict[str, str] = {}  # matched unit -> destination
    arrivals: dict[str, list[str]] = {}  # destination -> units matched to it
    used: set[str] = set()
    options: dict[str, Iterable[str]] = {}

    def place(u: str, seen: set[str]) -> bool:
        if u not in options:
            options[u] = options_of(u)
        for d in options[u]:
            if d in seen:
                continue
            seen.add(d)
            here = arrivals.setdefault(d, [])
            if len(here) < room[d]:
                here.append(u)
                unit_dest[u] = d
                return True
            for other in list(here):
                if place(other, seen):
                    here.remove(other)
                    here.append(u)
                    unit_dest[u] = d
                    return True
        return False

    for hex_ in slots:
        for u in candidates[hex_]:
            if u in used:
                continue
            if place(u, set()):
                used.add(u)
                break
        else:
            return False
    return True
