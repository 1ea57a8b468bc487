"""Undo by consent over the websocket: accepted, declined, lapsed, refused across a die roll, and
back to a moment with a retreat pending; every client is told with the events and a snapshot."""

import random

import aiohttp
import msgspec
from apiharness import WsClient, new_game, play_until

from api.protocol import CLOSE_TOO_SLOW, Ack, ChoicesOut, Error, Snapshot
from players.selfplay import random_command
from rules.core import state as rules_state
from rules.core.decisions import PendingAttack


async def players(client, **body):
    game, joined = await new_game(client, **body)
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    confederate = await WsClient(client, game["game_id"], joined["token"]).connect()
    return game, union, confederate


async def moves(c: WsClient, rng: random.Random, n: int) -> None:
    for _ in range(n):
        ack = await c.command(random_command(c.history.state, rng, end_weight=0.0))
        assert isinstance(ack, Ack), ack
        await c.until_version(ack.last)


async def test_an_accepted_undo_takes_the_game_back_for_everyone(client):
    game, union, confederate = await players(client)
    spectator = await WsClient(client, game["game_id"]).connect()
    rng = random.Random(1)
    await moves(union, rng, 1)
    target, at_target = union.version, rules_state.encode_json(union.history.state)
    await moves(union, rng, 2)
    ack = await union.act("undo_request", back_to=target, seen=union.version)
    assert isinstance(ack, Ack)
    await confederate.until_version(ack.last)
    request = confederate.history.session.undo
    assert request.seat == "union" and request.back_to == target and len(request.takes_back) == 2
    accepted = await confederate.act("undo_accept", request=ack.first)
    assert isinstance(accepted, Ack)
    for c in (union, confederate, spectator):
        await c.until_version(accepted.last)
        snapshot = await c.expect(Snapshot)
        assert snapshot.reason == "undo" and snapshot.version == accepted.last
        assert bytes(snapshot.state) == at_target == rules_state.encode_json(c.history.state)
        assert snapshot.session.reverted == [(target, accepted.last)]
    await moves(union, rng, 1)  # the game goes on from the target
    # A client that reconnects from before the undo gets a snapshot rather than events.
    late = WsClient(client, game["game_id"])
    late.history = None
    await late.connect(last_version=target + 1)
    assert late.snapshots[-1].reason == "undo" and late.version == union.version
    # A first load (last version 0) saw nothing: its snapshot is the board brought up to date
    # ("behind"), never news of an undo; a client from before the undo, even from its target or
    # before, is told of the undo ("undo", docs/PROTOCOL.md); one that already had the acceptance
    # gets the events after it.
    for seen, reason in ((0, "behind"), (target - 1, "undo"), (target, "undo"), (accepted.last, None)):
        fresh = WsClient(client, game["game_id"])
        fresh.history = None
        if seen:
            fresh.base, fresh.base_head = seen, union.events[seen - 1].hash
        await fresh.connect(last_version=seen)
        assert [s.reason for s in fresh.snapshots] == ([reason] if reason else []), seen
        assert fresh.version == union.version
        await fresh.close()


async def test_declined_then_back_off(client):
    game, union, confederate = await players(client)
    rng = random.Random(2)
    await moves(union, rng, 2)
    target = union.history.session.commands[-1].version - 1
    ack = await union.act("undo_request", back_to=target)
    assert (await union.act("undo_accept", request=ack.first)).code == "illegal"  # not his own
    assert isinstance(await confederate.act("undo_decline", request=ack.first), Ack)
    again = await union.act("undo_request", back_to=target)
    assert again.code == "illegal" and again.retry_after > 0 and again.case == "5.17"


