"""Every message gets exactly one typed answer: one test per defect found by an outside client
(issue 23), each sending the exact message and asserting the one answer (`apiharness.answers`)."""

from __future__ import annotations

from aiohttp import WSMsgType
from apiharness import PATIENCE, WsClient, new_game, one_answer, unsaid

from api.protocol import (
    CLOSE_ABUSE,
    Ack,
    Error,
    ReachOut,
    ReplayFollowing,
    ReplayFrame,
    Welcome,
)


async def seated(client):
    game, joined = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    return game, joined, union


async def test_json_nested_a_thousand_levels_before_hello_is_malformed(client, caplog):
    game, _, _ = await seated(client)
    c = await unsaid(client, game["game_id"])
    for raw in (b'{"a":' * 1000 + b"1" + b"}" * 1000, b"[" * 1000 + b"]" * 1000,
                b'{"type": "hello", "game_id": "x", "token": ' + b"[" * 1000 + b"]" * 1000 + b"}"):  # fmt: skip
        answer = await one_answer(c, raw)
        assert answer.code == "malformed", raw[:20]
    assert "Traceback" not in caplog.text and "RecursionError" not in caplog.text
    assert isinstance(
        await one_answer(
            c, b'{"type": "hello", "game_id": "%s", "spectate": true}' % game["game_id"].encode()
        ),
        Welcome,
    )


async def test_a_text_frame_of_invalid_utf8_is_malformed(client):
    game, _, union = await seated(client)
    for raw in (b"\xff\xfe", b'{"type": "chat", "command_id": "u1", "text": "\xc3"}',
                b'{"type": "hello", "game_id": "\xff"}'):  # fmt: skip
        answer = await one_answer(union, raw, text=True)
        assert answer.code == "malformed" and "UTF-8" in answer.message, (raw, answer)
    assert union.version == 3 and not union.ws.closed


async def test_a_flood_is_answered_rate_limited_message_by_message(make_client):
    """600 messages at once (more than a socket's 512 queued answers): each gets its answer, the
    refused ones `rate_limited` with `retry_after`; the connection stays open."""
    client = await make_client(rate_per_second=0.001, rate_burst=6)
    game, _, union = await seated(client)  # hello: 1 of 6
    for i in range(600):
        await union.ws.send_bytes(b'{"type": "chat", "command_id": "f%d", "text": "%d"}' % (i, i))
    replies = {}
    while len(replies) < 600:
        message = await union.receive()
        if isinstance(message, Ack | Error):
            assert message.command_id not in replies
            replies[message.command_id] = message
    codes = [replies[f"f{i}"].code if isinstance(replies[f"f{i}"], Error) else "ack" for i in range(600)]
    assert codes == ["ack"] * 5 + ["rate_limited"] * 595
    assert all(replies[f"f{i}"].retry_after > 0 for i in range(5, 600))
    assert not union.ws.closed


async def test_sustained_flooding_closes_the_connection_as_documented(make_client):
    client = await make_client(rate_per_second=0.001, rate_burst=2, rate_abuse=50)
    game, _, union = await seated(client)
    for i in range(60):
        await union.ws.send_bytes(b'{"type": "chat", "command_id": "f%d", "text": "x"}' % i)
    limited = 0
    while True:
        frame = await union.ws.receive(timeout=PATIENCE)
        if frame.type == WSMsgType.CLOSE:
            break
        limited += '"rate_limited"' in frame.data
    assert frame.data == CLOSE_ABUSE and limited == 51  # every refused message answered, then closed


async def test_replay_pause_before_any_replay_is_answered(client):
    game, _, union = await seated(client)
    answer = await one_answer(union, b'{"type": "replay_pause"}')
    assert answer.code == "illegal" and "no replay" in answer.message
    assert isinstance(await one_answer(union, b'{"type": "replay_live"}'), ReplayFollowing)


async def test_every_request_type_gets_one_answer_in_every_state(client):
    game, joined, union = await seated(client)
    gid = game["game_id"].encode()
    requests = [
        b'{"type": "reach", "unit": "nobody"}',
        b'{"type": "replay_seek", "version": 2}',
        b'{"type": "replay_step", "by": "event", "count": -1}',
        b'{"type": "replay_pause"}',
        b'{"type": "replay_live"}',
        b'{"type": "replay_pause"}',
        b'{"type": "command", "command_id": "r1", "command": {"type": "resolve_attack"}}',
        b'{"type": "undo_request", "command_id": "r2", "back_to": 1}',
        b'{"type": "undo_accept", "command_id": "r3", "request": 2}',
        b'{"type": "undo_decline", "command_id": "r4", "request": 2}',
        b'{"type": "undo_withdraw", "command_id": "r5", "request": 2}',
        b'{"type": "draw_accept", "command_id": "r6"}',
        b'{"type": "draw_decline", "command_id": "r7"}',
        b'{"type": "claim", "command_id": "r8"}',
        b'{"type": "hello", "game_id": "%s", "spectate": true}' % gid,
    ]
    spectator = await WsClient(client, game["game_id"]).connect()
    before = await unsaid(client, game["game_id"])
    for c in (union, spectator, before):
        for raw in requests:
            answer = await one_answer(c, raw)
            assert isinstance(answer, Error | ReplayFrame | ReplayFollowing | ReachOut | Ack | Welcome), (
                raw,
                answer,
            )
    assert union.version == 3  # none of them changed the game


