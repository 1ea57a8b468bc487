"""First Bull Run's exclusive rules as components, under the revised rules (003, 17.1, 17.2, 18.0), on
small custom maps: the Confederates held until Game-Turn Three or until attacked (``may_not_move_until``),
Runyon's division held until a Confederate unit crosses Bull Run and stacking with nobody (``stacking``),
and the armies' rout check at the end of each Game-Turn (``army_rout``).

The map: 8 x 8 clear hexes; "across Bull Run" (the Union bank) is columns 06-08."""

from __future__ import annotations

import random

import pytest

from players.selfplay import random_player
from rules.core.commands import DeclareAttack, EndPhase, MoveUnit, ResolveAttack
from rules.core.errors import RuleViolation
from rules.core.events import (
    ArmyRoutChecked,
    GameEnded,
    GameTurnAdvanced,
    ImmobilityReleased,
    VictoryDetermined,
)
from rules.core.game import Game
from rules.procedures.movement import reachable
from rules.procedures.retreat import retreat_options
from rules.queries.stacking import check_stacking_at_end_of_phase
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import refused, rolls
from tests.rules.rulesmaps import rebel, scenario, union

ACROSS = [f"{c:02d}{r:02d}" for c in range(6, 9) for r in range(1, 9)]
HOLDS = {
    "may_not_move_until": {
        "holds": [
            {"side": "confederate", "until_turn": 3, "until_attacked": True, "rule": "may_not_move_until.confederate"},
            {"side": "union", "units": ["runyon"], "until_enemy_enters": "across_bull_run", "rule": "may_not_move_until.runyon"},
        ]
    },
    "stacking": {"alone": ["runyon"]},
}
ROUT = {
    "army_rout": {
        "at_least": 17,
        "per_shaken_or_routed": 1,
        "per_eliminated": 2,
        "levels": {"union": "Confederate Decisive Victory", "confederate": "Union Decisive Victory"},
        "both": "Draw",
    }
}
CASES = {"may_not_move_until.confederate": "17.1", "may_not_move_until.runyon": "17.2", "stacking.alone": "17.2", "army_rout": "18.0"}


def always(n: int):
    return lambda: n


def game(units, exclusive=HOLDS, turns=4):
    s = scenario(units, exclusive=exclusive, cases={"revised": CASES}, turns=turns, areas={"across_bull_run": ACROSS})
    return new_game(Game(s, get_ruleset("revised")))


def settle(state):
    """Make the decisions the combat left pending (retreats, advances) as the random player would."""
    rng = random.Random(1)
    while state.pending:
        state, _ = execute(state, random_player(state, rng), always(3))
    return state


def until(state, side, phase, turn=None):
    """End phases (die rolls of 3 where one is rolled) until ``side``'s ``phase`` (of Game-Turn ``turn``)."""
    for _ in range(20):
        if state.phasing == side and state.phase == phase and (turn is None or state.turn == turn):
            return state
        state, _ = execute(state, EndPhase(), always(3))
    raise AssertionError(f"never reached the {side} {phase} phase")


def test_no_confederate_unit_moves_before_game_turn_three_17_1():
    s = game([union("u", "0707"), union("runyon", "0705"), rebel("c", "0202")])
    s = until(s, "confederate", "movement", 1)
    assert refused(s, MoveUnit("c", ("0202", "0203"))).case == "17.1"  # 17.1: Game-Turn One
    s = until(s, "confederate", "movement", 2)
    assert refused(s, MoveUnit("c", ("0202", "0203"))).case == "17.1"  # Game-Turn Two
    s = until(s, "confederate", "movement", 3)
    s, events = execute(s, MoveUnit("c", ("0202", "0203")))  # 17.1: "until Game-Turn Three"
    assert s.positions["c"] == "0203"


def test_a_confederate_unit_attacked_frees_every_confederate_unit_17_1():
    # 17.1: "or a Confederate unit has been attacked, whichever occurs first": on Game-Turn One
    s = game([union("u", "0404", strength=8), union("runyon", "0807"), rebel("c", "0505", strength=2), rebel("far", "0101")])
    s = until(s, "union", "combat", 1)
    s, declared = execute(s, DeclareAttack(("u",), ("0505",)))
    events = decide(s, ResolveAttack(), always(3))
    released = [e for e in events if isinstance(e, ImmobilityReleased)]
    assert [(e.side, e.cause, e.unit, e.case) for e in released] == [("confederate", "attacked", "c", "17.1")]
    assert set(released[0].units) == {"c", "far"}
    s = settle(fold(s, events))
    s = until(s, "confederate", "movement", 1)
    s, _ = execute(s, MoveUnit("far", ("0101", "0102")))  # a unit not attacked moves too
    assert s.positions["far"] == "0102"


