"""Acting and appending with retries: a seat's action decided against the live history
(session/decide.py) and appended at the expected version, again after each conflict with another
process's append; the idempotency key checked first (a resend gets the original outcome)."""

from __future__ import annotations

import time

import msgspec

from api import protocol
from api.protocol import Ack, Action, ProtocolError
from eventstore.errors import Conflict, KeyMismatch
from eventstore.store import CommandKey
from rules.core import commands as rules_commands
from rules.core.decoding import json_mismatch
from session import decide as decide_session
from session import written as written_module
from session.history import NeedsState, load

CONFLICT_PATIENCE = 2.0  # seconds an action is decided again while other processes keep appending first


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class Acting:
    """The actions of a live game (a mixin of `api.live.room.LiveGame`, whose state it uses: `history`,
    `store`, `config`, `hub`, `_keys`, `_act_lock`, `_seed`, `_written`)."""

    async def seed(self) -> bytes:
        if self._seed is None:
            self._seed = await self.store.get_secret(self.game_id)
            if self._seed is None:
                raise ProtocolError("game_over", "this game has no dice seed")
        return self._seed

    async def act(self, seat: str, message: Action) -> Ack:
        """Decide and append `seat`'s action; the original outcome for a resent `command_id`.

        The idempotency key is checked before deciding, against the keys of every event this
        process has folded (no round trip); a key it has not seen (an action appended before the
        game was opened here, or by another process an instant ago) is caught by the store: the
        append script checks the key before anything else, and a refusal is answered only after
        the store confirms the key was never used."""
        command = None
        if isinstance(message, protocol.SendCommand):
            command = _rules_command(message)
            body = b"command:" + rules_commands.encode(command)
        elif isinstance(message, protocol.WriteDown):
            body = b"write_down:" + msgspec.json.encode(sorted(message.later.items()))
        else:
            body = msgspec.json.encode(msgspec.structs.replace(message, command_id="", seen=None))
        key = CommandKey.of(seat, message.command_id, body)
        async with self._act_lock:
            known = self._keys.get((seat, message.command_id))
            if known is not None:
                first, last, body_hash = known
                if body_hash is None:  # folded from another process: only the store knows its body
                    found = await self._lookup(key)
                    first, last = (found.first, found.last) if found is not None else (first, last)
                elif body_hash != key.body_hash:
                    raise _reused(message.command_id)
                return Ack(command_id=message.command_id, first=first, last=last, duplicate=True)
            try:
                return await self._append_action(seat, message, command, key)
            except ProtocolError:
                found = await self._lookup(key)
                if found is not None:
                    return Ack(
                        command_id=message.command_id, first=found.first, last=found.last, duplicate=True
                    )
                raise

    async def _lookup(self, key: CommandKey):
        try:
            return await self.store.lookup(self.game_id, key)
        except KeyMismatch:
            raise _reused(key.command_id) from None

    async def _append_action(self, seat: str, message: Action, command, key: CommandKey) -> Ack:
        """Decide and append, again after each conflict with another process's append: at least
        `conflict_retries` times, and for up to `CONFLICT_PATIENCE` seconds (another process
        appending a burst of the other seat's actions, each in one round trip, must not turn this
        one's into errors: each try here costs two, a read and an append)."""
        give_up = time.monotonic() + CONFLICT_PATIENCE
        attempt = 0
        while attempt < self.config.conflict_retries or time.monotonic() < give_up:
            attempt += 1
            h = self.history
            if message.seen is not None and h.session.material > message.seen:
                missed, more = await self.missed(message.seen)
                raise ProtocolError(
                    "conflict",
                    f"the game moved on since version {message.seen}: it is at {h.version}",
                    version=h.version,
                    missed=missed,
                    more=more,
                )
            events = await self._decide(seat, message, command)
            try:
                appended = await self.store.append(self.game_id, events, h.version, key)
            except Conflict:
                await self.catch_up()
                continue
            except KeyMismatch:
                raise _reused(message.command_id) from None
            if not appended.duplicate:
                await self._fold_appended(appended.envelopes)
                self._keys[(seat, message.command_id)] = (appended.first, appended.last, key.body_hash)
                self._after_append(appended.first, appended.last)
                for listener in self.hub.after_action:
                    listener(self.game_id, self.history, seat, appended.first, appended.last)
            return Ack(
                command_id=message.command_id,
                first=appended.first,
                last=appended.last,
                duplicate=appended.duplicate,
            )
        raise ProtocolError(
            "conflict",
            "the game changed too often meanwhile; send the action again",
            version=self.history.version,
        )

    async def _decide(self, seat: str, message: Action, command) -> list:
        """The session's decision for the message: its events, once more on the state an undo needs."""
        h = self.history
        cid = message.command_id
        target = None
        for _ in range(2):
            try:
                if isinstance(message, protocol.SendCommand):
                    if self._written is not None:  # 17.62: a variable unit enters as written down
                        command = written_module.opened(h.state, command, self._written)
                    return decide_session.command(
                        h, seat, command, await self.seed(), cid, now_ms=now_ms()
                    )
                events = await self._decide_undo_and_pause(h, seat, message, cid, target)
                if events is _UNDECIDED:
                    events = await self._decide_draw_end_and_chat(h, seat, message, cid)
                if events is not _UNDECIDED:
                    return events
            except decide_session.ActionRefused as exc:
                raise ProtocolError(
                    exc.code, exc.message, case=exc.case, retry_after=exc.retry_after
                ) from None
            except NeedsState as need:
                target = (await load(self.store, self.game_id, self.hub.games, to_version=need.version)).state
        raise ProtocolError("malformed", f"cannot decide a {type(message).__name__}")

    async def _decide_undo_and_pause(self, h, seat: str, message: Action, cid: str, target):
        """A write-down (17.62), an undo (5.17) or a pause asked for or answered; `_UNDECIDED` for
        another action."""
        match message:
            case protocol.WriteDown():
                return await self._write_down(h, seat, message.later, cid)
            case protocol.UndoRequest():
                return decide_session.undo_request(
                    h,
                    seat,
                    message.back_to,
                    now_ms=now_ms(),
                    backoff_seconds=self.config.undo_backoff_seconds,
                    command_id=cid,
                    target=target,
                )
            case protocol.UndoAccept():
                return decide_session.undo_answer(
                    h, seat, message.request, "accept", cid, target=target
                )
            case protocol.UndoDecline():
                return decide_session.undo_answer(h, seat, message.request, "decline", cid)
            case protocol.UndoWithdraw():
                return decide_session.undo_answer(h, seat, message.request, "withdraw", cid)
            case protocol.PauseRequest():
                return decide_session.pause_request(h, seat, message.days, now_ms=now_ms(), command_id=cid)
            case protocol.PauseAccept() | protocol.PauseDecline() | protocol.PauseWithdraw():
                answer = PAUSE_ANSWERS[type(message)]
                return decide_session.pause_answer(h, seat, message.request, answer, cid)
            case protocol.PauseResume():
                return decide_session.pause_resume(h, seat, now_ms=now_ms(), command_id=cid)
        return _UNDECIDED

    async def _decide_draw_end_and_chat(self, h, seat: str, message: Action, cid: str):
        """A draw offered or answered, a resignation, a claim, a chat line or the chat shown;
        `_UNDECIDED` for another action."""
        match message:
            case protocol.DrawOffer():
                return decide_session.draw_offer(h, seat, cid)
            case protocol.DrawAccept():
                return decide_session.draw_answer(h, seat, True, await self.seed(), cid)
            case protocol.DrawDecline():
                return decide_session.draw_answer(h, seat, False, await self.seed(), cid)
            case protocol.Resign():
                return decide_session.resign(h, seat, await self.seed(), cid)
            case protocol.Claim():
                return decide_session.claim(
                    h, seat, await self.seed(), now_ms=now_ms(), command_id=cid
                )
            case protocol.Chat():
                return decide_session.chat(h, seat, message.text, cid)
            case protocol.ChatShown():
                return decide_session.chat_shown(h, seat, message.shown, cid)
        return _UNDECIDED


#: What a group of `Acting._decide` answers for an action it does not decide.
_UNDECIDED = object()

#: The answer each pause message gives (session/decide.py `pause_answer`).
PAUSE_ANSWERS = {protocol.PauseAccept: "accept", protocol.PauseDecline: "decline", protocol.PauseWithdraw: "withdraw"}


def _reused(command_id: str) -> ProtocolError:
    return ProtocolError("malformed", f"command_id {command_id!r} was already used for another action")


def _rules_command(message: protocol.SendCommand):
    """The rules command a message carries; ``unknown_type`` when its type names none, ``malformed``
    naming the first thing wrong otherwise (rules/core/decoding.py: never msgspec's own words)."""
    raw = bytes(message.command)
    try:
        return rules_commands.decode(raw)
    except msgspec.DecodeError:  # a ValidationError too
        found = json_mismatch(raw, rules_commands.AnyCommand)
    if found.kind == "unknown_tag" and found.path == ("type",):
        raise ProtocolError("unknown_type", f"no rules command has type {found.got}") from None
    if found.kind == "missing_field" and found.path == () and found.got == "type":
        raise ProtocolError("unknown_type", "a rules command needs its 'type'") from None
    raise ProtocolError("malformed", f"a malformed command: {found.sentence()}") from None
