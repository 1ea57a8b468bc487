"""The revised combat rules in play (003: 8.x, 9.x, 11.2x, 12.x) on small maps: declare, resolve with chosen
dice, and see the odds, results, morale and decisions the reducer gives.

Cases shown along the way: 8.0 (the procedure: one attack at a time, the die in the event), 8.13 (every
adjacent unit may join), 8.2 (multi-hex), 8.7 (retreat and advance), 9.0 (artillery), 9.1 (bombardment),
9.4 (adjacent attacks), 9.43 (artillery attacking from an enemy zone suffers the result), 11.2 (night
combat), 12.1, 12.2, 12.3 (morale), 12.42 (the Rally marker removed after the roll).

Cases cited by docs/RULES_COVERAGE.md: 9.2, 9.21, 9.22, 9.24, 9.52, 10.38, 10.34, 8.45, 10.25, 12.16, 8.77, 8.78, 8.79, 12.19, 12.34, 8.9, 8.11, 8.21, 8.24, 8.25, 8.41, 8.46, 8.61, 8.71, 8.75, 8.76, 9.15, 9.17, 9.19, 9.47, 11.3, 11.23, 12.12, 12.17, 12.21, 12.22, 12.26, 12.31, 12.33."""

from __future__ import annotations

import pytest

from rules.combat_choices import LossesChoice, RallyChoice, decision_choice
from rules.core.commands import (
    Advance,
    ChooseLosses,
    DeclareAttack,
    EndPhase,
    MoveUnit,
    PlaceRally,
    ResolveAttack,
    RollRally,
)
from rules.core.decisions import PendingAdvance, PendingLosses, PendingRally, PendingRetreat
from rules.core.events import MoraleChanged, NightCombatDie
from rules.core.game import Game
from rules.core.scenario import Hexside
from rules.legal import choices
from rules.procedures.combat import why_may_not_attack
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import of_type, refused, rolls, to_phase
from tests.rules.rulesmaps import board, rebel, scenario, union


def start(units, options=None, **kw):
    return new_game(Game(scenario(units, **kw), get_ruleset("revised"), options))


def declared(state, attackers, defenders):
    state, _ = execute(state, DeclareAttack(tuple(attackers), tuple(defenders)))
    return state, state.pending[0]


def resolve(state, *dice, odds=None):
    events = decide(state, ResolveAttack(odds=odds), rolls(*dice))
    return fold(state, events), events


def test_a_five_attacking_into_rough_is_three_8_41_8_32():
    s = to_phase(start([union("u", "0404", strength=5), rebel("r", "0505", strength=2)], hexes=board(terrain={"0505": "rough"})))
    _, a = declared(s, ["u"], ["0505"])
    assert (a.attack, a.defence, a.odds) == (3, 2, "3-2")  # 3:2 is a column of the 12-column table (8.6)


def test_forest_is_one_column_left_8_42():
    units = [union("a", "0404", strength=7), union("b", "0604", strength=7), rebel("r", "0505", strength=2)]
    s = to_phase(start(units, hexes=board(terrain={"0505": "forest"})))
    _, a = declared(s, ["a", "b"], ["0505"])
    assert (a.attack, a.defence, a.odds, a.shift, a.modifier) == (14, 2, "6-1", -1, 0)  # 8.42's example


def test_high_odds_subtract_from_the_die_8_61():
    units = [union("a", "0404", strength=8), union("b", "0604", strength=8), rebel("r", "0505", strength=2)]
    s = to_phase(start(units))
    s, a = declared(s, ["a", "b"], ["0505"])
    assert (a.odds, a.modifier) == ("6-1", 1)  # 8:1
    _, events = resolve(s, 3)
    assert events[0].result == "De"  # row 3 - 1 = row 2 on 6:1


