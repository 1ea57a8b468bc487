"""The game index (non-authoritative) and the per-game secret."""

import uuid

import pytest

from eventstore.envelope import NewEvent
from eventstore.errors import GameExists, SecretExists


async def test_created_games_are_listed_newest_first_in_pages(store):
    ids = [f"game-{i}" for i in range(7)]
    for i, g in enumerate(ids):
        await store.create_game(g, scenario="chickamauga" if i % 2 else "shiloh")
        await store.redis.zadd(store.index_key, {g: 1000 + i})  # distinct creation times
    page, next_offset = await store.list_games(limit=3)
    assert [g.game_id for g in page] == ["game-6", "game-5", "game-4"] and next_offset == 3
    page, next_offset = await store.list_games(offset=next_offset, limit=3)
    assert [g.game_id for g in page] == ["game-3", "game-2", "game-1"] and next_offset == 6
    page, next_offset = await store.list_games(offset=next_offset, limit=3)
    assert [g.game_id for g in page] == ["game-0"] and next_offset is None
    assert {g.scenario for g in (await store.list_games(limit=10))[0]} == {"chickamauga", "shiloh"}


async def test_games_can_be_filtered_by_status(store):
    for i in range(6):
        await store.create_game(f"g{i}", scenario="shiloh")
    for g in ("g1", "g4"):
        await store.set_status(g, "ended")
    ended, more = await store.list_games(status="ended", limit=5)
    assert sorted(g.game_id for g in ended) == ["g1", "g4"] and more is None
    first, more = await store.list_games(status="open", limit=2)
    rest, _ = await store.list_games(status="open", offset=more, limit=10)
    assert len(first) == 2 and {g.game_id for g in first + rest} == {"g0", "g2", "g3", "g5"}
    assert (await store.get_game("g4")).status == "ended"
    assert await store.get_game("nope") is None
    with pytest.raises(KeyError):
        await store.set_status("nope", "ended")


async def test_a_game_is_created_once(store):
    await store.create_game("g", scenario="shiloh")
    with pytest.raises(GameExists):
        await store.create_game("g", scenario="antietam")
    assert (await store.get_game("g")).scenario == "shiloh"


async def test_the_secret_is_set_once_and_kept_out_of_events_and_snapshots(store):
    g = uuid.uuid4().hex
    secret = b"\x17seed-of-the-dice\x99" * 2
    assert await store.get_secret(g) is None
    await store.put_secret(g, secret)
    await store.put_secret(g, secret)  # the same again is fine
    with pytest.raises(SecretExists):
        await store.put_secret(g, b"another")
    assert await store.get_secret(g) == secret
    await store.append(g, [NewEvent(type="created", payload=b"commitment")], 0)
    await store.put_snapshot(g, 1, b"state", code_version="v1")
    for key in (store.keys(g).log, store.keys(g).snap, store.keys(g).meta):
        assert secret not in (await store.redis.dump(key))
