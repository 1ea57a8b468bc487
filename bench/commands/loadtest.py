"""`bluegray loadtest`: self-playing games and spectators on websockets against a game server, with
command latency, broadcast latency, errors and events/s (bench/loadtest.py says what is measured).

Without --url it starts its own `bluegray serve` in another process (embedded Redis in a temporary
directory, loopback only) and stops it at the end; the server's CPU and its Redis's are then
reported. The bots' rules work runs in processes of its own (bench/loadtest.py). Nothing is ever
sent anywhere but the server it is given.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
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
        "--accounts",
        action="store_true",
        help="players with accounts: two registered, signed-in players a game, each game started by a seek and "
        "its acceptance, each seat taken by the player's session cookie",
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
    parser.add_argument(
        "--servers",
        type=_counts,
        default=[1],
        metavar="N[,N...]",
        help="`serve` processes on one store, behind a private HAProxy when more than one (default 1); a list "
        "(1,2) measures each in turn in the same run",
    )
    parser.add_argument(
        "--store",
        type=_stores,
        default=["embedded"],
        metavar="KIND[,KIND...]",
        help="the started servers' store: embedded (one Valkey) or cluster (a private 6-node Redis Cluster); a "
        "list measures each in turn, with every --servers count (default embedded)",
    )
    parser.add_argument(
        "--ack-replicas",
        type=at_least(0),
        default=0,
        metavar="N",
        help="on a cluster: the servers' --ack-replicas (default 0)",
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


def _counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: a number of processes, or several separated by commas"
        ) from None
    if not counts or min(counts) < 1 or max(counts) > 16:
        raise argparse.ArgumentTypeError(f"{text!r}: each count from 1 to 16")
    return counts


def _stores(text: str) -> list[str]:
    kinds = text.split(",")
    wrong = [k for k in kinds if k not in STORES]
    if wrong:
        raise argparse.ArgumentTypeError(f"{', '.join(wrong)}: not one of {', '.join(STORES)}")
    return kinds


def run(args) -> int:
    if args.url:
        if args.servers != [1] or args.store != ["embedded"]:
            raise CommandError("--servers and --store are for the servers loadtest starts, not with --url")
        _check_server(args.url)
        code = 0 if _report(args, asyncio.run(_load(args, Setup(args.url))), "given")["errors"] == 0 else 1
        print(
            f"the games played stay in the lobby of {args.url} (a game is never deleted); without --url "
            "loadtest plays on a server of its own in a temporary directory",
            file=sys.stderr,
        )
        return code
    reports = []
    for kind in args.store:
        for count in args.servers:
            with (
                tempfile.TemporaryDirectory(prefix="bluegray-load-") as data,
                contextlib.ExitStack() as stack,
            ):
                try:
                    setup = _start(args, kind, count, Path(data), stack)
                except _NotStarted as exc:
                    print(exc, file=sys.stderr)
                    return 1
                figures = asyncio.run(_load(args, setup))
                reports.append(_report(args, figures, setup.label, setup.name))
    if len(reports) > 1:
        _summary(args, reports)
    return 0 if all(r["errors"] == 0 for r in reports) else 1


STORES = ("embedded", "cluster")


class _NotStarted(Exception):
    """A server, the store or the balancer did not start (its message says which)."""


@dataclass
class Setup:
    """What a configuration runs on: the address the bots use, and the processes whose CPU is counted."""

    url: str
    name: str = "given"  # the configuration, in the summary: "1 serve, embedded", ...
    label: str = "given"
    servers: list[int] = field(default_factory=list)
    store: list[int] = field(default_factory=list)  # the store's processes (every node of a cluster)
    primaries: dict[str, int] = field(default_factory=dict)  # a cluster's primaries: port -> pid
    balancer: list[int] = field(default_factory=list)


def _start(args, kind: str, count: int, data: Path, stack: contextlib.ExitStack) -> Setup:
    """Start `count` serve processes on a store of `kind` in `data` (and HAProxy when more than
    one); everything is stopped when `stack` closes."""
    fsync = ["--fsync", args.fsync]
    from bench.loadtest import children

    if kind == "embedded" and count == 1:  # the single node: serve with its own embedded server
        (server,) = _serve(stack, ["--data-dir", str(data)] + fsync, 1)
        store = children(server[1])
        return Setup(
            server[0],
            "1 serve, embedded",
            f"started (pid {server[1]}, fsync {args.fsync})",
            servers=[server[1]],
            store=store,
        )
    if kind == "embedded":
        from eventstore.embedded import EmbeddedRedis

        redis = EmbeddedRedis(data / "redis", fsync=args.fsync, exit_with_parent=True)
        redis.start()
        stack.callback(redis.stop)
        url, store, primaries, what = redis.url, [redis.pid], {}, f"one embedded Valkey, fsync {args.fsync}"
        extra = []
    else:
        from eventstore.cluster import LocalCluster

        cluster = LocalCluster(data / "cluster", fsync=args.fsync, min_replicas_to_write=args.ack_replicas)
        stack.callback(cluster.down)
        try:
            url = cluster.up()
        except Exception as exc:
            raise _NotStarted(f"the cluster did not start: {exc}") from None
        store = [cluster.pid(port) for port in cluster.ports]
        primaries = {str(port): cluster.pid(port) for port in cluster.primary_ports()}
        what = f"a 6-node cluster ({len(primaries)} primaries), fsync {args.fsync}, ack-replicas {args.ack_replicas}"
        extra = ["--ack-replicas", str(args.ack_replicas)]
    servers = _serve(stack, ["--redis-url", url] + extra, count)
    name = f"{count} serve{'s' if count > 1 else ''}{' + HAProxy' if count > 1 else ''}, {kind}"
    if count == 1:
        return Setup(servers[0][0], name, f"started: 1 serve on {what}", [servers[0][1]], store, primaries)
    from api.balancer import HAProxy, find_haproxy

    if find_haproxy() is None:
        raise _NotStarted("--servers above 1 needs HAProxy: apt-get install haproxy")
    balancer = HAProxy(
        [u.removeprefix("http://") for u, _ in servers],
        directory=data / "haproxy",
        maxconn=4 * args.games + 2 * args.spectators + 100,
    )
    stack.enter_context(balancer)
    return Setup(
        balancer.url,
        name,
        f"started: {count} serve processes behind HAProxy on {what}",
        [pid for _, pid in servers],
        store,
        primaries,
        balancer.worker_pids(),
    )


def _serve(
    stack: contextlib.ExitStack, options: list[str], count: int, lines: list[str] | None = None
) -> list[tuple[str, int]]:
    """`count` `bluegray serve` processes with `options`, each on a free port: (url, pid) of each;
    stopped (SIGTERM, then SIGKILL) when `stack` closes. ``lines``: given, each server's first line
    ("bluegray serving on URL (store STORE)") is added to it."""
    started = []
    for _ in range(count):
        server = subprocess.Popen(
            [sys.executable, "-m", "api", "serve", "--port", "0", "--log-level", "WARNING", *options],
            stdout=subprocess.PIPE,
            text=True,
        )
        stack.callback(_stop, server)
        line = server.stdout.readline()
        if not line.startswith("bluegray serving on "):
            raise _NotStarted(f"the server did not start: {line!r}")
        if lines is not None:
            lines.append(line)
        started.append((line.split()[3], server.pid))
    return started


def _stop(server: subprocess.Popen) -> None:
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


async def _load(args, setup: Setup):
    from bench.loadtest import Run, cpu_seconds, run

    groups = {"server": setup.servers, "store": setup.store, "balancer": setup.balancer}
    groups |= {f"primary {port}": [pid] for port, pid in setup.primaries.items()}
    marks: dict[str, float | None] = {}
    io: dict[str, tuple[int, int] | None] = {}

    def start() -> None:  # the measured period starts: CPU counted from here
        marks.update({name: cpu_seconds(*pids) if pids else None for name, pids in groups.items()})
        marks["own"] = time.process_time()
        io.update({name: _io_bytes(*pids) if pids else None for name, pids in groups.items()})

    def end() -> None:
        for name, pids in groups.items():
            now = cpu_seconds(*pids) if pids else None
            figures.cpu_s[name] = None if now is None or marks.get(name) is None else now - marks[name]
            now_io = _io_bytes(*pids) if pids else None
            if now_io is not None and io.get(name) is not None:
                figures.io_bytes[name] = (now_io[0] - io[name][0], now_io[1] - io[name][1])
        figures.server_cpu_s, figures.store_cpu_s = figures.cpu_s["server"], figures.cpu_s["store"]
        figures.client_cpu_s = time.process_time() - marks["own"] if marks else 0.0

    config = Run(
        url=setup.url,
        games=args.games,
        spectators=args.spectators,
        duration=args.duration,
        think=args.think,
        choices=args.choices,
        ruleset=args.ruleset,
        brain_nice=args.brain_nice,
        accounts=args.accounts,
        on_measuring=start,
        on_over=end,
    )
    figures = config.figures
    if args.every > 0:
        progress = asyncio.create_task(_progress(args.every, figures, setup.servers, setup.store))
        try:
            return await run(config)
        finally:
            progress.cancel()
    return await run(config)


def _io_bytes(*pids: int) -> tuple[int, int] | None:
    """Bytes these processes have read and written through system calls so far (sockets, files and
    pipes alike: Linux /proc/PID/io rchar and wchar), or None."""
    read = written = 0
    for pid in pids:
        try:
            fields = dict(line.split(": ") for line in open(f"/proc/{pid}/io").read().splitlines())
            read, written = read + int(fields["rchar"]), written + int(fields["wchar"])
        except (OSError, ValueError, KeyError):
            return None
    return read, written


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


async def _progress(every: float, figures, servers: list[int], store: list[int]) -> None:
    """Every `every` seconds one line: that interval's commands, their p99 latency and the errors,
    and the memory of the server and its store (when this command started them)."""
    from bench.loadtest import percentile

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
            f"{_rss_mib(*servers) if servers else '-'} MiB  store RSS {_rss_mib(*store) if store else '-'} MiB",
            flush=True,
        )


def _report(args, figures, server: str, name: str = "given") -> dict:
    """Print the figures of one configuration; they are returned too."""
    report = _figures(args, figures, server, name)
    if args.json:
        print(json.dumps(report))
    else:
        _print_report(args, report, server)
    return report


def _figures(args, figures, server: str, name: str) -> dict:
    """The figures of one configuration, as `_report` prints and returns them."""
    from bench.loadtest import percentile

    def ms(values, p):
        v = percentile(values, p)
        return None if v is None else round(v, 2)

    def per_command(seconds):
        return (
            round(seconds * 1000 / len(figures.command_ms), 2)
            if seconds is not None and figures.command_ms
            else None
        )

    primaries = {
        k.split()[1]: v for k, v in figures.cpu_s.items() if k.startswith("primary ") and v is not None
    }
    busiest = max(primaries, key=primaries.get) if primaries else None
    report = {
        "configuration": name,
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
        "store_cpu_ms_per_command": per_command(figures.store_cpu_s),
        "busiest_primary": busiest,  # on a cluster: the primary that used the most CPU, and how much
        "busiest_primary_cpu_s": None if busiest is None else round(primaries[busiest], 1),
        "busiest_primary_cpu_ms_per_command": None if busiest is None else per_command(primaries[busiest]),
        "primaries_cpu_s": {port: round(v, 1) for port, v in primaries.items()},
        "balancer_cpu_s": None
        if figures.cpu_s.get("balancer") is None
        else round(figures.cpu_s["balancer"], 1),
        "balancer_cpu_ms_per_command": per_command(figures.cpu_s.get("balancer")),
        # websocket payload bytes per command, to the clients and from them (what crosses the network
        # between players and servers)
        "client_bytes_per_command": [
            round(figures.bytes_received / len(figures.command_ms)),
            round(figures.bytes_sent / len(figures.command_ms)),
        ]
        if figures.command_ms
        else None,
        # bytes the store's processes read and wrote per command through read()/write() (its sockets:
        # the servers' commands and its replies and replication; and its append-only file). The
        # servers and HAProxy use send()/recv(), which Linux does not count there: not given.
        "store_io_bytes_per_command": {
            name: [round(r / len(figures.command_ms)), round(w / len(figures.command_ms))]
            for name, (r, w) in figures.io_bytes.items()
            if figures.command_ms and (name == "store" or name.startswith("primary "))
        },
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
    return report


def _print_report(args, report: dict, server: str) -> None:
    """The figures of one configuration in words."""
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
    server_cpu = _server_cpu(report)
    print(
        f"cpu: {server_cpu}, loadtest {report['loadtest_cpu_s']} s "
        f"(+ brains {report['brains_cpu_s']} s at nice {args.brain_nice}); load average {report['load_average']}"
    )
    if report["client_bytes_per_command"]:
        to, sent = report["client_bytes_per_command"]
        print(f"websocket bytes per command: {to} to the clients, {sent} from them")
    if report["store_io_bytes_per_command"]:
        print(
            "store bytes read/written per command (sockets and AOF): "
            + ", ".join(
                f"{name} {r}/{w}" for name, (r, w) in report["store_io_bytes_per_command"].items()
            )
        )
    print(f"errors: {report['errors']} {report['error_kinds'] or ''}")
    for code in sorted({kind.split()[-1] for kind in report["error_kinds"]} & EXPLAINED.keys()):
        print(f"  {code}: {EXPLAINED[code]}")


def _server_cpu(report: dict) -> str:
    """The CPU the server used (its Redis, the busiest primary, HAProxy), unless given by --url."""
    if report["server_cpu_s"] is None:  # a server given by --url: not ours to measure
        server_cpu = "server not measured (a server given by --url)"
    else:
        server_cpu = (
            f"server {report['server_cpu_s']} s ({report['server_cpu_ms_per_command']} ms/command), "
            f"its Redis {report['store_cpu_s']} s ({report['store_cpu_ms_per_command']} ms/command)"
        )
        busiest = report["busiest_primary"]
        if busiest is not None:
            server_cpu += (
                f" (the busiest primary, {busiest}: {report['busiest_primary_cpu_s']} s, "
                f"{report['busiest_primary_cpu_ms_per_command']} ms/command)"
            )
        if report["balancer_cpu_s"] is not None:
            server_cpu += f", HAProxy {report['balancer_cpu_s']} s ({report['balancer_cpu_ms_per_command']} ms/command)"
    return server_cpu


def _summary(args, reports: list[dict]) -> None:
    """The configurations of one run side by side."""
    if args.json:
        return
    print()
    print(
        f"{'configuration':34} {'cmd/s':>7} {'command p50/p99':>17} {'broadcast p50/p99':>19} "
        f"{'server':>8} {'store':>8} {'primary':>8} {'haproxy':>8}  (CPU ms per command)  errors"
    )

    def cpu(value):
        return f"{value:8.2f}" if value is not None else f"{'-':>8}"

    for r in reports:
        c, b = r["command_latency_ms"], r["broadcast_latency_ms"]
        command, broadcast = f"{c['p50']}/{c['p99']}", f"{b['p50']}/{b['p99']}"
        print(
            f"{r['configuration']:34} {r['commands_per_s']:7.1f} {command:>17} {broadcast:>19} "
            f"{cpu(r['server_cpu_ms_per_command'])} {cpu(r['store_cpu_ms_per_command'])} "
            f"{cpu(r['busiest_primary_cpu_ms_per_command'])} {cpu(r['balancer_cpu_ms_per_command'])}"
            f"  {'':20} {r['errors']}"
        )
