"""Standings: each player's points and the tiebreaks that order equal points.

A game scores 1 for a win, 1/2 each for a draw, 0 for a loss, and 0 each for a double loss (a game
nobody moved in before the round's deadline); a bye scores as a won game for every game the round
would have given the player (1 in a single-game tournament, 2 in duplicate pairs). Players are
ordered by:
1. points;
2. (duplicate pairs) the victory-point margin: over every game, his side's Victory Points less his
   opponent's; summed over both games of a pair, this is what luck cannot decide;
3. Sonneborn-Berger: over every game, his score times his opponent's points;
4. (Swiss) Buchholz: over every game, his opponent's points;
5. head-to-head: among the players still equal on all of the above, his points in the games
   between them;
6. entry order (the first entered first).
A bye counts for points only: no opponent, so nothing for Sonneborn-Berger or Buchholz.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec


class Played(msgspec.Struct, frozen=True, kw_only=True):
    """One finished game, for the standings: who played which side, the winning side (None: a draw
    or a double loss), whether it was a double loss, and each side's Victory Points."""

    union: str
    confederate: str
    winner: str | None = None
    double_loss: bool = False
    vp: dict[str, int] = {}

    def score(self, player: str) -> float:
        if self.double_loss:
            return 0.0
        if self.winner is None:
            return 0.5
        return 1.0 if (self.winner == "union") == (player == self.union) else 0.0

    def opponent(self, player: str) -> str:
        return self.confederate if player == self.union else self.union

    def margin(self, player: str) -> int:
        mine, theirs = ("union", "confederate") if player == self.union else ("confederate", "union")
        return self.vp.get(mine, 0) - self.vp.get(theirs, 0)


class Placing(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the standings: the place (1 first), the player, and every number used."""

    place: int
    player: str
    points: float
    games: int
    vp_margin: int
    sonneborn_berger: float
    buchholz: float
    head_to_head: float


def standings(
    players: Sequence[str],
    games: Sequence[Played],
    byes: Sequence[tuple[str, float]] = (),
    *,
    duplicate: bool = False,
    swiss: bool = False,
) -> list[Placing]:
    """The standings of `players` (in entry order) after `games` and `byes` ((player, points))."""
    points, count = _points(players, games, byes)
    margin, sb, buchholz = _tiebreaks(players, games, points)

    def key(p: str) -> tuple:
        return (points[p], margin[p] if duplicate else 0, sb[p], buchholz[p] if swiss else 0.0)

    order = {p: i for i, p in enumerate(players)}
    ranked = sorted(players, key=lambda p: (tuple(-k for k in key(p)), order[p]))
    h2h = {p: 0.0 for p in players}
    out = _ties_broken(ranked, games, key, order, h2h)
    return [
        Placing(
            place=n,
            player=p,
            points=points[p],
            games=count[p],
            vp_margin=margin[p],
            sonneborn_berger=sb[p],
            buchholz=buchholz[p],
            head_to_head=h2h[p],
        )
        for n, p in enumerate(out, start=1)
    ]


def _points(players: Sequence[str], games: Sequence[Played],
            byes: Sequence[tuple[str, float]]) -> tuple[dict[str, float], dict[str, int]]:
    """Each player's points (his games' and his byes') and the number of games he played."""
    points = {p: 0.0 for p in players}
    count = {p: 0 for p in players}
    for g in games:
        for p in (g.union, g.confederate):
            points[p] += g.score(p)
            count[p] += 1
    for p, worth in byes:
        points[p] += worth
    return points, count


def _tiebreaks(players: Sequence[str], games: Sequence[Played],
               points: dict[str, float]) -> tuple[dict[str, int], dict[str, float], dict[str, float]]:
    """Each player's victory-point margin, Sonneborn-Berger and Buchholz scores."""
    margin = {p: 0 for p in players}
    sb = {p: 0.0 for p in players}
    buchholz = {p: 0.0 for p in players}
    for g in games:
        for p in (g.union, g.confederate):
            o = g.opponent(p)
            margin[p] += g.margin(p)
            sb[p] += g.score(p) * points[o]
            buchholz[p] += points[o]
    return margin, sb, buchholz


def _ties_broken(ranked: list[str], games: Sequence[Played], key, order: dict[str, int],
                 h2h: dict[str, float]) -> list[str]:
    """The ranked players with each tie broken by the games among the tied (head to head, into
    `h2h`), then by entry order."""
    out: list[str] = []
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and key(ranked[j]) == key(ranked[i]):
            j += 1
        tied = set(ranked[i:j])
        if len(tied) > 1:
            for g in games:
                if g.union in tied and g.confederate in tied:
                    for p in (g.union, g.confederate):
                        h2h[p] += g.score(p)
        out += sorted(ranked[i:j], key=lambda p: (-h2h[p], order[p]))
        i = j
    return out
