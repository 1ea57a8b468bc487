"""Fixtures for the whole suite: a private Redis-compatible server, and clients of it.

The server is started once per session through the project's own `eventstore.embedded` (unix
socket in a private temporary directory, `appendonly yes`, `appendfsync always`), never taken from
the machine. Tests share it safely by using their own keys: `key_prefix` is unique per test, and
`store` puts it in front of every key it touches. Tests that stop, kill or reconfigure a server use
`private_redis` instead, which starts servers of their own. Every server here exits with the test
process (`exit_with_parent`), even when the run is killed.
"""

from __future__ import annotations

import uuid

import pytest
import redis.asyncio as aioredis

from eventstore.embedded import EmbeddedRedis
from eventstore.store import RedisEventStore


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory) -> EmbeddedRedis:
    """The session's private server (an `EmbeddedRedis`, already started)."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), fsync="always", exit_with_parent=True)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server) -> str:
    """The `unix://` URL of the session's server."""
    return redis_server.url


@pytest.fixture
async def redis_client(redis_url) -> aioredis.Redis:
    """An asyncio client (bytes in, bytes out) of the session's server."""
    client = aioredis.Redis.from_url(redis_url)
    yield client
    await client.aclose()


@pytest.fixture
def key_prefix() -> str:
    """A key prefix no other test uses."""
    return f"t{uuid.uuid4().hex[:12]}:"


@pytest.fixture
async def store(redis_client, key_prefix) -> RedisEventStore:
    """An event store on the session's server whose keys are private to this test."""
    return RedisEventStore(redis_client, prefix=key_prefix)


@pytest.fixture
def private_redis(tmp_path):
    """A factory of private servers in this test's temporary directory, all stopped at the end:
    `server = private_redis()` (started) or `private_redis(start=False, fsync="everysec")`."""
    servers: list[EmbeddedRedis] = []

    def make(name: str = "redis", *, start: bool = True, **options) -> EmbeddedRedis:
        options.setdefault("exit_with_parent", True)  # a killed test run leaves no server behind
        server = EmbeddedRedis(tmp_path / name, **options)
        servers.append(server)
        if start:
            server.start()
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def local_cluster(tmp_path_factory):
    """A private Redis Cluster for the cluster tests (`pytest -m cluster`): 3 primaries and 3
    replicas started through the project's own `eventstore.cluster.LocalCluster` (loopback ports,
    a password; appendfsync everysec, which loses nothing when a process is killed), stopped at
    the end. Started only when a test asks for it."""
    from eventstore.cluster import LocalCluster

    cluster = LocalCluster(tmp_path_factory.mktemp("cluster"), node_timeout_ms=2000, fsync="everysec")
    try:
        cluster.up()
        yield cluster
    finally:
        cluster.down()


@pytest.fixture
def cluster(local_cluster):
    """The session's cluster, whole again before each test (a node a test killed is restarted)."""
    local_cluster.revive()
    return local_cluster
