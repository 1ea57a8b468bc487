"""The Wilderness 18.3 (003): the Union "Train Defence" units, the ``trains`` component with the battle's
own block (zone_of_control, enter_enemy_zoc = false, attacker_retreat, displacement), under the revised
rules on a small clear map with a road down column 03 (0302-0303-0304-0305-0306)."""

from __future__ import annotations

import pytest

from rules.core.commands import Advance, DeclareAttack, MoveUnit, Retreat
from rules.core.decisions import PendingAdvance, PendingRetreat
from rules.core.errors import RuleViolation
from rules.core.game import Game
from rules.procedures.movement import reachable
from rules.procedures.reinforcements import entry_problem
from rules.procedures.retreat import RetreatOption, retreat_options
from rules.queries.zoc import enemy_controlled
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.combatmaps import to_phase
from tests.rules.rulesmaps import rebel, scenario, sides, union

WILDERNESS = load("wilderness")
TRAINS = WILDERNESS.exclusive["trains"]
CASES = {"revised": {k: v for k, v in WILDERNESS.cases["revised"].items() if k.startswith("trains")}}
ROAD3 = sides({(f"03{r:02d}", f"03{r + 1:02d}"): {"road"} for r in range(2, 6)})


def start(units, first_player="union"):
    if not any(u.id == "us-td-2" for u in units):  # the other Train Defence unit, not yet arrived
        units = [*units, union("us-td-2", None, arrives=3, entry=["0301"], movement_allowance=6)]
    sc = scenario([*units, rebel("far", "0808")], hexsides=ROAD3, exclusive={"trains": TRAINS}, cases=CASES, first_player=first_player)
    return new_game(Game(sc, get_ruleset("revised")))


def td(hex_="0303", uid="us-td-1", **kw):
    return union(uid, hex_, strength=6, movement_allowance=6, **kw)


def refusal(state, command) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        execute(state, command)
    return e.value


def test_the_wilderness_train_defence_block_18_3():
    assert TRAINS == {
        "units": ["us-td-1", "us-td-2"],
        "displacement": True,  # 18.35
        "zone_of_control": True,  # the text leaves them their zone (ruling)
        "enter_enemy_zoc": False,  # 18.32
        "attacker_retreat": True,  # 18.31: an Attacker Retreat, then the enemy may advance
    }


def test_a_train_defence_unit_may_never_attack_18_31():
    state = to_phase(start([td("0304"), rebel("c", "0405")], first_player="union"))
    state.pending = []  # the position before its automatic retreat (below)
    assert refusal(state, DeclareAttack(("us-td-1",), ("0405",))).case == "18.31"


def test_beside_an_enemy_in_the_union_combat_phase_it_retreats_and_the_enemy_may_advance_18_31():
    # "it automatically suffers an Attacker Retreat combat result before any Union attacks are resolved.
    # The Confederate unit(s) to which the unit was adjacent may advance after combat."
    state = to_phase(start([td("0304"), rebel("c", "0404")], first_player="union"))
    assert state.pending == [
        PendingRetreat(side="union", unit="us-td-1", cause="train"),
        PendingAdvance(side="confederate", units=("c",), hexes=("0304",)),
    ]
    assert state.morale["us-td-1"] == "disordered"  # 12.11: an Ar from an enemy controlled hex
    assert retreat_options(state, "us-td-1") == [RetreatOption("0303")]  # 0305 is in c's zone
    state, _ = execute(state, Retreat("us-td-1", "0303"))
    state, _ = execute(state, Advance("c", "0304"))
    assert state.positions == {"us-td-1": "0303", "c": "0304", "far": "0808"}


def test_a_train_defence_unit_has_a_zone_of_control_18_3():
    # Chickamauga 19.3 takes a train's zone away; the Wilderness text does not
    state = start([td("0304"), rebel("c", "0606")])
    assert {"0303", "0305", "0203", "0204", "0403", "0404"} <= enemy_controlled(state, "confederate")


def test_it_may_never_enter_an_enemy_controlled_hex_18_32():
    # the rebel at 0405 controls 0305 (and 0306): the road ends at 0304 for the train
    state = start([td("0303"), rebel("c", "0405")])
    assert set(reachable(state, "us-td-1").ends) == {"0302", "0304"}
    assert refusal(state, MoveUnit("us-td-1", ("0303", "0304", "0305"))).case == "18.32"
    # nor enter the map at an entry hex an enemy controls
    entering = start([union("us-td-2", None, arrives=1, entry=["0305"], movement_allowance=6), rebel("c", "0405")])
    assert entry_problem(entering, "us-td-2", "0305").case == "18.32"


def test_it_never_stacks_18_33():
    # "It may not enter an occupied hex during movement nor may any other unit enter a hex containing a
    # Train Defence unit"
    state = start([td("0303"), union("u", "0304"), union("v", "0203")])
    assert set(reachable(state, "us-td-1").ends) == {"0302"}
    assert refusal(state, MoveUnit("v", ("0203", "0303"))).case == "18.33"


def test_it_enters_only_road_and_trail_hexes_18_34():
    # 18.34: a Movement Allowance of six; "They may only enter hexes containing roads and/or trails"
    state = start([td("0302")])
    assert set(reachable(state, "us-td-1").ends) == {"0303", "0304", "0305", "0306"}
    assert refusal(state, MoveUnit("us-td-1", ("0302", "0202")))  # off the road
    # "If forced to retreat to a non-road, non-trail hex as a result of combat, they are eliminated":
    # 0303 (from 0402) and 0305 (from 0404) controlled; 0203, 0204 open but off the road
    boxed = start([td("0304"), rebel("a", "0404"), rebel("b", "0402")], first_player="confederate")
    assert retreat_options(boxed, "us-td-1") == []


def test_it_may_displace_and_be_displaced_18_35():
    # its only road hex open, 0303, holds u, who may step aside to 0302 or 0402: the train displaces it
    state = start([td("0304"), union("u", "0303"), rebel("a", "0404"), rebel("c", "0104")], first_player="confederate")
    assert retreat_options(state, "us-td-1") == [RetreatOption("0303", displace="u")]
    # and a unit whose only hex open is the train's displaces it (the train then retreats up the road)
    state = start([td("0303"), union("v", "0304"), rebel("a", "0404"), rebel("c", "0104")], first_player="confederate")
    assert retreat_options(state, "v") == [RetreatOption("0303", displace="us-td-1")]