def test_partial_attacker_eliminated_the_defender_chooses_8_6_12_11():
    units = [union("a", "0404", strength=1), union("b", "0604", strength=1), rebel("r", "0505", strength=10)]
    s = to_phase(start(units))
    s, a = declared(s, ["a", "b"], ["0505"])
    assert a.odds == "1-5"
    s, events = resolve(s, 3)
    assert events[0].result == "Ae*"
    head = s.pending[0]
    assert isinstance(head, PendingLosses) and head.side == "confederate" and head.candidates == ("a", "b")
    assert isinstance(decision_choice(s), LossesChoice) and decision_choice(s).options == (("a",), ("b",))
    assert s.morale == {"a": "disordered", "b": "disordered"}  # 12.11
    s = fold(s, decide(s, ChooseLosses(("a",))))
    assert "a" in s.eliminated and isinstance(s.pending[0], PendingRetreat) and s.pending[0].unit == "b"


def test_attacker_retreat_disorders_artillery_twice_12_11():
    units = [union("g", "0404", type_="artillery", strength=2), rebel("r", "0505", strength=6)]
    s = to_phase(start(units))
    s, a = declared(s, ["g"], ["0505"])
    assert a.attack == 3  # 9.48: an adjacent attack adds one-half (2 -> 3)
    s, events = resolve(s, 2)  # 1-2, die 2: Ar
    assert events[0].result == "Ar" and s.morale["g"] == "shaken"  # "becoming at least Shaken"


def test_partial_exchange_attacker_picks_a_defender_then_matches_it_8_6_12_26():
    units = [
        union("a", "0404", strength=6),
        union("b", "0604", strength=6),
        rebel("r1", "0505", strength=2),
        rebel("r2", "0505", strength=1),
    ]
    s = to_phase(start(units))
    s, a = declared(s, ["a", "b"], ["0505"])
    assert a.odds == "4-1"
    s, events = resolve(s, 5, 1, 1, 1, 1)  # the combat die, then four disorder dice (12.13)
    assert events[0].result == "Ex*"
    head = s.pending[0]
    assert head.side == "union" and set(head.candidates) == {"r1", "r2"} and head.then_lose == ("a", "b")
    s = fold(s, decide(s, ChooseLosses(("r1",))))
    head = s.pending[0]
    assert isinstance(head, PendingLosses) and head.at_least == 2 and head.candidates == ("a", "b")
    s = fold(s, decide(s, ChooseLosses(("a",))))
    assert {"r1", "a"} <= set(s.eliminated) and isinstance(s.pending[0], PendingRetreat) and s.pending[0].unit == "r2"


@pytest.mark.parametrize(("roll", "level"), [(3, None), (4, "disordered")])
def test_defender_retreat_disorder_roll_12_12(roll, level):
    s = to_phase(start([union("a", "0404", strength=6), rebel("r", "0505", strength=2)]))
    s, _ = declared(s, ["a"], ["0505"])
    s, events = resolve(s, 3, roll)
    assert events[0].result == "Dr"
    assert s.morale.get("r") == level


def test_disordered_attacks_at_two_thirds_shaken_defends_at_two_thirds_12_21_12_22():
    s = to_phase(start([union("a", "0404", strength=6), rebel("r", "0505", strength=6)]))
    s.morale.update({"a": "disordered", "r": "shaken"})
    _, a = declared(s, ["a"], ["0505"])
    assert (a.attack, a.defence) == (4, 4)


def test_routed_may_not_attack_and_retreats_at_the_end_of_the_combat_phase_12_23_12_32():
    s = start([union("a", "0404", strength=6), rebel("r", "0505", strength=2)])
    s = fold(s, [MoraleChanged(changes=(("a", "routed"),), case="12.0")])
    s = to_phase(s)
    assert "a" in s.engaged  # began the Combat Phase in an enemy zone of control
    assert refused(s, DeclareAttack(("a",), ("0505",))).case == "12.23"
    s, events = execute(s, EndPhase())
    assert isinstance(s.pending[0], PendingRetreat) and s.pending[0].unit == "a"  # 12.32


def test_town_hexes_disorder_their_units_12_17():
    s = start([union("a", "0404"), rebel("r", "0808")], hexes=board(terrain={"0405": "town"}))
    s, _ = execute(s, MoveUnit("a", ("0404", "0405")))
    assert s.morale == {"a": "disordered"}


