"""`bluegray soak` (bench/soak.py, bench/commands/soak.py): a short run of the real command, with its own
`serve` and embedded store, samples memory, kills the store and recovers, loses no acknowledged
command and reports; and the verdict on a run's samples names a leak per game. No timing or memory
threshold is asserted of the run itself (a growth limit of 1000% is given: what is checked is that
the figures are there and true)."""

from __future__ import annotations

import json
import subprocess
import sys

from bench.soak import Sample, verdict

PATIENCE = 600  # seconds: a guard against hanging, never a measure


def test_a_short_soak_samples_kills_the_store_recovers_and_reports():
    done = subprocess.run(
        [
            sys.executable, "-m", "api", "soak", "--minutes", "0.5", "--kill-every", "0.15",
            "--sample-seconds", "3", "--games", "2", "--spectators", "2", "--think", "0.2",
            "--commands-per-game", "6", "--undo-every", "2", "--reconnect-every", "3",
            "--max-growth", "1000", "--json",
        ],
        capture_output=True, text=True, timeout=PATIENCE,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["ok"] and not report["failures"]
    samples = report["samples"]
    assert len(samples) >= 3 and all(s["server_rss_mib"] for s in samples)
    assert any(s["store_used_mib"] for s in samples)  # the store's INFO used_memory was read
    assert [s["seconds"] for s in samples] == sorted(s["seconds"] for s in samples)
    kills = report["kills"]
    assert kills and all(k["recovered_s"] is not None for k in kills)  # the supervisor restarted it
    assert len({k["pid"] for k in kills}) == len(kills)  # a new store process each time
    # the bots played on through the kills, game after game, with undos and reconnects
    assert report["games_created"] > report["games_concurrent"] and report["games_left"] > 0
    assert report["commands_acknowledged"] > 0 and report["acks_checked"] == report["commands_acknowledged"]
    assert report["acks_lost"] == 0 and report["games_unverified"] == 0
    assert report["games_checked"] >= report["games_left"]
    assert report["undos"].get("requested", 0) > 0 and report["reconnects"] > 0
    assert report["rss_warm_mib"] and report["rss_end_mib"] and report["rss_growth"] is not None


def _samples(rss: list[float], games: list[int]) -> list[Sample]:
    return [
        Sample(seconds=60.0 * i, games=g, commands=10 * g, server_rss_mib=m, store_used_mib=2.0, store_rss_mib=8.0)
        for i, (m, g) in enumerate(zip(rss, games, strict=True))
    ]


def test_the_verdict_passes_a_plateau_and_names_a_leak_per_game():
    games = [0, 20, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 240]
    plateau = _samples([60, 80, 90, 92, 93, 92, 93, 94, 93, 93, 94, 93, 94], games)
    judged = verdict(plateau, 0.10)
    assert judged.ok and judged.warm.seconds == 120.0 and judged.end.server_rss_mib == 94  # the first sixth: 2 min of 12
    assert abs(judged.growth - (94 - 90) / 90) < 1e-9

    leak = _samples([60 + 0.5 * g for g in games], games)  # 512 KiB per game, for ever
    judged = verdict(leak, 0.10)
    assert not judged.ok and "a leak of about 512 KiB per game" in judged.says
    assert abs(judged.per_game_kib - 512) < 1e-6

    # grown, but not with the games (no game created after the warm-up): not named a leak per game
    judged = verdict(_samples([60, 70, 80, 90, 100], [10, 10, 10, 10, 10]), 0.10)
    assert not judged.ok and "not per game" in judged.says and judged.per_game_kib is None

    assert not verdict(_samples([60], [1]), 0.10).ok  # one sample judges nothing
