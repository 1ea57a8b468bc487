"""The server's computer opponents: one `bluegray computer` process per game that asked for one
(`POST /api/games` with `"computer": LEVEL`), started with the invite of the free seat and the
address this server answered on. It plays as any client does (api/computer.py); the server only
starts it, and stops the ones still running when it shuts down. Its warnings go to the server's
standard error.

Left out: a computer whose process dies, or whose server restarts, is not started again; its seat
waits like any silent player's (the opponent may claim the game after `silence_seconds`).
"""

from __future__ import annotations

import asyncio
import logging
import sys

log = logging.getLogger(__name__)


def command_line(url: str, game_id: str, invite: str | None, level: str, token: str | None = None) -> list[str]:
    """The arguments of ``bluegray computer`` for a game: with the free seat's invite, or the token of
    a seat already taken (a sandbox's). ``--invite=CODE``: an invite code may begin with "-"
    (token_urlsafe), which argparse would take for an option ("argument --invite: expected one
    argument": the computer never joined); a token likewise."""
    seat = f"--invite={invite}" if token is None else f"--token={token}"
    return ["computer", "--url", url, "--game", game_id, seat, "--level", level]


class Opponents:
    """The computer processes this server started, by game."""

    def __init__(self) -> None:
        self.running: dict[str, asyncio.subprocess.Process] = {}

    async def start(self, url: str, game_id: str, invite: str | None, level: str, token: str | None = None) -> None:
        """Start the computer for a game's seat: the free one (``invite``), or one taken (``token``)."""
        command = [sys.executable, "-m", "api", *command_line(url, game_id, invite, level, token)]
        self.running[game_id] = await asyncio.create_subprocess_exec(
            *command, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL
        )
        log.info("computer opponent (%s) for game %s: process %d", level, game_id, self.running[game_id].pid)

    async def stop(self) -> None:
        for process in self.running.values():
            if process.returncode is None:
                process.terminate()
        for process in self.running.values():
            try:
                await asyncio.wait_for(process.wait(), 5)
            except TimeoutError:
                process.kill()
        self.running.clear()
