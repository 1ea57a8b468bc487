"""Combat (1975 7.0–7.9, 9.0 combat column, Chattanooga 18.1x redoubts), each case on a small map.


Hexes (even columns lower): 0404 touches 0403 0504 0505 0405 0305 0304; 0505 touches 0504 0604 0605
0506 0405 0404; 0604 touches 0603 0704 0705 0605 0505 0504.
"""

import random

import pytest
from combatmaps import attack, declare, of_type, refused, rolls, to_phase
from rulesmaps import board, chattanooga_crt, rebel, sides, start, union

from players.selfplay import dice_from, random_player
from rules.combat_choices import preview
from rules.core import crt
from rules.core.commands import ChooseLosses, DeclareAttack, Decline, EndPhase, ResolveAttack, Retreat
from rules.core.decisions import PendingAttack, PendingLosses, PendingRetreat
from rules.core.events import AttackDeclared, CombatResolved, LossesTaken, OddsReduced, UnitEliminated
from rules.core.hexes import hexside
from rules.core.scenario import Hexside
from rules.legal import choices
from rules.procedures.combat import defence_multiplier
from rules.procedures.sequence import to_act
from rules.reducer import decide, execute, fold

COLUMNS = ["1-5", "1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"]


def duel(a=4, d=4, terrain=None, hexsides=None, **kw):
    """Union ``a`` at 0404 against Confederate ``d`` at 0505, in the Union Combat Phase."""
    units = [union("a", "0404", strength=a), rebel("d", "0505", strength=d), *kw.pop("more", [])]
    return to_phase(start(units, hexes=board(terrain=terrain or {}), hexsides=hexsides or {}, **kw))


def odds(state, attackers, defenders):
    return preview(state, attackers, defenders).odds


# -- the table and the odds ------------------------------------------------------------------------
def test_combat_results_table_is_the_chattanooga_table():
    # 7.6: the table as the index of the rule-book texts reads the damaged text (rows 1-4 one more Dr)
    table = chattanooga_crt()
    assert table.columns == COLUMNS
    assert table.rows["1"] == ["Ar", "Ar", "Dr", "Dr", "Dr", "Dr", "De", "De", "De", "De"]
    assert table.rows["4"] == ["Ae", "Ar", "Ar", "Ar", "Ar", "Dr", "Dr", "Dr", "Dr", "Dr"]
    assert table.rows["5"] == ["Ae", "Ae", "Ar", "Ar", "Ar", "Ar", "Dr", "Ex", "Ex", "Dr"]
    assert table.rows["6"] == ["Ae", "Ae", "Ae", "Ae", "Ar", "Ar", "Ex", "Ex", "Ex", "Ex"]
    assert "rule-book texts" in table.provenance  # the reading is the index's
    assert crt.result(table, "3-1", 6) == "Ex"


def test_thirteen_against_four_is_three_to_one():
    # 7.0: "if thirteen Strength Points were attacking four ... 3.25 to 1, rounded off (always in
    # favor of the defender) to three to one"
    assert crt.column_of(13, 4, COLUMNS) == "3-1"
    state = duel(a=13, d=4)
    _, events = declare(state, ["a"], ["0505"])
    assert events[0].attack.odds == "3-1"


def test_odds_round_in_the_defenders_favour_and_stop_at_the_table_edges():
    # 7.0 rounding; 7.6: "greater than 6-1 are treated as 6-1; worse than 1-5 are treated as 1-5"
    assert crt.column_of(4, 10, COLUMNS) == "1-3"
    assert crt.column_of(5, 10, COLUMNS) == "1-2"
    assert crt.column_of(7, 4, COLUMNS) == "1-1"
    assert crt.column_of(30, 4, COLUMNS) == "6-1"
    assert crt.column_of(1, 9, COLUMNS) == "1-5"


def test_a_five_on_rough_defends_as_ten():
    # 7.4: "a unit with a Combat Strength of 5 would defend, on a Rough Terrain hex, at ... 10"
    state = duel(a=10, d=5, terrain={"0505": "rough"})
    _, events = declare(state, ["a"], ["0505"])
    assert (events[0].attack.defence, events[0].attack.odds) == (10, "1-1")


