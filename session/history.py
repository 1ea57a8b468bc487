"""The fold of a game's effective history: the one fold the server (and every replay) uses.

A game's log never loses an event, but an accepted undo makes a range of it void: the
`undo_accepted` record at version `a`, answering a request to go back to version `b`, reverts the
versions strictly between b and a (the request included; the acceptance is where play resumes). The *live state at version v* is what the server held right after appending v:

    live(v) = apply(live(v - 1), entry v)        for a rules event
            = live(b)                             for an `undo_accepted` back to b
            = live(v - 1)                         for any other session record

so the effective history after v is the log up to v with every range reverted by then left out.
Ranges are nested or disjoint (a target inside a reverted range is refused), and the state at an
undo's target carries every decision pending at that moment.

`History` is that fold, one envelope at a time (`apply`), tracking besides the rules state the
session: seats and dice nonces, the effective commands (for undo requests), a pending undo request,
pause request or draw offer, the running pause and the pause time each seat was granted, undo back-off, who is expected to act since when, and the end of the game. It keeps
the state at its base version (the start, or the snapshot it was loaded from) and the effective
rules events since, so the state at any later undo target is a fold away; a target before the base
raises `NeedsState`, which `load`/`apply_async` answer from the store (snapshot at or before it,
then the fold of the rest). Snapshots are a cache: `History.snapshot()` is everything needed to go
on folding from that version.
"""

from __future__ import annotations

from typing import cast

import msgspec

from eventstore.envelope import GENESIS, Envelope
from rules import RULES_VERSION
from rules.core import events as rules_events
from rules.core import state as rules_state
from rules.core.decoding import json_mismatch
from rules.core.events import Event, GameTurnAdvanced
from rules.core.game import Game
from rules.core.handlers import apply as apply_event
from rules.core.state import State
from rules.procedures.sequence import to_act
from rules.reducer import fold, new_game
from session import clock, records
from session.dice import nonce_string
from session.games import GameCache
from session.records import (
    GAME_ACTIONS,
    ChatSaid,
    ChatShown,
    CommandApplied,
    DrawDeclined,
    DrawOffered,
    GameCreated,
    GameFinished,
    PauseAccepted,
    PauseDeclined,
    PauseRequested,
    PauseResumed,
    PauseWithdrawn,
    Record,
    SeatJoined,
    SeedRevealed,
    UndoAccepted,
    UndoDeclined,
    UndoRequested,
    UndoWithdrawn,
    chat_open,
)

#: Bumped when the encoding of `HistorySnapshot` (or of what it holds) changes.
HISTORY_FORMAT = 2  # 2: the session keeps the chat consents and the chat lines withheld from spectators
#: The `code_version` of the snapshots this code writes and reads.
SNAPSHOT_CODE = f"{RULES_VERSION}/history-{HISTORY_FORMAT}"


class HistoryError(Exception):
    """The log does not fold: out of sequence, unreadable, or an event the session does not allow."""

    def __init__(self, game_id: str, version: int, message: str) -> None:
        super().__init__(f"game {game_id}, version {version}: {message}")
        self.game_id = game_id
        self.version = version
        self.message = message


class DigestMismatch(HistoryError):
    """The state after an event is not the one whose digest the event recorded."""


class NeedsState(Exception):
    """The fold needs the live state at `version`, which is before what it holds in memory."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the state at version {version} is needed")
        self.version = version


class CommandRef(msgspec.Struct, array_like=True):
    """An effective command: its record's version, the last version of its events, the seat, how
    many dice it rolled, and the command itself (JSON)."""

    version: int
    last: int
    seat: str
    rolls: int
    command: bytes


class PendingUndo(msgspec.Struct, frozen=True, array_like=True):
    """The open undo request: its version, the requester, the target and the commands it takes back."""

    version: int
    seat: str
    back_to: int
    takes_back: list[int]


class PendingPause(msgspec.Struct, frozen=True, array_like=True):
    """The open pause request (session/pause.py): its version, the requester and the days asked."""

    version: int
    seat: str
    days: int


class Pause(msgspec.Struct, frozen=True, array_like=True):
    """The running pause: the seat that asked for it, and from and until when (ms, event times;
    `until` is the agreed end, or the time of an early ``pause_resumed``)."""

    seat: str
    since: int
    until: int


class DrawOffer(msgspec.Struct, frozen=True, array_like=True):
    version: int
    seat: str


class Backoff(msgspec.Struct, frozen=True, array_like=True):
    """A seat's refused undo requests in a row (declined or withdrawn) and when the last one ended."""

    count: int
    last: int  # milliseconds since the epoch


