"""Live games in this process: each followed once, each fanned out to its sockets.

A `LiveGame` holds the effective history of one game (session/history.py) at the head of its log. It
follows the log through the process's one live tail (eventstore/tail.py) and, whenever the tail
shows something new, reads every new event from the store at once, folds it, encodes each event
once, builds its websocket frame once and writes the same bytes to every socket of the game
(`Connection`: what waits for a socket is bounded; a socket that falls behind is cut off and catches
up when it reconnects). The choices of the player to act
are computed once per state, for the sockets of that seat that asked for them.

Actions (`LiveGame.act`) are serialised per game in this process and decided against the history:
the idempotency key is looked up first (a resend gets the original outcome), the action decided
(session/decide.py), and the events appended at the expected version; when another process
appended first, the history catches up and the action is decided again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
import time
from collections import deque

import msgspec
from aiohttp import web

from api import protocol
from api.config import ServerConfig
from api.protocol import Ack, Action, ProtocolError
from api.views import merge_patch, position_view, session_view
from eventstore.envelope import Envelope
from eventstore.errors import Conflict, KeyMismatch, TailOverflow, UnreadableEvent, store_unavailable
from eventstore.store import CommandKey, RedisEventStore
from eventstore.tail import Tail
from replay.gamerecord import GameRecord
from rules import RULES_VERSION
from rules.combat_choices import combat_breakdown
from rules.core import commands as rules_commands
from rules.core import state as rules_state
from rules.core.decoding import json_mismatch
from rules.core.errors import RuleViolation
from rules.legal import Refusal
from rules.legal import choices as legal_choices
from rules.legal import reach as legal_reach
from rules.queries.zoc import enemy_controlled
from session import decide as decide_session
from session import written as written_module
from session.games import GameCache
from session.history import SNAPSHOT_CODE, History, HistoryError, NeedsState, apply_async, decode_entry, load
from session.records import ChatSaid, UndoAccepted
from session.visibility import delayed, listing, visible_version, withheld_copy

log = logging.getLogger(__name__)

MISSED_LIMIT = 100
COMBAT_KEPT = 64  # combat answers kept per position (the oldest goes first)
INDEX_SLACK_MS = 60_000  # how far the index's waiting_since may lag (silences are of hours or days)
CONFLICT_PATIENCE = 2.0  # seconds an action is decided again while other processes keep appending first


class GameNotFound(Exception):
    """No game has this id."""


class RulesChanged(Exception):
    """A game created under other rules whose log these rules fold otherwise: it is not served."""


def now_ms() -> int:
    return time.time_ns() // 1_000_000


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


class LiveGame:
    """One game followed live in this process (see the module documentation)."""

    def __init__(self, hub: LiveGames, game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        self.store: RedisEventStore = hub.store
        self.config: ServerConfig = hub.config
        self.history: History | None = None
        self.conns: set[Connection] = set()
        self.users = 0
        self.recent: deque[tuple[int, bytes, Envelope]] = deque(maxlen=self.config.recent_events)
        self.delay = 0  # the game's spectator delay (events)
        self.view: History | None = None  # what spectators see, `delay` events behind (None: no delay)
        # The records of the game and of what spectators see (replay/gamerecord.py: of the delayed
        # view, or without a delay of the game itself, less the withheld chat), built when a
        # connection first asks for views, then folded beside the histories.
        self.record: GameRecord | None = None
        self.view_record: GameRecord | None = None
        # The chat lines withheld from spectators (session/visibility.py): their versions, and the
        # placeholder each spectator gets instead, encoded once (version -> (event JSON, envelope)).
        self._withheld: set[int] = set()
        self._placeholders: dict[int, tuple[bytes, Envelope]] = {}
        self._views: dict[tuple[int, int, str | None], protocol.PositionView] = {}  # by (history, version, role)
        self._state_json: dict[tuple[int, int], bytes] = {}  # by (history, version)
        # The view each role's view connections have, as JSON objects, by (history, role): (version, view)
        self._sent: dict[tuple[int, str | None], tuple[int, dict]] = {}
        self._act_lock = asyncio.Lock()
        self._advance_lock = asyncio.Lock()
        self._seed: bytes | None = None
        # Road to Richmond 17.62: the choice written down in secret (session/written.py), kept outside the log
        self._written: written_module.WrittenDown | None = None
        # the position: its state digest, the version it was first seen at
        self._at: tuple[bytes, int] = (b"", 0)
        self._choices: bytes | None = None  # the position's choices JSON, once computed
        self._choices_due = False  # the choices are to be offered on the next turn of the loop
        self._reach: dict[tuple[str, str], bytes] = {}
        self._combat: dict[tuple[tuple[str, ...], tuple[str, ...]], bytes] = {}  # the position's combat answers  # the position's reach messages, by (how, unit)
        # (seat, command_id) of every action folded here -> (first, last, body hash or None)
        self._keys: dict[tuple[str, str], tuple[int, int, bytes | None]] = {}
        self._task: asyncio.Task | None = None
        self._chores: set[asyncio.Task] = set()
        self._indexer: asyncio.Task | None = None
        self._listed: dict | None = None  # the index fields this process last wrote (None: none yet)
        self.failed: Exception | None = None

    # -- life -------------------------------------------------------------------------------------
    async def open(self) -> None:
        self.history = await load(self.store, self.game_id, self.hub.games)
        if self.history.version == 0:
            raise GameNotFound(self.game_id)
        await self._check_rules_version()
        self.delay = self.history.session.created.options.spectator_delay
        self._withheld = set(self.history.session.withheld)
        if delayed(self.history):  # in events or in phases
            self.view = await load(
                self.store, self.game_id, self.hub.games, to_version=visible_version(self.history, self.delay)
            )
        await self._load_written()
        self._task = asyncio.create_task(self._follow(), name=f"follow {self.game_id}")

    async def _check_rules_version(self) -> None:
        """A game created under other rules plays on only if its whole log folds under these rules to
        the state digests it recorded; else it is refused, saying why (never played on silently
        different: docs/OPERATIONS.md, "Upgrade")."""
        created = self.history.session.created.rules_version
        if created == RULES_VERSION:
            return
        try:
            await load(self.store, self.game_id, self.hub.games, snapshots=False, check_digests=True)
        except HistoryError as exc:
            self.failed = RulesChanged(
                f"this game was played under rules {created}, and at version {exc.version} its log is not what "
                f"this server's rules ({RULES_VERSION}) give ({exc.message}): it cannot be played on this server "
                "(bluegray upgrade-check lists such games)"
            )
            log.error("game %s refused: %s", self.game_id, self.failed)

    async def _load_written(self) -> None:
        """Road to Richmond 17.62: the choice written down in secret, when there is one."""
        if written_module.variable_units(self.history.state):
            self._written = written_module.decode(await self.store.get_hidden(self.game_id, written_module.HIDDEN))

    async def close(self, code: int = 1001, reason: str = "server shutting down") -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for conn in list(self.conns):
            conn.cut_off(code, reason)
        if self._indexer is not None:  # write the index now rather than later
            self._indexer.cancel()
            self._indexer = None
            self._chore(self._index())
        for chore in list(self._chores):
            with contextlib.suppress(Exception):
                await chore

    async def _follow(self) -> None:
        """Catch up whenever the tail shows an event this history has not folded yet."""
        while True:
            subscription = self.hub.tail.subscribe(self.game_id, self.history.version)
            try:
                async for envelope in subscription:
                    if envelope.version > self.history.version:
                        await self.catch_up()
                return  # the tail stopped
            except TailOverflow:
                await self.catch_up()
            except (UnreadableEvent, HistoryError) as exc:
                self._fail(exc)
                return
            except Exception as exc:
                if not store_unavailable(exc):
                    raise
                log.warning(
                    "game %s: following failed, the event store is unavailable (%s); retrying",
                    self.game_id,
                    exc,
                )
                await asyncio.sleep(0.5)
            finally:
                subscription.close()

    def _fail(self, exc: Exception) -> None:
        log.error("game %s cannot be served: %s", self.game_id, exc)
        self.failed = exc
        for conn in list(self.conns):
            conn.cut_off(protocol.CLOSE_GONE, "this game's log failed to verify")

    # -- folding and fan-out ----------------------------------------------------------------------
    async def catch_up(self) -> None:
        """Fold (and send to every socket) every event appended after the history's version."""
        async with self._advance_lock:
            envelopes = [e async for e in self.store.read(self.game_id, self.history.version + 1)]
            if envelopes:
                await self._advance(envelopes)

    async def _fold_appended(self, envelopes) -> None:
        """Fold (and send) the events this process just appended, as `append` sealed them: no read
        back. (The tail may have shown them first: then they are folded already.)"""
        async with self._advance_lock:
            if envelopes and envelopes[0].version <= self.history.version + 1:
                await self._advance(envelopes)
                return
        await self.catch_up()

    async def _advance(self, envelopes) -> None:
        encoded = []
        undone = False
        try:
            for envelope in envelopes:
                if envelope.version <= self.history.version:
                    continue
                item = await apply_async(self.history, self.store, envelope)  # may read the store
                if envelope.type == WRITTEN_DOWN:  # perhaps by another process: its choice, from the store
                    await self._load_written()
                if isinstance(item, ChatSaid) and self.history.session.withheld[-1:] == [envelope.version]:
                    self._withheld.add(envelope.version)
                if self.record is not None:
                    self.record.apply(envelope.version, item, self.history.game)
                if self.view is None and self.view_record is not None:  # the spectators' record
                    self.view_record.apply(envelope.version, self._seen_item(envelope.version, item), self.history.game)
                if envelope.command_id:
                    seen = self._keys.get((envelope.actor, envelope.command_id))
                    first = seen[0] if seen is not None else envelope.version
                    self._keys[(envelope.actor, envelope.command_id)] = (
                        first,
                        envelope.version,
                        seen and seen[2],
                    )
                data = protocol.encode_event(envelope)
                self.recent.append((envelope.version, data, envelope))
                encoded.append((envelope.version, data, envelope))
                undone = undone or isinstance(item, UndoAccepted)
        finally:
            if encoded:  # what was folded goes out, even when the store failed on a later event
                await self._broadcast(encoded, undone)

    async def _broadcast(self, encoded: list[tuple[int, bytes, Envelope]], undone: bool) -> None:
        """Send the events just folded: to the seats as they are; to spectators, without a delay, the
        same but for the withheld chat lines (their placeholders), with a delay their view's."""
        everyone = list(self.conns)
        players = everyone if self.view is None else [c for c in everyone if c.seat is not None]
        plain = [c for c in players if not c.wants_view]
        frame = text_frame(protocol.events_message([data for _, data, _ in encoded]))
        spectator_frame = frame
        if self.view is None and any(v in self._withheld for v, _, _ in encoded):
            spectator_frame = text_frame(protocol.events_message([self._seen_data(*e) for e in encoded]))
        for conn in plain:
            conn.send_frame(frame if conn.seat is not None else spectator_frame)
        if undone:
            snapshot = text_frame(self.snapshot_message("undo"))
            for conn in plain:
                conn.send_frame(snapshot)
        if self.record is not None:
            self._send_views([c for c in players if c.wants_view and c.seat is not None], self.history, self.record)
        if self.view is None and self.view_record is not None:
            self._send_views([c for c in everyone if c.wants_view and c.seat is None], self.history, self.view_record)
        if self.view is not None:
            await self._advance_view([c for c in everyone if c.seat is None])
        self._choices_soon()

    def _choices_soon(self) -> None:
        """Offer the choices of the new position on the next turn of the event loop, once this turn's
        frames (the events, the command's ack) are written: an ack never waits for the choices."""
        if not self._choices_due:
            self._choices_due = True
            asyncio.get_running_loop().call_soon(self._offer_due_choices)

    def _offer_due_choices(self) -> None:
        self._choices_due = False
        self._offer_choices(list(self.conns))

    async def _advance_view(self, spectators: list[Connection]) -> None:
        """Fold the spectators' view up to what they may see now, and send them that."""
        view = self.view
        target = visible_version(self.history, self.delay)
        parts = []
        undone = False
        viewing = [c for c in spectators if c.wants_view]
        spectators = [c for c in spectators if not c.wants_view]
        for version, data, envelope in self.recent:
            if view.version < version <= target and version == view.version + 1:
                item = await apply_async(view, self.store, envelope)
                if self.view_record is not None:
                    self.view_record.apply(version, self._seen_item(version, item), view.game)
                parts.append(self._seen_data(version, data, envelope))
                undone = undone or isinstance(item, UndoAccepted)
        if view.version < target:  # the recent events no longer reach back to the view: reload it
            self.view = await load(self.store, self.game_id, self.hub.games, to_version=target)
            snapshot = text_frame(self.snapshot_message("behind", self.view))
            for conn in spectators:
                conn.send_frame(snapshot)
            if viewing:
                self.view_record = await self._build_record(self.view, spectators=True)
                self.view_record.changed()
                for conn in viewing:  # the whole record again
                    conn.send(self.view_message(conn.seat, self.view, self.view_record, whole=True))
            else:
                self.view_record = None
            return
        if parts:
            frame = text_frame(protocol.events_message(parts))
            for conn in spectators:
                conn.send_frame(frame)
            if self.view_record is not None:
                self._send_views(viewing, view, self.view_record)
        if undone:
            snapshot = text_frame(self.snapshot_message("undo", view))
            for conn in spectators:
                conn.send_frame(snapshot)

    def history_for(self, seat: str | None) -> History:
        """The history a seat sees (spectators: the delayed view, when the game has a delay)."""
        return self.view if seat is None and self.view is not None else self.history

    # -- views (api/views.py position_view) and the record ---------------------------------------------
    async def _build_record(self, history: History, spectators: bool = False) -> GameRecord:
        """The record of the game up to `history`'s version, folded from the whole log (for
        `spectators`: without the chat lines withheld from them)."""
        record = GameRecord(history.game)
        async for envelope in self.store.read(self.game_id, 1, history.version):
            item = decode_entry(envelope)
            record.apply(envelope.version, self._seen_item(envelope.version, item) if spectators else item)
        return record

    def record_for(self, seat: str | None) -> GameRecord | None:
        return self.view_record if seat is None else self.record

    # -- what spectators see of the chat (session/visibility.py) -------------------------------------
    def _seen_data(self, version: int, data: bytes, envelope: Envelope) -> bytes:
        """The event JSON a spectator gets for `version`: `data`, or a withheld line's placeholder."""
        if version not in self._withheld:
            return data
        found = self._placeholders.get(version)
        if found is None:
            copy = withheld_copy(envelope)
            found = self._placeholders[version] = (protocol.encode_event(copy), copy)
        return found[0]

    def _seen_item(self, version: int, item):
        """The log entry a spectators' record folds at `version`: a withheld line has no text."""
        return ChatSaid(seat=item.seat, text="") if version in self._withheld else item

    def position(self, seat: str | None, history: History, record: GameRecord) -> protocol.PositionView:
        """The view of `history` for `seat` (None: every spectator): computed once per version and
        role, the rules state's JSON once per version."""
        key = (id(history), history.version, seat)
        found = self._views.get(key)
        if found is None:
            if len(self._views) > 16:
                self._views.clear()
                self._state_json.clear()
                self._sent = {k: v for k, v in self._sent.items() if k[0] in (id(self.history), id(self.view))}
            at = (id(history), history.version)
            state_json = self._state_json.get(at)
            if state_json is None:
                state_json = self._state_json[at] = rules_state.encode_json(history.state)
            found = position_view(history, record, seat, state_json)
            shown = written_module.shown_to(history.state, self._written, seat, history.finished is not None)
            if shown:  # 17.62: to the player who wrote it down (everyone once the game is over)
                found = msgspec.structs.replace(found, written_down=shown)
            self._views[key] = found
        return found

    def view_message(
        self, seat: str | None, history: History, record: GameRecord, *, whole: bool, change=None
    ) -> bytes:
        """The `view` message of `history` for `seat`: whole (to a connection that has nothing yet),
        or a patch of the view this role's connections have, with the record's `change`."""
        keep, lines = (0, record.lines) if whole else change
        view = self.position(seat, history, record)
        plain = msgspec.json.decode(protocol.encode(view))
        sent = self._sent.get((id(history), seat))
        self._sent[(id(history), seat)] = (history.version, plain)
        if whole or sent is None:
            message = protocol.ViewOut(
                version=history.version, time=history.time, view=view, record_keep=keep, record=lines
            )
        else:
            message = protocol.ViewOut(
                version=history.version,
                time=history.time,
                base=sent[0],
                patch=merge_patch(sent[1], plain),
                record_keep=keep,
                record=lines,
            )
        return protocol.encode(message)

    def _send_views(self, conns: list[Connection], history: History, record: GameRecord) -> None:
        """After a batch of events: each role's view (one frame per role, the spectators' shared) and
        the record's change since the last batch."""
        change = record.changed()
        frames: dict[str | None, bytes] = {}
        for conn in conns:
            frame = frames.get(conn.seat)
            if frame is None:
                frame = frames[conn.seat] = text_frame(
                    self.view_message(conn.seat, history, record, whole=False, change=change)
                )
            conn.send_frame(frame)

    def snapshot_message(self, reason: str, history: History | None = None) -> bytes:
        h = history or self.history
        return protocol.encode(
            protocol.Snapshot(
                reason=reason,
                version=h.version,
                head=h.head.hex(),
                state=msgspec.Raw(rules_state.encode_json(h.state)),
                session=session_view(h),
            )
        )

    def _position(self) -> tuple[bytes, int]:
        """The current position: the state's digest and the version this process first saw it at. The
        choices and every reach of one position carry that version, so a client matches them even
        when chat, a draw offer or an undo request moved the version on and left the state as it was."""
        key = self.history.digest()
        if self._at[0] != key:
            self._at = (key, self.history.version)
            self._choices = None
            self._reach = {}
            self._combat = {}
        return self._at

    def _offer_choices(self, conns) -> None:
        """Send the choices to the sockets of the seat to act that want them (once per position)."""
        side = self.history.session.to_act
        if side is None:
            return
        wanting = [c for c in conns if c.seat == side and c.wants_choices]
        if not wanting:
            return
        key, version = self._position()
        if self._choices is None:
            try:
                state = self.history.state  # 17.62: the seat's own choice written down, known to it
                known = written_module.known_to(state, self._written, side)
                self._choices = msgspec.json.encode(legal_choices(state, destinations=False, written=known))
            except Exception:  # noqa: BLE001 - the game goes on without choices
                log.exception("game %s: computing the choices failed", self.game_id)
                return
        frame = text_frame(
            protocol.encode(
                protocol.ChoicesOut(version=version, side=side, choices=msgspec.Raw(self._choices))
            )
        )
        for conn in wanting:
            if conn.choices_key != key:
                conn.choices_key = key
                conn.send_frame(frame)

    def _asked_by_the_seat_to_act(self, seat: str | None, what: str):
        """The history and the position's version, for a question only the seat to act may ask
        (``what`` spectators cannot do); ProtocolError for anyone else, or when the game is over."""
        if seat is None:
            raise ProtocolError("unauthorized", f"spectators cannot {what}")
        h = self.history
        if h.finished is not None or h.state.game_over:
            raise ProtocolError("game_over", "the game is over")
        if h.session.to_act != seat:
            raise ProtocolError("not_your_turn", "the game waits for the other player")
        _, version = self._position()
        return h, version

    def reach(self, seat: str | None, unit: str, how: str) -> bytes:
        """The ``reach`` message for ``unit`` now, for the seat to act (computed once per position and
        shared by its sockets); ProtocolError for anyone else, or when the game is over."""
        h, version = self._asked_by_the_seat_to_act(seat, "ask where a unit may move")
        if (how, unit) not in self._reach:
            known = written_module.known_to(h.state, self._written, seat)  # 17.62: the seat's own choice
            found, refused = legal_reach(h.state, unit, how, written=known)
            stops = stops_in(h.state, unit, found)
            self._reach[(how, unit)] = protocol.encode(
                protocol.ReachOut(
                    version=version,
                    unit=unit,
                    how=how,
                    destinations=found,
                    refused=refused,
                    stops=stops,
                    stops_case=ZOC_CASE.get(h.state.ruleset, "") if stops else "",
                )
            )
        return self._reach[(how, unit)]

    def combat(self, seat: str | None, attackers: list[str], defenders: list[str]) -> bytes:
        """The ``combat`` message for an attack being built now, for the seat to act: how its odds are
        built (``rules.combat_choices.combat_breakdown``), or why it would be refused; the last answers
        of a position are kept (a client asks again as the selection changes back and forth)."""
        h, version = self._asked_by_the_seat_to_act(seat, "plan an attack")
        key = (tuple(attackers), tuple(defenders))
        if key not in self._combat:
            try:
                found, refused = combat_breakdown(h.state, attackers, defenders), None
            except RuleViolation as e:
                found, refused = None, Refusal(case=e.case, message=e.message)
            if len(self._combat) >= COMBAT_KEPT:
                self._combat.pop(next(iter(self._combat)))
            self._combat[key] = protocol.encode(
                protocol.CombatOut(
                    version=version, attackers=list(attackers), defenders=list(defenders), breakdown=found, refused=refused
                )
            )
        return self._combat[key]

    # -- sockets ----------------------------------------------------------------------------------
    async def check_last_version(self, seat: str | None, last_version: int) -> None:
        """ProtocolError when `last_version` is ahead of what `seat` may see of the log."""
        if last_version > self.history.version:
            await self.catch_up()
        seen = self.history_for(seat).version
        if last_version > seen:
            raise ProtocolError(
                "malformed",
                f"last_version {last_version} is ahead of the game: its log is at version {seen}",
                version=seen,
            )

    def admit(self) -> None:
        """Raise ProtocolError if this game can take no more connections."""
        if isinstance(self.failed, RulesChanged):
            raise ProtocolError("unauthorized", str(self.failed))
        if self.failed is not None:
            raise ProtocolError("unauthorized", "this game cannot be served: its log failed to verify")
        if len(self.conns) >= self.config.max_connections_per_game:
            raise ProtocolError("rate_limited", "this game has as many connections as it accepts")

    async def attach(self, conn: Connection, last_version: int) -> None:
        """Bring `conn` up to date from `last_version` (events, or a snapshot) and follow the game."""
        self.admit()
        await self.check_last_version(conn.seat, last_version)
        if conn.wants_view:
            await self._attach_viewing(conn)
            return
        h = self.history_for(conn.seat)
        fetched: list[tuple[int, bytes, Envelope]] = []
        oldest = self.recent[0][0] if self.recent else h.version + 1
        if not self._snapshot_reason(last_version, h) and oldest > last_version + 1:
            fetched = [
                (e.version, protocol.encode_event(e), e)
                async for e in self.store.read(self.game_id, last_version + 1, min(oldest - 1, h.version))
            ]
        async with self._advance_lock:
            h = self.history_for(conn.seat)
            reason = self._snapshot_reason(last_version, h)
            parts: list[bytes] = []
            if reason is None:
                have = {v: d for v, d, _ in fetched}
                have.update((v, d) for v, d, _ in self.recent if last_version < v <= h.version)
                if conn.seat is None:  # a spectator: the withheld chat lines as their placeholders
                    every = {v: (d, e) for v, d, e in [*fetched, *self.recent]}
                    have.update({v: self._seen_data(v, *every[v]) for v in have if v in self._withheld})
                wanted = range(last_version + 1, h.version + 1)
                if all(v in have for v in wanted):
                    parts = [have[v] for v in wanted]
                else:
                    reason = "behind"
            if reason is not None:
                conn.send(self.snapshot_message(reason, h))
            elif parts:
                conn.send(protocol.events_message(parts))
            self.conns.add(conn)
            self._offer_choices([conn])

    async def _attach_viewing(self, conn: Connection) -> None:
        """A connection that asked for views: the view now and the whole record, whatever version it
        had (a reload, a late joiner, a spectator all get the same record as the players)."""
        async with self._advance_lock:
            h = self.history_for(conn.seat)
            spectating = conn.seat is None
            record = self.view_record if spectating else self.record
            if record is None:
                record = await self._build_record(h, spectators=spectating)
                record.changed()  # what the next batch changes is sent from here
                if spectating:
                    self.view_record = record
                else:
                    self.record = record
            conn.send(self.view_message(conn.seat, h, record, whole=True))
            self.conns.add(conn)
            self._offer_choices([conn])

    def _snapshot_reason(self, last_version: int, h: History) -> str | None:
        """Why a client at `last_version` gets a snapshot rather than the events after it (None: it
        gets the events). ``undo``: a reconnecting client (`last_version` > 0) from before an undo
        accepted since, whatever it saw of what the undo took back; ``behind``: it misses many
        events, or it is a first load (version 0: the board it gets is the game's, nothing of it
        was undone) of a game with an accepted undo."""
        if any(accepted > last_version for _, accepted in h.session.reverted):
            return "undo" if last_version > 0 else "behind"
        if h.version - last_version > self.config.snapshot_after:
            return "behind"
        return None

    def detach(self, conn: Connection) -> None:
        self.conns.discard(conn)

    async def missed(self, seen: int) -> tuple[list[msgspec.Raw], bool]:
        """The events after version `seen`, consecutive, at most MISSED_LIMIT; and whether the game
        went on past the last of them."""
        last = min(self.history.version, seen + MISSED_LIMIT)
        kept = {v: d for v, d, _ in self.recent if seen < v <= last}
        if len(kept) < last - seen:
            kept = {
                e.version: protocol.encode_event(e)
                async for e in self.store.read(self.game_id, seen + 1, last)
            }
        return [msgspec.Raw(kept[v]) for v in range(seen + 1, last + 1)], last < self.history.version

    # -- actions ----------------------------------------------------------------------------------
    async def seed(self) -> bytes:
        if self._seed is None:
            self._seed = await self.store.get_secret(self.game_id)
            if self._seed is None:
                raise ProtocolError("game_over", "this game has no dice seed")
        return self._seed

    async def act(self, seat: str, message: Action) -> Ack:
        """Decide and append `seat`'s action; the original outcome for a resent `command_id`.

        The idempotency key is checked before deciding, against the keys of every event this
        process has folded (no round trip); a key it has not seen (an action appended before the
        game was opened here, or by another process an instant ago) is caught by the store: the
        append script checks the key before anything else, and a refusal is answered only after
        the store confirms the key was never used."""
        command = None
        if isinstance(message, protocol.SendCommand):
            command = _rules_command(message)
            body = b"command:" + rules_commands.encode(command)
        elif isinstance(message, protocol.WriteDown):
            body = b"write_down:" + msgspec.json.encode(sorted(message.later.items()))
        else:
            body = msgspec.json.encode(msgspec.structs.replace(message, command_id="", seen=None))
        key = CommandKey.of(seat, message.command_id, body)
        async with self._act_lock:
            known = self._keys.get((seat, message.command_id))
            if known is not None:
                first, last, body_hash = known
                if body_hash is None:  # folded from another process: only the store knows its body
                    found = await self._lookup(key)
                    first, last = (found.first, found.last) if found is not None else (first, last)
                elif body_hash != key.body_hash:
                    raise _reused(message.command_id)
                return Ack(command_id=message.command_id, first=first, last=last, duplicate=True)
            try:
                return await self._append_action(seat, message, command, key)
            except ProtocolError:
                found = await self._lookup(key)
                if found is not None:
                    return Ack(
                        command_id=message.command_id, first=found.first, last=found.last, duplicate=True
                    )
                raise

    async def _lookup(self, key: CommandKey):
        try:
            return await self.store.lookup(self.game_id, key)
        except KeyMismatch:
            raise _reused(key.command_id) from None

    async def _append_action(self, seat: str, message: Action, command, key: CommandKey) -> Ack:
        """Decide and append, again after each conflict with another process's append: at least
        `conflict_retries` times, and for up to `CONFLICT_PATIENCE` seconds (another process
        appending a burst of the other seat's actions, each in one round trip, must not turn this
        one's into errors: each try here costs two, a read and an append)."""
        give_up = time.monotonic() + CONFLICT_PATIENCE
        attempt = 0
        while attempt < self.config.conflict_retries or time.monotonic() < give_up:
            attempt += 1
            h = self.history
            if message.seen is not None and h.session.material > message.seen:
                missed, more = await self.missed(message.seen)
                raise ProtocolError(
                    "conflict",
                    f"the game moved on since version {message.seen}: it is at {h.version}",
                    version=h.version,
                    missed=missed,
                    more=more,
                )
            events = await self._decide(seat, message, command)
            try:
                appended = await self.store.append(self.game_id, events, h.version, key)
            except Conflict:
                await self.catch_up()
                continue
            except KeyMismatch:
                raise _reused(message.command_id) from None
            if not appended.duplicate:
                await self._fold_appended(appended.envelopes)
                self._keys[(seat, message.command_id)] = (appended.first, appended.last, key.body_hash)
                self._after_append(appended.first, appended.last)
                for listener in self.hub.after_action:
                    listener(self.game_id, self.history, seat, appended.first, appended.last)
            return Ack(
                command_id=message.command_id,
                first=appended.first,
                last=appended.last,
                duplicate=appended.duplicate,
            )
        raise ProtocolError(
            "conflict",
            "the game changed too often meanwhile; send the action again",
            version=self.history.version,
        )

    async def _decide(self, seat: str, message: Action, command) -> list:
        h = self.history
        cid = message.command_id
        target = None
        for _ in range(2):
            try:
                match message:
                    case protocol.SendCommand():
                        if self._written is not None:  # 17.62: a variable unit enters as written down
                            command = written_module.opened(h.state, command, self._written)
                        return decide_session.command(
                            h, seat, command, await self.seed(), cid, now_ms=now_ms()
                        )
                    case protocol.WriteDown():
                        return await self._write_down(h, seat, message.later, cid)
                    case protocol.UndoRequest():
                        return decide_session.undo_request(
                            h,
                            seat,
                            message.back_to,
                            now_ms=now_ms(),
                            backoff_seconds=self.config.undo_backoff_seconds,
                            command_id=cid,
                            target=target,
                        )
                    case protocol.UndoAccept():
                        return decide_session.undo_answer(
                            h, seat, message.request, "accept", cid, target=target
                        )
                    case protocol.UndoDecline():
                        return decide_session.undo_answer(h, seat, message.request, "decline", cid)
                    case protocol.UndoWithdraw():
                        return decide_session.undo_answer(h, seat, message.request, "withdraw", cid)
                    case protocol.PauseRequest():
                        return decide_session.pause_request(h, seat, message.days, now_ms=now_ms(), command_id=cid)
                    case protocol.PauseAccept() | protocol.PauseDecline() | protocol.PauseWithdraw():
                        answer = PAUSE_ANSWERS[type(message)]
                        return decide_session.pause_answer(h, seat, message.request, answer, cid)
                    case protocol.PauseResume():
                        return decide_session.pause_resume(h, seat, now_ms=now_ms(), command_id=cid)
                    case protocol.DrawOffer():
                        return decide_session.draw_offer(h, seat, cid)
                    case protocol.DrawAccept():
                        return decide_session.draw_answer(h, seat, True, await self.seed(), cid)
                    case protocol.DrawDecline():
                        return decide_session.draw_answer(h, seat, False, await self.seed(), cid)
                    case protocol.Resign():
                        return decide_session.resign(h, seat, await self.seed(), cid)
                    case protocol.Claim():
                        return decide_session.claim(
                            h, seat, await self.seed(), now_ms=now_ms(), command_id=cid
                        )
                    case protocol.Chat():
                        return decide_session.chat(h, seat, message.text, cid)
                    case protocol.ChatShown():
                        return decide_session.chat_shown(h, seat, message.shown, cid)
            except decide_session.ActionRefused as exc:
                raise ProtocolError(
                    exc.code, exc.message, case=exc.case, retry_after=exc.retry_after
                ) from None
            except NeedsState as need:
                target = (await load(self.store, self.game_id, self.hub.games, to_version=need.version)).state
        raise ProtocolError("malformed", f"cannot decide a {type(message).__name__}")

    async def _write_down(self, h: History, seat: str, later: dict[str, int], cid: str) -> list:
        """Road to Richmond 17.62: the choice kept in the store, only its commitments in the log. The
        rules decide first (a second writing down is refused before the kept choice is touched); a
        choice kept for an append that then fails is replaced by the next try's."""
        try:
            choice, command = written_module.write_down(h.state, later)
        except written_module.NotWritable as exc:
            raise decide_session.ActionRefused("illegal", str(exc), case="17.62") from None
        events = decide_session.command(h, seat, command, await self.seed(), cid, now_ms=now_ms())
        await self.store.put_hidden(self.game_id, written_module.HIDDEN, written_module.encode(choice))
        self._written = choice
        return events

    def _after_append(self, first: int, last: int) -> None:
        """Bookkeeping off the acknowledgement's path: a snapshot now and then; the game index when
        the game ends at once, else when something it lists changed, at most once per
        `ServerConfig.index_delay` seconds (it only needs to know about silences of hours)."""
        h = self.history
        every = self.store.snapshot_every
        if last // every > (first - 1) // every:
            self._chore(self.store.put_snapshot(self.game_id, h.version, h.snapshot(), SNAPSHOT_CODE))
        if h.finished is not None:
            self._chore(self._index())
        elif self._indexer is None and self._index_stale():
            self._indexer = asyncio.create_task(self._index_later())

    def _index_stale(self) -> bool:
        """Has anything the game index lists changed since this process last wrote it? (Not the
        version of a game without a spectator delay: the list reads that from the log's meta; and
        `waiting_since` only once it moved by INDEX_SLACK_MS.)"""
        fields = listing(self.history, self.view)
        written = self._listed
        if written is None:
            return True
        moved = int(fields["waiting_since"]) - int(written["waiting_since"])
        return moved >= INDEX_SLACK_MS or any(
            fields[name] != written.get(name) for name in fields if name != "waiting_since"
        )

    async def _index(self) -> None:
        self._listed = await self.hub.index(self.history, self.view)

    async def _index_later(self) -> None:
        try:
            await asyncio.sleep(self.config.index_delay)
        finally:
            self._indexer = None
        self._chore(self._index())

    def _chore(self, coro) -> None:
        task = asyncio.create_task(coro)
        self._chores.add(task)

        def done(t: asyncio.Task) -> None:
            self._chores.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.warning("game %s: %s", self.game_id, t.exception())

        task.add_done_callback(done)


