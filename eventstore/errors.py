"""The event store's typed errors: each says which game, and what a caller can do about it."""

from __future__ import annotations

from redis.exceptions import (
    ClusterDownError,
    MasterDownError,
    ReadOnlyError,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


class EventStoreError(Exception):
    """Base class of every error raised by `eventstore`."""


class Conflict(EventStoreError):
    """The game is not at the expected version: someone appended first. Re-read and decide again."""

    def __init__(self, game_id: str, expected: int, current: int) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, the game is at {current}")
        self.game_id = game_id
        self.expected = expected
        self.current = current


class KeyMismatch(EventStoreError):
    """An idempotency key was used again with a different command body."""

    def __init__(self, game_id: str, seat: str, command_id: str) -> None:
        super().__init__(
            f"game {game_id}: command id {command_id!r} of seat {seat!r} was already used for another command"
        )
        self.game_id = game_id
        self.seat = seat
        self.command_id = command_id


class ChainError(EventStoreError):
    """The head hash in the game's meta is not the one its log implies: the game is refused."""

    def __init__(self, game_id: str, message: str) -> None:
        super().__init__(f"game {game_id}: {message}")
        self.game_id = game_id


class UnreadableEvent(EventStoreError):
    """An entry of the game's log cannot be trusted; reading this game fails closed (others go on)."""

    def __init__(self, game_id: str, version: int | None, reason: str) -> None:
        where = f"version {version}" if version is not None else "its log"
        super().__init__(f"game {game_id}, {where}: {reason}")
        self.game_id = game_id
        self.version = version
        self.reason = reason


class CorruptEvent(UnreadableEvent):
    """An entry is malformed, out of sequence or does not match its hash chain."""


class UnknownEventType(UnreadableEvent):
    """An entry has a type this code does not know (written by a newer version?)."""


class NotReplicated(EventStoreError):
    """WAIT (or WAITAOF) timed out: the append is on the primary but not yet on enough replicas (or
    in their AOF).

    The events may survive or not; retry the same command with the same key to learn which."""

    def __init__(self, game_id: str, wanted: int, got: int, *, aof: bool = False, reason: str = "") -> None:
        where = "the AOF of " if aof else ""
        because = f" ({reason})" if reason else ""
        super().__init__(f"game {game_id}: the append reached {where}{got} replica(s), not {wanted}{because}")
        self.game_id = game_id
        self.wanted = wanted
        self.got = got


class ReplicasOutOfReach(NotReplicated):
    """The primary refused the append before writing anything: fewer replicas than its
    `min-replicas-to-write` have acknowledged it within `min-replicas-max-lag` seconds (it is cut
    off from them: a partition, or its replicas are down). Nothing was written; the same command
    may succeed later, on this primary or on the replica promoted in its place."""

    def __init__(self, game_id: str, wanted: int) -> None:
        EventStoreError.__init__(
            self,
            f"game {game_id}: the primary refused the append, too few of its replicas are in reach "
            "(min-replicas-to-write)",
        )
        self.game_id = game_id
        self.wanted = wanted
        self.got = 0


def refused_for_replicas(exc: BaseException) -> bool:
    """Is `exc` a Redis primary's NOREPLICAS answer (min-replicas-to-write not met: any write refused)?"""
    return isinstance(exc, ResponseError) and str(exc).startswith("NOREPLICAS")


class GameExists(EventStoreError):
    """`create_game` was called for an id already in the index."""


class SecretExists(EventStoreError):
    """A game's secret may be set once; a different one was already stored."""


class UnsafeServer(EventStoreError):
    """The Redis server could lose acknowledged events; `problems` says why."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(
            "refusing to use this Redis server, it could lose acknowledged events:\n  - "
            + "\n  - ".join(problems)
            + "\n(fix the server, or pass --unsafe-redis to run anyway)"
        )
        self.problems = problems


class EmbeddedServerError(EventStoreError):
    """The embedded server could not be started, reused or stopped."""


class ServerNotFound(EmbeddedServerError):
    """No Redis-compatible server binary is available."""


class DataDirLocked(EmbeddedServerError):
    """Another owner holds the data directory: two servers must never share one append-only file."""


class StoreTimeout(EventStoreError):
    """The store did not answer `what` within `deadline` seconds (eventstore/deadline.py): it may be
    stalled; the same request may succeed later."""

    def __init__(self, what: str, deadline: float) -> None:
        super().__init__(f"the event store did not answer {what} within {deadline:g} s")
        self.what = what
        self.deadline = deadline


class TailOverflow(EventStoreError):
    """A live-tail subscriber fell behind and was dropped: read on from `last_version` + 1, then
    subscribe again."""

    def __init__(self, game_id: str, last_version: int) -> None:
        super().__init__(f"game {game_id}: the subscriber fell behind after version {last_version}")
        self.game_id = game_id
        self.last_version = last_version


def store_unavailable(exc: BaseException) -> bool:
    """Is `exc` the store being out of reach (a lost or refused connection, a timeout, a server
    still loading its append-only file, replicas not answering, a cluster failing over), so that
    the same request may succeed later? A caller answers it as retryable, never as a refusal of the
    request. A primary refusing writes because its replicas are out of reach (NOREPLICAS,
    `min-replicas-to-write`) is one too, and so is a former primary that is a replica now (READONLY,
    after a failover)."""
    return refused_for_replicas(exc) or isinstance(
        exc,
        RedisConnectionError
        | RedisTimeoutError
        | OSError
        | NotReplicated
        | ReadOnlyError
        | StoreTimeout
        | ClusterDownError
        | MasterDownError
        | TryAgainError
        | SlotNotCoveredError,
    )
