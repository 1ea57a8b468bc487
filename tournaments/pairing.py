"""Who meets whom in each round: the circle (Berger) round robin and the Swiss system.

A player is his entry's id (a string); ``players`` are in entry order, which is also the seeded
order that breaks every tie here (the first entered ranks first among equals). A pairing ``(a, b)``
says who is the first player: in a single game he takes the Union; in a duplicate pair he takes the
Union in the pair's first game and the Confederacy in its second.

**Round robin** (the circle method): with an odd count a phantom "bye" is added; the first player
stays in place and the others turn one place each round, so that after n-1 rounds (n even) every
player has met every other once. Round r pairs position i with position n-1-i; the first player's
pairing swaps its order every other round so that he alternates sides.

**Swiss**, one round at a time from the results so far (`swiss_round`):
1. with an odd count, the bye goes to the lowest ranked player who has not had one (at most one bye
   a player while another remains without);
2. the others are ranked by score, then entry order, and grouped by score; within each group the
   top half meets the bottom half in order (1st v (m/2+1)th, ...); a group of odd size sends its
   lowest player down to the next group;
3. if that pairing repeats a game already played, a search in rank order finds the pairing closest
   to it (each player's opponent as near in score, then in rank, to his ideal one) with no rematch;
   only if no pairing without a rematch exists is one allowed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

Pairing = tuple[str, str]


def round_robin(players: Sequence[str]) -> list[tuple[list[Pairing], str | None]]:
    """Every round of a round robin: its pairings and the player with the bye (None: none)."""
    if len(players) < 2:
        raise ValueError("a round robin needs two players at least")
    circle: list[str | None] = list(players) + ([None] if len(players) % 2 else [])
    n = len(circle)
    rounds = []
    for r in range(n - 1):
        pairs: list[Pairing] = []
        bye = None
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if i == 0 and r % 2 == 1:
                a, b = b, a
            if a is None or b is None:
                bye = b if a is None else a
                continue
            pairs.append((a, b))
        rounds.append((pairs, bye))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def swiss_round(
    players: Sequence[str],
    scores: Mapping[str, float],
    met: Iterable[frozenset[str]],
    byes: Iterable[str],
) -> tuple[list[Pairing], str | None]:
    """The next Swiss round: pairings (the higher ranked player first) and the bye. ``scores``:
    each player's points so far; ``met``: the pairs of players who have met; ``byes``: players who
    have had a bye."""
    order = {p: i for i, p in enumerate(players)}
    ranked = sorted(players, key=lambda p: (-scores.get(p, 0.0), order[p]))
    had_bye = set(byes)
    bye = None
    if len(ranked) % 2:
        without = [p for p in ranked if p not in had_bye] or ranked
        bye = without[-1]
        ranked.remove(bye)
    met_set = set(met)
    ideal = _score_groups(ranked, scores)
    if not any(frozenset(p) in met_set for p in ideal):
        return ideal, bye
    partner = {}
    for a, b in ideal:
        partner[a], partner[b] = b, a
    rank = {p: i for i, p in enumerate(ranked)}
    for allow_rematch in (False, True):
        found = _search(ranked, scores, met_set, partner, rank, allow_rematch)
        if found is not None:
            return found, bye
    raise AssertionError("an even number of players always pairs")  # pragma: no cover


def _score_groups(ranked: list[str], scores: Mapping[str, float]) -> list[Pairing]:
    """Top half v bottom half within each score group, an odd group's lowest floating down."""
    groups: list[list[str]] = []
    for p in ranked:
        if groups and scores.get(groups[-1][0], 0.0) == scores.get(p, 0.0):
            groups[-1].append(p)
        else:
            groups.append([p])
    pairs: list[Pairing] = []
    floater: list[str] = []
    for group in groups:
        group = floater + group
        floater = [group.pop()] if len(group) % 2 else []
        half = len(group) // 2
        pairs += list(zip(group[:half], group[half:], strict=True))
    assert not floater
    return pairs


def _search(ranked, scores, met, partner, rank, allow_rematch) -> list[Pairing] | None:
    """The pairing found first in rank order, each player's candidates nearest his ideal opponent."""

    def go(free: list[str]) -> list[Pairing] | None:
        if not free:
            return []
        p, rest = free[0], free[1:]
        ideal = partner[p]

        def nearness(q: str) -> tuple:
            return (abs(scores.get(p, 0.0) - scores.get(q, 0.0)), abs(rank[q] - rank[ideal]), rank[q])

        for q in sorted(rest, key=nearness):
            if not allow_rematch and frozenset((p, q)) in met:
                continue
            tail = go([x for x in rest if x != q])
            if tail is not None:
                return [(p, q), *tail]
        return None

    return go(list(ranked))
