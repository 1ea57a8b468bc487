"""`bluegray bench replay`: seeking to random versions of a long game, beside folding from zero and a
bare XRANGE of the same events.

The game is built by self-play (random legal commands under the referee, players/selfplay.py) with
undos by consent woven in (the ``undo_dice`` house rule lets them cross die rolls), so its log
holds many undone ranges, as a long correspondence game would: cycles of `--cycle` commands, then
an undo of all of them or all but the first one or two (all of them from the next-to-last
Game-Turn on, so that the game is still running), until the log has `--events` events. It is stored on a
private embedded server started for the run, snapshots are written every `snapshot_every` (100)
events as the server writes them, and then for `--samples` random versions:

- seek: the snapshot at or before the version, XRANGE of the rest and its fold (replay/seek.py),
  through the one effective-history fold the server uses; an undo in that range whose target lies
  before the snapshot needs the state at its target, a seek of its own, kept for later seeks in
  memory and in the store (`replay.seek.TargetStates`); "a restarted process" seeks with nothing
  in memory (those states read back from the store), "kept nowhere" computes every one each time;
- fold from zero: XRANGE of versions 1..v and the fold of all of them (no snapshot);
- bare XRANGE 1..v: the same events read with no decoding, checking or folding.

Target (DESIGN.md): seek ≤ 20 ms median on a 10,000-event game.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
import time

from api.commands._args import at_least

NAME = "replay"
HELP = "Replay: seek to random versions of a long self-played game (snapshot + fold) beside folding from zero and bare XRANGE."

TARGET_MS = 20.0


def add_arguments(parser) -> None:
    parser.add_argument("--events", type=at_least(100), default=10_000, help="events in the game's log (default 10000)")
    parser.add_argument("--samples", type=at_least(1), default=300, help="random versions sought (default 300)")
    parser.add_argument("--baseline-samples", type=at_least(1), default=40, help="of them, folded from zero too (default 40)")
    parser.add_argument("--cycle", type=at_least(1), default=24, help="commands between undos while building (default 24)")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the self-play and the versions")


def progress(message: str) -> None:
    print(f"  .. {message}", file=sys.stderr, flush=True)


def build_log(events: int, cycle: int, seed: int):
    """A self-played log of at least `events` events (fewer if the game ends first), with undos."""
    from eventstore.envelope import GENESIS, seal
    from players.selfplay import random_player
    from rules import RULES_VERSION
    from rules.core.scenario import scenario_hash
    from session import decide, dice
    from session.games import GameCache
    from session.history import History
    from session.records import GameCreated, SessionOptions

    games = GameCache()
    rng = random.Random(seed)
    secret = dice.INSECURE_SEED
    game_id = "bench-replay"
    created = GameCreated(
        game_id=game_id, rules_version=RULES_VERSION, server_version="bench", scenario="chattanooga",
        scenario_hash=scenario_hash(games.scenario("chattanooga")), ruleset="classic",
        options=SessionOptions(undo_dice=True), dice="insecure", seed_hash=dice.seed_hash(secret),
        insecure_seed=secret.hex(), creator="union",
    )
    history = History(game_id, games)
    envelopes = []
    clock = [1_700_000_000_000]

    def append(new_events) -> None:
        for e in new_events:
            prev = envelopes[-1].hash if envelopes else GENESIS
            clock[0] += 1000
            envelope = seal(e, version=len(envelopes) + 1, time=clock[0], prev=prev)
            history.apply(envelope)
            envelopes.append(envelope)

    turns = games.scenario("chattanooga").turns
    append(decide.create(created, games.for_record(created), "bench-creator"))
    append(decide.join(history, "confederate", "bench-joiner"))
    undos = 0
    while len(envelopes) < events and history.finished is None:
        boundaries = [history.version]
        last_turns = history.state.turn >= turns - 1  # near the end: undo the whole cycle, never finish
        for _ in range(cycle):
            if history.finished is not None or len(envelopes) >= events or history.state.turn >= turns:
                break
            append(decide.command(history, history.session.to_act, random_player(history.state, rng), secret))
            boundaries.append(history.version)
        if history.finished is not None or len(envelopes) >= events or len(boundaries) < 2:
            break
        back_to = boundaries[0 if last_turns else rng.choice((0, 1, 2))]  # all, or all but the first one or two
        seat = history.session.to_act
        append(decide.undo_request(history, seat, back_to, now_ms=clock[0], backoff_seconds=0))
        other = "confederate" if seat == "union" else "union"
        append(decide.undo_answer(history, other, history.version, "accept"))
        undos += 1
        if len(envelopes) // 2000 != (len(envelopes) - cycle * 3) // 2000:
            progress(f"{len(envelopes)} events")
    return game_id, envelopes, history, undos


def run(args) -> int:
    if args.events < 100 or args.samples < 1:
        print("--events must be at least 100 and --samples at least 1", file=sys.stderr)
        return 2
    return asyncio.run(_bench(args))


async def _bench(args) -> int:
    from eventstore.embedded import EmbeddedRedis

    progress(f"self-playing a game of {args.events} events (undos every {args.cycle} commands)")
    t0 = time.perf_counter()
    built = build_log(args.events, args.cycle, args.seed)
    progress(f"built in {time.perf_counter() - t0:.1f} s")
    with tempfile.TemporaryDirectory(prefix="bluegray-bench-") as tmp:
        server = EmbeddedRedis(os.path.join(tmp, "redis"), fsync="everysec", exit_with_parent=True)
        server.start()
        try:
            return await _measure(args, server, *built)
        finally:
            server.stop()


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _measure(args, server, game_id, envelopes, history, undos) -> int:
    import redis.asyncio as aioredis

    from eventstore.store import RedisEventStore
    from replay.seek import TargetStates, ensure_snapshots, seek
    from replay.transfer import write_sealed
    from session.games import GameCache
    from session.history import load

    store = RedisEventStore.from_url(server.url)
    bare = aioredis.Redis.from_url(server.url)
    games = GameCache()
    await write_sealed(store, game_id, envelopes)
    written = await ensure_snapshots(store, game_id, games)
    n = len(envelopes)
    s = history.session
    print(
        f"bluegray bench replay: Chattanooga, {n} events ({len(s.commands)} effective commands, {undos} undos, "
        f"{sum(a - b - 1 for b, a in s.reverted)} events undone), Game-Turn {history.state.turn}; "
        f"{written} snapshots (every {store.snapshot_every}); {os.cpu_count()} CPUs"
    )
    rng = random.Random(args.seed + 1)
    versions = [rng.randint(1, n) for _ in range(args.samples)]
    log_key = store.keys(game_id).log
    for v in versions[:10]:  # warm up (connections, scenario tables)
        await seek(store, game_id, games, v)
    seeks, cold, seek_reads, zero, xrange_all = [], [], [], [], []
    for i, v in enumerate(versions):
        t0 = time.perf_counter_ns()
        await seek(store, game_id, games, v, targets=None)  # nothing kept anywhere
        cold.append((time.perf_counter_ns() - t0) / 1e6)
        t0 = time.perf_counter_ns()
        h = await seek(store, game_id, games, v)
        t1 = time.perf_counter_ns()
        assert h.version == v
        seeks.append((t1 - t0) / 1e6)
        base = v // store.snapshot_every * store.snapshot_every
        t0 = time.perf_counter_ns()
        await bare.xrange(log_key, f"{base + 1}-0", f"{v}-0")
        seek_reads.append((time.perf_counter_ns() - t0) / 1e6)
        t0 = time.perf_counter_ns()
        await bare.xrange(log_key, "1-0", f"{v}-0")
        xrange_all.append((time.perf_counter_ns() - t0) / 1e6)
        if i < args.baseline_samples:
            t0 = time.perf_counter_ns()
            z = await load(store, game_id, games, to_version=v, snapshots=False)
            zero.append((time.perf_counter_ns() - t0) / 1e6)
            assert z.snapshot() == h.snapshot(), f"version {v}: the seek and the fold from zero differ"
    fresh = []
    for v in versions:  # a restarted server: nothing in memory, the states at undo targets in the store
        t0 = time.perf_counter_ns()
        await seek(store, game_id, games, v, targets=TargetStates())
        fresh.append((time.perf_counter_ns() - t0) / 1e6)
    rows = [
        ("seek (snapshot + XRANGE + fold)", seeks),
        ("seek, a restarted process", fresh),
        ("seek, undo targets kept nowhere", cold),
        ("bare XRANGE of the events a seek folds", seek_reads),
        ("fold from zero (XRANGE 1..v + fold)", zero),
        ("bare XRANGE 1..v", xrange_all),
    ]
    print(f"{'':42s} {'samples':>8s} {'median':>10s} {'p99':>10s}")
    for what, samples in rows:
        print(f"{what:42s} {len(samples):8d} {_pct(samples, 0.5):8.2f}ms {_pct(samples, 0.99):8.2f}ms")
    median = _pct(seeks, 0.5)
    verdict = "met" if median <= TARGET_MS else "MISSED"
    print(f"target: seek median <= {TARGET_MS:g} ms: {verdict} ({median:.2f} ms; "
          f"{_pct(zero, 0.5) / median:.0f}x faster than folding from zero)")
    await store.aclose()
    await bare.aclose()
    return 0
