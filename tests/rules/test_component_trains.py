"""Trains (Chickamauga 19.0, the Union "Train"), under the revised rules, on a small map with a road
0101-0102-...-0108 down column 01."""

from __future__ import annotations

import pytest

from rules.core.commands import DeclareAttack, Decline, MoveUnit, ResolveAttack, Retreat, StrategicMove
from rules.core.decisions import PendingAdvance, PendingRetreat
from rules.core.errors import RuleViolation
from rules.core.events import UnitAdvanced, UnitEliminated
from rules.core.game import Game
from rules.procedures.combat import engagement
from rules.procedures.movement import reachable
from rules.procedures.retreat import RetreatOption, retreat_options
from rules.queries.zoc import enemy_controlled
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import rolls, to_phase
from tests.rules.rulesmaps import rebel, scenario, sides, union

ROAD = sides({(f"01{r:02d}", f"01{r + 1:02d}"): {"road"} for r in range(1, 8)})
CASES = {"revised": {"trains": "19.22", "trains.attack": "19.11", "trains.strategic": "19.23"}}


def start(units, first_player="union"):
    sc = scenario(
        units,
        hexsides=ROAD,
        exclusive={"trains": {"units": ["train"]}},
        cases=CASES,
        first_player=first_player,
    )
    return new_game(Game(sc, get_ruleset("revised")))


def train(hex_="0101"):
    return union("train", hex_, strength=1, movement_allowance=6)


def test_the_train_moves_along_roads_and_trails_only():
    # also Road to Richmond 21.15 (the same rule: six Movement Points along roads or trails only)
    # 19.23
    state = start([train(), rebel("far", "0808")])
    assert set(reachable(state, "train").ends) == {"0102", "0103", "0104", "0105", "0106", "0107"}
    with pytest.raises(RuleViolation):
        execute(state, MoveUnit("train", ("0101", "0201")))
    with pytest.raises(RuleViolation) as refused:
        execute(state, StrategicMove(unit="train", path=("0101", "0102")))
    assert refused.value.case == "19.23"


def test_nothing_moves_through_or_stacks_with_the_train():
    # also Road to Richmond 21.13, 21.14 (the same words)
    # 19.21, 19.22: not through its hex, not into it; the train not through another unit
    state = start([train("0104"), union("u", "0103"), union("v", "0106"), rebel("far", "0808")])
    assert "0104" not in reachable(state, "u").cost
    with pytest.raises(RuleViolation) as refused:
        execute(state, MoveUnit("u", ("0103", "0104", "0105")))
    assert refused.value.case == "19.22"
    assert set(reachable(state, "train").ends) == {"0105"}  # 0103 and 0106 are occupied


def test_the_train_has_no_zone_of_control_and_need_not_be_attacked():
    # also Road to Richmond 21.17 (the same words)
    # 19.3: Confederates move adjacent to it or past it freely and are not required to attack it
    state = start([train("0104"), rebel("c", "0204"), rebel("far", "0808")], first_player="confederate")
    assert not {"0204", "0203", "0105"} & enemy_controlled(state, "confederate")
    assert reachable(state, "c").path("0202") == ("0204", "0203", "0202")  # through 0203, beside the train
    fight = engagement(to_phase(state, side="confederate"))
    assert not fight.owed and "0204" in fight.optional and fight.targets["0204"] == {"0104"}  # it may


def test_the_train_may_never_attack():
    # also Road to Richmond 21.11 ("The Train unit may never attack")
    # 19.11
    state = to_phase(start([train("0104"), rebel("c", "0204", strength=1), rebel("far", "0808")]))
    assert state.pending == [PendingRetreat(side="union", unit="train", cause="train")]  # 19.11, below
    state = state.copy()
    state.pending = []  # the position before that retreat: it may not attack instead
    assert "0104" not in engagement(state).targets and not engagement(state).owed
    with pytest.raises(RuleViolation) as refused:
        execute(state, DeclareAttack(("train",), ("0204",)))
    assert refused.value.case == "19.11"


