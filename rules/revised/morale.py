"""Morale (revised 12.0): Disordered, Shaken and Routed units, what it does to their strength, how they
rally. Pure functions on a unit's morale level; the state keeps the level of every unit that has one.

- 12.14, 12.15: a further Disorder makes a Disordered unit Shaken, a Shaken one Routed; a Routed one is
  not affected (``worsen``). 12.11's artillery exception ("an additional Disorder result") is two steps.
- 12.12, 12.13: a die roll of 4-6 disorders (``disorder_roll``).
- 12.17: a unit entering or occupying a town hex is at least Disordered (``in_town``); a rally there
  leaves it at least Disordered.
- 12.21-12.23: attacking, Disordered loses one-third and Shaken two-thirds, Routed may not attack;
  defending, Shaken loses one-third and Routed two-thirds (``attack_factor``, ``defence_factor``;
  rounded to the nearest at that stage, never below 1: rules/revised/combat.py).
- 12.41 (b): the rally table (``rally``); 12.41 (a) night recovery and 11.3.
"""

from __future__ import annotations

from fractions import Fraction

GOOD = ""  # no marker
DISORDERED = "disordered"
SHAKEN = "shaken"
ROUTED = "routed"
ELIMINATED = "eliminated"  # 12.41 iii: a Routed unit rallying on a 6

LEVELS = (GOOD, DISORDERED, SHAKEN, ROUTED)


def worsen(level: str, steps: int = 1) -> str:
    """12.14, 12.15: ``steps`` further Disorders (Routed is the worst)."""
    return LEVELS[min(LEVELS.index(level) + steps, len(LEVELS) - 1)]


def in_town(level: str) -> str:
    """12.17: in a town hex a unit is at least Disordered; worse levels are not affected."""
    return DISORDERED if level == GOOD else level


def disorder_roll(die: int) -> bool:
    """12.12, 12.13: on a die roll of 4-6 the unit becomes Disordered (one more Disorder)."""
    return die >= 4


def attack_factor(level: str) -> Fraction | None:
    """12.21-12.23: the attacker's strength multiplier (None: a Routed unit may not attack)."""
    return _ATTACK_FACTOR[level]


def defence_factor(level: str) -> Fraction:
    """12.21-12.23: the defender's strength multiplier (Disordered defends unaffected)."""
    return _DEFENCE_FACTOR[level]


_ATTACK_FACTOR = {GOOD: Fraction(1), DISORDERED: Fraction(2, 3), SHAKEN: Fraction(1, 3), ROUTED: None}
_DEFENCE_FACTOR = {GOOD: Fraction(1), DISORDERED: Fraction(1), SHAKEN: Fraction(2, 3), ROUTED: Fraction(1, 3)}


def rally(level: str, die: int, town: bool = False) -> str:
    """12.41 (b) i-iii: the level after a rally attempt with ``die`` (``ELIMINATED``: a Routed unit on a
    6); 12.17 and 12.41's exception: in a town hex the unit stays at least Disordered."""
    if level == DISORDERED:
        after = GOOD if die <= 5 else SHAKEN
    elif level == SHAKEN:
        after = GOOD if die <= 3 else DISORDERED if die <= 5 else ROUTED
    elif level == ROUTED:
        after = GOOD if die == 1 else DISORDERED if die <= 3 else SHAKEN if die <= 5 else ELIMINATED
    else:
        raise ValueError("only a Disordered, Shaken or Routed unit rallies (12.41)")
    if town and after != ELIMINATED:
        after = in_town(after)
    return after
