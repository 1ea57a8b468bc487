"""The `EventStore` protocol and its Redis Streams implementation.

A game is a stream of immutable, versioned, hash-chained events. Keys of one game share the hash
tag `{g:<id>}` (one Redis Cluster slot):

  {g:<id>}:log     the stream; the event at version v has entry id `v-0`; never trimmed or deleted
  {g:<id>}:meta    hash: `version` and `head` (hash of the last event) - authoritative, never XLEN
  {g:<id>}:cmd     hash: idempotency key -> "<body hash hex> <first> <last>", kept for the game's life
  {g:<id>}:snap    sorted set of snapshots by version (a cache: every Nth kept, others may go)
  {g:<id>}:secret  the game's secret (the dice seed); never in any event, snapshot or export
  {g:<id>}:hidden  hash: a player's other secrets by name (Road to Richmond 17.62's written-down
                   reinforcements: only their commitments are in the log); never in any event,
                   snapshot or export either
  {g:<id>}:info    hash: scenario, status, created - the non-authoritative game index, with
  games            sorted set of game ids by creation time

A store may be given a key `prefix` (tests use one each); it goes in front of every key. Every
append is announced with PUBLISH on the channel `appended` (prefixed too; the message is the game's
log key): the live tails (eventstore/tail.py) read only the streams that changed. On a Redis Cluster
(`redis.asyncio.cluster.RedisCluster`, eventstore/connect.py) it is announced instead with SPUBLISH
on the game's own shard channel, named as its log key (the message: the last version), which only
the shard holding the game's slot carries. A notification is not a record (nothing is kept of it);
the log is the truth.

The store fills each event's version, time (milliseconds since the epoch, the appending
process's clock), prev and hash; the caller fills type, schema, payload, actor, command id and the
state digest (the store knows nothing of the rules).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
import time
from collections.abc import AsyncIterator, Callable, Container, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, NamedTuple, Protocol, cast, runtime_checkable

import msgspec
from redis.exceptions import (
    AskError,
    ClusterDownError,
    ConnectionError,
    MasterDownError,
    MovedError,
    NoScriptError,
    ReadOnlyError,
    ResponseError,
    SlotNotCoveredError,
    TimeoutError,
    TryAgainError,
)

from eventstore.connect import AnyRedis, client_for, connection_options, is_cluster
from eventstore.deadline import within
from eventstore.envelope import GENESIS, Envelope, NewEvent, seal
from eventstore.errors import (
    ChainError,
    Conflict,
    CorruptEvent,
    EventStoreError,
    GameExists,
    KeyMismatch,
    NotReplicated,
    ReplicasOutOfReach,
    SecretExists,
    UnknownEventType,
    refused_for_replicas,
)

if TYPE_CHECKING:
    from redis.asyncio.cluster import RedisCluster

_GAME_ID = re.compile(r"[A-Za-z0-9_.-]{1,100}")
_FIELDS = (b"type", b"schema", b"payload", b"actor", b"command", b"time", b"digest", b"prev", b"hash")
#: Answers of a cluster in the middle of a failover or a slot's move: tried again, then unavailable.
_CLUSTER_IN_FLUX = (AskError, ClusterDownError, MasterDownError, MovedError, TryAgainError)
_APPEND_LUA = resources.files("eventstore").joinpath("append.lua").read_text()
#: At most this many games' newest (version, hash) kept by a store (`RedisEventStore._heads`: a
#: cache; the oldest entered goes first). About 300 bytes an entry: 3 MB at most (docs/PERFORMANCE.md).
HEADS_KEPT = 10_000


class CommandKey(msgspec.Struct, frozen=True):
    """What makes a command idempotent: the seat, the client's command id, a hash of the body."""

    seat: str
    command_id: str
    body_hash: bytes

    @classmethod
    def of(cls, seat: str, command_id: str, body: bytes) -> CommandKey:
        """The key of a command whose canonical encoded body is `body`."""
        return cls(seat, command_id, hashlib.sha256(body).digest())

    def field(self) -> bytes:
        seat = self.seat.encode()
        return b"%d:%s:%s" % (len(seat), seat, self.command_id.encode())


