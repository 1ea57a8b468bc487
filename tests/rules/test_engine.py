"""The computer opponent (players/engine.py) and the arena (players/arena.py): it plays only what the
rules allow, through whole games under the referee; it weighs an attack by the die's six faces; it
moves towards the battle's objectives; the arena's arithmetic and command line."""

import json
import random
from types import SimpleNamespace

import msgspec
import pytest
from rulesmaps import scenario, unit
from test_selfplay import battlefield

from api.cli import main
from players.arena import player_named, wilson
from players.engine import Engine, evaluate, expected
from players.engine import victor as winner
from players.review import review
from players.selfplay import PLAYERS, refereed_game
from rules.core.commands import DeclareAttack, EndPhase, MoveLeader, MoveUnit
from rules.core.game import Game
from rules.reducer import decide, fold, new_game
from rules.rulesets import get as get_ruleset


def combat_phase(units, ruleset: str, **kw):
    """The Union's first Combat Phase on a clear 8x8 map."""
    start = new_game(Game(scenario(units, turns=2, **kw), get_ruleset(ruleset)))
    return fold(start, decide(start, EndPhase()))


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
def test_it_bombards_a_weak_target_and_spares_a_strong_one(ruleset):
    # 8.1x / revised 9.1x: a bombardment risks nothing; at 4:1 it is worth a die, at 1:5 (no result
    # against the defender) it is not, so the engine ends the phase rather than roll for nothing.
    weak = combat_phase([unit("g", "union", "0404", type_="artillery"), unit("e", "confederate", "0406", strength=1)], ruleset)
    assert Engine()(weak, random.Random(1)) == DeclareAttack(attackers=("g",), defenders=("0406",))
    strong = combat_phase([unit("g", "union", "0404", type_="artillery"), unit("e", "confederate", "0406", strength=20)], ruleset)
    assert Engine()(strong, random.Random(1)) == EndPhase()


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
def test_an_attack_is_weighed_over_the_six_faces_of_the_die(ruleset):
    # 7.6 / revised 8.6: the same attackers (6 and 1 points, so that an exchange costs the 1) against a
    # 1-point and a 12-point defender: the first gains on average, the second loses (the die matters)
    def score(defence: int) -> tuple[float, float]:
        units = [unit("a", "union", "0404", strength=6), unit("b", "union", "0305", strength=1)]
        state = combat_phase([*units, unit("e", "confederate", "0405", strength=defence)], ruleset)
        command = DeclareAttack(attackers=("a", "b"), defenders=("0405",))
        return expected(state, command, "union", random.Random(1)), evaluate(state, "union")

    (weak, before_weak), (strong, before_strong) = score(1), score(12)
    assert weak > before_weak  # the 6:1 gains on average
    assert strong < before_strong  # the 1:2 loses on average
    assert weak - before_weak > strong - before_strong


def test_it_moves_towards_the_battle_objective():
    # the battle's victory conditions (first control of 0808 for the Union, 20.11 (2)) draw the unit on
    victory = {"first_control": {"side": "union", "hexes": ["0808"], "points_each": 10}, "levels": [{"level": "Draw"}]}
    state = new_game(
        Game(
            scenario([unit("a", "union", "0202"), unit("e", "confederate", "0101", strength=1)], turns=2, exclusive={"victory": victory}),
            get_ruleset("revised"),
        )
    )
    command = Engine()(state, random.Random(1))
    assert isinstance(command, MoveUnit) and command.unit == "a"
    grid = state.game.grid
    assert grid.distance(command.path[-1], "0808") < grid.distance("0202", "0808")


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
@pytest.mark.parametrize("seed", [3, 11])
def test_whole_games_under_the_referee(ruleset, seed):
    # every command the engine gives is one the rules accept (decide raises otherwise), on either side,
    # and the game ends with its level (the referee: 5.13, 5.32, 7.14, 20.1, 20.2)
    start = new_game(battlefield(seed, ruleset))
    for engine_side in ("union", "confederate"):
        other = "confederate" if engine_side == "union" else "union"
        final, _log, _ref = refereed_game(start, random.Random(seed), {engine_side: Engine("easy"), other: PLAYERS["greedy"]})
        assert final.game_over and final.result


