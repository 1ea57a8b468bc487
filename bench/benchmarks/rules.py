"""`bluegray bench rules`: the rules core on every shipped battle, then the rules engine on the
Chattanooga start position.

- the rules core, for every battle (or ``--scenario``'s) under each rule set it is played under:
  random self-play (commands/s) and ``bluegray verify`` of a finished game (entries/s) beside the
  bare fold of its events, a table of the battles with each one's ratio to Chattanooga's in the same
  run, and the worst battle (``--core-only``: these alone);

- reachable hexes for every unit (median per unit; target <= 1 ms),
- all legal choices of the player to act at the start (median; target <= 20 ms),
- folding a long event log made by random self-play (events/s; target >= 100,000), beside two
  same-run baselines for the same log: msgspec decoding it from JSON, and an empty loop over it;
- a full self-played game, random and greedy players (median seconds per game, under the referee);
- combat: the attack choices of a Combat Phase, validating a declaration, and resolving an attack
  (die roll, result, decisions it leaves), each on positions met in self-play (median);
- the choices the server computes at every version of a self-played game: the summary it sends and
  one unit's reach (what a player's move asks for), beside the baseline of every unit's
  destinations at once (what it sent before), with the sizes of the JSON messages.
"""

from __future__ import annotations

import random
import statistics
import time

import msgspec

from api.commands._args import at_least
from rules.rulesets import NAMES
from rules.rulesets import get as get_ruleset

NAME = "rules"
HELP = (
    "Rules engine: reachable hexes, legal choices, folding a long log, a self-played game, combat resolution."
)


def add_arguments(parser) -> None:
    parser.add_argument(
        "--scenario",
        default=None,
        help="scenario id (default: the rules core on every shipped battle, the other figures on chattanooga)",
    )
    parser.add_argument("--ruleset", choices=NAMES, default="classic", help="rule set (default: classic)")
    parser.add_argument(
        "--rounds", type=at_least(1), default=20, help="repetitions of each measurement (default 20)"
    )
    parser.add_argument(
        "--games", type=at_least(1), default=4, help="self-played games making the event log (default 4)"
    )
    parser.add_argument("--seed", type=int, default=1, help="self-play seed (default 1)")
    parser.add_argument(
        "--core-only",
        action="store_true",
        help="only the rules core's figures, on every battle (or --scenario's) under each of its rule sets: "
        "self-play and verify of a finished game, beside the bare fold",
    )


def run(args) -> int:
    from rules.core.game import Game
    from rules.reducer import new_game
    from scenarios.loader import load

    _bench_core(args)
    if args.core_only:
        return 0
    game = Game(load(args.scenario or "chattanooga"), get_ruleset(args.ruleset))
    start = new_game(game)
    _bench_reach_and_choices(args, start)
    _bench_fold(args, start)
    _bench_games_and_combat(args, start)
    _bench_choices_per_version(args, start)
    return 0


def _bench_reach_and_choices(args, start) -> None:
    """The reachable hexes of one unit, and all the legal choices, at the start."""
    from rules.legal import choices
    from rules.procedures.movement import reachable

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


def _bench_fold(args, start) -> None:
    """A self-played log folded, beside the baselines of decoding it and of an empty loop over it."""
    from typing import Union

    from players.selfplay import play_game
    from rules.core.events import EVENT_TYPES, Event, GameEnded, encode
    from rules.reducer import fold

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
    decoder = msgspec.json.Decoder(Union[EVENT_TYPES])  # noqa: UP007
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
    print(
        f"  baseline msgspec JSON decode of the same log: {decode_rate:,.0f} events/s (fold/decode = {fold_rate / decode_rate:.2f})"
    )
    print(
        f"  baseline empty loop over the log: {loop_rate:,.0f} events/s (fold/loop = {fold_rate / loop_rate:.4f})"
    )


#: Issue 15's targets, warm: entries/s verified (each rule set), commands/s self-played on Chattanooga;
#: issue 36's: Chickamauga self-play >= 1,200 commands/s, no battle's under 1,000.
VERIFY_TARGET = 25_000
SELFPLAY_TARGET = {"classic": 1_500, "revised": 1_200}
BATTLE_SELFPLAY_TARGET = 1_000


def selfplay_target(scenario: str, ruleset: str) -> int:
    """The self-play target of a battle under a rule set (commands/s, warm)."""
    if scenario == "chattanooga":
        return SELFPLAY_TARGET[ruleset]
    if scenario == "chickamauga":
        return 1_200
    return BATTLE_SELFPLAY_TARGET


