"""Who a request is signed in as: the session cookie ``bg_session`` (api/accounts.py opens and
ends sessions; accounts/store.py keeps them)."""

from __future__ import annotations

from aiohttp import web

from accounts.store import Account, Session
from api.app_keys import ACCOUNTS

COOKIE = "bg_session"
#: The request's account and session, looked up once (`signed_in`).
SIGNED_IN = web.RequestKey("signed_in", object)


async def signed_in(request: web.Request) -> tuple[Account, Session] | None:
    """The account and session of the request's cookie, if it is a live one (looked up once)."""
    if SIGNED_IN not in request:
        cookie = request.cookies.get(COOKIE)
        request[SIGNED_IN] = None if cookie is None else await request.app[ACCOUNTS].session(cookie)
    return request[SIGNED_IN]


async def account_of(request: web.Request) -> Account | None:
    found = await signed_in(request)
    return None if found is None else found[0]
