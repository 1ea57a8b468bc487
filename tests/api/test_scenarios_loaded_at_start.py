"""The scenario list is loaded as the server starts (api/app.py ``_scenarios``, in a thread): the first
``GET /api/scenarios`` is answered from the games' cache, and one made while the loading runs waits
for it instead of loading every scenario a second time."""

import asyncio
import threading

from aiohttp.test_utils import TestClient, TestServer

from api.app import make_app
from replay.games import GameCache
from scenarios.loader import list_scenarios, load

SHIPPED = [sid for sid, _ in list_scenarios()]  # in the list's order


def counting_games(go: threading.Event | None = None) -> tuple[GameCache, list[str]]:
    """A GameCache of its own (nothing loaded yet) and the ids its loader was asked for, in order;
    with ``go``, each load waits for it (5 s at most: a test that fails does not hang)."""
    asked: list[str] = []

    def loading(sid):
        asked.append(sid)
        if go is not None:
            go.wait(5)
        return load(sid)

    return GameCache(load=loading), asked


async def test_every_scenario_is_loaded_as_the_server_starts_before_any_request(config):
    games, asked = counting_games()
    app = make_app(config, games=games)
    assert asked == []  # making the app loads nothing
    async with TestClient(TestServer(app)) as client:
        for _ in range(200):  # no request made: the server loads them on its own
            if len(asked) >= len(SHIPPED):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.1)
        assert asked == SHIPPED
        listed = await (await client.get("/api/scenarios")).json()
        assert [s["id"] for s in listed] == SHIPPED
        assert asked == SHIPPED  # answered from memory: none loaded again


async def test_a_request_made_while_they_load_waits_for_them(config):
    go = threading.Event()
    games, asked = counting_games(go)
    async with TestClient(TestServer(make_app(config, games=games))) as client:
        request = asyncio.ensure_future(client.get("/api/scenarios"))
        await asyncio.sleep(0.3)
        assert asked == SHIPPED[:1] and not request.done()  # the start's loading holds at the first
        go.set()
        listed = await (await request).json()
        assert [s["id"] for s in listed] == SHIPPED
        assert asked == SHIPPED  # each one loaded once, by the start's loading
