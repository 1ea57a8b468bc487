"""Self-play digests of every shipped battle: for a few fixed seeds, each game's line as the golden
corpus records it (tests/rules/golden.py ``record_game``: the SHA-256 of every event's encoding and of
the state digest after every command). A speed change must leave every line the same.

    python bench/selfplay_digests.py --write /tmp/speed-before/digests.json   # before a change
    python bench/selfplay_digests.py --check /tmp/speed-before/digests.json   # after it: 0 differ

Options: ``--seeds 1,2`` (default), ``--rulesets classic,revised`` (default: those the battle is played under), ``--players random``,
``--scenario ID`` (repeatable; default every shipped battle, as the server lists them).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def lines(scenarios: list[str], rulesets: list[str], seeds: list[int], players: str, progress=None) -> list[dict]:
    sys.path.insert(0, str(ROOT / "tests" / "rules"))
    from golden import record_game

    from rules.core.game import Game
    from rules.reducer import new_game
    from rules.rulesets import get as get_ruleset
    from scenarios.loader import load

    out = []
    for sid in scenarios:
        scenario = load(sid)
        for ruleset in rulesets or scenario.rulesets:
            if ruleset not in scenario.rulesets:
                continue
            start = new_game(Game(scenario, get_ruleset(ruleset)))
            for seed in seeds:
                t = time.process_time()
                line = {"scenario": sid, "ruleset": ruleset, "players": players, "seed": seed}
                line.update(record_game(start, players, seed))
                out.append(line)
                if progress:
                    progress(line, time.process_time() - t)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--write", metavar="FILE", help="record the lines to FILE")
    p.add_argument("--check", metavar="FILE", help="compare with the lines recorded in FILE")
    p.add_argument("--seeds", default="1,2", help="comma-separated seeds (default 1,2)")
    p.add_argument("--rulesets", help="comma-separated rule sets (default: each battle's own)")
    p.add_argument("--players", default="random", choices=("random", "greedy"), help="computer players")
    p.add_argument("--scenario", action="append", help="a battle's id (repeatable; default: every shipped one)")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from scenarios.loader import list_scenarios

    scenarios = args.scenario or [sid for sid, _ in list_scenarios()]
    now = lines(
        scenarios,
        args.rulesets.split(",") if args.rulesets else [],
        [int(s) for s in args.seeds.split(",")],
        args.players,
        lambda line, s: print(
            f"{line['scenario']} {line['ruleset']} seed {line['seed']}: {line['commands']} commands, "
            f"{line['events']} events, {s:.1f} s ({line['commands'] / max(s, 1e-9):,.0f} commands/s)",
            file=sys.stderr,
            flush=True,
        ),
    )
    if args.write:
        Path(args.write).parent.mkdir(parents=True, exist_ok=True)
        Path(args.write).write_text(json.dumps(now, indent=1) + "\n")
        print(f"wrote {len(now)} games to {args.write}")
    if args.check:
        recorded = json.loads(Path(args.check).read_text())
        key = lambda d: (d["scenario"], d["ruleset"], d["players"], d["seed"])  # noqa: E731
        old = {key(d): d for d in recorded}
        differ = [k for k in (key(d) for d in now) if k in old and old[k] != next(d for d in now if key(d) == k)]
        missing = [key(d) for d in now if key(d) not in old]
        for k in differ:
            print("DIFFERS:", *k)
        for k in missing:
            print("not recorded:", *k)
        print(f"{len(now)} games: {len(differ)} differ")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
