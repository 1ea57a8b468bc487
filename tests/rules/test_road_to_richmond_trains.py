"""Road to Richmond's Union "Train" and "Siege Train" (003 21.0-21.24), under the revised rules, with the
battle's parameters, on small maps: a road down column 03 (0302-0303-0304-0305-0306) for the Train,
as tests/rules/test_component_trains.py draws it for Chickamauga's (19.0), whose other cases (21.12,
21.13, 21.14, 21.15, 21.17: the same words) its tests prove for both."""

from __future__ import annotations

from rules.core.commands import DeclareAttack, MoveUnit, Retreat
from rules.core.decisions import PendingRetreat
from rules.core.game import Game
from rules.procedures.movement import reachable
from rules.procedures.retreat import RetreatOption, retreat_options
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.combatmaps import refused, to_phase
from tests.rules.rulesmaps import board, rebel, scenario, sides, union
from tests.rules.test_component_trains import eliminated, fight
from tests.rules.test_revised_combat_rules import declared

RICHMOND = load("road_to_richmond")
ROAD3 = sides({(f"03{r:02d}", f"03{r + 1:02d}"): {"road"} for r in range(2, 6)})
CASES = {"revised": RICHMOND.cases["revised"]}


def start(units, first_player="confederate", hexsides=None, **kw):
    exclusive = {k: RICHMOND.exclusive[k] for k in ("trains", "rifled_artillery")}
    ids = {u.id for u in units}
    exclusive["trains"] = {**exclusive["trains"], "units": ["train"] if "train" in ids else [], "road_only": ["siege"] if "siege" in ids else []}
    exclusive["rifled_artillery"] = {**exclusive["rifled_artillery"], "units": ["siege"]}
    sc = scenario([*units, rebel("far", "0808")], hexsides=hexsides or ROAD3, exclusive=exclusive, cases=CASES, first_player=first_player, **kw)
    return new_game(Game(sc, get_ruleset("revised")))


def train(hex_):
    return union("train", hex_, strength=1, movement_allowance=6)


def siege(hex_):
    return union("siege", hex_, type_="artillery", strength=8)


def test_the_battle_names_its_trains():
    # 21.1, 21.2: the Train ("(1) Train", 17.31) and the Siege Train ("8a S", 16.1)
    game = Game(RICHMOND, get_ruleset("revised"))
    assert game.is_train("us-train") and not game.is_train("us-siege-train")
    assert game.road_bound("us-train") and game.road_bound("us-siege-train")
    assert game.battle.rifled(game.units["us-siege-train"]) is not None
    assert game.battle.rifled(game.units["us-art-v"]) is None  # the other Union artillery is not


def test_the_train_retreats_beside_a_confederate_but_not_across_a_creek_21_11():
    # 21.11: "adjacent to a Confederate unit that is not on the other side of a non-bridge or ford creek
    # (not stream) hex side during the Union Player's Combat Phase, it must automatically retreat"
    state = to_phase(start([train("0304"), rebel("c", "0404")], first_player="union"))
    assert state.pending == [PendingRetreat(side="union", unit="train", cause="train")]
    state, _ = execute(state, Retreat("train", "0303"))
    assert state.positions["train"] == "0303"
    creek = {**ROAD3, **sides({("0304", "0404"): {"creek"}})}
    state = to_phase(start([train("0304"), rebel("c", "0404")], first_player="union", hexsides=creek))
    assert not state.pending and state.positions["train"] == "0304"
    for crossing in ({"stream"}, {"creek", "bridge"}, {"creek", "ford"}):  # a stream, a bridge, a ford
        sides_ = {**ROAD3, **sides({("0304", "0404"): crossing})}
        state = to_phase(start([train("0304"), rebel("c", "0404")], first_player="union", hexsides=sides_))
        assert state.pending == [PendingRetreat(side="union", unit="train", cause="train")], crossing


def test_the_train_may_displace_and_be_displaced_21_16():
    # 21.16: "The Train unit may Displace and be Displaced as a consequence of combat" (Chickamauga
    # 19.24 forbids both): its only road hex open holds a Union unit (0303), which it displaces
    units = [train("0304"), union("u", "0303"), rebel("a", "0404"), rebel("c", "0104")]
    state = to_phase(start(units), side="confederate")
    assert retreat_options(state, "train") == [RetreatOption("0303", displace="u")]
    # and a unit whose only hex open is the Train's displaces it up the road (21.13: never stacked)
    units = [train("0303"), union("v", "0304", strength=1), rebel("a", "0404"), rebel("c", "0104")]
    state = to_phase(start(units), side="confederate")
    assert retreat_options(state, "v") == [RetreatOption("0303", displace="train")]
    state, events = fight(state, ["a"], ["0304"], 2, 6)  # 4-1, die 2: Dr
    assert not eliminated(events)


def test_the_siege_train_moves_and_retreats_only_along_roads_21_23():
    # 21.23 (its movement): "may only move along roads and trails, and if forced to retreat off of a road
    # or trail, is eliminated and considered destroyed for Victory Point considerations"
    state = to_phase(start([siege("0304"), rebel("r", "0808")], first_player="union"), "union", "movement")
    reach = reachable(state, "siege")
    assert set(reach.ends) <= {"0302", "0303", "0305", "0306"} and "0305" in reach.ends
    assert refused(state, MoveUnit("siege", ("0304", "0404"))) is not None
    units = [siege("0304"), rebel("a", "0404", strength=12), rebel("b", "0402")]  # 0303, 0305 controlled
    state = to_phase(start(units), side="confederate")
    assert retreat_options(state, "siege") == []
    state, events = fight(state, ["a"], ["0304"], 2, 6)
    assert "siege" in eliminated(events) and "siege" in state.eliminated
    assert state.vp.get("confederate", 0) == 0  # points are the victory block's (22.11 i), 21.24: eight)


def test_the_siege_train_bombards_at_five_hexes_unaffected_by_range_21_21_21_22():
    # 21.21: "a bombardment Range of five hexes"; 21.22: "not subject to Range effects": eight at five
    # hexes (9.19 would make it five)
    units = [siege("0402"), rebel("r", "0407", strength=1), rebel("s", "0408", strength=1)]
    state = to_phase(start(units, hexes=board(10, 10), first_player="union"))
    assert state.game.bombard_range("siege") == 5
    assert declared(state, ["siege"], ["0407"])[1].attack == 8
    assert "up to 5 hexes" in str(refused(state, DeclareAttack(("siege",), ("0408",))))  # six hexes


def test_the_siege_train_defends_with_one_not_increased_by_adjacency_21_23():
    # 21.23: "defends with one Combat Strength Point, which is not increased due to the adjacency of
    # Enemy attacking units" (9.53 would make an artillery unit beside friendly infantry half more)
    units = [rebel("a", "0404", strength=6), siege("0505"), union("i", "0506")]
    state = to_phase(start(units, hexes=board(10, 10)), "confederate", "combat")
    assert declared(state, ["a"], ["0505"])[1].defence == 1
