"""The built-in computer opponent as a bot on the ladder: with a bot account's API token (api/bots.py)
it accepts open seeks from the lobby and plays each game to its end with the engine
(api/computer.py `play`), one game at a time, through the same API as any client."""

from __future__ import annotations

import asyncio
import logging

import aiohttp

from api.computer import play

log = logging.getLogger(__name__)


async def serve_seeks(url: str, token: str, *, level: str = "normal", games: int | None = None, poll: float = 2.0) -> list[str]:
    """Accept seeks (not the bot's own) and play them, until `games` are played (None: forever).
    The results, in order."""
    headers = {"Authorization": f"Bearer {token}"}
    results: list[str] = []
    async with aiohttp.ClientSession(base_url=url, headers=headers) as http:
        async with http.get("/api/me") as me:
            if me.status != 200:
                raise RuntimeError(f"the server refused this bot token (HTTP {me.status})")
            name = (await me.json())["name"]
        while games is None or len(results) < games:
            async with http.get("/api/lobby") as answer:
                seeks = [s for s in (await answer.json())["seeks"] if s["by"] != name]
            if not seeks:
                await asyncio.sleep(poll)
                continue
            async with http.post(f"/api/lobby/{seeks[-1]['id']}/accept", json={}) as accepted:
                if accepted.status != 201:  # another took it first: look again
                    continue
                started = await accepted.json()
            log.info("bot %s: playing %s in game %s", name, started["seat"], started["game_id"])
            result = await play(url, started["game_id"], token=started["token"], level=level)
            log.info("bot %s: game %s ended: %s", name, started["game_id"], result)
            results.append(result or "ended")
    return results
