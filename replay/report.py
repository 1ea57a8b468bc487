"""The after-action report of a game (JSON; replay/report_html.py draws it as a page).

Built from the game's log in one pass over its effective history (undone versions left out, but
the undo requests listed): losses by side and Game-Turn (units and strength points), victory points
over time, every combat (attackers, defenders, the odds before terrain, after terrain and after a
voluntary reduction, the die, the result, what retreated, advanced and fell), a luck ledger, where
units fell, undo requests and their answers, and the time each player-turn took.

The luck ledger. Each combat's result is ranked from the attacker's side, worst first:
``Ae < Ar < Dr < Ex < De`` (Ex destroys the defender at a price, so it ranks above a retreat and
below a clean De). Under the CRT column the combat was resolved on, each result has a probability
(the die rows giving it, out of six: `column_distribution`, which sums to 1). The attacker's
``percentile`` of a combat is P(worse) + P(same)/2 (0.5 is an average roll, 1 the luckiest); the
defender's is one minus it. A side's luck for a turn (and for the game) is the mean of its
percentiles in the combats of that turn (as attacker and as defender). Expected losses are the
strength points each result would cost each side, weighted by those probabilities: Ae costs the
attackers (artillery bombarding from range excepted, 8.0), De the defenders, Ex the defenders and at
least as much of the attackers (7.6); retreats are counted as costing nothing (a retreat that
eliminates a unit shows in the actual losses only).
"""

from __future__ import annotations

import msgspec

from eventstore.envelope import Envelope
from replay.crt_odds import RANK, column_distribution, table_of
from replay.textrecord import Narrator
from replay.timeline import Timeline
from rules.core import crt
from rules.core.scenario import other_side
from session import records
from session.games import GameCache
from session.history import History, NeedsState
from session.records import (
    GameFinished,
    Record,
    UndoAccepted,
    UndoDeclined,
    UndoRequested,
    UndoWithdrawn,
)

SIDES = ("union", "confederate")


class UnitRef(msgspec.Struct, frozen=True):
    id: str
    designation: str
    side: str
    strength: int


class Luck(msgspec.Struct, frozen=True, kw_only=True):
    """The result's probability under its column, the probability of it or better for the attacker,
    the attacker's percentile, and the whole column's distribution."""

    p_result: float
    p_result_or_better: float
    percentile: float
    distribution: dict[str, float]
    expected_losses: dict[str, float]  # strength points, by side


class Combat(msgspec.Struct, kw_only=True):
    version: int  # the combat_resolved event
    declared: int  # the attack_declared event
    turn: int
    attacker: str
    defender: str
    attackers: list[UnitRef]
    bombarding: list[UnitRef]
    defender_hexes: list[str]
    defending: list[UnitRef]
    attack: int
    defence_printed: int
    defence: int  # after terrain
    odds_before_terrain: str
    odds: str  # after terrain
    column: str  # after a voluntary reduction (7.9)
    reduced: bool
    die: int
    result: str
    eliminated: list[UnitRef] = []
    retreats: list[dict] = []
    advances: list[dict] = []
    losses: dict[str, int] = {}  # strength points actually lost, by side
    luck: Luck | None = None


