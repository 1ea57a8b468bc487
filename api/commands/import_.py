"""`bluegray import game.jsonl`: verify an exported log (chain, every state digest, every die roll
once the seed is known) and create the game in this store with exactly the same history; a log
that does not verify is refused with the reasons (exit code 1)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from api.commands._errors import CommandError
from api.commands._store import add_store_arguments, games_for, read_log_file, store_url
from api.commands._text import plural

NAME = "import"
HELP = "Verify an exported game (JSON Lines) and add it to the store with the same history; a broken chain is refused."


def add_arguments(parser) -> None:
    parser.add_argument(
        "file", type=Path, metavar="FILE", help="an exported log (bluegray export GAME_ID > FILE)"
    )
    add_store_arguments(parser)


def run(args) -> int:
    from replay.transfer import ImportRefused, check

    envelopes = read_log_file(args.file, whole=False)
    games = games_for(args, envelopes, args.file)
    try:
        check(envelopes, games)  # a log that does not verify is refused before any store is opened (or made)
    except ImportRefused as exc:
        raise CommandError(f"refused {args.file}: {exc}") from None
    with store_url(args, own=False, create=True) as url:
        try:
            imported = asyncio.run(_import(url, args.key_prefix, envelopes, games))
            _keep_scenario(args)
        except ImportRefused as exc:
            raise CommandError(f"refused {args.file}: {exc}") from None
    what = "already in this store" if imported.already else "imported"
    dice = (
        "dice verified"
        if imported.dice_checked
        else "dice not checkable yet (the game is running: its seed is secret)"
    )
    print(
        f"game {imported.game_id}: {what}, {plural(imported.version, 'event')}, head {imported.head}; {dice}"
    )
    return 0


def _keep_scenario(args) -> None:
    """Save the scenario the file carries in --data-dir/scenarios, so this server plays it back."""
    from replay import export
    from scenarios import document
    from scenarios.library import Library

    carried = export.carried_scenario(args.file.read_bytes())
    if carried is not None:
        Library(args.data_dir / "scenarios").keep(document.decode(carried, "carried.json"))


async def _import(url: str, prefix: str, envelopes, games):
    from eventstore.store import RedisEventStore
    from replay.transfer import import_log

    store = RedisEventStore.from_url(url, prefix=prefix)
    try:
        return await import_log(store, envelopes, games)
    finally:
        await store.aclose()
