"""`bluegray serve`: the game server (HTTP JSON + websocket, docs/PROTOCOL.md).

With no --redis-url it starts its own private Redis-compatible server (eventstore/embedded.py) in
--data-dir and stops it on exit: a fresh clone needs nothing installed by hand. Either way the
server is checked at start-up and refused if it could lose acknowledged events (--unsafe-redis to
run anyway). It prints `bluegray serving on http://HOST:PORT` once it listens (--port 0 picks a
free port), and stops cleanly on SIGINT or SIGTERM.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import sys

from api.commands import _args
from api.commands._errors import CommandError
from api.commands._store import add_store_arguments, store_url

NAME = "serve"
HELP = (
    "Run the game server; with no --redis-url it starts (and stops) its own private Redis-compatible server."
)


def add_arguments(parser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=_args.port, default=8080, help="port to listen on (default 8080; 0: any free port)"
    )
    add_store_arguments(parser, fsync=True)
    parser.add_argument(
        "--unsafe-redis",
        action="store_true",
        help="run even on a Redis that could lose acknowledged events, or a TCP one that answers without a "
        "password (the problems are logged)",
    )
    parser.add_argument(
        "--ack-replicas",
        type=_args.at_least(0),
        default=0,
        metavar="N",
        help="acknowledge a command only once N replicas have its events (WAIT after each append; default 0)",
    )
    parser.add_argument(
        "--ack-replicas-aof",
        action="store_true",
        help="with --ack-replicas: wait until the replicas have the events in their append-only file (WAITAOF)",
    )
    parser.add_argument(
        "--store-deadline",
        type=_args.positive,
        default=3.0,
        metavar="S",
        help="seconds a call to the event store may take, retries included, before the request is answered "
        "unavailable with retry_after (default 3)",
    )
    parser.add_argument(
        "--allow-uploads",
        action="store_true",
        help="let anyone save scenarios (the editor's save and upload) in DATA_DIR/scenarios; off by default",
    )
    parser.add_argument(
        "--saves-per-owner",
        type=_args.at_least(0),
        default=20,
        metavar="N",
        help="with --allow-uploads: scenario versions one owner (a signed-in account, else a client address) "
        "may save (default 20)",
    )
    parser.add_argument(
        "--bytes-per-owner",
        type=_args.at_least(0),
        default=5 * 1024 * 1024,
        metavar="BYTES",
        help="with --allow-uploads: bytes one owner's saved scenarios may take (default 5242880, 5 MB)",
    )
    parser.add_argument(
        "--library-bytes",
        type=_args.at_least(0),
        default=256 * 1024 * 1024,
        metavar="BYTES",
        help="with --allow-uploads: bytes every saved scenario together may take (default 268435456, 256 MB)",
    )
    parser.add_argument(
        "--trust-forwarded-for",
        action="store_true",
        help="take a client's address (for the limit on failed log-ins and the upload quotas) from the last X-Forwarded-For entry: "
        "only behind a proxy that sets it, such as HAProxy's option forwardfor",
    )
    parser.add_argument("--smtp-url", metavar="URL", help="the SMTP server for players' e-mail (smtp://host:port); default: none, no mail")
    parser.add_argument("--mail-from", default="Blue & Gray <noreply@localhost>", help="the From of that mail")
    parser.add_argument("--public-url", metavar="URL", help="the server's address as players reach it, for links in notifications")
    parser.add_argument(
        "--vapid-private-key",
        metavar="FILE",
        help="Web Push: the PEM file of the server's VAPID P-256 private key (`vapid --gen` writes one, "
        "private_key.pem); default: none, no push",
    )
    parser.add_argument(
        "--vapid-subject",
        metavar="CONTACT",
        help="Web Push: the contact the push services are given, mailto:you@example.org or an https:// URL "
        "(needed with --vapid-private-key)",
    )
    parser.add_argument(
        "--log-level",
        default="INFO",
        type=str.upper,
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="logging level (default INFO)",
    )
    parser.add_argument(
        "--log-format",
        default="text",
        choices=["text", "json"],
        help="text lines (default), or json: one object a line (time, level, game, seat, command id, outcome)",
    )
    parser.add_argument(
        "--shutdown-seconds",
        type=_args.positive,
        default=8.0,
        metavar="S",
        help="on SIGTERM, how long in-flight actions may take before the sockets are told server_restarting "
        "and closed (default 8; the process exits within S + 2 seconds)",
    )
    _args.from_environment(parser, "BLUEGRAY_")


def run(args) -> int:
    from api.logs import configure
    from eventstore.errors import EventStoreError, UnsafeServer

    if args.environment_errors:
        raise CommandError("; ".join(args.environment_errors))
    configure(args.log_level, args.log_format)
    try:
        with store_url(args, own=True, create=True) as url:
            return asyncio.run(_serve(args, url))
    except UnsafeServer as exc:
        print(exc, file=sys.stderr)
        return 1
    except EventStoreError as exc:
        raise CommandError(str(exc)) from None


def _calm_the_collector() -> None:
    """A long-lived server: put what start-up allocated (modules, scenarios, the rules' per-game
    tables) out of the collector's sight, and collect the young generation less often. Measured with
    `bluegray loadtest --games 500`: full collections of 0.4-1.2 s that freed nothing stalled every
    game at once and made the command latency's p99."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def _without_password(url: str) -> str:
    """`url` with its password, if any, shown as ***."""
    import re

    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def _check_vapid(config) -> None:
    """A bad VAPID key or contact is refused before the server starts, in one line."""
    if config.vapid_private_key is None:
        if config.vapid_subject is not None:
            raise CommandError("--vapid-subject needs --vapid-private-key")
        return
    from api.push import VapidKeyError, load_key

    subject = config.vapid_subject or ""
    if not (subject.startswith("mailto:") and "@" in subject) and not subject.startswith("https://"):
        raise CommandError("--vapid-private-key needs --vapid-subject mailto:you@example.org (or an https:// URL)")
    try:
        load_key(config.vapid_private_key)
    except VapidKeyError as exc:
        raise CommandError(f"--vapid-private-key {exc}") from None


