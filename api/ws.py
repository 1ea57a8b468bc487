"""The websocket `/ws`: one connection is one seat or one spectator of one game.

The first message must be `hello`; after it, a player's actions are decided one at a time in the
order they arrive. Every message gets exactly one answer: `hello` a `welcome` (then the events or a
snapshot), an action an `ack`, `reach` a `reach`, a replay message a `replay_frame` or
`replay_following` (`replay_play` goes on sending frames), and anything refused one typed `error`,
whatever went wrong: a bad message, a store that is unreachable (`unavailable`, retryable), a bug
(`internal`, logged). A bad message never closes the game, and never the connection, except a frame
over the hard size limit (which the websocket layer refuses to read) and sustained flooding (see
`RateLimit`). See docs/PROTOCOL.md.
"""

from __future__ import annotations

import asyncio
import logging
import time
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from api import protocol
from api.app_keys import ACCOUNTS, CONFIG, LIVE, METRICS, SEATS, SHUTDOWN, SOCKETS
from api.live.room import GameNotFound, LiveGame
from api.live.sockets import Connection
from api.protocol import Action, Combat, Error, Hello, ProtocolError, Reach
from api.replaying import REPLAY_MESSAGES, ReplayCursor, replay_cursor
from api.sessions import account_of
from eventstore.errors import store_unavailable

log = logging.getLogger(__name__)

ABUSE_WINDOW = 60.0  # seconds over which refused messages are counted (ServerConfig.rate_abuse)


