"""How an attack's odds are built, as data a client shows without knowing any rule (value types).

An attack's breakdown names every unit that adds its strength, each modifier applied to it in the book's
order with the case that applies (1975 7.4 and 9.0: the defender's terrain; revised 8.32: range, morale,
terrain, each stage rounded), the totals, the column their ratio reads, each odds column shift (revised
8.42, 10.23-10.27), the column the attack is resolved on and the die modifier (8.61), and what is still
to come (``later``: the night die, 11.23; a scenario's die modifier). The rule sets fill it in
(``breakdown`` of their combat procedures: rules/procedures/combat.py, rules/revised/combat_procedures.py);
``rules.combat_choices.combat_breakdown`` is the entry point.
"""

from __future__ import annotations

import msgspec


class Modifier(msgspec.Struct, frozen=True, omit_defaults=True):
    """One modifier of one unit's strength: ``what`` it is in the book's words, the ``case`` that
    applies, the ``factor`` ("x2", "x1/2", "x3/2", "x2/3", "x1/3") and the strength ``before`` and
    ``after`` it (rounded as the book says)."""

    what: str
    case: str
    factor: str
    before: int
    after: int


class UnitStrength(msgspec.Struct, frozen=True, omit_defaults=True):
    """One unit of the attack: ``role`` "adjacent" (attacking from an adjacent hex), "bombarding"
    (artillery attacking from range), "defending", or "passive" (a defender attacked before this phase,
    which adds nothing and suffers the result: 1975 7.74, revised 8.74); its ``printed`` strength, the
    ``modifiers`` in order and the ``strength`` it adds."""

    unit: str
    hex: str
    role: str
    printed: int
    strength: int
    modifiers: tuple[Modifier, ...] = ()


class ColumnShift(msgspec.Struct, frozen=True):
    """An odds column shift: ``columns`` (negative: to the left, in the defender's favour)."""

    what: str
    case: str
    columns: int


class Note(msgspec.Struct, frozen=True):
    """Something that changes the attack after the odds are read, or a choice still to be made (the
    night die, 11.23; the defender's terrain choice, 8.45; a scenario's die modifier)."""

    what: str
    case: str


class CombatBreakdown(msgspec.Struct, frozen=True, omit_defaults=True):
    """An attack's odds, built (see the module). ``attack`` and ``defence`` are the totals the odds
    are read from; ``ratio`` the column the ratio alone reads (the odds before any shift); ``shifts``
    the odds column shifts applied (their net); ``odds`` the column the attack is resolved on;
    ``die_modifier`` what is subtracted from the die (revised 8.61); ``table_case`` the case of the
    table and of the rounding (1975 7.6, revised 8.6)."""

    attackers: tuple[UnitStrength, ...]
    defenders: tuple[UnitStrength, ...]
    attack: int
    defence: int
    ratio: str
    odds: str
    table_case: str
    shifts: tuple[ColumnShift, ...] = ()
    die_modifier: int = 0
    later: tuple[Note, ...] = ()
