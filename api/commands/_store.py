"""Where the `serve` and `verify` commands find the event store: a Redis URL, or the embedded
server of a data directory (started, or reused when `bluegray serve` is running on it)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import redis

from eventstore.embedded import EmbeddedRedis
from eventstore.supervisor import Supervisor


def add_store_arguments(parser, *, fsync: bool = False) -> None:
    parser.add_argument(
        "--redis-url",
        metavar="URL",
        help="a Redis server (redis://host:port/0, unix:///path/redis.sock); default: the embedded server "
        "in --data-dir",
    )
    parser.add_argument(
        "--data-dir",
        default="var",
        type=Path,
        help="where the embedded server keeps its data and socket (default: ./var; created 0700)",
    )
    if fsync:
        parser.add_argument(
            "--fsync",
            choices=["always", "everysec"],
            default="always",
            help="the embedded server's appendfsync: always (default; nothing acknowledged is lost) or everysec "
            "(faster; a power loss may lose the last second)",
        )
    parser.add_argument("--key-prefix", default="", help="a prefix for every key (to keep test data apart)")


def _answering(server: EmbeddedRedis) -> bool:
    if not server.socket_path.exists():
        return False
    client = redis.Redis(unix_socket_path=str(server.socket_path), socket_timeout=2)
    try:
        return bool(client.ping())
    except (redis.RedisError, OSError):
        return False
    finally:
        client.close()


@contextlib.contextmanager
def store_url(args, *, own: bool) -> Iterator[str]:
    """The URL of the store. Without --redis-url: the embedded server of --data-dir, started (and
    stopped at the end) when `own`, and restarted whenever it dies (eventstore/supervisor.py); else
    used as it runs under `bluegray serve` (or started)."""
    if args.redis_url:
        yield args.redis_url
        return
    server = EmbeddedRedis(Path(args.data_dir) / "redis", fsync=getattr(args, "fsync", "always"))
    if not own and _answering(server):
        yield server.url  # a running `bluegray serve` owns it
        return
    server.start()
    try:
        with Supervisor(server) if own else contextlib.nullcontext():
            yield server.url
    finally:
        server.stop()
