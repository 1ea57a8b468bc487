"""`bluegray verify GAME_ID|FILE` on a finished game: every roll re-derived; a tampered file refused."""

import asyncio
import json
import random
import sys

import msgspec
from apiharness import WsClient, new_game, play_until

from eventstore.envelope import GENESIS, chain_hash
from replay import export


async def bluegray(*args: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "api", *args, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await process.communicate()
    return process.returncode, out.decode()


async def test_verify_a_stored_game_and_its_exported_file(client, store, redis_url, key_prefix, tmp_path):
    game, joined = await new_game(client, options={"dice": "fair"})
    gid = game["game_id"]
    union = await WsClient(client, gid, game["token"]).connect()
    confederate = await WsClient(client, gid, joined["token"]).connect()
    await play_until(union, confederate, random.Random(3), lambda h: h.session.last_roll() > 0)
    ack = await union.act("resign")
    await union.until_version(ack.last)

    code, out = await bluegray("verify", gid, "--redis-url", redis_url, "--key-prefix", key_prefix, "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"] and report["dice_checked"] and report["rolls"] > 0
    assert report["reason"] == "resignation" and report["head"] == union.events[-1].hash.hex()

    log = tmp_path / "game.jsonl"
    envelopes = [e async for e in store.read(gid)]
    log.write_bytes(export.dumps(envelopes))
    code, out = await bluegray("verify", str(log))
    assert code == 0 and "OK" in out and "re-derived" in out

    lines = log.read_bytes().splitlines()
    lines[10] = lines[10].replace(b'"time":', b'"time":1')
    log.write_bytes(b"\n".join(lines))
    code, out = await bluegray("verify", str(log))
    assert code == 1 and "PROBLEM" in out

    code, out = await bluegray("verify", "nosuchgame", "--redis-url", redis_url, "--key-prefix", key_prefix)
    assert code == 1 and "no game" in out


def _rechained(envelopes, index, **changes):
    """The log with envelope `index` changed and the chain recomputed with the public chain_hash."""
    out = list(envelopes[:index])
    for e in envelopes[index:]:
        if e.version == envelopes[index].version:
            e = msgspec.structs.replace(e, **changes)
        prev = out[-1].hash if out else GENESIS
        fields = {
            f: getattr(e, f)
            for f in ("version", "type", "schema", "payload", "actor", "command_id", "time", "digest")
        }
        out.append(msgspec.structs.replace(e, prev=prev, hash=chain_hash(prev=prev, **fields)))
    return out


async def test_a_forged_winner_or_actor_is_refused_by_verify_and_import(client, store, tmp_path):
    game, joined = await new_game(client, options={"dice": "fair"})
    gid = game["game_id"]
    union = await WsClient(client, gid, game["token"]).connect()
    confederate = await WsClient(client, gid, joined["token"]).connect()
    await play_until(union, confederate, random.Random(5), lambda h: h.version > 12)
    ack = await union.act("resign")
    await union.until_version(ack.last)
    envelopes = [e async for e in store.read(gid)]
    finished = json.loads(envelopes[-1].payload)
    assert finished["winner"] == "confederate"

    forged_winner = _rechained(
        envelopes,
        len(envelopes) - 1,
        payload=envelopes[-1].payload.replace(b'"winner":"confederate"', b'"winner":"union"'),
    )
    command = next(e for e in envelopes if e.type == "command")
    forged_actor = _rechained(
        envelopes, command.version - 1, actor="confederate" if command.actor == "union" else "union"
    )
    for forged, version, what in [
        (forged_winner, envelopes[-1].version, "game_finished winner"),
        (forged_actor, command.version, "command actor"),
    ]:
        log = tmp_path / f"forged-{version}.jsonl"
        log.write_bytes(export.dumps(forged))
        code, out = await bluegray("verify", str(log), "--json")
        report = json.loads(out)
        assert code == 1 and not report["ok"], out
        assert (
            report["mismatch"]["version"] == version
            and f"version {version}: {what} is" in report["problems"][0]
        )
        code, out, err = await bluegray_err(
            "import", str(log), "--data-dir", str(tmp_path / f"var-{version}")
        )
        assert code != 0 and f"version {version}: {what} is" in err, (out, err)
        assert not (tmp_path / f"var-{version}").exists()  # refused before any store was made


async def bluegray_err(*args: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "api", *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await process.communicate()
    return process.returncode, out.decode(), err.decode()
