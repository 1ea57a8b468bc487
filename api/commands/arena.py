"""`bluegray arena A B --scenario ID --games N [--side SIDE | --paired]`, or `bluegray arena A B C ...
--round-robin`: computer players against each other, both sides (or A on one).

Prints, for A on each side, the games won, drawn and lost with the win rate and its 95% (Wilson)
confidence interval, and each player's decision time (median, p95, max); progress goes to stderr.
With ``--paired``, N pairs of games on shared dice with the sides swapped (players/arena.py): A's
mean Victory Point margin a pair with its 95% interval, and the won-drawn-lost of each side. With
``--round-robin``, every player against every other in paired games, and their Elo ratings
(``random`` = 0). Players: random, greedy, engine (its default level) or engine:LEVEL
(players/engine.py LEVELS).
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
    parser.add_argument(
        "players", nargs="+", metavar="PLAYER",
        help="two players (A, then its opponent), or more with --round-robin: random, greedy, engine or "
        "engine:LEVEL (easy, normal, hard, expert), search or search:SECONDS (players/search.py: the level expert, its ceiling a Movement Phase)",
    )
    parser.add_argument("--scenario", default="chattanooga", help="scenario id (default: chattanooga)")
    parser.add_argument("--ruleset", default="revised", help="rule set (default: revised)")
    parser.add_argument("--games", type=at_least(1), default=10, help="games per side, or pairs with --paired (default 10)")
    parser.add_argument("--paired", action="store_true", help="pairs of games on the same dice with the sides swapped")
    parser.add_argument(
        "--round-robin", action="store_true", help="every player against every other (paired games) and Elo ratings"
    )
    parser.add_argument("--seed", type=integer, default=1, help="seed of the first game of each side (default 1)")
    parser.add_argument("--side", choices=["union", "confederate"], help="only A on this side (default: both sides)")
    parser.add_argument("--json", action="store_true", help="one JSON object per side instead of text")


def run(args) -> int:
    from players.arena import player_named
    from rules.core.game import Game
    from rules.reducer import new_game
    from rules.rulesets import get as get_ruleset
    from scenarios.loader import ScenarioError, load

    _check_players(args)
    args.a, args.b = args.players[0], args.players[-1]
    for name in args.players:
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

    if args.round_robin:
        return _round_robin(start, args, progress)
    if args.paired:
        return _paired(start, args, progress)
    return _sides(start, args, progress)


def _check_players(args) -> None:
    """Two players, or with --round-robin two or more different ones; --side only for two unpaired."""
    if args.round_robin:
        if len(args.players) < 2 or len(set(args.players)) != len(args.players):
            raise CommandError("--round-robin: give two or more different players")
        if args.side:
            raise CommandError("--round-robin plays both sides: no --side")
    elif len(args.players) != 2:
        raise CommandError(
            f"give two players, A and its opponent (got {len(args.players)}; more need --round-robin)"
        )
    elif args.paired and args.side:
        raise CommandError("--paired plays both sides of each pair: no --side")


def _sides(start, args, progress) -> int:
    """A against B on each side (or on --side): the tally of each side, its win rate and decision times."""
    from players.arena import arena, percentile, wilson

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


def _side_lines(result) -> list[str]:
    return [
        f"    {result.a} as the {side.capitalize()}: won {t.wins}, drew {t.draws}, lost {t.losses} of {t.games}"
        for side, t in result.tallies.items()
    ]


def _paired(start, args, progress) -> int:
    from players.arena import paired, percentile

    print(f"{args.a} v {args.b}: {args.scenario}, {args.ruleset} rules, {args.games} pairs (shared dice, sides swapped)")
    result, pa, pb = paired(start, args.a, args.b, args.games, args.seed, progress)
    mean, low, high = result.interval()
    if args.json:
        print(json.dumps({
            "a": args.a, "b": args.b, "pairs": args.games, "margins": result.margins,
            "mean_margin": mean, "ci95": [low, high],
            "sides": {s: {"wins": t.wins, "draws": t.draws, "losses": t.losses} for s, t in result.tallies.items()},
            "decision_p95_s": {args.a: percentile(pa.times, 0.95), args.b: percentile(pb.times, 0.95)},
        }))
        return 0
    print(f"  {args.a}'s mean Victory Point margin a pair: {mean:+.2f} (95% interval {low:+.2f} to {high:+.2f})")
    print("\n".join(_side_lines(result)), flush=True)
    return 0


def _round_robin(start, args, progress) -> int:
    from players.arena import round_robin

    print(f"round robin of {', '.join(args.players)}: {args.scenario}, {args.ruleset} rules, {args.games} pairs a match")
    results, ratings = round_robin(start, args.players, args.games, args.seed, progress)
    if args.json:
        print(json.dumps({
            "matches": [{"a": r.a, "b": r.b, "margins": r.margins, "mean_margin": r.interval()[0]} for r in results],
            "elo": ratings,
        }))
        return 0
    for r in results:
        mean, low, high = r.interval()
        print(f"  {r.a} v {r.b}: {r.a}'s mean margin {mean:+.2f} (95% interval {low:+.2f} to {high:+.2f})")
        print("\n".join(_side_lines(r)))
    print("  Elo (random = 0):")
    for name, rating in sorted(ratings.items(), key=lambda kv: -kv[1]):
        print(f"    {name:16} {rating:7.0f}")
    return 0