class CoreFigures(msgspec.Struct):
    """One battle's rules-core figures under one rule set: (best, median) rates."""

    scenario: str
    ruleset: str
    selfplay: tuple[float, float]  # commands/s
    commands: int  # a self-play run's commands
    selfplay_runs: int
    verify: tuple[float, float]  # entries/s
    entries: int  # the verified game's entries
    verify_runs: int
    fold: tuple[float, float]  # the bare fold of the verified game's rules events, events/s
    events: int


def _bench_core(args) -> None:
    """For each battle (every shipped one, as the server lists them, or ``--scenario``'s alone) and
    each rule set it is played under: random self-play (commands/s over ``--games`` games, after one
    game to warm the process's caches) and ``bluegray verify`` of one finished game (chain, every
    digest, every roll and decision again), beside the bare fold of the same game's rules events
    (``rules.reducer.fold`` from the start, no check) measured in the same run, the two alternating.
    Timed in this process's CPU seconds (``time.process_time``), and judged by the best of the runs
    (``--rounds``; self-play: a quarter as many, at least five), as ``timeit`` reports: on a shared
    virtual machine even a CPU second is not constant (the same code's median moved from 15,000 to
    25,000 entries/s within minutes while its instruction count, ``bench/callgrind_rules.py``, stayed
    the same), and a slower run is the machine's load, not the code. The median is printed beside it.
    Each battle's lines are printed as it is measured; then a table of them all, each battle's
    figures also as a ratio to Chattanooga's under the same rule set in the same run, and the worst."""
    from scenarios.loader import list_scenarios, load
    from session.games import GameCache

    cache = GameCache()
    scenarios = [args.scenario] if args.scenario else [sid for sid, _name in list_scenarios()]
    battles = [(sid, r) for sid in scenarios for r in load(sid).rulesets]
    print(
        f"rules core ({len(battles)} battle and rule set pairs, random players; warm: each figure after one run to "
        "fill the process's caches; CPU seconds of this process):",
        flush=True,
    )
    rows = []
    for n, (sid, ruleset) in enumerate(battles, 1):
        row = _core_figures(args, cache, sid, ruleset)
        rows.append(row)
        _print_core(row, f"[{n}/{len(battles)}] {sid} {ruleset}")
    if len(rows) > 1:
        _print_core_table(rows)


