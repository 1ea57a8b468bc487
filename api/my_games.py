"""A signed-in player's games (GET /api/me/games): each game he holds a seat in, newest first, with
his seat and whether it is his move; ``your_move=true`` lists only those waiting for him, across
all his games (what a correspondence player opens first)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from aiohttp import web

from api.app_keys import ACCOUNTS, SEATS, STORE
from api.games import GameSummary, summaries
from api.http import json, query
from api.sessions import require_account


class MyGamesQuery(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """GET /api/me/games: ``your_move`` keeps only the games waiting for this player; ``offset`` and
    ``limit`` page (newest first)."""

    your_move: bool = False
    offset: Annotated[int, msgspec.Meta(ge=0, le=10_000_000)] = 0
    limit: Annotated[int, msgspec.Meta(ge=1, le=200)] = 50


class MyGame(GameSummary, frozen=True, kw_only=True):
    """One of the player's games: as the game list shows it, his ``seat``, and ``your_move``: the
    game is under way and waits for his seat."""

    seat: str
    your_move: bool


class MyGames(msgspec.Struct, frozen=True, kw_only=True):
    games: list[MyGame]
    next: int | None  # the offset of the next page, None at the end


async def my_games(request: web.Request) -> web.Response:
    account = await require_account(request)
    q = query(request, MyGamesQuery)
    app = request.app
    store, seats = app[STORE], app[SEATS]
    found: list[MyGame] = []
    cursor: int | None = q.offset
    while cursor is not None and len(found) < q.limit:
        ids, cursor = await app[ACCOUNTS].games(account.id, cursor, q.limit - len(found))
        infos = [info for info in [await store.get_game(i) for i in ids] if info is not None]
        for summary in await summaries(store, infos, delayed=False):
            seat = await seats.seat_of_account(summary.game_id, account.id)
            if seat is None:
                continue
            mine = summary.status in ("active", "waiting") and summary.to_act == seat
            if q.your_move and not mine:
                continue
            found.append(MyGame(**msgspec.structs.asdict(summary) | {"seat": seat, "your_move": mine}))
    return json(MyGames(games=found, next=cursor))
