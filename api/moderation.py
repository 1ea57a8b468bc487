"""Moderation over HTTP (docs/PROTOCOL.md, "Moderation"): a player's blocks, reports of chat lines,
and what an admin may do: read the reports, abort a game, disable or enable an account.

- **Blocks** (``{a:<id>}:blocks``, accounts/store.py): a blocked player cannot challenge the
  blocker nor accept his seeks, and neither sees the other's seeks (api/lobby.py). Games already
  begun between them go on.
- **Reports** (accounts/reports.py): a player of a game, or a signed-in spectator, names a chat
  line by its version in the log; the event there must be a ``chat`` the reporter may see (a
  spectator cannot report a line withheld from him, session/visibility.py).
- **Admins**: an account is an admin only by `bluegray admin grant NAME` (api/commands/admin.py);
  everyone else gets ``403 forbidden`` here. An abort is a ``game_finished`` of reason ``aborted``,
  decided by session/decide.py like every other end (`abort_game`, also used by the command line).
  A disabled account's sessions end, its bot token stops working (accounts/store.py refuses both),
  and a seat bound to it can no longer act (api/ws.py checks at every action).
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from aiohttp import web

from accounts.reports import Report
from accounts.store import Account
from api.app_keys import ACCOUNTS, GAMES, LIVE, REPORTS, SEATS, STORE
from api.games import HttpError
from api.http import json, read_body
from api.sessions import require_account
from eventstore.errors import Conflict
from session import decide as decide_session
from session.history import History, load
from session.records import ChatSaid, decode
from session.visibility import listing, seen_by

ABORT_TRIES = 10  # appends tried while players keep appending first


class Blocks(msgspec.Struct, frozen=True, kw_only=True):
    """GET /api/me/blocks, POST /api/me/blocks/{name}: the names of the players the signed-in
    player blocks, sorted."""

    blocked: list[str]


class ReportChat(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/games/{id}/reports: the ``version`` of the chat line in the game's log, and why
    (``reason``, 1 to 500 characters)."""

    version: Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1)]
    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]


class Reported(msgspec.Struct, frozen=True, kw_only=True):
    """The report taken (201), or the one this account made of this line before (200, ``duplicate``)."""

    report: Report
    duplicate: bool


class ReportList(msgspec.Struct, frozen=True, kw_only=True):
    """GET /api/admin/reports: every report in the queue, the newest first."""

    reports: list[Report]