def test_terrain_effects_chart_combat_column():
    # 9.0: rough, forest & rough and town double the defender; clear and forest do not
    for kind, defence in [("clear", 4), ("forest", 4), ("rough", 8), ("forest_rough", 8), ("town", 8)]:
        state = duel(a=8, d=4, terrain={"0505": kind})
        assert preview(state, ["a"], ["0505"]).defence == defence, kind


def test_bridge_or_ford_doubles_only_when_every_attacker_crosses_one():
    # 9.0: "Defender doubled if all attacking units attack across bridge (or ford) hexsides"
    spec = {("0404", "0505"): {"creek", "bridge"}, ("0604", "0505"): {"creek", "ford"}}
    state = duel(a=4, d=4, hexsides=sides(spec), more=[union("b", "0604"), union("c", "0506")])
    assert defence_multiplier(state, "0505", ["0404", "0604"]) == 2
    assert defence_multiplier(state, "0505", ["0404", "0604", "0506"]) == 1  # 0506 attacks across an open hexside
    assert preview(state, ["a", "b", "c"], ["0505"]).defence == 4


def test_attacks_across_a_creek_only_at_bridges_or_fords():
    # 9.0 Creek Hexside: "May only attack across bridges (or fords)"
    state = duel(hexsides=sides({("0404", "0505"): {"creek"}}), more=[union("b", "0604")])
    problem = refused(state, DeclareAttack(("a",), ("0505",)))
    assert problem.case == "9.0"


def redoubt(a: str, b: str, barbed: str) -> dict:
    return {hexside(a, b): Hexside(features=frozenset({"redoubt"}), barbed=barbed)}


def test_redoubt_triples_when_every_attacker_attacks_from_the_barbed_side():
    # 18.0, 18.11, 18.12: tripled only "when attacked exclusively across redoubt hexsides from the enemy side"
    walls = {**redoubt("0404", "0505", "0404"), **redoubt("0604", "0505", "0604")}
    state = duel(a=4, d=2, hexsides=walls, more=[union("b", "0604")])
    assert preview(state, ["a", "b"], ["0505"]).defence == 6
    assert defence_multiplier(state, "0505", ["0404", "0604", "0506"]) == 1  # 0506 is not behind a redoubt
    wrong_way = redoubt("0404", "0505", "0505")  # the barbed symbol is on the defender's side
    state = duel(a=4, d=2, hexsides=wrong_way)
    assert preview(state, ["a"], ["0505"]).defence == 2


def test_terrain_multipliers_do_not_combine():
    # Ruling (7.4, 9.0): the greatest multiplier applies: rough and a bridge double once, rough and a
    # redoubt triple
    bridge = sides({("0404", "0505"): {"creek", "bridge"}})
    state = duel(a=4, d=2, terrain={"0505": "rough"}, hexsides=bridge)
    assert preview(state, ["a"], ["0505"]).defence == 4
    state = duel(a=4, d=2, terrain={"0505": "rough"}, hexsides=redoubt("0404", "0505", "0404"))
    assert preview(state, ["a"], ["0505"]).defence == 6


def test_bombardment_alone_gets_no_hexside_effect():
    # Ruling (9.0): bombarding artillery crosses no hexside
    state = to_phase(
        start(
            [union("gun", "0304", type_="artillery", strength=4), rebel("d", "0505", strength=2), rebel("far", "0808")],
            hexsides=redoubt("0404", "0505", "0404"),
        )
    )
    assert preview(state, ["gun"], ["0505"]).defence == 2


# -- who attacks ------------------------------------------------------------------------------------
def test_combat_is_mandatory():
    # 7.0 "Combat between adjacent opposing units is mandatory"; 7.12: units in an enemy zone must attack
    state = duel()
    legal = choices(state)
    assert not legal.may_end_phase and legal.end_phase_refused.case == "7.12"
    assert refused(state, EndPhase()).case == "7.12"
    state, _ = attack(state, ["a"], ["0505"], die=4)  # 1-1, Ar
    assert to_act(state) == "union"  # the attacker retreats
    assert state.pending[0] == PendingRetreat(side="union", unit="a")


