"""The API tests' server: the real application on the session's private Redis (its own key prefix
per test), served on a real socket by aiohttp's test server."""

from __future__ import annotations

import dataclasses

import pytest
from aiohttp.test_utils import TestClient, TestServer
from apiharness import GAMES

from accounts.passwords import Cost
from api.app import make_app
from api.config import ServerConfig

#: Argon2id at its least cost: the tests hash many passwords, and the cost is not what they check.
LIGHT = Cost(time_cost=1, memory_kib=1024, parallelism=1)


@pytest.fixture
def config(redis_url, key_prefix) -> ServerConfig:
    return ServerConfig(redis_url=redis_url, prefix=key_prefix, tail_block_ms=200, rate_per_second=10_000, rate_burst=10_000, password_cost=LIGHT)


@pytest.fixture
async def client(config):
    async with TestClient(TestServer(make_app(config, games=GAMES))) as client:
        yield client


@pytest.fixture
async def make_client(config):
    """Start another server on the same store with changed settings: `await make_client(rate_burst=3)`."""
    started = []

    async def make(**changes) -> TestClient:
        c = TestClient(TestServer(make_app(dataclasses.replace(config, **changes), games=GAMES)))
        await c.start_server()
        started.append(c)
        return c

    yield make
    for c in started:
        await c.close()
