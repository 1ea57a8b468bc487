"""Road to Richmond 17.6, the Variable Confederate Reinforcements (the game option
``variable_reinforcements``) over the API: chosen at game creation; the Confederate Player's choice,
written down before the game starts (17.62), stays with the server: the log, the Union Player's and a
spectator's events and views hold only its commitments until a unit enters; the Confederate Player's
own view shows it."""

import json

import msgspec
from apiharness import WsClient, create, join
from test_ws_view import Viewer

from api.protocol import Ack, Error
from eventstore.store import RedisEventStore
from rules.core.commands import EnterReinforcement
from session import written

LATER = {"cs-rodes": 15, "cs-garland": 18}


async def test_the_variant_is_a_game_option_at_creation(client):
    # 17.6 is a variant: off unless the game is created with it
    plain = await create(client, scenario="road_to_richmond", ruleset="revised", side="confederate")
    on = await create(client, scenario="road_to_richmond", ruleset="revised", side="confederate",
                      options={"rules": {"variable_reinforcements": True}})
    for game, wanted in ((plain, {}), (on, {"variable_reinforcements": True})):
        async with client.get(f"/api/games/{game['game_id']}/export") as response:
            first = json.loads((await response.text()).splitlines()[0])
        created = json.loads(__import__("base64").b64decode(first["payload"]))
        assert created["rules_options"] == wanted, created


async def test_the_choice_is_kept_from_the_union_and_spectators_17_62(client, redis_client, key_prefix):
    game = await create(client, scenario="road_to_richmond", ruleset="revised", side="confederate",
                        options={"rules": {"variable_reinforcements": True}})
    joined = await join(client, game)
    gid = game["game_id"]
    rebel = await WsClient(client, gid, game["token"]).connect()
    union = await WsClient(client, gid, joined["token"]).connect()
    spectator = await WsClient(client, gid).connect()
    views = {who: await Viewer(client, gid, token).connect()
             for who, token in (("confederate", game["token"]), ("union", joined["token"]), ("spectator", None))}

    # 17.62: before the game starts: nothing else, and not by the Union Player
    refused = await rebel.command(EnterReinforcement("cs-g-b-anderson", ("0103",)))
    assert isinstance(refused, Error) and refused.case == "17.62"
    refused = await union.act("write_down", later={})
    assert isinstance(refused, Error) and refused.code == "not_your_turn"
    refused = await rebel.act("write_down", later={"cs-winder": 15})  # not a Game-Turn One unit of 0103
    assert isinstance(refused, Error) and refused.case == "17.62"

    ack = await rebel.act("write_down", later=LATER)
    assert isinstance(ack, Ack), ack
    kept = written.decode(await redis_client.hget(RedisEventStore(redis_client, prefix=key_prefix).keys(gid).hidden, written.HIDDEN))
    assert {u: t for u, t in kept.turns.items() if t != 1} == LATER and len(kept.turns) == 18
    again = await rebel.act("write_down", later={})
    assert isinstance(again, Error) and again.case == "17.62"  # written down once

    # an unlisted unit enters at 0103 by a plain command: the server opens its commitment
    ack = await rebel.command(EnterReinforcement("cs-g-b-anderson", ("0103",)))
    assert isinstance(ack, Ack), ack
    # a unit written down for Game-Turn Fifteen may not: opened with its Game-Turn, it is a Game-Turn
    # Fifteen reinforcement (17.63; the revised 5.1), and the refused command shows nothing to anyone
    refused = await rebel.command(EnterReinforcement("cs-rodes", ("0103",)))
    assert isinstance(refused, Error) and refused.case == "5.1" and "Game-Turn 15" in refused.message

    for c in (union, spectator):
        await c.until_version(ack.last)
    for v in views.values():
        await v.until(ack.last)
    # the Union Player and the spectator: the commitments, one opening (a unit on the map), no choice
    secrets = [kept.salts[u] for u in LATER] + [kept.salts["cs-garland"]]
    # a client's own opening that does not match the commitment: refused, case 17.62
    forged = {"type": "enter_written_reinforcement", "unit": "cs-rodes", "path": ["0103"], "turn": 1, "salt": "0" * 32}
    refused = await rebel.act("command", command=forged)
    assert isinstance(refused, Error) and refused.case == "17.62" and "does not match the commitment" in refused.message

    for c in (union, spectator):
        raw = b"".join(e.payload for e in c.events)
        record = next(json.loads(e.payload) for e in c.events if e.type == "command")  # the writing down
        assert set(record["command"]) == {"type", "schema", "commitments"} and len(record["command"]["commitments"]) == 18
        event = next(json.loads(e.payload) for e in c.events if e.type == "reinforcements_written_down")
        assert set(event) == {"type", "schema", "side", "commitments"}
        assert not any(s.encode() in raw for s in secrets)
        shown = [json.loads(e.payload) for e in c.events if e.type == "written_reinforcement_shown"]
        assert [(s["unit"], s["turn"]) for s in shown] == [("cs-g-b-anderson", 1)]
        assert written.matches(c.history.state, kept)  # the log's commitments are the kept choice's
    for who in ("union", "spectator"):
        assert views[who].view.get("written_down", {}) == {}
        assert not any(s in json.dumps(views[who].view) for s in secrets)
    # the Confederate Player's own view shows his choice
    assert views["confederate"].view["written_down"] == LATER
    # the log alone replays: every client folded the events itself, digests checked on the way
    assert union.history.digest() == spectator.history.digest() == rebel.history.digest()
    # once the game is over, everyone's view shows the choice (review)
    over = await rebel.act("resign")
    assert isinstance(over, Ack), over
    for who in ("union", "spectator"):
        await views[who].until(over.last)
        assert views[who].view["written_down"] == LATER
    for c in (rebel, union, spectator, *views.values()):
        await c.close()