class RateLimit:
    """A token bucket: `rate` messages a second on average, `burst` at once; and a count of the
    messages it refused in the current minute, for `abusive`."""

    def __init__(self, rate: float, burst: int, abuse: int) -> None:
        self.rate = rate
        self.burst = burst
        self.abuse = abuse
        self.tokens = float(burst)
        self.at = time.monotonic()
        self.refused = 0
        self.window = self.at

    def take(self) -> float:
        """0 if a message may go now (and count it), else the seconds until one may."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        if now - self.window >= ABUSE_WINDOW:
            self.window, self.refused = now, 0
        self.refused += 1
        return (1 - self.tokens) / self.rate if self.rate > 0 else float("inf")

    @property
    def abusive(self) -> bool:
        """More than `abuse` messages refused within a minute: the peer ignores `retry_after`."""
        return self.refused > self.abuse


async def websocket(request: web.Request) -> web.WebSocketResponse:
    app = request.app
    config = app[CONFIG]
    ws = web.WebSocketResponse(
        heartbeat=config.heartbeat, compress=False, max_msg_size=config.hard_message_bytes, decode_text=False
    )
    account = await _account(request)
    await ws.prepare(request)
    conn = Connection(ws, config.queue_size)
    conn.start(request.transport)
    socket = _Socket(app, conn, account)
    app[SOCKETS].add(socket)
    try:
        async for frame in ws:
            if frame.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                continue
            await socket.receive(frame.data)
            if conn.closed:
                break
            if len(conn.pending) >= conn.queue_size // 2:
                await asyncio.sleep(0)  # a burst of messages read at once: let their answers go out
    finally:
        app[SOCKETS].discard(socket)
        await socket.close()
        await conn.drain_and_stop()
    return ws


async def _account(request: web.Request) -> str | None:
    """The id of the account the upgrade request is signed in as, if it came from this server's
    own pages (a page of another site may open a websocket here with the user's cookie: its
    Origin says so, and its cookie is ignored)."""
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        return None
    account = await account_of(request)
    return None if account is None else account.id


class _Socket:
    """What one connection said so far (its game once it said hello, its replay once it asked for
    one), and the one answer to each message."""

    def __init__(self, app: web.Application, conn: Connection, account: str | None = None) -> None:
        self.app = app
        self.account = account  # the signed-in account's id (a seat it holds needs no token)
        self.config = app[CONFIG]
        self.conn = conn
        self.limit = RateLimit(self.config.rate_per_second, self.config.rate_burst, self.config.rate_abuse)
        self.live: LiveGame | None = None
        self.cursor: ReplayCursor | None = None  # this connection's replay (api/replaying.py)
        self.holder: str | None = None  # the account the seat is bound to (a disabled one's seat cannot act)

    @property
    def role(self) -> str:
        """For the metrics: player, spectator, or connecting (no hello yet)."""
        if self.live is None:
            return "connecting"
        return "spectator" if self.conn.seat is None else "player"

    @property
    def queued(self) -> int:
        return len(self.conn.pending)

    async def receive(self, data: bytes) -> None:
        """Answer one message (exactly once); count it by type and outcome, and log each action."""
        start = time.perf_counter()
        message, outcome = await self._receive(data)
        action = isinstance(message, Action)
        kind = protocol.metric_type(message)
        self.app[METRICS].observe_message(kind, outcome, time.perf_counter() - start, action)
        if action:
            game, seat = self.live.game_id if self.live else "-", self.conn.seat or "-"
            log.info(
                "game %s seat %s command %s (%s): %s", game, seat, message.command_id, kind, outcome,
                extra={"game": game, "seat": seat, "command_id": message.command_id, "outcome": outcome},
            )  # fmt: skip

    async def _receive(self, data: bytes) -> tuple[object, str]:
        """The message (None: it did not decode) and the outcome of its one answer: ok, or the code
        of the error sent."""
        conn = self.conn
        shutdown = self.app[SHUTDOWN]
        if shutdown.stopping:
            conn.send_message(shutdown.refusal(_command_id_of(data)))
            return None, "server_restarting"
        if len(data) > self.config.max_message_bytes:
            conn.send_message(
                Error(code="too_large", message=f"a message is at most {self.config.max_message_bytes} bytes")
            )
            return None, "too_large"
        wait = self.limit.take()
        if wait:
            conn.send_message(_rate_limited(wait, _command_id_of(data)))
            if self.limit.abusive:
                await conn.close_after_sending(
                    protocol.CLOSE_ABUSE, "too many messages: slow down, then reconnect"
                )
            return None, "rate_limited"
        command_id = message = None
        try:
            with shutdown.answering():
                message = protocol.decode(data)
                command_id = getattr(message, "command_id", None)
                await self._answer(message)
        except ProtocolError as exc:
            if message is None:  # it did not decode: its command_id, if that much can be read
                command_id = protocol.command_id_in(data)
            conn.send_message(exc.to_message(command_id))
            if exc.code == "rate_limited":  # the game is full
                await conn.close_after_sending(protocol.CLOSE_FULL, "the game is full")
            return message, exc.code
        except Exception as exc:  # noqa: BLE001 - whatever failed, the message gets its one answer
            failure = self._failure(exc, command_id)
            conn.send_message(failure)
            return message, failure.code
        return message, "ok"

    def _failure(self, exc: Exception, command_id: str | None) -> Error:
        game = self.live.game_id if self.live is not None else "-"
        if store_unavailable(exc):
            log.warning("game %s: the event store is unavailable (%s)", game, exc)
            again = " (same command_id)" if command_id else ""
            return Error(
                code="unavailable",
                message=f"the event store is unavailable; send this again{again} in a moment",
                retry_after=protocol.RETRY_AFTER_UNAVAILABLE,
                command_id=command_id,
            )
        log.exception("game %s: a message failed", game)  # a bug: it costs this message, nothing more
        return Error(
            code="internal", message="the server failed on this message (logged)", command_id=command_id
        )

    async def _answer(self, message) -> None:
        conn = self.conn
        if self.live is None:
            if not isinstance(message, Hello):
                raise ProtocolError("unauthorized", "say hello first")
            self.live, self.holder = await _hello(self.app, conn, message, self.account)
        elif isinstance(message, Hello):
            raise ProtocolError("malformed", "this connection already said hello")
        elif isinstance(message, REPLAY_MESSAGES):
            if self.cursor is None:
                self.cursor = replay_cursor(self.app, self.live, conn)
            await self.cursor.handle(message)
        elif isinstance(message, Reach):
            conn.send(self.live.reach(conn.seat, message.unit, message.how))
        elif isinstance(message, Combat):
            conn.send(self.live.combat(conn.seat, message.attackers, message.defenders))
        elif conn.seat is None:
            raise ProtocolError("unauthorized", "spectators cannot act")
        else:
            await _check_holder(self.app, self.holder)
            conn.send_message(await self.live.act(conn.seat, message))

    async def close(self) -> None:
        if self.cursor is not None:
            await self.cursor.close()
        if self.live is not None:
            self.live.detach(self.conn)
            self.app[LIVE].release(self.live)


def _rate_limited(wait: float, command_id: str | None) -> Error:
    return Error(
        code="rate_limited", message="too many messages", retry_after=round(wait, 3), command_id=command_id
    )


def _command_id_of(data: bytes) -> str | None:
    """The `command_id` of a message that will not be decided (best effort: None when there is none)."""
    return protocol.command_id_in(data)


async def _check_holder(app: web.Application, holder: str | None) -> None:
    """ProtocolError when the seat is bound to an account an admin disabled (api/moderation.py):
    looked up at each action, so a disabling takes effect at once on every open connection."""
    if holder is None:
        return
    found = await app[ACCOUNTS].get(holder)
    if found is None or found.disabled:
        raise ProtocolError("unauthorized", "this seat's account is disabled: it cannot act")


async def _hello(
    app: web.Application, conn: Connection, hello: Hello, account: str | None = None
) -> tuple[LiveGame, str | None]:
    """Authenticate, welcome, catch up and follow; returns the game (acquired) and the account the
    seat is bound to (None: none, or a spectator). Without a token and not spectating, the seat is
    the one the signed-in `account` holds in the game."""
    if hello.token is not None and hello.spectate:
        raise ProtocolError("malformed", "hello carries a seat token or spectate: true, not both")
    if hello.token is None and not hello.spectate and account is None:
        raise ProtocolError("unauthorized", "hello needs a seat token, or spectate: true (or a signed-in session)")
    hub = app[LIVE]
    try:
        live = await hub.acquire(hello.game_id)
    except GameNotFound:
        raise ProtocolError("not_found", f"no game {hello.game_id!r}") from None
    try:
        seat = None
        if hello.token is not None:
            seat = await app[SEATS].seat_of(hello.game_id, hello.token)
            if seat is None:
                raise ProtocolError("unauthorized", "this token is not a seat of this game")
        elif not hello.spectate:
            seat = await app[SEATS].seat_of_account(hello.game_id, account)
            if seat is None:
                raise ProtocolError("unauthorized", "your account holds no seat of this game (send its token)")
        holder = None if seat is None else (await app[SEATS].accounts(hello.game_id)).get(seat)
        await _check_holder(app, holder)
        live.admit()
        await live.check_last_version(seat, hello.last_version)
        conn.seat = seat
        conn.wants_choices = hello.choices and seat is not None
        conn.wants_view = hello.view
        h = live.history_for(seat)
        c = h.session.created
        conn.send_message(
            protocol.Welcome(
                game_id=hello.game_id,
                seat=seat,
                version=h.version,
                head=h.head.hex(),
                scenario=c.scenario,
                ruleset=c.ruleset,
                rules_version=c.rules_version,
                options=c.options,
                rules_options=dict(c.rules_options),
                dice=c.dice,
                seed_hash=c.seed_hash,
                limits=protocol.Limits(
                    max_message_bytes=app[CONFIG].max_message_bytes,
                    rate_per_second=app[CONFIG].rate_per_second,
                    rate_burst=app[CONFIG].rate_burst,
                ),
            )
        )
        await live.attach(conn, hello.last_version)
    except BaseException:
        conn.seat = None
        hub.release(live)
        raise
    return live, holder