def _core_figures(args, cache, scenario: str, ruleset: str) -> CoreFigures:
    from players.selfplay import play
    from replay.verify import verify
    from rules.core.events import Event
    from rules.reducer import fold, new_game

    rounds = max(5, args.rounds // 4)
    verify_rounds = max(5, args.rounds)
    start = new_game(cache.game(scenario, ruleset))
    for _ in play(start, random.Random(args.seed + 1000)):
        pass  # warm up
    runs = []
    commands = 0
    for _ in range(rounds):
        commands = 0
        t = time.process_time()
        for i in range(args.games):
            for _ in play(start, random.Random(args.seed + i)):
                commands += 1
        runs.append(time.process_time() - t)

    game_id, envelopes = finished_game(cache, scenario, ruleset, args.seed)
    events: list[Event] = [e for e in _rules_events(envelopes)]
    report = verify(game_id, envelopes, cache)  # warm up
    if not (report.ok and report.dice_checked):
        raise AssertionError(f"the benchmark's own game does not verify: {report.problems}")
    verify_runs, fold_runs = [], []
    for _ in range(verify_rounds):
        t = time.process_time()
        verify(game_id, envelopes, cache)
        verify_runs.append(time.process_time() - t)
        t = time.process_time()
        fold(start, events)
        fold_runs.append(time.process_time() - t)
    return CoreFigures(
        scenario=scenario,
        ruleset=ruleset,
        selfplay=_rates(commands, runs),
        commands=commands,
        selfplay_runs=len(runs),
        verify=_rates(len(envelopes), verify_runs),
        entries=len(envelopes),
        verify_runs=len(verify_runs),
        fold=_rates(len(events), fold_runs),
        events=len(events),
    )


def _verdict(rates: tuple[float, float], target: float) -> str:
    best, median = (("met" if r >= target else "MISSED") for r in rates)
    return f"target >= {target:,}: {best} by the best run, {median} by the median"


def _print_core(row: CoreFigures, label: str) -> None:
    selfplay, checked, folded = row.selfplay, row.verify, row.fold
    print(
        f"  {label}: self-play {selfplay[0]:,.0f} commands/s, best of {row.selfplay_runs} runs (median {selfplay[1]:,.0f}; "
        f"{row.commands} commands a run)  {_verdict(selfplay, selfplay_target(row.scenario, row.ruleset))}",
        flush=True,
    )
    print(
        f"  {label}: verify {checked[0]:,.0f} entries/s, best of {row.verify_runs} runs (median {checked[1]:,.0f}; "
        f"a finished game: {row.entries} entries); the bare fold of its "
        f"{row.events} rules events {folded[0]:,.0f} events/s (median {folded[1]:,.0f}), "
        f"{folded[0] / checked[0]:,.0f}x the verify rate  {_verdict(checked, VERIFY_TARGET)}",
        flush=True,
    )


def _print_core_table(rows: list[CoreFigures]) -> None:
    """Every battle's figures side by side (best runs), with the ratio to Chattanooga's in the same
    run under the same rule set, and the worst battle by self-play and by verify."""
    base = {r.ruleset: r for r in rows if r.scenario == "chattanooga"}

    def ratio(row: CoreFigures, field: str) -> str:
        b = base.get(row.ruleset)
        return f"{getattr(row, field)[0] / getattr(b, field)[0]:.2f}" if b is not None else "-"

    print()
    print(
        f"{'battle':<24}{'rules':<9}{'self-play cmd/s':>16}{'median':>9}{'x chatt.':>9}{'target':>8}"
        f"{'verify ent/s':>14}{'median':>9}{'x chatt.':>9}{'fold/verify':>12}"
    )
    for r in rows:
        target = selfplay_target(r.scenario, r.ruleset)
        mark = " " if r.selfplay[0] >= target else "!"
        vmark = " " if r.verify[0] >= VERIFY_TARGET else "!"
        print(
            f"{r.scenario:<24}{r.ruleset:<9}{r.selfplay[0]:>15,.0f}{mark}{r.selfplay[1]:>9,.0f}{ratio(r, 'selfplay'):>9}"
            f"{target:>8,}{r.verify[0]:>13,.0f}{vmark}{r.verify[1]:>9,.0f}{ratio(r, 'verify'):>9}"
            f"{r.fold[0] / r.verify[0]:>11,.0f}x"
        )
    print("(best of the runs; ! under its target: self-play as the target column, verify 25,000 entries/s)")
    slow = min(rows, key=lambda r: r.selfplay[0] / selfplay_target(r.scenario, r.ruleset))
    worst = min(rows, key=lambda r: r.selfplay[0])
    checked = min(rows, key=lambda r: r.verify[0])
    print(
        f"worst self-play: {worst.scenario} {worst.ruleset} {worst.selfplay[0]:,.0f} commands/s "
        f"(median {worst.selfplay[1]:,.0f}); furthest from its target: {slow.scenario} {slow.ruleset} "
        f"{slow.selfplay[0] / selfplay_target(slow.scenario, slow.ruleset):.2f}x its target"
    )
    print(
        f"worst verify: {checked.scenario} {checked.ruleset} {checked.verify[0]:,.0f} entries/s "
        f"(median {checked.verify[1]:,.0f}); {checked.verify[0] / VERIFY_TARGET:.2f}x the target"
    )


def _rates(units: int, runs: list[float]) -> tuple[float, float]:
    """(units per second in the fastest run, in the median run)."""
    return units / min(runs), units / statistics.median(runs)


def finished_game(cache, scenario: str, ruleset: str, seed: int):
    """A whole game played by two random players through the session (``session.decide``), sealed
    as the server stores it, with the insecure fixed seed so that its rolls can be checked: its id
    and envelopes."""
    from eventstore.envelope import GENESIS, seal
    from players.selfplay import random_player
    from rules import RULES_VERSION
    from session import decide, dice
    from session.history import History
    from session.records import GameCreated

    rng = random.Random(seed)
    secret = dice.INSECURE_SEED
    game_id = f"bench-{ruleset}-{seed}"
    created = GameCreated(
        game_id=game_id,
        rules_version=RULES_VERSION,
        server_version="bench",
        scenario=scenario,
        scenario_hash=cache.scenario_hash(scenario),
        ruleset=ruleset,
        dice="insecure",
        seed_hash=dice.seed_hash(secret),
        insecure_seed=secret.hex(),
        creator="union",
    )
    history = History(game_id, cache)
    envelopes = []

    def append(new_events) -> None:
        for e in new_events:
            prev = envelopes[-1].hash if envelopes else GENESIS
            envelope = seal(
                e, version=len(envelopes) + 1, time=1_700_000_000_000 + 1000 * len(envelopes), prev=prev
            )
            history.apply(envelope)
            envelopes.append(envelope)

    append(decide.create(created, cache.for_record(created), "bench-creator"))
    append(decide.join(history, "confederate", "bench-joiner"))
    while history.finished is None:
        seat = history.session.to_act
        append(decide.command(history, seat, random_player(history.state, rng), secret))
    return game_id, envelopes


def _rules_events(envelopes):
    from session.history import decode_entry
    from session.records import RECORD_TYPES

    for envelope in envelopes:
        if envelope.type not in RECORD_TYPES:
            yield decode_entry(envelope)


def _bench_choices_per_version(args, start) -> None:
    """At each version of a self-played game (Movement Phases with nothing pending): the full choices
    (every unit's destinations), the summary without destinations, and the reach of one unit that
    may move (drawn at random, as a player picks one), in ms and JSON bytes."""
    from players.selfplay import PLAYERS, play
    from rules.core.state import MOVEMENT
    from rules.legal import choices, reach

    rng = random.Random(args.seed)
    positions = [
        before.copy()
        for before, _command, _events in play(start, rng, max_commands=600, players=PLAYERS["random"])
        if before.phase == MOVEMENT and not before.pending
    ]
    full, summary, one, now = [], [], [], []  # now: summary + one reach, where a unit may move
    full_bytes, summary_bytes, one_bytes = [], [], []
    for state in positions:
        t = time.perf_counter()
        everything = choices(state)
        full.append(time.perf_counter() - t)
        t = time.perf_counter()
        sent = choices(state, destinations=False)
        summary.append(time.perf_counter() - t)
        full_bytes.append(len(msgspec.json.encode(everything)))
        summary_bytes.append(len(msgspec.json.encode(sent)))
        if sent.may_move:
            unit = rng.choice(sent.may_move)
            t = time.perf_counter()
            found, _ = reach(state, unit)
            one.append(time.perf_counter() - t)
            one_bytes.append(len(msgspec.json.encode(found)))
            now.append(summary[-1] + one[-1])
    if not one:
        return

    def line(name: str, times: list[float], sizes: list[int]) -> str:
        return (
            f"  {name}: p50 {_pct(times, 50) * 1e3:.2f} ms, p99 {_pct(times, 99) * 1e3:.2f} ms, "
            f"max {max(times) * 1e3:.2f} ms; {statistics.median(sizes):,.0f} bytes at the median"
        )

    print(f"choices per version ({len(positions)} Movement Phase positions of a self-played game):")
    print(line("baseline, every unit's destinations (sent before)", full, full_bytes))
    print(line("summary, units that may move (sent now)", summary, summary_bytes))
    print(line("one unit's reach (asked for each move)", one, one_bytes))
    print(
        f"  summary + one reach against the baseline: p50 {_pct(full, 50) / _pct(now, 50):.0f}x, "
        f"p99 {_pct(full, 99) / _pct(now, 99):.0f}x less time; "
        f"{statistics.median(full_bytes) / (statistics.median(summary_bytes) + statistics.median(one_bytes)):.0f}x fewer bytes"
    )


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def _bench_games_and_combat(args, start) -> None:
    """A whole self-played game per player kind, and combat on positions met in self-play."""
    from players.selfplay import PLAYERS, declaration, dice_from, play, refereed_game
    from rules.combat_choices import attack_options
    from rules.core.commands import DeclareAttack, ResolveAttack
    from rules.reducer import decide, fold

    for kind in ("random", "greedy"):
        times = []
        events = 0
        for i in range(args.games):
            t = time.perf_counter()
            _, log, _ = refereed_game(start, random.Random(args.seed + i), PLAYERS[kind])
            times.append(time.perf_counter() - t)
            events += len(log)
        print(
            f"a full self-played game ({kind} players, {args.games} games, {events // args.games} events each): "
            f"median {statistics.median(times):.2f} s, max {max(times):.2f} s"
        )

    # Combat Phase positions with attacks to declare, from a few random games.
    positions = []
    rng = random.Random(args.seed)
    for before, _command, _events in play(start, rng):
        if before.phase == "combat" and not before.pending and len(positions) < 200:
            options = attack_options(before)
            if options:
                positions.append((before, options))
    choice_times, declare_times, resolve_times = [], [], []
    results = 0
    dice = dice_from(random.Random(args.seed))
    for _ in range(max(1, args.rounds // 5)):
        for state, options in positions:
            t = time.perf_counter()
            attack_options(state)
            choice_times.append(time.perf_counter() - t)
            option = options[0]
            command = declaration(
                option, option.adjacent[-1].hexes, option.bombard, option.adjacent[-1].units
            )
            t = time.perf_counter()
            declared = decide(state, DeclareAttack(command.attackers, command.defenders))
            declare_times.append(time.perf_counter() - t)
            pending = fold(state, declared)
            t = time.perf_counter()
            decide(pending, ResolveAttack(), dice)
            resolve_times.append(time.perf_counter() - t)
            results += 1
    if results:
        print(
            f"combat ({len(positions)} Combat Phase positions from self-play): attack choices median "
            f"{statistics.median(choice_times) * 1e3:.2f} ms; declare median {statistics.median(declare_times) * 1e3:.3f} ms; "
            f"resolve (roll, result, decisions left) median {statistics.median(resolve_times) * 1e3:.3f} ms"
        )
