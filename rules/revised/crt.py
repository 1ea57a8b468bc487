"""The revised Combat Results Table (003, Charts & Tables, case 8.6) and how an attack finds its column.

Source: the revised 2nd edition rule book, "Charts & Tables", "[8.6] Combat Results Table"
(the 2nd edition's standard table: one table for every game, unlike 1975's per-game tables). Its twelve
columns and six rows are copied below cell by cell from the text (each row has all twelve cells; the text
prints ``AE*``/``EX*``, written here ``Ae*``/``Ex*`` as the case text of 8.6 does). Below the table:
"Attacks at greater than (or shifted beyond) 6:1 are treated as 6:1 with the following die roll
modifications: 8:1 '-1'; 10:1 '-2', 12:1 '-3'. Attacks at less than (or shifted beyond) 1:5 are treated as
1:5." (8.61, 8.62.)

Columns are written "3-1" as everywhere in the project (the book prints "3:1").

Odds (8.0 procedure): attack strength to defence strength "rounded down (that is, always in favour of the
defender)" to a ratio on the table; above 6:1 the ratios go on in whole numbers (7:1, 8:1, ...: 8.42's
example: 14 against 2 in forest is 7:1 shifted one column left to 6:1), which is where the column shifts
(8.42, 10.23-10.27) and the die modifiers of 8.61 act. Ruling: 8.61 counts "each two odds levels above 6:1"
(7:1 nothing, 8:1 and 9:1 -1, 10:1 and 11:1 -2, 12:1 or more -3: the table names no modifier beyond -3);
a modified die below 1 is read on row 1.

>>> column_index(13, 4), COLUMNS[column_index(13, 4)]
(8, '3-1')
>>> resolve(14, 2, shift=-1)
('6-1', 0)
"""

from __future__ import annotations

from fractions import Fraction

AE, AE_STAR, AR, DR, DE, EX, EX_STAR = "Ae", "Ae*", "Ar", "Dr", "De", "Ex", "Ex*"
RESULTS = (AE, AE_STAR, AR, DR, DE, EX, EX_STAR)

COLUMNS: tuple[str, ...] = ("1-5", "1-4", "1-3", "1-2", "2-3", "1-1", "3-2", "2-1", "3-1", "4-1", "5-1", "6-1")
ROWS: dict[int, tuple[str, ...]] = {
    1: (AR, AR, AR, DR, DR, DR, DR, DR, DE, DE, DE, DE),
    2: (AR, AR, AR, AR, DR, DR, DR, DR, DR, DR, DE, DE),
    3: (AE_STAR, AR, AR, AR, AR, DR, DR, DR, DR, DR, DR, DE),
    4: (AE, AE_STAR, AR, AR, AR, AR, DR, DR, DR, DR, DR, DR),
    5: (AE, AE, AE_STAR, AR, AR, AR, AR, AR, DR, EX_STAR, EX, EX),
    6: (AE, AE, AE, AE_STAR, AR, AR, AR, EX_STAR, EX, EX, EX, EX),
}
SOURCE = "003_a0a5e96e61d1e57b.txt, Charts & Tables, [8.6] Combat Results Table"

# The odds levels: the table's columns, then the whole ratios above 6:1 (8.42, 8.61) up to 12:1.
LEVELS: tuple[str, ...] = COLUMNS + tuple(f"{n}-1" for n in range(7, 13))
LOWEST, TOP = 0, len(COLUMNS) - 1  # 1:5, 6:1


def ratio(level: str) -> Fraction:
    a, _, b = level.partition("-")
    return Fraction(int(a), int(b))


_RATIOS = tuple(ratio(c) for c in LEVELS)
_TERMS = tuple((r.numerator, r.denominator) for r in _RATIOS)  # ascending


def column_index(attack: int, defence: int) -> int:
    """8.0: the greatest odds level not above attack/defence (rounded down, in the defender's favour);
    an index into ``LEVELS``, below 1:5 as -1 (8.62 then reads it on 1:5; 9.18 refuses it)."""
    if defence <= 0:
        return len(LEVELS) - 1
    best = -1
    for i, (num, den) in enumerate(_TERMS):  # num/den <= attack/defence, exactly (attack may be a Fraction)
        if num * defence > attack * den:
            break
        best = i
    return best


def die_modifier(level: int) -> int:
    """8.61: what is subtracted from the die at an odds level above 6:1 (one per two levels, at most 3)."""
    return min(3, max(0, level - TOP) // 2)


def shifted(level: int, shift: int) -> int:
    """8.42, 10.27: the level moved ``shift`` columns (negative: left, in the defender's favour), never
    beyond 12:1; below 1:5 stays below (-1) for 9.18 to see, and is read on 1:5 (8.62)."""
    return max(-1, min(len(LEVELS) - 1, level + shift))


def resolve(attack: int, defence: int, shift: int = 0) -> tuple[str, int]:
    """The column an attack is resolved on and the die modifier (8.0, 8.42, 8.61, 8.62)."""
    level = shifted(column_index(attack, defence), shift)
    return COLUMNS[min(TOP, max(LOWEST, level))], die_modifier(level)


def result(column: str, die: int, modifier: int = 0) -> str:
    """8.6: the result on ``column`` for ``die`` less ``modifier`` (8.61; never below row 1)."""
    return ROWS[max(1, die - modifier)][COLUMNS.index(column)]


def reductions(column: str) -> list[str]:
    """8.9: the columns an attack at ``column`` may be resolved on, best first."""
    i = COLUMNS.index(column)
    return list(reversed(COLUMNS[: i + 1]))
