"""Revised combat 8.x, artillery 9.x, night 11.23: the table, odds, strength modification, terrain
(rules/revised/crt.py, rules/revised/combat.py).

Also shown: 8.3 and 12.24, 12.25 (each unit adjusted alone, at each stage, never below 1; the total
adjusted for night), 8.44 and 10.27 (the most favourable shift of each side, netted), 9.16, 9.23, 9.45
(artillery not halved over water obstacles), 9.25 (= 9.19 in combined attacks).

Cases cited by docs/RULES_COVERAGE.md: 10.21, 10.22, 10.23, 10.24, 10.26, 8.32, 8.41, 8.42, 8.43, 8.45, 8.46, 8.47, 8.61, 8.62, 9.48, 9.53."""

from fractions import Fraction

import pytest

from rules.revised import combat as rc
from rules.revised import crt as t
from rules.revised import morale as m
from rules.revised.combat import Attacker


def test_table_has_twelve_columns_and_six_whole_rows_8_6():
    assert t.COLUMNS == ("1-5", "1-4", "1-3", "1-2", "2-3", "1-1", "3-2", "2-1", "3-1", "4-1", "5-1", "6-1")
    assert sorted(t.ROWS) == [1, 2, 3, 4, 5, 6]
    assert all(len(row) == 12 for row in t.ROWS.values())
    assert {r for row in t.ROWS.values() for r in row} == set(t.RESULTS)
    # partial results Ae* and Ex* as printed (8.6)
    assert t.result("1-5", 3) == t.AE_STAR and t.result("1-2", 6) == t.AE_STAR
    assert t.result("4-1", 5) == t.EX_STAR and t.result("2-1", 6) == t.EX_STAR
    assert t.result("6-1", 1) == t.DE and t.result("1-1", 6) == t.AR


def test_odds_round_down_in_the_defenders_favour_8_0():
    assert t.COLUMNS[t.column_index(13, 4)] == "3-1"  # 8.0's example: 3.25:1 is 3:1
    assert t.COLUMNS[t.column_index(3, 2)] == "3-2"
    assert t.COLUMNS[t.column_index(5, 7)] == "2-3"
    assert t.column_index(1, 6) == -1  # below 1:5


def test_forest_shift_example_8_42():
    assert t.resolve(14, 2, shift=-1) == ("6-1", 0)  # "14 ... against 2 ... in forest/woods ... a 6:1 attack"


@pytest.mark.parametrize(("attack", "mod"), [(12, 0), (14, 0), (16, 1), (18, 1), (20, 2), (24, 3), (40, 3)])
def test_high_odds_die_modifiers_8_61(attack, mod):
    assert t.resolve(attack, 2) == ("6-1", mod)


def test_modified_die_reads_row_one_at_least_8_61():
    assert t.result("6-1", 1, 3) == t.ROWS[1][-1]
    assert t.result("6-1", 6, 3) == t.ROWS[3][-1]


def test_below_1_5_is_read_on_1_5_8_62():
    assert t.resolve(1, 10) == ("1-5", 0)
    assert t.resolve(1, 5, shift=-2) == ("1-5", 0)


def test_a_five_attacking_into_rough_is_three_8_41_8_32():
    assert rc.adjusted(5, halved=True) == 3


def test_rounding_at_each_stage_and_floor_of_one_8_32():
    # a Disordered artillery unit of 4 attacking adjacent into rough: 4 * 3/2 = 6; * 2/3 = 4; / 2 = 2
    assert rc.adjusted(4, range_factor=Fraction(3, 2), morale_factor=Fraction(2, 3), halved=True) == 2
    # each stage rounds: 2 * 2/3 = 1.33 -> 1, halved 0.5 -> 1 (a single product would give 0.67 -> 1 too,
    # but 1 Shaken: 1/3 -> 0 is floored to 1, then halved 0.5 -> 1)
    assert rc.adjusted(1, morale_factor=Fraction(1, 3), halved=True) == 1
    # 5, Shaken (1/3): 1.67 -> 2; halved -> 1
    assert rc.adjusted(5, morale_factor=Fraction(1, 3), halved=True) == 1
    # 7 Disordered: 4.67 -> 5; halved 2.5 -> 3
    assert rc.adjusted(7, morale_factor=Fraction(2, 3), halved=True) == 3


def test_range_three_loses_a_third_9_19_and_adjacent_gains_a_half_9_48():
    assert rc.range_factor("artillery", 3, False) == Fraction(2, 3)
    assert rc.adjusted(4, range_factor=rc.range_factor("artillery", 3, False)) == 3  # 2.67 -> 3
    assert rc.adjusted(1, range_factor=rc.range_factor("artillery", 3, False)) == 1  # minimum 1
    assert rc.range_factor("artillery", 2, False) == 1
    assert rc.adjusted(5, range_factor=rc.range_factor("artillery", 1, True)) == 8  # 7.5 -> 8
    assert rc.range_factor("infantry", 1, True) == 1


def test_gunboats_unaffected_by_range_9_65():
    # 9.65: neither the adjacent +1/2 nor the range-3 reduction
    assert rc.range_factor("gunboat", 1, True) == 1
    assert rc.range_factor("gunboat", 5, False) == 1


def test_artillery_defensive_bonus_9_53_not_when_routed_12_36():
    assert rc.defence_factor(m.GOOD, True, True, True) == (Fraction(3, 2), 1)
    assert rc.defence_factor(m.GOOD, True, False, True)[0] == 1  # unsupported
    assert rc.defence_factor(m.GOOD, True, True, False)[0] == 1  # a bombardment only
    assert rc.defence_factor(m.ROUTED, True, True, True) == (1, Fraction(1, 3))  # 12.36


