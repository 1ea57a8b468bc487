"""A player's notification settings over HTTP (docs/PROTOCOL.md, "Notifications"): his own only,
read and written through his session (accounts/notifications.py keeps them; api/notifier.py acts
on them)."""

from __future__ import annotations

import msgspec
from aiohttp import web

from accounts.notifications import Settings, SettingsRefused
from api.app_keys import NOTIFICATIONS, SEATS
from api.games import HttpError
from api.http import json, read_body
from api.sessions import require_account


class Mute(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/me/games/{id}/mute: ``muted`` true: nothing of this game is sent to him."""

    muted: bool


async def get_settings(request: web.Request) -> web.Response:
    """GET /api/me/notifications: the signed-in player's `Settings`."""
    account = await require_account(request)
    return json(await request.app[NOTIFICATIONS].settings(account.id))


async def put_settings(request: web.Request) -> web.Response:
    """PUT /api/me/notifications: replace them (the webhook secret is the server's: kept)."""
    account = await require_account(request)
    body = await read_body(request, Settings)
    try:
        return json(await request.app[NOTIFICATIONS].save(account.id, body))
    except SettingsRefused as exc:
        raise HttpError(400, "malformed", str(exc)) from None


async def mute(request: web.Request) -> web.Response:
    account = await require_account(request)
    game_id = request.match_info["game_id"]
    if await request.app[SEATS].seat_of_account(game_id, account.id) is None:
        raise HttpError(404, "not_found", f"you hold no seat of game {game_id!r}")
    body = await read_body(request, Mute)
    await request.app[NOTIFICATIONS].mute(account.id, game_id, body.muted)
    return json(body)


def setup_notification_routes(app: web.Application) -> None:
    app.router.add_get("/api/me/notifications", get_settings)
    app.router.add_put("/api/me/notifications", put_settings)
    app.router.add_post("/api/me/games/{game_id}/mute", mute)
