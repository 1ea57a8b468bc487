"""Computer players against each other: whole games from a start position, each player on both sides,
with the results, win rates and their 95% confidence intervals, and each player's decision times.

A game is won by the side its level of victory names ("Union Marginal Victory" is the Union's); any
other result (a Draw) is no win. Decision times are wall-clock seconds per command asked of a player.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from players.engine import LEVELS, Engine, victor
from players.selfplay import PLAYERS, Player, play
from rules.core.scenario import SIDES, other_side
from rules.core.state import State
from rules.reducer import fold


def player_named(name: str) -> Player:
    """``random``, ``greedy``, ``engine`` (its default level) or ``engine:LEVEL``."""
    kind, _, level = name.partition(":")
    if kind == "engine":
        return Engine(level or "normal")
    if kind in PLAYERS and not level:
        return PLAYERS[kind]
    known = ", ".join([*PLAYERS, "engine", *(f"engine:{lv}" for lv in LEVELS)])
    raise ValueError(f"no player {name!r} (known: {known})")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins``/``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@dataclass
class Timed:
    """A player whose every decision is timed."""

    player: Player
    times: list[float] = field(default_factory=list)

    def __call__(self, state: State, rng: random.Random):
        t = time.perf_counter()
        command = self.player(state, rng)
        self.times.append(time.perf_counter() - t)
        return command


@dataclass
class Tally:
    """The games of player ``a`` (on ``side``) against player ``b``."""

    a: str
    b: str
    side: str
    results: list[str | None] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> int:
        return sum(1 for r in self.results if victor(r) == self.side)

    @property
    def losses(self) -> int:
        return sum(1 for r in self.results if victor(r) == other_side(self.side))

    @property
    def draws(self) -> int:
        return self.games - self.wins - self.losses


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def game(start: State, players: dict[str, Player], seed: int, max_commands: int = 20_000) -> State:
    """One whole game; the final state."""
    state = start
    for before, _command, events in play(start, random.Random(seed), max_commands, players):
        state = fold(before, events)
    return state


def arena(
    start: State,
    a: str,
    b: str,
    games: int,
    seed: int = 1,
    progress: Callable[[str], None] | None = None,
    sides: tuple[str, ...] = SIDES,
) -> Iterator[tuple[Tally, Timed, Timed]]:
    """``games`` games with ``a`` as the Union and ``b`` as the Confederate, then as many with the sides
    swapped (game i of each uses seed ``seed + i``; ``sides``: only ``a`` on these); yields each side's
    tally once complete, with the two players' timings."""
    for side in sides:
        pa, pb = Timed(player_named(a)), Timed(player_named(b))
        tally = Tally(a, b, side)
        began = time.perf_counter()
        for i in range(games):
            final = game(start, {side: pa, other_side(side): pb}, seed + i)
            tally.results.append(final.result if final.game_over else None)
            if progress is not None:
                progress(
                    f"{a} ({side}) v {b}: {i + 1}/{games} games, {tally.wins} won, "
                    f"{time.perf_counter() - began:.0f} s"
                )
        yield tally, pa, pb
