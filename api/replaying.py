"""Replay and after-action review over HTTP and the websocket.

HTTP (routes in api/routes.py):
- ``GET /api/games/{id}/report``: the after-action report (JSON, replay/report.py);
- ``GET /games/{id}/report``: the same as a self-contained HTML page (replay/report_html.py);
- ``GET /api/games/{id}/export``: the log as JSON Lines (replay/export.py); ``?text=1``: the
  readable record;
- ``POST /api/games/{id}/fork`` ``{"version": V}``: a sandbox game branched at V (replay/fork.py),
  answered with its id and a token for each seat (one player may play both sides).

A request with ``Authorization: Bearer <seat token>`` of the game, or signed in as the account a
seat is bound to, is a player's and sees the whole log; any other sees a running game as a
spectator does, ``spectator_delay`` events behind, the chat lines withheld from spectators as
their placeholders (`session.visibility`), and may fork it only at a version it can see.

Websocket: `ReplayCursor` serves the ``replay_*`` messages of one connection (api/protocol.py):
seek, step (by event, phase, player-turn, Game-Turn), play at a speed, pause, and follow live
again. Each position is sent as a ``replay_frame``: the render-ready state at that version (the
snapshot at or before it and the fold of the rest), where it falls, and the time line's markers
(undone ranges, player-turns). The connection keeps receiving live events meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Annotated, Literal

import msgspec
from aiohttp import web

from accounts.store import BOT_TOKEN
from api import protocol
from api import seats as seat_tokens
from api.app_keys import GAMES, LIBRARY, LIVE, OPPONENTS, REVIEWS, SEATS, SERVER_VERSION, STORE
from api.games import HttpError
from api.http import own_url, query
from api.sessions import account_of
from api.views import leaders_on_map, session_view
from replay import carry, fork
from replay.report import build, encode
from replay.seek import seek
from replay.timeline import Timeline
from rules.combat_choices import declared_breakdown
from rules.core import state as rules_state
from rules.core.decoding import json_mismatch
from session.history import History, NeedsState, load
from session.visibility import for_spectators, seen_by

log = logging.getLogger(__name__)


# -- HTTP ---------------------------------------------------------------------------------------------
async def _head(request: web.Request, game_id: str) -> History:
    app = request.app
    live = app[LIVE].peek(game_id)
    history = live.history if live is not None else await load(app[STORE], game_id, app[GAMES])
    if history.version == 0:
        raise HttpError(404, "not_found", f"no game {game_id!r}")
    return history


async def _seat(request: web.Request, game_id: str) -> str | None:
    auth = request.headers.get("Authorization", "")
    if not auth.startswith("Bearer ") or auth.removeprefix("Bearer ").strip().startswith(BOT_TOKEN):
        account = await account_of(request)  # a session or a bot's token: the seat bound to it
        return None if account is None else await request.app[SEATS].seat_of_account(game_id, account.id)
    seat = await request.app[SEATS].seat_of(game_id, auth.removeprefix("Bearer ").strip())
    if seat is None:
        raise HttpError(403, "unauthorized", "this token is not a seat of this game")
    return seat


class LogQuery(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The query of the report and the export: ``to`` stops at that version; ``text`` (export): the
    readable record; ``engine`` and ``level`` (the report page): the computer's eye for that side."""

    to: Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1)] | None = None
    text: bool = False
    engine: Literal["union", "confederate"] | None = None
    level: Literal["easy", "normal", "hard", "expert"] = "normal"


async def _visible_log(request: web.Request) -> tuple[str, list, int]:
    game_id = request.match_info["game_id"]
    q = query(request, LogQuery)
    head = await _head(request, game_id)
    seat = await _seat(request, game_id)
    upto = seen_by(head, seat)
    if upto < 1:
        raise HttpError(404, "not_found", "nothing of this game may be shown yet (spectator delay)")
    if q.to is not None:
        if q.to > upto:
            raise HttpError(
                400,
                "malformed",
                f"to is 1..{upto}: the versions of this game you may see"
                + (" (spectator delay)" if upto < head.version else ""),
            )
        upto = q.to
    envelopes = [e async for e in request.app[STORE].read(game_id, 1, upto)]
    if seat is None:
        envelopes = for_spectators(head, envelopes)
    return game_id, envelopes, head.version


async def report_json(request: web.Request) -> web.Response:
    game_id, envelopes, _ = await _visible_log(request)
    return web.Response(
        body=encode(build(game_id, envelopes, request.app[GAMES])), content_type="application/json"
    )


