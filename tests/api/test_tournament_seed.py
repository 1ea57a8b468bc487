"""A duplicate pair's dice seed stays secret until both of its games have ended (issue 34).

Both games of a pair roll the same dice (tournaments/dice.py), so the first to end must not reveal
the seed while the other is still played: its ``game_finished`` withholds it (``seed_withheld``),
and the director appends ``seed_revealed`` to both games once the second has ended. While the
second game runs, nothing a spectator or a player can ask for holds the seed: the export, the
report (JSON and page), GET /api/games/{id}, the websocket's events and snapshot, and GET
/api/tournaments/{id}; afterwards the export holds it and `bluegray verify` checks every roll."""

from __future__ import annotations

import random

from apiharness import GAMES, WsClient, play_until
from test_accounts import browser, register
from test_lobby import post
from test_moderation import cli
from test_verify_command import bluegray

from api.accounts import CSRF_HEADER
from api.app_keys import TOURNAMENTS
from replay import export
from replay.verify import verify
from tournaments import dice as pair_dice

TERMS = {"name": "Pair Cup", "scenario": "chattanooga", "kind": "round_robin", "duplicate": True, "max_players": 2}
WITHHELD = "dice seed withheld until the pair's other game ends"


async def holds(client, game_id: str, secrets: list[str]) -> list[str]:
    """Which of the game's and its tournament's endpoints hold any of `secrets` (hex), in their
    bodies or in the payloads of the events they carry; a spectator's websocket too."""
    found = []
    for path in (f"/api/games/{game_id}", f"/api/games/{game_id}/report", f"/games/{game_id}/report",
                 f"/api/games/{game_id}/export"):
        answer = await client.get(path)
        assert answer.status == 200, (path, answer.status)
        body = await answer.read()
        if path.endswith("/export"):  # each envelope's payload is base64 in the file: look inside too
            body += b"".join(e.payload for e in export.loads(body))
        if any(s.encode() in body for s in secrets):
            found.append(path)
    watcher = await WsClient(client, game_id).connect()  # a spectator: every event and the snapshot
    seen = b"".join(e.payload for e in watcher.events) + b"".join(repr(m).encode() for m in watcher.inbox)
    await watcher.close()
    if any(s.encode() in seen for s in secrets):
        found.append("websocket")
    return found


async def started(client, lee_session) -> tuple[dict, dict]:
    """A duplicate-pair tournament of Grant (signed in on `client`) and Lee (on `lee_session`),
    started: (Grant's account, the tournament)."""
    grant = await register(client, "Grant")
    made = await client.post("/api/tournaments", json=TERMS, headers={CSRF_HEADER: grant["csrf"]})
    tid = (await made.json())["id"]
    await client.post(f"/api/tournaments/{tid}/enter", json={}, headers={CSRF_HEADER: grant["csrf"]})
    lee = await register(lee_session, "Lee")
    await lee_session.post(f"/api/tournaments/{tid}/enter", json={}, headers={CSRF_HEADER: lee["csrf"]})
    t = await (await client.post(f"/api/tournaments/{tid}/start", json={}, headers={CSRF_HEADER: grant["csrf"]})).json()
    return grant, t


