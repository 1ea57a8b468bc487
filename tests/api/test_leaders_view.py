"""The view's ``leaders`` (api/views.py ``leaders_on_map``): where each Leader of Grand Chancellorsville
(23.5) is, for the web client to draw him, on the battle's own map: with his unit at the start (23.59),
on his own after a move of his own (23.51, 23.54), none killed (23.56) or eliminated alone (23.54), and none
in a battle without Leaders; and the record's words for his move."""

from __future__ import annotations

import random

import msgspec

from api.views import leaders_on_map
from players.selfplay import play
from replay.gamerecord import GameRecord
from rules import legal
from rules.core.commands import MoveLeader
from rules.core.events import LeaderEliminated, LeaderKilled, LeaderMoved
from rules.core.game import Game
from rules.reducer import execute, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load


def start(scenario_id: str):
    return new_game(Game(load(scenario_id), get_ruleset("revised")))


def test_each_leader_is_in_his_units_hex_at_the_start_23_59():
    s = start("grand_chancellorsville")
    shown = {x.id: x for x in leaders_on_map(s)}
    rule = s.game.battle.leaders
    on_map = [x for x in rule.leaders if x.with_ in s.positions]
    assert on_map and set(shown) == {x.id for x in on_map}  # those deployed with a unit not yet arrived: not shown
    for x in on_map:
        v = shown[x.id]
        assert (v.name, v.side, v.stars) == (x.name, x.side, x.stars)
        assert v.hex == s.positions[x.with_] and v.unit == x.with_ and not v.alone
    assert shown["cs-lee"].stars == 4 and shown["cs-lee"].name == "Lee"


def test_a_leader_who_moved_on_his_own_stands_alone_in_his_new_hex_23_51_23_54():
    s = start("grand_chancellorsville")
    offered = legal.choices(s)
    leader = offered.may_move_leader[0]
    dests = offered.leader_moves[leader]
    was = next(x.hex for x in leaders_on_map(s) if x.id == leader)
    hex_, d = next((h, d) for h, d in sorted(dests.items()) if h != was and not any(p == h for p in s.positions.values()))
    after, _ = execute(s, MoveLeader(leader=leader, path=list(d.path)))
    v = next(x for x in leaders_on_map(after) if x.id == leader)
    assert (v.hex, v.unit, v.alone) == (hex_, None, True)


def test_a_leader_killed_or_eliminated_alone_is_shown_no_more_23_56_23_54():
    # the battle self-played (the random players, seeds from 1) until a Leader has been killed with his
    # unit (23.56) and one eliminated alone by an enemy unit entering his hex (23.54): shown before that
    # command (not alone; alone in the hex entered), not after it nor at any later command of the game
    first = start("grand_chancellorsville")
    seen: set[type] = set()
    for seed in range(1, 11):
        gone: set[str] = set()
        for before, _command, events in play(first, random.Random(seed)):
            shown = {x.id: x for x in leaders_on_map(before)}
            assert not gone & set(shown)
            ends = [e for e in events if isinstance(e, LeaderKilled | LeaderEliminated)]
            if not ends:
                continue
            after = {x.id for x in leaders_on_map(fold(before, events))}
            for e in ends:
                if isinstance(e, LeaderKilled):  # with a unit destroyed on the map (or not yet arrived: not shown)
                    assert e.leader not in shown or not shown[e.leader].alone
                else:
                    v = shown[e.leader]
                    assert (v.hex, v.unit, v.alone) == (e.hex, None, True)
                assert e.leader not in after
                gone.add(e.leader)
                seen.add(type(e))
        if seen == {LeaderKilled, LeaderEliminated}:
            break
    assert seen == {LeaderKilled, LeaderEliminated}


def test_no_leaders_in_a_battle_without_them():
    assert leaders_on_map(start("chattanooga")) == []
    assert leaders_on_map(None) == []


def test_the_record_tells_a_leaders_move_in_words_23_51():
    # the record (replay/gamerecord.py) names the Leader and his hex, the command and its event
    s = start("grand_chancellorsville")
    offered = legal.choices(s)
    leader = offered.may_move_leader[0]
    name = s.game.battle.leaders.leader(leader).name
    hex_, d = sorted(offered.leader_moves[leader].items())[0]
    _, events = execute(s, MoveLeader(leader=leader, path=list(d.path)))
    record = GameRecord(s.game)
    said = record.command_text(msgspec.json.encode({"type": "move_leader", "leader": leader, "path": list(d.path)}))
    assert said == f"move {name} on his own to {hex_}"
    moved = next(e for e in events if isinstance(e, LeaderMoved))
    assert record.event_text(moved) == f"{name} moves on his own to {hex_} ({d.cost} MP, 23.51)"
