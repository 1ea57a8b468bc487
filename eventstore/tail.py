"""The live tail: one reader per process follows every game its subscribers watch.

    async with Tail(store) as tail:
        async with tail.subscribe(game_id, after_version=last_sent) as events:
            async for envelope in events:
                ...

A `Subscription` yields each event after `after_version` exactly once, in version order. The
caller reads the history first (`store.read`) and subscribes with the last version it has; the
tail fills any small gap between that and where it is reading itself.

The reader is one task with two dedicated connections. On one it is SUBSCRIBEd to the store's
channel, on which the append script announces every append (PUBLISH of the game's log key,
eventstore/append.lua); on the other it reads, with one XREAD (no BLOCK), only the streams of the
followed games that were announced since its last read. So a wake-up costs what changed, not one
key and id per followed game. Nothing is missed: once subscribed (after every connect and
reconnect) it reads every followed stream from its cursor, and it does the same whenever
`block_ms` passes with no announcement, for appends that were never announced (a process of an
older version, an entry added by hand). A pub/sub message is lost only with its connection, and a
lost connection means a reconnect and a full read. If Redis goes away the reader reconnects with
backoff and resumes after the last event it delivered. Cancelling or stopping the tail closes both
connections.

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
from typing import TYPE_CHECKING, cast

import redis.asyncio as aioredis
from redis.asyncio.connection import Connection
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeout
from redis.maint_notifications import MaintNotificationsConfig

from eventstore.connect import connection_options
from eventstore.envelope import Envelope
from eventstore.errors import TailOverflow, UnreadableEvent
from eventstore.store import RedisEventStore

if TYPE_CHECKING:
    from typing import Literal

    from redis.asyncio.cluster import RedisCluster
    from redis.asyncio.connection import AbstractConnection

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
            assert self._end is not None  # set before _END is queued
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
        """`block_ms`: the longest the reader waits for an announcement before it reads every
        followed stream anyway; `count`: entries per stream per read."""
        self.store = store
        self.block_ms = block_ms
        self.count = count
        self.queue_size = queue_size
        self.max_backoff = max_backoff
        self._games: dict[str, _Game] = {}
        self._logs: dict[bytes, str] = {}  # log key -> game id, of the followed games
        self._joins: list[Subscription] = []
        self._announced: set[bytes] = set()  # log keys announced since the last read
        self._everything = True  # read every followed stream next (after a connect)
        self._sweep_at = 0.0  # and when `block_ms` has passed since the last such read (loop time)
        self._emptied: set[str] = set()  # games whose last subscriber left (unfollowed by the reader)
        self._wake = asyncio.Event()  # an announcement, a new subscription or a lost connection
        self._lost: Exception | None = None  # set by the listener when its connection fails
        self._pool: aioredis.ConnectionPool | None = None
        # the reader's connection for XREAD (redis.asyncio.Connection); ClusterTail: True, connected
        self._conn: AbstractConnection | Literal[True] | None = None
        self._listener: AbstractConnection | None = None  # the SUBSCRIBEd connection
        self._listening: asyncio.Task | None = None
        self._client_id: int | None = None
        # The XREAD over every followed game, packed in parts reused between full reads: the
        # command and the keys (renewed when the set of followed games changes), the ids (when a
        # cursor moves).
        self._layout: tuple[list[_Game], bytes] | None = None
        self._since: bytes | None = None
        self._task: asyncio.Task | None = None

    # -- the public side ---------------------------------------------------

    async def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="eventstore-tail")

    async def stop(self) -> None:
        """Stop the reader, close its connections and end every subscription."""
        task = self._task
        # Cancel until it is done: on Python 3.11, asyncio.wait_for (which redis-py uses to send
        # commands) can swallow a cancellation that arrives as the send completes.
        while task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task}, timeout=1)
        if task is not None and not task.cancelled():
            task.exception()  # already logged by the reader; retrieved so asyncio does not warn
        self._task = None

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
        self._wake.set()
        return subscription

    def follows(self, game_id: str) -> bool:
        """Does the reader follow `game_id` now (some subscription of it is live)?"""
        return game_id in self._games and game_id not in self._emptied

    @property
    def client_id(self) -> int | None:
        """The Redis CLIENT ID of the connection the reader waits on, SUBSCRIBEd to the store's
        channel (None while disconnected)."""
        return self._client_id

    # -- the reader --------------------------------------------------------

    async def _run(self) -> None:
        backoff = 0.05
        loop = asyncio.get_running_loop()
        try:
            while True:
                try:
                    if self._conn is None:
                        await self._connect()
                    await self._admit()
                    if self._lost is not None:
                        raise self._lost
                    if loop.time() >= self._sweep_at:
                        self._everything = True
                    if self._games and (self._everything or self._announced):
                        await self._read()
                        backoff = 0.05
                        continue
                    self._announced.clear()  # of no game followed here
                    self._wake.clear()
                    if self._joins or self._announced or self._lost is not None:
                        continue
                    if not self._games:
                        await self._wake.wait()
                        continue
                    with contextlib.suppress(TimeoutError):  # the builtin one, raised by asyncio.timeout_at
                        async with asyncio.timeout_at(self._sweep_at):
                            await self._wake.wait()
                except (ConnectionError, RedisTimeout, OSError) as exc:
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
        source = cast("aioredis.Redis", self.store.redis).connection_pool  # one server (else ClusterTail)
        options = dict(source.connection_kwargs)
        options["client_name"] = "bluegray-tail"
        options["retry"] = Retry(NoBackoff(), 0)  # the reader does its own reconnecting
        # No socket timeout: redis-py would wrap each send in asyncio.wait_for, which on Python 3.11
        # can swallow a cancellation. Each read is bounded by `_read` instead.
        options["socket_timeout"] = None
        options["protocol"] = 2  # a SUBSCRIBEd RESP2 connection gets its messages as replies (RESP3: pushes)
        # Not the source pool's maintenance-notification handler (redis-py 8, TCP connections): it is
        # RESP3 only, and a pool given it with RESP2 refuses to start (the tail never connected).
        options.pop("maint_notifications_pool_handler", None)
        options["maint_notifications_config"] = MaintNotificationsConfig(enabled=False)
        self._pool = aioredis.ConnectionPool(
            connection_class=source.connection_class, max_connections=2, **options
        )
        listener = await self._pool.get_connection()
        self._listener = listener
        await listener.send_command("CLIENT", "ID")
        client_id = await listener.read_response()
        await listener.send_command("SUBSCRIBE", self.store.channel)
        await listener.read_response()  # subscribed: every append from now on is announced
        self._conn = await self._pool.get_connection()
        self._lost = None
        self._announced.clear()
        self._everything = True  # what was appended before (or while disconnected) is read now
        self._listening = asyncio.create_task(self._listen(listener), name="eventstore-tail-listener")
        self._client_id = client_id

    async def _listen(self, listener) -> None:
        """Collect the announced log keys for the reader (which wakes up to read them)."""
        try:
            while True:
                message = await listener.read_response(disable_decoding=True)
                if isinstance(message, list) and len(message) == 3 and message[0] == b"message":
                    self._announced.add(message[2])
                    self._wake.set()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the connection is gone: the reader reconnects and reads everything
            self._lost = ConnectionError(f"the notification connection failed: {exc}")
            self._wake.set()

    async def _disconnect(self) -> None:
        self._client_id = None
        listening, self._listening = self._listening, None
        if listening is not None:
            listening.cancel()
            with contextlib.suppress(BaseException):
                await listening
        conns = (self._listener, cast("AbstractConnection | None", self._conn))  # ClusterTail has its own
        pool, self._conn, self._listener, self._pool = self._pool, None, None, None
        for conn in conns:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.disconnect()
        if pool is not None:
            await pool.disconnect()

    async def _admit(self) -> None:
        """Stop following games nobody follows any more; start following the games of new
        subscriptions and fill each one's gap."""
        while self._emptied:
            gid = self._emptied.pop()
            game = self._games.get(gid)
            if game is not None and not game.subscribers:
                self._unfollow(gid)
        while self._joins:
            subscription = self._joins[0]
            gid = subscription.game_id
            if not subscription.ended:
                try:
                    game = self._games.get(gid)
                    if game is None:
                        version, head = await self.store.head(gid)
                        game = _Game(version, head, self.store.keys(gid).log.encode())
                        game.move_to(version, head)
                        self._follow(gid, game)
                    await self._catch_up(subscription, game.cursor)
                except (UnreadableEvent, ResponseError) as exc:
                    subscription._finish(exc)  # this game fails closed; the others go on
                    self._emptied.add(gid)
                if not subscription.ended:
                    assert game is not None  # found or made, else the subscription ended
                    game.subscribers.append(subscription)
            subscription.joined.set()
            self._joins.pop(0)

    def _follow(self, gid: str, game: _Game) -> None:
        self._games[gid] = game
        self._logs[game.log] = gid
        self._announced.add(game.log)  # read it once: what came after its head was read
        self._layout = None

    def _unfollow(self, gid: str) -> None:
        game = self._games.pop(gid, None)
        if game is not None:
            self._logs.pop(game.log, None)
            self._layout = None

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
        """One XREAD (no BLOCK) over the announced games, or over every followed game after a
        connect or a quiet spell; deliver what it returns. A stream that filled its COUNT is read
        again next time.

        The command is packed here (redis-py would pack every argument again, in Python, each time);
        the one over every game from parts kept between reads: only the ids of games whose cursor
        moved change."""
        if self._everything:
            self._everything = False
            self._sweep_at = asyncio.get_running_loop().time() + self.block_ms / 1000
            self._announced.clear()
            if self._layout is None:
                games = list(self._games.values())
                self._layout = (games, self._command(games) + b"".join([_bulk(game.log) for game in games]))
                self._since = None
            games, command = self._layout
            if self._since is None:
                self._since = b"".join([game.since for game in games])
            since = self._since
        else:
            announced, self._announced = self._announced, set()
            games = [self._games[gid] for gid in map(self._logs.get, announced) if gid is not None]
            if not games:
                return
            command = self._command(games) + b"".join([_bulk(game.log) for game in games])
            since = b"".join([game.since for game in games])
        conn = cast("AbstractConnection", self._conn)  # connected (ClusterTail reads on its own)
        async with asyncio.timeout(10):  # a silent server is a lost one
            await conn.send_packed_command((command, since), check_health=False)
            reply = await conn.read_response(disable_decoding=True)
        for key, entries in reply.items() if isinstance(reply, dict) else reply or []:
            gid = self._logs.get(key)
            game = self._games.get(gid) if gid is not None else None
            if game is not None:
                assert gid is not None  # the game was found by it
                self._deliver(gid, game, entries)
                if len(entries) >= self.count:
                    self._announced.add(key)  # there may be more

    def _command(self, games: list[_Game]) -> bytes:
        """The head of an XREAD over `games` (their keys and ids follow)."""
        return b"*%d\r\n$5\r\nXREAD\r\n$5\r\nCOUNT\r\n%s$7\r\nSTREAMS\r\n" % (
            4 + 2 * len(games),
            _bulk(b"%d" % self.count),
        )

    def _deliver(self, gid: str, game: _Game, entries) -> None:
        for entry_id, fields in entries:
            if not isinstance(fields, dict):  # a flat list of names and values, as the server sends it
                fields = dict(zip(fields[::2], fields[1::2], strict=True))
            try:
                envelope = self.store.decode(gid, (entry_id, fields), game.cursor + 1, game.head)
            except UnreadableEvent as exc:
                for subscription in game.subscribers:
                    subscription._finish(exc)
                self._unfollow(gid)
                return
            game.move_to(envelope.version, envelope.hash)
            self._since = None
            for subscription in list(game.subscribers):
                if envelope.version > subscription.last_version and not subscription._offer(envelope):
                    game.subscribers.remove(subscription)
        if not game.subscribers:
            self._emptied.add(gid)

    def _leave(self, subscription: Subscription) -> None:
        game = self._games.get(subscription.game_id)
        if game is not None and subscription in game.subscribers:
            game.subscribers.remove(subscription)
            if not game.subscribers:
                self._emptied.add(subscription.game_id)

    def _end_all(self, end: BaseException) -> None:
        for game in self._games.values():
            for subscription in game.subscribers:
                subscription._finish(end)
        for subscription in self._joins:
            subscription._finish(end)
        self._games.clear()
        self._logs.clear()
        self._emptied.clear()
        self._joins.clear()
        self._layout = None