async def test_the_first_game_of_a_pair_to_end_withholds_the_seed_until_the_second_ends(client, store, tmp_path):
    director = client.app[TOURNAMENTS]
    async with browser(client) as lee_session:
        _, t = await started(client, lee_session)
        tid = t["id"]
        (pair,) = t["round_list"][0]["pairings"]
        first, second = (g["game_id"] for g in pair["games"])  # Grant is Union in the first, Lee in the second
        seat = {first: (client, lee_session), second: (lee_session, client)}  # (union, confederate)
        seed = await store.get_secret(first)
        assert seed == await store.get_secret(second)  # one pair, one seed
        master = await director.logs.get_secret(tid)
        assert pair_dice.pair_seed(master, pair["pair_id"]) == seed
        secrets = [seed.hex(), master.hex()]

        async def play_and_resign(game_id: str) -> None:
            union_session, confederate_session = seat[game_id]
            union = await WsClient(union_session, game_id).connect(spectate=False)
            confederate = await WsClient(confederate_session, game_id).connect(spectate=False)
            await play_until(union, confederate, random.Random(5), lambda h: h.session.last_roll() > 0)
            ack = await confederate.act("resign")
            await union.until_version(ack.last)
            assert union.history.finished.reason == "resignation"
            await union.close()
            await confederate.close()
            await director.idle()  # the director has heard the end and done what it had to

        await play_and_resign(first)
        # the first game is over, the second is being played: the seed is nowhere to be had
        log = [e async for e in store.read(first)]
        assert log[-1].type == "game_finished"
        report = verify(first, log, GAMES)
        assert report.ok and not report.dice_checked and report.seed is None
        assert report.seed_withheld == pair["pair_id"] and any(WITHHELD in n for n in report.notes)
        for game_id in (first, second):
            assert await holds(client, game_id, secrets) == [], game_id
        tournament = await client.get(f"/api/tournaments/{tid}")
        body = await tournament.read()
        assert tournament.status == 200 and not any(s.encode() in body for s in secrets)
        path = tmp_path / "first.jsonl"
        path.write_bytes(await (await client.get(f"/api/games/{first}/export")).read())
        code, text = await bluegray("verify", str(path))
        assert code == 0 and f"game {first}: OK" in text and WITHHELD in text, text
        assert "re-derived from the revealed seed" not in text
        text = await (await client.get(f"/api/games/{first}/export?text=1")).text()
        assert WITHHELD in text and "dice seed revealed" not in text  # the readable record says so too

        await play_and_resign(second)
        # both games have ended: each log reveals the seed after its game_finished, and verifies
        for game_id in (first, second):
            log = [e async for e in store.read(game_id)]
            assert [e.type for e in log[-2:]] == ["game_finished", "seed_revealed"]
            report = verify(game_id, log, GAMES)
            assert report.ok and report.dice_checked and report.rolls > 0 and report.seed == seed.hex(), report
            view = await (await client.get(f"/api/games/{game_id}")).json()
            assert view["finished"]["seed"] == seed.hex() and view["finished"]["seed_withheld"] == pair["pair_id"]
            path = tmp_path / f"{game_id}.jsonl"
            path.write_bytes(await (await client.get(f"/api/games/{game_id}/export")).read())
            code, text = await bluegray("verify", str(path))
            assert code == 0 and f"dice seed {seed.hex()}" in text and "re-derived from the revealed seed" in text, text
            text = await (await client.get(f"/api/games/{game_id}/export?text=1")).text()
            assert f"dice seed revealed: both games of the pair {pair['pair_id']} have ended" in text
        assert (await (await client.get(f"/api/tournaments/{tid}")).json())["master_seed"] == master.hex()


async def test_an_aborted_game_whose_pair_partner_is_a_double_loss_reveals_its_seed_at_the_deadline(client, store, config):
    director = client.app[TOURNAMENTS]
    async with browser(client) as lee_session:
        grant, t = await started(client, lee_session)
        (pair,) = t["round_list"][0]["pairings"]
        first, second = (g["game_id"] for g in pair["games"])
        seed = await store.get_secret(first)
        assert await cli(config, "admin", "grant", "Grant") == 0
        done = await post(client, f"/api/admin/games/{first}/abort", grant["csrf"], {"reason": "a test abort"})
        assert done.status == 200, await done.text()
        await director.sweep(now_ms=t["round_list"][0]["deadline"] - 1)  # records the abort; the second runs
        assert [e.type async for e in store.read(first)][-1] == "game_finished"
        assert await holds(client, first, [seed.hex()]) == []
        await director.sweep(now_ms=t["round_list"][0]["deadline"])  # nobody moved in the second: a double loss
        t = await (await client.get(f"/api/tournaments/{t['id']}")).json()
        results = [g["result"]["reason"] for g in t["round_list"][0]["pairings"][0]["games"]]
        assert results == ["aborted", "double_loss"] and t["status"] == "finished"
    log = [e async for e in store.read(first)]
    assert [e.type for e in log[-2:]] == ["game_finished", "seed_revealed"]
    report = verify(first, log, GAMES)
    assert report.ok and report.dice_checked and report.seed == seed.hex()
    # the double loss ended in its own log too (nobody plays on with the dice known), seed revealed
    log = [e async for e in store.read(second)]
    assert [e.type for e in log[-2:]] == ["game_finished", "seed_revealed"]
    assert verify(second, log, GAMES).ok