async def report_html(request: web.Request) -> web.Response:
    from replay.report_html import render_page

    try:
        game_id, envelopes, _ = await _visible_log(request)
    except HttpError as exc:
        return web.Response(status=exc.status, text=exc.message)
    except ValueError as exc:
        return web.Response(status=400, text=str(exc))
    games = request.app[GAMES]
    report = build(game_id, envelopes, games)
    q = query(request, LogQuery)
    if q.engine is None:
        engine = (
            '<h2 id="engine">The computer\'s eye</h2><p class="note">The engine\'s evaluation over the game and its '
            "preferred alternative at each decision of one side (computed on demand: a few seconds): "
            '<a id="engine-union" href="?engine=union">for the Union</a> &middot; '
            '<a id="engine-confederate" href="?engine=confederate">for the Confederacy</a>; '
            "by the searching computer (expert: slower, it plans each Movement Phase) "
            '<a id="expert-union" href="?engine=union&amp;level=expert">for the Union</a> &middot; '
            '<a id="expert-confederate" href="?engine=confederate&amp;level=expert">for the Confederacy</a>.</p>'
        )
    else:
        engine = await _engine_section(request, game_id, envelopes, q)
    return web.Response(text=render_page(report, games.scenario(report.scenario), engine), content_type="text/html")


async def _engine_section(request: web.Request, game_id: str, envelopes: list, q: LogQuery) -> str:
    """The computer's eye for ``q.engine`` (api/engine_review.py): worked out in a thread, once per
    game version, side and level (the server's cache of reviews)."""
    from api.engine_review import computer_review
    from replay.report_html import review_section

    key = (game_id, len(envelopes), q.engine, q.level)
    cache = request.app[REVIEWS]
    found = cache.get(key)
    if found is None:
        found = await asyncio.to_thread(computer_review, game_id, envelopes, request.app[GAMES], q.engine, q.level)
        cache.put(key, found)
    review, text = found
    return review_section(review, len(envelopes), text, retry_level=q.level)


async def export_log(request: web.Request) -> web.Response:
    game_id, envelopes, _ = await _visible_log(request)
    if query(request, LogQuery).text:
        report = build(game_id, envelopes, request.app[GAMES])
        return web.Response(text="\n".join(report.record) + "\n", content_type="text/plain")
    return web.Response(
        body=carry.dumps(request.app[LIBRARY], envelopes),
        content_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{game_id}.jsonl"'},
    )


class ForkRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/games/{id}/fork: the ``version`` to start from; ``computer`` (a level) and ``side``
    (the side the player keeps): the computer plays the other side ("try this turn again")."""

    version: Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1)]
    computer: Literal["easy", "normal", "hard", "expert"] | None = None
    side: Literal["union", "confederate"] | None = None


class Forked(msgspec.Struct, frozen=True, kw_only=True):
    """The sandbox: its id, where it came from, and a token for each seat (the player who forked it
    may play both sides, or pass one token on); against the computer, only the player's seat."""

    game_id: str
    sandbox: bool
    parent: str
    version: int
    tokens: dict[str, str]


async def fork_game(request: web.Request) -> web.Response:
    from api.http import json

    app = request.app
    game_id = request.match_info["game_id"]
    raw = await request.read()
    try:
        body = msgspec.json.decode(raw, type=ForkRequest)
    except msgspec.DecodeError:
        raise HttpError(400, "malformed", f"the request body: {json_mismatch(raw, ForkRequest).sentence()}") from None
    if (body.computer is None) != (body.side is None):
        raise HttpError(400, "malformed", "a fork against the computer names both computer (a level) and side (yours)")
    head = await _head(request, game_id)
    seen = seen_by(head, await _seat(request, game_id))
    if not 1 <= body.version <= seen:
        raise HttpError(
            409,
            "illegal",
            f"version {body.version} cannot be forked: this game shows versions 1..{seen}"
            + (" (spectator delay)" if seen < head.version else ""),
        )
    store = app[STORE]
    parent = await load(store, game_id, app[GAMES], to_version=body.version)
    try:
        new_id, seed, events = fork.fork_events(
            parent, server_version=app[SERVER_VERSION], reverted=head.session.reverted
        )
    except fork.ForkRefused as exc:
        raise HttpError(409, "illegal", str(exc)) from None
    await store.create_game(new_id, parent.session.created.scenario, status="active")
    await store.redis.hset(
        store.keys(new_id).info, mapping={"sandbox": 1, "parent": game_id, "parent_version": body.version}
    )
    await store.put_secret(new_id, seed)
    tokens = await _both_seats(app[SEATS], new_id, parent.session.created.creator)
    await store.append(new_id, events, 0)
    sandbox = await load(store, new_id, app[GAMES])
    await app[LIVE].index(sandbox)
    if body.computer is not None:  # the computer takes the other seat, from a process of its own
        other = "confederate" if body.side == "union" else "union"
        await app[OPPONENTS].start(own_url(request), new_id, None, body.computer, token=tokens.pop(other))
    return json(
        Forked(game_id=new_id, sandbox=True, parent=game_id, version=body.version, tokens=tokens), 201
    )