@dataclass
class _Shard:
    """The reader's two connections to one primary of a cluster, and the shard channels (log keys
    of followed games in its slots) its listener is SSUBSCRIBEd to."""

    name: str
    listener: Connection
    reader: Connection
    channels: set[bytes] = field(default_factory=set)
    listening: asyncio.Task | None = None


class ClusterTail(Tail):
    """The live tail on a Redis Cluster: the same subscriptions, exactly once and in order.

    A cluster has no XREAD across slots and no PUBLISH that stays on one shard (a plain PUBLISH is
    sent to every node of the cluster). So the append script announces each append with SPUBLISH
    on the game's own shard channel (its log key; eventstore/append.lua), and this reader keeps two
    connections to each primary: a listener SSUBSCRIBEd to the channels of the followed games whose
    slots that primary serves, and a reader that sends, pipelined, one XREAD per announced game (or
    per followed game, after a connect and each quiet `block_ms`). A game is read once its
    subscription is confirmed, so no announcement falls between the two.

    A node lost, a slot moved (a MOVED reply, or the server dropping a shard channel as its slot
    leaves) or a failover: every connection is closed, the map of the slots is read again, and the
    reader reconnects to the primaries it names (with backoff while the cluster elects a replica),
    subscribes again and reads every followed game from its cursor, so no event is skipped.
    """

    def __init__(self, store: RedisEventStore, **options) -> None:
        super().__init__(store, **options)
        self._shards: dict[str, _Shard] = {}
        self._to_subscribe: list[str] = []  # games followed since the last read, to SSUBSCRIBE
        self._to_unsubscribe: list[tuple[str, bytes]] = []  # (shard name, channel)
        self._confirmed: dict[bytes, asyncio.Future] = {}

    @property
    def client_id(self) -> int | None:
        return None

    def _shard_of(self, log_key: bytes) -> str:
        cluster = cast("RedisCluster", self.store.redis)
        node = cluster.get_node_from_key(log_key)  # type: ignore[arg-type]  # redis-py encodes bytes too
        assert node is not None  # a primary's (None is for a replica asked for)
        return node.name

    async def _connect(self) -> None:
        cluster = cast("RedisCluster", self.store.redis)
        await cluster.nodes_manager.initialize()
        kept = ("username", "password", "credential_provider", "socket_connect_timeout", "socket_keepalive",
                "socket_keepalive_options", "socket_read_size", "encoder_class")
        options = {name: value for name, value in connection_options(cluster).items() if name in kept}
        options.update(client_name="bluegray-tail", retry=Retry(NoBackoff(), 0), socket_timeout=None, protocol=2)
        self._lost = None
        try:
            for node in cluster.get_primaries():
                listener = Connection(host=node.host, port=node.port, **options)
                reader = Connection(host=node.host, port=node.port, **options)
                shard = _Shard(node.name, listener, reader)
                self._shards[node.name] = shard
                await listener.connect()
                await reader.connect()
            for gid in self._games:
                self._to_subscribe.append(gid)
            self._to_unsubscribe.clear()
            for shard in self._shards.values():
                shard.listening = asyncio.create_task(self._listen_shard(shard), name="eventstore-tail-shard")
        except BaseException:
            await self._disconnect()
            raise
        self._conn = True  # connected (the base class's marker)
        self._announced.clear()
        self._everything = True

    async def _listen_shard(self, shard: _Shard) -> None:
        try:
            while True:
                message = await shard.listener.read_response(disable_decoding=True)
                if not isinstance(message, list) or len(message) != 3:
                    continue
                kind, channel = message[0], message[1]
                if kind == b"smessage":
                    self._announced.add(channel)
                    self._wake.set()
                elif kind == b"ssubscribe":
                    future = self._confirmed.pop(channel, None)
                    if future is not None and not future.done():
                        future.set_result(None)
                elif kind == b"sunsubscribe" and channel in shard.channels:
                    # The server dropped it: the channel's slot left this node.
                    raise ConnectionError(f"shard channel {channel!r} was dropped by {shard.name}")
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._lost = ConnectionError(f"the notification connection to {shard.name} failed: {exc}")
            for future in self._confirmed.values():
                if not future.done():
                    future.set_exception(self._lost)
            self._wake.set()

    async def _disconnect(self) -> None:
        shards, self._shards = list(self._shards.values()), {}
        for shard in shards:
            if shard.listening is not None:
                shard.listening.cancel()
                with contextlib.suppress(BaseException):
                    await shard.listening
            for conn in (shard.listener, shard.reader):
                with contextlib.suppress(Exception):
                    await conn.disconnect()
        for future in self._confirmed.values():
            if not future.done():
                future.cancel()
        self._confirmed.clear()
        self._to_subscribe.clear()
        self._to_unsubscribe.clear()
        self._conn = None

    def _follow(self, gid: str, game: _Game) -> None:
        super()._follow(gid, game)
        self._to_subscribe.append(gid)

    def _unfollow(self, gid: str) -> None:
        game = self._games.get(gid)
        if game is not None:
            for shard in self._shards.values():
                if game.log in shard.channels:
                    shard.channels.discard(game.log)
                    self._to_unsubscribe.append((shard.name, game.log))
        super()._unfollow(gid)

    async def _subscribe_pending(self) -> None:
        """SSUBSCRIBE the channels of newly followed games on their primaries and wait until each
        is confirmed; SUNSUBSCRIBE those no longer followed."""
        waiting = []
        while self._to_subscribe:
            gid = self._to_subscribe.pop()
            game = self._games.get(gid)
            if game is None:
                continue
            shard = self._shards.get(self._shard_of(game.log))
            if shard is None:  # its slot is on a node the reader does not know: the map changed
                raise ConnectionError(f"game {gid}: its slot is served by a node the live tail has no connection to")
            if game.log in shard.channels:
                continue
            shard.channels.add(game.log)
            future = self._confirmed.get(game.log)
            if future is None:
                future = self._confirmed[game.log] = asyncio.get_running_loop().create_future()
            waiting.append(future)
            await shard.listener.send_command("SSUBSCRIBE", game.log, check_health=False)
        while self._to_unsubscribe:
            name, channel = self._to_unsubscribe.pop()
            shard = self._shards.get(name)
            if shard is not None:
                await shard.listener.send_command("SUNSUBSCRIBE", channel, check_health=False)
        if waiting:
            async with asyncio.timeout(10):
                await asyncio.gather(*waiting)

    async def _read(self) -> None:
        await self._subscribe_pending()
        if self._everything:
            self._everything = False
            self._sweep_at = asyncio.get_running_loop().time() + self.block_ms / 1000
            self._announced.clear()
            games = list(self._games.values())
        else:
            announced, self._announced = self._announced, set()
            games = [self._games[gid] for gid in map(self._logs.get, announced) if gid is not None]
        by_shard: dict[str, list[_Game]] = {}
        for game in games:
            by_shard.setdefault(self._shard_of(game.log), []).append(game)
        if not by_shard:
            return
        for name in by_shard:
            if name not in self._shards:
                raise ConnectionError(f"a followed game's slot is served by {name}, which the live tail does not know")
        async with asyncio.timeout(10):  # a silent server is a lost one
            results = await asyncio.gather(
                *(self._read_shard(self._shards[name], shard_games) for name, shard_games in by_shard.items())
            )
        for shard_games, replies in zip(by_shard.values(), results, strict=True):
            for game, reply in zip(shard_games, replies, strict=True):
                for key, entries in reply.items() if isinstance(reply, dict) else reply or []:
                    gid = self._logs.get(key)
                    if gid is not None and self._games.get(gid) is game:
                        self._deliver(gid, game, entries)
                        if len(entries) >= self.count:
                            self._announced.add(key)

    async def _read_shard(self, shard: _Shard, games: list[_Game]) -> list:
        count = _bulk(b"%d" % self.count)
        packed = [
            b"*6\r\n$5\r\nXREAD\r\n$5\r\nCOUNT\r\n%s$7\r\nSTREAMS\r\n%s%s" % (count, _bulk(game.log), game.since)
            for game in games
        ]
        conn = shard.reader
        await conn.send_packed_command(packed, check_health=False)
        replies = []
        for _ in games:
            try:
                replies.append(await conn.read_response(disable_decoding=True))
            except ResponseError as exc:  # MOVED, CLUSTERDOWN, ...: the map changed
                raise ConnectionError(f"{shard.name}: {exc}") from None
        return replies


def tail_for(store: RedisEventStore, **options) -> Tail:
    """The live tail for `store`: `ClusterTail` on a Redis Cluster, else `Tail`."""
    return ClusterTail(store, **options) if store.cluster else Tail(store, **options)
