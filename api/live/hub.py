"""The live games of this process (`LiveGames`): each opened once on first use, shared by
its users, closed when the last leaves; and the game index they write."""

from __future__ import annotations

import asyncio
import logging

from api.config import ServerConfig
from api.live.room import GameNotFound, LiveGame
from eventstore.errors import store_unavailable
from eventstore.store import RedisEventStore
from eventstore.tail import Tail
from session.games import GameCache
from session.history import History
from session.visibility import listing

log = logging.getLogger("api.live")  # the log lines keep the name they had before api/live/ was split


class LiveGames:
    """The live games of this process, opened on first use and closed when their last user leaves."""

    def __init__(self, store: RedisEventStore, tail: Tail, games: GameCache, config: ServerConfig) -> None:
        self.store = store
        self.tail = tail
        self.games = games
        self.config = config
        self._live: dict[str, LiveGame] = {}
        self._opening: dict[str, asyncio.Future] = {}
        #: Told of each player's action once it is appended: (game id, history, seat, first, last);
        #: none may wait or raise (api/notifier.py, api/rating_games.py queue their work).
        self.after_action: list = []

    def count(self) -> int:
        """The games open in this process."""
        return len(self._live)

    def peek(self, game_id: str) -> LiveGame | None:
        return self._live.get(game_id)

    async def acquire(self, game_id: str) -> LiveGame:
        """The live game (opened if need be); release it when done. Raises GameNotFound."""
        self.store.keys(game_id)  # a bad id raises ValueError here
        while True:
            live = self._live.get(game_id)
            if live is not None:
                live.users += 1
                return live
            opening = self._opening.get(game_id)
            if opening is not None:
                await asyncio.shield(opening)
                continue
            future = asyncio.get_running_loop().create_future()
            self._opening[game_id] = future
            try:
                live = LiveGame(self, game_id)
                await live.open()
                self._live[game_id] = live
            except BaseException as exc:
                future.set_result(None)
                if (
                    isinstance(exc, Exception)
                    and not isinstance(exc, GameNotFound)
                    and not store_unavailable(exc)
                ):
                    log.exception("game %s could not be opened", game_id)
                raise
            finally:
                self._opening.pop(game_id, None)
            future.set_result(None)

    def release(self, live: LiveGame) -> None:
        live.users -= 1
        if live.users <= 0 and not live.conns and self._live.get(live.game_id) is live:
            del self._live[live.game_id]
            asyncio.create_task(live.close())

    async def close(self) -> None:
        for live in list(self._live.values()):
            await live.close()
        self._live.clear()

    async def index(self, history: History, view: History | None = None) -> dict:
        """Write the game's index fields (session/visibility.py `listing`; non-authoritative: the log
        is the truth; GET /api/games reads these to list games without folding each); returns them."""
        fields = listing(history, view)
        await self.store.redis.hset(self.store.keys(history.game_id).info, mapping=fields)
        return fields
