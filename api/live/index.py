"""The game index and the snapshots: bookkeeping off an acknowledgement's path, a snapshot
every `snapshot_every` versions and the game's index fields (session/visibility.py `listing`) when
something they list changed, at most once per `ServerConfig.index_delay` seconds."""

from __future__ import annotations

import asyncio
import logging

from session.history import SNAPSHOT_CODE
from session.visibility import listing

log = logging.getLogger("api.live")  # the log lines keep the name they had before api/live/ was split


INDEX_SLACK_MS = 60_000  # how far the index's waiting_since may lag (silences are of hours or days)


class Indexing:
    """The chores after an append (a mixin of `api.live.room.LiveGame`: `_listed`, `_indexer`, `_chores`)."""

    def _after_append(self, first: int, last: int) -> None:
        """Bookkeeping off the acknowledgement's path: a snapshot now and then; the game index when
        the game ends at once, else when something it lists changed, at most once per
        `ServerConfig.index_delay` seconds (it only needs to know about silences of hours)."""
        h = self.history
        every = self.store.snapshot_every
        if last // every > (first - 1) // every:
            self._chore(self.store.put_snapshot(self.game_id, h.version, h.snapshot(), SNAPSHOT_CODE))
        if h.finished is not None:
            self._chore(self._index())
        elif self._indexer is None and self._index_stale():
            self._indexer = asyncio.create_task(self._index_later())

    def _index_stale(self) -> bool:
        """Has anything the game index lists changed since this process last wrote it? (Not the
        version of a game without a spectator delay: the list reads that from the log's meta; and
        `waiting_since` only once it moved by INDEX_SLACK_MS.)"""
        fields = listing(self.history, self.view)
        written = self._listed
        if written is None:
            return True
        moved = int(fields["waiting_since"]) - int(written["waiting_since"])
        return moved >= INDEX_SLACK_MS or any(
            fields[name] != written.get(name) for name in fields if name != "waiting_since"
        )

    async def _index(self) -> None:
        self._listed = await self.hub.index(self.history, self.view)

    async def _index_later(self) -> None:
        try:
            await asyncio.sleep(self.config.index_delay)
        finally:
            self._indexer = None
        self._chore(self._index())

    def _chore(self, coro) -> None:
        task = asyncio.create_task(coro)
        self._chores.add(task)

        def done(t: asyncio.Task) -> None:
            self._chores.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.warning("game %s: %s", self.game_id, t.exception())

        task.add_done_callback(done)
