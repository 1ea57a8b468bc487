"""The computer's eye in the after-action review: for a played game, the engine's evaluation after every
command (who was winning when) and, at each decision of the chosen side, the engine's preferred
command beside the one played.

Both commands are scored alike (``score``): the position after the command, evaluated for the side
that gave it (``players.engine.evaluate``), averaged over the six faces of the first die when the
command rolls one (an attack: over its resolution too, as the engine weighs attacks), so luck does
not count against a good decision. ``loss`` is how much better the engine's choice scores, never
below zero; a decision the engine agrees with has ``best`` None.

**Turning points**: the commands after which the evaluation moved most against the reviewed side
(its largest drops, the commands of either side, the dice included: where the game turned), each
with the version its Player-Turn started from, where "try this turn again" forks the game
(POST /api/games/{id}/fork with ``computer``).

Pure: it takes the game's commands, each with the state before and after it (objects with
``version``, ``side``, ``before``, ``command`` and ``after``, as replay/steps.py gives them), and returns
a ``Review``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

import msgspec

from players.engine import DEFAULT_LEVEL, die_showing, evaluate, expected
from players.levels import computer
from rules.core.commands import Command, DeclareAttack
from rules.core.errors import RuleViolation
from rules.core.state import State
from rules.reducer import decide, fold

if TYPE_CHECKING:
    from rules.core.scenario import Side


class Point(msgspec.Struct, frozen=True, array_like=True):
    """The evaluation after the command at ``version``, for the Union (positive: the Union ahead)."""

    version: int
    turn: int
    union: float


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """A decision of the reviewed side: the command played and its score, the engine's preferred
    command (None: the same) and its score, and the difference."""

    version: int
    turn: int
    phase: str
    played: bytes  # the command, as JSON
    played_score: float
    best: bytes | None = None
    best_score: float | None = None
    loss: float = 0.0


class TurningPoint(msgspec.Struct, frozen=True, kw_only=True):
    """The command at ``version`` (given by ``by``, in Game-Turn ``turn``, ``phasing``'s Player-Turn)
    moved the evaluation by ``change`` for the reviewed side (negative: against it);
    ``turn_start``, the version its Player-Turn starts from (the position before its first command)."""

    version: int
    turn: int
    phasing: str
    by: str
    change: float
    turn_start: int


class Review(msgspec.Struct, kw_only=True):
    side: str
    level: str
    points: list[Point]
    decisions: list[Decision]
    turning_points: list[TurningPoint] = []


def turning_points(steps: list, points: list[Point], side: str, start: float, count: int = 3) -> list[TurningPoint]:
    """The ``count`` commands after which the evaluation (``points``, after each of ``steps``; ``start``
    before the first) fell most for ``side`` (see the module)."""
    sign = 1 if side == "union" else -1
    starts: dict[tuple[int, str], int] = {}
    found = []
    previous = start
    for step, point in zip(steps, points, strict=True):
        key = (step.before.turn, step.before.phasing)
        starts.setdefault(key, step.version - 1)
        change = round(sign * (point.union - previous), 2)
        if change < 0:
            found.append(TurningPoint(
                version=step.version, turn=key[0], phasing=key[1], by=step.side, change=change, turn_start=starts[key],
            ))
        previous = point.union
    return sorted(found, key=lambda t: (t.change, t.version))[:count]


def score(state: State, command: Command, side: Side, rng: random.Random) -> float | None:
    """The engine's score of ``command`` for ``side`` (see the module); None when the rules refuse it."""
    if isinstance(command, DeclareAttack):
        return expected(state, command, side, rng)
    rolled: list[int] = []

    def counting(face: int):
        roll = die_showing(face, rng)

        def counted() -> int:
            rolled.append(1)
            return roll()

        return counted

    total, faces = 0.0, 0
    for face in range(1, 7):
        try:
            after = fold(state, decide(state, command, counting(face)))
        except RuleViolation:
            return None
        total += evaluate(after, side)
        faces += 1
        if not rolled:
            break  # no die: one face says it all
    return total / faces


def review(steps: Iterable, side: Side, level: str = DEFAULT_LEVEL, seed: int = 1) -> Review:
    """The evaluation curve over every step, and the decisions of ``side`` weighed against the
    computer's own at ``level`` (players/levels.py, ``expert`` included: its plan of each Movement
    Phase is made from the phase's first position reviewed; deterministic for a ``seed``)."""
    engine = computer(level)
    rng = random.Random(seed)
    points: list[Point] = []
    decisions: list[Decision] = []
    steps = list(steps)
    for step in steps:
        points.append(Point(step.version, step.after.turn, round(evaluate(step.after, "union"), 2)))
        if step.side != side:
            continue
        played = score(step.before, step.command, side, rng)
        if played is None:  # the game's own command: the rules accepted it when it was played
            continue
        preferred = engine(step.before, rng)
        decision = Decision(
            version=step.version,
            turn=step.before.turn,
            phase=step.before.phase,
            played=msgspec.json.encode(step.command),
            played_score=round(played, 2),
        )
        if preferred != step.command:
            best = score(step.before, preferred, side, rng)
            if best is not None and best > played:
                decision = msgspec.structs.replace(
                    decision,
                    best=msgspec.json.encode(preferred),
                    best_score=round(best, 2),
                    loss=round(best - played, 2),
                )
        decisions.append(decision)
    start = round(evaluate(steps[0].before, "union"), 2) if steps else 0.0
    return Review(
        side=side, level=level, points=points, decisions=decisions,
        turning_points=turning_points(steps, points, side, start),
    )