@dataclass(frozen=True, slots=True)
class Appended:
    """The versions an append occupies; `duplicate` when the command had been appended before.

    `envelopes`: the events a successful `append` or `append_sealed` stored, exactly as stored
    (sealed: version, time, prev, hash), so a caller need not read them back; empty for a
    duplicate and for `lookup`. Not part of equality: `Appended(1, 2)` equals any append of 1..2."""

    first: int
    last: int
    duplicate: bool = False
    envelopes: tuple[Envelope, ...] = field(default=(), compare=False, repr=False)


class Snapshot(msgspec.Struct, frozen=True):
    """An encoded state after `version`; `head` is the hash of that event, `code_version` the writer."""

    version: int
    code_version: str
    head: bytes
    data: bytes


class GameInfo(msgspec.Struct, frozen=True):
    """A game's entry in the index (non-authoritative: the log is the truth)."""

    game_id: str
    scenario: str
    status: str
    created: int  # milliseconds since the epoch


class GameKeys(NamedTuple):
    log: str
    meta: str
    cmd: str
    snap: str
    secret: str
    info: str
    hidden: str


@runtime_checkable
class EventStore(Protocol):
    """Where games are persisted. Every method is about one game unless it says otherwise."""

    async def append(
        self, game_id: str, events: Sequence[NewEvent], expected_version: int, key: CommandKey | None = None
    ) -> Appended:
        """Append `events` after `expected_version`; raises Conflict, KeyMismatch, ChainError."""

    async def lookup(self, game_id: str, key: CommandKey) -> Appended | None:
        """The versions a command was appended at, or None; raises KeyMismatch for another body."""

    def read(
        self, game_id: str, from_version: int = 1, to_version: int | None = None
    ) -> AsyncIterator[Envelope]:
        """The events from `from_version` to `to_version` (inclusive; None: to the end), verified."""

    async def version(self, game_id: str) -> int:
        """The game's current version (0 for a game with no events)."""

    async def verify(self, game_id: str) -> tuple[int, bytes]:
        """Re-walk the whole chain; returns (version, head hash) or raises."""

    async def create_game(self, game_id: str, scenario: str, status: str = "open") -> GameInfo: ...

    async def list_games(
        self, offset: int = 0, limit: int = 50, status: str | None = None
    ) -> tuple[list[GameInfo], int | None]: ...

    async def put_secret(self, game_id: str, secret: bytes) -> None: ...

    async def get_secret(self, game_id: str) -> bytes | None: ...

    async def put_hidden(self, game_id: str, name: str, data: bytes) -> None: ...

    async def get_hidden(self, game_id: str, name: str) -> bytes | None: ...

    async def put_snapshot(self, game_id: str, version: int, data: bytes, code_version: str) -> None: ...

    async def snapshot_at_or_before(
        self, game_id: str, version: int, code_version: str | None = None
    ) -> Snapshot | None: ...