@pytest.mark.parametrize(("die", "total"), [(1, 14), (2, 7), (3, 7), (4, 4), (6, 4)])
def test_night_combat_die_11_23(die, total):
    assert rc.night_total(7, die) == total  # 7 halved is 3.5 -> 4


# -- terrain (8.4x, 10.2x) ------------------------------------------------------------------------
def _sides(table):
    return lambda a, d: table.get((a, d), (frozenset(), None))


def test_rough_halves_every_attacker_8_41_10_21():
    opts = rc.terrain_options([Attacker("a", "0101", True, False)], ["0102"], {"0102": "rough"}, _sides({}))
    assert opts == [rc.TerrainOption("terrain", frozenset({"a"}), 0)]


def test_halving_is_per_unit_artillery_not_over_water_8_47_10_21():
    sides = _sides({("0101", "0102"): (frozenset({"creek", "ford"}), None)})
    opts = rc.terrain_options(
        [Attacker("inf", "0101", True, False), Attacker("gun", "0101", True, True)], ["0102"], {"0102": "clear"}, sides
    )
    assert opts[0].halved == frozenset({"inf"}) and opts[0].shift == 0


def test_one_hex_of_rough_halves_an_attack_on_two_8_43():
    opts = rc.terrain_options(
        [Attacker("a", "0202", True, False)], ["0201", "0203"], {"0201": "clear", "0203": "rough"}, _sides({})
    )
    assert opts[0].halved == frozenset({"a"})


def test_redoubt_halves_and_shifts_only_from_the_enemy_side_8_46():
    sides = _sides({("0101", "0102"): (frozenset({"redoubt"}), "0101")})
    opts = rc.terrain_options([Attacker("a", "0101", True, False)], ["0102"], {"0102": "clear"}, sides)
    assert opts == [rc.TerrainOption("terrain", frozenset({"a"}), -1)]
    sides = _sides({("0101", "0102"): (frozenset({"redoubt"}), "0102")})
    opts = rc.terrain_options([Attacker("a", "0101", True, False)], ["0102"], {"0102": "clear"}, sides)
    assert opts == [rc.TerrainOption("terrain", frozenset(), 0)]


def test_left_shift_only_if_every_attacker_is_subject_10_23():
    sides = _sides({("0101", "0102"): (frozenset({"redoubt"}), "0101")})
    attackers = [Attacker("a", "0101", True, False), Attacker("b", "0103", True, False)]
    opts = rc.terrain_options(attackers, ["0102"], {"0102": "clear"}, sides)
    assert opts == [rc.TerrainOption("terrain", frozenset({"a"}), 0)]  # "a" still halved


def test_forest_is_a_shift_not_a_halving_10_1():
    opts = rc.terrain_options([Attacker("a", "0101", True, False)], ["0102"], {"0102": "forest"}, _sides({}))
    assert opts == [rc.TerrainOption("forest", frozenset(), -1)]


def test_forest_shift_instead_of_other_benefits_defenders_choice_8_45():
    # two hexes, forest and forest-rough: "the Attacker's Combat Strength is halved or the Defender may
    # choose to use an odds column shift"
    opts = rc.terrain_options(
        [Attacker("a", "0202", True, False)], ["0201", "0203"], {"0201": "forest", "0203": "forest_rough"}, _sides({})
    )
    assert opts == [rc.TerrainOption("terrain", frozenset({"a"}), 0), rc.TerrainOption("forest", frozenset(), -1)]


def test_bombardment_crosses_no_hexside_ruling_10_23():
    sides = _sides({("0101", "0102"): (frozenset({"redoubt"}), "0101")})
    attackers = [Attacker("a", "0101", True, False), Attacker("gun", "0104", False, True)]
    opts = rc.terrain_options(attackers, ["0102"], {"0102": "rough"}, sides)
    # Ruling: the battery is halved by the rough hex it bombards but crosses no hexside, so it neither
    # earns nor spoils the redoubt's shift (as 10.38 says of breastworks).
    assert opts == [rc.TerrainOption("terrain", frozenset({"a", "gun"}), -1)]


def test_net_shift_with_the_attackers_right_shift_10_27():
    opts = rc.terrain_options([Attacker("a", "0101", True, False)], ["0102"], {"0102": "town"}, _sides({}), right_shift=2)
    assert opts[0].shift == 1


def test_never_halved_twice_10_22():
    sides = _sides({("0101", "0102"): (frozenset({"stream"}), None)})
    opts = rc.terrain_options([Attacker("a", "0101", True, False)], ["0102"], {"0102": "rough"}, sides)
    assert opts[0].halved == frozenset({"a"})
    assert rc.adjusted(8, halved=True) == 4  # once: rough and stream together still halve only once


def test_units_of_a_hex_take_the_shift_of_any_hex_they_attack_10_24():
    # every attacker attacks across a redoubt into one of the two hexes and rough in the other: halved, and
    # the redoubt's shift applies (10.24's example, with a redoubt for the stream)
    sides = _sides({("0202", "0201"): (frozenset({"redoubt"}), "0202")})
    opts = rc.terrain_options(
        [Attacker("a", "0202", True, False)], ["0201", "0203"], {"0201": "clear", "0203": "rough"}, sides
    )
    assert opts == [rc.TerrainOption("terrain", frozenset({"a"}), -1)]


def test_the_attacker_takes_his_best_right_shift_10_26():
    opts = rc.terrain_options([Attacker("a", "0101", True, False)], ["0102"], {"0102": "clear"}, _sides({}), right_shift=2)
    assert opts[0].shift == 2
