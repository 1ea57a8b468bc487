"""`bluegray selfplay SCENARIO`: computer players play whole games under the referee's eye.

For each game: the turns played, the number of events, the victory points by side and the level of
victory (with ``--json``, one JSON object per line: ``seed``, ``turns``, ``events``, ``vp``,
``result``). Progress and a summary go to stderr. The exit code is non-zero when any game broke an
invariant (players/selfplay.py ``Referee``) or reached a dead end.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter

from api.commands._args import at_least, integer
from api.commands._errors import CommandError
from api.commands._text import plural
from api.commands.scenario import one_line

NAME = "selfplay"
HELP = "Computer players play whole games; per game: turns, events, victory points, level of victory."


def add_arguments(parser) -> None:
    parser.add_argument("scenario", help="scenario id or folder (e.g. chattanooga)")
    parser.add_argument("--ruleset", default="classic", help="rule set (default: classic)")
    parser.add_argument("--games", type=at_least(1), default=1, help="how many games (default 1)")
    parser.add_argument(
        "--seed", type=integer, default=1, help="seed of the first game; game i uses seed+i (default 1)"
    )
    parser.add_argument(
        "--players",
        choices=["random", "greedy"],
        default="random",
        help="random: uniform among the legal choices; greedy: prefers the best odds (default random)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per game on its own line")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help=f"a game option, on (NAME or NAME=yes) or off (NAME=no): {', '.join(OPTIONS)}, or one of the "
        "scenario's optional rules (scenario.toml [options]; `bluegray scenario show` lists them) (repeatable)",
    )


#: The rules' game options (each on or off) and the case each is: 11.0 optional Attack Effectiveness, and
#: applying a retreat or exchange loss that has a single legal option at once.
OPTIONS = ("attack_effectiveness", "auto_single_choice")
YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off")


def _options(pairs: list[str], scenario_options=()) -> dict:
    out: dict = {}
    known = (*OPTIONS, *scenario_options)
    for pair in pairs:
        name, has_value, value = pair.partition("=")
        if name not in known:
            raise CommandError(f"--option {pair}: no option {name!r} (known: {', '.join(known)})")
        if has_value and value.lower() not in YES + NO:
            raise CommandError(
                f"--option {pair}: {value!r} is neither on ({'/'.join(YES)}) nor off ({'/'.join(NO)})"
            )
        out[name] = value.lower() not in NO
    return out


def run(args) -> int:
    import random

    from players.selfplay import PLAYERS, DeadEnd, InvariantBroken, refereed_game
    from rules.core.errors import RuleViolation
    from rules.core.game import Game
    from rules.reducer import new_game
    from rules.rulesets import get as get_ruleset
    from scenarios.loader import ScenarioError, load

    try:
        scenario = load(args.scenario)
        options = _options(args.option, tuple(scenario.options))
        game = Game(scenario, get_ruleset(args.ruleset), options)
    except ScenarioError as e:
        raise CommandError(one_line(e)) from None
    except KeyError as e:
        raise CommandError(f"--ruleset {args.ruleset}: {e.args[0]}") from None
    start = new_game(game)
    player = PLAYERS[args.players]
    results: Counter = Counter()
    failures = 0
    began = last_note = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        try:
            final, log, _ = refereed_game(start, random.Random(seed), player)
        except (InvariantBroken, DeadEnd, RuleViolation) as e:
            failures += 1
            if args.json:
                print(json.dumps({"seed": seed, "error": f"{type(e).__name__}: {e}"}), flush=True)
            else:
                print(f"game {i + 1} (seed {seed}): BROKEN: {type(e).__name__}: {e}", flush=True)
            continue
        vp = {"union": final.vp.get("union", 0), "confederate": final.vp.get("confederate", 0)}
        results[final.result] += 1
        if args.json:
            print(
                json.dumps(
                    {"seed": seed, "turns": final.turn, "events": len(log), "vp": vp, "result": final.result}
                )
            )
        else:
            print(
                f"game {i + 1} (seed {seed}): {plural(final.turn, 'turn')}, {plural(len(log), 'event')}, "
                f"Union {vp['union']} VP, Confederate {vp['confederate']} VP: {final.result}"
            )
        now = time.perf_counter()
        if args.games > 1 and (now - last_note > 5 or i + 1 == args.games):
            last_note = now
            print(
                f"selfplay: {i + 1}/{plural(args.games, 'game')}, {now - began:.1f} s",
                file=sys.stderr,
                flush=True,
            )
    elapsed = time.perf_counter() - began
    summary = ", ".join(f"{n} {r}" for r, n in results.most_common())
    print(
        f"selfplay: {plural(args.games, 'game')} ({args.players}) in {elapsed:.1f} s"
        f" ({elapsed / args.games:.2f} s a game); {failures} broken; {summary}",
        file=sys.stderr,
    )
    return 1 if failures else 0
