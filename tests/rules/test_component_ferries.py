"""The ferries component (rules/core/components/ferries.py) with Shiloh's River Ferry Crossing (003
20.0) under the revised rules, on a small map: column 05 is the river, its hex 0505 the ferry, entered
from the east bank at 0605 and left into 0405, the landing (Pittsburg Landing's part, 1508)."""

from __future__ import annotations

import pytest
from combatmaps import to_phase

from rules.core.commands import MoveUnit, StrategicMove
from rules.core.errors import RuleViolation
from rules.core.events import UnitMoved
from rules.core.game import Game
from rules.procedures.movement import reachable
from rules.procedures.retreat import RetreatOption, retreat_options
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.rulesmaps import board, rebel, scenario, sides, union

RIVER = {f"05{r:02d}": "river" for r in range(1, 9) if r != 5} | {"0505": "ferry"}
ARROWS = {("0405", "0505"): {"ferry_crossing"}, ("0505", "0605"): {"ferry_crossing"}}
SHILOH_FERRY = {  # scenarios/shiloh: 1608 entered from 1709, left into 1508
    "hexes": ["0505"],
    "sides": ["union"],
    "one_way": [{"hex": "0505", "enter_from": "0605", "leave_to": "0405"}],
    "closed_while_occupied": {"side": "confederate", "hexes": ["0405"]},
}
CASES = {"revised": {"ferries": "20.0", "ferries.end": "6.28", "ferries.retreat": "8.72"}}


def start(units, ferries=SHILOH_FERRY, hexsides=None, first_player="union"):
    sc = scenario(
        units, hexes=board(terrain=RIVER), hexsides=sides({**ARROWS, **(hexsides or {})}),
        exclusive={"ferries": ferries, "control_hexes": {"held_at_start": [{"side": "union", "hexes": ["0405"]}]}},
        cases=CASES, first_player=first_player,
    )
    return new_game(Game(sc, get_ruleset("revised")))


def refusal(state, command) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        execute(state, command)
    return e.value


def test_a_union_unit_crosses_from_east_to_west_for_three_movement_points_20_0():
    # 20.0: "the entry cost of the River ferry hex is three Movement Points": 0705-0605 1, the ferry 3,
    # 0405 1 (clear)
    state = start([union("u", "0705", movement_allowance=6), rebel("far", "0101")])
    assert "0405" in reachable(state, "u").ends and "0505" not in reachable(state, "u").ends  # 6.28
    state, events = execute(state, MoveUnit("u", ("0705", "0605", "0505", "0405")))
    assert events[0] == UnitMoved(unit="u", path=("0705", "0605", "0505", "0405"), cost=5)
    # 6.28: with four points it may not enter the ferry, since it could not reach the far bank
    state = start([union("u", "0705", movement_allowance=4), rebel("far", "0101")])
    assert "0405" not in reachable(state, "u").ends
    assert refusal(state, MoveUnit("u", ("0705", "0605", "0505", "0405"))).case == "6.15"
    assert refusal(state, MoveUnit("u", ("0705", "0605", "0505"))).case == "6.28"


def test_only_from_east_to_west_20_0():
    # 20.0 "they may only cross from east to west": a unit on the landing may not cross to the east
    # bank; "The Ferry Crossing may not be used to evacuate trapped Union forces on the west bank"
    state = start([union("u", "0405", movement_allowance=6), rebel("far", "0101")])
    assert not {"0605", "0705", "0505"} & set(reachable(state, "u").ends)
    assert refusal(state, MoveUnit("u", ("0405", "0505", "0605"))).case == "20.0"
    # nor step in from the east bank and back
    state = start([union("u", "0705", movement_allowance=6), rebel("far", "0101")])
    assert refusal(state, MoveUnit("u", ("0705", "0605", "0505", "0605"))).case == "20.0"


