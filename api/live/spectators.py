"""The spectator delay and the withheld chat (session/visibility.py) in a live game:
the spectators' view folded `delay` events behind the game, and the placeholder each spectator gets
for a chat line said while the two seats did not both show their chat."""

from __future__ import annotations

from api import protocol
from api.live.sockets import Connection, text_frame
from eventstore.envelope import Envelope
from session.history import History, apply_async, load
from session.records import ChatSaid, UndoAccepted
from session.visibility import visible_version, withheld_copy


class Spectating:
    """What spectators see of a live game (a mixin of `api.live.room.LiveGame`: `view`, `delay`,
    `view_record`, `recent`, `_withheld`, `_placeholders`)."""

    def history_for(self, seat: str | None) -> History:
        """The history a seat sees (spectators: the delayed view, when the game has a delay)."""
        return self.view if seat is None and self.view is not None else self.history

    async def _advance_view(self, spectators: list[Connection]) -> None:
        """Fold the spectators' view up to what they may see now, and send them that."""
        view = self.view
        target = visible_version(self.history, self.delay)
        viewing = [c for c in spectators if c.wants_view]
        spectators = [c for c in spectators if not c.wants_view]
        parts, undone = await self._fold_view(view, target)
        if view.version < target:  # the recent events no longer reach back to the view: reload it
            await self._reload_view(target, spectators, viewing)
            return
        if parts:
            frame = text_frame(protocol.events_message(parts))
            for conn in spectators:
                conn.send_frame(frame)
            if self.view_record is not None:
                self._send_views(viewing, view, self.view_record)
        if undone:
            snapshot = text_frame(self.snapshot_message("undo", view))
            for conn in spectators:
                conn.send_frame(snapshot)

    async def _fold_view(self, view: History, target: int) -> tuple[list[bytes], bool]:
        """Fold the recent events that follow the view, up to `target`: the event JSON each
        spectator gets for them, and whether one was an undo accepted."""
        parts = []
        undone = False
        for version, data, envelope in self.recent:
            if view.version < version <= target and version == view.version + 1:
                item = await apply_async(view, self.store, envelope)
                if self.view_record is not None:
                    self.view_record.apply(version, self._seen_item(version, item), view.game)
                parts.append(self._seen_data(version, data, envelope))
                undone = undone or isinstance(item, UndoAccepted)
        return parts, undone

    async def _reload_view(self, target: int, spectators: list[Connection], viewing: list[Connection]) -> None:
        """The view loaded again at `target`: a snapshot to the spectators, the whole record to those
        viewing it."""
        self.view = await load(self.store, self.game_id, self.hub.games, to_version=target)
        snapshot = text_frame(self.snapshot_message("behind", self.view))
        for conn in spectators:
            conn.send_frame(snapshot)
        if viewing:
            self.view_record = await self._build_record(self.view, spectators=True)
            self.view_record.changed()
            for conn in viewing:  # the whole record again
                conn.send(self.view_message(conn.seat, self.view, self.view_record, whole=True))
        else:
            self.view_record = None

    def _seen_data(self, version: int, data: bytes, envelope: Envelope) -> bytes:
        """The event JSON a spectator gets for `version`: `data`, or a withheld line's placeholder."""
        if version not in self._withheld:
            return data
        found = self._placeholders.get(version)
        if found is None:
            copy = withheld_copy(envelope)
            found = self._placeholders[version] = (protocol.encode_event(copy), copy)
        return found[0]

    def _seen_item(self, version: int, item):
        """The log entry a spectators' record folds at `version`: a withheld line has no text."""
        return ChatSaid(seat=item.seat, text="") if version in self._withheld else item
