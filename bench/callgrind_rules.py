"""Instructions per verify and per self-played command, counted by callgrind (repeatable whatever the
machine's load, unlike the wall clock of `bluegray bench rules --core-only`).

    python bench/callgrind_rules.py                       # both rule sets, verify and self-play
    python bench/callgrind_rules.py --ruleset revised --what verify --count 5

It runs this file again under ``valgrind --tool=callgrind`` in a child mode that builds the benchmark's
finished Chattanooga game (`bench.benchmarks.rules.finished_game`, seed 1), warms the caches with one
verify (or one self-played game), then runs ``--count`` more between two calls of
``os.getloadavg``, which nothing else calls: ``--dump-before=os_getloadavg*`` makes callgrind write its
counters at each call, so the middle dump holds exactly the measured runs. Printed: instructions per verify and per entry, or
per self-played command.
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _marker() -> None:
    os.getloadavg()


def _child(args) -> None:
    sys.path.insert(0, args.source)
    from bench.benchmarks.rules import finished_game
    from players.selfplay import play
    from replay.verify import verify
    from rules.reducer import new_game
    from session.games import GameCache

    cache = GameCache()
    if args.what == "verify":
        game_id, envelopes = finished_game(cache, "chattanooga", args.ruleset, 1)
        report = verify(game_id, envelopes, cache)  # warm up
        assert report.ok and report.dice_checked, report.problems
        _marker()
        for _ in range(args.count):
            verify(game_id, envelopes, cache)
        _marker()
        print(f"units {len(envelopes)} entries")
    else:
        start = new_game(cache.game("chattanooga", args.ruleset))
        for _ in play(start, random.Random(1000)):
            pass  # warm up
        commands = 0
        _marker()
        for i in range(args.count):
            for _ in play(start, random.Random(1 + i)):
                commands += 1
        _marker()
        print(f"units {commands} commands")


def _totals(path: str) -> int:
    with open(path) as f:
        for line in f:
            if line.startswith(("totals:", "summary:")):
                return int(line.split()[1])
    raise ValueError(f"no totals in {path}")


def measure(ruleset: str, what: str, count: int, source: str = str(ROOT)) -> tuple[float, int, str]:
    """(instructions per run, runs' units, unit name) for `count` runs of `what`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        proc = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--dump-before=os_getloadavg*",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--child",
                "--ruleset",
                ruleset,
                "--what",
                what,
                "--count",
                str(count),
                "--source",
                source,
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
            cwd=source,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"the measured run failed: {proc.stdout[-1000:]}{proc.stderr[-3000:]}")
        dumps = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        if len(dumps) < 2:
            raise RuntimeError(f"callgrind wrote {len(dumps)} dumps: {proc.stderr[-2000:]}")
        measured = _totals(dumps[1])  # between the two markers
    units = next(line.split()[1:] for line in proc.stdout.splitlines() if line.startswith("units "))
    return measured / count, int(units[0]), units[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", choices=("classic", "revised", "both"), default="both")
    parser.add_argument("--what", choices=("verify", "selfplay", "both"), default="both")
    parser.add_argument("--count", type=int, default=3, help="measured runs (default 3)")
    parser.add_argument(
        "--source", default=str(ROOT), help="the checkout whose code is measured (default: this one; another for a before/after)"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args)
        return
    rulesets = ("classic", "revised") if args.ruleset == "both" else (args.ruleset,)
    whats = ("verify", "selfplay") if args.what == "both" else (args.what,)
    for ruleset in rulesets:
        for what in whats:
            per_run, units, unit = measure(ruleset, what, args.count, os.path.abspath(args.source))
            if what == "verify":
                print(
                    f"{ruleset} verify: {per_run / 1e6:,.1f} M instructions per verify "
                    f"({units} {unit}: {per_run / units / 1e3:,.0f} k per entry)"
                )
            else:
                print(
                    f"{ruleset} self-play: {per_run * args.count / units / 1e3:,.0f} k instructions per command "
                    f"({args.count} games, {units} {unit})"
                )


if __name__ == "__main__":
    main()
