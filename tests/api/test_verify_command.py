"""`bluegray verify GAME_ID|FILE` on a finished game: every roll re-derived; a tampered file refused."""

import asyncio
import json
import random
import sys

from apiharness import WsClient, new_game, play_until

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
