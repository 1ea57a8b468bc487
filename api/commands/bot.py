"""`bluegray bot --url URL --token BOT_TOKEN`: the computer opponent as a bot account on a server's
ladder: it accepts open seeks and plays them (api/bot_client.py)."""

from __future__ import annotations

import asyncio
import logging
import os

from api.commands import _args
from api.commands._errors import CommandError

NAME = "bot"
HELP = "The computer opponent as a bot account: accept open seeks on a server and play them, one at a time."


def add_arguments(parser) -> None:
    parser.add_argument("--url", default="http://127.0.0.1:8080", help="the server (default http://127.0.0.1:8080)")
    parser.add_argument(
        "--token", default=os.environ.get("BLUEGRAY_BOT_TOKEN"),
        help="the bot account's API token, bgb_... (POST /api/me/bots makes one) [env BLUEGRAY_BOT_TOKEN]",
    )
    parser.add_argument("--level", default="normal", help="easy, normal, hard or expert (default normal)")
    parser.add_argument("--games", type=_args.at_least(1), help="stop after this many games (default: go on)")


def run(args) -> int:
    from api.bot_client import serve_seeks
    from players.levels import COMPUTER_LEVELS as LEVELS

    if not args.token or not args.token.startswith("bgb_"):
        raise CommandError("--token: a bot's API token (bgb_...) is needed")
    if args.level not in LEVELS:
        raise CommandError(f"--level {args.level}: no such level (known: {', '.join(LEVELS)})")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    import aiohttp

    try:
        results = asyncio.run(serve_seeks(args.url.rstrip("/"), args.token, level=args.level, games=args.games))
    except (aiohttp.ClientError, OSError) as e:
        raise CommandError(f"cannot reach the server at {args.url}: {e}") from None
    except RuntimeError as e:
        raise CommandError(str(e)) from None
    print(f"played {len(results)} game(s): {', '.join(results)}")
    return 0
