"""The `view` messages of a live game (api/views.py `position_view`) and the record beside
the board (replay/gamerecord.py): each role's view computed once per version, sent whole or as a
patch of what that role's connections have; and the `snapshot` message."""

from __future__ import annotations

import msgspec

from api import protocol
from api.live.sockets import Connection, text_frame
from api.views import merge_patch, position_view, session_view
from replay.gamerecord import GameRecord
from rules.core import state as rules_state
from session import written as written_module
from session.history import History, decode_entry


class Viewing:
    """The views, the record and the snapshots of a live game (a mixin of `api.live.room.LiveGame`:
    `record`, `view_record`, `_views`, `_state_json`, `_sent`, `_written`)."""

    async def _build_record(self, history: History, spectators: bool = False) -> GameRecord:
        """The record of the game up to `history`'s version, folded from the whole log (for
        `spectators`: without the chat lines withheld from them)."""
        record = GameRecord(history.game)
        async for envelope in self.store.read(self.game_id, 1, history.version):
            item = decode_entry(envelope)
            record.apply(envelope.version, self._seen_item(envelope.version, item) if spectators else item)
        return record

    def record_for(self, seat: str | None) -> GameRecord | None:
        return self.view_record if seat is None else self.record

    def position(self, seat: str | None, history: History, record: GameRecord) -> protocol.PositionView:
        """The view of `history` for `seat` (None: every spectator): computed once per version and
        role, the rules state's JSON once per version."""
        key = (id(history), history.version, seat)
        found = self._views.get(key)
        if found is None:
            if len(self._views) > 16:
                self._views.clear()
                self._state_json.clear()
                self._sent = {k: v for k, v in self._sent.items() if k[0] in (id(self.history), id(self.view))}
            at = (id(history), history.version)
            state_json = self._state_json.get(at)
            if state_json is None:
                state_json = self._state_json[at] = rules_state.encode_json(history.state)
            found = position_view(history, record, seat, state_json)
            shown = written_module.shown_to(history.state, self._written, seat, history.finished is not None)
            if shown:  # 17.62: to the player who wrote it down (everyone once the game is over)
                found = msgspec.structs.replace(found, written_down=shown)
            self._views[key] = found
        return found

    def view_message(
        self, seat: str | None, history: History, record: GameRecord, *, whole: bool, change=None
    ) -> bytes:
        """The `view` message of `history` for `seat`: whole (to a connection that has nothing yet),
        or a patch of the view this role's connections have, with the record's `change`."""
        keep, lines = (0, record.lines) if whole else change
        view = self.position(seat, history, record)
        plain = msgspec.json.decode(protocol.encode(view))
        sent = self._sent.get((id(history), seat))
        self._sent[(id(history), seat)] = (history.version, plain)
        if whole or sent is None:
            message = protocol.ViewOut(
                version=history.version, time=history.time, view=view, record_keep=keep, record=lines
            )
        else:
            message = protocol.ViewOut(
                version=history.version,
                time=history.time,
                base=sent[0],
                patch=merge_patch(sent[1], plain),
                record_keep=keep,
                record=lines,
            )
        return protocol.encode(message)

    def _send_views(self, conns: list[Connection], history: History, record: GameRecord) -> None:
        """After a batch of events: each role's view (one frame per role, the spectators' shared) and
        the record's change since the last batch."""
        change = record.changed()
        frames: dict[str | None, bytes] = {}
        for conn in conns:
            frame = frames.get(conn.seat)
            if frame is None:
                frame = frames[conn.seat] = text_frame(
                    self.view_message(conn.seat, history, record, whole=False, change=change)
                )
            conn.send_frame(frame)

    def snapshot_message(self, reason: str, history: History | None = None) -> bytes:
        h = history or self.history
        return protocol.encode(
            protocol.Snapshot(
                reason=reason,
                version=h.version,
                head=h.head.hex(),
                state=msgspec.Raw(rules_state.encode_json(h.state)),
                session=session_view(h),
            )
        )
