"""`bluegray admin ACTION`: moderation against the store, as the admin's HTTP endpoints do it
(api/moderation.py). ``grant NAME`` and ``revoke NAME`` make an account an admin or no longer one:
the only way to have a first admin. ``disable NAME`` (its sessions end, its bot token stops, its
seats cannot act) and ``enable NAME``; ``abort GAME_ID --reason TEXT`` (the game ends with no
winner, the reason in its last event); ``reports`` (the chat lines players reported, newest first)."""

from __future__ import annotations

import asyncio
import sys

from api.commands._errors import CommandError
from api.commands._store import add_store_arguments, store_url, where

NAME = "admin"
HELP = "Moderation: grant or revoke admin, disable or enable an account, abort a game, list the chat reports."

_ACCOUNT_ACTIONS = {
    "grant": "make the account an admin (it may then use /api/admin/...)",
    "revoke": "the account is no longer an admin",
    "disable": "disable the account: its sessions end, its bot token and its seats stop working",
    "enable": "enable a disabled account again (its player signs in anew)",
}


def add_arguments(parser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for action, text in _ACCOUNT_ACTIONS.items():
        p = actions.add_parser(action, help=text, description=text)
        p.add_argument("name", metavar="NAME", help="the account's name (any case)")
        add_store_arguments(p)
    p = actions.add_parser("abort", help="end a game with no winner", description="end a game with no winner")
    p.add_argument("game", metavar="GAME_ID", help="the game to abort")
    p.add_argument("--reason", required=True, help="why (1 to 500 characters; recorded in the game's last event)")
    add_store_arguments(p)
    p = actions.add_parser("reports", help="list the reported chat lines", description="list the reported chat lines")
    p.add_argument("--json", action="store_true", help="one report a line, as JSON")
    add_store_arguments(p)


def run(args) -> int:
    with store_url(args, own=False) as url:
        lines = asyncio.run(_run(url, args))
    for line in lines:
        sys.stdout.write(line + "\n")
    return 0


async def _run(url: str, args) -> list[str]:
    from eventstore.errors import EventStoreError
    from eventstore.store import RedisEventStore

    store = RedisEventStore.from_url(url, prefix=args.key_prefix)
    try:
        if args.action in _ACCOUNT_ACTIONS:
            return await _account(store, args)
        if args.action == "abort":
            return await _abort(store, args)
        return await _reports(store, args)
    except EventStoreError as exc:
        raise CommandError(f"{where(args)}: {exc}") from None
    finally:
        await store.aclose()


async def _account(store, args) -> list[str]:
    from accounts.store import Accounts

    accounts = Accounts(store.redis, args.key_prefix)
    account, _ = await accounts.find(args.name)
    if account is None:
        raise CommandError(f"no account {args.name!r} in {where(args)}")
    if args.action in ("grant", "revoke"):
        if account.kind != "player":
            raise CommandError(f"{account.name} is a {account.kind} account: only a player may be an admin")
        await accounts.set_admin(account.id, args.action == "grant")
        return [f"{account.name} is {'an admin' if args.action == 'grant' else 'no longer an admin'}"]
    disabled = args.action == "disable"
    await accounts.set_disabled(account.id, disabled)
    if disabled:
        await accounts.close_all_sessions(account.id)
    return [f"{account.name} is {'disabled: its sessions ended' if disabled else 'enabled'}"]


async def _abort(store, args) -> list[str]:
    from pathlib import Path

    from api.moderation import AbortRefused, abort_game
    from scenarios.library import Library
    from session.games import GameCache

    library = Library(Path(args.data_dir) / "scenarios")  # the battles saved there, as the server has them
    try:
        history = await abort_game(store, GameCache(load=library.load, pin=library.pin), args.game, args.reason)
    except AbortRefused as exc:
        raise CommandError(f"game {args.game!r}: {exc.message}") from None
    return [f"game {args.game} aborted at version {history.version}: {args.reason.strip()}"]


async def _reports(store, args) -> list[str]:
    import msgspec

    from accounts.reports import Reports

    found = await Reports(store.redis, args.key_prefix).all()
    if args.json:
        return [msgspec.json.encode(r).decode() for r in found]
    if not found:
        return ["no reports"]
    return [
        f"{r.id}  game {r.game_id} v{r.version} {r.seat}: {r.text!r}  reported by {r.by}: {r.reason}" for r in found
    ]