#: The answer each pause message gives (session/decide.py `pause_answer`).
PAUSE_ANSWERS = {protocol.PauseAccept: "accept", protocol.PauseDecline: "decline", protocol.PauseWithdraw: "withdraw"}

#: The event that records a choice written down in secret (Road to Richmond 17.62).
WRITTEN_DOWN = "reinforcements_written_down"

#: "All units must cease movement when they enter an Enemy controlled hex": the case, by rule set.
ZOC_CASE = {"classic": "6.0", "revised": "7.0"}


def stops_in(state, unit: str, destinations) -> list[str]:
    """The destinations of `unit` that lie in an enemy zone of control (classic 6.0, revised 7.0:
    it must stop there), in hex order."""
    try:
        side = state.game.scenario.unit(unit).side
    except KeyError:
        return []
    enemy = enemy_controlled(state, side)
    return sorted(hx for hx in destinations if hx in enemy)


def _reused(command_id: str) -> ProtocolError:
    return ProtocolError("malformed", f"command_id {command_id!r} was already used for another action")


def _rules_command(message: protocol.SendCommand):
    """The rules command a message carries; ``unknown_type`` when its type names none, ``malformed``
    naming the first thing wrong otherwise (rules/core/decoding.py: never msgspec's own words)."""
    raw = bytes(message.command)
    try:
        return rules_commands.decode(raw)
    except msgspec.DecodeError:  # a ValidationError too
        found = json_mismatch(raw, rules_commands.AnyCommand)
    if found.kind == "unknown_tag" and found.path == ("type",):
        raise ProtocolError("unknown_type", f"no rules command has type {found.got}") from None
    if found.kind == "missing_field" and found.path == () and found.got == "type":
        raise ProtocolError("unknown_type", "a rules command needs its 'type'") from None
    raise ProtocolError("malformed", f"a malformed command: {found.sentence()}") from None


