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

    def begin(game_id: str, **seat) -> None:
        task = asyncio.create_task(play(url, game_id, level=level, **seat))
        playing[game_id] = task
        task.add_done_callback(lambda t: _ended(game_id, t, playing, results))

    async with aiohttp.ClientSession(base_url=url, headers=headers) as http:
        name = await _bot_name(http)
        try:
            while games is None or len(results) + len(playing) < games:
                waiting = await _waiting(http, playing)
                for game_id in waiting[: None if games is None else games - len(results) - len(playing)]:
                    log.info("bot %s: playing its seat of game %s", name, game_id)
                    begin(game_id, bot_token=token)
                if waiting or playing:
                    await asyncio.sleep(poll)
                    continue
                started = await _seek_accepted(http, name, poll)
                if started is None:
                    continue
                log.info("bot %s: playing %s in game %s", name, started["seat"], started["game_id"])
                begin(started["game_id"], token=started["token"])
            while playing:
                await asyncio.gather(*playing.values(), return_exceptions=True)
        finally:
            for task in playing.values():
                task.cancel()
    return results


def _ended(game_id: str, task: asyncio.Task, playing: dict[str, asyncio.Task], results: list[str]) -> None:
    """A game's task done: no longer playing, and its result (or "failed") noted unless cancelled."""
    playing.pop(game_id, None)
    if task.cancelled():
        return
    if task.exception() is not None:
        log.warning("bot: game %s: %s", game_id, task.exception())
        results.append("failed")
    else:
        log.info("bot: game %s ended: %s", game_id, task.result())
        results.append(task.result() or "ended")


async def _bot_name(http: aiohttp.ClientSession) -> str:
    """The bot account's name (GET /api/me); a RuntimeError when the server refuses the token."""
    async with http.get("/api/me") as me:
        if me.status != 200:
            raise RuntimeError(f"the server refused this bot token (HTTP {me.status})")
        return (await me.json())["name"]


async def _waiting(http: aiohttp.ClientSession, playing: dict[str, asyncio.Task]) -> list[str]:
    """The games waiting for the bot's move that it is not playing yet."""
    async with http.get("/api/me/games", params={"your_move": "true"}) as answer:
        return [g["game_id"] for g in (await answer.json())["games"] if g["game_id"] not in playing]


async def _seek_accepted(http: aiohttp.ClientSession, name: str, poll: float) -> dict | None:
    """An open seek of another accepted: the game started; None when there is none (after waiting
    `poll` seconds) or another took it first."""
    async with http.get("/api/lobby") as answer:
        seeks = [s for s in (await answer.json())["seeks"] if s["by"] != name]
    if not seeks:
        await asyncio.sleep(poll)
        return None
    async with http.post(f"/api/lobby/{seeks[-1]['id']}/accept", json={}) as accepted:
        if accepted.status != 201:  # another took it first: look again
            return None
        return await accepted.json()
