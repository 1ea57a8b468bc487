"""The websocket `/ws`: one connection is one seat or one spectator of one game.

The first message must be `hello`; after it, a player's actions are decided one at a time in the
order they arrive, each answered by an `ack` or a typed `error`. A bad message is answered and
dropped: it never closes the game, and never the connection (except a frame over the hard size
limit, which the websocket layer refuses to read). See docs/PROTOCOL.md.
"""

from __future__ import annotations

import logging
import time

from aiohttp import WSMsgType, web
from redis.exceptions import RedisError

from api import protocol
from api.app_keys import CONFIG, LIVE, SEATS
from api.live import Connection, GameNotFound, LiveGame
from api.protocol import Error, Hello, ProtocolError, Reach
from api.replaying import REPLAY_MESSAGES, ReplayCursor, replay_cursor
from eventstore.errors import EventStoreError

log = logging.getLogger(__name__)


class RateLimit:
    """A token bucket: `rate` messages a second on average, `burst` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> float:
        """0 if a message may go now (and count it), else the seconds until one may."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate if self.rate > 0 else float("inf")


async def websocket(request: web.Request) -> web.WebSocketResponse:
    app = request.app
    config = app[CONFIG]
    ws = web.WebSocketResponse(
        heartbeat=config.heartbeat, compress=False, max_msg_size=config.hard_message_bytes, decode_text=False
    )
    await ws.prepare(request)
    conn = Connection(ws, config.queue_size)
    conn.start(request.transport)
    limit = RateLimit(config.rate_per_second, config.rate_burst)
    live: LiveGame | None = None
    cursor: ReplayCursor | None = None  # this connection's replay, once it asks for one (api/replaying.py)
    try:
        async for frame in ws:
            if frame.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                continue
            if len(frame.data) > config.max_message_bytes:
                conn.send_message(
                    Error(code="too_large", message=f"a message is at most {config.max_message_bytes} bytes")
                )
                continue
            wait = limit.take()
            try:
                message = protocol.decode(frame.data)
            except ProtocolError as exc:
                conn.send_message(exc.to_message() if not wait else _rate_limited(wait, None))
                continue
            if wait:
                conn.send_message(_rate_limited(wait, getattr(message, "command_id", None)))
                continue
            if live is None:
                if not isinstance(message, Hello):
                    conn.send_message(Error(code="unauthorized", message="say hello first"))
                    continue
                try:
                    live = await _hello(app, conn, message)
                except ProtocolError as exc:
                    conn.send_message(exc.to_message())
                    if exc.code == "rate_limited":
                        await conn.close_after_sending(protocol.CLOSE_FULL, "the game is full")
                        break
                continue
            if isinstance(message, Hello):
                conn.send_message(Error(code="malformed", message="this connection already said hello"))
            elif isinstance(message, REPLAY_MESSAGES):
                if cursor is None:
                    cursor = replay_cursor(app, live, conn)
                try:
                    await cursor.handle(message)
                except (RedisError, EventStoreError, OSError) as exc:
                    log.warning("game %s: a replay failed: %s", live.game_id, exc)
                    conn.send_message(Error(code="conflict", message="the event store is unavailable; ask again"))
            elif isinstance(message, Reach):
                try:
                    conn.send(live.reach(conn.seat, message.unit, message.how))
                except ProtocolError as exc:
                    conn.send_message(exc.to_message())
            elif conn.seat is None:
                conn.send_message(
                    Error(code="unauthorized", message="spectators cannot act", command_id=message.command_id)
                )
            else:
                try:
                    conn.send_message(await live.act(conn.seat, message))
                except ProtocolError as exc:
                    conn.send_message(exc.to_message(message.command_id))
                except (RedisError, EventStoreError, OSError) as exc:
                    log.warning("game %s: an action failed: %s", live.game_id, exc)
                    conn.send_message(
                        Error(
                            code="conflict",
                            message="the event store is unavailable; send the action again (same command_id)",
                            command_id=message.command_id,
                        )
                    )
                except Exception:  # a bug must cost this action, never the connection or the game
                    log.exception("game %s: an action failed", live.game_id)
                    conn.send_message(
                        Error(
                            code="conflict",
                            message="the server failed on this action; send it again (same command_id)",
                            command_id=message.command_id,
                        )
                    )
    finally:
        if cursor is not None:
            await cursor.close()
        if live is not None:
            live.detach(conn)
            app[LIVE].release(live)
        await conn.drain_and_stop()
    return ws


def _rate_limited(wait: float, command_id: str | None) -> Error:
    return Error(code="rate_limited", message="too many messages", retry_after=round(wait, 3), command_id=command_id)


async def _hello(app: web.Application, conn: Connection, hello: Hello) -> LiveGame:
    """Authenticate, welcome, catch up and follow; returns the game (acquired)."""
    hub = app[LIVE]
    try:
        live = await hub.acquire(hello.game_id)
    except (GameNotFound, ValueError):
        raise ProtocolError("unauthorized", f"no game {hello.game_id!r}") from None
    try:
        if hello.token:
            seat = await app[SEATS].seat_of(hello.game_id, hello.token)
            if seat is None:
                raise ProtocolError("unauthorized", "this token is not a seat of this game")
        elif hello.spectate:
            seat = None
        else:
            raise ProtocolError("unauthorized", "hello needs a seat token, or spectate: true")
        live.admit()
        conn.seat = seat
        conn.wants_choices = hello.choices and seat is not None
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
        await live.attach(conn, max(hello.last_version, 0))
    except BaseException:
        hub.release(live)
        raise
    return live
