"""docs/RULES_COVERAGE.md stays honest: every status is known, and every "enforced" row names a test
that exists and cites that case."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COVERAGE = ROOT / "docs" / "RULES_COVERAGE.md"
STATUSES = {"enforced", "not applicable", "not yet"}
ROW = re.compile(r"^\|\s*(?P<case>\d+\.\d+)\s*\|(?P<what>.*?)\|\s*(?P<status>[^|]+?)\s*\|\s*(?P<test>[^|]*?)\s*\|$")


def rows():
    return [m.groupdict() for line in COVERAGE.read_text().splitlines() if (m := ROW.match(line))]


def test_coverage_table_has_rows_for_both_books():
    cases = [r["case"] for r in rows()]
    assert len(cases) > 300
    assert "5.13" in cases and "6.13" in cases


def test_every_status_is_known():
    unknown = [(r["case"], r["status"]) for r in rows() if r["status"].strip("* ") not in STATUSES]
    assert unknown == []


def test_every_enforced_row_names_an_existing_test_that_cites_the_case():
    problems = []
    for r in rows():
        if r["status"].strip("* ") != "enforced":
            continue
        for ref in re.findall(r"`?(tests/[\w/]+\.py)::(\w+)`?", r["test"]) or [None]:
            if ref is None:
                problems.append(f"{r['case']}: no test named")
                continue
            path, name = ref
            source = (ROOT / path).read_text() if (ROOT / path).exists() else ""
            if f"def {name}(" not in source:
                problems.append(f"{r['case']}: {path}::{name} does not exist")
            elif r["case"] not in source:
                problems.append(f"{r['case']}: {path} never cites the case")
    assert problems == []
