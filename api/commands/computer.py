"""`bluegray computer --url URL --game ID (--invite CODE | --token TOKEN)`: the computer opponent plays
a seat of a game on a running server, as a client of it, until the game ends (api/computer.py)."""

from __future__ import annotations

import asyncio
import logging

from api.commands._errors import CommandError

NAME = "computer"
HELP = "The computer opponent plays a seat of a game on a running server, as a client, to the end."


def add_arguments(parser) -> None:
    parser.add_argument("--url", default="http://127.0.0.1:8080", help="the server (default http://127.0.0.1:8080)")
    parser.add_argument("--game", required=True, help="the game's id")
    seat = parser.add_mutually_exclusive_group(required=True)
    seat.add_argument("--invite", help="the invite code of the free seat (the computer joins with it)")
    seat.add_argument("--token", help="the token of a seat already taken")
    parser.add_argument("--level", default="normal", help="easy, normal, hard or expert (default normal)")


def run(args) -> int:
    from urllib.parse import urlsplit

    from api.computer import play
    from players.levels import COMPUTER_LEVELS as LEVELS

    url = urlsplit(args.url)
    if url.scheme not in ("http", "https") or not url.hostname or url.path not in ("", "/") or url.query:
        raise CommandError(f"--url {args.url}: a server's address is http://HOST:PORT (no path)")
    args.url = f"{url.scheme}://{url.netloc}"
    if args.level not in LEVELS:
        raise CommandError(f"--level {args.level}: no such level (known: {', '.join(LEVELS)})")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    try:
        result = asyncio.run(play(args.url, args.game, invite=args.invite, token=args.token, level=args.level))
    except RuntimeError as e:
        raise CommandError(str(e)) from None
    print(f"game {args.game}: {result}")
    return 0
