"""Several `bluegray serve` processes behind HAProxy: its configuration, and a private one to run.

Any `serve` process serves any game (the store holds every game and each process's live tail follows
it), so the balancer needs no sticky sessions: HTTP requests and websockets are spread round robin.
HAProxy in http mode passes a websocket's Upgrade through and then relays the connection as a tunnel
(`timeout tunnel`). A process that dies is left out: a connection it refuses is sent to another
process at once (`retry-on conn-failure`, `option redispatch 1`: safe for any request, which was
never delivered), and the health check (`GET /healthz` every second, out after 3 failures; a
check may take 5 s, so a process busy with a burst is not taken for dead) stops sending it anything
until it answers again. The players whose websockets it held are disconnected;
they reconnect (through the balancer, to another process) from their last version, and a command
whose answer they lost they send again with its `command_id` (docs/PROTOCOL.md). Every response
says which process answered (`X-Served-By`: the server's name in the configuration).

    print(haproxy_config(8080, ["127.0.0.1:8081", "127.0.0.1:8082"]))   # docs/haproxy.cfg
    with HAProxy(["127.0.0.1:8081", "127.0.0.1:8082"], port=0, directory=tmp) as balancer:
        balancer.url    # http://127.0.0.1:PORT

The binary is Debian's `haproxy` (`apt-get install haproxy`); `find_haproxy()` is None without it.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

HOST = "127.0.0.1"


def find_haproxy() -> str | None:
    """The `haproxy` binary on PATH (or Debian's /usr/sbin, often not on a user's PATH), or None."""
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/usr/local/sbin")


def haproxy_config(
    port: int, servers: list[str], *, host: str = HOST, maxconn: int = 8000, stats_socket: str | None = None
) -> str:
    """An HAProxy configuration: listen on host:port, spread over `servers` ("host:port" of each
    `bluegray serve`) round robin, no stickiness, websockets relayed."""
    lines = [
        "# HAProxy in front of several `bluegray serve` processes on one store (api/balancer.py).",
        "# No sticky sessions: any process serves any game.",
        "global",
        f"    maxconn {maxconn}",
        *([f"    stats socket {stats_socket} mode 600"] if stats_socket else []),
        "",
        "defaults",
        "    mode http",
        "    timeout connect 2s",
        "    timeout client 60s",
        "    timeout server 60s",
        "    # a websocket, once upgraded, is a tunnel: idle players stay connected (the server pings)",
        "    timeout tunnel 1h",
        "    timeout client-fin 5s",
        "    # a busy process may take a while to answer its health check: only a silent one is out",
        "    timeout check 5s",
        "    # a refused connection (a process that died) is tried again on another process at once",
        "    retries 3",
        "    retry-on conn-failure",
        "    option redispatch 1",
        "",
        "frontend bluegray",
        f"    bind {host}:{port}",
        "    option forwardfor",
        "    default_backend serve",
        "",
        "backend serve",
        "    balance roundrobin",
        "    option httpchk GET /healthz",
        "    http-check expect status 200",
        "    http-response set-header X-Served-By %[srv_name]",
        "    default-server inter 1s fall 3 rise 2",
        *(f"    server serve{i} {server} check" for i, server in enumerate(servers, 1)),
        "",
    ]
    return "\n".join(lines)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class HAProxy:
    """A private HAProxy in front of `servers`, its configuration in `directory`; started by
    `start()` (or `with`), stopped by `stop()`. `port=0`: a free port."""

    def __init__(
        self, servers: list[str], *, directory: str | Path, port: int = 0, maxconn: int = 8000
    ) -> None:
        self.servers = list(servers)
        self.directory = Path(directory)
        self.port = port or _free_port()
        self.maxconn = maxconn
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def start(self, timeout: float = 20.0) -> HAProxy:
        binary = find_haproxy()
        if binary is None:
            raise FileNotFoundError("haproxy is not installed (Debian: apt-get install haproxy)")
        self.directory.mkdir(parents=True, exist_ok=True)
        config = self.directory / "haproxy.cfg"
        config.write_text(haproxy_config(self.port, self.servers, maxconn=self.maxconn))
        log = open(self.directory / "haproxy.log", "ab")
        try:
            # -db: in the foreground, ours to stop; -W: master-worker (stops its worker with it)
            self.process = subprocess.Popen([binary, "-W", "-db", "-f", str(config)], stdout=log, stderr=log)
        finally:
            log.close()
        began = time.monotonic()
        while not _listening(self.port):
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"haproxy exited ({self.process.returncode}): {(self.directory / 'haproxy.log').read_text()}"
                )
            if time.monotonic() - began > timeout:
                self.stop()
                raise RuntimeError(f"haproxy did not listen on {self.port} within {timeout:g} s")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def worker_pids(self) -> list[int]:
        """The master and its worker (for their CPU)."""
        if self.process is None:
            return []
        with contextlib.suppress(OSError, ValueError):
            pid = self.process.pid
            return [pid, *(int(c) for c in open(f"/proc/{pid}/task/{pid}/children").read().split())]
        return [self.process.pid]

    def __enter__(self) -> HAProxy:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _listening(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.2)
        return s.connect_ex((HOST, port)) == 0
