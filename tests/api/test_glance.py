"""The battle at a glance (api/glance.py), part of every view: the turn track, the Victory Point
schedule and levels in words, the objective hexes and their holders, each side's points and losses,
all read from the battle's components and the rules state at every step of a played game."""

import random

import pytest

from api.glance import glance
from players.selfplay import greedy_player, play
from replay.games import GameCache
from rules.reducer import fold, new_game

GAMES = GameCache()


@pytest.mark.parametrize(("scenario", "ruleset"), [("chattanooga", "classic"), ("chickamauga", "revised"), ("shiloh", "revised")])
def test_the_glance_is_the_state_at_every_step(scenario, ruleset):
    game = GAMES.game(scenario, ruleset)
    victory = game.battle.victory
    units = {u.id: u for u in game.scenario.units}
    steps = 0
    for state, _, events in play(new_game(game), random.Random(7), max_commands=400, players=greedy_player):
        after = fold(state, events)
        g = glance(after)
        steps += 1
        assert g.vp == {"union": after.vp.get("union", 0), "confederate": after.vp.get("confederate", 0)}
        for side in ("union", "confederate"):
            lost = [units[u] for u in after.eliminated if units[u].side == side]
            assert (g.eliminated[side].units, g.eliminated[side].strength) == (len(lost), sum(u.strength for u in lost))
        assert {o.hex: o.holder for o in g.objectives} == {o.hex: after.control.get(o.hex) for o in g.objectives}
        assert g.level_now == (after.result or victory.level_for(g.vp, after.control))
    assert steps > 100
    assert any(g.eliminated[s].units for s in ("union", "confederate"))  # the game came to blows
    # The turn track: every Game-Turn, the night turns, each reinforcement on its turn with its entry.
    assert [t.turn for t in g.turns] == list(range(1, game.scenario.turns + 1))
    assert [t.turn for t in g.turns if t.night] == sorted(game.scenario.night_turns)
    due = {(a.unit, t.turn, tuple(a.entry)) for t in g.turns for a in t.reinforcements}
    assert due == {(u.id, u.arrives, tuple(u.entry)) for u in game.scenario.units if u.hex is None and u.arrives}
    assert len(g.levels) == len(victory.levels) and g.schedule


def test_chattanooga_schedule_and_objectives_in_the_books_terms():
    g = glance(new_game(GAMES.game("chattanooga", "classic")))
    # 20.11 (1), (3): per enemy unit eliminated; 20.11 (2): 1514 and 1417 first controlled; 20.12 (2).
    assert "Confederate: 3 VP for each enemy unit eliminated" in g.schedule
    assert "Union: 2 VP for each enemy unit eliminated" in g.schedule
    assert {(o.hex, o.points, o.side) for o in g.objectives} == {
        ("1514", 4, "confederate"), ("1417", 4, "confederate"),
        ("2207", 4, "union"), ("2311", 4, "union"), ("2416", 4, "union"), ("2419", 4, "union"),
    }
    assert g.levels[0] == "Union Decisive Victory: Union points minus Confederate points at least 26"
    assert g.level_now == "Draw"  # 20.2: a differential of 0
    # The chance of each result on each column: the battle's table's die rows out of six (7.6).
    table = GAMES.game("chattanooga", "classic").scenario.crt
    assert list(g.chances) == table.columns
    for i, column in enumerate(table.columns):
        results = [row[i] for row in table.rows.values()]
        assert g.chances[column] == pytest.approx({r: results.count(r) / 6 for r in set(results)})
