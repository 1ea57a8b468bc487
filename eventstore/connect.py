"""Clients of the store's Redis from a URL: one server, or a Redis Cluster.

    redis://[:password@]host:port/0          one server over TCP
    unix:///path/redis.sock                   one server on a unix socket (the embedded one)
    redis+cluster://[user:password@]host:port,host:port,...
                                              a Redis Cluster: any of its nodes (all are tried)

A cluster client (`redis.asyncio.cluster.RedisCluster`) routes each command by its key's slot; every
key of a game shares the hash tag `{g:<id>}`, so everything the store does for one game (the append
script, a pipeline, a transaction) runs on the one primary that holds that slot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast
from urllib.parse import unquote, urlsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError, TimeoutError

from eventstore.deadline import DeadlineCluster, DeadlineRedis

if TYPE_CHECKING:
    from typing_extensions import TypeIs

CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")

AnyRedis = aioredis.Redis | RedisCluster


def is_cluster_url(url: str) -> bool:
    return urlsplit(url).scheme in CLUSTER_SCHEMES


def is_cluster(client: object) -> TypeIs[RedisCluster]:
    return isinstance(client, RedisCluster)


def cluster_nodes(url: str) -> tuple[list[tuple[str, int]], str | None, str | None, bool]:
    """The (host, port) start-up nodes, the user name, the password and whether TLS, of a cluster URL."""
    parts = urlsplit(url)
    if parts.scheme not in CLUSTER_SCHEMES:
        raise ValueError(f"not a cluster URL (redis+cluster://host:port,...): {url}")
    credentials, _, hosts = parts.netloc.rpartition("@")
    user, _, password = credentials.partition(":") if credentials else ("", "", "")
    nodes = []
    for item in hosts.split(","):
        host, _, port = item.strip().rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"a cluster URL names nodes as host:port, not {item!r}")
        nodes.append((host.strip("[]"), int(port)))
    return nodes, unquote(user) or None, unquote(password) or None, parts.scheme == "rediss+cluster"


def tcp_endpoints(url: str) -> list[tuple[str, int]]:
    """The TCP (host, port) pairs a URL names; empty for a unix socket."""
    if is_cluster_url(url):
        return cluster_nodes(url)[0]
    parts = urlsplit(url)
    if parts.scheme in ("redis", "rediss"):
        return [(parts.hostname or "localhost", parts.port or 6379)]
    return []


class CountedRetry(Retry):
    """redis-py's Retry, counting the failures it tried again after (`retried`: each one a lost
    connection and a reconnect), for the server's metrics."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.retried = 0

    async def call_with_retry(self, do, fail, *args, **kwargs):
        async def counted(error, *rest):
            self.retried += 1
            return await fail(error, *rest)

        return await super().call_with_retry(do, counted, *args, **kwargs)


def retried(client: AnyRedis) -> int:
    """The commands `client` (made by `client_for`) tried again after a lost connection."""
    retry = connection_options(client).get("retry")
    return retry.retried if isinstance(retry, CountedRetry) else 0


def client_for(
    url: str,
    *,
    retries: int = 12,
    max_connections: int | None = None,
    socket_timeout: float = 30,
    deadline: float | None = None,
) -> AnyRedis:
    """A client of `url` that returns bytes and retries a command on a lost connection `retries`
    times, with a backoff from 10 ms doubling to 1 s (about six seconds for 12: long enough for a
    restarted server, or a cluster's failover to a replica, to answer again). With `deadline`,
    every call (its retries and its wait for a connection included) raises `StoreTimeout` after
    that many seconds (eventstore/deadline.py).

    A single server's pool blocks a request until a connection is free (`max_connections`); a
    cluster client opens connections to each node as needed (its pool would refuse a request
    rather than wait) and refreshes its map of the slots when a node is lost or answers MOVED."""
    retry = CountedRetry(ExponentialWithJitterBackoff(base=0.01, cap=1.0), retries)
    common = dict(
        decode_responses=False,
        socket_timeout=socket_timeout,
        socket_connect_timeout=5,
        retry=retry,
    )
    client = _single(url, max_connections, common) if not is_cluster_url(url) else _cluster(url, common)
    client.deadline = deadline
    return client


def _single(url: str, max_connections: int | None, common: dict) -> DeadlineRedis:
    if max_connections is None:
        # `from_url` makes a `cls` (redis-py annotates it as returning a plain Redis)
        client = DeadlineRedis.from_url(url, retry_on_error=[ConnectionError, TimeoutError], **common)
        return cast(DeadlineRedis, client)
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=30,
        retry_on_error=[ConnectionError, TimeoutError],
        **common,
    )
    return DeadlineRedis(connection_pool=pool)


def _cluster(url: str, common: dict) -> DeadlineCluster:
    nodes, user, password, tls = cluster_nodes(url)
    return DeadlineCluster(
        startup_nodes=[ClusterNode(host, port) for host, port in nodes],
        username=user,
        password=password,
        ssl=tls,
        max_connections=2**31,  # per node; a cluster client has no pool that waits for a free one
        require_full_coverage=False,
        **common,
    )


def connection_options(client: AnyRedis) -> dict:
    """The options a new connection to the client's server(s) is made with (host and port aside)."""
    if is_cluster(client):
        return dict(client.connection_kwargs)
    return dict(client.connection_pool.connection_kwargs)