def test_night_attack_die_and_voluntary_attacks_11_21_11_23():
    units = [union("a", "0404", strength=4), rebel("r", "0505", strength=4)]
    s = start(units, night_turns=[1])
    s = to_phase(s)
    assert choices(s).may_end_phase  # 11.21: "a" stayed in the enemy zone: its attack is voluntary
    s, a = declared(s, ["a"], ["0505"])
    assert a.odds == "1-1"
    s, events = resolve(s, 1, 1, 1)  # night die 1: doubled to 8 (2:1); the combat die (Dr); a disorder die
    assert of_type(events, NightCombatDie)[0].attack == 8 and events[1].column == "2-1"


def test_no_bombardment_at_night_11_24():
    units = [union("g", "0402", type_="artillery", strength=4), rebel("r", "0405", strength=1)]
    s = to_phase(start(units, night_turns=[1]))
    assert refused(s, DeclareAttack(("g",), ("0405",))).case == "11.24"


def test_bombardment_not_below_one_to_five_9_18_unless_the_game_says_so_19_14():
    units = [union("g", "0402", type_="artillery", strength=1), rebel("r", "0405", strength=9)]
    s = to_phase(start(units))
    assert refused(s, DeclareAttack(("g",), ("0405",))).case == "9.18"
    s = to_phase(start(units, exclusive={"artillery": {"case_9_18": False}}))
    _, a = declared(s, ["g"], ["0405"])
    assert a.odds == "1-5"


def test_range_three_bombardment_loses_a_third_9_19():
    units = [union("g", "0402", type_="artillery", strength=4), rebel("r", "0405", strength=1)]
    s = to_phase(start(units))
    _, a = declared(s, ["g"], ["0405"])
    assert a.attack == 3  # 4 * 2/3 = 2.67 -> 3


def test_artillery_defends_at_one_and_a_half_beside_infantry_9_53():
    units = [union("a", "0404", strength=6), rebel("g", "0505", type_="artillery", strength=4), rebel("i", "0506")]
    s = to_phase(start(units))
    _, a = declared(s, ["a"], ["0505"])
    assert a.defence == 6


def test_two_vacated_hexes_two_advances_8_76():
    units = [union("a", "0404", strength=9), union("b", "0403", strength=9), rebel("r1", "0504", strength=1), rebel("r2", "0505", strength=1)]
    # 0404 and 0403's neighbours: 0504 touches both; 0505 touches 0404 only -- use the pair 0504 and 0505 with
    # attackers 0404 (adjacent to both) and 0604 (adjacent to both)
    units[1] = union("b", "0604", strength=9)
    s = to_phase(start(units))
    s, a = declared(s, ["a", "b"], ["0504", "0505"])
    s, events = resolve(s, 1)
    assert events[0].result == "De"
    advances = [p for p in s.pending if isinstance(p, PendingAdvance)]
    assert [p.hexes for p in advances] == [("0504",), ("0505",)]


def test_rally_markers_then_dice_at_the_start_of_combat_12_41():
    s = start([union("a", "0404"), rebel("r", "0808")])
    s = fold(s, [MoraleChanged(changes=(("a", "shaken"),), case="12.0")])
    assert choices(s).rally == ("a",)
    s, _ = execute(s, PlaceRally(("a",)))
    assert refused(s, MoveUnit("a", ("0404", "0405"))).case == "12.41"  # rallying units may not move
    s, _ = execute(s, EndPhase())
    assert isinstance(s.pending[0], PendingRally) and isinstance(decision_choice(s), RallyChoice)
    s = fold(s, decide(s, RollRally(), rolls(2)))
    assert "a" not in s.morale and not s.rallying and not s.pending  # Shaken, 1-3: recovers


