"""The HTTP JSON endpoints (routes in api/routes.py). Errors are ``{"error": {"code", "message"}}``."""

from __future__ import annotations

import msgspec
from aiohttp import web

from api import games as game_service
from api.app_keys import CONFIG, GAMES, LIVE, SEATS, SERVER_VERSION, STORE
from rules import RULES_VERSION
from scenarios.loader import ScenarioError, list_scenarios

_encoder = msgspec.json.Encoder()


def json(data, status: int = 200) -> web.Response:
    return web.Response(body=_encoder.encode(data), status=status, content_type="application/json")


def error(status: int, code: str, message: str) -> web.Response:
    return json({"error": {"code": code, "message": message}}, status)


async def _body(request: web.Request, type_):
    try:
        return msgspec.json.decode(await request.read(), type=type_)
    except msgspec.DecodeError as exc:
        raise game_service.HttpError(400, "malformed", str(exc)) from None


@web.middleware
async def errors(request: web.Request, handler):
    """Refusals as JSON: HttpError, a bad game id, a body too large."""
    try:
        return await handler(request)
    except game_service.HttpError as exc:
        return error(exc.status, exc.code, exc.message)
    except ValueError as exc:  # a malformed game id
        return error(400, "malformed", str(exc))
    except web.HTTPRequestEntityTooLarge:
        return error(413, "too_large", "the request body is too large")


async def create_game(request: web.Request) -> web.Response:
    app = request.app
    body = await _body(request, game_service.CreateGame)
    created = await game_service.create_game(
        app[STORE], app[SEATS], app[GAMES], app[LIVE], app[CONFIG], body, app[SERVER_VERSION]
    )
    return json(created, 201)


async def join_game(request: web.Request) -> web.Response:
    app = request.app
    body = await _body(request, game_service.JoinGame)
    joined = await game_service.join_game(
        app[STORE], app[SEATS], app[GAMES], app[LIVE], request.match_info["game_id"], body
    )
    return json(joined)


async def list_games(request: web.Request) -> web.Response:
    status = request.query.get("status")
    if status not in (None, "open", "active", "waiting", "finished"):
        return error(400, "malformed", "status is one of open, active, waiting, finished")
    try:
        offset = int(request.query.get("offset", 0))
        limit = min(int(request.query.get("limit", 50)), 200)
    except ValueError:
        return error(400, "malformed", "offset and limit are whole numbers")
    if offset < 0 or limit < 1:
        return error(400, "malformed", "offset >= 0 and limit >= 1")
    return json(await game_service.list_games(request.app[STORE], status, offset, limit))


async def inspect_game(request: web.Request) -> web.Response:
    app = request.app
    return json(await game_service.inspect_game(app[STORE], app[GAMES], app[LIVE], request.match_info["game_id"]))


async def scenarios(request: web.Request) -> web.Response:
    return json([{"id": sid, "name": name} for sid, name in list_scenarios()])


async def scenario(request: web.Request) -> web.Response:
    from scenarios.describe import as_dict

    try:
        found = request.app[GAMES].scenario(request.match_info["scenario_id"])
    except ScenarioError:
        return error(404, "malformed", f"no scenario {request.match_info['scenario_id']!r}")
    return json(as_dict(found))


async def healthz(request: web.Request) -> web.Response:
    try:
        await request.app[STORE].redis.ping()
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy
        return json({"ok": False, "redis": str(exc)}, 503)
    return json({"ok": True, "server_version": request.app[SERVER_VERSION], "rules_version": RULES_VERSION})
