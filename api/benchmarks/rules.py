"""`bluegray bench rules`: the rules engine on the Chattanooga start position.

- reachable hexes for every unit (median per unit; target <= 1 ms),
- all legal choices of the player to act at the start (median; target <= 20 ms),
- folding a long event log made by random self-play (events/s; target >= 100,000), beside two
  same-run baselines for the same log: msgspec decoding it from JSON, and an empty loop over it.
"""

from __future__ import annotations

import random
import statistics
import time

NAME = "rules"
HELP = "Rules engine: reachable hexes per unit, all legal choices, folding a long self-played event log."


def add_arguments(parser) -> None:
    parser.add_argument("--scenario", default="chattanooga", help="scenario id (default: chattanooga)")
    parser.add_argument("--ruleset", default="classic", help="rule set (default: classic)")
    parser.add_argument("--rounds", type=int, default=20, help="repetitions of each measurement (default 20)")
    parser.add_argument("--games", type=int, default=4, help="self-played games making the event log (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="self-play seed (default 1)")


def run(args) -> int:
    from typing import Union

    import msgspec

    from rules.events import Event, GameEnded, encode, event_types
    from rules.game import Game
    from rules.legal import choices
    from rules.movement import reachable
    from rules.reducer import fold, new_game
    from rules.selfplay import play_game
    from scenarios.loader import load

    game = Game(load(args.scenario), args.ruleset)
    start = new_game(game)
    units = sorted(start.positions)

    per_unit = []
    for _ in range(args.rounds):
        for u in units:
            t = time.perf_counter()
            reachable(start, u)
            per_unit.append(time.perf_counter() - t)
    hexes = sum(len(reachable(start, u).ends) for u in units)
    print(
        f"reachable hexes, one unit ({len(units)} units, {hexes} end hexes in all): "
        f"median {statistics.median(per_unit) * 1e3:.3f} ms, max {max(per_unit) * 1e3:.3f} ms  (target <= 1 ms)"
    )

    times = []
    for _ in range(args.rounds):
        t = time.perf_counter()
        legal = choices(start)
        times.append(time.perf_counter() - t)
    offered = sum(len(d) for d in legal.moves.values()) + sum(len(d) for d in legal.reinforcements.values())
    print(
        f"all legal choices at the start ({len(legal.moves)} units may move, {offered} destinations): "
        f"median {statistics.median(times) * 1e3:.2f} ms  (target <= 20 ms)"
    )

    rng = random.Random(args.seed)
    log: list[Event] = []
    t = time.perf_counter()
    for _ in range(args.games):
        _, events = play_game(start, rng)
        log.extend(events)
    played = time.perf_counter() - t
    games = args.games
    print(f"self-play: {games} game(s), {len(log)} events in {played:.2f} s (the log folded below)")

    # A log is one game's: fold each game's events from the start position, as many times as rounds.
    per_game: list[list[Event]] = [[]]
    for e in log:
        per_game[-1].append(e)
        if isinstance(e, GameEnded):
            per_game.append([])
    fold_times = []
    for _ in range(args.rounds):
        t = time.perf_counter()
        for events in per_game:
            fold(start, events)
        fold_times.append(time.perf_counter() - t)
    fold_rate = len(log) / statistics.median(fold_times)

    lines = [encode(e) for e in log]
    decoder = msgspec.json.Decoder(Union[event_types()])  # noqa: UP007
    dec_times = []
    for _ in range(args.rounds):
        t = time.perf_counter()
        for line in lines:
            decoder.decode(line)
        dec_times.append(time.perf_counter() - t)
    decode_rate = len(log) / statistics.median(dec_times)

    loop_times = []
    for _ in range(args.rounds):
        t = time.perf_counter()
        for _event in log:
            pass
        loop_times.append(time.perf_counter() - t)
    loop_rate = len(log) / statistics.median(loop_times)

    print(f"fold (evolve) the log: {fold_rate:,.0f} events/s  (target >= 100,000)")
    print(f"  baseline msgspec JSON decode of the same log: {decode_rate:,.0f} events/s (fold/decode = {fold_rate / decode_rate:.2f})")
    print(f"  baseline empty loop over the log: {loop_rate:,.0f} events/s (fold/loop = {fold_rate / loop_rate:.4f})")
    return 0
