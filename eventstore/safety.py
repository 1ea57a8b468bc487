"""The start-up check: refuse a Redis server that could lose acknowledged events."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import AuthenticationError, ResponseError

from eventstore.connect import AnyRedis, is_cluster, tcp_endpoints
from eventstore.errors import UnsafeServer

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

log = logging.getLogger(__name__)

MIN_VERSION = (7, 0)


class ServerReport(msgspec.Struct, frozen=True):
    """What the check found: the server's version, its connected replicas and every problem."""

    version: str
    replicas: int
    problems: list[str]


async def check_server(
    redis: AnyRedis, *, prefix: str = "", unsafe: bool = False, url: str | None = None, ack_replicas: int = 0
) -> ServerReport:
    """Check `redis` is safe for the event store; raise UnsafeServer unless `unsafe`.

    Safe means: version >= 7.0, `appendonly yes`, `appendfsync` not `no`, `maxmemory-policy
    noeviction`, and no game stream (keys `<prefix>{g:*}:log`) with deleted entries or a length
    other than its meta version. Given the `url` of a TCP server (or cluster), also that it does not
    answer a client without credentials (a unix socket in a private directory, the embedded
    server's, is not asked). On a cluster every node (primaries and replicas: a replica is
    promoted with its own settings) is checked, and `replicas` is the fewest any primary has.
    With `ack_replicas` N > 0 (appends acknowledged once N replicas have them), also that every node
    has `min-replicas-to-write` >= N: a primary cut off from its replicas must refuse appends (which
    the live tails would otherwise announce, and a failover then drop) rather than write them.
    With `unsafe` the problems are logged and returned instead.
    """
    problems: list[str] = []
    if is_cluster(redis):
        await redis.initialize()
        version, replicas = "", None
        for node in redis.get_nodes():
            node_version, node_replicas, node_problems = await _check_node(
                lambda *args, node=node: redis.execute_command(*args, target_nodes=node),
                f"node {node.name}: ",
                ack_replicas,
            )
            version = version or node_version
            if node.server_type == "primary":
                replicas = node_replicas if replicas is None else min(replicas, node_replicas)
            problems += node_problems
        replicas = replicas or 0
    else:
        version, replicas, problems = await _check_node(redis.execute_command, "", ack_replicas)
    if url is not None:
        problems += await unauthenticated(url)
    problems += await _damaged_streams(redis, prefix)
    if problems and not unsafe:
        raise UnsafeServer(problems)
    for problem in problems:
        log.warning("unsafe Redis server, running anyway: %s", problem)
    return ServerReport(version, replicas, problems)


async def _check_node(execute, where: str, ack_replicas: int = 0) -> tuple[str, int, list[str]]:
    """(version, connected replicas, problems) of one server; `execute` sends it a command."""
    problems: list[str] = []
    server = _info(await execute("INFO", "server"))
    version = str(server.get("redis_version", "0"))
    if _version_tuple(version) < MIN_VERSION:
        problems.append(f"{where}Redis {version} is older than 7.0 (needed for scripts that check before writing)")
    replicas = int(_info(await execute("INFO", "replication")).get("connected_slaves", 0))
    try:
        config = {}
        for name in ("appendonly", "appendfsync", "maxmemory-policy", "min-replicas-to-write"):
            config.update(_pairs(await execute("CONFIG", "GET", name)))
    except ResponseError as exc:
        problems.append(f"{where}cannot read the server's configuration (CONFIG GET: {exc})")
    else:
        if config.get("appendonly") != "yes":
            problems.append(
                f"appendonly is {config.get('appendonly')!r}: without the append-only file a restart loses "
                "every event since the last RDB save (set `appendonly yes`)"
            )
        if config.get("appendfsync") == "no":
            problems.append(
                "appendfsync is 'no': the OS decides when events reach the disk (set `appendfsync always`, "
                "or `everysec` to accept losing up to a second on a power loss)"
            )
        if config.get("maxmemory-policy") != "noeviction":
            problems.append(
                f"maxmemory-policy is {config.get('maxmemory-policy')!r}: Redis may evict game logs when "
                "memory runs out (set `maxmemory-policy noeviction`)"
            )
        min_replicas = int(config.get("min-replicas-to-write") or 0)
        if ack_replicas > min_replicas:
            problems.append(
                f"min-replicas-to-write is {min_replicas} with --ack-replicas {ack_replicas}: a primary cut off "
                "from its replicas still writes appends (answered unavailable, but announced to the live "
                "tails, and dropped if a replica is promoted) (set `min-replicas-to-write "
                f"{ack_replicas}` and `min-replicas-max-lag 10`)"
            )
    return version, replicas, [f"{where}{p}" if where and not p.startswith(where) else p for p in problems]


async def unauthenticated(url: str) -> list[str]:
    """A problem for each TCP server `url` names that answers PING without a password or user."""
    problems = []
    for host, port in tcp_endpoints(url):
        client = aioredis.Redis(
            host=host, port=port, socket_timeout=5, socket_connect_timeout=5,
            retry=None,  # type: ignore[arg-type]  # redis-py takes None: no retries
        )
        try:
            answered = await client.ping()
        except AuthenticationError:
            continue
        except ResponseError as exc:
            if "NOAUTH" in str(exc) or "WRONGPASS" in str(exc):
                continue
            raise
        finally:
            await client.aclose()
        if answered:
            problems.append(
                f"{host}:{port} answers without authentication: anyone who reaches the port can rewrite or "
                "delete every game (set requirepass, or an ACL user, and put the password in --redis-url)"
            )
    return problems


def _info(reply) -> dict:
    """INFO's answer as a dict (redis-py parses it; a raw bulk string is parsed here)."""
    if isinstance(reply, dict):
        return reply
    found = {}
    for line in _text(reply).splitlines():
        if ":" in line and not line.startswith("#"):
            key, _, value = line.partition(":")
            found[key] = value
    return found


def _pairs(reply) -> dict[str, str]:
    """CONFIG GET's answer (a dict, or a flat list of names and values) as text."""
    items: Iterable[tuple[Any, Any]]
    if isinstance(reply, dict):
        items = reply.items()
    else:
        items = zip(reply[::2], reply[1::2], strict=True)
    return {_text(k): _text(v) for k, v in items}


async def _damaged_streams(redis: AnyRedis, prefix: str) -> list[str]:
    """Game streams with deleted entries, or whose length differs from their meta version."""
    problems = []
    pattern = f"{_escape(prefix)}{{g:*}}:log"
    async for key in redis.scan_iter(match=pattern, count=1000, _type="stream"):
        key = _text(key)
        meta = key[: -len(":log")] + ":meta"
        info = await redis.xinfo_stream(key)
        version = int(await redis.hget(meta, "version") or 0)
        deleted = _text(info.get("max-deleted-entry-id", "0-0"))
        added = info.get("entries-added", info["length"])
        if deleted != "0-0" or added != info["length"]:
            problems.append(f"{key}: entries were deleted from this game's log (last deleted id {deleted})")
        elif info["length"] != version:
            problems.append(
                f"{key}: the log has {info['length']} entries but its meta says version {version}"
            )
    return problems


def _escape(text: str) -> str:
    """`text` as a literal in a SCAN MATCH pattern."""
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _version_tuple(version: str) -> tuple[int, ...]:
    parts = []
    for part in version.split("."):
        digits = "".join(c for c in part if c.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)
