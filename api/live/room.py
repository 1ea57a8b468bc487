"""The room of one live game: a `LiveGame` holds the effective history of one game
(session/history.py) at the head of its log, its sockets (api/live/sockets.py) and the jobs of the
other modules of api/live/, each a mixin of it; opening and closing it, and the sockets that attach
to it (brought up to date with events or a snapshot) and leave."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import TYPE_CHECKING

import msgspec

from api import protocol
from api.config import ServerConfig
from api.live.acting import Acting
from api.live.choices import Offering
from api.live.following import Following
from api.live.index import Indexing
from api.live.sockets import Connection
from api.live.spectators import Spectating
from api.live.views import Viewing
from api.live.written import WritingDown
from api.protocol import ProtocolError
from eventstore.envelope import Envelope
from eventstore.store import RedisEventStore
from replay.gamerecord import GameRecord
from rules import RULES_VERSION
from session import written as written_module
from session.history import History, HistoryError, load
from session.visibility import delayed, visible_version

if TYPE_CHECKING:
    from api.live.hub import LiveGames

log = logging.getLogger("api.live")  # the log lines keep the name they had before api/live/ was split


MISSED_LIMIT = 100


class GameNotFound(Exception):
    """No game has this id."""


class RulesChanged(Exception):
    """A game created under other rules whose log these rules fold otherwise: it is not served."""


class LiveGame(Following, Acting, Spectating, Viewing, Offering, WritingDown, Indexing):
    """One game followed live in this process: its state is set here, in `__init__`; each job is a
    mixin in its own module (api/live/__init__.py lists them).

    It follows the log through the process's one live tail and, whenever the tail shows something
    new, reads every new event from the store at once, folds it, encodes each event once, builds its
    websocket frame once and writes the same bytes to every socket of the game (`Connection`: what
    waits for a socket is bounded; a socket that falls behind is cut off and catches up when it
    reconnects). The choices of the player to act are computed once per state, for the sockets of
    that seat that asked for them. Actions (`act`) are serialised per game in this process and
    decided against the history: the idempotency key is looked up first (a resend gets the original
    outcome), the action decided (session/decide.py), and the events appended at the expected
    version; when another process appended first, the history catches up and the action is decided
    again."""

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
