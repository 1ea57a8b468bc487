"""Deciding a session: what a player's action appends to the log, or why it is refused. Pure: each
function reads a `History` (and the seed or clock it is given) and returns the `NewEvent`s to append
at `history.version + 1`, each with the digest of the rules state after it.

The game server calls these after checking who is asking (its seat); replays, imports and tests call
them to write logs of their own. Refusals raise `ActionRefused` with a protocol error code:
``not_your_turn``, ``illegal`` (with the rule's case), ``game_over`` or ``unauthorized``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import msgspec

from eventstore.envelope import NewEvent
from rules.core import events as rules_events
from rules.core import state as rules_state
from rules.core.commands import Command
from rules.core.commands import encode as encode_command
from rules.core.errors import RuleViolation
from rules.core.game import Game
from rules.core.handlers import apply as apply_event
from rules.core.scenario import SIDES, other_side
from rules.core.state import State
from rules.procedures.sequence import to_act
from rules.reducer import decide, new_game
from session import clock, pause, records, undo
from session import dice as dice_module
from session.consent import ConsentRefused
from session.history import History
from session.records import (
    ChatSaid,
    ChatShown,
    CommandApplied,
    DrawDeclined,
    DrawOffered,
    GameCreated,
    GameFinished,
    PauseAccepted,
    PauseDeclined,
    PauseRequested,
    PauseResumed,
    PauseWithdrawn,
    Record,
    SeatJoined,
    SeedRevealed,
    TakenBack,
    UndoAccepted,
    UndoDeclined,
    UndoRequested,
    UndoWithdrawn,
)

if TYPE_CHECKING:
    from rules.core.scenario import Side
    from session.records import FinishReason

MAX_CHAT = 500


class ActionRefused(Exception):
    """A player's action that may not be made now: a protocol error code, the rule's case (for
    ``illegal``), a sentence, and for a refusal that time will lift, ``retry_after`` seconds."""

    def __init__(
        self, code: str, message: str, case: str | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.case = case
        self.retry_after = retry_after


def _digest(state: State | None) -> bytes:
    return rules_state.digest_bytes(state) if state is not None else b""


def record_event(record: Record, digest: bytes, actor: str = "", command_id: str = "") -> NewEvent:
    """The `NewEvent` of a session record."""
    return NewEvent(
        type=records.tag(type(record)),
        payload=records.encode(record),
        schema=record.schema,
        actor=actor,
        command_id=command_id,
        digest=digest,
    )


# -- creation and seats ----------------------------------------------------------------------------
def create(created: GameCreated, game: Game, creator_nonce: str) -> list[NewEvent]:
    """The first two events of a game: its creation and the creator's seat."""
    digest = _digest(new_game(game))
    return [
        record_event(created, digest),
        record_event(SeatJoined(seat=created.creator, nonce=creator_nonce), digest, actor=created.creator),
    ]


def join(history: History, seat: Side, nonce: str) -> list[NewEvent]:
    """The other seat taken (the invite code has been checked by the caller)."""
    if history.session.finished is not None:
        raise ActionRefused("game_over", "the game is over")
    if seat in history.session.joined or len(history.session.joined) >= 2:
        raise ActionRefused("unauthorized", f"the {seat} seat is taken")
    if not dice_module.valid_nonce(nonce):
        raise ActionRefused("malformed", "a dice nonce is 8 to 128 characters of A-Z a-z 0-9 _ -")
    return [record_event(SeatJoined(seat=seat, nonce=nonce), history.digest(), actor=seat)]


# -- playing ---------------------------------------------------------------------------------------
def _playing(history: History) -> None:
    if history.session.finished is not None:
        raise ActionRefused("game_over", "the game is over")
    if not history.started:
        raise ActionRefused("not_your_turn", "the game has not started: the other seat is still empty")


