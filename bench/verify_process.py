"""The whole-process `bluegray verify` of a finished Chickamauga game (issue 36): what a user waits for,
interpreter start and every import and per-scenario table included. Beside it in the same run, the
bare interpreter (`python -c pass`) as this machine's baseline, and, when given, another verifier's
command line to compare with (VALOR's `verify_game.py` on its own game: VALOR is not vendored, so
the comparison runs only when you pass its command; without it, this script says so and skips it).

    python bench/verify_process.py                       # bluegray verify and the bare interpreter
    python bench/verify_process.py --runs 9 --other "python /path/to/valor/verify_game.py GAME"

Each figure is the median of ``--runs`` wall-clock runs (default 5), after one run not counted, with
the compiled modules cached as an installed package has them (PYTHONPYCACHEPREFIX, a folder of this
run: a machine with PYTHONDONTWRITEBYTECODE=1 would otherwise compile every module every run).
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def export_game(scenario: str, ruleset: str, seed: int, folder: Path) -> tuple[Path, int]:
    """A game played by two random players and sealed as the server stores it, exported: its file
    and number of entries."""
    sys.path.insert(0, str(ROOT))
    from bench.benchmarks.rules import finished_game
    from replay import export
    from session.games import GameCache

    _game_id, envelopes = finished_game(GameCache(), scenario, ruleset, seed)
    path = folder / f"{scenario}-{seed}.jsonl"
    path.write_bytes(export.dumps(envelopes))
    return path, len(envelopes)


def timed(command: list[str], runs: int, env: dict[str, str]) -> float:
    """The median wall-clock seconds of ``command`` over ``runs`` runs after one not counted; it must
    succeed each time."""
    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"{shlex.join(command)} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    return statistics.median(times[1:])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="chickamauga", help="battle of the game verified (default chickamauga)")
    p.add_argument("--ruleset", default="revised", help="its rule set (default revised)")
    p.add_argument("--seed", type=int, default=1, help="self-play seed of the game (default 1)")
    p.add_argument("--runs", type=int, default=5, help="runs of each command; the median is shown (default 5)")
    p.add_argument("--other", help="another verifier's whole command line to time beside it (e.g. VALOR's)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        game, entries = export_game(args.scenario, args.ruleset, args.seed, Path(folder))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        print(f"{args.scenario} {args.ruleset} seed {args.seed}: {entries} entries; median of {args.runs} runs", flush=True)
        bare = timed([sys.executable, "-c", "pass"], args.runs, env)
        print(f"  bare interpreter (python -c pass)     {bare * 1000:8.0f} ms", flush=True)
        ours = timed([sys.executable, "-m", "api", "verify", str(game)], args.runs, env)
        print(f"  bluegray verify (whole process)       {ours * 1000:8.0f} ms  {entries / ours:,.0f} entries/s, "
              f"{ours / bare:.1f}x the bare interpreter", flush=True)
        if args.other is None:
            print("  other verifier: not given (--other COMMAND): no comparison made")
            return 0
        other = timed(shlex.split(args.other), args.runs, env)
        print(f"  other ({args.other})  {other * 1000:8.0f} ms: bluegray verify is {other / ours:.1f}x as fast")
    return 0


if __name__ == "__main__":
    sys.exit(main())
