"""Following the log: the process's one tail (eventstore/tail.py) shows a new event, the
live game reads every new event at once, folds it (session/history.py) and fans it out: each event
encoded once, one frame written to every socket of the game."""

from __future__ import annotations

import asyncio
import logging

from api import protocol
from api.live.sockets import text_frame
from api.live.written import WRITTEN_DOWN
from eventstore.envelope import Envelope
from eventstore.errors import TailOverflow, UnreadableEvent, store_unavailable
from session.history import HistoryError, apply_async
from session.records import ChatSaid, UndoAccepted

log = logging.getLogger("api.live")  # the log lines keep the name they had before api/live/ was split


class Following:
    """Following a live game's log and fanning it out (a mixin of `api.live.room.LiveGame`: `history`,
    `recent`, `conns`, `record`, `view`, `view_record`, `_keys`, `_withheld`, `_advance_lock`)."""

    async def _follow(self) -> None:
        """Catch up whenever the tail shows an event this history has not folded yet."""
        while True:
            subscription = self.hub.tail.subscribe(self.game_id, self.history.version)
            try:
                async for envelope in subscription:
                    if envelope.version > self.history.version:
                        await self.catch_up()
                return  # the tail stopped
            except TailOverflow:
                await self.catch_up()
            except (UnreadableEvent, HistoryError) as exc:
                self._fail(exc)
                return
            except Exception as exc:
                if not store_unavailable(exc):
                    raise
                log.warning(
                    "game %s: following failed, the event store is unavailable (%s); retrying",
                    self.game_id,
                    exc,
                )
                await asyncio.sleep(0.5)
            finally:
                subscription.close()

    def _fail(self, exc: Exception) -> None:
        log.error("game %s cannot be served: %s", self.game_id, exc)
        self.failed = exc
        for conn in list(self.conns):
            conn.cut_off(protocol.CLOSE_GONE, "this game's log failed to verify")

    async def catch_up(self) -> None:
        """Fold (and send to every socket) every event appended after the history's version."""
        async with self._advance_lock:
            envelopes = [e async for e in self.store.read(self.game_id, self.history.version + 1)]
            if envelopes:
                await self._advance(envelopes)

    async def _fold_appended(self, envelopes) -> None:
        """Fold (and send) the events this process just appended, as `append` sealed them: no read
        back. (The tail may have shown them first: then they are folded already.)"""
        async with self._advance_lock:
            if envelopes and envelopes[0].version <= self.history.version + 1:
                await self._advance(envelopes)
                return
        await self.catch_up()

    async def _advance(self, envelopes) -> None:
        encoded = []
        undone = False
        try:
            for envelope in envelopes:
                if envelope.version <= self.history.version:
                    continue
                item = await apply_async(self.history, self.store, envelope)  # may read the store
                if envelope.type == WRITTEN_DOWN:  # perhaps by another process: its choice, from the store
                    await self._load_written()
                if isinstance(item, ChatSaid) and self.history.session.withheld[-1:] == [envelope.version]:
                    self._withheld.add(envelope.version)
                if self.record is not None:
                    self.record.apply(envelope.version, item, self.history.game)
                if self.view is None and self.view_record is not None:  # the spectators' record
                    self.view_record.apply(envelope.version, self._seen_item(envelope.version, item), self.history.game)
                if envelope.command_id:
                    seen = self._keys.get((envelope.actor, envelope.command_id))
                    first = seen[0] if seen is not None else envelope.version
                    self._keys[(envelope.actor, envelope.command_id)] = (
                        first,
                        envelope.version,
                        seen and seen[2],
                    )
                data = protocol.encode_event(envelope)
                self.recent.append((envelope.version, data, envelope))
                encoded.append((envelope.version, data, envelope))
                undone = undone or isinstance(item, UndoAccepted)
        finally:
            if encoded:  # what was folded goes out, even when the store failed on a later event
                await self._broadcast(encoded, undone)

    async def _broadcast(self, encoded: list[tuple[int, bytes, Envelope]], undone: bool) -> None:
        """Send the events just folded: to the seats as they are; to spectators, without a delay, the
        same but for the withheld chat lines (their placeholders), with a delay their view's."""
        everyone = list(self.conns)
        players = everyone if self.view is None else [c for c in everyone if c.seat is not None]
        plain = [c for c in players if not c.wants_view]
        frame = text_frame(protocol.events_message([data for _, data, _ in encoded]))
        spectator_frame = frame
        if self.view is None and any(v in self._withheld for v, _, _ in encoded):
            spectator_frame = text_frame(protocol.events_message([self._seen_data(*e) for e in encoded]))
        for conn in plain:
            conn.send_frame(frame if conn.seat is not None else spectator_frame)
        if undone:
            snapshot = text_frame(self.snapshot_message("undo"))
            for conn in plain:
                conn.send_frame(snapshot)
        if self.record is not None:
            self._send_views([c for c in players if c.wants_view and c.seat is not None], self.history, self.record)
        if self.view is None and self.view_record is not None:
            self._send_views([c for c in everyone if c.wants_view and c.seat is None], self.history, self.view_record)
        if self.view is not None:
            await self._advance_view([c for c in everyone if c.seat is None])
        self._choices_soon()
