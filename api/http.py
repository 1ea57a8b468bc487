"""The HTTP JSON endpoints (routes in api/routes.py). Errors are ``{"error": {"code", "message"}}``
(and ``retry_after`` when waiting helps), whatever failed: a refused request (4xx), an unreachable
event store (503 ``unavailable``, with a ``Retry-After`` header), a bug (500 ``internal``, logged)."""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Annotated, Literal

import msgspec
from aiohttp import web

from api import games as game_service
from api.app_keys import (
    ACCOUNTS,
    CONFIG,
    GAMES,
    LIBRARY,
    LIVE,
    METRICS,
    OPPONENTS,
    SEATS,
    SERVER_VERSION,
    STORE,
)
from api.metrics import CONTENT_TYPE
from api.protocol import RETRY_AFTER_UNAVAILABLE, ErrorCode
from api.sessions import account_of
from eventstore.errors import store_unavailable
from rules import RULES_VERSION
from rules.core.decoding import json_mismatch, mismatch
from scenarios.loader import ScenarioError, list_scenarios

log = logging.getLogger(__name__)

HEALTH_TIMEOUT = 2.0  # seconds /healthz waits for the store's answer

_encoder = msgspec.json.Encoder()


def json(data, status: int = 200) -> web.Response:
    return web.Response(body=_encoder.encode(data), status=status, content_type="application/json")