async def test_a_request_lapses_when_a_game_action_is_appended(client):
    game, union, confederate = await players(client)
    rng = random.Random(3)
    await moves(union, rng, 2)
    ack = await union.act("undo_request", back_to=union.history.session.commands[-1].version - 1)
    assert isinstance(await confederate.act("chat", text="let me think"), Ack)  # chat: still open
    assert isinstance(await confederate.act("draw_offer"), Ack)  # a draw offer: still open
    await moves(union, rng, 1)  # a game action: lapsed
    lapsed = await confederate.act("undo_accept", request=ack.first)
    assert lapsed.code == "illegal" and "lapsed" in lapsed.message


async def test_an_undo_never_crosses_a_die_roll(client):
    game, union, confederate = await players(client)
    rng = random.Random(4)
    await play_until(union, confederate, rng, lambda h: h.session.last_roll() > 0)
    rolled = union.history.session.last_roll()
    seat = union.history.session.to_act
    asker = union if seat == "union" else confederate
    refused = await asker.act("undo_request", back_to=rolled - 1)
    assert refused.code == "illegal" and refused.case == "5.14" and "irreversible" in refused.message


async def test_an_undo_by_consent_may_cross_a_die_roll_under_the_house_rule(client):
    game, union, confederate = await players(client, options={"undo_dice": True})
    rng = random.Random(4)
    await play_until(union, confederate, rng, lambda h: h.session.last_roll() > 0)
    rolled = union.history.session.last_roll()
    ack = await union.act("undo_request", back_to=rolled - 1)
    assert isinstance(ack, Ack)
    assert isinstance(await confederate.act("undo_accept", request=ack.first), Ack)


async def test_an_undo_back_to_a_pending_retreat_resumes_with_that_decision(client):
    game, union, confederate = await players(client)
    rng = random.Random(5)

    def decision_pending(h) -> bool:
        return bool(h.state.pending) and not isinstance(h.state.pending[0], PendingAttack)

    await play_until(union, confederate, rng, decision_pending)
    target = union.version
    pending = list(union.history.state.pending)
    owner = union if pending[0].side == "union" else confederate
    other = confederate if owner is union else union
    ack = await owner.play_random(rng)  # he makes the decision
    assert isinstance(ack, Ack)
    await other.until_version(ack.last)
    request = await owner.act("undo_request", back_to=target)
    assert isinstance(request, Ack), request
    await other.until_version(request.last)
    accepted = await other.act("undo_accept", request=request.first)
    assert isinstance(accepted, Ack), accepted
    await owner.until_version(accepted.last)
    assert owner.history.state.pending == pending and owner.history.session.to_act == pending[0].side
    # The owner is offered that decision again.
    fresh = await WsClient(owner.client, game["game_id"], owner.token).connect(choices=True)
    offered = await fresh.expect(ChoicesOut)
    assert offered.side == pending[0].side and msgspec.json.decode(offered.choices)


async def test_a_slow_socket_is_cut_off_and_catches_up_on_reconnect(client, make_client):
    game, union, confederate = await players(client)
    rng = random.Random(6)
    await moves(union, rng, 2)
    slow = await make_client(queue_size=1)  # another server on the same store, one message per socket
    spectator = await WsClient(client, game["game_id"]).connect()
    await spectator.close()
    spectator.client = slow
    await spectator.connect()  # up to date: only the welcome is queued
    ack = await union.act("undo_request", back_to=union.history.session.commands[-1].version - 1)
    accepted = await confederate.act("undo_accept", request=ack.first)
    # The undo sends events and a snapshot at once: a queue of one cannot hold them.
    closed = None
    while closed is None:
        frame = await spectator.ws.receive(timeout=60)
        if frame.type == aiohttp.WSMsgType.CLOSE:
            closed = frame.data
    assert closed == CLOSE_TOO_SLOW
    spectator.history = None
    spectator.client = client  # (a queue of one could not even hold a welcome and a snapshot)
    await spectator.connect()
    assert spectator.version == accepted.last and spectator.snapshots[-1].reason == "undo"
    assert not any(isinstance(m, Error) for m in spectator.inbox)
