"""A game's timeline: where every version of its log falls (Game-Turn, phasing side, phase), which
versions an accepted undo made void, and where stepping by event, phase, player-turn or Game-Turn
lands. Built from the envelopes alone (no fold: phases are read from the ``phase_began`` and
``game_turn_advanced`` events), so it is cheap to build and to extend as a live game grows.

Undone ranges: an ``undo_accepted`` at version ``a`` answering a request back to ``b`` voids the
versions strictly between ``b`` and ``a`` (session/history.py). A replay still lets a viewer seek
into them (they happened, and are shown as markers), but stepping skips them: the story of the game
is its effective history.
"""

from __future__ import annotations

import bisect
from typing import Literal

import msgspec

from eventstore.envelope import Envelope

Unit = Literal["event", "phase", "player_turn", "game_turn"]
UNITS: tuple[str, ...] = ("event", "phase", "player_turn", "game_turn")


class _PhaseBegan(msgspec.Struct):
    turn: int
    side: str
    phase: str


class _TurnAdvanced(msgspec.Struct):
    turn: int


class _UndoAccepted(msgspec.Struct):
    back_to: int


_phase = msgspec.json.Decoder(_PhaseBegan)
_turn = msgspec.json.Decoder(_TurnAdvanced)
_undo = msgspec.json.Decoder(_UndoAccepted)


class Marker(msgspec.Struct, frozen=True, kw_only=True):
    """Something a replay shows on its time line: ``kind`` is ``undone`` (versions ``first``..``last``
    were taken back by the undo accepted at ``at``), ``game_turn`` or ``player_turn`` (a turn began
    at ``first``)."""

    kind: str
    first: int
    last: int
    at: int = 0
    label: str = ""


class Place(msgspec.Struct, frozen=True, kw_only=True):
    """Where a version falls: the Game-Turn, phasing side and phase after it, and whether it was undone."""

    version: int
    turn: int
    side: str
    phase: str
    undone: bool
    type: str


class Timeline:
    """The places of versions 1..`version` of one game (see the module documentation)."""

    def __init__(self, start: tuple[int, str, str] = (1, "", "")) -> None:
        """`start`: the Game-Turn, phasing side and phase of the game's opening state."""
        self.version = 0
        self.types: list[str] = []  # by version - 1
        self.turns: list[int] = []
        self.sides: list[str] = []
        self.phases: list[str] = []
        self.times: list[int] = []
        self.reverted: list[tuple[int, int]] = []  # (back_to, accepted_at)
        # versions where a phase, a player-turn, a Game-Turn began (the phase_began / turn events)
        self._starts: dict[str, list[int]] = {"phase": [], "player_turn": [], "game_turn": []}
        self._turn, self._side, self._phase = start

    @classmethod
    def of(cls, envelopes, start: tuple[int, str, str] = (1, "", "")) -> Timeline:
        timeline = cls(start)
        timeline.extend(envelopes)
        return timeline

    def extend(self, envelopes) -> None:
        """Add the envelopes after `version`, in order."""
        for e in envelopes:
            if e.version <= self.version:
                continue
            if e.version != self.version + 1:
                raise ValueError(f"version {e.version} after {self.version}")
            self._add(e)

    def _add(self, e: Envelope) -> None:
        v = e.version
        if e.type == "phase_began":
            p = _phase.decode(e.payload)
            if p.side != self._side or p.turn != self._turn:
                self._starts["player_turn"].append(v)
            self._turn, self._side, self._phase = p.turn, p.side, p.phase
            self._starts["phase"].append(v)
        elif e.type == "game_turn_advanced":
            self._turn = _turn.decode(e.payload).turn
            self._starts["game_turn"].append(v)
        elif e.type == "undo_accepted":
            self.reverted.append((_undo.decode(e.payload).back_to, v))
        self.types.append(e.type)
        self.turns.append(self._turn)
        self.sides.append(self._side)
        self.phases.append(self._phase)
        self.times.append(e.time)
        self.version = v

    # -- questions -------------------------------------------------------------------------------
    def undone(self, version: int) -> bool:
        """Was `version` taken back by an undo (as the log stands now)?"""
        return any(b < version < a for b, a in self.reverted)

    def place(self, version: int) -> Place:
        if not 1 <= version <= self.version:
            raise ValueError(f"no version {version} (the log has 1..{self.version})")
        i = version - 1
        return Place(
            version=version,
            turn=self.turns[i],
            side=self.sides[i],
            phase=self.phases[i],
            undone=self.undone(version),
            type=self.types[i],
        )

    def markers(self) -> list[Marker]:
        """The undone ranges and where each player-turn began (for a scrub bar)."""
        out = [Marker(kind="undone", first=b + 1, last=a - 1, at=a) for b, a in self.reverted if a - 1 > b]
        for v in self._starts["player_turn"]:
            if not self.undone(v):
                p = self.place(v)
                out.append(Marker(kind="player_turn", first=v, last=v, label=f"Game-Turn {p.turn}, {p.side}"))
        return out

    def step(self, version: int, unit: str = "event", count: int = 1, limit: int | None = None) -> int:
        """The version `count` steps of `unit` from `version` (backwards when `count` < 0), skipping
        undone versions; clamped to 1..`limit` (default: the last version)."""
        if unit not in UNITS:
            raise ValueError(f"step by one of {', '.join(UNITS)}")
        last = self.version if limit is None else min(limit, self.version)
        if last < 1:
            return 0
        v = max(1, min(version, last))
        if count == 0:
            return v
        direction = 1 if count > 0 else -1
        for _ in range(abs(count)):
            nxt = self._next(v, unit, direction, last)
            if nxt is None:
                break
            v = nxt
        return v

    def _next(self, v: int, unit: str, direction: int, last: int) -> int | None:
        if unit == "event":
            candidates = range(v + 1, last + 1) if direction > 0 else range(v - 1, 0, -1)
            for c in candidates:
                if not self.undone(c):
                    return c
            return None
        starts = self._starts[unit]
        if direction > 0:
            i = bisect.bisect_right(starts, v)
            while i < len(starts) and starts[i] <= last:
                if not self.undone(starts[i]):
                    return starts[i]
                i += 1
            return last if v < last else None
        i = bisect.bisect_left(starts, v) - 1
        while i >= 0:
            if not self.undone(starts[i]):
                return starts[i]
            i -= 1
        return 1 if v > 1 else None
