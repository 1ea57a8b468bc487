"""The live tail: one reader per process follows every game its subscribers watch.

    async with Tail(store) as tail:
        async with tail.subscribe(game_id, after_version=last_sent) as events:
            async for envelope in events:
                ...

A `Subscription` yields each event after `after_version` exactly once, in version order. The
caller reads the history first (`store.read`) and subscribes with the last version it has; the
tail fills any small gap between that and where it is reading itself.

The reader is one task with one dedicated connection: a single XREAD with a finite BLOCK over the
streams of every watched game. A new subscription does not wait for that BLOCK to expire: the tail
wakes the reader with CLIENT UNBLOCK from another connection. If Redis goes away the reader
reconnects with backoff and resumes after the last event it delivered. Cancelling or stopping the
tail closes its connection.

A full queue never blocks the reader: the subscriber is dropped, and once it has consumed what is
already queued its iteration raises TailOverflow (read on from `last_version` + 1 and subscribe
again). An event that does not verify ends that game's subscriptions with the UnreadableEvent;
other games go on. A subscription closed by its owner, or by `Tail.stop`, simply ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError, RedisError, ResponseError, TimeoutError

from eventstore.envelope import Envelope
from eventstore.errors import TailOverflow, UnreadableEvent
from eventstore.store import RedisEventStore

log = logging.getLogger(__name__)

_END = object()


class Subscription:
    """The events of one game after a version, in order, each once (an async iterator)."""

    def __init__(self, tail: Tail, game_id: str, after_version: int, queue_size: int) -> None:
        self.game_id = game_id
        self.last_version = after_version  # the last version queued for this subscriber
        self._tail = tail
        self._queue: asyncio.Queue = asyncio.Queue(queue_size)
        self._end: BaseException | None = None
        self.joined = asyncio.Event()
        """Set once the reader follows this subscription live (or it ended before that)."""

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Envelope:
        if self._queue.empty() and self._end is not None:
            raise self._end
        item = await self._queue.get()
        if item is _END:
            raise self._end
        return item

    def close(self) -> None:
        """Stop receiving events (idempotent)."""
        self._tail._leave(self)
        self._finish(StopAsyncIteration())

    async def __aenter__(self) -> Subscription:
        return self

    async def __aexit__(self, *exc_info) -> None:
        self.close()

    @property
    def ended(self) -> bool:
        return self._end is not None

    def _offer(self, envelope: Envelope) -> bool:
        """Queue `envelope`; False (and the subscription ends in TailOverflow) if it does not fit."""
        try:
            self._queue.put_nowait(envelope)
        except asyncio.QueueFull:
            self._finish(TailOverflow(self.game_id, self.last_version))
            return False
        self.last_version = envelope.version
        return True

    def _finish(self, end: BaseException) -> None:
        self.joined.set()
        if self._end is None:
            self._end = end
            with contextlib.suppress(asyncio.QueueFull):
                self._queue.put_nowait(_END)  # wakes a waiting consumer (a full queue needs no wake)


def _bulk(value: bytes) -> bytes:
    """`value` as a RESP bulk string (one argument of a command, packed)."""
    return b"$%d\r\n%s\r\n" % (len(value), value)


@dataclass
class _Game:
    cursor: int  # the last version the reader has seen
    head: bytes  # its hash
    log: bytes = b""  # the key of its stream
    since: bytes = b""  # the stream id after which to read (`cursor`-0), packed; renewed as the cursor moves
    subscribers: list[Subscription] = field(default_factory=list)

    def move_to(self, version: int, head: bytes) -> None:
        self.cursor, self.head = version, head
        self.since = _bulk(b"%d-0" % version)


class Tail:
    """One live reader for a process; see the module documentation."""

    def __init__(
        self,
        store: RedisEventStore,
        *,
        block_ms: int = 1000,
        count: int = 100,
        queue_size: int = 1000,
        max_backoff: float = 2.0,
    ) -> None:
        self.store = store
        self.block_ms = block_ms
        self.count = count
        self.queue_size = queue_size
        self.max_backoff = max_backoff
        self._games: dict[str, _Game] = {}
        self._joins: list[Subscription] = []
        self._changed = asyncio.Event()
        self._pool: aioredis.ConnectionPool | None = None
        self._conn = None  # the reader's one connection (redis.asyncio.Connection), held while connected
        self._client_id: int | None = None
        # The XREAD, packed in parts that are reused between wake-ups: the command and the keys
        # (renewed when the set of followed games changes), the ids (when a cursor moves).
        self._layout: tuple[list[_Game], bytes, dict[bytes, str]] | None = None
        self._since: bytes | None = None
        self._blocked = False
        self._task: asyncio.Task | None = None
        self._waker: asyncio.Task | None = None

    # -- the public side ---------------------------------------------------

    async def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="eventstore-tail")

    async def stop(self) -> None:
        """Stop the reader, close its connection and end every subscription."""
        for task in (self._waker, self._task):
            # Cancel until it is done: on Python 3.11, asyncio.wait_for (which redis-py uses to send
            # commands) can swallow a cancellation that arrives as the send completes.
            while task is not None and not task.done():
                task.cancel()
                await asyncio.wait({task}, timeout=1)
            if task is not None and not task.cancelled():
                task.exception()  # already logged by the reader; retrieved so asyncio does not warn
        self._task = self._waker = None

    async def __aenter__(self) -> Tail:
        await self.start()
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.stop()

    def subscribe(self, game_id: str, after_version: int) -> Subscription:
        """Follow `game_id` from the event after `after_version`."""
        self.store.keys(game_id)  # validates the id now, not in the reader
        subscription = Subscription(self, game_id, after_version, self.queue_size)
        if self._task is None or self._task.done():
            subscription._finish(RuntimeError("the tail is not running"))
            return subscription
        self._joins.append(subscription)
        self._changed.set()
        if self._blocked and (self._waker is None or self._waker.done()):
            self._waker = asyncio.create_task(self._unblock())
        return subscription

    @property
    def client_id(self) -> int | None:
        """The Redis CLIENT ID of the reader's connection (None while disconnected)."""
        return self._client_id

    # -- the reader --------------------------------------------------------

    async def _run(self) -> None:
        backoff = 0.05
        try:
            while True:
                try:
                    if self._conn is None:
                        await self._connect()
                    await self._admit()
                    if not self._games:
                        self._changed.clear()
                        if not self._joins:
                            await self._changed.wait()
                        continue
                    await self._read()
                    backoff = 0.05
                except (ConnectionError, TimeoutError, OSError) as exc:
                    log.warning("live tail: Redis unavailable (%s); retrying in %.2fs", exc, backoff)
                    await self._disconnect()
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, self.max_backoff)
        except asyncio.CancelledError:
            self._end_all(StopAsyncIteration())
            raise
        except BaseException as exc:
            log.exception("live tail: the reader failed")
            self._end_all(exc)
            raise
        finally:
            await asyncio.shield(self._disconnect())

    async def _connect(self) -> None:
        source = self.store.redis.connection_pool
        options = dict(source.connection_kwargs)
        options["client_name"] = "bluegray-tail"
        options["retry"] = Retry(NoBackoff(), 0)  # the reader does its own reconnecting
        # No socket timeout: redis-py would wrap each send in asyncio.wait_for, which on Python 3.11
        # can swallow a cancellation. The read is bounded by `_read` instead.
        options["socket_timeout"] = None
        self._pool = aioredis.ConnectionPool(connection_class=source.connection_class, max_connections=1, **options)
        self._conn = await self._pool.get_connection()
        await self._conn.send_command("CLIENT", "ID")
        self._client_id = await self._conn.read_response()

    async def _disconnect(self) -> None:
        self._client_id = None
        conn, pool, self._conn, self._pool = self._conn, self._pool, None, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.disconnect()
        if pool is not None:
            await pool.disconnect()

    async def _unblock(self) -> None:
        """Wake the reader from its BLOCK so that it admits new subscriptions now."""
        while self._joins and self._blocked:
            client_id = self._client_id
            try:
                if client_id is not None and await self.store.redis.client_unblock(client_id):
                    return
            except RedisError:
                return  # the reader will see the joins when its BLOCK ends
            await asyncio.sleep(0.002)  # the XREAD has not reached the server yet

    async def _admit(self) -> None:
        """Start following the games of new subscriptions and fill each one's gap."""
        for gid in [gid for gid, game in self._games.items() if not game.subscribers]:
            del self._games[gid]
            self._layout = None
        while self._joins:
            subscription = self._joins[0]
            if not subscription.ended:
                try:
                    game = self._games.get(subscription.game_id)
                    if game is None:
                        version, head = await self.store.head(subscription.game_id)
                        game = _Game(version, head, self.store.keys(subscription.game_id).log.encode())
                        game.move_to(version, head)
                        self._games[subscription.game_id] = game
                        self._layout = None
                    await self._catch_up(subscription, game.cursor)
                except (UnreadableEvent, ResponseError) as exc:
                    subscription._finish(exc)  # this game fails closed; the others go on
                if not subscription.ended:
                    game.subscribers.append(subscription)
            subscription.joined.set()
            self._joins.pop(0)

    async def _catch_up(self, subscription: Subscription, cursor: int) -> None:
        """Queue the events between the subscriber's version and the reader's cursor."""
        if subscription.last_version >= cursor:
            return
        if cursor - subscription.last_version > self.queue_size:
            subscription._finish(TailOverflow(subscription.game_id, subscription.last_version))
            return
        gap = [e async for e in self.store.read(subscription.game_id, subscription.last_version + 1, cursor)]
        for envelope in gap:  # queued only once all were read: a failed read queues nothing
            if not subscription._offer(envelope):
                return

    async def _read(self) -> None:
        """One XREAD over every followed game; deliver what it returns.

        The command is packed here from parts kept between wake-ups (redis-py would pack every
        argument again, in Python, each time): only the ids of games whose cursor moved change."""
        if self._layout is None:
            games = list(self._games.values())
            command = b"*%d\r\n$5\r\nXREAD\r\n$5\r\nCOUNT\r\n%s$5\r\nBLOCK\r\n%s$7\r\nSTREAMS\r\n" % (
                6 + 2 * len(games), _bulk(b"%d" % self.count), _bulk(b"%d" % self.block_ms)
            )
            keys = {game.log: gid for gid, game in self._games.items()}
            self._layout = (games, command + b"".join([_bulk(game.log) for game in games]), keys)
            self._since = None
        games, command, keys = self._layout
        if self._since is None:
            self._since = b"".join([game.since for game in games])
        conn = self._conn
        self._blocked = True
        try:
            async with asyncio.timeout(self.block_ms / 1000 + 10):  # a silent server is a lost one
                await conn.send_packed_command((command, self._since), check_health=False)
                reply = await conn.read_response(disable_decoding=True)
        finally:
            self._blocked = False
        for key, entries in reply.items() if isinstance(reply, dict) else reply or []:
            gid = keys[key]
            game = self._games.get(gid)
            if game is not None:
                self._deliver(gid, game, entries)

    def _deliver(self, gid: str, game: _Game, entries) -> None:
        for entry_id, fields in entries:
            if not isinstance(fields, dict):  # a flat list of names and values, as the server sends it
                fields = dict(zip(fields[::2], fields[1::2], strict=True))
            try:
                envelope = self.store.decode(gid, (entry_id, fields), game.cursor + 1, game.head)
            except UnreadableEvent as exc:
                for subscription in game.subscribers:
                    subscription._finish(exc)
                del self._games[gid]
                self._layout = None
                return
            game.move_to(envelope.version, envelope.hash)
            self._since = None
            for subscription in list(game.subscribers):
                if envelope.version > subscription.last_version and not subscription._offer(envelope):
                    game.subscribers.remove(subscription)

    def _leave(self, subscription: Subscription) -> None:
        game = self._games.get(subscription.game_id)
        if game is not None and subscription in game.subscribers:
            game.subscribers.remove(subscription)

    def _end_all(self, end: BaseException) -> None:
        for game in self._games.values():
            for subscription in game.subscribers:
                subscription._finish(end)
        for subscription in self._joins:
            subscription._finish(end)
        self._games.clear()
        self._joins.clear()
        self._layout = None