class Loss(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    turn: int
    unit: UnitRef
    hex: str | None
    case: str


class TurnLosses(msgspec.Struct, kw_only=True):
    turn: int
    units: dict[str, int]
    strength: dict[str, int]


class VpPoint(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    turn: int
    vp: dict[str, int]


class UndoEntry(msgspec.Struct, kw_only=True):
    version: int
    seat: str
    back_to: int
    takes_back: int  # actions
    answer: str = "open"  # accepted, declined, withdrawn, lapsed, open
    answered_at: int | None = None
    by: str | None = None


class PlayerTurn(msgspec.Struct, kw_only=True):
    turn: int
    side: str
    first: int
    last: int
    seconds: float


class SideLuck(msgspec.Struct, kw_only=True):
    combats: int = 0
    percentile: float | None = None
    expected_losses: float = 0.0
    actual_losses: int = 0


class Report(msgspec.Struct, kw_only=True):
    game_id: str
    scenario: str
    scenario_name: str
    ruleset: str
    version: int  # the report covers versions 1..version
    head: str
    sandbox: bool
    fork: dict | None
    finished: GameFinished | None
    turn: int
    phase: str
    vp: dict[str, int]
    losses_by_turn: list[TurnLosses]
    losses: list[Loss]
    vp_over_time: list[VpPoint]
    combats: list[Combat]
    luck_by_turn: dict[int, dict[str, SideLuck]]
    luck: dict[str, SideLuck]
    undo: list[UndoEntry]
    player_turns: list[PlayerTurn]
    reverted: list[tuple[int, int]]
    record: list[str]


def _apply(history: History, envelope: Envelope, cache: dict[int, bytes]):
    try:
        return history.apply(envelope)
    except NeedsState as need:
        snap = cache[need.version]
        target = History.from_snapshot(history.game_id, history.games, snap).state
        return history.apply(envelope, target=target)


def build(game_id: str, envelopes: list[Envelope], games: GameCache | None = None) -> Report:
    """The report of a game's log (versions 1..len(envelopes))."""
    games = games or GameCache()
    envelopes = list(envelopes)
    timeline = Timeline.of(envelopes, _opening(game_id, games, envelopes))
    undo_targets = {b for b, _ in timeline.reverted}
    history = History(game_id, games)
    cache: dict[int, bytes] = {}
    read = _Reading()
    for e in envelopes:
        state_before = history.state
        positions = dict(state_before.positions) if state_before is not None else {}
        item = _apply(history, e, cache)
        if e.version in undo_targets:
            cache[e.version] = history.snapshot()
        if read.game is None and history.game is not None:
            read.begin(history, e.version)
        # undo requests and answers are listed whether or not they were undone themselves
        read.undo_listed(item, e.version)
        if timeline.undone(e.version):
            continue
        read.record_line(e.version, item, history)
        if isinstance(item, Record):
            continue
        read.event(e, item, history, positions)
    if read.open_undo is not None and read.open_undo.answer == "open" and history.finished is not None:
        read.open_undo.answer = "lapsed"
    created = history.session.created
    if created is None:
        raise ValueError("the log does not begin with game_created")
    for c in read.combats:
        c.luck = _luck(read.game, c)
    return _report(game_id, history, created, read, timeline, envelopes)


def _opening(game_id: str, games: GameCache, envelopes: list[Envelope]) -> tuple:
    """The Game-Turn, phasing Player and phase the game opens at (its game_created folded)."""
    opening = History(game_id, games)
    if envelopes:
        opening.apply(envelopes[0])
    return (opening.state.turn, opening.state.phasing, opening.state.phase) if opening.state else (1, "", "")


class _Reading:
    """What `build` gathers as it folds the log: the record's lines, the undo requests and their
    answers, the combats, the losses and the victory points over time."""

    def __init__(self) -> None:
        self.combats: list[Combat] = []
        self.losses: list[Loss] = []
        self.vp_points: list[VpPoint] = []
        self.undo: dict[int, UndoEntry] = {}
        self.open_undo: UndoEntry | None = None
        self.narrator: Narrator | None = None
        self.lines: list[str] = []
        self.current: Combat | None = None
        self.pending_declared: dict | None = None
        self.vp = {s: 0 for s in SIDES}
        self.game = None

    def begin(self, history: History, version: int) -> None:
        """The game known at last: its narrator and the victory points it starts with."""
        self.game = history.game
        self.narrator = Narrator(self.game)
        start = history.state
        self.vp = {s: start.vp.get(s, 0) for s in SIDES}
        self.vp_points.append(VpPoint(version=version, turn=start.turn, vp=dict(self.vp)))

    def undo_listed(self, item, version: int) -> None:
        """An undo request listed, its answer noted, or a request lapsed by a game action."""
        open_undo = self.open_undo
        if isinstance(item, UndoRequested):
            if open_undo is not None and open_undo.answer == "open":
                open_undo.answer = "lapsed"
            self.open_undo = self.undo[version] = UndoEntry(
                version=version, seat=item.seat, back_to=item.back_to, takes_back=len(item.takes_back)
            )
        elif isinstance(item, (UndoAccepted, UndoDeclined, UndoWithdrawn)) and item.request in self.undo:
            entry = self.undo[item.request]
            entry.answer = {UndoAccepted: "accepted", UndoDeclined: "declined", UndoWithdrawn: "withdrawn"}[type(item)]
            entry.answered_at, entry.by = version, item.seat
        elif isinstance(item, Record) and records.tag(type(item)) in records.GAME_ACTIONS:
            if open_undo is not None and open_undo.answer == "open" and not isinstance(item, UndoAccepted):
                open_undo.answer = "lapsed"

    def record_line(self, version: int, item, history: History) -> None:
        """The entry's line of the readable record, if it has one."""
        if self.narrator is not None:
            line = self.narrator.line(version, item, history)
            if line:
                self.lines.append(line)

    def event(self, e: Envelope, item, history: History, positions: dict) -> None:
        """A rules event: an attack, a loss, a retreat or advance after combat; the victory points."""
        turn = history.state.turn
        kind = e.type
        if kind in ("attack_declared", "odds_reduced", "combat_resolved"):
            self._attack(e, item, history, turn)
        elif kind in ("unit_eliminated", "reinforcement_lost"):
            self._loss(e, item, turn, positions)
        elif kind in ("unit_retreated", "unit_advanced"):
            self._after_combat(kind, item)
        elif kind in ("phase_began", "game_turn_advanced", "unit_moved", "reinforcement_entered"):
            self.current = None
        if kind in ("victory_points_awarded", "victory_determined") or history.state.vp != self.vp:
            now = {s: history.state.vp.get(s, 0) for s in SIDES}
            if now != self.vp:
                self.vp = now
                self.vp_points.append(VpPoint(version=e.version, turn=turn, vp=dict(self.vp)))

    def _attack(self, e: Envelope, item, history: History, turn: int) -> None:
        """An attack declared, its odds reduced (7.9) or the combat resolved."""
        kind = e.type
        if kind == "attack_declared":
            self.pending_declared = {
                "version": e.version, "attack": item.attack, "side": history.state.phasing
            }
            self.current = None
        elif kind == "odds_reduced" and self.pending_declared is not None:
            self.pending_declared["reduced"] = item.column
        elif kind == "combat_resolved":
            self.current = _combat(
                self.game, e.version, turn, item, self.pending_declared, history.state.phasing
            )
            self.combats.append(self.current)
            self.pending_declared = None

    def _loss(self, e: Envelope, item, turn: int, positions: dict) -> None:
        """A unit eliminated (in the combat being resolved, if any) or a reinforcement lost (15.12)."""
        unit = _ref(self.game, item.unit)
        self.losses.append(Loss(version=e.version, turn=turn, unit=unit, hex=positions.get(item.unit),
                                case=getattr(item, "case", "15.12")))
        current = self.current
        if current is not None and e.type == "unit_eliminated":
            current.eliminated.append(unit)
            current.losses[unit.side] = current.losses.get(unit.side, 0) + unit.strength

    def _after_combat(self, kind: str, item) -> None:
        """A retreat or an advance after the combat being resolved."""
        current = self.current
        if kind == "unit_retreated" and current is not None:
            current.retreats.append(
                {"unit": _ref(self.game, item.unit), "path": list(item.path), "cause": item.cause}
            )
        elif kind == "unit_advanced" and current is not None:
            current.advances.append({"unit": _ref(self.game, item.unit), "path": list(item.path)})


def _report(game_id: str, history: History, created, read: _Reading, timeline: Timeline,
            envelopes: list[Envelope]) -> Report:
    """The report of the log folded: the game, where it stands, and what `build` gathered."""
    state = history.state
    luck_by_turn, luck = _ledger(read.combats)
    fork = created.fork
    return Report(
        game_id=game_id,
        scenario=created.scenario,
        scenario_name=read.game.scenario.name,
        ruleset=created.ruleset,
        version=history.version,
        head=history.head.hex(),
        sandbox=fork is not None,
        fork={"game_id": fork.game_id, "version": fork.version, "head": fork.head} if fork else None,
        finished=history.finished,
        turn=state.turn,
        phase=state.phase,
        vp={s: state.vp.get(s, 0) for s in SIDES},
        losses_by_turn=_by_turn(read.losses, state.turn),
        losses=read.losses,
        vp_over_time=read.vp_points,
        combats=read.combats,
        luck_by_turn=luck_by_turn,
        luck=luck,
        undo=sorted(read.undo.values(), key=lambda u: u.version),
        player_turns=_player_turns(timeline, envelopes),
        reverted=list(timeline.reverted),
        record=read.lines,
    )


def _ref(game, unit_id: str) -> UnitRef:
    u = game.units[unit_id]
    return UnitRef(u.id, u.designation, u.side, u.strength)


def _combat(game, version: int, turn: int, item, declared: dict | None, phasing: str) -> Combat:
    attack = declared["attack"] if declared else None
    passive = set(attack.passive) if attack else set()
    printed = sum(game.units[u].strength for u in item.defending if u not in passive)
    columns = table_of(game).columns
    attacker = declared["side"] if declared else phasing
    return Combat(
        version=version,
        declared=declared["version"] if declared else version,
        turn=turn,
        attacker=attacker,
        defender=other_side(attacker),
        attackers=[_ref(game, u) for u in item.attackers],
        bombarding=[_ref(game, u) for u in item.bombarding],
        defender_hexes=list(item.defenders),
        defending=[_ref(game, u) for u in item.defending],
        attack=item.attack,
        defence_printed=printed,
        defence=item.defence,
        odds_before_terrain=crt.column_of(item.attack, printed, columns),
        odds=item.odds,
        column=item.column,
        reduced=item.column != item.odds,
        die=item.die,
        result=item.result,
        losses={attacker: 0, other_side(attacker): 0},
    )


def _luck(game, c: Combat) -> Luck:
    dist = column_distribution(table_of(game), c.column)
    rank = RANK[c.result]
    worse = sum(p for r, p in dist.items() if RANK[r] < rank)
    same = dist.get(c.result, 0.0)
    better = sum(p for r, p in dist.items() if RANK[r] > rank)
    attack_adj = sum(u.strength for u in c.attackers)
    defence = sum(u.strength for u in c.defending)
    cost = {
        "Ae": {c.attacker: attack_adj, c.defender: 0},
        "Ar": {c.attacker: 0, c.defender: 0},
        "Dr": {c.attacker: 0, c.defender: 0},
        "Ex": {c.attacker: min(attack_adj, defence), c.defender: defence},
        "De": {c.attacker: 0, c.defender: defence},
        # revised 8.6 partial results, counted at their least: one attacking unit (Ae*); one defending
        # unit and as many attacking points (Ex*)
        "Ae*": {c.attacker: min((u.strength for u in c.attackers), default=0), c.defender: 0},
        "Ex*": {
            c.attacker: min(min((u.strength for u in c.defending), default=0), attack_adj),
            c.defender: min((u.strength for u in c.defending), default=0),
        },
    }
    expected = {s: round(sum(p * cost[r][s] for r, p in dist.items()), 4) for s in (c.attacker, c.defender)}
    return Luck(
        p_result=round(same, 6),
        p_result_or_better=round(same + better, 6),
        percentile=round(worse + same / 2, 6),
        distribution=dist,
        expected_losses=expected,
    )


def _ledger(combats: list[Combat]) -> tuple[dict[int, dict[str, SideLuck]], dict[str, SideLuck]]:
    def fresh() -> dict[str, list]:
        return {s: [] for s in SIDES}

    per_turn: dict[int, dict[str, list]] = {}
    whole = fresh()
    for c in combats:
        lk = c.luck
        for side, pct in ((c.attacker, lk.percentile), (c.defender, 1 - lk.percentile)):
            row = (pct, lk.expected_losses.get(side, 0.0), c.losses.get(side, 0))
            per_turn.setdefault(c.turn, fresh())[side].append(row)
            whole[side].append(row)

    def summary(rows: list) -> SideLuck:
        if not rows:
            return SideLuck()
        return SideLuck(
            combats=len(rows),
            percentile=round(sum(r[0] for r in rows) / len(rows), 4),
            expected_losses=round(sum(r[1] for r in rows), 2),
            actual_losses=sum(r[2] for r in rows),
        )

    return (
        {t: {s: summary(rows[s]) for s in SIDES} for t, rows in sorted(per_turn.items())},
        {s: summary(whole[s]) for s in SIDES},
    )


def _by_turn(losses: list[Loss], last_turn: int) -> list[TurnLosses]:
    out = {t: TurnLosses(turn=t, units={s: 0 for s in SIDES}, strength={s: 0 for s in SIDES}) for t in range(1, last_turn + 1)}
    for loss in losses:
        row = out.setdefault(loss.turn, TurnLosses(turn=loss.turn, units={s: 0 for s in SIDES}, strength={s: 0 for s in SIDES}))
        row.units[loss.unit.side] += 1
        row.strength[loss.unit.side] += loss.unit.strength
    return [out[t] for t in sorted(out)]


def _player_turns(timeline: Timeline, envelopes: list[Envelope]) -> list[PlayerTurn]:
    """Each player-turn of the effective history: its versions and the wall-clock time it took
    (from its first event to the first event of the next, or to the last event of the log)."""
    out: list[PlayerTurn] = []
    for v in range(1, timeline.version + 1):
        if timeline.undone(v) or not timeline.sides[v - 1] or timeline.types[v - 1] == "game_turn_advanced":
            continue
        key = (timeline.turns[v - 1], timeline.sides[v - 1])
        if out and (out[-1].turn, out[-1].side) == key:
            out[-1].last = v
        else:
            out.append(PlayerTurn(turn=key[0], side=key[1], first=v, last=v, seconds=0.0))
    for i, pt in enumerate(out):
        end = envelopes[out[i + 1].first - 1].time if i + 1 < len(out) else envelopes[pt.last - 1].time
        pt.seconds = round(max(0, end - envelopes[pt.first - 1].time) / 1000, 3)
    return out


def encode(report: Report) -> bytes:
    return msgspec.json.encode(report)


def lines(game_id: str, envelopes, games: GameCache | None = None) -> list[str]:
    """The readable record of a log (the report's `record`)."""
    return build(game_id, envelopes, games).record
