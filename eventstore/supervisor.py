"""Keep an embedded server running: restart it when it dies, on the same data directory.

    with Supervisor(server):   # server: a started `EmbeddedRedis`
        ...                    # serve; a server killed meanwhile is started again

A thread (not a task of the event loop: a restart waits for the server to answer, and the thread
that starts a server is the one whose death Linux tells it about, `exit_with_parent`) checks every
`poll` seconds that the server process is alive. When it is not (SIGKILL, the out-of-memory killer,
a crash), it starts it again on the same data directory: the server replays its append-only file,
so every event acknowledged before the crash is there (`appendfsync always`: an append is
acknowledged only once it is on the disk). A start that fails is tried again after a wait that
doubles each time, up to `max_backoff`. Each death, restart and failed start is logged. The clients
(the store's pool, the live tail) reconnect on their own.
"""

from __future__ import annotations

import logging
import threading
import time

from eventstore.embedded import EmbeddedRedis
from eventstore.errors import EmbeddedServerError

log = logging.getLogger(__name__)


class Supervisor:
    """Restarts `server` whenever its process dies (see the module documentation)."""

    def __init__(self, server: EmbeddedRedis, *, poll: float = 0.1, max_backoff: float = 5.0) -> None:
        self.server = server
        self.poll = poll
        self.max_backoff = max_backoff
        self.restarts = 0
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._stopping.clear()
            self._thread = threading.Thread(target=self._run, name="embedded-store-supervisor", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop watching (a restart under way completes first); the server is left as it is."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> Supervisor:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def _run(self) -> None:
        while not self._stopping.wait(self.poll):
            if not self.server.running:
                self._restart()

    def _restart(self) -> None:
        server = self.server
        log.error(
            "the embedded store server (pid %s) is gone (exit status %s); restarting it on %s",
            server.pid,
            server.exit_status,
            server.data_dir,
        )
        wait = self.poll
        while not self._stopping.is_set():
            began = time.monotonic()
            try:
                server.kill()  # reap the dead process and forget it
                server.start()
            except Exception as exc:  # noqa: BLE001 - the watcher must outlive any failed start
                level = logging.ERROR if isinstance(exc, (EmbeddedServerError, OSError)) else logging.CRITICAL
                log.log(
                    level,
                    "the embedded store server did not start: %s; trying again in %.1fs",
                    exc,
                    wait,
                    exc_info=level == logging.CRITICAL,
                )
                if self._stopping.wait(wait):
                    return
                wait = min(wait * 2, self.max_backoff)
                continue
            self.restarts += 1
            log.warning(
                "the embedded store server is back (pid %s, restart %d) after %.2fs; it answers once it has "
                "replayed its append-only file",
                server.pid,
                self.restarts,
                time.monotonic() - began,
            )
            return
