"""`bluegray loadtest`: self-playing games and spectators on websockets against a game server, with
command latency, broadcast latency, errors and events/s (api/loadtest.py says what is measured).

Without --url it starts its own `bluegray serve` in another process (embedded Redis in a temporary
directory, loopback only) and stops it at the end; the server's CPU and its Redis's are then
reported. The bots' rules work runs in processes of its own (api/loadtest.py). Nothing is ever
sent anywhere but the server it is given.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from urllib.parse import urlparse

from api.commands._args import at_least, not_negative, positive
from api.commands._errors import CommandError

NAME = "loadtest"
HELP = "Self-playing games and spectators over websockets; prints command and broadcast latency, errors, events/s."


#: What an error the bots met means, when it is not a fault of the server.
EXPLAINED = {
    "rate_limited": "the server refused messages over its per-connection rate limit (20 a second, bursts of "
    "40: api/config.py rate_per_second, rate_burst); a real server keeps its limits, so raise --think",
}


def add_arguments(parser) -> None:
    parser.add_argument(
        "--games", type=at_least(1), default=10, help="concurrent self-playing games (default 10)"
    )
    parser.add_argument(
        "--ruleset",
        choices=["classic", "revised"],
        default="classic",
        help="the games' rule set (default classic)",
    )
    parser.add_argument(
        "--spectators", type=at_least(0), default=0, help="spectators, spread over the games (default 0)"
    )
    parser.add_argument("--duration", type=positive, default=10.0, help="seconds to run (default 10)")
    parser.add_argument(
        "--think",
        type=not_negative,
        default=1.0,
        help="mean seconds a bot waits before each command (default 1.0; 0: as fast as it can)",
    )
    parser.add_argument(
        "--choices",
        action="store_true",
        help="players play as the web client does: from the choices the server sends, asking it for the reach "
        "of the unit they draw to move; default: each bot picks from its own fold",
    )
    parser.add_argument(
        "--brain-nice",
        type=at_least(0),
        default=10,
        help="CPU priority (nice) of the processes that fold the games and choose the bots' commands (default 10)",
    )
    parser.add_argument(
        "--url",
        help="a running server on this machine (http://127.0.0.1:8080); its games stay in its lobby (a game "
        "is never deleted). Default: start one in a temporary directory, removed at the end",
    )
    parser.add_argument(
        "--fsync",
        choices=["always", "everysec"],
        default="always",
        help="the started server's appendfsync (default always)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--every",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="also print, every SECONDS of the run, the commands, their p99 latency and the errors of that "
        "interval and the memory (RSS) of the started server and its Redis: a soak's trend (default: off)",
    )


def run(args) -> int:
    if args.url:
        _check_server(args.url)
        code = _report(args, asyncio.run(_load(args, args.url, None)), "given")
        print(
            f"the games played stay in the lobby of {args.url} (a game is never deleted); without --url "
            "loadtest plays on a server of its own in a temporary directory",
            file=sys.stderr,
        )
        return code
    with tempfile.TemporaryDirectory(prefix="bluegray-load-") as data:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "api",
                "serve",
                "--port",
                "0",
                "--data-dir",
                data,
                "--fsync",
                args.fsync,
                "--log-level",
                "WARNING",
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            line = server.stdout.readline()
            if not line.startswith("bluegray serving on "):
                print(f"the server did not start: {line!r}", file=sys.stderr)
                return 1
            url = line.split()[3]
            figures = asyncio.run(_load(args, url, server.pid))
            return _report(args, figures, f"started (pid {server.pid}, fsync {args.fsync})")
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                os.kill(server.pid, signal.SIGKILL)
                server.wait()


def _check_server(url: str) -> None:
    """A game server on this machine answers at `url`: loadtest sends nothing anywhere else."""
    import urllib.error
    import urllib.request

    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise CommandError(f"--url {url}: not an http:// address")
    if parsed.hostname not in ("127.0.0.1", "localhost", "::1"):
        raise CommandError(
            f"--url {url}: loadtest talks to servers on this machine only (127.0.0.1, localhost, ::1)"
        )
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/healthz", timeout=5):
            pass
    except urllib.error.HTTPError as exc:
        raise CommandError(
            f"--url {url}: /healthz answered {exc.code}: not a game server ready to play"
        ) from None
    except (OSError, ValueError) as exc:
        raise CommandError(
            f"--url {url}: no game server answers there: {getattr(exc, 'reason', exc)}"
        ) from None


async def _load(args, url: str, server_pid: int | None):
    from api.loadtest import Run, children, cpu_seconds, run

    marks = {}
    store = children(server_pid) if server_pid else []  # the started server's embedded Redis

    def start() -> None:  # the measured period starts: CPU counted from here
        marks["server"], marks["store"] = cpu_seconds(server_pid), cpu_seconds(*store) if store else None
        marks["own"] = time.process_time()

    def end() -> None:
        server, redis = cpu_seconds(server_pid), cpu_seconds(*store) if store else None
        figures.server_cpu_s = (
            None if server is None or marks.get("server") is None else server - marks["server"]
        )
        figures.store_cpu_s = None if redis is None or marks.get("store") is None else redis - marks["store"]
        figures.client_cpu_s = time.process_time() - marks["own"] if marks else 0.0

    config = Run(
        url=url,
        games=args.games,
        spectators=args.spectators,
        duration=args.duration,
        think=args.think,
        choices=args.choices,
        ruleset=args.ruleset,
        brain_nice=args.brain_nice,
        on_measuring=start,
        on_over=end,
    )
    figures = config.figures
    if args.every > 0:
        progress = asyncio.create_task(_progress(args.every, figures, server_pid, store))
        try:
            return await run(config)
        finally:
            progress.cancel()
    return await run(config)


def _rss_mib(*pids: int) -> float | None:
    """The resident memory of these processes, MiB (Linux /proc), or None."""
    total = 0
    for pid in pids:
        try:
            status = open(f"/proc/{pid}/status").read()
            total += int(status.split("VmRSS:", 1)[1].split()[0])
        except (OSError, IndexError, ValueError):
            return None
    return round(total / 1024, 1)


async def _progress(every: float, figures, server_pid: int | None, store: list[int]) -> None:
    """Every `every` seconds one line: that interval's commands, their p99 latency and the errors,
    and the memory of the server and its store (when this command started them)."""
    from api.loadtest import percentile

    began, seen, errors = time.monotonic(), 0, 0
    while True:
        await asyncio.sleep(every)
        latest = figures.command_ms[seen:]
        seen += len(latest)
        failed, errors = sum(figures.errors.values()) - errors, sum(figures.errors.values())
        p99 = percentile(latest, 99)
        print(
            f"{time.monotonic() - began:8.0f} s  commands {len(latest):6d}  p99 "
            f"{'-' if p99 is None else f'{p99:.1f}'} ms  errors {failed}  server RSS "
            f"{_rss_mib(server_pid) if server_pid else '-'} MiB  store RSS {_rss_mib(*store) if store else '-'} MiB",
            flush=True,
        )


def _report(args, figures, server: str) -> int:
    from api.loadtest import percentile

    def ms(values, p):
        v = percentile(values, p)
        return None if v is None else round(v, 2)

    report = {
        "games": args.games,
        "ruleset": args.ruleset,
        "spectators": args.spectators,
        "duration_s": args.duration,
        "think_s": args.think,
        "choices_from_server": args.choices,
        "server": server,
        "commands": len(figures.command_ms),
        "commands_per_s": round(len(figures.command_ms) / args.duration, 1),
        "events": figures.events,
        "events_per_s": round(figures.events / args.duration, 1),
        "games_started": figures.games_started,
        "games_finished": figures.games_finished,
        "command_latency_ms": {
            "p50": ms(figures.command_ms, 50),
            "p99": ms(figures.command_ms, 99),
            "max": ms(figures.command_ms, 100),
        },
        "broadcast_latency_ms": {
            "p50": ms(figures.broadcast_ms, 50),
            "p99": ms(figures.broadcast_ms, 99),
            "max": ms(figures.broadcast_ms, 100),
            "deliveries": len(figures.broadcast_ms),
        },
        "server_cpu_s": None if figures.server_cpu_s is None else round(figures.server_cpu_s, 1),
        "server_cpu_ms_per_command": round(figures.server_cpu_s * 1000 / len(figures.command_ms), 2)
        if figures.server_cpu_s is not None and figures.command_ms
        else None,
        "store_cpu_s": None if figures.store_cpu_s is None else round(figures.store_cpu_s, 1),
        "loadtest_cpu_s": round(figures.client_cpu_s, 1),
        "brains_cpu_s": None if figures.brain_cpu_s is None else round(figures.brain_cpu_s, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "errors": sum(figures.errors.values()),
        "error_kinds": dict(figures.errors),
    }
    if args.choices:  # the bots asked the server for reach
        report["reach_latency_ms"] = {
            "p50": ms(figures.reach_ms, 50),
            "p99": ms(figures.reach_ms, 99),
            "max": ms(figures.reach_ms, 100),
        }
        report["reaches"], report["empty_reaches"] = figures.reaches, figures.empty_reaches
    if args.json:
        print(json.dumps(report))
    else:
        c, b = report["command_latency_ms"], report["broadcast_latency_ms"]
        print(
            f"{args.games} {args.ruleset} games, {args.spectators} spectators, {args.duration:g} s, think {args.think:g} s, "
            f"choices from the server: {'yes' if args.choices else 'no'}; server {server}"
        )
        print(
            f"commands {report['commands']} ({report['commands_per_s']}/s), events {report['events']} "
            f"({report['events_per_s']}/s), games started {report['games_started']}, finished {report['games_finished']}"
        )
        print(f"command latency ms:   p50 {c['p50']}  p99 {c['p99']}  max {c['max']}")
        print(
            f"broadcast latency ms: p50 {b['p50']}  p99 {b['p99']}  max {b['max']}  ({b['deliveries']} deliveries)"
        )
        if args.choices:
            r = report["reach_latency_ms"]
            print(
                f"reach latency ms:     p50 {r['p50']}  p99 {r['p99']}  max {r['max']}  "
                f"({report['reaches']} reaches, {report['empty_reaches']} empty)"
            )
        if report["server_cpu_s"] is None:  # a server given by --url: not ours to measure
            server_cpu = "server not measured (a server given by --url)"
        else:
            server_cpu = (
                f"server {report['server_cpu_s']} s ({report['server_cpu_ms_per_command']} ms/command), "
                f"its Redis {report['store_cpu_s']} s"
            )
        print(
            f"cpu: {server_cpu}, loadtest {report['loadtest_cpu_s']} s "
            f"(+ brains {report['brains_cpu_s']} s at nice {args.brain_nice}); load average {report['load_average']}"
        )
        print(f"errors: {report['errors']} {report['error_kinds'] or ''}")
        for code in sorted({kind.split()[-1] for kind in report["error_kinds"]} & EXPLAINED.keys()):
            print(f"  {code}: {EXPLAINED[code]}")
    return 0 if report["errors"] == 0 else 1
