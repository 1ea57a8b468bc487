"""The battle at a glance (api/glance.py), part of every view: the turn track, the Victory Point
schedule and levels in words, the objective hexes and their holders, each side's points and losses,
all read from the battle's components and the rules state at every step of a played game."""

import random

import pytest

from api.glance import glance
from players.selfplay import greedy_player, play
from rules.reducer import fold, new_game
from session.games import GameCache

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
        # 17.15 control; a hex scored for occupation at the end (Chickamauga 21.2) held by the unit standing in it
        standing = {h: units[u].side for u, h in after.positions.items()}
        assert {o.hex: o.holder for o in g.objectives} == {
            o.hex: standing.get(o.hex, after.control.get(o.hex)) if o.rule == "occupied at the end" else after.control.get(o.hex)
            for o in g.objectives
        }
        # the level the game would end with now (the end-of-game points counted: Chickamauga's exits, Shiloh's
        # hexes held at the end), not the points so far: test_the_level_now_is_the_final_determination_without_exits
        assert g.level_now in {lv.level for lv in victory.levels} | {"undetermined"}
        assert after.result is None or g.level_now == after.result
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


def test_the_level_now_is_the_final_determination_without_exits():
    # Road to Vicksburg 21.3 (the printed 19.4): "For the Confederate Player to win a decisive victory,
    # no Friendly units exited from the western map edge can be included in his Victory Point total". On
    # a small map: the Confederate holds 0707 (10 a Game-Turn, Road to Richmond 22.13's award), exits c
    # at 0101 (2 per Strength Point, awarded during play as Chickamauga 21.11 ii) awards them), and the
    # Union scores 15 at the end for the train that did not exit (21.11 iv)). Before the last phase ends
    # the live level must be the one the game then ends with: Substantive (judged without the 12 exit
    # points, awarded during play or not, 15 - 20 is no Decisive), not the Decisive the points scored so
    # far (Confederate 22, Union 0) would give.
    from rules.core.commands import EndPhase, ExitMap
    from rules.core.events import VictoryDetermined
    from rules.core.game import Game
    from rules.reducer import execute
    from rules.rulesets import get as get_ruleset
    from tests.rules.rulesmaps import rebel, scenario, union

    exits = {"hexes": ["0101"], "sides": ["confederate"], "points_per_strength_point": {"confederate": 2},
             "must_exit": [{"unit": "train", "points": 15}]}
    victory = {
        "occupied_each_turn": [{"hexes": ["0707"], "points_each": 10}],
        "levels": [
            {"level": "Confederate Decisive Victory", "max": -10, "without_exits": {"side": "confederate", "hexes": ["0101"]}},
            {"level": "Confederate Substantive Victory", "max": -1},
            {"level": "Draw", "min": 0, "max": 0},
            {"level": "Union Victory", "min": 1},
        ],
    }
    cases = {"revised": {"exits": "18.1", "exits.cost": "18.2", "exits.points": "21.11", "exits.must_exit": "21.11"}}
    units = [rebel("c", "0102", strength=6), rebel("hold", "0707"), rebel("train", "0606"), union("u", "0404")]
    sc = scenario(units, turns=2, first_player="confederate", exclusive={"exits": exits, "victory": victory}, cases=cases)
    state = new_game(Game(sc, get_ruleset("revised")))
    state, _ = execute(state, ExitMap("c", ("0102", "0101")))
    while state.turn == 1:
        state, _ = execute(state, EndPhase())
    assert (state.vp.get("confederate"), state.vp.get("union", 0)) == (22, 0)  # 10 for 0707, 12 for c
    victory_rules = state.game.battle.victory
    so_far = {"union": 0, "confederate": 22}
    assert victory_rules.level_for(so_far, state.control) == "Confederate Decisive Victory"
    while not state.game_over:
        live = glance(state).level_now
        state, events = execute(state, EndPhase())
    final = next(e for e in events if isinstance(e, VictoryDetermined))
    assert (final.union, final.confederate, final.level) == (15, 32, "Confederate Substantive Victory")
    assert live == final.level == state.result == glance(state).level_now


def test_wilderness_objectives_held_as_the_end_would_score_them():
    # 19.13: "All territorial objectives are initially controlled by the Confederate Player", and
    # "Occupation ... calculated at the end of Game-Turn Sixteen": 1/2/VI sets up in Wilderness Tavern
    # (1415), so were the game scored now the Union would hold it (docs/RULINGS.md); Spotswood (0810) and
    # Hickman (1920), where no unit stands, are the Confederate's. The glance shows what the end would score.
    from rules.procedures.victory import end_points

    start = new_game(GAMES.game("wilderness", "revised"))
    holders = {o.hex: o.holder for o in glance(start).objectives}
    assert start.control.get("1415") == "confederate"  # control, as the book's "initially controlled"
    assert holders == {"0810": "confederate", "1415": "union", "1920": "confederate"}
    scored = {a.subject: a.side for a in end_points(start) if a.kind == "occupation"}
    assert scored == holders
