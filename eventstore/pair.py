"""A local replicated pair for development and tests: one primary and one replica that follows it
(`replicaof`), not a cluster.

    pair = LocalPair("var/pair")        # the same options as LocalCluster
    url = pair.up()                     # redis://:PASSWORD@127.0.0.1:PRIMARY
    ...
    pair.down()

The nodes are started as eventstore/cluster.py starts a cluster's (the same binary, loopback TCP
ports, a password, `appendonly yes`, the chosen `appendfsync`, `noeviction`, `DIR/node-<port>/`),
without cluster mode: the first port is the primary, the second always starts as its replica. A
store on it acknowledges an append once the replica has it with `wait_replicas=1` (and in its
append-only file with `wait_aof=True`). There is no failover: this is the smallest deployment with
a replica, as the store conformance suite runs it (tests/eventstore/test_conformance.py).
"""

from __future__ import annotations

import os
from urllib.parse import quote

import redis

from eventstore.cluster import HOST, LocalCluster


class LocalPair(LocalCluster):
    """A primary and its replica on loopback ports (see the module documentation)."""

    def __init__(self, data_dir: str | os.PathLike, **options) -> None:
        super().__init__(data_dir, primaries=1, replicas=1, **options)

    @property
    def url(self) -> str:
        """`redis://:PASSWORD@127.0.0.1:PRIMARY`."""
        return f"redis://:{quote(self.password, safe='')}@{HOST}:{self.ports[0]}"

    def _config_text(self, port: int) -> str:
        lines = [
            line
            for line in super()._config_text(port).splitlines(keepends=True)
            if not line.startswith(("cluster-enabled ", "cluster-config-file ", "cluster-node-timeout "))
        ]
        if port != self.ports[0]:
            lines.append(f"replicaof {HOST} {self.ports[0]}\n")
        return "".join(lines)

    def _create(self) -> None:
        """Nothing to form: the replica's configuration names its primary."""

    def _problem(self) -> str | None:
        primary, replica = self.ports
        for port, role in ((primary, "master"), (replica, "slave")):
            client = self.client(port, timeout=1.0)
            try:
                replication = client.info("replication")
            except (redis.RedisError, OSError) as exc:
                return f"node {port}: {exc}"
            finally:
                client.close()
            if replication["role"] != role:
                return f"node {port} is a {replication['role']}, not the {role}"
            if role == "master" and int(replication.get("connected_slaves", 0)) < 1:
                return f"primary {port} has no replica connected"
            if role == "slave" and (
                replication.get("master_link_status") != "up" or replication.get("master_sync_in_progress")
            ):
                return f"replica {port}: link to its primary {replication.get('master_link_status')}"
        return None