class Abort(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/admin/games/{id}/abort: why (``reason``, 1 to 500 characters; it is recorded in
    the game's last event)."""

    reason: Annotated[str, msgspec.Meta(max_length=500)]


class Aborted(msgspec.Struct, frozen=True, kw_only=True):
    """The aborted game and the version of its ``game_finished``."""

    game_id: str
    version: int


class AccountState(msgspec.Struct, frozen=True, kw_only=True):
    """POST /api/admin/accounts/{name}/disable and /enable: the account as it is now."""

    name: str
    kind: str
    disabled: bool
    admin: bool


# -- blocks ---------------------------------------------------------------------------------------
async def _player_named(request: web.Request) -> Account:
    name = request.match_info["name"]
    found, _ = await request.app[ACCOUNTS].find(name)
    if found is None:
        raise HttpError(404, "not_found", f"no player {name!r}")
    return found


async def _blocks_of(request: web.Request, account: Account) -> Blocks:
    accounts = request.app[ACCOUNTS]
    names = []
    for account_id in await accounts.blocked(account.id):
        found = await accounts.get(account_id)
        if found is not None:
            names.append(found.name)
    return Blocks(blocked=sorted(names, key=str.casefold))


async def list_blocks(request: web.Request) -> web.Response:
    """GET /api/me/blocks."""
    account = await require_account(request)
    return json(await _blocks_of(request, account))


async def block(request: web.Request) -> web.Response:
    """POST /api/me/blocks/{name}: block the player (200, the blocks now; blocking twice is once)."""
    account = await require_account(request)
    other = await _player_named(request)
    if other.id == account.id:
        raise HttpError(400, "malformed", "a player cannot block himself")
    await request.app[ACCOUNTS].block(account.id, other.id)
    return json(await _blocks_of(request, account))


async def unblock(request: web.Request) -> web.Response:
    """DELETE /api/me/blocks/{name}: the block is lifted (204, also when there was none)."""
    account = await require_account(request)
    other = await _player_named(request)
    await request.app[ACCOUNTS].unblock(account.id, other.id)
    return web.Response(status=204)


async def block_between(accounts, one: str, other: str) -> str | None:
    """Why `one` may not propose to or accept a proposal of `other` (None: he may): one of them
    blocks the other."""
    if await accounts.blocks(other, one):
        return "this player does not take proposals from you"
    if await accounts.blocks(one, other):
        return "you block this player (DELETE /api/me/blocks/{name} lifts it)"
    return None


# -- reports --------------------------------------------------------------------------------------
async def _head(request: web.Request, game_id: str) -> History:
    live = request.app[LIVE].peek(game_id)
    history = live.history if live is not None else await load(request.app[STORE], game_id, request.app[GAMES])
    if history.version == 0:
        raise HttpError(404, "not_found", f"no game {game_id!r}")
    return history


async def report_chat(request: web.Request) -> web.Response:
    """POST /api/games/{id}/reports: report a chat line (201; 200 for a line this account reported
    before)."""
    account = await require_account(request, "sign in to report a chat line")
    game_id = request.match_info["game_id"]
    body = await read_body(request, ReportChat)
    head = await _head(request, game_id)
    seat = await request.app[SEATS].seat_of_account(game_id, account.id)
    upto = seen_by(head, seat)
    if body.version > upto:
        raise HttpError(
            400, "malformed", f"version {body.version}: this game shows you versions 1..{upto}"
        )
    envelope = [e async for e in request.app[STORE].read(game_id, body.version, body.version)][0]
    if envelope.type != "chat":
        raise HttpError(400, "malformed", f"version {body.version} is a {envelope.type}, not a chat line")
    said = decode(envelope.payload)
    assert isinstance(said, ChatSaid)
    if seat is None and body.version in head.session.withheld:
        raise HttpError(400, "malformed", f"version {body.version}: a chat line spectators were not shown")
    if seat == said.seat:
        raise HttpError(400, "malformed", "a player cannot report his own chat line")
    reports = request.app[REPORTS]
    wait = await reports.refusal(account.id)
    if wait is not None:
        raise HttpError(429, "rate_limited", f"too many reports lately; try again in {wait} s", float(wait))
    report, new = await reports.add(
        game_id=game_id,
        version=body.version,
        seat=said.seat,
        text=said.text,
        by=account.name,
        by_id=account.id,
        reason=body.reason,
    )
    return json(Reported(report=report, duplicate=not new), 201 if new else 200)


# -- admins ---------------------------------------------------------------------------------------
async def require_admin(request: web.Request) -> Account:
    account = await require_account(request)
    if not account.admin:
        raise HttpError(403, "forbidden", "only an admin may do this (bluegray admin grant NAME)")
    return account


async def list_reports(request: web.Request) -> web.Response:
    """GET /api/admin/reports."""
    await require_admin(request)
    return json(ReportList(reports=await request.app[REPORTS].all()))


async def dismiss_report(request: web.Request) -> web.Response:
    """DELETE /api/admin/reports/{report_id}: the report leaves the queue (204)."""
    await require_admin(request)
    rid = request.match_info["report_id"]
    if not await request.app[REPORTS].dismiss(rid):
        raise HttpError(404, "not_found", f"no report {rid!r}")
    return web.Response(status=204)


class AbortRefused(Exception):
    """The game cannot be aborted: a protocol error code and a sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


async def abort_game(store, games, game_id: str, note: str) -> History:
    """End the game: its ``game_finished`` (reason ``aborted``, `note`) decided on the log's head
    (session/decide.py) and appended at the version after it, again if a player appended first;
    the game index says it is finished. The history after it; AbortRefused (``not_found``,
    ``game_over``, ``malformed``) when it cannot be."""
    for _ in range(ABORT_TRIES):
        history = await load(store, game_id, games)
        if history.version == 0:
            raise AbortRefused("not_found", f"no game {game_id!r}")
        seed = await store.get_secret(game_id)
        if seed is None:
            raise AbortRefused("game_over", f"game {game_id!r} has no dice seed")
        try:
            events = decide_session.abort(history, seed, note)
        except decide_session.ActionRefused as exc:
            raise AbortRefused(exc.code, exc.message) from None
        try:
            appended = await store.append(game_id, events, history.version)
        except Conflict:
            continue
        for envelope in appended.envelopes:
            history.apply(envelope)
        await store.redis.hset(store.keys(game_id).info, mapping=listing(history))
        return history
    raise AbortRefused("conflict", "the game changed too often meanwhile; abort it again")


_STATUS = {"not_found": 404, "game_over": 409, "malformed": 400, "conflict": 409}


async def abort(request: web.Request) -> web.Response:
    """POST /api/admin/games/{id}/abort: the game ends with no winner, the reason in its last event."""
    await require_admin(request)
    body = await read_body(request, Abort)
    game_id = request.match_info["game_id"]
    app = request.app
    try:
        history = await abort_game(app[STORE], app[GAMES], game_id, body.reason)
    except AbortRefused as exc:
        raise HttpError(_STATUS[exc.code], exc.code, exc.message) from None
    live = app[LIVE].peek(game_id)
    if live is not None:
        await live.catch_up()  # its sockets see the end now
    return json(Aborted(game_id=game_id, version=history.version))


async def _set_disabled(request: web.Request, disabled: bool) -> web.Response:
    admin = await require_admin(request)
    account = await _player_named(request)
    if disabled and account.id == admin.id:
        raise HttpError(400, "malformed", "an admin cannot disable himself")
    accounts = request.app[ACCOUNTS]
    await accounts.set_disabled(account.id, disabled)
    if disabled:
        await accounts.close_all_sessions(account.id)
    return json(AccountState(name=account.name, kind=account.kind, disabled=disabled, admin=account.admin))


async def disable(request: web.Request) -> web.Response:
    """POST /api/admin/accounts/{name}/disable."""
    return await _set_disabled(request, True)


async def enable(request: web.Request) -> web.Response:
    """POST /api/admin/accounts/{name}/enable."""
    return await _set_disabled(request, False)


def setup_moderation_routes(app: web.Application) -> None:
    app.router.add_get("/api/me/blocks", list_blocks)
    app.router.add_post("/api/me/blocks/{name}", block)
    app.router.add_delete("/api/me/blocks/{name}", unblock)
    app.router.add_post("/api/games/{game_id}/reports", report_chat)
    app.router.add_get("/api/admin/reports", list_reports)
    app.router.add_delete("/api/admin/reports/{report_id}", dismiss_report)
    app.router.add_post("/api/admin/games/{game_id}/abort", abort)
    app.router.add_post("/api/admin/accounts/{name}/disable", disable)
    app.router.add_post("/api/admin/accounts/{name}/enable", enable)