class LiveGames:
    """The live games of this process, opened on first use and closed when their last user leaves."""

    def __init__(self, store: RedisEventStore, tail: Tail, games: GameCache, config: ServerConfig) -> None:
        self.store = store
        self.tail = tail
        self.games = games
        self.config = config
        self._live: dict[str, LiveGame] = {}
        self._opening: dict[str, asyncio.Future] = {}
        #: Told of each player's action once it is appended: (game id, history, seat, first, last);
        #: none may wait or raise (api/notifier.py, api/rating_games.py queue their work).
        self.after_action: list = []

    def count(self) -> int:
        """The games open in this process."""
        return len(self._live)

    def peek(self, game_id: str) -> LiveGame | None:
        return self._live.get(game_id)

    async def acquire(self, game_id: str) -> LiveGame:
        """The live game (opened if need be); release it when done. Raises GameNotFound."""
        self.store.keys(game_id)  # a bad id raises ValueError here
        while True:
            live = self._live.get(game_id)
            if live is not None:
                live.users += 1
                return live
            opening = self._opening.get(game_id)
            if opening is not None:
                await asyncio.shield(opening)
                continue
            future = asyncio.get_running_loop().create_future()
            self._opening[game_id] = future
            try:
                live = LiveGame(self, game_id)
                await live.open()
                self._live[game_id] = live
            except BaseException as exc:
                future.set_result(None)
                if (
                    isinstance(exc, Exception)
                    and not isinstance(exc, GameNotFound)
                    and not store_unavailable(exc)
                ):
                    log.exception("game %s could not be opened", game_id)
                raise
            finally:
                self._opening.pop(game_id, None)
            future.set_result(None)

    def release(self, live: LiveGame) -> None:
        live.users -= 1
        if live.users <= 0 and not live.conns and self._live.get(live.game_id) is live:
            del self._live[live.game_id]
            asyncio.create_task(live.close())

    async def close(self) -> None:
        for live in list(self._live.values()):
            await live.close()
        self._live.clear()

    async def index(self, history: History, view: History | None = None) -> dict:
        """Write the game's index fields (session/visibility.py `listing`; non-authoritative: the log
        is the truth; GET /api/games reads these to list games without folding each); returns them."""
        fields = listing(history, view)
        await self.store.redis.hset(self.store.keys(history.game_id).info, mapping=fields)
        return fields
