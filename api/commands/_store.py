"""Where the subcommands find the event store and a game: a Redis URL, or the embedded server of a
data directory (started, or reused when `bluegray serve` is running on it), or an exported file.

Each problem a user can cause is a `CommandError` naming where the command looked: a Redis URL out of
reach (found in a second, not after the server's six seconds of retries), a data directory that is no
directory or cannot be written, no store in the data directory (a command that only reads never
creates one), no such game there, a file that is not an exported log."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

from api.commands._errors import CommandError

#: Seconds to wait for a Redis server given by --redis-url to answer, before saying it is out of reach.
REACH_TIMEOUT = 2.0


def add_store_arguments(parser, *, fsync: bool = False) -> None:
    parser.add_argument(
        "--redis-url",
        metavar="URL",
        help="a Redis server (redis://:PASSWORD@host:port/0, unix:///path/redis.sock) or a Redis Cluster "
        "(redis+cluster://:PASSWORD@host:port,host:port,...); default: the embedded server in --data-dir",
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


def where(args) -> str:
    """The store the command uses, as a user named it: its URL or its data directory."""
    place = args.redis_url or f"the store in {Path(args.data_dir).absolute()}"
    return f"{place} (key prefix {args.key_prefix!r})" if args.key_prefix else place


def _answering(server) -> bool:
    import redis

    if not server.socket_path.exists():
        return False
    client = redis.Redis(unix_socket_path=str(server.socket_path), socket_timeout=2)
    try:
        return bool(client.ping())
    except (redis.RedisError, OSError):
        return False
    finally:
        client.close()


def _check_reachable(url: str) -> None:
    import redis

    from eventstore.connect import cluster_nodes, is_cluster_url

    if is_cluster_url(url):
        try:
            nodes, user, password, _tls = cluster_nodes(url)
        except ValueError as exc:
            raise CommandError(f"--redis-url {url}: {exc}") from None
        problems = []
        for host, port in nodes:
            client = redis.Redis(host=host, port=port, username=user, password=password,
                                 socket_connect_timeout=REACH_TIMEOUT, socket_timeout=REACH_TIMEOUT)
            try:
                client.ping()
                return
            except (redis.RedisError, OSError) as exc:
                problems.append(f"{host}:{port}: {exc}")
            finally:
                client.close()
        raise CommandError(f"cannot reach any node of the cluster: {'; '.join(problems)}")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=REACH_TIMEOUT, socket_timeout=REACH_TIMEOUT)
    except ValueError as exc:  # not a Redis URL
        raise CommandError(f"--redis-url {url}: {exc}") from None
    try:
        client.ping()
    except (redis.RedisError, OSError) as exc:
        raise CommandError(f"cannot reach a Redis server at {url}: {exc}") from None
    finally:
        client.close()


@contextlib.contextmanager
def store_url(args, *, own: bool, create: bool = False) -> Iterator[str]:
    """The URL of the store. Without --redis-url: the embedded server of --data-dir, started (and
    stopped at the end) when `own`, and restarted whenever it dies (eventstore/supervisor.py); else
    used as it runs under `bluegray serve` (or started). A store is made in --data-dir only when
    `create` (a command that writes); one that only reads says there is none."""
    from eventstore.embedded import EmbeddedRedis
    from eventstore.errors import EventStoreError
    from eventstore.supervisor import Supervisor

    if args.redis_url:
        _check_reachable(args.redis_url)
        yield args.redis_url
        return
    data_dir = Path(args.data_dir)
    if data_dir.exists() and not data_dir.is_dir():
        raise CommandError(f"--data-dir {data_dir}: not a directory")
    server = EmbeddedRedis(data_dir / "redis", fsync=getattr(args, "fsync", "always"))
    if not create and not server.data_dir.is_dir():
        raise CommandError(
            f"no store in {data_dir.absolute()} (run this where `bluegray serve` keeps its data, or give "
            "--data-dir or --redis-url)"
        )
    if not own and _answering(server):
        yield server.url  # a running `bluegray serve` owns it
        return
    try:
        server.start()
    except OSError as exc:  # the directory cannot be made or written
        raise CommandError(
            f"--data-dir {data_dir}: cannot keep the store there: {exc.strerror or exc}"
        ) from None
    except EventStoreError as exc:  # locked by another process, the server would not start, ...
        raise CommandError(f"--data-dir {data_dir}: {exc}") from None
    try:
        with Supervisor(server) if own else contextlib.nullcontext():
            yield server.url
    finally:
        server.stop()


def read_log_file(path: Path, *, whole: bool = True) -> list:
    """The envelopes of an exported log, checked to begin with its game's creation and, when `whole`,
    to have an unbroken hash chain (`bluegray verify` reads it with `whole=False`: it reports the break)."""
    import msgspec

    from replay import export
    from replay.verify import chain_problem

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        envelopes = export.loads(data)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise CommandError(f"{path} is not an exported game log (bluegray export): {exc}") from None
    if not envelopes:
        raise CommandError(f"{path} is empty, not an exported game log (bluegray export)")
    try:
        export.game_id_of(envelopes)
    except (ValueError, msgspec.DecodeError) as exc:
        raise CommandError(f"{path} is not an exported game log (bluegray export): {exc}") from None
    broken = chain_problem(envelopes) if whole else None
    if broken:
        raise CommandError(f"{path} is broken: {broken} (bluegray verify {path} checks the whole log)")
    return envelopes


def is_file(target: str) -> bool:
    """Whether GAME_ID|FILE names a file. A game id has no '/' or '.', so a name with one that is not
    a file is refused as a missing file rather than looked up as a game."""
    path = Path(target)
    if path.is_file():
        return True
    if path.is_dir():
        raise CommandError(f"{target} is a directory, not an exported game log")
    if "/" in target or "." in target:
        raise CommandError(f"no file {target}")
    return False


def read_game(args, to_version: int | None = None) -> tuple[str, list]:
    """(game id, envelopes up to `to_version`) of the GAME_ID|FILE argument `args.game`."""
    from replay import export

    if is_file(args.game):
        envelopes = read_log_file(Path(args.game))
        return export.game_id_of(envelopes), envelopes[:to_version] if to_version is not None else envelopes
    with store_url(args, own=False) as url:
        envelopes = asyncio.run(_read(url, args.key_prefix, args.game, to_version))
    if not envelopes:
        raise CommandError(f"no game {args.game!r} in {where(args)}")
    return args.game, envelopes


async def _read(url: str, prefix: str, game_id: str, to_version: int | None):
    from eventstore.errors import EventStoreError
    from eventstore.store import RedisEventStore
    from replay.transfer import read_log

    store = RedisEventStore.from_url(url, prefix=prefix)
    try:
        return await read_log(store, game_id, to_version)
    except EventStoreError as exc:
        raise CommandError(f"cannot read game {game_id!r}: {exc}") from None
    finally:
        await store.aclose()


def games_for(args, envelopes: list, path: Path | None = None):
    """The GameCache for a game's log: the shipped battles, the scenarios saved in --data-dir, and the
    scenario an exported file (`path`) carries (replay/carry.py). A carried scenario that is not the
    game's is a CommandError."""
    from replay import carry
    from scenarios.library import Library

    library = Library(Path(args.data_dir) / "scenarios")
    data = b""
    if path is not None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return carry.games_for(library, data, envelopes)
    except carry.CarryError as exc:
        raise CommandError(f"{path}: {exc}") from None


def game_path(args) -> Path | None:
    """The exported file GAME_ID|FILE names, or None for a game id."""
    return Path(args.game) if is_file(args.game) else None