class Session(msgspec.Struct, kw_only=True):
    """Everything the fold knows besides the rules state."""

    created: GameCreated | None = None
    joined: list[str] = []  # seats, in join order
    nonces: list[str] = []  # their dice nonces, same order
    start: int = 0  # the version at which play started (the second seat joined); 0: not yet
    commands: list[CommandRef] = []  # the effective commands, oldest first
    reverted: list[tuple[int, int]] = []  # (back_to, accepted_at): versions back_to+1..accepted_at-1 undone
    undo: PendingUndo | None = None
    draw: DrawOffer | None = None
    backoff: dict[str, Backoff] = {}
    finished: GameFinished | None = None
    finished_at: int = 0
    material: int = 0  # the last version that is not a chat line (nor a chat_shown)
    chat_shown: dict[str, bool] = {}  # each seat's consent to show its chat to spectators (records.ChatShown)
    withheld: list[int] = []  # the versions of the chat lines said without both consents (session/visibility.py)
    to_act: str | None = None  # the seat the game waits for (None: not started, or over)
    waiting_since: int = 0  # ms: since when `to_act` has been expected to act
    # The game's clock, if it has one (session/clock.py): ms left to each seat at `clock_at` (the time
    # of the last event), and the Player-Turns (Game-Turn, phasing side) each seat got its time for.
    clocks: dict[str, int] = {}
    clock_at: int = 0
    clock_turns: dict[str, list[tuple[int, str]]] = {}
    # Pauses (session/pause.py): the open request, the running pause, and the pause time (ms) each seat
    # has been granted in this game (an early resumption gives back what was not used).
    pause_request: PendingPause | None = None
    paused: Pause | None = None
    pause_used: dict[str, int] = {}

    @property
    def started(self) -> bool:
        return self.start > 0

    @property
    def nonce_string(self) -> str:
        return nonce_string(self.nonces)

    def last_roll(self) -> int:
        """The version of the latest effective command that rolled a die (0: none)."""
        for c in reversed(self.commands):
            if c.rolls:
                return c.version
        return 0

    def in_reverted(self, version: int) -> bool:
        """Is `version` inside a reverted range? (The acceptance itself is not: the state there is
        the state at the target.)"""
        return any(b < version < a for b, a in self.reverted)


class HistorySnapshot(msgspec.Struct, frozen=True, array_like=True):
    version: int
    head: bytes
    time: int
    state: bytes  # rules.core.state.encode
    session: Session


_snapshot_encoder = msgspec.msgpack.Encoder(order="deterministic")
_snapshot_decoder = msgspec.msgpack.Decoder(HistorySnapshot)


def decode_entry(envelope: Envelope) -> Record | Event:
    """The session record or rules event an envelope holds (its payload, checked against its type)."""
    item: Record | Event
    if envelope.type in records.RECORD_TYPES:
        item = records.decode(envelope.payload)
    else:
        item = rules_events.decode(envelope.payload)
    return _checked_tag(item, envelope)


def payload_problem(envelope: Envelope) -> str:
    """Why ``decode_entry`` refused an envelope's payload, in our own words (rules/core/decoding.py)."""
    type_ = records.RecordType if envelope.type in records.RECORD_TYPES else rules_events.AnyEvent
    found = json_mismatch(envelope.payload, type_)
    return f"the payload is not a {envelope.type}" if found.kind == "unexplained" else found.sentence()


def _checked_tag(item: Record | Event, envelope: Envelope) -> Record | Event:
    if item.__struct_config__.tag != envelope.type:
        raise msgspec.ValidationError(
            f"the payload is a {item.__struct_config__.tag}, the envelope says {envelope.type}"
        )
    return item