def test_a_confederate_beside_the_train_may_attack_it():
    # 19.3 takes away its zone of control, not its defence (19.12): the unit beside it attacks it
    state = to_phase(
        start(
            [train("0104"), rebel("c", "0204", strength=4), rebel("far", "0808")], first_player="confederate"
        ),
        side="confederate",
    )
    state, _ = execute(state, DeclareAttack(("c",), ("0104",)))
    assert state.pending


def test_artillery_beside_the_train_only_may_still_bombard_or_attack_it():
    # 19.3 with 9.41: the train has no zone of control, so artillery beside it (and in no enemy zone)
    # may bombard another hex as ever, or attack the train from beside it; the legal choices offer both
    # and decide accepts both (found by self-play: Chickamauga seed 30 was offered the bombardment and
    # refused it)
    units = [train("0104"), rebel("g", "0204", type_="artillery", strength=3), union("u", "0404"), rebel("far", "0808")]
    state = to_phase(start(units, first_player="confederate"), side="confederate")
    assert "0204" not in enemy_controlled(state, "confederate")
    bombarded, _ = execute(state, DeclareAttack(("g",), ("0404",)))  # two hexes away
    assert bombarded.pending[0].bombarding == ("g",)
    attacked, _ = execute(state, DeclareAttack(("g",), ("0104",)))
    assert attacked.pending[0].attackers == ("g",)


def test_no_reinforcement_enters_at_the_trains_hex_nor_the_train_at_an_occupied_one():
    # 19.21: "The Train unit may not stack with any other unit nor may any other unit stack with the Train"
    from rules.procedures.reinforcements import entry_problem

    units = [union("r", None, arrives=1, entry=["0101"]), train("0101"), rebel("far", "0808")]
    assert entry_problem(start(units), "r", "0101").case == "19.22"
    units = [
        union("u", "0101"),
        union("train", None, arrives=1, entry=["0101"], movement_allowance=6),
        rebel("far", "0808"),
    ]
    assert entry_problem(start(units), "train", "0101").case == "19.22"


# -- retreats (19.11, 19.21, 19.23, 19.24), on a road down column 03: 0302-0303-0304-0305-0306 ----------
ROAD3 = sides({(f"03{r:02d}", f"03{r + 1:02d}"): {"road"} for r in range(2, 6)})
RETREAT_CASES = {
    "revised": {
        **CASES["revised"],
        "trains.retreat": "19.23",
        "trains.displacement": "19.24",
        "retreat_blocked": "8.72",
    }
}


def on_road3(units, first_player="confederate"):
    sc = scenario(
        [*units, rebel("far", "0808")],
        hexsides=ROAD3,
        exclusive={"trains": {"units": ["train"]}},
        cases=RETREAT_CASES,
        first_player=first_player,
    )
    return new_game(Game(sc, get_ruleset("revised")))


def fight(state, attackers, defenders, *dice):
    """Declare and resolve one attack with the die rolls ``dice`` (the combat die, then disorder dice)."""
    state, first = execute(state, DeclareAttack(tuple(attackers), tuple(defenders)))
    events = decide(state, ResolveAttack(), rolls(*dice))
    return fold(state, events), first + events


def eliminated(events):
    return {e.unit: e.case for e in events if isinstance(e, UnitEliminated)}


def test_the_train_retreats_when_beside_an_enemy_unit_in_the_union_combat_phase():
    # also Road to Richmond 21.11 ("the Confederate unit may not advance into the vacated hex")
    # 19.11: "adjacent to a Confederate unit during the Union Player Combat Phase, it must automatically
    # retreat"; 0404 controls 0305, so the one road hex open is 0303; no advance follows
    state = to_phase(on_road3([train("0304"), rebel("c", "0404")], first_player="union"))
    assert state.pending == [PendingRetreat(side="union", unit="train", cause="train")]
    assert retreat_options(state, "train") == [RetreatOption("0303")]
    state, events = execute(state, Retreat("train", "0303"))
    assert state.positions["train"] == "0303" and not state.pending
    assert not [e for e in events if isinstance(e, UnitAdvanced)]


