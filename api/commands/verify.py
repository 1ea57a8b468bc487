"""`bluegray verify GAME_ID|FILE`: check a game's hash chain, every state digest and, once the game
is over, every die roll (replay/verify.py). FILE is a game's log as JSON Lines (replay/export.py).
Exit code 0 when everything checks, 1 otherwise."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from api.commands._store import add_store_arguments, games_for, is_file, read_log_file, store_url, where

NAME = "verify"
HELP = "Check a game: its hash chain, the state digest of every event, and every die roll once its seed is revealed."


def add_arguments(parser) -> None:
    parser.add_argument(
        "game", metavar="GAME_ID|FILE", help="a game id in the store, or a JSON Lines log file"
    )
    add_store_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args) -> int:
    import msgspec

    from replay import export
    from replay.verify import verify

    if is_file(args.game):
        envelopes = read_log_file(Path(args.game), whole=False)
        report = verify(export.game_id_of(envelopes), envelopes, games_for(args, envelopes, Path(args.game)))
    else:
        with store_url(args, own=False) as url:
            report = asyncio.run(_verify_stored(url, args.key_prefix, args.game, where(args), args))
    if args.json:
        sys.stdout.write(msgspec.json.encode(report).decode() + "\n")
    else:
        _print(report)
    return 0 if report.ok else 1


async def _verify_stored(url: str, prefix: str, game_id: str, place: str, args):
    from eventstore.errors import EventStoreError
    from eventstore.store import RedisEventStore
    from replay.verify import Report, verify

    store = RedisEventStore.from_url(url, prefix=prefix)
    try:
        try:
            await store.verify(game_id)  # the log's chain ends at the head the store publishes
            envelopes = [e async for e in store.read(game_id)]
        except EventStoreError as exc:
            return Report(game_id=game_id, problems=[str(exc)])
        if not envelopes:
            return Report(game_id=game_id, problems=[f"no game {game_id!r} in {place}"])
        return verify(game_id, envelopes, games_for(args, envelopes))
    finally:
        await store.aclose()


def _print(report) -> None:
    verdict = "OK" if report.ok else "FAILED"
    print(f"game {report.game_id}: {verdict}")
    print(f"  events {report.events}, head {report.head or '-'}")
    print(f"  commands {report.commands}, die rolls {report.rolls} ({report.dice} dice)")
    if report.seed_hash:
        hidden = "(withheld until the pair's other game ends)" if report.seed_withheld else "(secret until the game ends)"
        print(f"  dice seed {report.seed or hidden}, sha256 {report.seed_hash}")
        print(f"  dice stream {report.dice_stream}, nonces {report.dice_nonces or '-'}")
    if report.dice_checked:
        print("  every die roll re-derived from the revealed seed, every decision re-made: all match")
    if report.finished:
        print(f"  finished: {report.reason}" + (f", {report.result}" if report.result else ""))
    for note in report.notes:
        print(f"  note: {note}")
    for problem in report.problems:
        print(f"  PROBLEM: {problem}")