async def _serve(args, url: str) -> int:
    from aiohttp import web

    from api.app import make_app
    from api.app_keys import GAMES, LIBRARY, SHUTDOWN, SOCKETS
    from api.config import ServerConfig
    from api.http import scenario_listing

    config = ServerConfig(
        redis_url=url,
        prefix=args.key_prefix,
        unsafe_redis=args.unsafe_redis,
        ack_replicas=args.ack_replicas,
        ack_replicas_aof=args.ack_replicas_aof,
        store_deadline=args.store_deadline,
        scenarios_dir=args.data_dir / "scenarios",
        allow_uploads=args.allow_uploads,
        saves_per_owner=args.saves_per_owner,
        bytes_per_owner=args.bytes_per_owner,
        library_bytes=args.library_bytes,
        trust_forwarded_for=args.trust_forwarded_for,
        smtp_url=args.smtp_url,
        mail_from=args.mail_from,
        public_url=args.public_url,
        vapid_private_key=args.vapid_private_key,
        vapid_subject=args.vapid_subject,
    )
    _check_vapid(config)
    app = make_app(config)
    # shutdown_timeout: by then every websocket was closed (api/shutdown.py), only slow HTTP is left
    runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    try:
        # The lobby's scenario list loaded here, before the server listens and in this thread: the
        # first GET /api/scenarios is answered from the cache, not after a second of loading.
        scenario_listing(app[GAMES], app[LIBRARY])
        site = web.TCPSite(runner, args.host, args.port)
        try:
            await site.start()
        except OSError as exc:  # the port is taken, the address is not this machine's, ...
            raise CommandError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
        host, port = runner.addresses[0][:2]
        _calm_the_collector()
        print(f"bluegray serving on http://{host}:{port} (store {_without_password(url)})", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        logging.getLogger(__name__).info("stopping: no new connections; answering what is in flight")
        await site.stop()  # no new connection (a balancer's health check now fails: it sends them elsewhere)
        await app[SHUTDOWN].drain(app[SOCKETS], args.shutdown_seconds)
    finally:
        await runner.cleanup()
    return 0