async def test_a_computer_confederate_writes_down_an_empty_list(client):
    # the computer players keep working with the variant on: an empty list, then plain entries
    from players.selfplay import WrittenDown

    game = await create(client, scenario="road_to_richmond", ruleset="revised", side="confederate",
                        options={"rules": {"variable_reinforcements": True}})
    await join(client, game)
    rebel = await WsClient(client, game["game_id"], game["token"]).connect()
    assert isinstance(await rebel.act("write_down", later={}), Ack)
    state = rebel.history.state
    assert written.shown_to(state, None, "confederate", False) == {}
    command = WrittenDown().opened(state, EnterReinforcement("cs-rodes", ("0103",)))  # no salts of its own
    assert msgspec.to_builtins(command)["type"] == "enter_reinforcement"
    ack = await rebel.command(command)  # the server opens it with the kept salt
    assert isinstance(ack, Ack), ack
    await rebel.close()


async def test_the_choices_are_the_confederate_players_own_17_62(client):
    # 17.62: the choices the server sends the Confederate seat agree with what it will accept of his
    # choice written down: before the game starts, only the writing down; then a unit written down
    # for Game-Turn Fifteen is not offered on Game-Turn One, and its reach says why. The Union seat
    # gets no choices while the Confederate acts, so nothing of the choice reaches it.
    from api.protocol import ChoicesOut, ReachOut

    game = await create(client, scenario="road_to_richmond", ruleset="revised", side="confederate",
                        options={"rules": {"variable_reinforcements": True}})
    joined = await join(client, game)
    rebel = await WsClient(client, game["game_id"], game["token"]).connect(choices=True)
    union = await WsClient(client, game["game_id"], joined["token"]).connect(choices=True)
    before = msgspec.json.decode((await rebel.expect(ChoicesOut)).choices)
    assert len(before["write_down"]["units"]) == 18 and before["may_enter"] == [] and not before["may_end_phase"]
    assert [a["turn"] for a in before["write_down"]["arrivals"]] == [1, 15, 18]
    assert before["end_phase_refused"]["case"] == "17.62"
    ack = await rebel.act("write_down", later=LATER)
    assert isinstance(ack, Ack), ack
    offered = await rebel.expect(ChoicesOut)
    assert offered.version == ack.last
    legal = msgspec.json.decode(offered.choices)
    assert legal.get("write_down") is None
    assert "cs-g-b-anderson" in legal["may_enter"] and not set(LATER) & set(legal["may_enter"])
    await rebel.send(type="reach", unit="cs-rodes", how="enter")
    refused = await rebel.expect(ReachOut)
    assert refused.destinations == {} and refused.refused.case == "5.1" and "Game-Turn 15" in refused.refused.message
    await rebel.send(type="reach", unit="cs-g-b-anderson", how="enter")
    reach = await rebel.expect(ReachOut)
    hex_, destination = next(iter(reach.destinations.items()))
    assert destination.path[0] == "0103"
    ack = await rebel.command(EnterReinforcement("cs-g-b-anderson", destination.path))
    assert isinstance(ack, Ack), ack
    await union.until_version(ack.last)
    assert union.choices is None and not any(isinstance(m, ChoicesOut) for m in union.inbox)
    for c in (rebel, union):
        await c.close()
