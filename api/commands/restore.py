"""`bluegray restore FILE`: a backup (`bluegray backup`) put back into an empty store (a store with
anything under the key prefix is refused unless --force, which replaces what the backup holds), its
saved scenarios into --data-dir; then every game's hash chain, state digests and (once revealed) die
rolls are checked as `bluegray verify` checks them, and the counts printed. A backup whose lines,
counts or SHA-256 do not match its manifest is refused before anything is written. Exit 1 when a
game does not verify."""

from __future__ import annotations

import asyncio
import base64
import sys
from pathlib import Path

from api.commands._errors import CommandError
from api.commands._store import add_store_arguments, games_for, store_url, where
from api.commands._text import plural

NAME = "restore"
HELP = "Restore a backup (bluegray backup) into an empty store, then verify every game's hash chain."


def add_arguments(parser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE", help="a backup file written by bluegray backup")
    add_store_arguments(parser)
    parser.add_argument("--force", action="store_true",
                        help="restore into a store that already has keys under the prefix (the backup's keys replace theirs)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def run(args) -> int:
    import redis

    from eventstore import backup

    try:
        found = backup.read(args.file)
    except backup.BackupError as exc:
        raise CommandError(f"refused: {exc}") from None
    with store_url(args, own=False, create=True) as url:
        client = backup.sync_client(url)
        try:
            if not args.force and not backup.is_empty(client, args.key_prefix):
                raise CommandError(f"{where(args)} is not empty: restore into an empty store, or give --force to replace its keys with the backup's")
            written = backup.restore(client, args.key_prefix, found, replace=args.force, progress=None if args.quiet else _progress)
        except redis.ResponseError as exc:
            raise CommandError(f"cannot restore {args.file} into {where(args)}: {exc}") from None
        except redis.RedisError as exc:
            raise CommandError(f"cannot write {where(args)}: {exc}") from None
        finally:
            client.close()
        data_dir = Path(args.data_dir)
        for item in found.files:
            target = data_dir / item.file
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(base64.b64decode(item.data))
        failed = asyncio.run(_verify_all(url, args, found.game_ids()))
    games = len(found.game_ids())
    print(f"restored {args.file} into {where(args)}: {plural(written, 'key')}, {plural(games, 'game')}, "
          f"{plural(found.manifest.accounts, 'account')}, {plural(len(found.files), 'scenario file')}; "
          f"{games - len(failed)} of {plural(games, 'game')} verify")
    for game_id, problem in failed:
        print(f"  game {game_id}: PROBLEM: {problem}")
    return 1 if failed else 0


def _progress(written: int) -> None:
    print(f"restored {plural(written, 'key')}", file=sys.stderr, flush=True)


async def _verify_all(url: str, args, game_ids: list[str]) -> list[tuple[str, str]]:
    """(game id, first problem) of every restored game that does not verify as `bluegray verify` checks."""
    from eventstore.errors import EventStoreError
    from eventstore.store import RedisEventStore
    from replay.verify import verify

    store = RedisEventStore.from_url(url, prefix=args.key_prefix)
    failed = []
    try:
        for game_id in game_ids:
            try:
                await store.verify(game_id)
                envelopes = [e async for e in store.read(game_id)]
            except EventStoreError as exc:
                failed.append((game_id, str(exc)))
                continue
            report = verify(game_id, envelopes, games_for(args, envelopes))
            if not report.ok:
                failed.append((game_id, "; ".join(report.problems)))
    finally:
        await store.aclose()
    return failed
