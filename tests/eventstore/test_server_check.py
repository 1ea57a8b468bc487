"""The start-up check refuses a server that could lose acknowledged events, saying why."""

import pytest
import redis.asyncio as aioredis

from eventstore.envelope import NewEvent
from eventstore.errors import NotReplicated, ReplicasOutOfReach, UnsafeServer, store_unavailable
from eventstore.safety import check_server
from eventstore.store import CommandKey, RedisEventStore


@pytest.fixture
async def private_client(private_redis):
    server = private_redis()
    client = aioredis.Redis.from_url(server.url)
    yield client
    await client.aclose()


async def test_the_embedded_server_passes(private_client):
    report = await check_server(private_client)
    assert report.problems == [] and report.replicas == 0
    assert tuple(int(p) for p in report.version.split(".")[:2]) >= (7, 0)


@pytest.mark.parametrize(
    "setting, value, complaint",
    [
        ("appendonly", "no", "appendonly is 'no'"),
        ("appendfsync", "no", "appendfsync is 'no'"),
        ("maxmemory-policy", "allkeys-lru", "maxmemory-policy is 'allkeys-lru'"),
    ],
)
async def test_an_unsafe_setting_is_refused_with_the_reason(private_client, setting, value, complaint):
    await private_client.config_set(setting, value)
    with pytest.raises(UnsafeServer, match=complaint) as info:
        await check_server(private_client)
    assert "--unsafe-redis" in str(info.value) and len(info.value.problems) == 1
    report = await check_server(private_client, unsafe=True)  # allowed, and still reported
    assert len(report.problems) == 1 and complaint in report.problems[0]


async def test_a_log_longer_than_its_meta_is_reported(private_client):
    store = RedisEventStore(private_client, prefix="p1:")
    await store.append("g", [NewEvent(type="t", payload=b"")], 0)
    await check_server(private_client, prefix="p1:")
    await private_client.xadd(store.keys("g").log, {"forged": "1"}, id="2-0")
    with pytest.raises(UnsafeServer, match=r"has 2 entries but its meta says version 1"):
        await check_server(private_client, prefix="p1:")
    await check_server(private_client, prefix="p2:")  # the check is per key prefix


async def test_waitaof_without_enough_replicas_is_not_acknowledged(private_client):
    store = RedisEventStore(private_client, wait_replicas=1, wait_timeout_ms=50)
    with pytest.raises(NotReplicated, match=r"0 replica\(s\), not 1"):
        await store.append("g", [NewEvent(type="t", payload=b"")], 0)
    # The event is on the primary: the same command retried learns that.
    assert await store.version("g") == 1


async def test_acknowledging_by_replicas_needs_a_primary_that_refuses_writes_alone(private_client):
    with pytest.raises(UnsafeServer, match=r"min-replicas-to-write is 0 with --ack-replicas 1") as info:
        await check_server(private_client, ack_replicas=1)
    assert "set `min-replicas-to-write 1`" in str(info.value)
    assert (await check_server(private_client)).problems == []  # without --ack-replicas: not asked
    await private_client.config_set("min-replicas-to-write", 1)
    assert (await check_server(private_client, ack_replicas=1)).problems == []
    with pytest.raises(UnsafeServer, match=r"min-replicas-to-write is 1 with --ack-replicas 2"):
        await check_server(private_client, ack_replicas=2)


async def test_a_primary_without_its_replicas_refuses_the_append_and_writes_nothing(private_client):
    await private_client.config_set("min-replicas-to-write", 1)  # and it has none
    store = RedisEventStore(private_client, prefix="alone:", wait_replicas=1, wait_timeout_ms=50)
    key = CommandKey.of("union", "c1", b"body")
    event = NewEvent(type="t", payload=b"body", command_id="c1")
    with pytest.raises(ReplicasOutOfReach, match=r"game g: the primary refused the append") as info:
        await store.append("g", [event], 0, key)
    assert store_unavailable(info.value)  # answered `unavailable` with `retry_after`
    assert await store.version("g") == 0 and not await private_client.exists(store.keys("g").log)
    assert await store.lookup("g", key) is None
    await private_client.config_set("min-replicas-to-write", 0)  # the replicas are back, as it were
    unwaited = RedisEventStore(private_client, prefix="alone:")
    assert (await unwaited.append("g", [event], 0, key)).first == 1
    assert (await unwaited.append("g", [event], 0, key)).duplicate  # the retry: applied once
    assert [e.command_id async for e in unwaited.read("g")] == ["c1"]


async def test_waitaof_also_waits_for_the_local_append_only_file(private_client):
    # WAITAOF numlocal=1: the server refuses it when it keeps no AOF, which shows it was asked
    await private_client.config_set("appendonly", "no")
    store = RedisEventStore(private_client, prefix="aof:", wait_replicas=1, wait_aof=True, wait_timeout_ms=50)
    with pytest.raises(NotReplicated, match=r"the AOF of 0 replica\(s\), not 1 \(.*appendonly"):
        await store.append("g", [NewEvent(type="t", payload=b"")], 0)