async def test_hello_beyond_the_log_is_one_error_naming_the_logs_version(client):
    game, _, _ = await seated(client)
    c = await unsaid(client, game["game_id"], game["token"])
    hello = b'{"type": "hello", "game_id": "%s", "token": "%s", "last_version": 99}' % (
        game["game_id"].encode(), game["token"].encode())  # fmt: skip
    answer = await one_answer(c, hello)
    assert answer.code == "malformed" and answer.version == 3 and "version 3" in answer.message
    again = b'{"type": "hello", "game_id": "%s", "token": "%s", "last_version": 3}' % (
        game["game_id"].encode(), game["token"].encode())  # fmt: skip
    assert isinstance(await one_answer(c, again), Welcome)  # the connection may say hello again
    negative = await one_answer(
        await unsaid(client, game["game_id"]),
        b'{"type": "hello", "game_id": "x", "spectate": true, "last_version": -1}',
    )
    assert negative.code == "malformed" and "last_version" in negative.message and ">= 0" in negative.message


async def test_an_unknown_game_is_not_found(client):
    game, _, _ = await seated(client)
    c = await unsaid(client, "nosuchgame")
    answer = await one_answer(c, b'{"type": "hello", "game_id": "nosuchgame", "spectate": true}')
    assert answer.code == "not_found" and "nosuchgame" in answer.message
    for method, path, body in (("GET", "/api/games/nosuchgame", None), ("GET", "/api/games/nosuchgame/export", None),
                               ("GET", "/api/games/nosuchgame/report", None), ("POST", "/api/games/nosuchgame/fork", {"version": 1}),
                               ("POST", "/api/games/nosuchgame/join", {"invite": "x"}), ("GET", "/api/scenarios/atlantis", None),
                               ("POST", "/api/games", {"scenario": "atlantis"})):  # fmt: skip
        async with client.request(method, path, json=body) as response:
            assert response.status == 404, (path, await response.text())
            assert (await response.json())["error"]["code"] == "not_found", path


async def test_hello_with_both_a_token_and_spectate_is_refused(client):
    game, _, _ = await seated(client)
    c = await unsaid(client, game["game_id"])
    mixed = b'{"type": "hello", "game_id": "%s", "token": "%s", "spectate": true}' % (
        game["game_id"].encode(), game["token"].encode())  # fmt: skip
    answer = await one_answer(c, mixed)
    assert answer.code == "malformed" and "not both" in answer.message


async def test_a_stale_seen_gets_every_missed_event_or_says_more(make_client):
    """With `seen` far behind: the events after it, consecutive (also when they are older than what
    the server keeps in memory), at most 100, and `more` when the game went on past them."""
    client = await make_client(recent_events=10)
    game, joined, union = await seated(client)
    confederate = await WsClient(client, game["game_id"], joined["token"]).connect()
    for i in range(104):
        assert isinstance(await confederate.act("chat", text=f"{i}"), Ack)
    await union.until_version(confederate.version)
    ended = await union.act("command", command={"type": "end_phase"})
    assert isinstance(ended, Ack)
    await union.until_version(ended.last)
    stale = await union.act("command", command={"type": "end_phase"}, seen=3)
    assert stale.code == "conflict" and stale.version == ended.last and stale.more is True
    assert [e.version for e in stale.missed] == list(range(4, 104))
    recent = await union.act("command", command={"type": "end_phase"}, seen=ended.first - 1)
    assert recent.more is False and [e.version for e in recent.missed] == list(
        range(ended.first, ended.last + 1)
    )


async def test_numbers_out_of_range_are_refused_with_the_key_and_the_range(client):
    game, _, union = await seated(client)
    gid = game["game_id"]
    for path, key, bound in (("/api/games?limit=500", "limit", "<= 200"), ("/api/games?offset=-1", "offset", ">= 0"),
                             (f"/api/games/{gid}/export?to=99", "to", "1..3"), (f"/api/games/{gid}/report?to=0", "to", ">= 1"),
                             ("/api/games?limit=many", "limit", "expected a whole number, got a string")):  # fmt: skip
        async with client.get(path) as response:
            error = (await response.json())["error"]
            assert response.status == 400 and error["code"] == "malformed", path
            assert key in error["message"] and bound in error["message"], error
    for options, key, bound in (({"silence_seconds": 10**20}, "silence_seconds", "<= 31536000"),
                                ({"silence_seconds": -1}, "silence_seconds", ">= 0"),
                                ({"spectator_delay": 201}, "spectator_delay", "<= 200"),
                                ({"rules": {"x": 10**12}}, "rules", "")):  # fmt: skip
        async with client.post(
            "/api/games", json={"scenario": "chattanooga", "options": options}
        ) as response:
            error = (await response.json())["error"]
            assert response.status == 400 and key in error["message"] and bound in error["message"], error
    async with client.post(f"/api/games/{gid}/fork", json={"version": 0}) as response:
        assert response.status == 400 and ">= 1" in (await response.json())["error"]["message"]
    for raw, key, bound in ((b'{"type": "replay_play", "speed": 1000}', "speed", "<= 50"),
                            (b'{"type": "replay_step", "count": 1000000}', "count", "<= 10000"),
                            (b'{"type": "replay_seek", "version": -5}', "version", ">= 0"),
                            (b'{"type": "undo_request", "command_id": "u", "back_to": 99999999999}', "back_to", "<=")):  # fmt: skip
        answer = await one_answer(union, raw)
        assert answer.code == "malformed" and key in answer.message and bound in answer.message, (raw, answer)
