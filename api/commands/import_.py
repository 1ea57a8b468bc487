"""`bluegray import game.jsonl`: verify an exported log (chain, every state digest, every die roll
once the seed is known) and create the game in this store with exactly the same history; a log
that does not verify is refused with the reasons (exit code 1)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from api.commands._store import add_store_arguments, store_url

NAME = "import"
HELP = "Verify an exported game (JSON Lines) and add it to the store with the same history; a broken chain is refused."


def add_arguments(parser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE", help="an exported log (bluegray export GAME_ID > FILE)")
    add_store_arguments(parser)


def run(args) -> int:
    import msgspec

    from replay import export
    from replay.transfer import ImportRefused

    try:
        envelopes = export.loads(args.file.read_bytes())
    except (OSError, msgspec.DecodeError) as exc:
        print(f"refused: {args.file} is not an exported log: {exc}", file=sys.stderr)
        return 1
    with store_url(args, own=False) as url:
        try:
            imported = asyncio.run(_import(url, args.key_prefix, envelopes))
        except ImportRefused as exc:
            print("refused: the log does not verify:", file=sys.stderr)
            for reason in exc.reasons:
                print(f"  {reason}", file=sys.stderr)
            return 1
    what = "already in this store" if imported.already else "imported"
    dice = "dice verified" if imported.dice_checked else "dice not checkable yet (the game is running: its seed is secret)"
    print(f"game {imported.game_id}: {what}, {imported.version} events, head {imported.head}; {dice}")
    return 0


async def _import(url: str, prefix: str, envelopes):
    from eventstore.store import RedisEventStore
    from replay.transfer import import_log

    store = RedisEventStore.from_url(url, prefix=prefix)
    try:
        return await import_log(store, envelopes)
    finally:
        await store.aclose()
