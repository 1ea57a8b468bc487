"""A graceful stop (SIGTERM): refuse new work, let what is in flight finish, tell every client.

`bluegray serve` on SIGTERM (or SIGINT): the listening socket closes first (a balancer's health check
fails and new connections go elsewhere); a message arriving from then on is answered
`server_restarting` and not done; the actions already in flight are given up to `seconds` to be
answered; then every websocket is sent ``server_restarting`` and closed with 1012 (service restart).
An action is either answered or refused, never half done: its events are in the log with its ack, or
it was never appended (the client resends it, same ``command_id``, once reconnected).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

from api import protocol

log = logging.getLogger(__name__)

#: Seconds a client is told to wait before reconnecting.
RETRY_AFTER = 1.0


class Shutdown:
    """The server's state of stopping, and the messages being answered now."""

    def __init__(self) -> None:
        self.stopping = False
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Around the answer to one message: counted in flight until it is sent."""
        self.in_flight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self.in_flight -= 1
            if not self.in_flight:
                self._idle.set()

    def refusal(self, command_id: str | None) -> protocol.Error:
        return protocol.Error(
            code="server_restarting",
            message="the server is restarting; send this again (same command_id) once reconnected",
            command_id=command_id,
            retry_after=RETRY_AFTER,
        )

    async def drain(self, sockets, seconds: float) -> None:
        """Stop taking work, wait up to `seconds` for the answers in flight, then tell and close
        every socket of `sockets` (each with a ``conn``: api/live/sockets.py Connection)."""
        self.stopping = True
        try:
            async with asyncio.timeout(seconds):
                await self._idle.wait()
        except TimeoutError:
            log.warning("stopping with %d message(s) still unanswered after %.1f s", self.in_flight, seconds)
        notice = protocol.ServerRestarting(retry_after=RETRY_AFTER)
        closing = []
        for socket in list(sockets):
            socket.conn.send_message(notice)
            closing.append(socket.conn.close_after_sending(protocol.CLOSE_RESTART, "server restarting"))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2.0):
                await asyncio.gather(*closing, return_exceptions=True)
        log.info("stopped: %d websocket(s) told server_restarting", len(closing))
