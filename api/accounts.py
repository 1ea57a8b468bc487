"""Accounts over HTTP: register, log in, log out, who am I, change password (docs/PROTOCOL.md,
"Accounts"); and the two checks every request passes (`guard`): a request signed in by its session
cookie that changes anything must carry the session's CSRF token, and no such request may come from
another origin.

The session is a cookie, ``bg_session``: HttpOnly (no script reads it), SameSite=Lax (no other site's
form or script sends it), Secure when the request came over TLS (directly or by a proxy that says so
with X-Forwarded-Proto). A log-in always opens a new session (a cookie planted before it is never
adopted: no session fixation); a password change ends every other session.
"""

from __future__ import annotations

import hmac
import logging
from typing import Annotated
from urllib.parse import urlsplit

import msgspec
from aiohttp import web

from accounts.limits import LoginLimits
from accounts.names import NameRefused, check_name
from accounts.passwords import MAX_LENGTH, PasswordRefused, Passwords, check_password
from accounts.store import SESSION_SECONDS, Account, Accounts, NameTaken, Session
from api.app_keys import ACCOUNTS, CONFIG, LOGIN_LIMITS, PASSWORDS
from api.games import HttpError
from api.http import json, read_body
from api.sessions import COOKIE, signed_in

log = logging.getLogger(__name__)

CSRF_HEADER = "X-CSRF-Token"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Requests that open a session: they need no CSRF token (there is no session yet), only the origin.
OPENING = frozenset({("POST", "/api/accounts"), ("POST", "/api/session")})

Password = Annotated[str, msgspec.Meta(max_length=MAX_LENGTH)]