def test_rally_in_town_stays_disordered_12_17():
    s = start([union("a", "0404"), rebel("r", "0808")], hexes=board(terrain={"0404": "town"}))
    s = fold(s, [MoraleChanged(changes=(("a", "shaken"),), case="12.0")])
    s, _ = execute(s, PlaceRally(("a",)))
    s, _ = execute(s, EndPhase())
    s = fold(s, decide(s, RollRally(), rolls(1)))
    assert s.morale == {"a": "disordered"}


def test_redoubt_halves_and_shifts_from_the_enemy_side_8_46():
    sides = {"0404|0505": Hexside(features=frozenset({"redoubt"}), barbed="0404")}
    s = to_phase(start([union("a", "0404", strength=8), rebel("r", "0505", strength=2)], hexsides=sides))
    _, a = declared(s, ["a"], ["0505"])
    assert (a.attack, a.shift, a.odds) == (4, -1, "3-2")  # 4 to 2 is 2:1, one column left is 3:2


# -- the shared mechanics under the revised numbering ---------------------------------------------------
def test_units_in_an_enemy_zone_must_attack_and_be_attacked_8_11_8_12():
    s = to_phase(start([union("a", "0404"), rebel("r", "0505")]))
    assert refused(s, EndPhase()).case == "8.12"


def test_no_unit_attacks_twice_8_14_and_only_adjacent_units_attack_8_15():
    units = [union("a", "0404", strength=9), union("b", "0702"), rebel("r", "0505", strength=1)]
    s = to_phase(start(units))
    assert refused(s, DeclareAttack(("b",), ("0505",))).case == "8.15"
    s, _ = declared(s, ["a"], ["0505"])
    assert why_may_not_attack(s, "a").case == "8.14"


def test_a_stack_defends_as_one_8_21_and_hexes_combine_8_24_8_25():
    units = [union("a", "0404", strength=4), union("b", "0604", strength=4), rebel("r1", "0505", strength=2), rebel("r2", "0505", strength=2)]
    s = to_phase(start(units))
    _, a = declared(s, ["a", "b"], ["0505"])
    assert (a.attack, a.defence, a.defending) == (8, 4, ("r1", "r2"))


def test_voluntary_reduction_of_odds_8_9():
    s = to_phase(start([union("a", "0404", strength=8), rebel("r", "0505", strength=2)]))
    s, a = declared(s, ["a"], ["0505"])
    assert decision_choice(s).columns[:3] == ("4-1", "3-1", "2-1")
    _, events = resolve(s, 4, odds="1-2")
    assert events[1].column == "1-2" and events[1].result == "Ar"


def test_bombardment_range_and_one_hex_9_11_9_12_9_13():
    units = [union("g", "0401", type_="artillery", strength=4), rebel("r", "0405", strength=1), rebel("q", "0406")]
    s = to_phase(start(units))
    assert refused(s, DeclareAttack(("g",), ("0405",))).case == "9.11"  # four hexes away, counted as 9.12 says
    units[0] = union("g", "0402", type_="artillery", strength=4)
    s = to_phase(start(units))
    assert refused(s, DeclareAttack(("g",), ("0405", "0406"))).case == "9.13"


def test_bombarding_artillery_suffers_nothing_but_may_take_an_attacker_retreat_9_15_9_17():
    units = [union("g", "0403", type_="artillery", strength=2), rebel("r", "0405", strength=4)]
    s = to_phase(start(units))
    s, a = declared(s, ["g"], ["0405"])
    assert a.bombarding == ("g",) and a.attack == 2  # range 2: no reduction
    s, events = resolve(s, 2)  # 1-2, die 2: Ar
    assert events[0].result == "Ar" and s.pending[0].optional and "g" not in s.morale


def test_artillery_in_an_enemy_zone_attacks_adjacent_and_never_advances_9_41_9_47():
    units = [union("g", "0404", type_="artillery", strength=8), rebel("r", "0505", strength=1), rebel("q", "0702")]
    s = to_phase(start(units))
    assert refused(s, DeclareAttack(("g",), ("0702",))).case == "9.41"
    s, _ = declared(s, ["g"], ["0505"])
    s, events = resolve(s, 1)
    assert events[0].result == "De" and not [p for p in s.pending if isinstance(p, PendingAdvance)]
    # 9.47: the refusal of an advance by artillery cites 9.47, not "no advance is awaited" (4.0)
    e = refused(s, Advance("g", "0505"))
    assert e.case == "9.47" and "artillery units may never advance after combat" in str(e)


