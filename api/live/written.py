"""Road to Richmond's secret write-down (17.62, session/written.py) in a live game: the
choice kept in the store under the game's hidden key, loaded when the game opens or another process
writes it down, and written down for the seat that sends `write_down`."""

from __future__ import annotations

from api.live.acting import now_ms
from session import decide as decide_session
from session import written as written_module
from session.history import History


class WritingDown:
    """The choice written down in secret (a mixin of `api.live.room.LiveGame`: `_written`)."""

    async def _load_written(self) -> None:
        """Road to Richmond 17.62: the choice written down in secret, when there is one."""
        if written_module.variable_units(self.history.state):
            self._written = written_module.decode(await self.store.get_hidden(self.game_id, written_module.HIDDEN))

    async def _write_down(self, h: History, seat: str, later: dict[str, int], cid: str) -> list:
        """Road to Richmond 17.62: the choice kept in the store, only its commitments in the log. The
        rules decide first (a second writing down is refused before the kept choice is touched); a
        choice kept for an append that then fails is replaced by the next try's."""
        try:
            choice, command = written_module.write_down(h.state, later)
        except written_module.NotWritable as exc:
            raise decide_session.ActionRefused("illegal", str(exc), case="17.62") from None
        events = decide_session.command(h, seat, command, await self.seed(), cid, now_ms=now_ms())
        await self.store.put_hidden(self.game_id, written_module.HIDDEN, written_module.encode(choice))
        self._written = choice
        return events


#: The event that records a choice written down in secret (Road to Richmond 17.62).
WRITTEN_DOWN = "reinforcements_written_down"