async def _both_seats(seats, game_id: str, creator: str) -> dict[str, str]:
    """A token for each seat of a sandbox (no invite stays open)."""
    other = "confederate" if creator == "union" else "union"
    tokens = {creator: seat_tokens.new_token(), other: seat_tokens.new_token()}
    invite = seat_tokens.new_invite()
    await seats.create(game_id, creator, tokens[creator], other, invite)
    await seats.use_invite(game_id, invite)
    await seats.give_token(game_id, other, tokens[other])
    return tokens


# -- the websocket cursor ---------------------------------------------------------------------------
class ReplayCursor:
    """One connection's replay (see the module documentation). `limit()` is the last version this
    viewer may see now; `send(message)` queues a server message."""

    def __init__(self, store, games, game_id: str, limit, send) -> None:
        self.store = store
        self.games = games
        self.game_id = game_id
        self.limit = limit
        self.send = send
        self.timeline: Timeline | None = None
        self.history: History | None = None
        self.version = 0
        self._player: asyncio.Task | None = None
        self._lock = asyncio.Lock()

    async def handle(self, message) -> None:
        match message:
            case protocol.ReplaySeek():
                self.stop()
                await self.show(message.version)
            case protocol.ReplayStep():
                self.stop()
                await self._step(message.by, message.count)
            case protocol.ReplayPlay():
                self.stop()
                if self.version == 0:
                    await self.show(1)
                self._player = asyncio.create_task(self._play(message.by, message.speed))
            case protocol.ReplayPause():
                self.stop()
                if not self.version:
                    raise protocol.ProtocolError(
                        "illegal",
                        "there is no replay to pause: replay_seek, replay_step or replay_play starts one",
                    )
                await self.show(self.version)
            case protocol.ReplayLive():
                self.stop()
                self.version = 0
                self.history = None
                self.send(protocol.ReplayFollowing(version=self.limit()))

    def stop(self) -> None:
        if self._player is not None:
            self._player.cancel()
            self._player = None

    async def close(self) -> None:
        if self._player is not None:
            self._player.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._player
            self._player = None

    async def _timeline(self) -> Timeline:
        limit = self.limit()
        if self.timeline is None:
            first = await load(self.store, self.game_id, self.games, to_version=1)
            from replay.seek import new_state_place

            self.timeline = Timeline(new_state_place(first))
        if self.timeline.version < limit:
            self.timeline.extend(
                [e async for e in self.store.read(self.game_id, self.timeline.version + 1, limit)]
            )
        return self.timeline

    async def _step(self, by: str, count: int) -> bool:
        timeline = await self._timeline()
        start = self.version or self.limit()
        target = timeline.step(start, by, count, limit=self.limit())
        await self.show(target)
        return target != start

    async def _play(self, by: str, speed: float) -> None:
        try:
            while True:
                await asyncio.sleep(1 / speed)
                if not await self._step(by, 1):
                    await self.show(self.version, playing=False)  # the end of what may be seen: paused there
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - a replay that fails stops; the connection goes on
            log.exception("game %s: replay failed", self.game_id)

    async def show(self, version: int, playing: bool | None = None) -> None:
        async with self._lock:
            limit = self.limit()
            timeline = await self._timeline()
            version = max(1, min(version, limit))
            h = self.history
            if h is not None and h.version <= version and version - h.version <= self.store.snapshot_every:
                async for e in self.store.read(self.game_id, h.version + 1, version):  # on from where it is
                    try:
                        h.apply(e)
                    except NeedsState as need:
                        h.apply(
                            e, target=(await seek(self.store, self.game_id, self.games, need.version)).state
                        )
            else:
                h = await seek(self.store, self.game_id, self.games, version)
            self.history, self.version = h, version
            place = timeline.place(version)
            self.send(
                protocol.ReplayFrame(
                    version=version,
                    last=limit,
                    turn=place.turn,
                    side=place.side,
                    phase=place.phase,
                    undone=place.undone,
                    playing=self._player is not None and not self._player.done()
                    if playing is None
                    else playing,
                    head=h.head.hex(),
                    state=msgspec.Raw(rules_state.encode_json(h.state)),
                    session=session_view(h),
                    markers=[protocol.ReplayMarker(**msgspec.structs.asdict(m)) for m in timeline.markers()],
                    declared=declared_breakdown(h.state) if h.state is not None and h.state.pending else None,
                    leaders=leaders_on_map(h.state),
                )
            )


REPLAY_MESSAGES = (
    protocol.ReplaySeek,
    protocol.ReplayStep,
    protocol.ReplayPlay,
    protocol.ReplayPause,
    protocol.ReplayLive,
)


def replay_cursor(app: web.Application, live, conn) -> ReplayCursor:
    """The replay of one websocket connection (`live`: its `api.live.room.LiveGame`): it may see what its
    seat may (a spectator, the game `spectator_delay` events behind)."""
    return ReplayCursor(
        app[STORE], app[GAMES], live.game_id, lambda: seen_by(live.history, conn.seat), conn.send_message
    )