def test_every_enemy_with_friendly_units_in_its_zone_must_be_attacked():
    # 7.11, 7.23: a unit adjacent to two enemies attacks both unless some other unit engages one
    units = [union("x", "0404", strength=6), rebel("e1", "0505", strength=2), rebel("e2", "0403", strength=2)]
    state = to_phase(start(units))
    assert refused(state, DeclareAttack(("x",), ("0505",))).case == "7.23"
    state2, _ = declare(state, ["x"], ["0505", "0403"])  # one multi-hex attack (7.25)
    assert state2.pending[0].defence == 4
    # With another unit next to e2, x may attack e1 alone; the other must then attack e2.
    state = to_phase(start([*units, union("y", "0503")]))
    state, _ = attack(state, ["x"], ["0505"], die=1)  # 3-1, De
    state, _ = execute(state, Decline())  # no advance
    assert refused(state, EndPhase()).case == "7.12"
    state, _ = attack(state, ["y"], ["0403"], die=1)  # 1-1, Dr
    assert state.pending[0] == PendingRetreat(side="confederate", unit="e2")


def test_a_declaration_that_strands_a_unit_is_refused_and_never_offered():
    # 7.12, 7.14, 7.23 with no dead end: x has only e to attack; y is next to e and f. y attacking e
    # alone would leave x no enemy to attack; x and y attacking e would leave f unattackable.
    units = [
        union("x", "0404"),
        union("y", "0604"),
        rebel("e", "0505", strength=2),
        rebel("f", "0705", strength=2),
    ]
    state = to_phase(start(units))
    assert refused(state, DeclareAttack(("y",), ("0505",))).case == "7.12"
    assert refused(state, DeclareAttack(("x", "y"), ("0505",))).case == "7.23"
    assert refused(state, DeclareAttack(("y",), ("0505", "0705"))).case == "7.12"
    offered = {(o.defenders, a.hexes) for o in choices(state).attacks for a in o.adjacent}
    assert offered == {(("0505",), ("0404",)), (("0705",), ("0604",))}
    decide(state, DeclareAttack(("x",), ("0505",)))
    decide(state, DeclareAttack(("y",), ("0705",)))


def test_no_unit_attacks_or_is_attacked_twice():
    # 7.14; 7.3: a unit's strength is never divided among combats
    units = [union("a", "0404", strength=12), union("gun", "0606", type_="artillery", strength=2)]
    state = to_phase(start([*units, rebel("d", "0505", strength=1), rebel("far", "0101")]))
    state, _ = attack(state, ["a"], ["0505"], die=4)  # 6-1, Dr
    assert [o.to for o in choices(state).decision.options] == ["0604"]  # the others are in a zone
    state, _ = execute(state, Retreat("d", "0604"))
    state, _ = execute(state, Decline())  # a does not advance
    assert refused(state, DeclareAttack(("a",), ("0604",))).case == "7.14"
    assert refused(state, DeclareAttack(("gun",), ("0604",))).case == "7.14"
    assert choices(state).attacks == [] and choices(state).may_end_phase


def test_only_adjacent_units_attack():
    # 7.15: units may only attack when adjacent (artillery aside, 8.0)
    state = to_phase(start([union("a", "0404"), union("far", "0402"), rebel("d", "0505")]))
    assert refused(state, DeclareAttack(("far",), ("0505",))).case == "7.15"


def test_a_stack_defends_as_one_strength():
    # 7.21: "the Strengths of all the units in the hex are totalled"
    state = duel(a=12, d=2, more=[rebel("d2", "0505", strength=3)])
    assert preview(state, ["a"], ["0505"]).defence == 5


def test_units_of_one_hex_attack_together():
    # 7.22: units in one hex are one integral strength
    state = duel(a=4, d=2, more=[union("a2", "0404", strength=3)])
    assert refused(state, DeclareAttack(("a",), ("0505",))).case == "7.22"
    assert preview(state, ["a", "a2"], ["0505"]).attack == 7


def test_units_of_several_hexes_combine_against_one():
    # 7.13, 7.24: as many units as six adjacent hexes (and artillery in range) may bring to bear
    around = ["0504", "0604", "0605", "0506", "0405", "0404"]
    units = [union(f"u{i}", h, strength=1) for i, h in enumerate(around)]
    state = to_phase(start([*units, union("gun", "0703", type_="artillery", strength=3), rebel("d", "0505", strength=2)]))
    p = preview(state, [f"u{i}" for i in range(6)] + ["gun"], ["0505"])
    assert (p.attack, p.odds) == (9, "4-1")


