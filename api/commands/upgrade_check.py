"""`bluegray upgrade-check`: before a deploy, fold every live game of the store (with --all the finished
ones too) under the rules installed here and say which would change: a game whose recorded events
(their state digests, the fields the fold derives, the rules events each command gave with its
dice, decided again with the game's secret seed read from the store) are not what these rules give,
naming the first event that differs. Run it with the new release's `bluegray`, on the live store.
Exit 0 when no game would change, 1 when one would."""

from __future__ import annotations

import asyncio

import msgspec

from api.commands._errors import CommandError
from api.commands._store import add_store_arguments, games_for, store_url, where
from api.commands._text import plural

NAME = "upgrade-check"
HELP = "Re-fold every live game under the installed rules and report which would change (exit 1 if one would)."


def add_arguments(parser) -> None:
    add_store_arguments(parser)
    parser.add_argument("--all", action="store_true", help="check the finished games too (default: the live ones only)")
    parser.add_argument("--json", action="store_true", help="one JSON object per game checked, then the summary")


class Checked(msgspec.Struct, frozen=True, kw_only=True):
    """One game: its rules version, whether these rules would change it, and where first."""

    game_id: str
    rules_version: str
    finished: bool
    changes: bool
    version: int = 0
    type: str = ""
    problem: str = ""


def run(args) -> int:
    from rules import RULES_VERSION

    with store_url(args, own=False) as url:
        checked = asyncio.run(_check_all(url, args))
    changing = [c for c in checked if c.changes]
    for c in checked:
        if args.json:
            print(msgspec.json.encode(c).decode())
        elif c.changes:
            print(f"game {c.game_id} (rules {c.rules_version}): WOULD CHANGE at version {c.version} ({c.type}): {c.problem}")
        else:
            print(f"game {c.game_id} (rules {c.rules_version}): unchanged")
    kind = "game" if args.all else "live game"
    print(f"upgrade-check under rules {RULES_VERSION}: {plural(len(checked), kind)} checked in {where(args)}, "
          f"{len(changing)} would change")
    return 1 if changing else 0


async def _check_all(url: str, args) -> list[Checked]:
    from eventstore.errors import EventStoreError
    from eventstore.store import RedisEventStore
    from replay.verify import verify

    store = RedisEventStore.from_url(url, prefix=args.key_prefix)
    out = []
    try:
        try:
            ids = [i.decode() for i in await store.redis.zrange(store.index_key, 0, -1)]
        except EventStoreError as exc:
            raise CommandError(f"cannot list the games of {where(args)}: {exc}") from None
        for game_id in sorted(ids):
            try:
                envelopes = [e async for e in store.read(game_id)]
                seed = await store.get_secret(game_id)
            except EventStoreError as exc:
                out.append(Checked(game_id=game_id, rules_version="?", finished=False, changes=True, problem=str(exc)))
                continue
            if not envelopes:
                continue
            finished = any(e.type == "game_finished" for e in envelopes)
            if finished and not args.all:
                continue
            report = verify(game_id, envelopes, games_for(args, envelopes), seed=seed)
            out.append(Checked(
                game_id=game_id, rules_version=report.rules_version or "?", finished=finished, changes=not report.ok,
                version=report.differs_at, type=report.differs_type, problem="; ".join(report.problems),
            ))
    finally:
        await store.aclose()
    return out
