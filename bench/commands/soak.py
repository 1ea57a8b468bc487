"""`bluegray soak`: the load test's bots for many minutes against a `bluegray serve` of its own, with
spectators joining and leaving, undo requests, reconnects and a SIGKILL of the store every few
minutes; the server's RSS and the store's memory sampled throughout (bench/soak.py says what is done
and judged). Exit 1 when RSS grows after the warm-up by more than --max-growth, or an acknowledged
command is not in its game's log once, or the store did not come back.

The server runs in a temporary directory (embedded store, loopback only), removed at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path

from api.commands._args import at_least, not_negative, positive

NAME = "soak"
HELP = "A long run of bots, spectators, undos, reconnects and store kills; fails on unbounded RSS growth."


def add_arguments(parser) -> None:
    parser.add_argument("--minutes", type=positive, default=60.0, help="how long to run (default 60)")
    parser.add_argument("--games", type=at_least(1), default=10, help="concurrent games (default 10)")
    parser.add_argument(
        "--spectators",
        type=at_least(0),
        default=10,
        help="spectators, spread over the games; each follows its game's bot to the next game (default 10)",
    )
    parser.add_argument(
        "--think", type=not_negative, default=1.0, help="mean seconds a bot waits before each command (default 1.0)"
    )
    parser.add_argument(
        "--commands-per-game",
        type=at_least(1),
        default=40,
        help="acknowledged commands after which a bot leaves its game and creates another (default 40)",
    )
    parser.add_argument(
        "--undo-every",
        type=at_least(0),
        default=15,
        help="every Nth command of a game is asked to be taken back; the opponent accepts every other "
        "request and declines the rest (default 15; 0: none)",
    )
    parser.add_argument(
        "--reconnect-every",
        type=at_least(0),
        default=25,
        help="every Nth command of a game one seat's websocket is closed and opened again (default 25; 0: none)",
    )
    parser.add_argument(
        "--kill-every",
        type=not_negative,
        default=10.0,
        metavar="MINUTES",
        help="SIGKILL the store every MINUTES; the server's supervisor starts it again (default 10; 0: never)",
    )
    parser.add_argument(
        "--sample-seconds",
        type=positive,
        default=30.0,
        help="seconds between samples of the server's RSS and the store's memory; one progress line each (default 30)",
    )
    parser.add_argument(
        "--max-growth",
        type=not_negative,
        default=10.0,
        metavar="PERCENT",
        help="fail when the server's RSS at the end exceeds its RSS at the end of the warm-up (the first "
        "sixth of the run) by more than PERCENT (default 10)",
    )
    parser.add_argument(
        "--brain-nice",
        type=at_least(0),
        default=10,
        help="CPU priority (nice) of the processes that choose the bots' commands (default 10)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object at the end")


def run(args) -> int:
    from bench.commands.loadtest import _NotStarted, _serve
    from bench.soak import Soak, lost, verdict
    from bench.soak import run as soak_run

    with tempfile.TemporaryDirectory(prefix="bluegray-soak-") as data, contextlib.ExitStack() as stack:
        lines: list[str] = []
        try:
            ((url, pid),) = _serve(stack, ["--data-dir", data, "--fsync", "always"], 1, lines)
        except _NotStarted as exc:
            print(exc, file=sys.stderr)
            return 1
        store_url = lines[0].split("(store ", 1)[1].rstrip(")\n")
        soak = Soak(
            url=url,
            server_pid=pid,
            store_url=store_url,
            store_pid_file=Path(data) / "redis" / "redis.pid",
            seconds=args.minutes * 60,
            games=args.games,
            spectators=args.spectators,
            think=args.think,
            commands_per_game=args.commands_per_game,
            undo_every=args.undo_every,
            reconnect_every=args.reconnect_every,
            kill_every=args.kill_every * 60,
            sample_every=args.sample_seconds,
            brain_nice=args.brain_nice,
            progress=lambda line: print(line, flush=True),
        )
        print(
            f"soak: {args.minutes:g} min, {args.games} games, {args.spectators} spectators, think {args.think:g} s, "
            f"a new game every {args.commands_per_game} commands, store killed every {args.kill_every:g} min; "
            f"server pid {pid}, store {store_url}",
            flush=True,
        )
        asyncio.run(soak_run(soak))
        checked = asyncio.run(lost(store_url, soak.figures.acks))
        judged = verdict(soak.samples, args.max_growth / 100)
    return _report(args, soak, checked, judged)


def _report(args, soak, checked, judged) -> int:
    f = soak.figures
    back = [k for k in soak.kills if k.recovered_s is not None]
    failures = []
    if not judged.ok:
        failures.append(judged.says)
    if checked.lost:
        failures.append(f"{len(checked.lost)} acknowledged commands not in the log once where acknowledged")
    if checked.unverified:
        failures.append(f"{len(checked.unverified)} games whose chain does not verify")
    if len(back) < len(soak.kills):
        failures.append(f"{len(soak.kills) - len(back)} store kills not recovered from")
    if not f.acks:
        failures.append("no command acknowledged")
    store_used = [s.store_used_mib for s in soak.samples if s.store_used_mib is not None]
    report = {
        "minutes": args.minutes,
        "games_concurrent": args.games,
        "spectators": args.spectators,
        "games_created": f.games_started,
        "games_finished": f.games_finished,
        "games_left": f.games_left,
        "commands_acknowledged": len(f.acks),
        "acks_checked": checked.checked,
        "acks_lost": len(checked.lost),
        "games_checked": checked.games,
        "games_unverified": len(checked.unverified),
        "undos": dict(f.undos),
        "reconnects": f.reconnects,
        "resent_after_unavailable": f.resent,
        "kills": [asdict(k) for k in soak.kills],
        "errors": sum(f.errors.values()),
        "error_kinds": dict(f.errors),
        "rss_warm_mib": judged.warm.server_rss_mib if judged.warm else None,
        "rss_warm_at_s": judged.warm.seconds if judged.warm else None,
        "rss_end_mib": judged.end.server_rss_mib if judged.end else None,
        "rss_growth": None if judged.growth is None else round(judged.growth, 4),
        "rss_kib_per_game": None if judged.per_game_kib is None else round(judged.per_game_kib, 2),
        "store_used_mib_first_last_max": [store_used[0], store_used[-1], max(store_used)] if store_used else None,
        "samples": [asdict(s) for s in soak.samples],
        "verdict": judged.says,
        "ok": not failures,
        "failures": failures,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print()
        print(f"{'seconds':>8} {'games':>6} {'commands':>9} {'server RSS':>11} {'store used':>11} {'store RSS':>10}  (MiB)")
        for s in soak.samples:
            print(
                f"{s.seconds:8.0f} {s.games:6d} {s.commands:9d} {_mib(s.server_rss_mib):>11} "
                f"{_mib(s.store_used_mib):>11} {_mib(s.store_rss_mib):>10}"
            )
        print()
        print(
            f"games created {f.games_started} (finished {f.games_finished}, left after {args.commands_per_game} "
            f"commands {f.games_left}); commands acknowledged {len(f.acks)}; undos {dict(f.undos)}; "
            f"reconnects {f.reconnects}; resent after `unavailable` {f.resent}"
        )
        print(
            "store kills: "
            + (", ".join(f"{k.seconds:.0f} s (back in {k.recovered_s} s)" for k in soak.kills) or "none")
        )
        print(
            f"acknowledged commands: {checked.checked} checked in {checked.games} games, {len(checked.lost)} lost "
            f"or misplaced; chains not verifying: {len(checked.unverified)}"
        )
        print(f"errors: {report['errors']} {report['error_kinds'] or ''}")
        print(f"memory: {judged.says}")
        print("soak passed" if not failures else "soak FAILED: " + "; ".join(failures))
    return 0 if not failures else 1


def _mib(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
