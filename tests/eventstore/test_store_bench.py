"""`bluegray bench store` runs end to end (tiny sizes: a smoke test, no figure is judged)."""

from api.cli import main


def test_bench_store_prints_every_figure_beside_its_baseline(capsys):
    assert main(["bench", "store", "--events", "20", "--games", "3", "--fsync", "everysec"]) == 0
    out = capsys.readouterr().out
    for row in ("append, 1 game p50", "append, 1 game p99", "append, 3 games p50", "append, 3 games, events",
                "read (verified), events"):
        line = next(line for line in out.splitlines() if line.startswith(row))
        assert line.rstrip().endswith("x")  # the store/bare ratio
    assert "appendfsync everysec" in out and "target: append p50 within 3x" in out
