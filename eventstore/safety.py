"""The start-up check: refuse a Redis server that could lose acknowledged events."""

from __future__ import annotations

import logging

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from eventstore.errors import UnsafeServer

log = logging.getLogger(__name__)

MIN_VERSION = (7, 0)


class ServerReport(msgspec.Struct, frozen=True):
    """What the check found: the server's version, its connected replicas and every problem."""

    version: str
    replicas: int
    problems: list[str]


async def check_server(redis: aioredis.Redis, *, prefix: str = "", unsafe: bool = False) -> ServerReport:
    """Check `redis` is safe for the event store; raise UnsafeServer unless `unsafe`.

    Safe means: version >= 7.0, `appendonly yes`, `appendfsync` not `no`, `maxmemory-policy
    noeviction`, and no game stream (keys `<prefix>{g:*}:log`) with deleted entries or a length
    other than its meta version. With `unsafe` the problems are logged and returned instead.
    """
    problems: list[str] = []
    server = await redis.info("server")
    version = str(server.get("redis_version", "0"))
    if _version_tuple(version) < MIN_VERSION:
        problems.append(f"Redis {version} is older than 7.0 (needed for scripts that check before writing)")
    replicas = int((await redis.info("replication")).get("connected_slaves", 0))
    try:
        config = await _config(redis, ["appendonly", "appendfsync", "maxmemory-policy"])
    except ResponseError as exc:
        problems.append(f"cannot read the server's configuration (CONFIG GET: {exc})")
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
    problems += await _damaged_streams(redis, prefix)
    if problems and not unsafe:
        raise UnsafeServer(problems)
    for problem in problems:
        log.warning("unsafe Redis server, running anyway: %s", problem)
    return ServerReport(version, replicas, problems)


async def _config(redis: aioredis.Redis, names: list[str]) -> dict[str, str]:
    found = {}
    for name in names:
        for key, value in (await redis.config_get(name)).items():
            found[_text(key)] = _text(value)
    return found


async def _damaged_streams(redis: aioredis.Redis, prefix: str) -> list[str]:
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
