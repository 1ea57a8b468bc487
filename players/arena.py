"""Computer players against each other: whole games from a start position, each player on both sides,
with the results, win rates and their 95% confidence intervals, and each player's decision times.

A game is won by the side its level of victory names ("Union Marginal Victory" is the Union's); any
other result (a Draw) is no win. Decision times are wall-clock seconds per command asked of a player.

**Paired games** (`paired`), as VALOR measured its Chickamauga policy: pair i is two games on the same
dice (a die generator of its own seeded ``dice-<seed + i>``, drawn from only by the rules, so the
n-th roll is the same in both games whatever the players do) with the sides swapped. A player's
*margin* in a game is his side's Victory Points less his opponent's at the end; a pair's margin is
the mean of its two games', so a battle's imbalance and most of the dice's luck cancel. Reported:
the mean margin over the pairs with its 95% interval (normal approximation, mean +- 1.96 standard
errors), and the won-drawn-lost of each side.

**Elo** (`elo`) of several players from the scores of their games against each other (win 1, draw
1/2), by maximum likelihood with one virtual draw against each opponent (a prior that keeps a
player who won everything finite), anchored at ``random`` = 0 when it plays (else at the first).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from players.engine import victor
from players.levels import COMPUTER_LEVELS, computer
from players.search import Searcher
from players.selfplay import PLAYERS, Player, play
from rules.core.scenario import SIDES, other_side
from rules.core.state import State
from rules.reducer import fold

if TYPE_CHECKING:
    from rules.core.scenario import Side


def player_named(name: str) -> Player:
    """``random``, ``greedy``, ``engine`` (its default level), ``engine:LEVEL`` (players/levels.py) or ``search``
    (players/search.py; ``search:SECONDS``, its budget a Movement Phase)."""
    kind, _, level = name.partition(":")
    if kind == "engine":
        return computer(level or "normal")  # engine:expert is the searching player
    if kind == "search":
        try:
            return Searcher(float(level)) if level else Searcher()
        except ValueError:
            raise ValueError(f"search:{level}: the search's budget is a number of seconds") from None
    if kind in PLAYERS and not level:
        return PLAYERS[kind]
    known = ", ".join([*PLAYERS, "engine", *(f"engine:{lv}" for lv in COMPUTER_LEVELS), "search", "search:SECONDS"])
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
    side: Side
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


def game(
    start: State, players: dict[str, Player], seed: int, max_commands: int = 20_000, dice_seed: int | None = None
) -> State:
    """One whole game; the final state. ``dice_seed``: rolls from a generator of their own (paired games)."""
    state = start
    dice = None
    if dice_seed is not None:
        rolls = random.Random(f"dice-{dice_seed}")
        dice = lambda: rolls.randint(1, 6)  # noqa: E731 - the rules' Dice: a callable of no argument
    for before, _command, events in play(start, random.Random(seed), max_commands, players, dice):
        state = fold(before, events)
    return state


def margin(final: State, side: Side) -> int:
    """``side``'s Victory Points less the enemy's."""
    return final.vp.get(side, 0) - final.vp.get(other_side(side), 0)


@dataclass
class Paired:
    """The pairs of games of ``a`` against ``b`` (see the module): per pair, a's mean margin; per side
    of a, the tally."""

    a: str
    b: str
    margins: list[float] = field(default_factory=list)
    tallies: dict[str, Tally] = field(default_factory=dict)

    def interval(self) -> tuple[float, float, float]:
        return mean_interval(self.margins)


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (mean +- z standard errors; one value: no spread)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def paired(
    start: State,
    a: str,
    b: str,
    pairs: int,
    seed: int = 1,
    progress: Callable[[str], None] | None = None,
) -> tuple[Paired, Timed, Timed]:
    """``pairs`` pairs of games of ``a`` against ``b`` on shared dice, the sides swapped within each
    pair (pair i: seed and dice seed ``seed + i``); the result and the two players' timings."""
    pa, pb = Timed(player_named(a)), Timed(player_named(b))
    result = Paired(a, b, tallies={side: Tally(a, b, side) for side in SIDES})
    began = time.perf_counter()
    for i in range(pairs):
        both = []
        for side in SIDES:
            final = game(start, {side: pa, other_side(side): pb}, seed + i, dice_seed=seed + i)
            result.tallies[side].results.append(final.result if final.game_over else None)
            both.append(margin(final, side))
        result.margins.append(sum(both) / 2)
        if progress is not None:
            mean, low, high = result.interval()
            progress(
                f"{a} v {b}: {i + 1}/{pairs} pairs, mean margin {mean:+.1f} ({low:+.1f} to {high:+.1f}), "
                f"{time.perf_counter() - began:.0f} s"
            )
    return result, pa, pb


def elo(scores: dict[tuple[str, str], tuple[float, int]], anchor: str = "random") -> dict[str, float]:
    """Elo ratings from ``scores[(x, y)] = (x's points, games)`` against y (see the module)."""
    names = sorted({n for pair in scores for n in pair})
    points: dict[tuple[str, str], tuple[float, int]] = {}
    for (x, y), (score, games) in scores.items():
        for p, q, s in ((x, y, score), (y, x, games - score)):
            old_s, old_g = points.get((p, q), (0.0, 0))
            points[(p, q)] = (old_s + s, old_g + games)
    for key in list(points):  # the prior: one virtual draw against each opponent met
        s, g = points[key]
        points[key] = (s + 0.5, g + 1)
    rating = dict.fromkeys(names, 0.0)
    for _ in range(2000):  # minorization-maximization on the Bradley-Terry strengths (converges fast)
        strength = {n: 10 ** (rating[n] / 400) for n in names}
        new = {}
        for n in names:
            won = sum(s for (p, _q), (s, _g) in points.items() if p == n)
            weight = sum(g / (strength[n] + strength[q]) for (p, q), (_s, g) in points.items() if p == n)
            new[n] = 400 * math.log10(won / weight) if weight and won else rating[n] - 400
        base = new.get(anchor, new[names[0]]) if anchor in new else new[names[0]]
        new = {n: r - base for n, r in new.items()}
        if max(abs(new[n] - rating[n]) for n in names) < 1e-6:
            return new
        rating = new
    return rating


def arena(
    start: State,
    a: str,
    b: str,
    games: int,
    seed: int = 1,
    progress: Callable[[str], None] | None = None,
    sides: tuple[Side, ...] = SIDES,
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


def score(result: Paired) -> tuple[float, int]:
    """``a``'s points (win 1, draw 1/2) and games in paired games."""
    tallies = result.tallies.values()
    return sum(t.wins + t.draws / 2 for t in tallies), sum(t.games for t in tallies)


def round_robin(
    start: State,
    names: list[str],
    pairs: int,
    seed: int = 1,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[Paired], dict[str, float]]:
    """Every player against every other in ``pairs`` paired games; the results and the Elo ratings."""
    results = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            results.append(paired(start, a, b, pairs, seed, progress)[0])
    return results, elo({(r.a, r.b): score(r) for r in results})