def test_a_routed_unit_does_not_advance_12_35_and_routed_artillery_gets_no_bonus_12_36():
    units = [union("a", "0404", strength=1), rebel("r1", "0505", strength=2), rebel("r2", "0505", strength=6)]
    s = to_phase(start(units))
    s.morale["r1"] = "routed"
    s, _ = declared(s, ["a"], ["0505"])
    from rules.core.commands import RetreatBeforeCombat

    s = fold(s, decide(s, RetreatBeforeCombat(())))  # 12.34: the attacker leaves the Routed unit in place
    a = s.pending[0]
    assert a.defence == 7  # 12.23: the Routed 2 defends at a third, 0.67 -> 1 (8.32)
    s, events = resolve(s, 4)
    assert events[0].result == "Ae"
    (adv,) = [p for p in s.pending if isinstance(p, PendingAdvance)]
    assert adv.units == ("r2",)  # 12.35
    e = refused(s, Advance("r1", "0404"))
    assert e.case == "12.35" and "a Routed unit may not advance after combat" in str(e)
    units = [union("a", "0404", strength=6), rebel("g", "0505", type_="artillery", strength=4), rebel("i", "0506")]
    s = to_phase(start(units))
    s.morale["g"] = "routed"
    s, _ = declared(s, ["a"], ["0505"])
    a = fold(s, decide(s, RetreatBeforeCombat(()))).pending[0]
    assert a.defence == 1  # 12.36: no 9.53 bonus; 12.23: a third (4/3 -> 1)


def test_routed_unit_not_in_an_enemy_zone_at_the_start_need_not_retreat_12_33():
    s = start([union("a", "0404", strength=6), rebel("r", "0606", strength=2)])
    s = fold(s, [MoraleChanged(changes=(("a", "routed"),), case="12.0")])
    s = to_phase(s)
    assert not s.engaged
    s, _ = execute(s, EndPhase())
    assert not s.pending


def test_night_recovery_outside_enemy_zones_11_3_12_41():
    units = [union("a", "0404"), union("b", "0202"), rebel("r", "0505")]
    s = start(units, night_turns=[1])
    s = fold(s, [MoraleChanged(changes=(("a", "shaken"), ("b", "routed")), case="12.0")])
    s = to_phase(s)
    assert s.morale == {"a": "shaken"}  # "b" is not in an enemy zone of control: it recovers


def test_exchange_losses_count_printed_strengths_8_6_12_26():
    units = [union("a", "0404", strength=6), union("b", "0604", strength=6), rebel("r", "0505", strength=3)]
    s = start(units)
    s = fold(s, [MoraleChanged(changes=(("a", "disordered"),), case="12.0")])
    s = to_phase(s)
    s, a = declared(s, ["a", "b"], ["0505"])
    assert a.attack == 10 and a.odds == "3-1"
    s, events = resolve(s, 6, 1, 1)  # Ex; two disorder dice
    assert events[0].result == "Ex" and s.pending[0].at_least == 3  # printed 3, whatever the adjustments


def test_a_routed_unit_may_not_enter_an_enemy_zone_12_31():
    s = start([union("a", "0403"), rebel("r", "0605")])
    assert "0505" in choices(s).moves["a"]
    s = fold(s, [MoraleChanged(changes=(("a", "routed"),), case="12.0")])
    assert "0505" not in choices(s).moves.get("a", {})  # 0505 is in the zone of control of 0605
    assert "0402" in choices(s).moves["a"]  # it moves normally elsewhere
    e = refused(s, MoveUnit("a", ("0403", "0504", "0505")))
    assert e.case == "12.31" and "until it has recovered from Rout" in str(e)


