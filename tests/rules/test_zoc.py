"""Zones of control (6.0–6.6; 5.13; Chattanooga 18.13), each on a small map built for the case."""

import pytest
from rulesmaps import board, rebel, sides, start, union

from rules.core.commands import EndPhase, MoveUnit
from rules.core.errors import RuleViolation
from rules.legal import unit_moves
from rules.procedures.movement import reachable
from rules.queries.zoc import enemy_controlled, in_enemy_zone_of_control, zone_of_control
from rules.reducer import decide, execute


def refused(state, command) -> str:
    with pytest.raises(RuleViolation) as e:
        decide(state, command)
    return e.value.case


def test_zone_of_control_is_the_six_hexes_around():
    # 6.0: the six hexagons immediately surrounding a hex
    state = start([union("u", "0101"), rebel("c", "0404")])
    assert sorted(zone_of_control(state, "0404")) == sorted(["0403", "0504", "0505", "0405", "0305", "0304"])
    assert enemy_controlled(state, "union") == set(zone_of_control(state, "0404"))


def test_units_stop_on_entering_an_enemy_controlled_hex():
    # 6.0: all units must cease movement when they enter an enemy controlled hex
    state = start([union("u", "0101"), rebel("c", "0105")])
    assert decide(state, MoveUnit("u", ("0101", "0102", "0103", "0104")))[0].cost == 3
    assert refused(state, MoveUnit("u", ("0101", "0102", "0103", "0104", "0204"))) == "6.0"
    reach = reachable(state, "u")
    assert "0104" in reach.ends and reach.prev.get("0204") != "0104"


def test_no_extra_cost_to_enter_an_enemy_controlled_hex():
    # 6.2: no additional movement points to enter an enemy controlled hex
    state = start([union("u", "0101"), rebel("c", "0105")])
    assert unit_moves(state, "u")["0104"].cost == 3


def test_a_unit_in_an_enemy_zone_of_control_may_not_leave_it():
    # 5.13, 6.3: an enemy controlled hex is never left during a Movement Phase
    state = start([union("u", "0104"), rebel("c", "0105")])
    case = refused(state, MoveUnit("u", ("0104", "0103")))
    assert case == "5.13"
    with pytest.raises(RuleViolation, match="u is in an enemy zone of control at 0104 and may not leave it"):
        decide(state, MoveUnit("u", ("0104", "0103")))
    assert refused(state, MoveUnit("u", ("0104", "0204"))) == "5.13"  # not even into another controlled hex
    assert unit_moves(state, "u") == {}


def test_zones_of_control_are_mutual():
    # 6.4: if a unit is in an enemy controlled hex, the enemy unit is in its controlled hex too
    state = start([union("u", "0104"), rebel("c", "0105")])
    assert in_enemy_zone_of_control(state, "u") and in_enemy_zone_of_control(state, "c")


def test_zones_of_control_bind_in_every_phase():
    # 6.1: units exert a zone of control throughout the Game-Turn: the Union units' bind the
    # Confederates in their own Movement Phase
    state = start([union("u", "0105"), rebel("c", "0101")])
    for _ in range(2):
        state, _ = execute(state, EndPhase())
    assert state.phasing == "confederate"
    assert refused(state, MoveUnit("c", ("0101", "0102", "0103", "0104", "0204"))) == "6.0"


def test_mutually_controlled_hex_still_stops():
    # 6.5: enemy and friendly zones of control co-exist; 5.34 the friendly one does not help
    state = start([union("u", "0101"), union("f", "0203"), rebel("c", "0105")])
    assert "0104" in enemy_controlled(state, "union")
    assert refused(state, MoveUnit("u", ("0101", "0102", "0103", "0104", "0204"))) == "6.0"


def test_no_zone_of_control_through_a_creek_without_bridge_or_ford():
    # 6.6: never through non-bridge and non-ford creek hexsides
    creek = sides({("0103", "0104"): {"creek"}})
    state = start([union("u", "0101"), rebel("c", "0104")], hexsides=creek)
    assert "0103" not in enemy_controlled(state, "union")
    assert decide(state, MoveUnit("u", ("0101", "0102", "0103", "0203")))  # passes 0103 freely
    bridged = sides({("0103", "0104"): {"creek", "bridge"}})
    state = start([union("u", "0101"), rebel("c", "0104")], hexsides=bridged)
    assert "0103" in enemy_controlled(state, "union")
    forded = sides({("0103", "0104"): {"creek", "ford"}})
    state = start([union("u", "0101"), rebel("c", "0104")], hexsides=forded)
    assert "0103" in enemy_controlled(state, "union")


def test_no_zone_of_control_into_a_river_ferry_hex():
    # 6.6: zones of control never extend into river ferry hexes
    hexes = board(terrain={"0103": "ferry", "0203": "river"})
    state = start([union("u", "0101"), rebel("c", "0202")], hexes=hexes)
    assert "0103" not in enemy_controlled(state, "union")
    assert "0102" in enemy_controlled(state, "union")


def test_zone_of_control_extends_across_redoubt_hexsides():
    # Chattanooga 18.13: zones of control do extend across redoubt hexsides
    redoubt = sides({("0103", "0104"): {"redoubt"}})
    state = start([union("u", "0101"), rebel("c", "0104")], hexsides=redoubt)
    assert "0103" in enemy_controlled(state, "union")


def test_the_zone_kept_for_a_position_follows_the_state_changed_in_place():
    # 6.0: enemy_controlled is worked out once per position (rules.core.state.kept), by the state's
    # content: a state changed in place (as a fold or a replay's history changes it) is a new position.
    state = start([union("u", "0101"), rebel("c", "0404")])
    before = enemy_controlled(state, "union")
    assert enemy_controlled(state, "union") is before  # the same position: the kept answer
    state.positions["c"] = "0808"
    assert enemy_controlled(state, "union") == set(zone_of_control(state, "0808"))
    state.positions["c"] = "0404"
    assert enemy_controlled(state, "union") == before