def test_runyon_may_not_move_until_a_confederate_unit_has_crossed_bull_run_17_2():
    s = game([union("runyon", "0808"), union("u", "0302"), rebel("c", "0505"), rebel("d", "0101")])
    assert refused(s, MoveUnit("runyon", ("0808", "0807"))).case == "17.2"  # 17.2
    s, _ = execute(s, MoveUnit("u", ("0302", "0303")))  # the other Union units move
    s = until(s, "confederate", "movement", 3)
    s, events = execute(s, MoveUnit("d", ("0101", "0102")))  # a move on its own bank frees nobody
    assert not [e for e in events if isinstance(e, ImmobilityReleased)]
    s, events = execute(s, MoveUnit("c", ("0505", "0605")))  # 17.2: across Bull Run (into columns 06-08)
    released = [e for e in events if isinstance(e, ImmobilityReleased)]
    assert [(e.side, e.units, e.cause, e.unit, e.hex, e.case) for e in released] == [("union", ["runyon"], "crossed", "c", "0605", "17.2")]
    s = fold(s, [])
    s = until(s, "union", "movement", 4)
    s, _ = execute(s, MoveUnit("runyon", ("0808", "0807")))
    assert s.positions["runyon"] == "0807"


def test_no_unit_may_stack_with_runyons_division_17_2():
    s = game([union("runyon", "0705"), union("u", "0703"), union("v", "0402"), union("w", "0403"), rebel("c", "0101")])
    # 17.0, 17.2: a move may not end in Runyon's hex; it may pass through it (6.33)
    assert refused(s, MoveUnit("u", ("0703", "0704", "0705"))).case == "17.2"
    assert "0705" not in reachable(s, "u").ends and "0706" in reachable(s, "u").ends
    s2, _ = execute(s, MoveUnit("u", ("0703", "0704", "0705", "0706")))
    assert s2.positions["u"] == "0706"
    # an ordinary stack of two is still allowed (6.32)
    s3, _ = execute(s, MoveUnit("v", ("0402", "0403")))
    assert s3.positions["v"] == "0403"
    # a retreat may not end in Runyon's hex either, nor may Runyon's retreat end in an occupied hex
    s4 = s.copy()
    s4.positions["u"] = "0704"
    assert "0705" not in {o.to for o in retreat_options(s4, "u")}
    s4.positions["v"] = "0604"
    assert "0604" not in {o.to for o in retreat_options(s4, "runyon")} and "0704" not in {o.to for o in retreat_options(s4, "runyon")}
    # and no phase ends with another unit in Runyon's hex
    s5 = s.copy()
    s5.positions["u"] = "0705"
    with pytest.raises(RuleViolation) as e:
        check_stacking_at_end_of_phase(s5)
    assert e.value.case == "17.2"


def rout_game(turns=3):
    units = [union(f"u{i}", f"01{i:02d}") for i in range(1, 9)] + [rebel(f"c{i}", f"08{i:02d}") for i in range(1, 9)]
    return game(units, exclusive=ROUT, turns=turns)


def hurt(s, side, shaken=0, eliminated=0):
    """``shaken`` of the side's units Shaken or Routed (alternately) and ``eliminated`` eliminated."""
    s = s.copy()
    mine = sorted(u for u in s.positions if s.game.units[u].side == side)
    for u in mine[:eliminated]:
        del s.positions[u]
        s.eliminated = [*s.eliminated, u]
    for i, u in enumerate(mine[eliminated : eliminated + shaken]):
        s.morale = {**s.morale, u: "shaken" if i % 2 == 0 else "routed"}
    return s


def end_game_turn(s, *dice):
    s = until(s, "confederate", "combat", s.turn)
    return decide(s, EndPhase(), rolls(*dice))