def test_retreat_one_hex_out_of_enemy_zones_8_7_8_71_8_72():
    s = to_phase(start([union("a", "0404", strength=8), rebel("r", "0505", strength=2), union("b", "0707")]))
    s, _ = declared(s, ["a"], ["0505"])
    s, events = resolve(s, 4, 1)  # 4-1, die 4: Dr; a disorder die
    assert events[0].result == "Dr"
    retreat = decision_choice(s)
    assert retreat.unit == "r"
    assert {o.to for o in retreat.options} == {"0604", "0605", "0506"}  # not 0504, 0405 (8.72: enemy controlled)


def test_a_routed_unit_rallying_on_a_six_is_eliminated_12_43():
    # 12.43: "treated similarly to units eliminated in combat for Victory Point and all other purposes"
    points = {"victory": {"per_enemy_unit_eliminated": {"confederate": 3, "union": 2}}}
    s = start([union("a", "0404"), rebel("r", "0808")], exclusive=points)
    s = fold(s, [MoraleChanged(changes=(("a", "routed"),), case="12.0")])
    s, _ = execute(s, PlaceRally(("a",)))
    s, _ = execute(s, EndPhase())
    before = dict(s.vp)
    s = fold(s, decide(s, RollRally(), rolls(6)))
    assert "a" in s.eliminated and "a" not in s.positions  # 12.41 iii
    assert s.vp["confederate"] == before["confederate"] + 3 and s.vp["union"] == before["union"]  # 12.43, 20.11


# -- retreat before combat (8.77-8.79, 12.19, 12.34) ---------------------------------------------------
def _retreat_first_option(s):
    from rules.core.commands import Retreat

    choice = decision_choice(s)
    o = choice.options[0]
    return fold(s, decide(s, Retreat(choice.unit, o.to, o.displace)))


def test_cavalry_retreats_two_hexes_before_combat_and_the_attack_is_over_8_77_8_79_12_19():
    from rules.core.commands import RetreatBeforeCombat
    from rules.core.decisions import PendingBeforeCombat
    from rules.core.events import AttackVoided

    s = to_phase(start([union("a", "0404", strength=4), rebel("c", "0505", type_="cavalry", strength=2)]))
    s, _ = execute(s, DeclareAttack(("a",), ("0505",)))
    head = s.pending[0]
    assert isinstance(head, PendingBeforeCombat) and head.side == "confederate" and head.units == ("c",)
    s = fold(s, decide(s, RetreatBeforeCombat(("c",)), rolls(5)))  # 1-5: it retreats two hexes
    s = _retreat_first_option(s)
    events = decide(s, *_first_retreat_command(s))
    assert of_type(events, AttackVoided)
    s = fold(s, events)
    assert s.positions["c"] not in ("0505",) and "c" not in s.morale  # 12.19: no Disorder
    assert isinstance(s.pending[0], PendingAdvance) and s.pending[0].hexes == ("0505",)


def _first_retreat_command(s):
    from rules.core.commands import Retreat

    choice = decision_choice(s)
    o = choice.options[0]
    return (Retreat(choice.unit, o.to, o.displace),)


def test_cavalry_stays_on_a_six_8_77():
    from rules.core.commands import RetreatBeforeCombat
    from rules.core.decisions import PendingAttack

    s = to_phase(start([union("a", "0404", strength=4), rebel("c", "0505", type_="cavalry", strength=2)]))
    s, _ = execute(s, DeclareAttack(("a",), ("0505",)))
    s = fold(s, decide(s, RetreatBeforeCombat(("c",)), rolls(6)))
    assert isinstance(s.pending[0], PendingAttack) and s.positions["c"] == "0505"


def test_no_retreat_before_combat_from_cavalry_attackers_or_bombardment_alone_8_77_8_78():
    from rules.core.decisions import PendingAttack

    s = to_phase(start([union("k", "0404", type_="cavalry"), rebel("c", "0505", type_="cavalry", strength=2)]))
    s, _ = execute(s, DeclareAttack(("k",), ("0505",)))
    assert isinstance(s.pending[0], PendingAttack)
    s = to_phase(start([union("g", "0402", type_="artillery", strength=4), rebel("c", "0405", type_="cavalry", strength=1)]))
    s, _ = execute(s, DeclareAttack(("g",), ("0405",)))
    assert isinstance(s.pending[0], PendingAttack)  # 8.78: not adjacent to other enemy units


