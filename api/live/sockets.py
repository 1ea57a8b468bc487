"""The room's sockets: one `Connection` per websocket of a live game, the frames written to it
once per turn of the event loop (`_Outbox`), and the websocket frame built once per message for every
socket that gets it (`text_frame`)."""

from __future__ import annotations

import asyncio
import contextlib
import struct

from aiohttp import web

from api import protocol


def text_frame(data: bytes) -> bytes:
    """`data` as one whole, unmasked, uncompressed websocket text frame (RFC 6455 5.2), as a server
    sends it: built once per message and written as it is to every socket that gets the message."""
    n = len(data)
    if n < 126:
        return _FRAME1(0x81, n) + data
    if n < 65536:
        return _FRAME2(0x81, 126, n) + data
    return _FRAME3(0x81, 127, n) + data


_FRAME1 = struct.Struct("!BB").pack


_FRAME2 = struct.Struct("!BBH").pack


_FRAME3 = struct.Struct("!BBQ").pack


class _Outbox:
    """The sockets of this process with frames waiting, written out once per turn of the event loop.

    `Connection.send` only appends a ready frame to the socket's list; one callback per loop turn
    then writes every waiting socket's frames in one call each (a command's events and ack go out
    in one write, the next choices in the next turn's). No task per socket, no per-socket encoding."""

    def __init__(self) -> None:
        self.waiting: list[Connection] = []
        self.scheduled = False

    def add(self, conn: Connection) -> None:
        self.waiting.append(conn)
        if not self.scheduled:
            self.scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        self.scheduled = False
        waiting, self.waiting = self.waiting, []
        for conn in waiting:
            conn.flush()


_outbox = _Outbox()


class Connection:
    """One websocket: a seat (or a spectator, `seat` None) of one game, with its outgoing frames.

    What is sent waits (at most `queue_size` messages) until the end of the current turn of the
    event loop, then goes to the socket's transport in one write. A socket that falls behind (more
    than `queue_size` messages in one turn, or more than `queue_size` * 8 KiB its transport could not
    hand to the kernel yet) is cut off; it reconnects with its last version and catches up."""

    def __init__(self, ws: web.WebSocketResponse, queue_size: int) -> None:
        self.ws = ws
        self.seat: str | None = None
        self.wants_choices = False
        self.wants_view = False  # sent `view` messages rather than events and snapshots
        self.choices_key: bytes | None = None
        self.queue_size = queue_size
        self.max_buffered = queue_size * 8192
        self.pending: list[bytes] = []
        self.closed = False
        self._transport = None
        self._closer: asyncio.Task | None = None

    def start(self, transport) -> None:
        """Call once the websocket is prepared, with the request's transport (`request.transport`)."""
        self._transport = transport

    def send(self, data: bytes) -> bool:
        """Queue the message `data` for this socket; False if the socket is closed or cut off."""
        return self.send_frame(text_frame(data))

    def send_frame(self, frame: bytes) -> bool:
        """Queue a frame built by `text_frame` (once for every socket that gets it)."""
        if self.closed:
            return False
        if len(self.pending) >= self.queue_size:
            self.cut_off(protocol.CLOSE_TOO_SLOW, "too slow: reconnect with your last version")
            return False
        if not self.pending:
            _outbox.add(self)
        self.pending.append(frame)
        return True

    def send_message(self, message: protocol.ServerMessage) -> bool:
        return self.send(protocol.encode(message))

    def flush(self) -> None:
        """Write the waiting frames to the transport (one write)."""
        frames, self.pending = self.pending, []
        if self.closed or not frames:
            return
        transport = self._transport
        if transport is None or transport.is_closing() or self.ws.closed:
            self.closed = True  # the peer went away; the reader sees it too
            return
        if transport.get_write_buffer_size() > self.max_buffered:
            self.cut_off(protocol.CLOSE_TOO_SLOW, "too slow: reconnect with your last version")
            return
        transport.write(frames[0] if len(frames) == 1 else b"".join(frames))

    def cut_off(self, code: int, reason: str) -> None:
        """Close the socket now, dropping whatever is still waiting."""
        if self.closed:
            return
        self.closed = True
        self.pending = []
        self._closer = asyncio.create_task(self.ws.close(code=code, message=reason.encode()))

    async def close_after_sending(self, code: int, reason: str) -> None:
        """Send what is waiting, then close the socket."""
        self.flush()
        self.cut_off(code, reason)
        if self._closer is not None:
            with contextlib.suppress(Exception):
                await self._closer

    async def drain_and_stop(self) -> None:
        """Send what is waiting (if the socket is still open); nothing is sent after."""
        self.flush()
        self.closed = True
