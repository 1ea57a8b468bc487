"""The Combat Results Table (1975: 7.0 procedure, 7.6): odds columns and results.

The table itself is per-game data (``Scenario.crt``: in 1975 each game printed its own, and the
Chattanooga table's reading is explained beside it in scenarios/chattanooga/scenario.toml). Here:
turning strengths into a column (7.0: "rounded off, always in favor of the defender"; 7.6: beyond
the last column as the last, below the first as the first), the columns an attacker may reduce the
odds to (7.9), and looking a result up.

>>> from fractions import Fraction
>>> column_of(13, 4, ["1-5", "1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"])
'3-1'
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rules.core.scenario import CombatResultsTable

AE, AR, DR, DE, EX = "Ae", "Ar", "Dr", "De", "Ex"  # 7.6


@lru_cache(maxsize=64)
def ratio(column: str) -> Fraction:
    """``"3-1"`` → 3, ``"1-3"`` → 1/3."""
    a, _, b = column.partition("-")
    return Fraction(int(a), int(b))


def column_of(attack: int, defence: int, columns: list[str] | tuple[str, ...]) -> str:
    """7.0: attack to defence as the table's odds, rounded in the defender's favour (the greatest
    column not above the true ratio: 13 to 4 is 3.25 to 1, read as 3-1; 4 to 10 is 1 to 2.5, read as
    1-3); 7.6: above the last column as the last ("greater than 6-1 are treated as 6-1"), below the
    first as the first ("worse than 1-5 are treated as 1-5")."""
    if defence <= 0:
        return columns[-1]
    true = Fraction(attack, defence)
    best = columns[0]
    for c in columns:
        if ratio(c) <= true:
            best = c
    return best


def reductions(column: str, columns: list[str] | tuple[str, ...]) -> list[str]:
    """7.9: the columns an attack at ``column`` may be resolved on: that one and every lower one,
    best first."""
    i = list(columns).index(column)
    return list(reversed(columns[: i + 1]))


def result(table: CombatResultsTable, column: str, die: int) -> str:
    """The result at the intersection of the die roll's line and the odds column (7.0, 7.6)."""
    return table.rows[str(die)][table.columns.index(column)]
