"""Bot accounts (docs/PROTOCOL.md, "Bots"): a player makes a bot account, gets its API token once,
and an outside engine plays through the same API as any client (lichess's BOT API is the model):
``Authorization: Bearer bgb_...`` on every request and on the websocket's upgrade. A bot may use
the lobby and play its seats; it has no password and no session (it cannot log in, nor change one).
Its token can be made anew by its owner, which ends the old one.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from aiohttp import web

from accounts.names import NameRefused, check_name
from accounts.store import NameTaken
from api.app_keys import ACCOUNTS
from api.games import HttpError
from api.http import json, read_body
from api.sessions import require_account

NO_PASSWORD = "!"  # never a valid Argon2 hash: no password opens a bot account


class NewBot(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/me/bots: the bot's ``name`` (an account name, accounts/names.py)."""

    name: Annotated[str, msgspec.Meta(max_length=64)]


class BotToken(msgspec.Struct, frozen=True, kw_only=True):
    """A bot and its API token (shown this once; the server keeps only its sha256)."""

    name: str
    token: str


async def _owner(request: web.Request):
    account = await require_account(request)
    if account.kind == "bot":
        raise HttpError(403, "forbidden", "a bot cannot make bots")
    return account


async def new_bot(request: web.Request) -> web.Response:
    owner = await _owner(request)
    body = await read_body(request, NewBot)
    try:
        check_name(body.name)
    except NameRefused as exc:
        raise HttpError(400, "malformed", str(exc)) from None
    accounts = request.app[ACCOUNTS]
    try:
        bot = await accounts.register(body.name, NO_PASSWORD, kind="bot")
    except NameTaken:
        raise HttpError(409, "name_taken", f"{body.name!r} is taken, or looks the same as a name that is") from None
    token = await accounts.new_bot_token(bot.id, owner.id)
    return json(BotToken(name=bot.name, token=token), 201)


async def renew_token(request: web.Request) -> web.Response:
    """POST /api/me/bots/{name}/token: a new token for one's own bot; the old one stops working."""
    owner = await _owner(request)
    accounts = request.app[ACCOUNTS]
    bot, _ = await accounts.find(request.match_info["name"])
    if bot is None or bot.kind != "bot" or await accounts.bot_owner(bot.id) != owner.id:
        raise HttpError(404, "not_found", f"you have no bot {request.match_info['name']!r}")
    return json(BotToken(name=bot.name, token=await accounts.new_bot_token(bot.id, owner.id)))


def setup_bot_routes(app: web.Application) -> None:
    app.router.add_post("/api/me/bots", new_bot)
    app.router.add_post("/api/me/bots/{name}/token", renew_token)
