"""`bluegray upgrade-check` (api/commands/upgrade_check.py): every live game folded under the installed
rules, each command decided again with its dice (the secret seed read from the store); a game whose
log an older rules version wrote differently is reported with the first differing event, an
untouched one is not; exit 1 when one would change, else 0.

The older version is simulated honestly through the store's own append path: a `chat` record
appended as a server whose state digest differed (an older rules version hashing the same state
otherwise) would have written it: a log whose chain is whole, which the current rules do not fold
to the digest it recorded. Nothing in the test bypasses the store or edits an event in place."""

from __future__ import annotations

import asyncio
import hashlib
import random

from aiohttp.test_utils import TestClient, TestServer
from apiharness import GAMES, WsClient, new_game, play_steps

from api.app import make_app
from api.cli import main
from eventstore.envelope import NewEvent
from replay import records
from replay.history import load


async def test_a_game_written_under_other_rules_is_reported_and_an_untouched_one_is_not(config, store, capsys):
    rng = random.Random(7)
    ids = []
    async with TestClient(TestServer(make_app(config, games=GAMES))) as client:
        for _ in range(2):
            game, joined = await new_game(client, options={"dice": "fair"})
            union = await WsClient(client, game["game_id"], game["token"]).connect()
            confederate = await WsClient(client, game["game_id"], joined["token"]).connect()
            await play_steps(union, confederate, rng, 5)
            ids.append(game["game_id"])
    untouched, changed = ids
    argv = ["upgrade-check", "--redis-url", config.redis_url, "--key-prefix", config.prefix]
    assert await asyncio.to_thread(main, argv) == 0  # fair dice, still secret: decided again with the stored seed
    out = capsys.readouterr().out
    assert "2 live games checked" in out and "0 would change" in out

    history = await load(store, changed, GAMES)
    older_digest = hashlib.sha256(b"an older rules version's state encoding" + history.digest()).digest()
    chat = records.encode(records.ChatSaid(seat="union", text="written by the old release"))
    appended = await store.append(changed, [NewEvent(type="chat", payload=chat, actor="union", digest=older_digest)], history.version)
    assert await asyncio.to_thread(main, argv) == 1
    out = capsys.readouterr().out
    assert f"game {changed} (rules " in out and f"WOULD CHANGE at version {appended.last} (chat)" in out
    assert [line for line in out.splitlines() if line.startswith(f"game {untouched}")][0].endswith("unchanged")
    assert "2 live games checked" in out and "1 would change" in out
