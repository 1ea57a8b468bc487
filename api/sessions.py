"""Who a request is signed in as: the session cookie ``bg_session`` (api/accounts.py opens and
ends sessions; accounts/store.py keeps them), or a bot's API token, ``Authorization: Bearer
bgb_...`` (api/bots.py). A bot's request carries no cookie, so no CSRF token is asked of it."""

from __future__ import annotations

from aiohttp import web

from accounts.store import BOT_TOKEN, Account, Session
from api.app_keys import ACCOUNTS
from api.games import HttpError

COOKIE = "bg_session"
#: The request's account and session, looked up once (`signed_in`).
SIGNED_IN = web.RequestKey("signed_in", object)
#: A bot's "session": its token is its credential; it has no CSRF token (it sends no cookie).
BOT_SESSION = Session(expires=2**62, csrf="")


async def signed_in(request: web.Request) -> tuple[Account, Session] | None:
    """The account and session of the request's cookie, if it is a live one (looked up once)."""
    if SIGNED_IN not in request:
        cookie = request.cookies.get(COOKIE)
        found = None if cookie is None else await request.app[ACCOUNTS].session(cookie)
        bearer = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        if found is None and bearer.startswith(BOT_TOKEN):
            bot = await request.app[ACCOUNTS].bot(bearer)
            found = None if bot is None else (bot, BOT_SESSION)
        request[SIGNED_IN] = found
    return request[SIGNED_IN]


async def account_of(request: web.Request) -> Account | None:
    found = await signed_in(request)
    return None if found is None else found[0]


async def require_account(request: web.Request, refusal: str = "not signed in") -> Account:
    """The request's account; HttpError 401 `refusal` when it is not signed in."""
    account = await account_of(request)
    if account is None:
        raise HttpError(401, "unauthorized", refusal)
    return account
