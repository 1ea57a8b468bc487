"""A tournament's state: the fold of its log (tournaments/records.py), and what is due next.

`fold(records)` checks the order of the log as it goes (`TournamentError` names the first event out
of place): entries only before the start, by players not yet in and while there is room; a round
paired only when the one before it is finished; a game's result once, for a game of the round;
``round_finished`` only when every game of the round has its result; the end only after the last
round. `due(state)` is the one event the log needs next that nobody but the director decides
(``round_finished``, or ``tournament_finished``), or that the next round must be paired
(`NeedsPairing`); the director appends it with the store's expected version, so a restart or two
servers never record it twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from tournaments import pairing
from tournaments.records import (
    Entered,
    GameRef,
    GameResult,
    Record,
    RoundFinished,
    RoundPaired,
    Started,
    TournamentCreated,
    TournamentFinished,
)
from tournaments.standings import Placing, Played, standings

MIN_PLAYERS = 2


class TournamentError(Exception):
    """The log does not fold: an event out of place (its position and why)."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(f"event {index}: {message}")
        self.index = index
        self.message = message


@dataclass
class Round:
    paired: RoundPaired
    results: dict[str, GameResult] = field(default_factory=dict)
    finished: bool = False

    def games(self) -> list[GameRef]:
        return [g for p in self.paired.pairings for g in p.games]

    def unfinished(self) -> list[GameRef]:
        return [g for g in self.games() if g.game_id not in self.results]


@dataclass
class Tournament:
    created: TournamentCreated | None = None
    entries: list[Entered] = field(default_factory=list)
    players: list[str] = field(default_factory=list)  # once started, in entry order
    rounds: list[Round] = field(default_factory=list)
    finished: TournamentFinished | None = None
    events: int = 0

    @property
    def status(self) -> str:
        if self.finished is not None:
            return "finished"
        return "running" if self.players else "open"

    def entry(self, player: str) -> Entered | None:
        return next((e for e in self.entries if e.player == player), None)

    def total_rounds(self) -> int:
        """How many rounds: a round robin's n-1 (n even) or n (odd); a Swiss its stated number."""
        if self.created is None or not self.players:
            return 0
        if self.created.kind == "round_robin":
            return len(pairing.round_robin(self.players))
        return self.created.rounds

    def games_per_pairing(self) -> int:
        return 2 if self.created is not None and self.created.duplicate else 1

    def played(self) -> list[Played]:
        """Every game with a result, for the standings."""
        out = []
        for r in self.rounds:
            for g in r.games():
                result = r.results.get(g.game_id)
                if result is not None:
                    out.append(
                        Played(
                            union=g.union,
                            confederate=g.confederate,
                            winner=result.winner,
                            double_loss=result.reason == "double_loss",
                            vp=result.vp,
                        )
                    )
        return out

    def byes(self) -> list[tuple[str, float]]:
        worth = float(self.games_per_pairing())
        return [(r.paired.bye, worth) for r in self.rounds if r.paired.bye is not None]

    def standings(self) -> list[Placing]:
        if self.created is None:
            return []
        return standings(
            self.players or [e.player for e in self.entries],
            self.played(),
            self.byes(),
            duplicate=self.created.duplicate,
            swiss=self.created.kind == "swiss",
        )

    def game(self, game_id: str) -> tuple[int, GameRef] | None:
        """The round (1, 2, ...) and reference of one of the tournament's games."""
        for r in self.rounds:
            for g in r.games():
                if g.game_id == game_id:
                    return r.paired.round, g
        return None


def apply(t: Tournament, record: Record) -> None:
    """Fold one more event (raises TournamentError when it is out of place)."""
    i = t.events + 1
    if t.created is None and not isinstance(record, TournamentCreated):
        raise TournamentError(i, "a tournament's first event must be tournament_created")
    if t.finished is not None:
        raise TournamentError(i, "an event after tournament_finished")
    match record:
        case TournamentCreated():
            _tournament_created(t, record, i)
        case Entered():
            _entered(t, record, i)
        case Started():
            _started(t, record, i)
        case RoundPaired():
            _round_paired(t, record, i)
        case GameResult():
            _game_result(t, record, i)
        case RoundFinished():
            _round_finished(t, record, i)
        case TournamentFinished():
            _tournament_finished(t, record, i)
    t.events = i


