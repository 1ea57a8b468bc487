"""`bluegray arena A B --scenario ID --games N [--side SIDE]`: computer players against each other, both
sides (or A on one).

Prints, for A on each side, the games won, drawn and lost with the win rate and its 95% (Wilson)
confidence interval, and each player's decision time (median, p95, max); progress goes to stderr.
Players: random, greedy, engine (its default level) or engine:LEVEL (players/engine.py LEVELS).
"""

from __future__ import annotations

import json
import sys
import time

from api.commands._args import at_least, integer
from api.commands._errors import CommandError
from api.commands.scenario import one_line

NAME = "arena"
HELP = "Computer players against each other, both sides: win rates with 95%% confidence intervals, decision times."


def add_arguments(parser) -> None:
    parser.add_argument("a", help="a player: random, greedy, engine or engine:LEVEL (easy, normal, hard)")
    parser.add_argument("b", help="its opponent, likewise")
    parser.add_argument("--scenario", default="chattanooga", help="scenario id (default: chattanooga)")
    parser.add_argument("--ruleset", default="revised", help="rule set (default: revised)")
    parser.add_argument("--games", type=at_least(1), default=10, help="games per side (default 10)")
    parser.add_argument("--seed", type=integer, default=1, help="seed of the first game of each side (default 1)")
    parser.add_argument("--side", choices=["union", "confederate"], help="only A on this side (default: both sides)")
    parser.add_argument("--json", action="store_true", help="one JSON object per side instead of text")


def run(args) -> int:
    from players.arena import arena, percentile, player_named, wilson
    from rules.core.game import Game
    from rules.reducer import new_game
    from rules.rulesets import get as get_ruleset
    from scenarios.loader import ScenarioError, load

    for name in (args.a, args.b):
        try:
            player_named(name)
        except ValueError as e:
            raise CommandError(str(e)) from None
    try:
        start = new_game(Game(load(args.scenario), get_ruleset(args.ruleset)))
    except ScenarioError as e:
        raise CommandError(one_line(e)) from None
    except KeyError as e:
        raise CommandError(f"--ruleset {args.ruleset}: {e.args[0]}") from None

    last = [0.0]

    def progress(line: str) -> None:
        now = time.perf_counter()
        if now - last[0] > 5:
            last[0] = now
            print(f"arena: {line}", file=sys.stderr, flush=True)

    print(f"{args.a} v {args.b}: {args.scenario}, {args.ruleset} rules, {args.games} games a side")
    sides = (args.side,) if args.side else ("union", "confederate")
    for tally, pa, pb in arena(start, args.a, args.b, args.games, args.seed, progress, sides):
        low, high = wilson(tally.wins, tally.games)
        times = {args.a: pa.times, args.b: pb.times}
        if args.json:
            print(
                json.dumps(
                    {
                        "a": args.a, "b": args.b, "side": tally.side, "games": tally.games,
                        "wins": tally.wins, "draws": tally.draws, "losses": tally.losses,
                        "win_rate": tally.wins / tally.games, "ci95": [low, high],
                        "decision_p95_s": {k: percentile(v, 0.95) for k, v in times.items()},
                    }
                ),
                flush=True,
            )
            continue
        print(
            f"  {args.a} as the {tally.side.capitalize()}: won {tally.wins}, drew {tally.draws}, lost "
            f"{tally.losses} of {tally.games}: {tally.wins / tally.games:.0%} (95% CI {low:.0%}-{high:.0%})",
            flush=True,
        )
        for name, values in times.items():
            print(
                f"    {name}: {len(values)} decisions, median {percentile(values, 0.5) * 1e3:.0f} ms, "
                f"p95 {percentile(values, 0.95) * 1e3:.0f} ms, max {max(values, default=0) * 1e3:.0f} ms",
                flush=True,
            )
    return 0