class History:
    """The effective history of one game, folded up to `version` (see the module documentation)."""

    def __init__(self, game_id: str, games: GameCache) -> None:
        self.game_id = game_id
        self.games = games
        self.version = 0
        self.head = GENESIS
        self.time = 0  # the time of the last event (ms)
        self.session = Session()
        self.game: Game | None = None
        self.state: State | None = None
        self._base_version = 0
        self._base_state: State | None = None
        self._events: list[tuple[int, Event]] = []  # effective rules events after the base
        self._changes = 0  # rules events applied to `state` in place (the digest's cache key, with `state` itself)
        self._digested: tuple[State, int, bytes] | None = None
        self._digester = rules_state.Digester()  # the state's digest after each event, its unchanged parts kept

    # -- questions -------------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.session.started

    @property
    def finished(self) -> GameFinished | None:
        return self.session.finished

    def digest(self) -> bytes:
        """The digest of the rules state now (empty before the game's creation). Kept until the state
        changes: a record (a seat joined, a command applied, chat) leaves the rules state as it was."""
        if self.state is None:
            return b""
        d = self._digested
        if d is None or d[0] is not self.state or d[1] != self._changes:
            d = self._digested = (self.state, self._changes, self._digester.digest(self.state))
        return d[2]

    def state_at(self, version: int) -> State:
        """The live state at `version` (a fresh copy); `version` must not be inside a reverted range.
        Raises NeedsState when `version` is before what this history holds in memory."""
        if version > self.version:
            raise ValueError(f"version {version} is after the history's {self.version}")
        if version < self._base_version or self._base_state is None:
            raise NeedsState(version)
        return fold(self._base_state, [e for v, e in self._events if v <= version])

    def dice_stream(self) -> str:
        """What stands for the game in its rolls' HMAC message (session/dice.py): the game id, or a
        duplicate pair's id (``GameCreated.dice_stream``)."""
        created = self.session.created
        return created.dice_stream if created is not None and created.dice_stream is not None else self.game_id

    def dice_nonces(self) -> str:
        """The nonce string of its rolls: the seats' nonces in join order, or a duplicate pair's
        (``GameCreated.dice_nonces``)."""
        created = self.session.created
        if created is not None and created.dice_nonces is not None:
            return created.dice_nonces
        return self.session.nonce_string

    # -- folding ---------------------------------------------------------------------------------
    def apply(
        self,
        envelope: Envelope,
        *,
        target: State | None = None,
        check_digest: bool = False,
        decoded: Event | None = None,
    ) -> Record | Event:
        """Fold one more envelope (the next version, linked to the current head). `target` is the
        live state at an undo's target, when `NeedsState` asked for it. With `check_digest` the
        state afterwards must have the digest the envelope recorded. `decoded`: the rules event the
        envelope holds, when the caller has it already (its encoding is the payload's very bytes)."""
        v = envelope.version
        if v != self.version + 1:
            raise HistoryError(self.game_id, v, f"expected version {self.version + 1}")
        if envelope.prev != self.head:
            raise HistoryError(self.game_id, v, "does not link to the hash of the event before it")
        try:
            item = decode_entry(envelope) if decoded is None else _checked_tag(decoded, envelope)
        except msgspec.ValidationError:
            raise HistoryError(self.game_id, v, f"unreadable {envelope.type!r} payload: {payload_problem(envelope)}") from None
        s = self.session
        if s.created is None and not isinstance(item, GameCreated):
            raise HistoryError(self.game_id, v, "a game's first event must be game_created")
        if s.finished is not None and not self._reveals(item):
            raise HistoryError(self.game_id, v, "an event after game_finished")
        if isinstance(item, Record):
            if type(item) is UndoAccepted and target is None:
                if not 0 < item.back_to <= self.version:
                    raise HistoryError(
                        self.game_id, v, f"an undo to version {item.back_to}, which is not a valid target"
                    )
                target = self.state_at(item.back_to)  # NeedsState leaves the history untouched
            self._record(item, envelope, target)
        else:
            if s.start <= 0:  # not started
                raise HistoryError(self.game_id, v, "a rules event before both seats joined")
            commands = s.commands
            if not commands or commands[-1].last != v - 1:
                raise HistoryError(self.game_id, v, "a rules event that follows no command")
            assert self.state is not None  # started: created
            apply_event(self.state, item)
            self._changes += 1
            self._events.append((v, item))
            commands[-1].last = v
            s.material = v
        self.version = v
        self.head = envelope.hash
        self.time = envelope.time
        self._waiting(envelope, settled=type(item) is not GameTurnAdvanced)
        if check_digest and envelope.digest != self.digest():
            raise DigestMismatch(self.game_id, v, "the state after this event is not the one it recorded")
        return item

    def _reveals(self, item: Record | Event) -> bool:
        """Is `item` the one event a finished game may still have: the ``seed_revealed`` of the seed
        its ``game_finished`` withheld for its duplicate pair (session/records.py)?"""
        f = self.session.finished
        assert f is not None  # asked of a finished game only
        return type(item) is SeedRevealed and f.seed_withheld == item.pair and not f.seed

    def _record(self, item: Record, envelope: Envelope, target: State | None) -> None:
        s = self.session
        v = envelope.version
        if not isinstance(item, ChatSaid | ChatShown):
            s.material = v
        lapsed = s.undo
        if item.__struct_config__.tag in GAME_ACTIONS:
            s.undo = None
            s.draw = None
        match item:  # the commands first: most records are
            case CommandApplied():
                if not s.started:
                    raise HistoryError(self.game_id, v, "a command before both seats joined")
                s.commands.append(CommandRef(v, v, item.seat, len(item.rolls), bytes(item.command)))
            case GameCreated():
                if v != 1 or item.game_id != self.game_id:
                    raise HistoryError(
                        self.game_id, v, f"game_created of game {item.game_id!r} at version {v}"
                    )
                self.game = self.games.for_record(item)
                s.created = item
                self._base_version = 1
                self._base_state = (
                    rules_state.decode(item.fork.state, self.game)
                    if item.fork is not None
                    else new_game(self.game)
                )
                self.state = self._base_state.copy()
            case SeatJoined():
                if item.seat in s.joined or len(s.joined) >= 2:
                    raise HistoryError(self.game_id, v, f"the {item.seat} seat joined twice")
                s.joined.append(item.seat)
                s.nonces.append(item.nonce)
                if len(s.joined) == 2:
                    s.start = v
            case UndoRequested():
                s.undo = PendingUndo(v, item.seat, item.back_to, [t.version for t in item.takes_back])
            case UndoAccepted():
                if lapsed is None or lapsed.version != item.request or lapsed.back_to != item.back_to:
                    raise HistoryError(
                        self.game_id, v, f"undo_accepted answers no open request at {item.request}"
                    )
                self._revert(item.back_to, v, target)
                s.backoff.pop(lapsed.seat, None)
            case UndoDeclined() | UndoWithdrawn():
                if s.undo is None or s.undo.version != item.request:
                    raise HistoryError(
                        self.game_id, v, f"{envelope.type} answers no open request at {item.request}"
                    )
                seat = s.undo.seat
                previous = s.backoff.get(seat)
                s.backoff[seat] = Backoff((previous.count if previous else 0) + 1, envelope.time)
                s.undo = None
            case PauseRequested() | PauseAccepted() | PauseDeclined() | PauseWithdrawn() | PauseResumed():
                self._pause(item, envelope)
            case DrawOffered():
                s.draw = DrawOffer(v, item.seat)
            case DrawDeclined():
                s.draw = None
            case GameFinished():
                s.finished = item
                s.finished_at = v
                s.pause_request = None
            case SeedRevealed():  # the fold's game_finished now shows the seed, as every other game's
                if s.finished is None:
                    raise HistoryError(self.game_id, v, "seed_revealed before game_finished")
                s.finished = msgspec.structs.replace(s.finished, seed=item.seed)
            case ChatSaid():
                if not chat_open(s.chat_shown):
                    s.withheld.append(v)
            case ChatShown():
                s.chat_shown[item.seat] = item.shown

    def _pause(
        self,
        item: PauseRequested | PauseAccepted | PauseDeclined | PauseWithdrawn | PauseResumed,
        envelope: Envelope,
    ) -> None:
        """A pause record: the request opened, answered, or the running pause ended early."""
        s = self.session
        v, t = envelope.version, envelope.time
        if type(item) is PauseRequested:
            s.pause_request = PendingPause(v, item.seat, item.days)
            return
        if type(item) is PauseResumed:
            if not clock.paused_at(s, t):
                raise HistoryError(self.game_id, v, "pause_resumed while no pause runs")
            pause = s.paused
            assert pause is not None  # paused at `t`
            s.pause_used[pause.seat] = s.pause_used.get(pause.seat, 0) - (pause.until - t)
            s.paused = Pause(pause.seat, pause.since, t)
            return
        item = cast("PauseAccepted | PauseDeclined | PauseWithdrawn", item)  # an answer to the request
        pending = s.pause_request
        if pending is None or pending.version != item.request:
            raise HistoryError(self.game_id, v, f"{envelope.type} answers no open pause request at {item.request}")
        s.pause_request = None
        if type(item) is PauseAccepted:
            length = pending.days * records.DAY_SECONDS * 1000
            s.paused = Pause(pending.seat, t, t + length)
            s.pause_used[pending.seat] = s.pause_used.get(pending.seat, 0) + length

    def _revert(self, back_to: int, accepted_at: int, target: State | None) -> None:
        s = self.session
        if back_to < s.start or s.in_reverted(back_to):
            raise HistoryError(
                self.game_id, accepted_at, f"an undo to version {back_to}, which is not a valid target"
            )
        assert target is not None  # `apply` found it for an undo_accepted
        self.state = target
        if back_to < self._base_version:
            self._base_version, self._base_state = back_to, target.copy()
            self._events = []
        else:
            self._events = [(v, e) for v, e in self._events if v <= back_to]
        s.commands = [c for c in s.commands if c.version <= back_to]
        s.reverted.append((back_to, accepted_at))

    def _waiting(self, envelope: Envelope, settled: bool = True) -> None:
        """Whom the game waits for, since when, and the clocks. (`settled`: the state is not the
        passing one between a new Game-Turn and its first phase, whose Player-Turn is none.)"""
        s = self.session
        now = None if (s.finished or s.start <= 0 or self.state is None) else to_act(self.state)  # s.started
        options = s.created.options.clock if s.created is not None else None
        if options is not None and s.started:
            if s.start == envelope.version:
                clock.start(s, options, s.joined, envelope.time)
            else:
                clock.charge(s, s.to_act, envelope.time)
            if settled:
                assert self.state is not None  # started: created
                clock.give(s, options, now, self.state.turn, self.state.phasing)
        clock.pause_over(s, envelope.time)
        if now != s.to_act or (now is not None and envelope.actor == now):
            s.waiting_since = envelope.time
        s.to_act = now

    # -- snapshots -------------------------------------------------------------------------------
    def snapshot(self) -> bytes:
        """Everything needed to go on folding from this version (for `EventStore.put_snapshot`)."""
        state = cast(State, self.state)  # None before game_created: encoded as nil, as it always was
        return _snapshot_encoder.encode(
            HistorySnapshot(self.version, self.head, self.time, rules_state.encode(state), self.session)
        )

    @classmethod
    def from_snapshot(cls, game_id: str, games: GameCache, data: bytes) -> History:
        snap = _snapshot_decoder.decode(data)
        history = cls(game_id, games)
        history.version, history.head, history.time = snap.version, snap.head, snap.time
        history.session = snap.session
        assert snap.session.created is not None  # snapshots are of created games
        history.game = games.for_record(snap.session.created)
        history.state = rules_state.decode(snap.state, history.game)
        history._base_version = snap.version
        history._base_state = history.state.copy()
        return history


