"""`bluegray bench rules --core-only` runs end to end (one game a run: a smoke test, no figure is judged):
each battle's lines, then the table of the battles and the worst."""

import re

from api.cli import main


def test_bench_core_prints_the_best_and_the_median_beside_the_bare_fold(capsys):
    assert main(["bench", "rules", "--core-only", "--scenario", "chattanooga", "--games", "1", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    for ruleset in ("classic", "revised"):
        selfplay = next(line for line in out.splitlines() if f"chattanooga {ruleset}: self-play" in line)
        verify = next(line for line in out.splitlines() if f"chattanooga {ruleset}: verify" in line)
        assert re.search(r"best of 5 runs \(median [\d,]+;", selfplay)  # at least five runs, whatever --rounds says
        assert re.search(r"best of 5 runs \(median [\d,]+;", verify)
        assert re.search(r"bare fold of its \d+ rules events [\d,]+ events/s \(median [\d,]+\), \d+x the verify rate", verify)
        for line in (selfplay, verify):
            assert re.search(r"target >= [\d,]+: (met|MISSED) by the best run, (met|MISSED) by the median$", line)
    table = [line.split() for line in out.splitlines() if line.startswith("chattanooga ")]
    assert [row[:2] for row in table] == [["chattanooga", "classic"], ["chattanooga", "revised"]]
    assert all(row[4] == "1.00" for row in table)  # each its own rule set's same-run baseline
    assert re.search(r"^worst self-play: chattanooga (classic|revised) [\d,]+ commands/s", out, re.M)
    assert re.search(r"^worst verify: chattanooga (classic|revised) [\d,]+ entries/s", out, re.M)