def test_an_army_routs_on_seventeen_or_more_and_play_stops_18_0():
    # 18.0: the Union has 2 Shaken or Routed units (+2) and 6 eliminated (+12): 14 + a roll of 3 = 17
    s = hurt(rout_game(), "union", shaken=2, eliminated=6)
    events = end_game_turn(s, 3, 6)  # the Union rolls first (16.2), then the Confederate
    checks = [(e.side, e.roll, e.shaken_or_routed, e.eliminated, e.total, e.routed, e.case) for e in events if isinstance(e, ArmyRoutChecked)]
    assert checks == [("union", 3, 2, 6, 17, True, "18.0"), ("confederate", 6, 0, 0, 6, False, "18.0")]
    assert [e.level for e in events if isinstance(e, VictoryDetermined)] == ["Confederate Decisive Victory"]
    assert [(e.reason, e.result) for e in events if isinstance(e, GameEnded)] == [("automatic_victory", "Confederate Decisive Victory")]


def test_sixteen_does_not_rout_and_play_goes_on_18_0():
    s = hurt(rout_game(), "union", shaken=2, eliminated=6)
    events = end_game_turn(s, 2, 1)  # 16: no rout
    assert [e.routed for e in events if isinstance(e, ArmyRoutChecked)] == [False, False]
    assert not [e for e in events if isinstance(e, GameEnded | VictoryDetermined)]
    assert [e.turn for e in events if isinstance(e, GameTurnAdvanced)] == [2]


def test_both_armies_routing_on_the_same_game_turn_is_a_draw_18_0():
    s = hurt(hurt(rout_game(), "union", eliminated=6), "confederate", shaken=2, eliminated=6)
    events = end_game_turn(s, 5, 3)  # Union 5 + 12 = 17; Confederate 3 + 2 + 12 = 17
    assert [e.routed for e in events if isinstance(e, ArmyRoutChecked)] == [True, True]
    assert [(e.reason, e.result) for e in events if isinstance(e, GameEnded)] == [("automatic_victory", "Draw")]


def test_the_rout_check_is_made_at_the_end_of_the_last_game_turn_too_18_0():
    s = hurt(rout_game(turns=1), "confederate", eliminated=8)  # +16
    events = end_game_turn(s, 4, 1)
    assert [(e.side, e.routed) for e in events if isinstance(e, ArmyRoutChecked)] == [("union", False), ("confederate", True)]
    assert [(e.reason, e.result) for e in events if isinstance(e, GameEnded)] == [("automatic_victory", "Union Decisive Victory")]


def test_a_retreat_or_an_advance_across_bull_run_frees_runyon_too_17_2():
    # Ruling (17.2 "crossed Bull Run"): a Confederate unit entering the far bank by retreat or advance
    # has crossed as much as by movement; a step inside the bank, or the Union's own, has not
    from rules.core.events import UnitAdvanced, UnitRetreated
    from rules.procedures.restrictions import release_holds

    s = game([union("runyon", "0808"), union("u", "0502"), rebel("c", "0505"), rebel("d", "0707")])
    for events, freed in (
        ([UnitRetreated(unit="c", path=("0505", "0605"))], True),
        ([UnitAdvanced(unit="c", path=("0505", "0605"))], True),
        ([UnitRetreated(unit="d", path=("0707", "0706"))], False),  # from the bank to the bank
        ([UnitAdvanced(unit="u", path=("0502", "0602"))], False),  # a Union unit
    ):
        released = [e for e in release_holds(s, events, s) if e.cause == "crossed"]
        assert bool(released) == freed, events
        if freed:
            assert (released[0].units, released[0].case) == (["runyon"], "17.2")


def test_a_bombardment_of_a_confederate_unit_is_an_attack_17_1():
    # Ruling (17.1 "a Confederate unit has been attacked"): a combat resolved against a Confederate unit by
    # artillery alone (a bombardment) frees the Confederates as any attack; one against a Union unit does not
    from rules.core.events import CombatResolved
    from rules.procedures.restrictions import release_holds

    s = game([union("runyon", "0808"), union("gun", "0302", type_="artillery"), rebel("c", "0505"), rebel("far", "0101")])

    def resolved(attackers, bombarding, hexes, defending):
        return CombatResolved(attackers=attackers, bombarding=bombarding, defenders=hexes, defending=defending,
                              attack=2, defence=4, odds="1:2", column="1:2", die=3, result="NE")

    released = release_holds(s, [resolved((), ("gun",), ("0505",), ("c",))], s)
    assert [(e.side, e.cause, e.unit, e.case, sorted(e.units)) for e in released] == [("confederate", "attacked", "c", "17.1", ["c", "far"])]
    assert release_holds(s, [resolved(("c",), (), ("0302",), ("gun",))], s) == []
