"""Partitions, not only crashes: a primary cut off from its replica (with its clients) takes no
acknowledged command that a failover would lose, and a retried command is applied once.

The run (bench/benchmarks/partition.py, also `bluegray bench partition`) makes its own network
namespaces: a primary and a replica of the embedded server's binary, each in one, a link between
them for the replication (5% of its packets dropped, and 50 ms of delay where the kernel has
sch_netem), and a link from this process, the clients, to each. Ten times the replication link is
cut for 3 s while six writers go on appending through RedisEventStore(wait_replicas=1,
wait_aof=True); then it is healed, every second time after the replica was promoted and the writers
sent to it. After the last heal every game's log is read on both nodes.

Skipped, with the reason, where this process cannot make network namespaces (not root, no `ip`, a
container that forbids it). Printed with `pytest -s`: the figures of docs/PERFORMANCE.md."""

from __future__ import annotations

import subprocess

import pytest

from bench.benchmarks.partition import partition_run
from eventstore.netns import ROOT, Network, unavailable

pytestmark = pytest.mark.partition


@pytest.fixture(scope="module")
def namespaces() -> None:
    reason = unavailable()
    if reason:
        pytest.skip(f"network namespaces not available: {reason}")


def namespaces_now() -> str:
    return subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout


def test_the_namespaces_and_links_are_removed_even_when_the_run_fails(namespaces):
    with pytest.raises(RuntimeError, match="the run failed"), Network() as net:
        inside = net.namespace("x")
        link = net.link(ROOT, inside)
        assert inside in namespaces_now()
        raise RuntimeError("the run failed")
    assert inside not in namespaces_now()
    gone = subprocess.run(["ip", "link", "show", "dev", link.a_dev], capture_output=True, text=True)
    assert gone.returncode != 0  # the root namespace's end went with its pair


async def test_no_acknowledged_command_is_lost_or_applied_twice_over_ten_partitions(namespaces):
    report = await partition_run(partitions=10, games=6, partition_seconds=3.0, steady_seconds=1.0)
    print("\n" + report.text())
    assert len(report.cycles) == 10 and sum(c.failover for c in report.cycles) == 5
    assert report.acked > 0 and report.events_checked >= 2 * report.acked
    assert report.lost == []  # each acknowledged command is in both nodes' logs, at its version
    assert report.duplicated == []  # and no command is there twice, acknowledged or not
    assert report.unknown == [] and report.anomalies == []
    assert report.refused_partitioned > 0  # the cut-off primary acknowledged nothing meanwhile
    assert report.tag not in namespaces_now()  # the run removed its namespaces
