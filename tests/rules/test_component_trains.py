"""Trains (Chickamauga 19.0, the Union "Train"), under the revised rules, on a small map with a road
0101-0102-...-0108 down column 01."""

from __future__ import annotations

import pytest

from rules.core.commands import DeclareAttack, MoveUnit, StrategicMove
from rules.core.errors import RuleViolation
from rules.core.game import Game
from rules.procedures.combat import engagement
from rules.procedures.movement import reachable
from rules.queries.zoc import enemy_controlled
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import to_phase
from tests.rules.rulesmaps import rebel, scenario, sides, union

ROAD = sides({(f"01{r:02d}", f"01{r + 1:02d}"): {"road"} for r in range(1, 8)})
CASES = {"revised": {"trains": "19.22", "trains.attack": "19.11", "trains.strategic": "19.23"}}


def start(units, first_player="union"):
    sc = scenario(units, hexsides=ROAD, exclusive={"trains": {"units": ["train"]}}, cases=CASES, first_player=first_player)
    return new_game(Game(sc, get_ruleset("revised")))


def train(hex_="0101"):
    return union("train", hex_, strength=1, movement_allowance=6)


def test_the_train_moves_along_roads_and_trails_only():
    # 19.23
    state = start([train(), rebel("far", "0808")])
    assert set(reachable(state, "train").ends) == {"0102", "0103", "0104", "0105", "0106", "0107"}
    with pytest.raises(RuleViolation):
        execute(state, MoveUnit("train", ("0101", "0201")))
    with pytest.raises(RuleViolation) as refused:
        execute(state, StrategicMove(unit="train", path=("0101", "0102")))
    assert refused.value.case == "19.23"


def test_nothing_moves_through_or_stacks_with_the_train():
    # 19.21, 19.22: not through its hex, not into it; the train not through another unit
    state = start([train("0104"), union("u", "0103"), union("v", "0106"), rebel("far", "0808")])
    assert "0104" not in reachable(state, "u").cost
    with pytest.raises(RuleViolation) as refused:
        execute(state, MoveUnit("u", ("0103", "0104", "0105")))
    assert refused.value.case == "19.22"
    assert set(reachable(state, "train").ends) == {"0105"}  # 0103 and 0106 are occupied


def test_the_train_has_no_zone_of_control_and_need_not_be_attacked():
    # 19.3: Confederates move adjacent to it or past it freely and are not required to attack it
    state = start([train("0104"), rebel("c", "0204"), rebel("far", "0808")], first_player="confederate")
    assert not {"0204", "0203", "0105"} & enemy_controlled(state, "confederate")
    assert reachable(state, "c").path("0202") == ("0204", "0203", "0202")  # through 0203, beside the train
    fight = engagement(to_phase(state, side="confederate"))
    assert not fight.owed and "0204" in fight.optional and fight.targets["0204"] == {"0104"}  # it may


def test_the_train_may_never_attack():
    # 19.11
    state = to_phase(start([train("0104"), rebel("c", "0204", strength=1), rebel("far", "0808")]))
    assert "0104" not in engagement(state).targets and not engagement(state).owed
    with pytest.raises(RuleViolation) as refused:
        execute(state, DeclareAttack(("train",), ("0204",)))
    assert refused.value.case == "19.11"


def test_a_confederate_beside_the_train_may_attack_it():
    # 19.3 takes away its zone of control, not its defence (19.12): the unit beside it attacks it
    state = to_phase(start([train("0104"), rebel("c", "0204", strength=4), rebel("far", "0808")], first_player="confederate"), side="confederate")
    state, _ = execute(state, DeclareAttack(("c",), ("0104",)))
    assert state.pending


def test_no_reinforcement_enters_at_the_trains_hex_nor_the_train_at_an_occupied_one():
    # 19.21: "The Train unit may not stack with any other unit nor may any other unit stack with the Train"
    from rules.procedures.reinforcements import entry_problem

    units = [union("r", None, arrives=1, entry=["0101"]), train("0101"), rebel("far", "0808")]
    assert entry_problem(start(units), "r", "0101").case == "19.22"
    units = [union("u", "0101"), union("train", None, arrives=1, entry=["0101"], movement_allowance=6), rebel("far", "0808")]
    assert entry_problem(start(units), "train", "0101").case == "19.22"
