"""A game with a spectator delay: spectators (and the public game view) see it that many events
behind while it is played, and everything once it is over."""

import random

from apiharness import WsClient, new_game, play_steps

from api.protocol import Ack, Snapshot

DELAY = 5


async def test_spectators_see_the_game_delay_events_behind(client, make_client):
    game, joined = await new_game(client, options={"spectator_delay": DELAY})
    gid = game["game_id"]
    union = await WsClient(client, gid, game["token"]).connect()
    confederate = await WsClient(client, gid, joined["token"]).connect()
    spectator = await WsClient(client, gid).connect()
    assert spectator.welcome.version == 3  # the seats are shown at once
    elsewhere = await make_client()  # a spectator of another server process sees the same
    far = await WsClient(elsewhere, gid).connect()
    rng = random.Random(1)
    await play_steps(union, confederate, rng, 12)
    behind = union.version - DELAY
    for watcher in (spectator, far):
        await watcher.until_version(behind)
        assert watcher.version == behind and watcher.events == union.events[:behind]
    view = await (await client.get(f"/api/games/{gid}")).json()
    assert view["version"] == behind
    late = await WsClient(client, gid).connect()
    assert late.welcome.version == behind and late.version == behind
    # An undo reaches spectators when its turn comes, with its snapshot.
    seat = union.history.session.to_act
    asker, other = (union, confederate) if seat == "union" else (confederate, union)
    request = await asker.act("undo_request", back_to=asker.history.session.commands[-1].version - 1)
    assert isinstance(request, Ack), request
    accepted = await other.act("undo_accept", request=request.first)
    await play_steps(union, confederate, rng, 6)
    await spectator.until_version(accepted.last)
    snapshot = await spectator.expect(Snapshot)
    assert snapshot.reason == "undo" and snapshot.version >= accepted.last
    assert [a for _, a in snapshot.session.reverted] == [accepted.last]
    # Over: everything is shown.
    ack = await union.act("resign")
    for watcher in (spectator, far, late):
        await watcher.until_version(ack.last)
        assert watcher.history.finished is not None and watcher.events == union.events
