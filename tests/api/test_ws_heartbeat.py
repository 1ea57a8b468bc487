"""The websocket heartbeat: a peer that stops answering pings is dropped, and what it held (its
place among the game's connections, the game's live tail subscription) is freed."""

import asyncio

import aiohttp
from apiharness import PATIENCE, new_game

from api.app_keys import LIVE, TAIL


async def eventually(condition, what: str) -> None:
    for _ in range(PATIENCE * 100):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


async def test_a_peer_that_stops_answering_pings_is_dropped_and_its_game_freed(make_client):
    server = await make_client(heartbeat=0.2)  # a ping every 0.2 s, its pong due within 0.1 s
    app = server.server.app
    silent_game, _ = await new_game(server)
    lively_game, _ = await new_game(server)
    silent_id, lively_id = silent_game["game_id"], lively_game["game_id"]

    # A player whose client never answers a ping (autoping off, and nothing reads its socket).
    silent = await server.ws_connect("/ws", autoping=False)
    await silent.send_json({"type": "hello", "game_id": silent_id, "token": silent_game["token"]})
    assert (await silent.receive_json())["type"] == "welcome"
    # A spectator of another game whose client answers the same pings (it reads; aiohttp pongs).
    lively = await server.ws_connect("/ws")
    await lively.send_json({"type": "hello", "game_id": lively_id, "spectate": True})
    assert (await lively.receive_json())["type"] == "welcome"

    async def read(ws):
        async for _ in ws:
            pass

    reader = asyncio.create_task(read(lively))
    await eventually(lambda: app[LIVE].peek(silent_id) is not None, "the silent player's game is live")

    await eventually(lambda: app[LIVE].peek(silent_id) is None, "the silent player is dropped and his game closed")
    await eventually(lambda: not app[TAIL].follows(silent_id), "the live tail stops following his game")
    kinds = []  # what reached the silent client: its events, the unanswered pings, then the close
    while not kinds or kinds[-1] in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.PING):
        kinds.append((await silent.receive()).type)
    assert aiohttp.WSMsgType.PING in kinds and kinds[-1] in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    # The spectator who answered is still there, and his game still followed.
    live = app[LIVE].peek(lively_id)
    assert live is not None and len(live.conns) == 1 and not lively.closed and not reader.done()
    assert app[TAIL].follows(lively_id)
    reader.cancel()
    await lively.close()
    await silent.close()
