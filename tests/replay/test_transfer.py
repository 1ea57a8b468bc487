"""Export and import: a game exported and imported elsewhere has the same history, state and dice;
a tampered or broken export is refused with the reason."""

import asyncio
import random

import msgspec
import pytest
from replaylog import GAMES, SEED, Book

from api.cli import main
from replay import export
from replay.transfer import ImportRefused, import_log, read_log
from replay.verify import verify
from session.history import fold_envelopes, load


@pytest.fixture(scope="module")
def finished() -> Book:
    book = Book("exported-1")
    book.play_random(random.Random(21), 3000)
    assert book.history.finished is not None
    return book


async def test_export_then_import_gives_the_same_history_state_and_dice(store, finished):
    text = export.dumps(finished.envelopes)
    imported = await import_log(store, export.loads(text), GAMES)
    assert imported.game_id == finished.game_id and imported.dice_checked and not imported.already
    back = await read_log(store, finished.game_id)
    assert back == finished.envelopes
    assert export.dumps(back) == text
    history = await load(store, finished.game_id, GAMES)
    assert history.snapshot() == finished.history.snapshot()
    assert await store.get_secret(finished.game_id) == SEED
    report = verify(finished.game_id, back, GAMES)
    assert report.ok and report.dice_checked
    info = await store.get_game(finished.game_id)
    assert info.status == "finished"
    again = await import_log(store, export.loads(text), GAMES)
    assert again.already


async def test_a_tampered_or_broken_export_is_refused_with_the_reason(store, finished):
    envelopes = list(finished.envelopes)
    i = next(k for k, e in enumerate(envelopes) if e.type == "combat_resolved")
    payload = msgspec.json.decode(envelopes[i].payload)
    payload["die"] = 7 - payload["die"]
    tampered = envelopes[:i] + [msgspec.structs.replace(envelopes[i], payload=msgspec.json.encode(payload))] + envelopes[i + 1 :]
    with pytest.raises(ImportRefused) as refused:
        await import_log(store, tampered, GAMES)
    assert f"version {i + 1}: its hash does not match its contents" in refused.value.reasons
    with pytest.raises(ImportRefused) as refused:
        await import_log(store, envelopes[:10] + envelopes[11:], GAMES)
    assert "version 12 where 11 was expected" in refused.value.reasons
    assert await store.version(finished.game_id) == 0  # nothing was written


async def test_the_commands_import_replay_report_export(tmp_path, redis_url, key_prefix, finished, capsys):
    async def bluegray(*argv: str) -> int:  # in a thread: the command runs its own event loop
        return await asyncio.to_thread(main, list(argv))

    path = tmp_path / "game.jsonl"
    path.write_bytes(export.dumps(finished.envelopes))
    args = ["--redis-url", redis_url, "--key-prefix", key_prefix]
    assert (await bluegray("import", str(path), *args)) == 0
    assert "dice verified" in capsys.readouterr().out
    assert (await bluegray("replay", finished.game_id, "--to", "40", "--json", *args)) == 0
    view = msgspec.json.decode(capsys.readouterr().out)
    assert view["version"] == 40
    expected = fold_envelopes(finished.game_id, GAMES, finished.envelopes[:40]).state
    assert {u["id"]: h for h, units in view["units_by_hex"].items() for u in units} == expected.positions
    assert (await bluegray("report", str(path), "--json")) == 0
    assert msgspec.json.decode(capsys.readouterr().out)["finished"]["reason"] == "rules"
    assert (await bluegray("export", finished.game_id, *args)) == 0
    assert capsys.readouterr().out.encode() == path.read_bytes()
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:5] + path.read_bytes().splitlines(keepends=True)[6:]))
    assert (await bluegray("import", str(broken), "--redis-url", redis_url, "--key-prefix", key_prefix + "x")) == 1
    err = capsys.readouterr().err
    assert "refused" in err and "version 7 where 6 was expected" in err


async def test_sealed_envelopes_append_only_where_they_belong(store, finished):
    from eventstore.errors import ChainError, Conflict

    gid = finished.game_id
    envelopes = finished.envelopes
    with pytest.raises(ValueError):
        await store.append_sealed(gid, envelopes[1:3], 0)  # version 2 where 1 belongs
    with pytest.raises(ValueError):
        await store.append_sealed(gid, [msgspec.structs.replace(envelopes[0], time=1)], 0)  # hash no longer matches
    appended = await store.append_sealed(gid, envelopes[:5], 0)
    assert (appended.first, appended.last) == (1, 5)
    with pytest.raises(Conflict):
        await store.append_sealed(gid, envelopes[4:6], 4)  # the store is at 5 already
    other = Book("exported-1")  # the same game id, another history: its event 6 links elsewhere
    other.play_random(random.Random(99), 3)
    with pytest.raises(ChainError):
        await store.append_sealed(gid, other.envelopes[5:6], 5)
    assert [e async for e in store.read(gid)] == envelopes[:5]