class Credentials(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/accounts and POST /api/session: a name and a password."""

    name: Annotated[str, msgspec.Meta(max_length=64)]
    password: Password


class PasswordChange(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/me/password: the password now and the new one."""

    password: Password
    new_password: Password


class Me(msgspec.Struct, frozen=True, kw_only=True):
    """Who is signed in: the account's id, name and kind, and the CSRF token every changing request
    of this session sends as X-CSRF-Token."""

    id: str
    name: str
    kind: str
    csrf: str


def me(account: Account, session: Session) -> Me:
    return Me(id=account.id, name=account.name, kind=account.kind, csrf=session.csrf)


def client_address(request: web.Request) -> str:
    """The client's address: the peer's, or behind a trusted proxy the last X-Forwarded-For entry."""
    if request.app[CONFIG].trust_forwarded_for:
        forwarded = request.headers.get("X-Forwarded-For", "").rsplit(",", 1)[-1].strip()
        if forwarded:
            return forwarded
    return request.remote or "unknown"


@web.middleware
async def guard(request: web.Request, handler):
    """Refuse (403 ``forbidden``) a changing request from another origin, and one signed in by its
    cookie without the session's CSRF token."""
    if request.method in UNSAFE:
        origin = request.headers.get("Origin")
        if origin is not None and origin != "null" and urlsplit(origin).netloc != request.host:
            raise HttpError(
                403, "forbidden", f"a request from another origin ({origin}) may not change anything"
            )
        if (request.method, request.path) not in OPENING and COOKIE in request.cookies:
            found = await signed_in(request)
            if found is not None:
                sent = request.headers.get(CSRF_HEADER, "")
                if not hmac.compare_digest(sent.encode(), found[1].csrf.encode()):
                    raise HttpError(
                        403,
                        "forbidden",
                        f"a signed-in request that changes anything needs the {CSRF_HEADER} header of GET /api/me",
                    )
    return await handler(request)


def _signed_in_answer(
    request: web.Request, status: int, account: Account, cookie: str, session: Session
) -> web.Response:
    response = json(me(account, session), status)
    secure = request.scheme == "https" or request.headers.get("X-Forwarded-Proto") == "https"
    response.set_cookie(
        COOKIE, cookie, max_age=SESSION_SECONDS, path="/", httponly=True, samesite="Lax", secure=secure
    )
    return response


async def register(request: web.Request) -> web.Response:
    """POST /api/accounts: a new account, signed in at once (201)."""
    body = await read_body(request, Credentials)
    try:
        check_name(body.name)
        check_password(body.password)
    except (NameRefused, PasswordRefused) as exc:
        raise HttpError(400, "malformed", str(exc)) from None
    accounts: Accounts = request.app[ACCOUNTS]
    try:
        account = await accounts.register(body.name, await request.app[PASSWORDS].hash(body.password))
    except NameTaken:
        raise HttpError(
            409, "name_taken", f"{body.name!r} is taken, or looks the same as a name that is"
        ) from None
    log.info("account registered", extra={"account": account.id})
    cookie, session = await accounts.open_session(account.id)
    return _signed_in_answer(request, 201, account, cookie, session)


async def log_in(request: web.Request) -> web.Response:
    """POST /api/session: a new session for the name and password (any session the request's
    cookie names is ended: the new one replaces it)."""
    body = await read_body(request, Credentials)
    accounts: Accounts = request.app[ACCOUNTS]
    limits: LoginLimits = request.app[LOGIN_LIMITS]
    address = client_address(request)
    account, stored = await accounts.find(body.name)
    wait = await limits.refusal(None if account is None else account.id, address)
    if wait is not None:
        raise HttpError(429, "rate_limited", f"too many failed log-ins; try again in {wait} s", float(wait))
    passwords: Passwords = request.app[PASSWORDS]
    if not await passwords.verify(stored, body.password) or account is None or account.disabled:
        await limits.failed(None if account is None else account.id, address)
        raise HttpError(401, "unauthorized", "no account has this name and password")
    await limits.succeeded(account.id)
    if passwords.needs_rehash(stored):
        await accounts.set_password(account.id, await passwords.hash(body.password))
    if COOKIE in request.cookies:
        await accounts.close_session(request.cookies[COOKIE])
    cookie, session = await accounts.open_session(account.id)
    log.info("signed in", extra={"account": account.id})
    return _signed_in_answer(request, 200, account, cookie, session)


async def log_out(request: web.Request) -> web.Response:
    """DELETE /api/session: the session ends (204; also when there was none)."""
    if COOKIE in request.cookies:
        await request.app[ACCOUNTS].close_session(request.cookies[COOKIE])
    response = web.Response(status=204)
    response.del_cookie(COOKIE, path="/")
    return response


async def whoami(request: web.Request) -> web.Response:
    """GET /api/me: the signed-in account and its session's CSRF token; 401 when not signed in."""
    found = await signed_in(request)
    if found is None:
        raise HttpError(401, "unauthorized", "not signed in")
    return json(me(*found))


class SessionState(msgspec.Struct, frozen=True, kw_only=True):
    """GET /api/session: ``account``, who is signed in (as GET /api/me), or null; always 200, so a
    page can ask without an error in its console."""

    account: Me | None


async def session_state(request: web.Request) -> web.Response:
    found = await signed_in(request)
    return json(SessionState(account=None if found is None else me(*found)))


async def change_password(request: web.Request) -> web.Response:
    """POST /api/me/password: a new password, given the present one; every other session ends."""
    found = await signed_in(request)
    if found is None:
        raise HttpError(401, "unauthorized", "not signed in")
    account, session = found
    if account.kind == "bot":
        raise HttpError(403, "forbidden", "a bot has no password (its owner renews its token)")
    body = await read_body(request, PasswordChange)
    try:
        check_password(body.new_password)
    except PasswordRefused as exc:
        raise HttpError(400, "malformed", f"new_password: {exc}") from None
    accounts: Accounts = request.app[ACCOUNTS]
    limits: LoginLimits = request.app[LOGIN_LIMITS]
    address = client_address(request)
    wait = await limits.refusal(account.id, address)
    if wait is not None:
        raise HttpError(429, "rate_limited", f"too many failed attempts; try again in {wait} s", float(wait))
    passwords: Passwords = request.app[PASSWORDS]
    if not await passwords.verify(await accounts.password_hash(account.id), body.password):
        await limits.failed(account.id, address)
        raise HttpError(401, "unauthorized", "the present password is not this")
    await accounts.set_password(account.id, await passwords.hash(body.new_password))
    ended = await accounts.close_other_sessions(request.cookies[COOKIE])
    log.info("password changed; %d other session(s) ended", ended, extra={"account": account.id})
    return json(me(account, session))


def setup_account_routes(app: web.Application) -> None:
    app.router.add_post("/api/accounts", register)
    app.router.add_post("/api/session", log_in)
    app.router.add_delete("/api/session", log_out)
    app.router.add_get("/api/me", whoami)
    app.router.add_get("/api/session", session_state)
    app.router.add_post("/api/me/password", change_password)