class RedisEventStore:
    """`EventStore` on Redis Streams. `redis` must return bytes (decode_responses=False)."""

    def __init__(
        self,
        redis: AnyRedis,
        *,
        prefix: str = "",
        known_types: Container[str] | None = None,
        snapshot_every: int = 100,
        wait_replicas: int = 0,
        wait_aof: bool = False,
        wait_timeout_ms: int = 1000,
        page_size: int = 500,
        namespace: str = "g",
    ) -> None:
        """`redis`: a client of one server or of a cluster (`RedisCluster`). `known_types`: event types
        a read accepts (None: any). `wait_replicas`: after each append, WAIT (on the connection that
        appended) until that many replicas have it (0: no replicas, no wait); with `wait_aof`, WAITAOF
        until that many have it in their append-only file. `namespace`: the letter of the hash tag,
        `{<namespace>:<id>}`: ``g`` for games; another log kept the same way (a tournament's,
        api/tournaments.py: ``t``) has its own, so that its ids never meet a game's."""
        if connection_options(redis).get("decode_responses"):
            raise ValueError("the event store needs a Redis client with decode_responses=False")
        if snapshot_every < 1 or page_size < 1:
            raise ValueError("snapshot_every and page_size must be positive")
        self.redis = redis
        self.prefix = prefix
        self.known_types = known_types
        self.snapshot_every = snapshot_every
        self.wait_replicas = wait_replicas
        self.wait_aof = wait_aof
        self.wait_timeout_ms = wait_timeout_ms
        self.page_size = page_size
        self.namespace = namespace
        self.cluster = is_cluster(redis)
        self._append_script = redis.register_script(_APPEND_LUA)
        self._heads: dict[str, tuple[int, bytes]] = {}  # the newest (version, hash) seen per game
        self.heads_kept = HEADS_KEPT  # _heads' bound
        #: Told of each append and each page read: (operation, seconds, the exception or None), for
        #: the server's metrics (api/metrics.py); None: nobody listens.
        self.observe: Callable[[str, float, BaseException | None], None] | None = None

    @contextlib.contextmanager
    def _timed(self, op: str) -> Iterator[None]:
        """Tell `observe` how long the round trip inside took, and whether it failed."""
        if self.observe is None:
            yield
            return
        start = time.perf_counter()
        try:
            yield
        except BaseException as exc:
            self.observe(op, time.perf_counter() - start, exc)
            raise
        self.observe(op, time.perf_counter() - start, None)

    @classmethod
    def from_url(cls, url: str, **options) -> RedisEventStore:
        """A store on a new client for `url` (e.g. an `EmbeddedRedis(...).url`, or a cluster's
        `redis+cluster://...`, eventstore/connect.py).

        The client retries a command on a lost connection (a Redis restart, a cluster's failover)
        for about six seconds. Retrying an append is safe: a replay of one that did happen is
        answered as a duplicate (with a key) or refused as a conflict (without), never appended twice."""
        return cls(client_for(url), **options)

    async def aclose(self) -> None:
        await self.redis.aclose()

    # -- keys ------------------------------------------------------------

    def keys(self, game_id: str) -> GameKeys:
        if not _GAME_ID.fullmatch(game_id):
            raise ValueError(f"bad game id {game_id!r}: 1 to 100 of A-Z a-z 0-9 _ . -")
        tag = f"{self.prefix}{{{self.namespace}:{game_id}}}"
        return GameKeys(*(f"{tag}:{name}" for name in GameKeys._fields))

    @property
    def index_key(self) -> str:
        return f"{self.prefix}games"

    @property
    def channel(self) -> str:
        """The pub/sub channel every append is announced on (the message: the game's log key)."""
        return f"{self.prefix}appended"

    # -- appending -------------------------------------------------------

    async def append(
        self, game_id: str, events: Sequence[NewEvent], expected_version: int, key: CommandKey | None = None
    ) -> Appended:
        """Append `events` at versions expected_version+1..; atomically, or not at all. The answer
        carries the sealed envelopes as stored (`Appended.envelopes`).

        The same `key` with the same body returns the original range and appends nothing; with
        another body it raises KeyMismatch. A game not at `expected_version` raises Conflict.
        """
        if not events:
            raise ValueError("nothing to append")
        if expected_version < 0:
            raise ValueError("expected_version must be >= 0")
        k = self.keys(game_id)
        prev = await self.hash_at(game_id, expected_version)
        if prev is None:
            prev = GENESIS  # past the end: the script answers with a conflict (or the duplicate)
        now = time.time_ns() // 1_000_000
        args: list = [
            expected_version,
            key.field() if key else b"",
            key.body_hash.hex() if key else b"",
            len(events),
            *self._announce_args(),
        ]
        sealed = []
        for i, event in enumerate(events, start=expected_version + 1):
            envelope = seal(event, version=i, time=now, prev=prev)
            sealed.append(envelope)
            args += [
                envelope.type,
                envelope.schema,
                envelope.payload,
                envelope.actor,
                envelope.command_id,
                envelope.time,
                envelope.digest,
                envelope.prev,
                envelope.hash,
            ]
            prev = envelope.hash
        reply = await self._run_append(game_id, [k.log, k.meta, k.cmd], args)
        status = reply[0]
        if status == b"ok":
            self._remember(game_id, reply[2], prev)
            return Appended(reply[1], reply[2], envelopes=tuple(sealed))
        if status == b"dup":
            return Appended(reply[1], reply[2], duplicate=True)
        if status == b"conflict":
            raise Conflict(game_id, expected_version, reply[1])
        if status == b"mismatch":
            assert key is not None  # only a key's command is a mismatch
            raise KeyMismatch(game_id, key.seat, key.command_id)
        if status == b"chain":
            raise ChainError(
                game_id,
                f"the meta head {reply[1].hex()} is not the hash of event {expected_version} in the log",
            )
        raise EventStoreError(f"game {game_id}: unexpected reply from the append script: {reply!r}")

    async def append_sealed(
        self, game_id: str, envelopes: Sequence[Envelope], expected_version: int
    ) -> Appended:
        """Append envelopes sealed elsewhere (an imported log: replay/transfer.py) exactly as they
        are, at expected_version+1..; the same script and checks as `append` (the version, the
        chain to the head), with no idempotency key. Each must be the next version and link to the
        one before, and its hash must match its contents."""
        if not envelopes:
            raise ValueError("nothing to append")
        k = self.keys(game_id)
        args: list = [expected_version, b"", b"", len(envelopes), *self._announce_args()]
        for i, e in enumerate(envelopes, start=expected_version + 1):
            if e.version != i or e.expected_hash() != e.hash:
                raise ValueError(f"event {e.version} is not a sound envelope for version {i}")
            args += [e.type, e.schema, e.payload, e.actor, e.command_id, e.time, e.digest, e.prev, e.hash]
        reply = await self._run_append(game_id, [k.log, k.meta, k.cmd], args)
        if reply[0] == b"ok":
            self._remember(game_id, reply[2], envelopes[-1].hash)
            return Appended(reply[1], reply[2], envelopes=tuple(envelopes))
        if reply[0] == b"conflict":
            raise Conflict(game_id, expected_version, reply[1])
        if reply[0] == b"chain":
            raise ChainError(
                game_id, f"event {expected_version + 1} does not link to the head {reply[1].hex()}"
            )
        raise EventStoreError(f"game {game_id}: unexpected reply from the append script: {reply!r}")

    async def lookup(self, game_id: str, key: CommandKey) -> Appended | None:
        """The versions `key`'s command was appended at, or None if it never was."""
        seen = cast("bytes | None", await self.redis.hget(self.keys(game_id).cmd, key.field()))
        if seen is None:
            return None
        body, first, last = seen.split(b" ")
        if body != key.body_hash.hex().encode():
            raise KeyMismatch(game_id, key.seat, key.command_id)
        return Appended(int(first), int(last), duplicate=True)

    def _announce_args(self) -> list:
        """The script's channel and flags: PUBLISH on one server, SPUBLISH on a cluster; "w" when
        appends wait for replicas (a duplicate then writes its key again, so the WAITAOF after it
        covers the original append)."""
        flags = ("s" if self.cluster else "") + ("w" if self.wait_replicas else "")
        return [b"" if self.cluster else self.channel, flags]

    def _wait_command(self) -> tuple:
        """WAIT N, or WAITAOF 1 N: the local AOF (numlocal 1: fsynced already under `appendfsync
        always`, within a second under `everysec`) and N replicas' AOF."""
        if self.wait_aof:
            return ("WAITAOF", 1, self.wait_replicas, self.wait_timeout_ms)
        return ("WAIT", self.wait_replicas, self.wait_timeout_ms)

    async def _run_append(self, game_id: str, keys: list[str], args: list) -> list:
        """`_append_and_wait`, its round trip told to `observe`."""
        with self._timed("append"):
            return await self._append_and_wait(game_id, keys, args)

    async def _append_and_wait(self, game_id: str, keys: list[str], args: list) -> list:
        """Run the append script; with `wait_replicas`, WAIT (or WAITAOF) after it on the same
        connection (both wait for the last write of their own connection: on another one they would
        not wait for this append) and raise NotReplicated when too few replicas have it in time."""
        try:
            if not self.wait_replicas:
                return await self._append_script(keys=keys, args=args)
            if self.cluster:  # on a connection of its own: the client's deadline is not on it
                async with within(getattr(self.redis, "deadline", None), "an append"):
                    reply, waited = await self._script_and_wait_on_node(keys, args)
            else:
                async with self.redis.pipeline(transaction=False) as pipe:
                    # redis-py runs a script in a pipeline (it registers it there); annotated: a client
                    await self._append_script(keys=keys, args=args, client=pipe)  # type: ignore[arg-type]
                    pipe.execute_command(*self._wait_command())
                    reply, waited = await pipe.execute(raise_on_error=False)
            if isinstance(reply, ResponseError):
                raise reply
        except _CLUSTER_IN_FLUX as exc:  # a failover under way: the same as a lost connection
            raise ConnectionError(f"the cluster is changing: {exc}") from exc
        except ReadOnlyError as exc:  # a primary made a replica (a failover): nothing was written
            raise ConnectionError(f"game {game_id}: the server is a replica now: {exc}") from exc
        except ResponseError as exc:
            if refused_for_replicas(exc):  # min-replicas-to-write: refused before the script ran
                raise ReplicasOutOfReach(game_id, self.wait_replicas) from None
            raise _script_error(game_id, exc) from None
        if isinstance(waited, ResponseError):  # the script ran, but its wait was cut short: e.g.
            # "UNBLOCKED ... master -> replica", the primary demoted while it waited
            raise NotReplicated(game_id, self.wait_replicas, 0, aof=self.wait_aof, reason=str(waited))
        if self.wait_aof:
            local, replicas = waited
            replicas = replicas if local >= 1 else 0  # not even in the local AOF in time
        else:
            replicas = waited
        if reply[0] in (b"ok", b"dup") and replicas < self.wait_replicas:
            raise NotReplicated(game_id, self.wait_replicas, replicas, aof=self.wait_aof)
        return reply

    async def _script_and_wait_on_node(self, keys: list[str], args: list) -> tuple[list, list]:
        """EVALSHA and WAIT (or WAITAOF) sent together on one connection to the primary of the
        game's slot (a cluster client would send WAIT, which names no key, to any node). On a lost
        connection or a moved slot the map of the slots is read again and both are sent again,
        with the client's own backoff: the script answers a replay of an append it did as a
        duplicate (with a key), and the WAIT then waits for the original."""
        cluster = cast("RedisCluster", self.redis)  # called on a cluster only
        script = self._append_script
        retry = cluster.retry
        attempts = 0
        await cluster.initialize()  # once: a new client reads the map of the slots first
        while True:
            try:
                node = cluster.get_node_from_key(keys[0])
            except SlotNotCoveredError as exc:  # a failover under way: nobody serves the slot yet
                attempts += 1
                if attempts > retry.get_retries():
                    raise ConnectionError(str(exc)) from None
                await asyncio.sleep(retry._backoff.compute(attempts))
                await cluster.nodes_manager.initialize()
                continue
            assert node is not None  # a primary's (None is for a replica asked for)
            conn = node.acquire_connection()
            try:
                await conn.connect()
                evalsha = ("EVALSHA", script.sha, len(keys), *keys, *args)
                await conn.send_packed_command(
                    conn.pack_commands([evalsha, self._wait_command()]), check_health=False
                )
                replies = []
                for _ in range(2):
                    try:
                        replies.append(await conn.read_response())
                    except ResponseError as exc:
                        replies.append(exc)
            except (ConnectionError, TimeoutError, OSError) as exc:
                await conn.disconnect()
                node.release(conn)
                attempts += 1
                if attempts > retry.get_retries():
                    raise ConnectionError(f"the append did not reach the primary of its slot: {exc}") from exc
                await asyncio.sleep(retry._backoff.compute(attempts))
                await cluster.nodes_manager.initialize()
                continue
            node.release(conn)
            reply, waited = replies
            if isinstance(reply, NoScriptError):
                await cluster.execute_command("SCRIPT", "LOAD", _APPEND_LUA, target_nodes=node)
                continue
            if isinstance(reply, _CLUSTER_IN_FLUX):
                attempts += 1
                if attempts > retry.get_retries():
                    raise ConnectionError(f"the cluster did not settle: {reply}") from reply
                await asyncio.sleep(retry._backoff.compute(attempts))
                await cluster.nodes_manager.initialize()
                continue
            if isinstance(reply, ResponseError):
                raise reply
            return reply, waited  # a failed wait is answered by the caller

    # -- reading ---------------------------------------------------------

    async def version(self, game_id: str) -> int:
        value = await self.redis.hget(self.keys(game_id).meta, "version")
        return int(value) if value is not None else 0

    async def head(self, game_id: str) -> tuple[int, bytes]:
        """The current (version, head hash) from the game's meta; (0, GENESIS) for no events."""
        # bytes (decode_responses=False); the head is written with the version
        reply = await self.redis.hmget(self.keys(game_id).meta, ["version", "head"])
        version, head = cast("tuple[bytes | None, bytes]", reply)
        return (int(version), head) if version is not None else (0, GENESIS)

    async def hash_at(self, game_id: str, version: int) -> bytes | None:
        """The hash of the event at `version` (GENESIS for 0), or None past the end."""
        if version == 0:
            return GENESIS
        cached = self._heads.get(game_id)
        if cached and cached[0] == version:
            return cached[1]
        entries = await self.redis.xrange(self.keys(game_id).log, f"{version}-0", f"{version}-0")
        if not entries:
            return None
        return self.decode(game_id, entries[0], version, None).hash

    async def read(
        self, game_id: str, from_version: int = 1, to_version: int | None = None
    ) -> AsyncIterator[Envelope]:
        """The events from `from_version` to `to_version` inclusive (None: to the end), in pages.

        Each event is checked: its id, its fields, its own hash, its link to the event before
        (from the one just before `from_version`) and its type. The first that fails raises an
        UnreadableEvent subclass for this game; nothing after it is yielded.
        """
        log = self.keys(game_id).log
        start = max(from_version, 1)
        if to_version is not None and to_version < start:
            return
        expected = start - 1 if start > 1 else 1  # read one event before, to check the link
        prev = GENESIS if expected == 1 else None
        cursor: str | bytes = f"{expected}-0"
        end = f"{to_version}-0" if to_version is not None else "+"
        while True:
            with self._timed("read"):
                entries = cast(
                    "list[tuple[bytes, dict[bytes, bytes]]]",
                    await self.redis.xrange(log, cursor, end, count=self.page_size),
                )
            for entry in entries:
                envelope = self.decode(game_id, entry, expected, prev)
                prev = envelope.hash
                expected += 1
                if envelope.version >= start:
                    yield envelope
            if len(entries) < self.page_size:
                return
            cursor = b"(" + entries[-1][0]

    def decode(self, game_id: str, entry, version: int, prev: bytes | None) -> Envelope:
        """The envelope of a raw stream entry expected at `version` after `prev` (None: unchecked)."""
        entry_id, fields = entry
        if entry_id != b"%d-0" % version:
            raise CorruptEvent(game_id, version, f"expected entry id {version}-0, found {entry_id.decode()}")
        if len(fields) != len(_FIELDS) or any(name not in fields for name in _FIELDS):
            raise CorruptEvent(game_id, version, f"the entry has fields {sorted(f.decode() for f in fields)}")
        try:
            envelope = Envelope(
                version=version,
                type=fields[b"type"].decode(),
                schema=int(fields[b"schema"]),
                payload=fields[b"payload"],
                actor=fields[b"actor"].decode(),
                command_id=fields[b"command"].decode(),
                time=int(fields[b"time"]),
                digest=fields[b"digest"],
                prev=fields[b"prev"],
                hash=fields[b"hash"],
            )
        except (UnicodeDecodeError, ValueError) as exc:
            raise CorruptEvent(game_id, version, f"undecodable field: {exc}") from None
        if prev is not None and envelope.prev != prev:
            raise CorruptEvent(game_id, version, "does not link to the hash of the event before it")
        if envelope.expected_hash() != envelope.hash:
            raise CorruptEvent(game_id, version, "its hash does not match its contents")
        if self.known_types is not None and envelope.type not in self.known_types:
            raise UnknownEventType(game_id, version, f"unknown event type {envelope.type!r}")
        self._remember(game_id, version, envelope.hash)
        return envelope

    def _remember(self, game_id: str, version: int, hash: bytes) -> None:
        cached = self._heads.get(game_id)
        if cached is None or cached[0] < version:
            if cached is None and len(self._heads) >= self.heads_kept:
                self._heads.pop(next(iter(self._heads)))
            self._heads[game_id] = (version, hash)

    async def verify(self, game_id: str) -> tuple[int, bytes]:
        """Re-walk the game's whole chain and check it passes through the meta's version and head.

        The meta is read first: an append is one script that writes the event and the meta
        together, so the log then holds at least the meta's version, and events appended during
        the walk (a live game) extend the chain past it rather than counting as a mismatch.
        Returns the version and hash the walk ended at."""
        meta = await self.head(game_id)
        version, head = 0, GENESIS
        seen = meta == (version, head)
        async for envelope in self.read(game_id):
            version, head = envelope.version, envelope.hash
            if version == meta[0]:
                seen = head == meta[1]
                if not seen:
                    break
        if not seen:
            raise ChainError(
                game_id,
                f"the meta says version {meta[0]} but the log "
                + (f"ends at version {version}" if version < meta[0] else f"has another hash at version {meta[0]}"),
            )
        after = await self.head(game_id)  # the meta again: it can only have moved on past the walk
        if after[0] < version or (after[0] == version and after[1] != head):
            raise ChainError(game_id, f"the log runs to version {version} but the meta says version {after[0]}")
        return version, head

    # -- the game index (non-authoritative) --------------------------------

    async def create_game(self, game_id: str, scenario: str, status: str = "open") -> GameInfo:
        info = self.keys(game_id).info
        created = time.time_ns() // 1_000_000
        if not await self.redis.hsetnx(info, "created", created):
            raise GameExists(f"game {game_id} already exists")
        await self.redis.hset(info, mapping={"scenario": scenario, "status": status})
        await self.redis.zadd(self.index_key, {game_id: created})
        return GameInfo(game_id, scenario, status, created)

    async def set_status(self, game_id: str, status: str) -> None:
        info = self.keys(game_id).info
        if not await self.redis.exists(info):
            raise KeyError(game_id)
        await self.redis.hset(info, "status", status)

    async def get_game(self, game_id: str) -> GameInfo | None:
        fields = await self.redis.hgetall(self.keys(game_id).info)
        return _game_info(game_id, fields)

    async def list_games(
        self, offset: int = 0, limit: int = 50, status: str | None = None
    ) -> tuple[list[GameInfo], int | None]:
        """A page of games, newest first, and the offset of the next page (None: no more)."""
        found: list[GameInfo] = []
        while len(found) < limit:
            ids = cast("list[bytes]", await self.redis.zrevrange(self.index_key, offset, offset + limit - 1))
            if not ids:
                return found, None
            async with self.redis.pipeline(transaction=False) as pipe:
                for game_id in ids:
                    pipe.hgetall(self.keys(game_id.decode()).info)
                infos = await pipe.execute()
            for game_id, fields in zip(ids, infos, strict=True):
                offset += 1
                info = _game_info(game_id.decode(), fields)
                if info and (status is None or info.status == status):
                    found.append(info)
                    if len(found) == limit:
                        break
        more = await self.redis.zcard(self.index_key) > offset
        return found, offset if more else None

    # -- the secret --------------------------------------------------------

    async def put_secret(self, game_id: str, secret: bytes) -> None:
        """Store the game's secret once (again with the same value is a no-op)."""
        key = self.keys(game_id).secret
        if not await self.redis.set(key, secret, nx=True) and await self.redis.get(key) != secret:
            raise SecretExists(f"game {game_id} already has another secret")

    async def get_secret(self, game_id: str) -> bytes | None:
        return cast("bytes | None", await self.redis.get(self.keys(game_id).secret))

    async def put_hidden(self, game_id: str, name: str, data: bytes) -> None:
        """Keep a player's secret ``name`` of the game (opaque bytes) outside its log; replaces it."""
        await self.redis.hset(self.keys(game_id).hidden, name, data)

    async def get_hidden(self, game_id: str, name: str) -> bytes | None:
        return cast("bytes | None", await self.redis.hget(self.keys(game_id).hidden, name))

    # -- snapshots (a cache) -------------------------------------------------

    async def put_snapshot(self, game_id: str, version: int, data: bytes, code_version: str) -> None:
        """Keep `data`, the state after `version`; every `snapshot_every`th version is kept, and of
        the others only the newest (older ones may be dropped)."""
        head = await self.hash_at(game_id, version) if version > 0 else None
        if head is None:
            raise ValueError(f"game {game_id} has no event at version {version} to snapshot")
        member = msgspec.msgpack.encode(Snapshot(version, code_version, head, data))
        every = self.snapshot_every
        previous_kept = (version - 1) // every * every
        snap = self.keys(game_id).snap
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(snap, version, version)
            pipe.zremrangebyscore(snap, f"({previous_kept}", f"({version}")
            pipe.zadd(snap, {member: version})
            await pipe.execute()

    async def snapshot_at_or_before(
        self, game_id: str, version: int, code_version: str | None = None
    ) -> Snapshot | None:
        """The newest snapshot at or before `version` (written by `code_version`, if given)."""
        snap = self.keys(game_id).snap
        offset = 0
        while True:
            members = cast(
                "list[bytes]", await self.redis.zrevrangebyscore(snap, version, "-inf", start=offset, num=16)
            )
            for member in members:
                snapshot = msgspec.msgpack.decode(member, type=Snapshot)
                if code_version is None or snapshot.code_version == code_version:
                    return snapshot
            if len(members) < 16:
                return None
            offset += 16


def _game_info(game_id: str, fields: dict) -> GameInfo | None:
    if not fields or b"created" not in fields:
        return None
    return GameInfo(
        game_id,
        fields.get(b"scenario", b"").decode(),
        fields.get(b"status", b"").decode(),
        int(fields[b"created"]),
    )


def _script_error(game_id: str, exc: ResponseError) -> EventStoreError:
    message = str(exc)
    if "BG_CORRUPT" in message:
        return CorruptEvent(game_id, None, message.split("BG_CORRUPT", 1)[1].strip())
    return EventStoreError(f"game {game_id}: the append script refused: {message}")