# -- reading from a store ------------------------------------------------------------------------
async def apply_async(history: History, store, envelope: Envelope, *, check_digest: bool = False):
    """`history.apply(envelope)`, fetching the state at an undo's target from `store` if needed."""
    try:
        return history.apply(envelope, check_digest=check_digest)
    except NeedsState as need:
        target = (await load(store, history.game_id, history.games, to_version=need.version)).state
        return history.apply(envelope, target=target, check_digest=check_digest)


async def from_stored_snapshot(store, game_id: str, games: GameCache, version: int) -> History | None:
    """The history at the newest usable snapshot at or before `version` (None: none usable)."""
    snap = await store.snapshot_at_or_before(game_id, version, code_version=SNAPSHOT_CODE)
    if snap is None:
        return None
    try:
        history = History.from_snapshot(game_id, games, snap.data)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None  # a cache: an unreadable snapshot is ignored
    return history if history.head == snap.head else None


async def load(
    store,
    game_id: str,
    games: GameCache,
    *,
    to_version: int | None = None,
    snapshots: bool = True,
    check_digests: bool = False,
) -> History:
    """The history of `game_id` up to `to_version` (None: the end), from the newest usable snapshot
    at or before it (when `snapshots`) and the fold of the events after it."""
    history = await from_stored_snapshot(store, game_id, games, to_version or 2**62) if snapshots else None
    if history is None:
        history = History(game_id, games)
    if to_version is not None and history.version >= to_version:
        return history
    async for envelope in store.read(game_id, history.version + 1, to_version):
        await apply_async(history, store, envelope, check_digest=check_digests)
    return history


def fold_envelopes(game_id: str, games: GameCache, envelopes, *, check_digests: bool = False) -> History:
    """The history of a whole log held in memory (an export, a test), folded from the start."""
    history = History(game_id, games)
    for envelope in envelopes:
        history.apply(envelope, check_digest=check_digests)
    return history
