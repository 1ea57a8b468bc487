"""What clients see of a game: the session of a websocket snapshot, and the game of GET /api/games."""

from __future__ import annotations

import time

import msgspec

from api.glance import glance
from api.protocol import (
    ClockView,
    DrawView,
    LastMove,
    LeaderView,
    PausedView,
    PauseRequestView,
    PositionView,
    SessionView,
    UndoableCommand,
    UndoView,
)
from replay.gamerecord import GameRecord
from rules.combat_choices import declared_breakdown
from rules.core.state import State
from session import clock, pause
from session.history import History
from session.records import GameFinished, SessionOptions

#: How many of the latest effective commands a seat's view offers to take back.
UNDOABLE = 8


def session_view(history: History) -> SessionView:
    s = history.session
    return SessionView(
        seats=list(s.joined),
        started=s.started,
        to_act=s.to_act,
        waiting_since=s.waiting_since,
        undo=UndoView(request=s.undo.version, seat=s.undo.seat, back_to=s.undo.back_to, takes_back=list(s.undo.takes_back))
        if s.undo
        else None,
        draw=DrawView(offer=s.draw.version, seat=s.draw.seat) if s.draw else None,
        reverted=[tuple(r) for r in s.reverted],
        last_roll=s.last_roll(),
        finished=s.finished,
        clock=ClockView(
            left=dict(s.clocks),
            at=s.clock_at,
            running=s.to_act if s.finished is None else None,
            paused_until=s.paused.until if s.paused else None,
        )
        if s.clocks
        else None,
        pause_request=PauseRequestView(request=p.version, seat=p.seat, days=p.days) if (p := s.pause_request) else None,
        paused=PausedView(seat=s.paused.seat, since=s.paused.since, until=s.paused.until) if s.paused else None,
        pause_days_left={seat: pause.days_left(history, seat) for seat in s.joined}
        if s.created is not None and s.created.options.clock is not None and s.created.options.clock.mode == "correspondence"
        else {},
    )


def leaders_on_map(state: State | None) -> list[LeaderView]:
    """The Leaders in play on the map (Grand Chancellorsville 23.5): each one's hex, the unit he rides with
    (23.59; None while he stands on his own, 23.51) and whether he is alone in his hex (23.54), read from the
    ``leaders`` component; none killed (23.56), removed (23.53) or with a unit not yet arrived."""
    rule = state.game.battle.leaders if state is not None else None
    if rule is None:
        return []
    out = []
    places = rule.places(state)
    for x in rule.leaders:
        place = places[x.id]
        if place.hex is None:
            continue
        out.append(LeaderView(id=x.id, name=x.name, side=x.side, stars=x.stars, hex=place.hex, unit=place.unit, alone=rule.alone(state, x, place)))
    return out


def position_view(history: History, record: GameRecord, role: str | None, state_json: bytes) -> PositionView:
    """The game as `role` (a seat; None: a spectator) sees it at `history`'s version (see
    `api.protocol.PositionView`); `state_json` is the rules state's JSON (encoded once per version,
    shared by every role), `record` the game's record folded to the same version."""
    s = history.session
    words = {c.version: c for c in s.commands}
    detail = [record.command_text(words[v].command) for v in s.undo.takes_back if v in words] if s.undo else []
    undoable = (
        [UndoableCommand(version=c.version, seat=c.seat, rolls=c.rolls, text=record.command_text(c.command))
         for c in s.commands[-UNDOABLE:]]
        if role is not None
        else []
    )
    move = record.last_move
    return PositionView(
        version=history.version,
        head=history.head.hex(),
        digest=history.digest().hex(),
        role=role,
        your_move=role is not None and s.to_act == role,
        state=msgspec.Raw(state_json),
        session=session_view(history),
        undo_detail=detail,
        undoable=undoable,
        last_move=LastMove(unit=move["unit"], path=move["path"]) if move else None,
        last_combat=record.last_combat,
        glance=glance(history.state) if history.state is not None else None,
        declared=declared_breakdown(history.state) if history.state is not None and history.state.pending else None,
        leaders=leaders_on_map(history.state),
    )


def merge_patch(old: dict, new: dict) -> dict:
    """The JSON merge patch (RFC 7386) that turns `old` into `new` (JSON objects as dicts): the
    members that changed (objects patched recursively), null for those gone or become null. (A
    member that appears with the value null is left out: absent and null read the same.)"""
    patch = {}
    for key, value in new.items():
        if key not in old:
            if value is not None:
                patch[key] = value
        elif old[key] != value:
            was = old[key]
            patch[key] = merge_patch(was, value) if isinstance(value, dict) and isinstance(was, dict) else value
    for key in old:
        if key not in new:
            patch[key] = None
    return patch


class GameView(msgspec.Struct, frozen=True, kw_only=True):
    """One game, as GET /api/games/{id} shows it.

    ``status``: ``open`` (a seat is empty), ``active``, ``waiting`` (the seat to act has been silent
    past the game's limit, or has run out of time on the game's clock: the opponent may claim the
    game) or ``finished``."""

    game_id: str
    status: str
    scenario: str
    ruleset: str
    rules_version: str
    seats: dict[str, bool]
    version: int
    head: str
    turn: int
    phase: str
    to_act: str | None
    waiting_since: int
    options: SessionOptions
    rules_options: dict[str, bool | int | str]
    dice: str
    seed_hash: str
    created: int
    finished: GameFinished | None
    sandbox: bool = False  # a what-if branched from another game (never counted as a result)
    forked_from: str | None = None  # that game's id
    forked_at: int | None = None  # and the version it was branched at
    players: dict[str, str] = {}  # each seat an account holds: the player's name (a guest's seat: absent)


def status_of(history: History, now_ms: int | None = None) -> str:
    s = history.session
    if s.finished is not None:
        return "finished"
    if not s.started:
        return "open"
    now_ms = time.time_ns() // 1_000_000 if now_ms is None else now_ms
    if s.to_act is not None and now_ms - s.waiting_since >= s.created.options.silence_seconds * 1000:
        return "waiting"
    if s.to_act is not None and clock.flag_fallen(s, s.to_act, now_ms):
        return "waiting"  # its time has run out: the opponent may claim the game
    return "active"


def game_view(history: History, created_ms: int) -> GameView:
    s = history.session
    c = s.created
    return GameView(
        game_id=history.game_id,
        status=status_of(history),
        scenario=c.scenario,
        ruleset=c.ruleset,
        rules_version=c.rules_version,
        seats={side: side in s.joined for side in ("union", "confederate")},
        version=history.version,
        head=history.head.hex(),
        turn=history.state.turn,
        phase=history.state.phase,
        to_act=s.to_act,
        waiting_since=s.waiting_since,
        options=c.options,
        rules_options=dict(c.rules_options),
        dice=c.dice,
        seed_hash=c.seed_hash,
        created=created_ms,
        finished=s.finished,
        sandbox=c.fork is not None,
        forked_from=c.fork.game_id if c.fork else None,
        forked_at=c.fork.version if c.fork else None,
    )