def test_the_train_stays_beside_an_enemy_unit_in_the_confederate_combat_phase():
    # 19.11 is the Union Player Combat Phase only (19.3: the Confederate need not attack it)
    state = to_phase(on_road3([train("0304"), rebel("c", "0404")]), side="confederate")
    assert not state.pending and state.positions["train"] == "0304"


def test_the_train_retreats_when_an_enemy_retreat_puts_a_unit_beside_it():
    # 19.11 "if circumstances result in it being adjacent ... during the Union Player Combat Phase": the
    # Confederate at 0404 driven back (Dr) into 0304, beside the train at 0303; after the Union
    # advance (declined), the train retreats up the road to 0302
    units = [train("0303"), union("u", "0505"), rebel("d", "0404", strength=1)]
    state = to_phase(on_road3(units, first_player="union"))
    assert not state.pending  # not beside an enemy unit when the phase begins
    state, _ = fight(state, ["u"], ["0404"], 2, 6)  # 4-1, die 2: Dr; d's disorder die
    state, _ = execute(state, Retreat("d", "0304"))
    assert [type(p) for p in state.pending] == [PendingAdvance, PendingRetreat]
    state, _ = execute(state, Decline())
    assert state.pending == [PendingRetreat(side="union", unit="train", cause="train")]
    assert retreat_options(state, "train") == [RetreatOption("0302")]
    state, _ = execute(state, Retreat("train", "0302"))
    assert state.positions["train"] == "0302" and not state.pending


def test_the_train_forced_off_the_road_by_a_retreat_is_eliminated():
    # also Road to Richmond 21.15 ("forced to retreat to some non-road or non-trail hex, it is destroyed")
    # 19.23: "If, as a result of combat, it would be forced to retreat through a non-road or non-trail hex
    # side, it is eliminated": 0303 (controlled from 0402) and 0305 (from 0404) are closed; 0203 and 0204
    # are open but off the road
    units = [train("0304"), rebel("a", "0404"), rebel("b", "0402")]
    state = to_phase(on_road3(units), side="confederate")
    assert retreat_options(state, "train") == []
    state, events = fight(state, ["a"], ["0304"], 2, 6)  # 4-1, die 2: Dr
    assert eliminated(events) == {"train": "19.23"}
    assert "train" not in state.positions


def test_the_train_may_not_displace():
    # 19.24: "The Train unit may not Displace ... In these circumstances it ... is eliminated": its only
    # road hex open to it holds a Union unit (0303); 0305, 0203, 0204 and 0403 are controlled
    units = [train("0304"), union("u", "0303"), rebel("a", "0404"), rebel("c", "0104")]
    state = to_phase(on_road3(units), side="confederate")
    state, events = fight(state, ["a"], ["0304"], 2, 6)
    assert eliminated(events) == {"train": "19.24"}
    assert state.positions["u"] == "0303"


def test_no_unit_retreats_into_the_trains_hex_nor_displaces_it():
    # 19.21: "nor may any other unit stack with the Train unit": with 0203 and 0204 open, v retreats
    # there, never into 0303 with the train
    state = on_road3([train("0303"), union("v", "0304", strength=1), rebel("a", "0404")])
    assert {o.to for o in retreat_options(state, "v")} == {"0203", "0204"}
    # 19.24: "... or be Displaced as a consequence of combat. In these circumstances ... (or the originally
    # retreating unit) is eliminated": with 0203 and 0204 controlled from 0104, only the train's hex is left
    units = [train("0303"), union("v", "0304", strength=1), rebel("a", "0404"), rebel("c", "0104")]
    state = to_phase(on_road3(units), side="confederate")
    assert retreat_options(state, "v") == []
    state, events = fight(state, ["a"], ["0304"], 2, 6)
    assert eliminated(events) == {"v": "19.24"}
    assert state.positions["train"] == "0303"