def test_multi_hex_attacks_need_every_attacker_adjacent_to_every_defender():
    # 7.25
    units = [union("x", "0404"), union("y", "0503"), rebel("e1", "0505"), rebel("e2", "0403")]
    state = to_phase(start(units))
    assert refused(state, DeclareAttack(("x", "y"), ("0505", "0403"))).case == "7.25"
    assert preview(state, ["x"], ["0505"]).odds == "1-1"  # y attacks e2 afterwards


def test_diversionary_attacks_at_poor_odds_are_allowed():
    # 7.5: a holding attack at poor odds so that another is made at better ones
    units = [union("x", "0404", strength=1), union("y", "0604", strength=12), rebel("e", "0505", strength=6)]
    state = to_phase(start([*units, rebel("f", "0705", strength=2)]))
    assert preview(state, ["x"], ["0505"]).odds == "1-5"
    assert preview(state, ["y"], ["0705"]).odds == "6-1"


def test_no_combat_in_the_movement_phase():
    # 5.14: no combat takes place during the Movement Phase
    state = start([union("a", "0404"), rebel("d", "0505")])
    assert refused(state, DeclareAttack(("a",), ("0505",))).case == "5.14"


def test_only_the_phasing_player_attacks():
    # 7.0: "The Phasing Player is termed the Attacker"
    state = duel()
    assert refused(state, DeclareAttack(("d",), ("0404",))).case == "7.0"


# -- resolving ----------------------------------------------------------------------------------------
def test_declared_attack_waits_for_the_attackers_roll_and_the_roll_is_in_the_event():
    # 7.0 procedure: the attacker rolls; the die is written into the event (DESIGN "Dice")
    state = duel(a=8, d=4)
    state, _ = declare(state, ["a"], ["0505"])
    assert isinstance(state.pending[0], PendingAttack) and to_act(state) == "union"
    assert refused(state, EndPhase()).case == "4.1"
    events = decide(state, ResolveAttack(), rolls(3))
    resolved = of_type(events, CombatResolved)[0]
    assert (resolved.column, resolved.die, resolved.result) == ("2-1", 3, "Dr")
    assert fold(state, events) == fold(state, events)  # evolve rolls nothing


def test_voluntary_reduction_of_odds():
    # 7.9: "Attack is computed to be a 5-1 attack. Player announces that he desires a 3-1 attack"
    state = duel(a=20, d=4)
    state, _ = declare(state, ["a"], ["0505"])
    assert choices(state).decision.columns == ("5-1", "4-1", "3-1", "2-1", "1-1", "1-2", "1-3", "1-4", "1-5")
    assert refused(state, ResolveAttack(odds="6-1"), rolls(1)).case == "7.9"
    events = decide(state, ResolveAttack(odds="3-1"), rolls(5))
    assert of_type(events, OddsReduced) == [OddsReduced(odds="5-1", column="3-1")]
    assert of_type(events, CombatResolved)[0].result == "Dr"  # 5-1 would have been Ex


def test_attacker_eliminated():
    # 7.6 Ae: all attacking units are eliminated
    state = duel(a=1, d=5)
    state, events = attack(state, ["a"], ["0505"], die=4)
    assert "a" in state.eliminated and "a" not in state.positions
    assert of_type(events, UnitEliminated)[0].case == "7.6"


def test_defender_eliminated():
    # 7.6 De: all defending units are eliminated
    state = duel(a=12, d=2, more=[rebel("d2", "0505", strength=1)])
    state, _ = attack(state, ["a"], ["0505"], die=1)
    assert {"d", "d2"} <= set(state.eliminated)




