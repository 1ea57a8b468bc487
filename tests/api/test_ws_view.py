"""The server's view of the game (hello ``view``): what a seat or a spectator renders is computed by
the server from its own fold, sent at once and after every batch of events, with the game's record
(one line per command with its result, undo lines where an undo happened), the same on every load."""

import asyncio
import json
import random

import msgspec
from apiharness import WsClient, new_game, play_steps

from api.protocol import Ack, ViewOut
from players.selfplay import random_command
from rules.core import state as rules_state

PATIENCE = 10


def merge(target, patch):
    """RFC 7386: `target` with the merge patch `patch` applied."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge(out.get(key), value)
    return out


def without_nulls(value):
    """A JSON value with every null member left out (a merge patch leaves those out)."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


class Viewer:
    """A connection that asked for views: its latest view and its record, kept as the server says
    (the first view whole, then patches of the one it has)."""

    def __init__(self, client, game_id: str, token: str | None = None) -> None:
        self.client, self.game_id, self.token = client, game_id, token
        self.view: dict | None = None  # the view, as JSON (see PositionView)
        self.plain: dict | None = None
        self.sizes: list[int] = []
        self.record: list[list] = []
        self.views: list[ViewOut] = []
        self.other: list[dict] = []

    async def connect(self) -> "Viewer":
        self.ws = await self.client.ws_connect("/ws")
        hello = {"type": "hello", "game_id": self.game_id, "view": True, "choices": False}
        hello.update({"token": self.token} if self.token else {"spectate": True})
        await self.ws.send_json(hello)
        return self

    async def until(self, version: int) -> None:
        async with asyncio.timeout(PATIENCE):
            while self.view is None or self.view["version"] < version:
                data = (await self.ws.receive()).data
                kind = json.loads(data)["type"]
                if kind != "view":
                    self.other.append(json.loads(data))
                    continue
                message = msgspec.json.decode(data, type=ViewOut)
                self.views.append(message)
                self.sizes.append(len(data))
                if message.view is not None:
                    self.plain = json.loads(msgspec.json.encode(message.view))
                else:
                    assert self.plain is not None and self.plain["version"] == message.base
                    self.plain = merge(self.plain, message.patch)
                self.view = self.plain
                self.record = self.record[: message.record_keep] + [list(msgspec.to_builtins(line)) for line in message.record]

    async def close(self) -> None:
        await self.ws.close()


async def test_every_view_is_the_servers_fold_and_spectators_share_the_players_record(client):
    game, joined = await new_game(client)
    gid = game["game_id"]
    union = await WsClient(client, gid, game["token"]).connect()
    confederate = await WsClient(client, gid, joined["token"]).connect()
    seat = await Viewer(client, gid, game["token"]).connect()
    watcher = await Viewer(client, gid).connect()
    rng = random.Random(5)
    for _ in range(40):
        assert await play_steps(union, confederate, rng, 1) == 1
        for v in (seat, watcher):
            await v.until(union.version)
            # The view at each version is the Python fold there, byte for byte.
            assert v.view["version"] == union.version
            assert without_nulls(v.view["state"]) == without_nulls(
                json.loads(rules_state.encode_json(union.history.state))
            )
            assert v.view["digest"] == union.history.digest().hex()
            assert v.view["session"].get("to_act") == union.history.session.to_act
        assert seat.view["role"] == "union" and watcher.view.get("role") is None
        assert seat.view["your_move"] == (union.history.session.to_act == "union")
        assert watcher.view["undoable"] == [] and seat.view["undoable"]
        assert seat.record == watcher.record
    # The first view is whole, the others patches of the one before (smaller than a whole view).
    assert watcher.views[0].view is not None and all(m.view is None for m in watcher.views[1:])
    assert max(watcher.sizes[1:]) < watcher.sizes[0]
    # Events and snapshots are not sent to a connection that asked for views.
    assert not [m for m in seat.other + watcher.other if m["type"] in ("events", "snapshot")]
    # One line per command with its result.
    commands = [line for line in seat.record if line[1] == "command"]
    assert len(commands) == len(union.history.session.commands)
    assert any(" — " in line[3] and "moves" in line[3] for line in commands), commands[:5]
    # A late spectator gets the same record, whole, in its first view.
    late = Viewer(client, gid)
    await (await late.connect()).until(union.version)
    assert late.views[0].record_keep == 0 and late.record == seat.record
    for v in (seat, watcher, late):
        await v.close()


async def test_an_accepted_undo_leaves_its_lines_and_a_reload_gets_the_same_record(client):
    game, joined = await new_game(client)
    gid = game["game_id"]
    union = await WsClient(client, gid, game["token"]).connect()
    confederate = await WsClient(client, gid, joined["token"]).connect()
    seat = await Viewer(client, gid, game["token"]).connect()
    rng = random.Random(3)
    for _ in range(3):
        ack = await union.command(random_command(union.history.state, rng, end_weight=0.0))
        assert isinstance(ack, Ack), ack
        await union.until_version(ack.last)
    target = union.history.session.commands[0].last
    ack = await union.act("undo_request", back_to=target, seen=union.version)
    await confederate.until_version(ack.last)
    accepted = await confederate.act("undo_accept", request=ack.first)
    assert isinstance(accepted, Ack)
    await seat.until(accepted.last)
    await union.until_version(accepted.last)
    kinds = [line[1] for line in seat.record]
    assert kinds.count("command") == 1  # the two actions taken back are gone from the record
    assert kinds[-2:] == ["undo_requested", "undo_accepted"]
    assert without_nulls(seat.view["state"]) == without_nulls(
        json.loads(rules_state.encode_json(union.history.state))
    )
    # A reload, after the undo: the same record, whole; nothing of it says the undo is news.
    again = Viewer(client, gid, game["token"])
    await (await again.connect()).until(accepted.last)
    assert again.record == seat.record and len(again.views) == 1
    for v in (seat, again):
        await v.close()


async def test_a_delayed_spectator_views_the_game_as_far_as_it_may_see_it(client):
    delay = 5
    game, joined = await new_game(client, options={"spectator_delay": delay})
    gid = game["game_id"]
    union = await WsClient(client, gid, game["token"]).connect()
    confederate = await WsClient(client, gid, joined["token"]).connect()
    watcher = await Viewer(client, gid).connect()
    seat = await Viewer(client, gid, game["token"]).connect()
    rng = random.Random(9)
    await play_steps(union, confederate, rng, 12)
    behind = union.version - delay
    await watcher.until(behind)
    await seat.until(union.version)
    await asyncio.sleep(0.2)  # nothing newer comes to the spectator
    await watcher.until(behind)
    assert watcher.view["version"] == behind
    # Its view is the fold at that version, and its record has nothing after it.
    assert watcher.view["head"] == union.events[behind - 1].hash.hex()
    assert all(line[0] <= behind for line in watcher.record)
    # (A command whose results are not all visible yet reads as far as they are.)
    seen = [line for line in seat.record if line[0] <= behind]
    assert [line[:3] for line in seen] == [line[:3] for line in watcher.record]
    assert all(a[3].startswith(b[3]) for a, b in zip(seen, watcher.record, strict=True))
    assert seen[:-1] == watcher.record[:-1]
    # A spectator who comes now gets the same.
    late = Viewer(client, gid)
    await (await late.connect()).until(behind)
    assert late.record == watcher.record and late.view["version"] == behind
    for v in (watcher, seat, late):
        await v.close()
