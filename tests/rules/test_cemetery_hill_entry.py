"""Cemetery Hill's entry of reinforcements (003 18.1, instead of the revised 5.4 and 5.5), on an 8 x 8 map
(even columns lower) with the battle's ``when_blocked`` parameters. Road hexes of the map edge: 0804 and
0807 on the east edge, 0801 on the north edge (north of 0804), 0508 on the south edge."""

from __future__ import annotations

import pytest
from rulesmaps import rebel, scenario, sides, union

from rules.core.commands import EndPhase, EnterReinforcement
from rules.core.errors import RuleViolation
from rules.core.events import ReinforcementsBlocked
from rules.core.game import Game
from rules.procedures.reinforcements import entry_hexes
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

CEMETERY_HILL = load("cemetery_hill")
ROADS = sides(
    {("0804", "0704"): {"road"}, ("0807", "0707"): {"road"}, ("0801", "0701"): {"road"}, ("0508", "0507"): {"road"}}
)
CASES = {"revised": {"reinforcements.enemy_zoc": "18.1", "reinforcements.elsewhere": "18.1"}}


def start(units):
    exclusive = {"reinforcements": dict(CEMETERY_HILL.exclusive["reinforcements"])}
    sc = scenario(units, hexsides=ROADS, exclusive=exclusive, cases=CASES, turns=4)
    return new_game(Game(sc, get_ruleset("revised")))


def to_movement(state, side, turn):
    log = []
    while not (state.turn == turn and state.phasing == side and state.phase == "movement"):
        state, events = execute(state, EndPhase())
        log.extend(events)
    return state, log


def test_an_enemy_controlled_entry_hex_delays_the_reinforcement_a_game_turn():
    # 18.0, 18.1 "If a Reinforcement hex is controlled ... by an Enemy unit, the Reinforcement units are
    # delayed one Game-Turn": 0804 is in the zone of the Confederate at 0705 (5.4 would let it enter)
    state = start([union("r", None, arrives=1, entry=["0804"]), rebel("c", "0705")])
    with pytest.raises(RuleViolation) as refused:
        execute(state, EnterReinforcement("r", ("0804",)))
    assert refused.value.case == "18.1"
    with pytest.raises(RuleViolation):  # not elsewhere on its own Game-Turn: it is delayed
        execute(state, EnterReinforcement("r", ("0807",)))
    state, log = to_movement(state, "union", 2)
    assert ReinforcementsBlocked(units=("r",)) in log
    # "Union arrival is on the next unblocked map edge road hex to the south and/or east": 0807 (0805,
    # nearer, is no road hex and in the zone too; 0801 is north)
    assert entry_hexes(state, "r") == ["0807"]
    with pytest.raises(RuleViolation):
        execute(state, EnterReinforcement("r", ("0804",)))
    state, _ = execute(state, EnterReinforcement("r", ("0807",)))
    assert state.positions["r"] == "0807"


def test_an_enemy_occupied_entry_hex_delays_it_too_and_blocked_road_hexes_are_passed_over():
    # 18.1 "controlled or occupied": a Confederate on 0804; on Game-Turn Two 0807 is in the zone of the
    # Confederate at 0707, so the next unblocked is 0508 on the south edge
    state = start([union("r", None, arrives=1, entry=["0804"]), rebel("c", "0804"), rebel("d", "0707")])
    state, log = to_movement(state, "union", 2)
    assert ReinforcementsBlocked(units=("r",)) in log
    assert entry_hexes(state, "r") == ["0508"]


def test_an_unblocked_entry_hex_delays_nothing():
    # 18.1: an entry hex neither controlled nor occupied: the reinforcement may be held back (5.0) and
    # enters later at its own hex, never elsewhere
    state = start([union("r", None, arrives=1, entry=["0804"]), rebel("c", "0101")])
    state, log = to_movement(state, "union", 2)
    assert not any(isinstance(e, ReinforcementsBlocked) for e in log)
    assert entry_hexes(state, "r") == ["0804"]


def test_confederate_arrival_north_or_west_at_any_map_edge_hex():
    # 18.1 "Confederate arrival must be on the next unblocked map edge hex north and/or west of the
    # original entry hex" (no road needed): 0104 in the zone of the Union unit at 0204; 0103 next north
    state = start([rebel("r", None, arrives=1, entry=["0104"]), union("u", "0204")])
    state, log = to_movement(state, "union", 2)
    assert ReinforcementsBlocked(units=("r",)) in log
    state, _ = to_movement(state, "confederate", 2)
    assert entry_hexes(state, "r") == ["0103"]
    state, _ = execute(state, EnterReinforcement("r", ("0103",)))
    assert state.positions["r"] == "0103"


def test_the_battle_map_sends_the_hanover_road_arrivals_to_2120():
    # 18.1, 21.2 "it delays Union reinforcements for one Game-Turn, and forces them to arrive further
    # from the battle": on the battle's map, 2112 blocked sends them to 2120, the next map-edge road hex
    # south; 2120 blocked sends them to 1127; 0104 blocked sends the Confederates to 0103
    from rules.revised.movement import next_unblocked

    game = Game(CEMETERY_HILL, get_ruleset("revised"))
    state = new_game(game)
    union_way = game.battle.reinforcements.when_blocked["union"]
    rebel_way = game.battle.reinforcements.when_blocked["confederate"]
    assert next_unblocked(state, "union", ["2112"], union_way) == ["2120"]
    assert next_unblocked(state, "union", ["2120"], union_way) == ["1127"]
    assert next_unblocked(state, "union", ["0127"], union_way) == ["1127"]
    assert next_unblocked(state, "confederate", ["0104"], rebel_way) == ["0103"]
    assert next_unblocked(state, "union", ["1127"], union_way) == ["2120"]
    assert next_unblocked(state, "confederate", ["1101"], rebel_way) == ["1001"]
    assert next_unblocked(state, "confederate", ["2101"], rebel_way) == ["2001"]
