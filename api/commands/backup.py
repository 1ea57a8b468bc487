"""`bluegray backup FILE`: the whole store in one file (eventstore/backup.py): every game's stream and
side keys, accounts, ratings, seeks, notification settings, everything under the server's key
prefix, and the saved scenarios of --data-dir, with a manifest of counts and SHA-256. Sessions and
failed log-in counters are left out (players log in again after a restore). Works on the embedded
server, a Redis URL and a cluster (SCAN on every primary)."""

from __future__ import annotations

import sys
from pathlib import Path

from api.commands._errors import CommandError
from api.commands._store import add_store_arguments, store_url, where
from api.commands._text import plural

NAME = "backup"
HELP = "Back up the whole store (games, accounts, ratings, seeks, saved scenarios; not sessions) to one file."


def add_arguments(parser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE", help="the backup file to write (JSON Lines; - for stdout)")
    add_store_arguments(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def scenario_files(data_dir: Path) -> list[tuple[str, bytes]]:
    """(path under the data directory, bytes) of every saved scenario file and its owner records."""
    root = data_dir / "scenarios"
    if not root.is_dir():
        return []
    return [(str(p.relative_to(data_dir)), p.read_bytes()) for p in sorted(root.glob("*/*"))
            if p.is_file() and not p.name.startswith(".")]


def run(args) -> int:
    import redis

    from eventstore import backup

    def progress(counts) -> None:
        if not args.quiet:
            print(f"backed up {plural(counts.keys, 'key')} ({plural(counts.games, 'game')})", file=sys.stderr, flush=True)

    to_stdout = str(args.file) == "-"
    with store_url(args, own=False) as url:
        client = backup.sync_client(url)
        temporary = args.file.with_name(f".{args.file.name}.partial") if not to_stdout else None
        try:
            with (open(temporary, "wb") if temporary else open(sys.stdout.fileno(), "wb", closefd=False)) as out:
                counts = backup.write(client, args.key_prefix, out, scenario_files(Path(args.data_dir)), progress)
        except OSError as exc:
            raise CommandError(f"cannot write {args.file}: {exc.strerror or exc}") from None
        except redis.RedisError as exc:
            if temporary:
                temporary.unlink(missing_ok=True)
            raise CommandError(f"cannot read {where(args)}: {exc}") from None
        finally:
            client.close()
        if temporary:
            temporary.replace(args.file)
    print(f"backed up {where(args)} to {args.file}: {plural(counts.keys, 'key')}, {plural(counts.games, 'game')}, "
          f"{plural(counts.accounts, 'account')}, {plural(counts.files, 'scenario file')}; sha256 {counts.sha256}",
          file=sys.stderr if to_stdout else sys.stdout)
    return 0
