"""Every error code, each answered on the connection that caused it, which stays open; the game
loses nothing."""

import random

import aiohttp
from apiharness import PATIENCE, WsClient, new_game

from api.protocol import CLOSE_FULL, Ack, Error
from players.selfplay import random_command
from rules.core.commands import EndPhase, MoveUnit


async def error_for(c: WsClient, raw: bytes) -> Error:
    await c.ws.send_bytes(raw)
    return await c.expect(Error)


async def test_malformed_and_unknown_type(client):
    game, _ = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    for raw in (b"{not json", b"[1, 2]", b'{"no": "type"}', b'{"type": "command"}',
                b'{"type": "command", "command_id": "a", "command": {"type": "move", "unit": 5}}',
                b'{"type": "undo_request", "command_id": "a", "back_to": "yesterday"}'):
        assert (await error_for(union, raw)).code == "malformed", raw
    for raw in (b'{"type": "dance"}', b'{"type": "command", "command_id": "a", "command": {"type": "teleport"}}'):
        assert (await error_for(union, raw)).code == "unknown_type", raw
    empty_id = await error_for(union, b'{"type": "chat", "command_id": "", "text": "hi"}')
    assert empty_id.code == "malformed" and "command_id" in empty_id.message
    assert isinstance(await union.act("chat", text="still here"), Ack)  # the connection stays


async def test_unauthorized(client):
    game, joined = await new_game(client)
    other, _ = await new_game(client)
    ws = await client.ws_connect("/ws")
    await ws.send_json({"type": "chat", "command_id": "a", "text": "hi"})
    assert (await ws.receive_json(timeout=PATIENCE))["code"] == "unauthorized"  # no hello yet
    for hello in ({"token": "not-a-token"}, {"token": other["token"]}, {}):
        await ws.send_json({"type": "hello", "game_id": game["game_id"], **hello})
        assert (await ws.receive_json(timeout=PATIENCE))["code"] == "unauthorized", hello
    await ws.close()
    spectator = await WsClient(client, game["game_id"]).connect()
    refused = await spectator.command(EndPhase())
    assert refused.code == "unauthorized" and "spectator" in refused.message
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    assert (await error_for(union, b'{"type": "hello", "game_id": "x"}')).code == "malformed"  # hello twice


async def test_not_your_turn_and_illegal(client):
    game, joined = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    confederate = await WsClient(client, game["game_id"], joined["token"]).connect()
    early = await confederate.command(EndPhase())
    assert early.code == "not_your_turn" and "union" in early.message
    unit = next(u for u in union.history.state.positions if u.startswith("us-"))
    here = union.history.state.positions[unit]
    illegal = await union.command(MoveUnit(unit, (here, here)))
    assert illegal.code == "illegal" and illegal.case and illegal.message
    assert union.version == 3  # nothing was appended


async def test_conflict_names_what_the_client_missed(client):
    game, joined = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    rng = random.Random(1)
    seen = union.version
    first = await union.command(random_command(union.history.state, rng, end_weight=0.0), seen=seen)
    assert isinstance(first, Ack)
    await union.until_version(first.last)
    stale = await union.command(random_command(union.history.state, rng, end_weight=0.0), seen=seen)
    assert stale.code == "conflict" and stale.version == first.last
    assert [e.version for e in stale.missed] == list(range(seen + 1, first.last + 1))
    await union.act("chat", text="a chat line does not make a version stale")
    assert isinstance(await union.command(random_command(union.history.state, rng, end_weight=0.0), seen=first.last), Ack)


async def test_rate_limited_and_too_large(make_client):
    client = await make_client(rate_per_second=0.001, rate_burst=3, max_message_bytes=200)
    game, _ = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect()  # hello: 1 of 3
    too_large = await error_for(union, b'{"type": "chat", "command_id": "big", "text": "%s"}' % (b"x" * 300))
    assert too_large.code == "too_large"  # and not counted
    assert isinstance(await union.act("chat", text="one"), Ack)
    assert isinstance(await union.act("chat", text="two"), Ack)
    limited = await union.act("chat", text="three")
    assert limited.code == "rate_limited" and limited.retry_after > 0


async def test_game_over(client):
    game, joined = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    assert isinstance(await union.act("resign"), Ack)
    for refused in (await union.command(EndPhase()), await union.act("chat", text="gg"), await union.act("resign")):
        assert refused.code == "game_over"


async def test_a_full_game_refuses_more_connections(make_client):
    client = await make_client(max_connections_per_game=1)
    game, joined = await new_game(client)
    await WsClient(client, game["game_id"], game["token"]).connect()
    ws = await client.ws_connect("/ws")
    await ws.send_json({"type": "hello", "game_id": game["game_id"], "spectate": True})
    assert (await ws.receive_json(timeout=PATIENCE))["code"] == "rate_limited"
    closing = await ws.receive(timeout=PATIENCE)
    assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == CLOSE_FULL


async def test_a_malformed_action_echoes_its_command_id_when_it_can_be_read(client):
    game, _ = await new_game(client)
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    for raw, code, command_id in (
        (b'{"type":"undo_request","command_id":"q1","back_to":-5}', "malformed", "q1"),  # the repro
        (b'{"type": "command", "command_id": "q2", "command": {"type": "move"}}', "malformed", "q2"),
        (b'{"type": "command", "command_id": "q3", "command": {"type": "teleport"}}', "unknown_type", "q3"),
        (b'{"type": "chat", "command_id": "q4"}', "malformed", "q4"),
        (b'{"type": "dance", "command_id": "q5"}', "unknown_type", "q5"),
    ):
        refused = await error_for(union, raw)
        assert (refused.code, refused.command_id) == (code, command_id), raw
    for raw in (  # no command_id that can be read: none echoed
        b'{"type": "chat", "command_id": "", "text": "hi"}',
        b'{"type": "chat", "command_id": 7, "text": "hi"}',
        b'{"type": "chat", "command_id": "%s", "text": "hi"}' % (b"x" * 101),
        b'{"type": "chat", "command_id": "q6", "text": "hi"',
        b'[{"command_id": "q7"}]',
    ):
        refused = await error_for(union, raw)
        assert refused.code == "malformed" and refused.command_id is None, raw
    assert isinstance(await union.act("chat", text="still here"), Ack)
