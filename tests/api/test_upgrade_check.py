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
import dataclasses
import hashlib
import random

import msgspec
from aiohttp.test_utils import TestClient, TestServer
from apiharness import GAMES, WsClient, new_game, play_steps

from api.app import make_app
from api.cli import main
from api.seats import Seats
from eventstore.envelope import GENESIS, NewEvent, seal
from eventstore.store import RedisEventStore
from replay.transfer import write_sealed
from session import records
from session.history import load


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


OLDER = "2026.11.23"


async def as_older_release(source: RedisEventStore, target: RedisEventStore, game_id: str) -> None:
    """`game_id` of `source` written into `target` as a release of rules OLDER would have written it:
    its game_created says so, the log is sealed again (the same events, times and digests) and
    written through the store's own append path; the game's secret, seats and index entry as they are."""
    envelopes = [e async for e in source.read(game_id)]
    created = msgspec.structs.replace(records.decode(envelopes[0].payload), rules_version=OLDER)
    sealed, prev = [], GENESIS
    for e in envelopes:
        payload = records.encode(created) if e.version == 1 else e.payload
        new = NewEvent(type=e.type, schema=e.schema, payload=payload, actor=e.actor, command_id=e.command_id, digest=e.digest)
        sealed.append(seal(new, version=e.version, time=e.time, prev=prev))
        prev = sealed[-1].hash
    await write_sealed(target, game_id, sealed)
    for key_of in (lambda s: s.keys(game_id).secret, lambda s: s.keys(game_id).info, lambda s: Seats(s).key(game_id)):
        dumped = await source.redis.dump(key_of(source))
        if dumped is not None:
            await target.redis.restore(key_of(target), 0, dumped)
    await target.redis.zadd(target.index_key, {game_id: envelopes[0].time})


async def test_a_game_of_older_rules_plays_on_when_it_folds_the_same_and_is_refused_when_not(config, store, redis_client, capsys):
    rng = random.Random(11)
    played = []
    async with TestClient(TestServer(make_app(config, games=GAMES))) as client:
        for _ in range(2):
            game, joined = await new_game(client, options={"dice": "fair"})
            union = await WsClient(client, game["game_id"], game["token"]).connect()
            confederate = await WsClient(client, game["game_id"], joined["token"]).connect()
            await play_steps(union, confederate, rng, 4)
            played.append((game, joined))
    older = RedisEventStore(redis_client, prefix=f"{config.prefix}older:")
    for game, _ in played:
        await as_older_release(store, older, game["game_id"])
    (same, same_joined), (other, _) = played
    history = await load(older, other["game_id"], GAMES)
    chat = records.encode(records.ChatSaid(seat="union", text="written by the old release"))
    digest = hashlib.sha256(b"an older rules version's state encoding" + history.digest()).digest()
    appended = await older.append(other["game_id"], [NewEvent(type="chat", payload=chat, actor="union", digest=digest)], history.version)

    on_older = dataclasses.replace(config, prefix=older.prefix)
    async with TestClient(TestServer(make_app(on_older, games=GAMES))) as client:
        union = await WsClient(client, same["game_id"], same["token"]).connect()
        confederate = await WsClient(client, same["game_id"], same_joined["token"]).connect()
        before = union.version
        await play_steps(union, confederate, rng, 3)  # folds the same: it plays on
        assert union.version > before
        ws = await client.ws_connect("/ws")
        await ws.send_json({"type": "hello", "game_id": other["game_id"], "last_version": 0, "token": other["token"]})
        refused = await ws.receive_json()
        assert refused["type"] == "error" and f"played under rules {OLDER}" in refused["message"]
        assert f"at version {appended.last}" in refused["message"] and "upgrade-check" in refused["message"]
        await ws.close()
    argv = ["upgrade-check", "--redis-url", config.redis_url, "--key-prefix", older.prefix]
    assert await asyncio.to_thread(main, argv) == 1
    out = capsys.readouterr().out
    assert f"game {other['game_id']} (rules {OLDER}): WOULD CHANGE at version {appended.last} (chat)" in out
    assert f"game {same['game_id']} (rules {OLDER}): unchanged" in out
