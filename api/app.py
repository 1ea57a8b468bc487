"""The game server: one aiohttp `Application`.

    app = make_app(ServerConfig(redis_url="unix:///path/redis.sock"))
    web.run_app(app)

Its resources live in `cleanup_ctx`: the event store (checked at start-up: a Redis that could lose
acknowledged events is refused unless `unsafe_redis`), the process's one live tail, and the live
games. On shutdown every websocket is closed (clients reconnect with their last version).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator

from aiohttp import web

from accounts.limits import LoginLimits
from accounts.notifications import Notifications
from accounts.passwords import Passwords
from accounts.push import PushSubscriptions
from accounts.ratings import Ratings
from accounts.reports import Reports
from accounts.store import Accounts
from api import house_computers, lobby
from api.accounts import guard
from api.app_keys import (
    ACCOUNTS,
    CONFIG,
    GAMES,
    LIBRARY,
    LIVE,
    LOGIN_LIMITS,
    METRICS,
    NOTIFICATIONS,
    NOTIFIER,
    OPPONENTS,
    PASSWORDS,
    PUSH,
    RATER,
    RATINGS,
    REMINDERS,
    REPORTS,
    REVIEWS,
    SEATS,
    SERVER_VERSION,
    SHUTDOWN,
    SOCKETS,
    STORE,
    TAIL,
    TOURNAMENTS,
)
from api.config import ServerConfig
from api.engine_review import ReviewCache
from api.http import errors
from api.live.hub import LiveGames
from api.metrics import Metrics
from api.notifier import Notifier
from api.opponents import Opponents
from api.push import Pusher, load_key
from api.rating_games import Rater
from api.reminders import Reminders
from api.routes import setup_routes
from api.seats import Seats
from api.shutdown import Shutdown
from api.tournament_director import Director
from eventstore.connect import AnyRedis, client_for, retried
from eventstore.errors import UnsafeServer
from eventstore.safety import check_server
from eventstore.store import RedisEventStore
from eventstore.tail import tail_for
from scenarios.library import Library, Quota
from session.games import GameCache


def server_version() -> str:
    from api.cli import package_version

    return package_version()


def make_app(config: ServerConfig, games: GameCache | None = None) -> web.Application:
    """The server application for `config` (`games`: a shared cache of scenarios and rules tables;
    with `config.scenarios_dir` it must load through the same library: `library_games`)."""
    app = web.Application(middlewares=[errors, guard], client_max_size=config.max_message_bytes)
    app[CONFIG] = config
    app[SERVER_VERSION] = server_version()
    app[LIBRARY] = Library(config.scenarios_dir, config.max_saved_scenarios, Quota(
        saves_per_owner=config.saves_per_owner, bytes_per_owner=config.bytes_per_owner, library_bytes=config.library_bytes))
    app[GAMES] = games or library_games(app[LIBRARY])
    app[REVIEWS] = ReviewCache()  # the computer's eye of reports (api/engine_review.py)
    app[SOCKETS] = set()  # the open websockets (api/ws.py)
    app[METRICS] = Metrics()  # GET /metrics (api/metrics.py)
    app[METRICS].sockets = app[SOCKETS]
    app[PASSWORDS] = Passwords(config.password_cost)  # Argon2id, in threads (accounts/passwords.py)
    app[SHUTDOWN] = Shutdown()  # a graceful stop on SIGTERM (api/shutdown.py, api/commands/serve.py)
    app.cleanup_ctx.append(_store)
    app.cleanup_ctx.append(_live)
    app.cleanup_ctx.append(_opponents)
    app.on_shutdown.append(_close_sockets)
    setup_routes(app)
    return app


def library_games(library: Library) -> GameCache:
    """A GameCache loading shipped battles and the library's saved scenarios, pinning a new game's."""
    return GameCache(load=library.load, pin=library.pin)


def redis_client(config: ServerConfig) -> AnyRedis:
    """A client of the store's Redis (one server, or a cluster: eventstore/connect.py). One server's
    pool is bounded and makes a request wait for a free connection (rather than fail) when every
    connection is busy; commands are retried on a lost connection `redis_retries` times with
    backoff (a store that restarts, or a cluster that fails over, meanwhile is reconnected to),
    then fail with a Redis ConnectionError (answered `unavailable`); every call, retries included,
    has `store_deadline` seconds (then `StoreTimeout`, answered `unavailable` too)."""
    return client_for(
        config.redis_url,
        retries=config.redis_retries,
        max_connections=config.redis_connections,
        deadline=config.store_deadline,
    )


async def _store(app: web.Application) -> AsyncIterator[None]:
    config = app[CONFIG]
    store = RedisEventStore(
        redis_client(config),
        prefix=config.prefix,
        wait_replicas=config.ack_replicas,
        wait_aof=config.ack_replicas_aof,
        wait_timeout_ms=config.ack_timeout_ms,
    )
    try:
        report = await check_server(
            store.redis,
            prefix=config.prefix,
            unsafe=config.unsafe_redis,
            url=config.redis_url,
            ack_replicas=config.ack_replicas,
        )
        if config.ack_replicas > report.replicas:
            message = (
                f"--ack-replicas {config.ack_replicas}, but a primary of this Redis has {report.replicas} "
                "connected replica(s): no command would be acknowledged"
            )
            if not config.unsafe_redis:
                raise UnsafeServer([message])
            logging.getLogger(__name__).warning("%s; running anyway", message)
        app[STORE] = store
        app[SEATS] = Seats(store)
        app[ACCOUNTS] = Accounts(store.redis, config.prefix)
        app[LOGIN_LIMITS] = LoginLimits(store.redis, config.prefix, config.login_limit)
        app[REPORTS] = Reports(store.redis, config.prefix, config.report_limit)
        app[NOTIFICATIONS] = Notifications(store.redis, config.prefix)
        app[RATINGS] = Ratings(store.redis, config.prefix)
        app[RATER] = Rater(app[SEATS], app[RATINGS])
        await house_computers.ensure(app[ACCOUNTS])  # the computer's accounts on the ladder
        store.observe = app[METRICS].observe_store
        app[METRICS].store_retries = lambda: retried(store.redis)
        yield
    finally:
        await store.aclose()


async def _live(app: web.Application) -> AsyncIterator[None]:
    config = app[CONFIG]
    tail = tail_for(app[STORE], block_ms=config.tail_block_ms)
    await tail.start()
    app[TAIL] = tail
    app[PUSH] = PushSubscriptions(app[STORE].redis, config.prefix)
    pusher = None
    if config.vapid_private_key is not None:
        vapid = load_key(config.vapid_private_key)
        pusher = Pusher(vapid, config.vapid_subject, app[PUSH], config.webhook_private_addresses)
    app[NOTIFIER] = Notifier(app[STORE], app[SEATS], app[NOTIFICATIONS], config, pusher)
    app[NOTIFIER].start()
    app[REMINDERS] = Reminders(app[STORE], app[SEATS], app[NOTIFICATIONS], app[NOTIFIER], app[GAMES], config.prefix)
    app[REMINDERS].start()
    app[LIVE] = LiveGames(app[STORE], tail, app[GAMES], config)
    app[TOURNAMENTS] = Director(
        app[STORE], app[SEATS], app[GAMES], app[LIVE], functools.partial(lobby.start_between, app)
    )
    app[LIVE].after_action = [
        app[NOTIFIER].after_action, app[REMINDERS].after_action, app[RATER].after_action, app[TOURNAMENTS].after_action
    ]
    app[TOURNAMENTS].start_sweeping()
    app[METRICS].games_live = app[LIVE].count
    try:
        yield
    finally:
        await app[LIVE].close()
        await app[REMINDERS].stop()
        await app[NOTIFIER].stop()
        await app[RATER].idle()
        await app[TOURNAMENTS].stop()
        await tail.stop()


async def _close_sockets(app: web.Application) -> None:
    if LIVE in app:
        await app[LIVE].close()


async def _opponents(app: web.Application) -> AsyncIterator[None]:
    """The computer opponents' processes (api/opponents.py), stopped with the server."""
    app[OPPONENTS] = Opponents()
    yield
    await app[OPPONENTS].stop()
