"""`bluegray bench rules --core-only` runs end to end (one game a run: a smoke test, no figure is judged)."""

import re

from api.cli import main


def test_bench_core_prints_the_best_and_the_median_beside_the_bare_fold(capsys):
    assert main(["bench", "rules", "--core-only", "--games", "1", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    for ruleset in ("classic", "revised"):
        selfplay = next(line for line in out.splitlines() if line.strip().startswith(f"{ruleset}: self-play"))
        verify = next(line for line in out.splitlines() if line.strip().startswith(f"{ruleset}: verify"))
        assert re.search(r"best of 5 runs \(median [\d,]+;", selfplay)  # at least five runs, whatever --rounds says
        assert re.search(r"best of 5 runs \(median [\d,]+;", verify)
        assert re.search(r"bare fold of its \d+ rules events [\d,]+ events/s \(median [\d,]+\), \d+x the verify rate", verify)
        for line in (selfplay, verify):
            assert re.search(r"target >= [\d,]+: (met|MISSED) by the best run, (met|MISSED) by the median$", line)