def _tournament_created(t: Tournament, record: TournamentCreated, i: int) -> None:
    """The tournament created, once."""
    if t.created is not None:
        raise TournamentError(i, "tournament_created twice")
    t.created = record


def _entered(t: Tournament, record: Entered, i: int) -> None:
    """A player entered: before the start, once, not past the maximum."""
    if t.players:
        raise TournamentError(i, "an entry after the start")
    if t.entry(record.player) is not None:
        raise TournamentError(i, f"{record.name} entered twice")
    assert t.created is not None  # the first check: only tournament_created comes before it
    if len(t.entries) >= t.created.max_players:
        raise TournamentError(i, "an entry past the tournament's maximum")
    t.entries.append(record)


def _started(t: Tournament, record: Started, i: int) -> None:
    """The tournament started, once, with its entries as its players."""
    if t.players:
        raise TournamentError(i, "started twice")
    if record.players != [e.player for e in t.entries] or len(record.players) < MIN_PLAYERS:
        raise TournamentError(i, "started with players other than its entries")
    t.players = list(record.players)


def _round_paired(t: Tournament, record: RoundPaired, i: int) -> None:
    """The next round paired, once the round before it finished."""
    if not t.players or record.round != len(t.rounds) + 1 or (t.rounds and not t.rounds[-1].finished):
        raise TournamentError(i, f"round {record.round} paired out of turn")
    if record.round > t.total_rounds():
        raise TournamentError(i, f"round {record.round}: the tournament has {t.total_rounds()}")
    t.rounds.append(Round(record))


def _game_result(t: Tournament, record: GameResult, i: int) -> None:
    """A game's result, once, for a game of an open round."""
    r = t.rounds[record.round - 1] if 0 < record.round <= len(t.rounds) else None
    if r is None or r.finished or record.game_id not in {g.game_id for g in r.games()}:
        raise TournamentError(i, f"a result for game {record.game_id}, not a game of an open round")
    if record.game_id in r.results:
        raise TournamentError(i, f"a second result for game {record.game_id}")
    r.results[record.game_id] = record


def _round_finished(t: Tournament, record: RoundFinished, i: int) -> None:
    """The last round finished, once all its games have results."""
    if not t.rounds or record.round != len(t.rounds) or t.rounds[-1].unfinished():
        raise TournamentError(i, f"round {record.round} finished before all its games")
    t.rounds[-1].finished = True


def _tournament_finished(t: Tournament, record: TournamentFinished, i: int) -> None:
    """The tournament finished, after its last round."""
    if len(t.rounds) != t.total_rounds() or not t.rounds[-1].finished:
        raise TournamentError(i, "finished before its last round")
    t.finished = record


def fold(records: Iterable[Record]) -> Tournament:
    t = Tournament()
    for record in records:
        apply(t, record)
    return t


@dataclass(frozen=True)
class NeedsPairing:
    """The next round is due: its number, its pairings (first, second) and bye, and each pairing's
    id (``<tournament>.r<round>.p<n>``, the dice stream of a duplicate pair's games)."""

    round: int
    pairings: list[tuple[str, str, str]]  # (pair_id, first, second)
    bye: str | None


def due(t: Tournament) -> RoundFinished | TournamentFinished | NeedsPairing | None:
    """What the log needs next from the director (None: nothing, it waits for entries, the start,
    or games). ``tournament_finished`` comes without its master seed (the director adds it)."""
    if t.created is None or not t.players or t.finished is not None:
        return None
    if t.rounds and not t.rounds[-1].finished:
        current = t.rounds[-1]
        return None if current.unfinished() else RoundFinished(round=current.paired.round)
    if len(t.rounds) >= t.total_rounds():
        return TournamentFinished(standings=t.standings(), master_seed="")
    number = len(t.rounds) + 1
    if t.created.kind == "round_robin":
        pairs, bye = pairing.round_robin(t.players)[number - 1]
    else:
        scores = {s.player: s.points for s in t.standings()}
        met = [frozenset((p.first, p.second)) for r in t.rounds for p in r.paired.pairings]
        pairs, bye = pairing.swiss_round(t.players, scores, met, [b for b, _ in t.byes()])
    tid = t.created.tournament_id
    return NeedsPairing(number, [(f"{tid}.r{number}.p{n}", a, b) for n, (a, b) in enumerate(pairs, 1)], bye)