def test_the_arena_arithmetic():
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)  # the Wilson interval of 0/10
    low, high = wilson(15, 20)
    assert low == pytest.approx(0.5313, abs=1e-4) and high == pytest.approx(0.8881, abs=1e-4)
    assert winner("Union Marginal Victory") == "union" and winner("Confederate Decisive Victory") == "confederate"
    assert winner("Draw") is None and winner(None) is None
    with pytest.raises(ValueError, match="no level .grandmaster. \\(known: easy, normal, hard, expert\\)"):
        player_named("engine:grandmaster")


def test_arena_command_line(capsys):
    assert main(["arena", "engine:easy", "random", "--ruleset", "classic", "--games", "1", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()[1:]]
    assert [line["side"] for line in lines] == ["union", "confederate"]
    for line in lines:
        assert line["games"] == 1 and line["wins"] + line["draws"] + line["losses"] == 1
        assert set(line["decision_p95_s"]) == {"engine:easy", "random"}
    assert main(["arena", "random", "random", "--ruleset", "classic", "--games", "1", "--side", "confederate", "--json"]) == 0
    (line,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()[1:]]
    assert line["side"] == "confederate" and line["games"] == 1
    assert main(["arena", "engine", "nobody"]) == 1
    assert "no player 'nobody'" in capsys.readouterr().err


# -- the computer's eye in the review (players/review.py) -----------------------------------------------
def step(version, side, before, command):
    return SimpleNamespace(version=version, side=side, before=before, command=command, after=fold(before, decide(before, command)))


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
def test_the_review_flags_a_free_bombardment_left_unfired(ruleset):
    # the Union ended its Combat Phase with a 4:1 bombardment on offer (it risks nothing, 8.1x): the engine
    # prefers the bombardment and scores it higher; the evaluation curve has a point per command
    state = combat_phase([unit("g", "union", "0404", type_="artillery"), unit("e", "confederate", "0406", strength=1)], ruleset)
    played = step(5, "union", state, EndPhase())
    r = review([played], "union", "easy")
    assert [p.version for p in r.points] == [5]
    (d,) = r.decisions
    assert msgspec.json.decode(d.best)["type"] == "declare_attack" and d.loss > 0
    assert d.best_score == pytest.approx(d.played_score + d.loss, abs=0.02)


def test_the_review_agrees_where_the_engine_would_do_the_same():
    state = combat_phase([unit("g", "union", "0404", type_="artillery"), unit("e", "confederate", "0406", strength=20)], "classic")
    r = review([step(5, "union", state, EndPhase())], "union", "easy")
    (d,) = r.decisions
    assert d.best is None and d.loss == 0  # at 1:5 the engine ends the phase too
    assert review([step(5, "union", state, EndPhase())], "confederate", "easy").decisions == []  # not that side's


def test_the_review_at_the_expert_level_weighs_the_searchers_plan():
    # the level expert (players/search.py) reviews too: the Union ended its Movement Phase at once with
    # the battle's objective (0505, first control, 20.11 (2)) in reach; the searcher's plan takes it
    victory = {"first_control": {"side": "union", "hexes": ["0505"], "points_each": 10}, "levels": [{"level": "Draw"}]}
    units = [unit("a", "union", "0202"), unit("e", "confederate", "0101", strength=1)]
    state = new_game(Game(scenario(units, turns=2, exclusive={"victory": victory}), get_ruleset("revised")))
    r = review([step(1, "union", state, EndPhase())], "union", "expert")
    (d,) = r.decisions
    assert r.level == "expert" and d.best is not None and d.loss > 0
    best = msgspec.json.decode(d.best)
    assert best["type"] == "move" and best["path"][-1] == "0505"


def test_report_with_the_computers_eye(tmp_path, capsys):
    from bench.benchmarks.rules import finished_game
    from replay import export
    from session.games import GameCache

    game_id, envelopes = finished_game(GameCache(), "chattanooga", "classic", 2)
    path = tmp_path / "game.jsonl"
    path.write_bytes(export.dumps(envelopes))
    assert main(["report", str(path), "--engine", "confederate", "--level", "easy"]) == 0
    out = capsys.readouterr().out
    assert "the computer's eye (easy) for the Confederate" in out and "GT1" in out
    assert "the engine prefers another command at" in out
    assert "turning points (the evaluation's largest drops for this side" in out and "    1. v" in out
    page = tmp_path / "report.html"
    assert main(["report", str(path), "--engine", "union", "--level", "easy", "--html", str(page)]) == 0
    html = page.read_text()
    assert 'id="evaluation-chart"' in html and "The computer's eye" in html
    assert 'id="turning-points"' in html and 'class="turning-point"' in html
    assert 'class="retry"' not in html  # a file has no server to fork on


# -- the time budget: a bound on the whole decision ----------------------------------------------------
def test_a_spent_budget_stops_the_weighing_of_attacks_inside_the_first():
    # five attacks on offer (7.1: each adjacent enemy hex may be attacked). Unbounded, the engine weighs
    # each over the six faces of the die; with no time at all it scores the position, weighs one face
    # of the first attack (its retreats and losses taken by their first answer, unweighed) and
    # declares or ends the phase: two evaluations, whatever the size of the position.
    from players.engine import LEVELS, Budget, Level, combat_command
    from rules.legal import choices

    units = [unit(f"u{i}", "union", f"0{i}04", strength=4) for i in range(2, 7)]
    units += [unit(f"c{i}", "confederate", f"0{i}05", strength=2) for i in range(2, 7)]
    state = combat_phase(units, "revised")
    legal = choices(state)
    assert len(legal.attacks) >= 5
    unbounded = Budget()
    combat_command(state, legal, LEVELS["hard"], random.Random(1), unbounded)
    assert unbounded.evaluations >= 1 + 5 * 6
    spent = Budget(deadline=0.0)
    command = combat_command(state, legal, Level("none", attacks=40, movers=200, seconds=0.0), random.Random(1), spent)
    assert spent.evaluations == 2
    decide(state, command)  # a legal command all the same


def test_a_spent_budget_stops_the_listing_of_moves_on_a_big_battle():
    # Antietam's first Movement Phase (94 units): with no time the engine lists the destinations of the
    # first unit it draws that has any (not every unit's, as the full legal choices do) and moves it or
    # ends the phase; the decision's work is counted, not timed (the machine's load varies).
    from players.engine import Level
    from scenarios.loader import load

    start = new_game(Game(load("antietam"), get_ruleset("revised")))
    engine = Engine("normal")
    engine.level = Level("none", attacks=40, movers=200, seconds=0.0)
    command = engine(start, random.Random(1))
    assert engine.budget.units <= 3
    decide(start, command)
    ample = Engine("normal")  # time to spare (no timing in the test: the machine's load varies)
    ample.level = Level("ample", attacks=40, movers=12, seconds=600.0)
    ample(start, random.Random(1))
    assert ample.budget.units > 10


# -- the evaluation knows the level of victory ----------------------------------------------------------
def test_the_evaluation_knows_a_demoralized_winners_level_is_reduced():
    # Hooker and Lee 21.2, 21.3 on a small map: the Union leads 12 points to 4 (21.2 "the ratio of
    # Confederate Victory Points to Union Victory Points", 1:3, a Union Marginal Victory), but its army is
    # Demoralized (20.11: losses of 4, above 3) and the Confederate's is not: the level is reduced to a
    # Confederate Marginal Victory (21.3). The points are the same either way; the evaluation sees the
    # level turn from a win to a loss, weighed by the share of the game played.
    from players.engine import LEVEL, point_value
    from rules.core.events import ArmyDemoralized, UnitEliminated
    from rules.core.handlers import apply

    exclusive = {
        "victory": {
            "per_enemy_strength_point_eliminated": {"confederate": 1, "union": 3},
            "ratio_of": ["confederate", "union"],
            "levels": [
                {"level": "Confederate Marginal Victory", "above": "1:1"},
                {"level": "Union Marginal Victory", "at_most": "1:1"},
            ],
        },
        "demoralization": {
            "armies": [{"side": "union", "losses_above": 3}, {"side": "confederate", "losses_above": 10}],
            "reduced": [
                {"side": "union", "level": "Union Marginal Victory", "to": "Confederate Marginal Victory"},
                {"side": "confederate", "level": "Confederate Marginal Victory", "to": "Union Marginal Victory"},
            ],
        },
    }
    units = [unit("u1", "union", "0202"), unit("u2", "union", "0203"), unit("c1", "confederate", "0707"), unit("c2", "confederate", "0708")]
    state = new_game(Game(scenario(units, turns=4, exclusive=exclusive), get_ruleset("revised")))
    for u in ("u1", "c2"):
        apply(state, UnitEliminated(unit=u, case="8.6"))
    leading = evaluate(state, "union")
    demoralized = state.copy()
    apply(demoralized, ArmyDemoralized(side="union", demoralized=True, losses=4, limit=3, case="20.11"))
    played = state.turn / 4
    assert leading - evaluate(demoralized, "union") == pytest.approx(2 * LEVEL * played * point_value(state, "union"))
    assert evaluate(demoralized, "confederate") > evaluate(state, "confederate")


def test_the_army_marches_on_the_hex_a_level_asks_it_to_occupy():
    # Shiloh 18.2 on a small map: a level asks the Union to occupy 0808. Every Union unit, not only the
    # nearest, gains by coming nearer to it, however far (the nearest-unit pull alone fades with distance).
    from players.engine import Position

    victory = {
        "per_enemy_strength_point_eliminated": {"union": 1, "confederate": 1},
        "levels": [{"level": "Union Marginal Victory", "occupied": {"side": "union", "hexes": ["0808"]}}, {"level": "Draw"}],
    }
    units = [unit("a", "union", "0606"), unit("b", "union", "0101"), unit("e", "confederate", "0108", strength=1)]
    state = new_game(Game(scenario(units, turns=2, exclusive={"victory": victory}), get_ruleset("revised")))
    pos = Position(state, "union")
    assert pos.gain("b", "0202") > 0.5  # one hex nearer, the farther unit
    assert pos.gain("b", "0202") > pos.gain("b", "0102")  # nearer beats sideways


def test_the_units_without_a_move_that_gains_are_not_examined_again_in_the_phase():
    # "b" (not the nearest to the objective, 20.11 (2): 0808, and no enemy near) has no move that gains,
    # "a" has: whichever the engine draws first, it moves "a"; "b" is remembered as idle for the phase
    # and not examined again, so that the decisions of a phase short of time still examine every unit
    # before one ends it.
    from players.engine import LEVELS, Budget, movement_command
    from rules.legal import choices

    victory = {"first_control": {"side": "union", "hexes": ["0808"], "points_each": 10}, "levels": [{"level": "Draw"}]}
    units = [unit("a", "union", "0606"), unit("b", "union", "0101"), unit("e", "confederate", "0108", strength=1)]
    state = new_game(Game(scenario(units, turns=2, exclusive={"victory": victory}), get_ruleset("revised")))
    legal = choices(state, destinations=False)
    for seed in range(1, 7):
        idle: set[str] = set()
        first = Budget.seconds(60)
        command = movement_command(state, legal, LEVELS["normal"], random.Random(seed), first, idle)
        assert isinstance(command, MoveUnit) and command.unit == "a"
        assert idle == {"b"} and first.units == 2
        again = Budget.seconds(60)
        movement_command(state, legal, LEVELS["normal"], random.Random(seed), again, idle)
        assert again.units == 1


def test_a_leader_goes_to_the_strongest_stack_at_the_front_23_51():
    # Grand Chancellorsville 23.51, 23.55: Hooker (four stars), behind with a, goes to the stack in contact
    # with the enemy he may ride with, b's (8) rather than c's (4); once there he stays
    units = [
        unit("a", "union", "0102"),
        unit("b", "union", "0702", strength=8),
        unit("c", "union", "0705"),
        unit("r", "confederate", "0802"),
        unit("q", "confederate", "0805"),
    ]
    hooker = {"id": "hooker", "name": "Hooker", "side": "union", "stars": 4, "with": "a"}
    exclusive = {"leaders": {"leaders": [hooker], "movement_allowance": 12, "forced_march": 24}}
    start = new_game(Game(scenario(units, turns=2, exclusive=exclusive), get_ruleset("revised")))
    command = Engine()(start, random.Random(1))
    assert isinstance(command, MoveLeader) and command.leader == "hooker" and command.path[-1] == "0702"
    after = fold(start, decide(start, command))
    assert not isinstance(Engine()(after, random.Random(1)), MoveLeader)


def test_a_phase_that_may_not_end_is_decided_within_a_spent_budget(monkeypatch):
    # 6.32 (5.32): three Union units in 0505 at the start, over the limit of two: the phase may not end
    # until one leaves. With its time spent before it examined a unit (a level of no movers), the engine
    # lists the moves of the units of the over-full hex, not of every unit of the army, and still makes a
    # move the rules accept; decision after decision it moves one out and then ends the phase, each
    # decision doing bounded work (counted, not timed).
    import players.engine
    from players.engine import Budget, Level, movement_command
    from rules.legal import choices

    spent = Level("spent", attacks=4, movers=0, seconds=0.0)
    listed: list[str] = []  # the units whose moves a decision lists (the costly part on a big battle)
    unit_commands = players.engine.unit_commands
    monkeypatch.setattr(players.engine, "unit_commands", lambda s, legal, u, memo: listed.append(u) or unit_commands(s, legal, u, memo))
    victory = {"levels": [{"level": "Draw"}]}
    crowd = [unit(f"a{i}", "union", "0505") for i in range(3)]
    others = [unit(f"b{i}", "union", f"01{i + 1:02d}") for i in range(6)]
    enemy = [unit("e", "confederate", "0808", strength=1)]
    state = new_game(Game(scenario(crowd + others + enemy, turns=2, exclusive={"victory": victory}), get_ruleset("revised")))
    assert not choices(state, destinations=False).may_end_phase
    idle: set[str] = set()
    for decisions in range(1, 10):
        legal = choices(state, destinations=False)
        listed.clear()
        command = movement_command(state, legal, spent, random.Random(decisions), Budget.seconds(0.0), idle)
        assert len(set(listed)) <= len(crowd)  # the over-full hex's units only
        if isinstance(command, EndPhase):
            break
        state = fold(state, decide(state, command))
    assert isinstance(command, EndPhase) and decisions <= 1 + len(crowd + others)
    assert max(list(state.positions.values()).count(h) for h in state.positions.values()) <= 2


def test_turning_points_are_the_largest_drops_for_the_side_with_their_player_turns_start():
    from players.review import Point, turning_points

    def at(version, side, turn, phasing):
        return SimpleNamespace(version=version, side=side, before=SimpleNamespace(turn=turn, phasing=phasing))

    steps = [at(3, "union", 1, "union"), at(4, "union", 1, "union"), at(5, "confederate", 1, "confederate"),
             at(6, "confederate", 1, "confederate"), at(7, "union", 2, "union")]
    union = [2.0, 1.0, -4.0, -3.0, -9.0]  # after each step; 0.0 before the first
    points = [Point(s.version, s.before.turn, u) for s, u in zip(steps, union, strict=True)]
    found = turning_points(steps, points, "union", start=0.0)
    assert [(t.version, t.change, t.turn_start, t.by) for t in found] == [(7, -6.0, 6, "union"), (5, -5.0, 4, "confederate"),
                                                                          (4, -1.0, 2, "union")]
    # for the Confederate the rises of the Union are the drops
    assert [(t.version, t.change) for t in turning_points(steps, points, "confederate", start=0.0)] == [(3, -2.0), (6, -1.0)]
