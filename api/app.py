"""The game server: one aiohttp `Application`.

    app = make_app(ServerConfig(redis_url="unix:///path/redis.sock"))
    web.run_app(app)

Its resources live in `cleanup_ctx`: the event store (checked at start-up: a Redis that could lose
acknowledged events is refused unless `unsafe_redis`), the process's one live tail, and the live
games. On shutdown every websocket is closed (clients reconnect with their last version).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import redis.asyncio as aioredis
from aiohttp import web
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError, TimeoutError

from api.app_keys import CONFIG, GAMES, LIVE, SEATS, SERVER_VERSION, STORE, TAIL
from api.config import ServerConfig
from api.http import errors
from api.live import LiveGames
from api.routes import setup_routes
from api.seats import Seats
from eventstore.safety import check_server
from eventstore.store import RedisEventStore
from eventstore.tail import Tail
from replay.games import GameCache


def server_version() -> str:
    from api.cli import package_version

    return package_version()


def make_app(config: ServerConfig, games: GameCache | None = None) -> web.Application:
    """The server application for `config` (`games`: a shared cache of scenarios and rules tables)."""
    app = web.Application(middlewares=[errors], client_max_size=config.max_message_bytes)
    app[CONFIG] = config
    app[SERVER_VERSION] = server_version()
    app[GAMES] = games or GameCache()
    app.cleanup_ctx.append(_store)
    app.cleanup_ctx.append(_live)
    app.on_shutdown.append(_close_sockets)
    setup_routes(app)
    return app


def redis_client(config: ServerConfig) -> aioredis.Redis:
    """A client of the store's Redis with a bounded pool that makes a request wait for a free
    connection (rather than fail) when every connection is busy; commands are retried on a lost
    connection `redis_retries` times with backoff (a store that restarts meanwhile is reconnected
    to), then fail with a Redis ConnectionError (answered `unavailable`)."""
    pool = aioredis.BlockingConnectionPool.from_url(
        config.redis_url,
        max_connections=config.redis_connections,
        timeout=30,
        decode_responses=False,
        socket_timeout=30,
        socket_connect_timeout=5,
        retry=Retry(ExponentialWithJitterBackoff(base=0.01, cap=1.0), config.redis_retries),
        retry_on_error=[ConnectionError, TimeoutError],
    )
    return aioredis.Redis(connection_pool=pool)


async def _store(app: web.Application) -> AsyncIterator[None]:
    config = app[CONFIG]
    store = RedisEventStore(redis_client(config), prefix=config.prefix)
    try:
        await check_server(store.redis, prefix=config.prefix, unsafe=config.unsafe_redis)
        app[STORE] = store
        app[SEATS] = Seats(store)
        yield
    finally:
        await store.aclose()


async def _live(app: web.Application) -> AsyncIterator[None]:
    config = app[CONFIG]
    tail = Tail(app[STORE], block_ms=config.tail_block_ms)
    await tail.start()
    app[TAIL] = tail
    app[LIVE] = LiveGames(app[STORE], tail, app[GAMES], config)
    try:
        yield
    finally:
        await app[LIVE].close()
        await tail.stop()


async def _close_sockets(app: web.Application) -> None:
    if LIVE in app:
        await app[LIVE].close()
