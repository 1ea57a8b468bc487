"""The built-in computer opponent as a bot on the ladder: with a bot account's API token (api/bots.py)
it plays, through the same API as any client, every game waiting for its move (GET
/api/me/games?your_move=1: a tournament's games, api/tournament_director.py, each seat bound to its
account), all of them at once, each to its end with the engine (api/computer.py `play`); and when it
has none, it accepts an open seek from the lobby and plays it."""

from __future__ import annotations

import asyncio
import logging

import aiohttp

from api.computer import play

log = logging.getLogger(__name__)


async def serve_seeks(url: str, token: str, *, level: str = "normal", games: int | None = None, poll: float = 2.0) -> list[str]:
    """Play the games waiting for the bot, and accept seeks (not the bot's own) while it has none,
    until `games` are played (None: forever). The results, in the order the games ended."""
    headers = {"Authorization": f"Bearer {token}"}
    results: list[str] = []
    playing: dict[str, asyncio.Task] = {}

    def done(game_id: str, task: asyncio.Task) -> None:
        playing.pop(game_id, None)
        if task.cancelled():
            return
        if task.exception() is not None:
            log.warning("bot: game %s: %s", game_id, task.exception())
            results.append("failed")
        else:
            log.info("bot: game %s ended: %s", game_id, task.result())
            results.append(task.result() or "ended")

    def begin(game_id: str, **seat) -> None:
        task = asyncio.create_task(play(url, game_id, level=level, **seat))
        playing[game_id] = task
        task.add_done_callback(lambda t: done(game_id, t))

    async with aiohttp.ClientSession(base_url=url, headers=headers) as http:
        async with http.get("/api/me") as me:
            if me.status != 200:
                raise RuntimeError(f"the server refused this bot token (HTTP {me.status})")
            name = (await me.json())["name"]
        try:
            while games is None or len(results) + len(playing) < games:
                async with http.get("/api/me/games", params={"your_move": "true"}) as answer:
                    waiting = [g["game_id"] for g in (await answer.json())["games"] if g["game_id"] not in playing]
                for game_id in waiting[: None if games is None else games - len(results) - len(playing)]:
                    log.info("bot %s: playing its seat of game %s", name, game_id)
                    begin(game_id, bot_token=token)
                if waiting or playing:
                    await asyncio.sleep(poll)
                    continue
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
                begin(started["game_id"], token=started["token"])
            while playing:
                await asyncio.gather(*playing.values(), return_exceptions=True)
        finally:
            for task in playing.values():
                task.cancel()
    return results