def command(
    history: History,
    seat: Side,
    cmd: Command,
    seed: bytes,
    command_id: str = "",
    *,
    now_ms: int | None = None,
) -> list[NewEvent]:
    """A rules command by `seat`: its `command` record (with the die rolls it used) and the rules
    events it causes; then `game_finished` (revealing `seed`, or withholding it: `finish`) if the rules ended the game. With
    `now_ms` (the server's time), a seat whose clock has run out may not act (a log written without
    one, as replays and tests write, is not timed)."""
    _playing(history)
    state = history.state
    assert state is not None  # started: created
    side = to_act(state)
    if side != seat:
        raise ActionRefused("not_your_turn", f"the game waits for the {side} player")
    if now_ms is not None:
        _not_paused(history, now_ms, "a command")
    if now_ms is not None and clock.flag_fallen(history.session, seat, now_ms):
        raise ActionRefused(
            "illegal", "your time has run out: your opponent may claim the game", case="clock"
        )
    version = history.version + 1
    rolled = dice_module.Dice(seed, history.dice_stream(), version, history.dice_nonces())
    try:
        events = decide(state, cmd, rolled)
    except RuleViolation as exc:
        raise ActionRefused("illegal", exc.message, case=exc.case) from None
    record = CommandApplied(seat=seat, command=msgspec.Raw(encode_command(cmd)), rolls=list(rolled.rolls))
    out = [record_event(record, _digest(state), seat, command_id)]
    scratch = state.copy()
    for event in events:
        apply_event(scratch, event)
        out.append(
            NewEvent(
                type=cast(str, event.__struct_config__.tag),  # every event's tag is a string
                payload=rules_events.encode(event),
                schema=event.schema,
                actor=seat,
                command_id=command_id,
                digest=_digest(scratch),
            )
        )
    if scratch.game_over:
        out.append(record_event(finish(scratch, "rules", None, seed, pair=_pair(history)), _digest(scratch), seat, command_id))
    return out


def winner_of(state: State) -> Side | None:
    """The winning side the rules name: ``state.winner`` when the rules keep one, else the one side
    named in ``state.result`` ("union substantive victory"), else None."""
    winner = getattr(state, "winner", None)
    if winner in SIDES:
        return winner
    text = (state.result or "").lower()
    named = [s for s in SIDES if s in text]
    return named[0] if len(named) == 1 else None


def finish(
    state: State,
    reason: FinishReason,
    by: Side | None,
    seed: bytes,
    winner: Side | None = None,
    note: str | None = None,
    *,
    pair: str | None = None,
) -> GameFinished:
    """The ``game_finished`` record: it reveals `seed`, but for a game of the duplicate pair `pair`
    (its ``dice_stream``), whose seed the pair's other game rolls too: withheld (``seed_withheld``),
    revealed by ``seed_revealed`` once both games have ended (`reveal`)."""
    return GameFinished(
        reason=reason,
        by=by,
        winner=winner if reason != "rules" else winner_of(state),
        result=state.result,
        vp=dict(state.vp),
        seed="" if pair is not None else seed.hex(),
        note=note,
        seed_withheld=pair,
    )


def _pair(history: History) -> str | None:
    """The duplicate pair whose dice the game rolls (``GameCreated.dice_stream``), or None."""
    created = history.session.created
    return created.dice_stream if created is not None else None


def reveal(history: History, seed: bytes) -> list[NewEvent]:
    """``seed_revealed``: the seed a finished game of a duplicate pair withheld, now that both games
    of the pair have ended (the tournament director says when). The server is its actor."""
    finished = history.session.finished
    if finished is None:
        raise ActionRefused("illegal", "the game is not over: its dice seed stays secret", case="dice")
    if finished.seed_withheld is None or finished.seed:
        raise ActionRefused("illegal", "the game's dice seed is revealed already", case="dice")
    record = SeedRevealed(pair=finished.seed_withheld, seed=seed.hex())
    return [record_event(record, history.digest(), "")]


# -- undo ------------------------------------------------------------------------------------------
def undo_request(
    history: History,
    seat: Side,
    back_to: int,
    *,
    now_ms: int,
    backoff_seconds: float,
    command_id: str = "",
    target: State | None = None,
) -> list[NewEvent]:
    """A request to take back every action after `back_to`; under ``free-until-dice`` a request the
    policy grants comes with its acceptance in the same append (which needs the live state at
    `back_to`: `target`, or `history.state_at`, which may raise NeedsState)."""
    _playing(history)
    try:
        plan = undo.plan(history, seat, back_to, now_ms=now_ms, backoff_seconds=backoff_seconds)
    except undo.UndoRefused as exc:
        raise _refused(exc) from None
    takes_back = [
        TakenBack(version=c.version, seat=cast("Side", c.seat), command=msgspec.Raw(c.command), rolls=c.rolls)
        for c in plan.takes_back
    ]
    digest = history.digest()
    out = [
        record_event(
            UndoRequested(seat=seat, back_to=back_to, takes_back=takes_back), digest, seat, command_id
        )
    ]
    if plan.free:
        target = target if target is not None else history.state_at(back_to)
        accepted = UndoAccepted(seat=None, request=history.version + 1, back_to=back_to)
        out.append(record_event(accepted, _digest(target), seat, command_id))
    return out


