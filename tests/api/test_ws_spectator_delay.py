"""A game with a spectator delay: spectators (and the public game view) see it that many events
behind while it is played, and everything once it is over."""

import asyncio
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


async def test_the_games_list_shows_a_delayed_game_as_spectators_see_it(make_client):
    server = await make_client(index_delay=0.0)  # the index is written as soon as the game moves
    game, joined = await new_game(server, options={"spectator_delay": DELAY})
    plain, _ = await new_game(server)
    gid = game["game_id"]
    union = await WsClient(server, gid, game["token"]).connect()
    confederate = await WsClient(server, gid, joined["token"]).connect()
    spectator = await WsClient(server, gid).connect()
    await play_steps(union, confederate, random.Random(3), 12)
    behind = union.version - DELAY
    await spectator.until_version(behind)

    async def listed(status: str = "active") -> dict:
        page = await (await server.get(f"/api/games?status={status}")).json()
        return {g["game_id"]: g for g in page["games"]}

    for _ in range(400):  # until the index has caught up (it is written off the ack's path)
        shown = (await listed())[gid]
        assert shown["version"] <= spectator.version  # never more than a spectator may see
        if shown["version"] == spectator.version:
            break
        await asyncio.sleep(0.01)
    assert shown["version"] == spectator.version == union.version - DELAY
    assert shown["to_act"] == spectator.history.session.to_act
    assert union.history.session.to_act is not None
    # A game without a delay is listed at its head.
    assert (await listed())[plain["game_id"]]["version"] == 3
    # Over: everything is shown.
    ack = await union.act("resign")
    for _ in range(400):
        if gid in (finished := await listed("finished")):
            break
        await asyncio.sleep(0.01)
    assert finished[gid]["version"] == ack.last and finished[gid]["to_act"] is None
