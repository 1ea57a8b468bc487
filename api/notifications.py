"""A player's notification settings over HTTP (docs/PROTOCOL.md, "Notifications"): his own only,
read and written through his session (accounts/notifications.py keeps them; api/notifier.py acts
on them); and his Web Push subscriptions (accounts/push.py; api/push.py sends to them), with the
server's public VAPID key a browser subscribes with."""

from __future__ import annotations

import msgspec
from aiohttp import web

from accounts.notifications import Settings, SettingsRefused
from accounts.push import Subscription, SubscriptionRefused, Unsubscribe
from api.app_keys import NOTIFICATIONS, NOTIFIER, PUSH, SEATS
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


class PushKey(msgspec.Struct, frozen=True, kw_only=True):
    """GET /api/push-key: the server's VAPID public key (``public_key``, base64url: a browser's
    ``applicationServerKey``)."""

    public_key: str


class PushDevices(msgspec.Struct, frozen=True, kw_only=True):
    """GET, POST /api/me/push: the ``endpoints`` of the signed-in player's push subscriptions."""

    endpoints: list[str]


def _pusher(request: web.Request):
    pusher = request.app[NOTIFIER].pusher
    if pusher is None:
        raise HttpError(404, "not_found", "this server sends no Web Push (it has no VAPID key)")
    return pusher


async def push_key(request: web.Request) -> web.Response:
    return json(PushKey(public_key=_pusher(request).public_key))


async def _devices(request: web.Request, account_id: str) -> web.Response:
    return json(PushDevices(endpoints=[s.endpoint for s in await request.app[PUSH].all(account_id)]))


async def push_devices(request: web.Request) -> web.Response:
    account = await require_account(request)
    return await _devices(request, account.id)


async def push_subscribe(request: web.Request) -> web.Response:
    """POST /api/me/push: keep this device's subscription (the same endpoint again replaces it)."""
    account = await require_account(request)
    _pusher(request)
    body = await read_body(request, Subscription)
    try:
        await request.app[PUSH].add(account.id, body)
    except SubscriptionRefused as exc:
        raise HttpError(400, "malformed", str(exc)) from None
    return await _devices(request, account.id)


async def push_unsubscribe(request: web.Request) -> web.Response:
    """DELETE /api/me/push: forget the subscription of ``endpoint``."""
    account = await require_account(request)
    body = await read_body(request, Unsubscribe)
    if not await request.app[PUSH].remove(account.id, body.endpoint):
        raise HttpError(404, "not_found", "you have no push subscription with this endpoint")
    return web.Response(status=204)


def setup_notification_routes(app: web.Application) -> None:
    app.router.add_get("/api/me/notifications", get_settings)
    app.router.add_put("/api/me/notifications", put_settings)
    app.router.add_post("/api/me/games/{game_id}/mute", mute)
    app.router.add_get("/api/push-key", push_key)
    app.router.add_get("/api/me/push", push_devices)
    app.router.add_post("/api/me/push", push_subscribe)
    app.router.add_delete("/api/me/push", push_unsubscribe)
