"""A deadline on every call to the store's Redis: a server that stalls is answered, not waited for.

A Redis that stops answering without closing its connections (SIGSTOP, a disk that blocks under
``appendfsync always``, a network that drops packets) never raises a lost connection: each command
would wait for its socket timeout, and be tried again. The clients made here (`client_for` in
eventstore/connect.py) run each command, each pipeline and each script call, with every retry and
the wait for a free connection inside it, under one deadline (`deadline` seconds); past it the call
raises `StoreTimeout`, which the server answers ``unavailable`` with ``retry_after``
(`errors.store_unavailable`). A command cut off may have run on the server or not: an append is
sent again with its key and answered as a duplicate if it had run (docs/EVENTSTORE.md).

The connection a cut-off command was using is closed by redis-py (its reply would otherwise be
read as the next command's), so nothing is out of step afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import redis.asyncio as aioredis
from redis.asyncio.client import Pipeline
from redis.asyncio.cluster import ClusterPipeline, RedisCluster

from eventstore.errors import StoreTimeout


@contextlib.asynccontextmanager
async def within(deadline: float | None, what: str) -> AsyncIterator[None]:
    """Run the block within `deadline` seconds (None: no deadline), else raise `StoreTimeout`."""
    if deadline is None:
        yield
        return
    limit = asyncio.timeout(deadline)
    try:
        async with limit:
            yield
    except TimeoutError:
        if limit.expired():
            raise StoreTimeout(what, deadline) from None
        raise


def _name(args: tuple) -> str:
    first = args[0] if args else "a command"
    return first.decode() if isinstance(first, bytes) else str(first)


class DeadlinePipeline(Pipeline):
    deadline: float | None = None

    async def execute(self, raise_on_error: bool = True):
        async with within(self.deadline, "a pipeline"):
            return await super().execute(raise_on_error)


class DeadlineRedis(aioredis.Redis):
    """A client of one server whose every call has `deadline` seconds (None: no deadline)."""

    deadline: float | None = None

    async def execute_command(self, *args, **options):
        async with within(self.deadline, _name(args)):
            return await super().execute_command(*args, **options)

    def pipeline(self, transaction: bool = True, shard_hint: str | None = None) -> Pipeline:
        pipe = DeadlinePipeline(self.connection_pool, self.response_callbacks, transaction, shard_hint)
        pipe.deadline = self.deadline
        return pipe


class DeadlineClusterPipeline(ClusterPipeline):
    deadline: float | None = None

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True):
        async with within(self.deadline, "a pipeline"):
            return await super().execute(raise_on_error, allow_redirections)


class DeadlineCluster(RedisCluster):
    """A cluster client whose every call has `deadline` seconds (None: no deadline)."""

    deadline: float | None = None

    async def execute_command(self, *args, **kwargs):
        async with within(self.deadline, _name(args)):
            return await super().execute_command(*args, **kwargs)

    def pipeline(self, transaction=None, shard_hint=None) -> ClusterPipeline:
        if shard_hint:
            return super().pipeline(transaction, shard_hint)  # refused, as RedisCluster refuses it
        # redis-py's ClusterPipeline sets `_event_dispatcher` in __init__ (a Protocol of its types lists it)
        pipe = DeadlineClusterPipeline(self, transaction)  # type: ignore[abstract]
        pipe.deadline = self.deadline
        return pipe