def test_the_attacker_may_retreat_routed_defenders_before_combat_12_34():
    from rules.core.commands import RetreatBeforeCombat
    from rules.core.decisions import PendingAttack, PendingBeforeCombat

    units = [union("a", "0404", strength=6), rebel("r", "0505", strength=3), rebel("s", "0505", strength=2)]
    s = start(units)
    s = fold(s, [MoraleChanged(changes=(("r", "routed"),), case="12.0")])
    s = to_phase(s)
    s, _ = execute(s, DeclareAttack(("a",), ("0505",)))
    head = s.pending[0]
    assert isinstance(head, PendingBeforeCombat) and head.side == "union" and head.units == ("r",)
    s = fold(s, decide(s, RetreatBeforeCombat(("r",))))
    s = _retreat_first_option(s)
    s = _retreat_first_option(s)
    head = s.pending[0]
    assert isinstance(head, PendingAttack) and head.defending == ("s",) and (head.attack, head.defence) == (6, 2)


def test_a_shaken_unit_that_did_not_move_may_be_routed_to_avoid_attacking_12_16():
    from rules.core.commands import VoluntaryRout

    s = start([union("a", "0404", strength=2), rebel("r", "0505", strength=9)])
    s = fold(s, [MoraleChanged(changes=(("a", "shaken"),), case="12.0")])
    s = to_phase(s)
    assert choices(s).rout == ("a",)
    s, _ = execute(s, VoluntaryRout(("a",)))
    assert s.morale["a"] == "routed" and "a" in s.engaged and choices(s).may_end_phase  # no attack owed
    s, _ = execute(s, EndPhase())
    assert isinstance(s.pending[0], PendingRetreat) and s.pending[0].unit == "a"  # 12.32


def test_a_unit_that_moved_may_not_be_routed_voluntarily_12_16():
    from rules.core.commands import VoluntaryRout

    s = start([union("a", "0403", strength=2), rebel("r", "0606", strength=9)])
    s = fold(s, [MoraleChanged(changes=(("a", "shaken"),), case="12.0")])
    s, _ = execute(s, MoveUnit("a", ("0403", "0404")))
    s = to_phase(s)
    assert choices(s).rout == ()
    assert refused(s, VoluntaryRout(("a",))).case == "12.16"


def test_the_defender_chooses_the_forest_shift_or_the_other_terrain_benefits_8_45_10_25():
    from rules.combat_choices import BeforeCombatChoice
    from rules.core.commands import ChooseTerrain
    from rules.core.decisions import PendingAttack

    units = [union("a", "0202", strength=8), rebel("r1", "0201", strength=1), rebel("r2", "0203", strength=1)]
    s = to_phase(start(units, hexes=board(terrain={"0201": "forest", "0203": "forest_rough"})))
    s, _ = execute(s, DeclareAttack(("a",), ("0201", "0203")))
    choice = decision_choice(s)
    assert isinstance(choice, BeforeCombatChoice) and choice.kind == "terrain" and choice.options == ("forest", "terrain")
    assert s.pending[1].odds == "2-1"  # until he chooses: the better for him (halved: 4 to 2)
    assert refused(s, ChooseTerrain("fort")).case == "8.4"
    s = fold(s, decide(s, ChooseTerrain("forest")))
    head = s.pending[0]
    assert isinstance(head, PendingAttack) and (head.attack, head.shift, head.odds) == (8, -1, "3-1")


def test_no_terrain_choice_when_only_one_benefit_applies_8_45():
    from rules.core.decisions import PendingAttack

    s = to_phase(start([union("a", "0404", strength=4), rebel("r", "0505", strength=2)], hexes=board(terrain={"0505": "forest"})))
    s, _ = execute(s, DeclareAttack(("a",), ("0505",)))
    assert isinstance(s.pending[0], PendingAttack) and s.pending[0].shift == -1