def undo_answer(
    history: History, seat: Side, request: int, answer: str, command_id: str = "", target: State | None = None
) -> list[NewEvent]:
    """``accept``, ``decline`` (the opponent) or ``withdraw`` (the requester) the request at `request`.
    Accepting needs the live state at the target: `history.state_at` (NeedsState when it is older than
    what the history holds; the caller fetches it and passes `target`)."""
    _playing(history)
    try:
        undo.check_answer(history, seat, request, answer)
    except undo.UndoRefused as exc:
        raise _refused(exc) from None
    pending = history.session.undo
    assert pending is not None  # check_answer found the request
    record: Record
    if answer == "accept":
        target = target if target is not None else history.state_at(pending.back_to)
        record = UndoAccepted(seat=seat, request=request, back_to=pending.back_to)
        return [record_event(record, _digest(target), seat, command_id)]
    record = (UndoDeclined if answer == "decline" else UndoWithdrawn)(seat=seat, request=request)
    return [record_event(record, history.digest(), seat, command_id)]


# -- pause (vacation) --------------------------------------------------------------------------------
def _refused(exc: ConsentRefused) -> ActionRefused:
    return ActionRefused("illegal", exc.message, case=exc.case, retry_after=exc.retry_after)


def _not_paused(history: History, now_ms: int, doing: str) -> None:
    try:
        pause.check_not_paused(history, now_ms=now_ms, doing=doing)
    except ConsentRefused as exc:
        raise _refused(exc) from None


def pause_request(
    history: History, seat: Side, days: int, *, now_ms: int, command_id: str = ""
) -> list[NewEvent]:
    """Ask the opponent to stop the game's clock for `days` days (session/pause.py)."""
    _playing(history)
    try:
        pause.check_request(history, seat, days, now_ms=now_ms)
    except ConsentRefused as exc:
        raise _refused(exc) from None
    return [record_event(PauseRequested(seat=seat, days=days), history.digest(), seat, command_id)]


def pause_answer(
    history: History, seat: Side, request: int, answer: str, command_id: str = ""
) -> list[NewEvent]:
    """``accept``, ``decline`` (the opponent) or ``withdraw`` (the asker) the pause request at `request`."""
    _playing(history)
    try:
        pause.check_answer(history, seat, request, answer)
    except ConsentRefused as exc:
        raise _refused(exc) from None
    kind = {"accept": PauseAccepted, "decline": PauseDeclined, "withdraw": PauseWithdrawn}[answer]
    return [record_event(kind(seat=seat, request=request), history.digest(), seat, command_id)]


def pause_resume(history: History, seat: Side, *, now_ms: int, command_id: str = "") -> list[NewEvent]:
    """End the running pause now (either seat): the clocks run again."""
    _playing(history)
    try:
        pause.check_resume(history, now_ms=now_ms)
    except ConsentRefused as exc:
        raise _refused(exc) from None
    return [record_event(PauseResumed(seat=seat), history.digest(), seat, command_id)]


# -- draws, resignation, abandonment, chat --------------------------------------------------------
def draw_offer(history: History, seat: Side, command_id: str = "") -> list[NewEvent]:
    _playing(history)
    offer = history.session.draw
    if offer is not None:
        who = "you" if offer.seat == seat else "your opponent"
        raise ActionRefused("illegal", f"{who} already offered a draw (version {offer.version})", case="draw")
    return [record_event(DrawOffered(seat=seat), history.digest(), seat, command_id)]


def draw_answer(
    history: History, seat: Side, accept: bool, seed: bytes, command_id: str = ""
) -> list[NewEvent]:
    _playing(history)
    offer = history.session.draw
    if offer is None or offer.seat == seat:
        raise ActionRefused("illegal", "there is no draw offer from your opponent to answer", case="draw")
    digest = history.digest()
    if accept:
        assert history.state is not None  # started: created
        return [record_event(finish(history.state, "draw", seat, seed, pair=_pair(history)), digest, seat, command_id)]
    return [record_event(DrawDeclined(seat=seat, request=offer.version), digest, seat, command_id)]


