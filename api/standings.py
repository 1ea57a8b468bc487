"""Players' pages and leaderboards over HTTP (docs/PROTOCOL.md, "Ratings"): anyone may read them."""

from __future__ import annotations

from typing import Annotated

import msgspec
from aiohttp import web

from api.app_keys import ACCOUNTS, RATINGS, SEATS, STORE
from api.games import HttpError, summaries
from api.http import json, query
from ratings.glicko2 import conservative


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """One rating: Glicko-2's ``rating`` and ``deviation``, the ``games`` it counts, and
    ``conservative`` (rating minus two deviations: what the leaderboard orders by)."""

    rating: float
    deviation: float
    games: int
    conservative: float


class PlayerGame(msgspec.Struct, frozen=True, kw_only=True):
    """One of a player's games on his page: the game, his ``seat``, ``status``, ``to_act``; a
    finished game's ``outcome`` for him (``won``, ``lost``, ``drawn``, ``aborted``) and ``result`` (the level of
    victory, else how it ended)."""

    game_id: str
    scenario: str
    seat: str
    status: str
    to_act: str | None
    outcome: str | None = None
    result: str | None = None


class Player(msgspec.Struct, frozen=True, kw_only=True):
    """GET /api/players/{name}: the ``name``, ``kind``, ``ratings`` by ``<ruleset>``,
    ``<ruleset>:<scenario>`` (on a battle) and ``<ruleset>:<scenario>:<side>`` (on a battle, as that
    side), and his latest ``games``."""

    name: str
    kind: str
    ratings: dict[str, Standing]
    games: list[PlayerGame]


class Leader(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    standing: Standing


class BoardQuery(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """GET /api/leaderboard/{ruleset}/{scenario}: the first ``limit`` players."""

    limit: Annotated[int, msgspec.Meta(ge=1, le=200)] = 50


def standing(rated) -> Standing:
    return Standing(
        rating=round(rated.rating, 1), deviation=round(rated.deviation, 1), games=rated.games,
        conservative=round(conservative(rated.glicko()), 1),
    )


async def player(request: web.Request) -> web.Response:
    app = request.app
    account, _ = await app[ACCOUNTS].find(request.match_info["name"])
    if account is None:
        raise HttpError(404, "not_found", f"no player {request.match_info['name']!r}")
    ratings = {k: standing(v) for k, v in (await app[RATINGS].of(account.id)).items()}
    ids, _ = await app[ACCOUNTS].games(account.id, 0, 50)
    infos = [i for i in [await app[STORE].get_game(g) for g in ids] if i is not None]
    games = []
    for s in await summaries(app[STORE], infos):  # as spectators see them: the page is public
        seat = await app[SEATS].seat_of_account(s.game_id, account.id)
        if seat is not None:
            outcome = (
                None if s.winner is None
                else "aborted" if s.winner == "" and s.result == "aborted"  # an admin's (api/moderation.py)
                else "drawn" if s.winner == "" else "won" if s.winner == seat else "lost"
            )  # fmt: skip
            games.append(
                PlayerGame(
                    game_id=s.game_id, scenario=s.scenario, seat=seat, status=s.status, to_act=s.to_act,
                    outcome=outcome, result=s.result,
                )
            )
    return json(Player(name=account.name, kind=account.kind, ratings=ratings, games=games))


async def leaderboard(request: web.Request) -> web.Response:
    q = query(request, BoardQuery)
    app = request.app
    ruleset, scenario = request.match_info["ruleset"], request.match_info["scenario"]
    leaders = []
    for account_id, _score in await app[RATINGS].leaderboard(ruleset, scenario, q.limit):
        account = await app[ACCOUNTS].get(account_id)
        if account is not None and not account.disabled:
            leaders.append(Leader(name=account.name, standing=standing(await app[RATINGS].get(account_id, f"{ruleset}:{scenario}"))))
    return json(leaders)


def setup_standing_routes(app: web.Application) -> None:
    app.router.add_get("/api/players/{name}", player)
    app.router.add_get("/api/leaderboard/{ruleset}/{scenario}", leaderboard)