def test_breastworks_shift_one_left_only_when_attacked_entirely_through_them_10_38():
    from rules.core.breastworks import Breastworks

    units = [union("a", "0404", strength=4), union("b", "0604", strength=4), rebel("r", "0505", strength=4)]
    s = to_phase(start(units))
    s.breastworks = {"0505": Breastworks(status="breastworks", side="confederate", facing=("0404", "0604", "0405"))}
    _, a = declared(s, ["a", "b"], ["0505"])
    assert (a.shift, a.odds) == (-1, "3-2")  # 2:1, one column left
    s.breastworks = {"0505": Breastworks(status="breastworks", side="confederate", facing=("0404", "0504", "0405"))}
    _, a = declared(s, ["a", "b"], ["0505"])
    assert (a.shift, a.odds) == (0, "2-1")  # "b" attacks through a hexside the marker does not cover


def test_a_unit_building_breastworks_is_attacked_one_column_right_and_the_marker_goes_10_34():
    from rules.core.breastworks import Breastworks

    s = to_phase(start([union("a", "0404", strength=4), rebel("r", "0505", strength=4)]))
    s.breastworks = {"0505": Breastworks(status="building", side="confederate", unit="r")}
    s, a = declared(s, ["a"], ["0505"])
    assert (a.shift, a.odds) == (1, "3-2")
    s, _ = resolve(s, 4, 1)  # 3:2, die 4: Dr; a disorder die
    assert "0505" not in s.breastworks


def test_combined_attack_with_bombarding_artillery_in_range_of_one_hex_9_2_9_21_9_22_9_24():
    # "a" at 0404 attacks 0505 and 0405 (both adjacent); the battery at 0603 is two hexes from 0505 only
    units = [
        union("a", "0404", strength=4),
        union("g", "0603", type_="artillery", strength=2),
        rebel("r", "0505", strength=1),
        rebel("q", "0405", strength=1),
    ]
    s = to_phase(start(units))
    s, a = declared(s, ["a", "g"], ["0505", "0405"])
    assert a.attackers == ("a",) and a.bombarding == ("g",) and a.attack == 6  # 9.21, 9.22
    s, events = resolve(s, 4, 1, 1)  # 3:1, die 4: Dr; a disorder die for each defender (12.12)
    assert events[0].result == "Dr"
    assert [p.unit for p in s.pending if isinstance(p, PendingRetreat)] == ["r", "q"]  # 9.24: the battery, nothing


def test_artillery_attacked_suffers_the_result_and_retreats_disordered_9_52_12_12():
    units = [union("a", "0404", strength=8), rebel("g", "0505", type_="artillery", strength=2)]
    s = to_phase(start(units))
    s, a = declared(s, ["a"], ["0505"])
    assert a.defence == 2  # no infantry beside it: no 9.53 bonus
    s, events = resolve(s, 4)  # 4:1, die 4: Dr; no die for the battery (12.12: automatically Disordered)
    assert events[0].result == "Dr" and s.morale["g"] == "disordered"
    assert isinstance(s.pending[0], PendingRetreat) and s.pending[0].unit == "g"


def test_immobile_union_artillery_bombards_like_any_artillery_19_11_19_12():
    # Chattanooga (revised) 19.12: "Union artillery functions in the same manner as normal artillery
    # units in every other way": immobile (19.11), it still bombards at range (9.1)
    guns = {"immobile_artillery": {"side": "union", "except": ["sherman"]}}
    units = [union("g", "0404", type_="artillery", strength=4), rebel("r", "0604", strength=2)]
    s = start(units, exclusive=guns, cases={"revised": {"immobile_artillery": "19.11"}})  # the battle's numbering
    assert refused(s, MoveUnit("g", ("0404", "0403"))).case == "19.11"
    s, a = declared(to_phase(s), ["g"], ["0604"])
    assert a.bombarding == ("g",) and a.attackers == ()