def resign(history: History, seat: Side, seed: bytes, command_id: str = "") -> list[NewEvent]:
    _playing(history)
    assert history.state is not None  # started: created
    record = finish(history.state, "resignation", seat, seed, winner=other_side(seat), pair=_pair(history))
    return [record_event(record, history.digest(), seat, command_id)]


def claim(history: History, seat: Side, seed: bytes, *, now_ms: int, command_id: str = "") -> list[NewEvent]:
    """Claim the game of an opponent whose time has run out on the game's clock (``time``), or who
    has been silent past the game's ``silence_seconds`` (``abandonment``), while the game waits for
    him."""
    _playing(history)
    _not_paused(history, now_ms, "a claim")
    s = history.session
    assert history.state is not None and s.created is not None  # started: created
    opponent = other_side(seat)
    if s.to_act != opponent:
        raise ActionRefused(
            "illegal", "the game is waiting for you, not for your opponent", case="abandonment"
        )
    if clock.flag_fallen(s, opponent, now_ms):
        record = finish(history.state, "time", seat, seed, winner=seat, pair=_pair(history))
        return [record_event(record, history.digest(), seat, command_id)]
    limit_ms = s.created.options.silence_seconds * 1000
    silent_ms = now_ms - s.waiting_since - clock.paused_ms(s, s.waiting_since, now_ms)
    if silent_ms < limit_ms:
        wait = (limit_ms - silent_ms) / 1000
        on_clock = clock.left(s, opponent, now_ms)
        if on_clock is not None and on_clock / 1000 < wait:
            raise ActionRefused(
                "illegal",
                f"your opponent has {on_clock / 1000:.1f} s left on his clock; you may claim the game "
                "when it has run out",
                case="clock",
                retry_after=on_clock / 1000,
            )
        raise ActionRefused(
            "illegal",
            f"your opponent has been silent for {silent_ms / 1000:.0f} s; you may claim the game after "
            f"{limit_ms / 1000:.0f} s",
            case="abandonment",
            retry_after=wait,
        )
    record = finish(history.state, "abandonment", seat, seed, winner=seat, pair=_pair(history))
    return [record_event(record, history.digest(), seat, command_id)]


def chat(history: History, seat: Side, text: str, command_id: str = "") -> list[NewEvent]:
    if history.session.finished is not None:
        raise ActionRefused("game_over", "the game is over")
    text = text.strip()
    if not text or len(text) > MAX_CHAT:
        raise ActionRefused("malformed", f"a chat line is 1 to {MAX_CHAT} characters")
    return [record_event(ChatSaid(seat=seat, text=text), history.digest(), seat, command_id)]


def chat_shown(history: History, seat: Side, shown: bool, command_id: str = "") -> list[NewEvent]:
    """`seat` shows its chat to spectators from now on (`shown`), or stops (records.ChatShown)."""
    if history.session.finished is not None:
        raise ActionRefused("game_over", "the game is over")
    if history.session.chat_shown.get(seat, False) == shown:
        now = "already shows" if shown else "does not show"
        raise ActionRefused("illegal", f"the {seat} seat {now} its chat to spectators", case="chat")
    return [record_event(ChatShown(seat=seat, shown=shown), history.digest(), seat, command_id)]


# -- moderation -----------------------------------------------------------------------------------
MAX_NOTE = 500


def abort(history: History, seed: bytes, note: str, command_id: str = "") -> list[NewEvent]:
    """An admin ends the game: ``game_finished`` with reason ``aborted``, no winner, `note` the
    reason given, the seed revealed like every other end (withheld like every other in a duplicate pair). The server is its actor (no seat)."""
    if history.session.finished is not None:
        raise ActionRefused("game_over", "the game is over")
    if history.version == 0 or history.state is None:
        raise ActionRefused("not_found", "no such game")
    note = note.strip()
    if not note or len(note) > MAX_NOTE:
        raise ActionRefused("malformed", f"an abort's reason is 1 to {MAX_NOTE} characters")
    record = finish(history.state, "aborted", None, seed, note=note, pair=_pair(history))
    return [record_event(record, history.digest(), "", command_id)]