def test_only_union_units_may_use_the_ferry_20_0():
    # 20.0 "Only Union units may use the Ferry Crossing"
    state = start([rebel("c", "0705", movement_allowance=6), union("far", "0101")], first_player="confederate")
    assert "0405" not in reachable(state, "c").ends and "0605" in reachable(state, "c").ends
    assert refusal(state, MoveUnit("c", ("0705", "0605", "0505", "0405"))).case == "20.0"
    # a battle whose ferries any side uses (Chattanooga 20.21): the Confederate crosses
    anyone = {"hexes": ["0505"]}
    state = start([rebel("c", "0705", movement_allowance=6), union("far", "0101")], ferries=anyone, first_player="confederate")
    state, _ = execute(state, MoveUnit("c", ("0705", "0605", "0505", "0405")))
    assert state.positions["c"] == "0405"


def test_closed_while_the_confederate_occupies_the_landing_open_in_its_zone_of_control_20_0():
    # 20.0 "may not be used if Pittsburg Landing (hex 1508) is occupied by Confederate units. It may be
    # used if hex 1508 is merely in a Confederate Zone of Control."
    # in a Confederate zone of control only (0305 is beside 0405): the Union crosses and stops there
    state = start([union("u", "0705", movement_allowance=6), rebel("c", "0305")])
    state, _ = execute(state, MoveUnit("u", ("0705", "0605", "0505", "0405")))
    assert state.positions["u"] == "0405"
    # occupied (18.31): a Confederate unit moved through it: closed, though no unit stands there now
    state = start([union("u", "0705", movement_allowance=6), rebel("c", "0404"), union("far", "0101")], first_player="confederate")
    state, _ = execute(state, MoveUnit("c", ("0404", "0405", "0406")))
    assert state.control["0405"] == "confederate"
    state = to_phase(state, "union", "movement")
    assert "0405" not in reachable(state, "u").ends
    refused = refusal(state, MoveUnit("u", ("0705", "0605", "0505", "0405")))
    assert refused.case == "20.0" and "occupied by Confederate units" in str(refused)
    # a Union unit retakes the landing: open again
    state = start([union("u", "0705", movement_allowance=6), union("w", "0404"), rebel("c", "0101")])
    state.control["0405"] = "confederate"
    assert "0405" not in reachable(state, "u").ends
    state, _ = execute(state, MoveUnit("w", ("0404", "0405")))
    assert state.control["0405"] == "union" and "0405" in reachable(state, "u").ends


def test_the_ferry_is_no_way_out_of_the_west_bank_in_retreat_20_0_8_72():
    # 20.0: no evacuation from the west bank; 8.72: no retreat into a river ferry hex. Trapped at 0405
    # (enemies at 0305 and 0406, their zones over 0404 and 0306, the river at 0506), the unit has no
    # retreat: it is eliminated
    units = [union("u", "0405"), rebel("a", "0305"), rebel("b", "0406")]
    assert retreat_options(start(units), "u") == []
    # where the ferry is two-way (Chattanooga 20.23), it is "forced" into the ferry and eliminated there
    assert retreat_options(start(units, ferries={"hexes": ["0505"]}), "u") == [RetreatOption("0505", eliminated=True)]


def test_no_strategic_movement_through_a_closed_ferry_20_0_6_4():
    # 20.0 binds Strategic Movement (6.4) too: a road through the ferry; the Confederate may not use it
    road = {("0705", "0605"): {"road"}, ("0605", "0505"): {"road", "ferry_crossing"}, ("0505", "0405"): {"road", "ferry_crossing"}}
    units = [rebel("c", "0705"), union("far", "0101")]
    state = start(units, hexsides=road, first_player="confederate")
    refused = refusal(state, StrategicMove("c", ("0705", "0605", "0505", "0405")))
    assert refused.case == "20.0"
    # the Union may
    state = start([union("u", "0705"), rebel("far", "0101")], hexsides=road)
    state, _ = execute(state, StrategicMove("u", ("0705", "0605", "0505", "0405")))
    assert state.positions["u"] == "0405"