class ErrorBody(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    code: ErrorCode
    message: str
    retry_after: float | None = None


class ErrorReply(msgspec.Struct, frozen=True, kw_only=True):
    """Every refused HTTP request: ``{"error": {"code", "message"}}``, and ``retry_after`` seconds
    (also in a ``Retry-After`` header) when the store is unavailable."""

    error: ErrorBody


class Health(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """GET /healthz: ``ok`` with the versions (200), or not ``ok`` with what ``redis`` said (503)."""

    ok: bool
    server_version: str | None = None
    rules_version: str | None = None
    redis: str | None = None


def error(status: int, code: ErrorCode, message: str, retry_after: float | None = None) -> web.Response:
    response = json(ErrorReply(error=ErrorBody(code=code, message=message, retry_after=retry_after)), status)
    if retry_after is not None:
        response.headers["Retry-After"] = str(math.ceil(retry_after))
    return response


async def read_body(request: web.Request, type_):
    """The request's JSON body as `type_`; HttpError 400 naming the first thing wrong otherwise."""
    raw = await request.read()
    try:
        return msgspec.json.decode(raw, type=type_)
    except msgspec.DecodeError:
        found = json_mismatch(raw, type_)
    raise game_service.HttpError(400, "malformed", f"the request body: {found.sentence()}")


def query(request: web.Request, type_):
    """The request's query parameters as the Struct `type_` (its fields' types and ranges checked);
    HttpError 400 naming the parameter and its range otherwise."""
    values = dict(request.query)
    try:
        return msgspec.convert(values, type=type_, strict=False)
    except msgspec.ValidationError:
        found = mismatch(values, type_, strict=False)
    raise game_service.HttpError(400, "malformed", f"a query parameter: {found.sentence()}")


@web.middleware
async def errors(request: web.Request, handler):
    """Every failure as JSON: HttpError, a bad game id, a body too large, the store out of reach
    (503), a bug (500)."""
    try:
        return await handler(request)
    except game_service.HttpError as exc:
        return error(exc.status, exc.code, exc.message, exc.retry_after)
    except ValueError as exc:  # a malformed game id
        return error(400, "malformed", str(exc))
    except web.HTTPRequestEntityTooLarge:
        return error(413, "too_large", "the request body is too large")
    except web.HTTPException:
        raise  # aiohttp's own answers (404 of an unknown route, 405)
    except Exception as exc:
        if store_unavailable(exc):
            log.warning("%s %s: the event store is unavailable (%s)", request.method, request.path, exc)
            return error(
                503,
                "unavailable",
                "the event store is unavailable; try again in a moment",
                RETRY_AFTER_UNAVAILABLE,
            )
        log.exception("%s %s failed", request.method, request.path)
        return error(500, "internal", "the server failed on this request (logged)")


def own_url(request: web.Request) -> str:
    """This server's address as the connection of `request` reached it (for a computer's process)."""
    host, port = request.transport.get_extra_info("sockname")[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


async def create_game(request: web.Request) -> web.Response:
    app = request.app
    body = await read_body(request, game_service.CreateGame)
    created = await game_service.create_game(
        app[STORE], app[SEATS], app[GAMES], app[LIVE], app[CONFIG], body, app[SERVER_VERSION]
    )
    if body.computer is not None:  # the computer takes the other seat, from a process of its own
        await app[OPPONENTS].start(own_url(request), created.game_id, created.invite, body.computer)
    await _bind_seat(request, created.game_id, created.seat)
    return json(created, 201)


async def _bind_seat(request: web.Request, game_id: str, seat: str) -> None:
    """A signed-in player's seat is his account's: any of his browsers may take it (api/ws.py)."""
    account = await account_of(request)
    if account is not None:
        await request.app[SEATS].bind(game_id, seat, account.id)
        await request.app[ACCOUNTS].add_game(account.id, game_id)


async def join_game(request: web.Request) -> web.Response:
    app = request.app
    body = await read_body(request, game_service.JoinGame)
    joined = await game_service.join_game(
        app[STORE], app[SEATS], app[GAMES], app[LIVE], request.match_info["game_id"], body
    )
    await _bind_seat(request, joined.game_id, joined.seat)
    return json(joined)


class ListQuery(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """GET /api/games: ``status`` filters, ``offset`` and ``limit`` page (newest first)."""

    status: Literal["open", "active", "waiting", "finished"] | None = None
    offset: Annotated[int, msgspec.Meta(ge=0, le=10_000_000)] = 0
    limit: Annotated[int, msgspec.Meta(ge=1, le=200)] = 50


async def list_games(request: web.Request) -> web.Response:
    q = query(request, ListQuery)
    return json(await game_service.list_games(request.app[STORE], q.status, q.offset, q.limit))


async def inspect_game(request: web.Request) -> web.Response:
    app = request.app
    game_id = request.match_info["game_id"]
    view = await game_service.inspect_game(app[STORE], app[GAMES], app[LIVE], game_id)
    players = await game_service.player_names(app[SEATS], app[ACCOUNTS], game_id)
    return json(msgspec.structs.replace(view, players=players))


async def scenarios(request: web.Request) -> web.Response:
    """GET /api/scenarios: ``scenario_listing``."""
    return json(scenario_listing(request.app[GAMES], request.app[LIBRARY]))


def scenario_listing(games, library) -> list[dict]:
    """Every scenario that loads, with what the lobby shows of it (scenarios/describe.py ``listing``):
    the shipped ones through the games' cache (the first time, loading them takes about a second:
    ``bluegray serve`` does it before it listens), then those saved in the library."""
    from scenarios.describe import listing

    out = []
    for sid, _name in list_scenarios():
        try:
            out.append(listing(games.scenario(sid)))
        except ScenarioError:
            continue  # a broken scenario is not offered (bluegray scenario validate says why)
    for saved in library.saved():  # saved from the editor or imported (scenarios/library.py)
        try:
            found = listing(library.load(saved.ref))
        except ScenarioError:
            continue
        out.append({**found, "id": saved.name, "saved": True, "derived_from": saved.derived_from})
    return out


async def scenario(request: web.Request) -> web.Response:
    from scenarios.describe import as_dict

    try:  # the games' own loader (by default the library's: shipped and saved scenarios alike)
        found = request.app[GAMES].scenario(request.match_info["scenario_id"])
    except (ScenarioError, ValueError):
        return error(404, "not_found", f"no scenario {request.match_info['scenario_id']!r}")
    return json(as_dict(found))


async def healthz(request: web.Request) -> web.Response:
    try:
        async with asyncio.timeout(HEALTH_TIMEOUT):
            await request.app[STORE].redis.ping()
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy
        return json(Health(ok=False, redis=str(exc) or type(exc).__name__), 503)
    return json(Health(ok=True, server_version=request.app[SERVER_VERSION], rules_version=RULES_VERSION))


async def metrics(request: web.Request) -> web.Response:
    """GET /metrics: the Prometheus text format (api/metrics.py; docs/OPERATIONS.md lists them)."""
    return web.Response(body=request.app[METRICS].text(), headers={"Content-Type": CONTENT_TYPE})