def test_exchange_losses_are_chosen_among_minimal_sets():
    # 7.6 Ex; Ruling: no unit to spare in the loss
    units = [union("six", "0404", strength=6), union("t1", "0604", strength=3), union("t2", "0604", strength=3)]
    state = to_phase(start([*units, rebel("d", "0505", strength=3), rebel("far", "0101")]))
    state, _ = attack(state, ["six", "t1", "t2"], ["0505"], die=5)  # 12 to 3: 4-1, Ex
    assert "d" in state.eliminated
    assert state.pending[0] == PendingLosses(side="union", candidates=("six", "t1", "t2"), at_least=3)
    assert set(choices(state).decision.options) == {("six",), ("t1",), ("t2",)}
    assert refused(state, ChooseLosses(("t1", "t2"))).case == "7.6"
    assert refused(state, ChooseLosses(("far",))).case == "7.6"
    state, events = execute(state, ChooseLosses(("t1",)))
    assert of_type(events, LossesTaken) and "t1" in state.eliminated and "t2" in state.positions


def test_exchange_costs_all_when_the_attackers_do_not_reach_the_defence():
    # 7.6 Ex: all participants are lost when their printed total is below the defenders'
    units = [union("a", "0404", strength=1), union("gun", "0303", type_="artillery", strength=8)]
    state = to_phase(start([*units, rebel("d", "0505", strength=3), rebel("far", "0808")]))
    state, _ = attack(state, ["a", "gun"], ["0505"], die=6)  # 9 to 3: 3-1, Ex
    assert state.pending[0] == PendingLosses(side="union", candidates=("a",), at_least=3)
    assert choices(state).decision.options == (("a",),)
    state, _ = execute(state, ChooseLosses(("a",)))
    assert {"a", "d"} <= set(state.eliminated) and "gun" in state.positions


def test_exchange_by_bombarding_artillery_alone_costs_the_attacker_nothing():
    # 8.0: "if an Exchange were the result in an attack solely by bombarding artillery, the defending
    # unit would be eliminated, but the bombarding units would not be affected"
    units = [union("gun", "0304", type_="artillery", strength=3), rebel("d", "0505", strength=1), rebel("far", "0808")]
    state = to_phase(start(units))
    state, events = attack(state, ["gun"], ["0505"], die=6)  # 3-1, Ex
    assert of_type(events, CombatResolved)[0].result == "Ex"
    assert "d" in state.eliminated and "gun" in state.positions and not state.pending


def test_bombarding_artillery_is_never_an_exchange_loss():
    # 8.0, 8.23: in a combined attack only the adjacent units suffer the Exchange
    units = [union("a", "0404", strength=4), union("gun", "0303", type_="artillery", strength=4), rebel("d", "0505", strength=2)]
    state = to_phase(start([*units, rebel("far", "0808")]))
    state, _ = attack(state, ["a", "gun"], ["0505"], die=5)  # 8 to 2: 4-1, Ex
    assert state.pending[0] == PendingLosses(side="union", candidates=("a",), at_least=2)


def test_attacker_retreats_and_defender_retreats():
    # 7.6 Ar, Dr
    state = duel(a=4, d=4)
    state, _ = attack(state, ["a"], ["0505"], die=5)  # 1-1, Ar
    assert state.pending[0] == PendingRetreat(side="union", unit="a")
    state = duel(a=8, d=4)
    state, _ = attack(state, ["a"], ["0505"], die=2)  # 2-1, Dr
    assert state.pending[0] == PendingRetreat(side="confederate", unit="d") and to_act(state) == "confederate"


def test_attack_declared_event_names_every_unit():
    # 7.21, 7.74: the event lists the defending units and those that add no strength
    state = duel(a=8, d=4)
    _, events = declare(state, ["a"], ["0505"])
    (event,) = of_type(events, AttackDeclared)
    assert event.attack.defending == ("d",) and event.attack.passive == ()


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_every_result_leaves_the_phase_completable(die):
    # 7.0: each result is applied at once; the phase can always be finished afterwards
    units = [union("a", "0404", strength=6), union("b", "0604", strength=3), rebel("d", "0505", strength=3)]
    state = to_phase(start([*units, rebel("e", "0705", strength=2), rebel("far", "0101")]))
    state, _ = attack(state, ["a"], ["0505"], die=die)
    rng = random.Random(die)
    for _ in range(60):
        if (state.phasing, state.phase) != ("union", "combat"):
            break
        state, _ = execute(state, random_player(state, rng), dice_from(rng))
    assert (state.phasing, state.phase) == ("confederate", "movement")
