"""The odds of each result on a column of a Combat Results Table (one die: each row is 1/6), and the
order of results from the attacker's side, worst first (the luck ledger of replay/report.py)."""

from __future__ import annotations

from rules.core.scenario import CombatResultsTable

#: Results from the attacker's point of view, worst first (the revised table's partial results, 003 8.6:
#: Ae* between Ae and Ar, Ex* between Dr and Ex).
RANK = {"Ae": 0, "Ae*": 1, "Ar": 2, "Dr": 3, "Ex*": 4, "Ex": 5, "De": 6}


def table_of(game) -> CombatResultsTable:
    """The table a game's combats are read on: the revised book's own for every revised game (003 8.6,
    rules/revised/crt.py), else the scenario's (1975: each game prints its own)."""
    if game.ruleset.name == "revised":
        from rules.revised import crt as revised  # noqa: PLC0415 - only for revised games

        return CombatResultsTable(columns=list(revised.COLUMNS), rows={str(k): list(v) for k, v in revised.ROWS.items()})
    return game.scenario.crt


def column_distribution(table: CombatResultsTable, column: str) -> dict[str, float]:
    """P(result) for each result the column can give: the die rows giving it out of all rows (sums to 1)."""
    i = table.columns.index(column)
    rows = list(table.rows.values())
    out: dict[str, float] = {}
    for row in rows:
        out[row[i]] = out.get(row[i], 0.0) + 1 / len(rows)
    return {r: round(p, 12) for r, p in sorted(out.items(), key=lambda kv: RANK.get(kv[0], 0))}


def all_columns(table: CombatResultsTable) -> dict[str, dict[str, float]]:
    return {c: column_distribution(table, c) for c in table.columns}
