"""Revised morale 12.x: the levels, their effect on strength, rally (rules/revised/morale.py).

Cases cited by docs/RULES_COVERAGE.md: 12.0, 12.13, 12.17, 12.41."""

from fractions import Fraction

import pytest

from rules.revised import morale as m


def test_further_disorder_shakes_then_routs_12_14_12_15():
    assert m.worsen(m.GOOD) == m.DISORDERED
    assert m.worsen(m.DISORDERED) == m.SHAKEN  # 12.14
    assert m.worsen(m.SHAKEN) == m.ROUTED  # 12.15
    assert m.worsen(m.ROUTED) == m.ROUTED  # 12.15: "Routed units suffering a further Disorder are not affected"


def test_retreating_artillery_disorder_is_two_steps_12_11():
    assert m.worsen(m.GOOD, 2) == m.SHAKEN  # "becoming at least Shaken"


@pytest.mark.parametrize(("die", "disordered"), [(1, False), (3, False), (4, True), (6, True)])
def test_disorder_die_4_to_6_12_12_12_13(die, disordered):
    assert m.disorder_roll(die) is disordered


def test_town_hexes_disorder_12_17():
    assert m.in_town(m.GOOD) == m.DISORDERED
    assert m.in_town(m.SHAKEN) == m.SHAKEN  # "not additionally affected"
    assert m.in_town(m.ROUTED) == m.ROUTED


def test_combat_effects_12_21_12_22_12_23():
    assert m.attack_factor(m.DISORDERED) == Fraction(2, 3) and m.defence_factor(m.DISORDERED) == 1  # 12.21
    assert m.attack_factor(m.SHAKEN) == Fraction(1, 3) and m.defence_factor(m.SHAKEN) == Fraction(2, 3)  # 12.22
    assert m.attack_factor(m.ROUTED) is None and m.defence_factor(m.ROUTED) == Fraction(1, 3)  # 12.23


@pytest.mark.parametrize(
    ("level", "die", "after"),
    [
        (m.DISORDERED, 1, m.GOOD),
        (m.DISORDERED, 5, m.GOOD),
        (m.DISORDERED, 6, m.SHAKEN),
        (m.SHAKEN, 3, m.GOOD),
        (m.SHAKEN, 4, m.DISORDERED),
        (m.SHAKEN, 6, m.ROUTED),
        (m.ROUTED, 1, m.GOOD),
        (m.ROUTED, 2, m.DISORDERED),
        (m.ROUTED, 5, m.SHAKEN),
        (m.ROUTED, 6, m.ELIMINATED),
    ],
)
def test_rally_table_12_41(level, die, after):
    assert m.rally(level, die) == after


def test_rally_in_town_stays_disordered_12_17_12_41():
    assert m.rally(m.DISORDERED, 1, town=True) == m.DISORDERED
    assert m.rally(m.ROUTED, 5, town=True) == m.SHAKEN
    assert m.rally(m.ROUTED, 6, town=True) == m.ELIMINATED


def test_only_a_demoralised_unit_rallies_12_41():
    with pytest.raises(ValueError):
        m.rally(m.GOOD, 1)
