"""`bluegray export GAME_ID > game.jsonl`: every event of a game with its envelope (JSON Lines), so its
chain, digests and dice can be checked offline (`bluegray verify FILE`) and the game imported
elsewhere (`bluegray import`); `--text` prints its readable record instead (one line per action)."""

from __future__ import annotations

import sys

from api.commands._args import at_least
from api.commands._store import add_store_arguments, game_path, read_game

NAME = "export"
HELP = "Write a game's whole log as JSON Lines (every event with its envelope), or with --text its readable record."


def add_arguments(parser) -> None:
    parser.add_argument(
        "game", metavar="GAME_ID|FILE", help="a game id in the store (or an exported log, for --text)"
    )
    parser.add_argument("--to", type=at_least(1), metavar="VERSION", help="only versions 1..VERSION")
    parser.add_argument("--text", action="store_true", help="the readable record: one line per action")
    add_store_arguments(parser)


def run(args) -> int:
    from replay import export

    game_id, envelopes = read_game(args, args.to)
    if args.text:
        from replay.report import lines

        sys.stdout.write("\n".join(lines(game_id, envelopes)) + "\n")
    elif game_path(args) is not None:
        sys.stdout.buffer.write(export.dumps(envelopes, export.carried_scenario(game_path(args).read_bytes())))
    else:  # a game on a saved scenario carries it (replay/carry.py)
        from pathlib import Path

        from replay import carry
        from scenarios.library import Library

        sys.stdout.buffer.write(carry.dumps(Library(Path(args.data_dir) / "scenarios"), envelopes))
    return 0
