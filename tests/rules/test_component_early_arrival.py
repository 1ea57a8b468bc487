"""Activation of early reinforcements (Road to Richmond 17.4, 17.5, 22.14), under the revised rules, on
a small map: the area "south" is rows 06-08; hex 0801 is a named hex (within two hexes, here); a Union
reinforcement of chart Game-Turn 7 may arrive one Game-Turn after activation, a Confederate one of
Game-Turn 8 two after."""

from __future__ import annotations

import pytest

from rules.core.commands import EndPhase, EnterReinforcement, MoveUnit
from rules.core.errors import RuleViolation
from rules.core.events import VictoryPointsAwarded
from rules.core.game import Game
from rules.mechanisms.early_arrival import trigger_hexes
from rules.procedures.reinforcements import arrival_turn, due
from rules.procedures.victory import recount
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.rulesmaps import rebel, scenario, union

RICHMOND = load("road_to_richmond")
SOUTH = [f"0{c}0{r}" for c in range(1, 9) for r in (6, 7, 8)]
EARLY = {
    "side": "confederate",
    "areas": ["south"],
    "near": [{"hexes": ["0801"], "within": 2}],
    "schedule": [{"turn": 7, "after": 1}, {"turn": 8, "after": 2}],
    "points": {"union": 5},
}


def start(units, turns=9):
    sc = scenario(
        units, exclusive={"early_arrival": EARLY}, cases={"revised": {"early_arrival": "17.4"}},
        first_player="confederate", turns=turns, areas={"south": SOUTH},
    )
    return new_game(Game(sc, get_ruleset("revised")))


def awards(events):
    return [(e.side, e.points, e.subject) for e in events if isinstance(e, VictoryPointsAwarded) and e.kind == "early_arrival"]


def to(state, turn, side, phase="movement"):
    log = []
    while not (state.turn == turn and state.phasing == side and state.phase == phase):
        state, events = execute(state, EndPhase())
        log += events
    return state, log


def test_the_battle_parameters_17_4_17_5_22_14():
    game = Game(RICHMOND, get_ruleset("revised"))
    hexes = trigger_hexes(game)
    assert {"0407", "0308", "0208", "0117", "1726"} <= hexes  # i) south of the Chickahominy (and the stream)
    assert not {"0406", "0307", "0207", "0103", "1404"} & hexes  # north of them, far from 2426 and 1826
    assert {"2420", "1820", "1923"} <= hexes  # ii) within six hexes of 2426 or 1826 (north-east bank too)
    ea = game.battle.early_arrival
    assert [(a.turn, a.after) for a in ea.schedule] == [(13, 1), (14, 2), (15, 3), (18, 6)] and ea.points == {"union": 5}


def test_a_confederate_unit_entering_the_area_activates_once_17_4_22_14():
    # 17.4 i): "A Confederate unit exists during some part of its Movement ... Phase on a hex on the south
    # side"; 22.14: five Victory Points to the Union; once only
    units = [rebel("c", "0404"), rebel("d", "0304"), union("u", "0101")]
    state = start(units)
    state, events = execute(state, MoveUnit("c", ("0404", "0405", "0406")))
    assert awards(events) == [("union", 5, "1")]
    assert state.vp["union"] == 5
    state, events = execute(state, MoveUnit("d", ("0304", "0305", "0306")))
    assert awards(events) == []


def test_passing_through_counts_and_the_union_does_not_activate_17_4():
    # a move through 0406 back out of the area; a Union unit in the area activates nothing
    state = start([rebel("c", "0405", movement_allowance=6), union("u", "0706")])
    state, events = execute(state, MoveUnit("c", ("0405", "0406", "0506", "0505")))
    assert awards(events) == [("union", 5, "1")]
    state = start([rebel("c", "0101"), union("u", "0706")])
    state, log = to(state, 2, "confederate")
    assert awards(log) == [] and state.vp.get("union", 0) == 0


def test_within_range_of_a_named_hex_17_4_ii():
    # 17.4 ii): "comes within six hexes (inclusive)" (here two) of the named hex
    state = start([rebel("c", "0403"), union("u", "0108")])
    state, events = execute(state, MoveUnit("c", ("0403", "0503")))  # 0503 is three from 0801: nothing
    assert awards(events) == []
    state = start([rebel("c", "0403"), union("u", "0108")])
    state, events = execute(state, MoveUnit("c", ("0403", "0503", "0602")))  # 0602 is two from 0801
    assert awards(events) == [("union", 5, "1")]


def test_early_reinforcements_arrive_on_the_schedule_17_5():
    # 17.5: chart Game-Turn 7 "the Game-Turn after Activation", Game-Turn 8 two after; activated on
    # Game-Turn One: 7 from Game-Turn Two, 8 from Game-Turn Three, not before
    units = [
        rebel("c", "0404"), union("u7", None, arrives=7, entry=["0101"]), rebel("c8", None, arrives=8, entry=["0808"]),
        union("far", "0102"),
    ]
    state = start(units)
    begin = state
    assert arrival_turn(state, "u7") == 7
    state, log = execute(state, MoveUnit("c", ("0404", "0405", "0406")))
    assert arrival_turn(state, "u7") == 2 and arrival_turn(state, "c8") == 3
    state, more = to(state, 1, "union")
    log += more
    assert "u7" not in due(state)
    state, more = to(state, 2, "confederate")
    log += more
    assert "c8" not in due(state)
    with pytest.raises(RuleViolation):
        execute(state, EnterReinforcement("c8", ("0808",)))
    state, more = to(state, 2, "union")
    log += more
    assert "u7" in due(state)
    state, events = execute(state, EnterReinforcement("u7", ("0101",)))
    log += events
    state, more = to(state, 3, "confederate")
    log += more
    assert "c8" in due(state)
    assert recount(begin, log)["union"] == state.vp["union"] == 5


def test_no_activation_once_it_would_bring_nothing_forward_22_14():
    # 22.14 pays for triggering "Early Arrival": here (7 one after, 8 two after) an activation from
    # Game-Turn Six on brings no reinforcement forward, so a unit south then activates nothing. In the
    # battle: from Game-Turn Twelve (13 - 1, 14 - 2, 15 - 3, 18 - 6), when Magruder enters at 0117
    state = start([rebel("c", "0404"), union("u", "0101")])
    state, log = to(state, 6, "confederate")
    state, events = execute(state, MoveUnit("c", ("0404", "0405", "0406")))
    assert awards(log + events) == [] and state.vp.get("union", 0) == 0
    state = start([rebel("c", "0404"), union("u", "0101")])
    state, log = to(state, 5, "confederate")
    state, events = execute(state, MoveUnit("c", ("0404", "0405", "0406")))
    assert awards(events) == [("union", 5, "5")]  # 5 + 1 < 7: Game-Turn 7's come on Game-Turn 6
    ea = Game(RICHMOND, get_ruleset("revised")).battle.early_arrival
    assert ea.brings_forward(11) and not ea.brings_forward(12)
