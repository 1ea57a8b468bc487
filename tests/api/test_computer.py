"""The computer opponent as a client (api/computer.py, api/opponents.py): a game created with
`"computer"` gets its other seat taken by a `bluegray computer` process, which plays its turns, and
accepts an undo its opponent asks for (its stated policy)."""

from __future__ import annotations

import random

from apiharness import WsClient, create

from api.protocol import Ack, Error
from players.selfplay import random_command

PATIENCE_VERSIONS = 400  # how far to follow the game waiting for the computer (a guard, not a measure)


async def test_the_computer_takes_the_other_seat_and_plays_its_turns(client):
    game = await create(client, computer="easy")
    union = await WsClient(client, game["game_id"], game["token"]).connect(choices=True)
    # the computer joins: its seat_joined arrives
    while not any(e.type == "seat_joined" and e.actor == "confederate" for e in union.events):
        await union.receive()
    rng = random.Random(3)
    for _ in range(2):  # the Union's Movement Phase: one move, then end it; then end its Combat Phase
        ack = await union.command(random_command(union.history.state, rng, end_weight=0.0))
        assert isinstance(ack, Ack), ack
        await union.until_version(ack.last)
        undo = await union.act("undo_request", back_to=ack.first - 1, seen=union.version)
        assert isinstance(undo, Ack), undo
        while union.history.session.undo is not None or union.version <= undo.last:
            await union.receive()  # the computer accepts (its policy): the take-back arrives
        assert union.history.session.reverted and union.history.session.reverted[-1][0] == ack.first - 1
    for _ in range(2):
        ack = await union.act("command", command={"type": "end_phase"})
        assert isinstance(ack, Ack), ack
    # the Confederate's turn: the computer acts through the server like any client
    start = union.version
    while not any(e.type == "command" and e.actor == "confederate" for e in union.events[start:]):
        message = await union.receive()
        assert not isinstance(message, Error), message
        assert union.version < start + PATIENCE_VERSIONS
    assert union.history.session.to_act in ("confederate", "union")


async def test_the_expert_computer_takes_the_other_seat_and_plays_its_turn(client):
    # "expert" (players/levels.py: the searching player) is a level the server accepts and plays
    game = await create(client, computer="expert")
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    while not any(e.type == "seat_joined" and e.actor == "confederate" for e in union.events):
        await union.receive()
    for _ in range(2):  # the Union ends its Movement and Combat Phases
        ack = await union.act("command", command={"type": "end_phase"})
        assert isinstance(ack, Ack), ack
    start = union.version
    while not any(e.type == "command" and e.actor == "confederate" for e in union.events[start:]):
        message = await union.receive()
        assert not isinstance(message, Error), message
        assert union.version < start + PATIENCE_VERSIONS


async def test_a_level_that_does_not_exist_is_refused(client):
    response = await client.post("/api/games", json={"scenario": "chattanooga", "computer": "grandmaster"})
    assert response.status == 400
    error = (await response.json())["error"]
    assert error["code"] == "malformed" and "computer" in error["message"], error


def test_an_invite_code_beginning_with_a_dash_reaches_the_computer():
    # token_urlsafe codes may begin with "-": the computer's command line still gives it to --invite
    import argparse

    from api.commands.computer import add_arguments
    from api.opponents import command_line

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(command_line("http://127.0.0.1:1", "g1", "-x4Qa", "easy")[1:])
    assert args.invite == "-x4Qa" and args.game == "g1" and args.level == "easy"


async def test_the_computer_confederate_writes_down_an_empty_list_17_62(client):
    # Road to Richmond 17.6, the variant: the computer, the Confederate and first player, writes down
    # an empty list before anything else (17.62), then plays its Player-Turn through to the Union's
    game = await create(client, computer="easy", scenario="road_to_richmond", ruleset="revised",
                        options={"rules": {"variable_reinforcements": True}})
    union = await WsClient(client, game["game_id"], game["token"]).connect()
    while not (union.history.session.commands and union.history.session.to_act == "union"):
        message = await union.receive()
        assert not isinstance(message, Error), message
        assert union.version < PATIENCE_VERSIONS
    written = [e for e in union.events if e.type == "reinforcements_written_down"]
    assert len(written) == 1 and written[0].actor == "confederate"
    first = union.history.session.commands[0]
    assert first.seat == "confederate" and b"write_down_reinforcements" in bytes(first.command)
    assert len(union.history.session.commands) > 1  # and it went on playing
