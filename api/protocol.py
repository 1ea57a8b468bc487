"""The websocket protocol: every message either way, as msgspec tagged unions on the field ``type``
with explicit tags, and the one decoder of what clients send (docs/PROTOCOL.md documents them all;
docs/protocol.schema.json is generated from these types by api/schema.py).

A client says `hello` (with its seat token, or as a spectator) and the last version it has; the
server answers `welcome`, then the missing `events` or a render-ready `snapshot`, then every new
event as it is appended, and to a player whose decision the game waits for, the `choices` open to
him. Actions carry a client `command_id`: the same id again gets the original `ack`.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

import msgspec

from api.glance import Glance
from replay.gamerecord import RecordLine
from rules.core.breakdown import CombatBreakdown
from rules.core.commands import COMMAND_TYPES
from rules.core.decoding import json_mismatch
from rules.legal import Destination, Refusal
from session.records import GameFinished, SessionOptions

ErrorCode = Literal[
    "malformed",
    "unknown_type",
    "unauthorized",
    "not_your_turn",
    "illegal",
    "conflict",
    "rate_limited",
    "too_large",
    "game_over",
    "not_found",
    "unavailable",
    "internal",
    "server_restarting",
    "forbidden",
    "name_taken",
    "quota",
]

#: The seconds a client waits before sending again what was answered ``unavailable``.
RETRY_AFTER_UNAVAILABLE = 1.0

#: A version of a game's log, as a client may name it (0: none).
Version = Annotated[int, msgspec.Meta(ge=0, le=2**31 - 1)]
GameId = Annotated[str, msgspec.Meta(pattern="^[A-Za-z0-9_.-]{1,100}$")]
CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]

#: Websocket close codes the server uses (4000-4999 are the application's).
CLOSE_TOO_SLOW = 4008  # the socket fell too far behind: reconnect with your last version
CLOSE_FULL = 4009  # the game has as many connections as it accepts
CLOSE_GONE = 4004  # the game cannot be served any more (its log failed to verify)
CLOSE_ABUSE = 4029  # the connection kept sending far faster than it may (ServerConfig.rate_abuse)
CLOSE_RESTART = 1012  # RFC 6455 "service restart": the server is stopping; reconnect (to another one)


# -- client to server -------------------------------------------------------------------------------
class ClientMessage(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of what a client sends."""


class Hello(ClientMessage, frozen=True, kw_only=True, tag="hello"):
    """The first message of a connection: the game, a seat token (or ``spectate``), the last version
    the client has (0: none), whether to receive the ``choices`` when it is this seat's turn, and
    ``view``: to receive, instead of ``events`` and ``snapshot``, the server's ``view`` of the game
    for this seat (or a spectator) and its record, at once and after every batch of events."""

    game_id: GameId
    token: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    spectate: bool = False
    last_version: Version = 0
    choices: bool = True
    view: bool = False


class Action(ClientMessage, frozen=True, kw_only=True):
    """Base of what a player does. ``command_id``: the client's id of this action (1-100
    characters, unique per seat and game): sending it again is answered with the original outcome.
    ``seen``: the version the client decided on; if anything but chat happened since, the action
    is refused as ``conflict`` with what the client missed."""

    command_id: CommandId
    seen: Version | None = None


class SendCommand(Action, frozen=True, kw_only=True, tag="command"):
    """A rules command (`rules.core.commands`: {"type": "move", "unit": ..., "path": [...]}, ...)."""

    command: msgspec.Raw


class WriteDown(Action, frozen=True, kw_only=True, tag="write_down"):
    """Road to Richmond 17.62 (the game option ``variable_reinforcements``): before the game starts
    the Confederate Player writes down in secret which Game-Turn One reinforcements arrive later:
    ``later`` maps each such unit to the chart Game-Turn it arrives with (15 or 18); the others arrive
    as the chart says. The server keeps the choice and records only a commitment per unit."""

    later: dict[str, int] = {}


class UndoRequest(Action, frozen=True, kw_only=True, tag="undo_request"):
    """Ask to take back every action after version ``back_to`` (5.17)."""

    back_to: Version


class UndoAccept(Action, frozen=True, kw_only=True, tag="undo_accept"):
    request: Version


class UndoDecline(Action, frozen=True, kw_only=True, tag="undo_decline"):
    request: Version


class UndoWithdraw(Action, frozen=True, kw_only=True, tag="undo_withdraw"):
    request: Version


class PauseRequest(Action, frozen=True, kw_only=True, tag="pause_request"):
    """Ask the opponent to pause this correspondence game for ``days`` days (1 to 30; 30 in all per
    seat and game): answered like an undo request (session/pause.py)."""

    days: Annotated[int, msgspec.Meta(ge=1, le=30)]


class PauseAccept(Action, frozen=True, kw_only=True, tag="pause_accept"):
    request: Version


class PauseDecline(Action, frozen=True, kw_only=True, tag="pause_decline"):
    request: Version


class PauseWithdraw(Action, frozen=True, kw_only=True, tag="pause_withdraw"):
    request: Version


class PauseResume(Action, frozen=True, kw_only=True, tag="pause_resume"):
    """End the running pause now (either seat): the clocks run again."""


class DrawOffer(Action, frozen=True, kw_only=True, tag="draw_offer"):
    pass


class DrawAccept(Action, frozen=True, kw_only=True, tag="draw_accept"):
    pass


class DrawDecline(Action, frozen=True, kw_only=True, tag="draw_decline"):
    pass


class Resign(Action, frozen=True, kw_only=True, tag="resign"):
    pass


class Claim(Action, frozen=True, kw_only=True, tag="claim"):
    """Claim the game: the opponent, whom the game waits for, has been silent too long."""


class Chat(Action, frozen=True, kw_only=True, tag="chat"):
    text: str


class ChatShown(Action, frozen=True, kw_only=True, tag="chat_shown"):
    """Show this seat's chat to spectators from now on (``shown``: true), or stop (false). A line
    reaches spectators only if both seats show their chat when it is said."""

    shown: bool


ReachHow = Literal["move", "enter", "strategic", "leader"]


class Reach(ClientMessage, frozen=True, kw_only=True, tag="reach"):
    """Ask where ``unit`` may end a move now: ``how`` "move" (a unit on the map), "enter" (a
    reinforcement), "strategic" (revised 6.4), "leader" (Grand Chancellorsville 23.51: ``unit`` a Leader's
    id). Only the seat the game waits for may ask; answered by a
    ``reach`` to this socket. Not an action: nothing is appended."""

    unit: str
    how: ReachHow = "move"


class Combat(ClientMessage, frozen=True, kw_only=True, tag="combat"):
    """Ask how the odds of declaring ``attackers`` (units) against ``defenders`` (hexes) now would be
    built (`rules.combat_choices.combat_breakdown`): answered by a ``combat`` to this socket. Only the
    seat the game waits for may ask. Not an action: nothing is appended."""

    attackers: Annotated[list[Annotated[str, msgspec.Meta(max_length=100)]], msgspec.Meta(max_length=60)]
    defenders: Annotated[list[Annotated[str, msgspec.Meta(max_length=10)]], msgspec.Meta(max_length=6)]


# -- replay (api/replaying.py): any connection, player or spectator, may scrub through the game --------
ReplayUnit = Literal["event", "phase", "player_turn", "game_turn"]


class ReplaySeek(ClientMessage, frozen=True, kw_only=True, tag="replay_seek"):
    """Show the game at ``version`` (clamped to what this connection may see: the frame's
    ``version`` says where it is); answered by a ``replay_frame``. Live events keep coming meanwhile."""

    version: Version


class ReplayStep(ClientMessage, frozen=True, kw_only=True, tag="replay_step"):
    """Move ``count`` steps (negative: back) by ``event``, ``phase``, ``player_turn`` or
    ``game_turn`` from the replay's position (from the newest visible version if none), skipping
    undone versions; answered by a ``replay_frame``."""

    by: ReplayUnit = "event"
    count: Annotated[int, msgspec.Meta(ge=-10_000, le=10_000)] = 1


class ReplayPlay(ClientMessage, frozen=True, kw_only=True, tag="replay_play"):
    """Step forward by ``by`` ``speed`` times a second (0.1 to 50), a ``replay_frame`` each, until
    paused or at the newest visible version."""

    by: ReplayUnit = "event"
    speed: Annotated[float, msgspec.Meta(ge=0.1, le=50)] = 2.0


class ReplayPause(ClientMessage, frozen=True, kw_only=True, tag="replay_pause"):
    """Stop playing; the current frame is sent again (``playing`` false)."""


class ReplayLive(ClientMessage, frozen=True, kw_only=True, tag="replay_live"):
    """Leave the replay and follow the game live again: answered by ``replay_following``."""


ClientMessageType = Union[  # noqa: UP007 - a runtime union for msgspec
    Hello,
    Reach,
    Combat,
    ReplaySeek,
    ReplayStep,
    ReplayPlay,
    ReplayPause,
    ReplayLive,
    SendCommand,
    WriteDown,
    UndoRequest,
    UndoAccept,
    UndoDecline,
    UndoWithdraw,
    PauseRequest,
    PauseAccept,
    PauseDecline,
    PauseWithdraw,
    PauseResume,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Resign,
    Claim,
    Chat,
    ChatShown,
]


# -- server to client -------------------------------------------------------------------------------
class ServerMessage(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of what the server sends."""


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    max_message_bytes: int
    rate_per_second: float
    rate_burst: int


class Welcome(ServerMessage, frozen=True, kw_only=True, tag="welcome"):
    """The answer to ``hello``: who you are in this game (``seat`` null for a spectator), where the
    game is, and what it is. Missing events or a snapshot follow."""

    game_id: str
    seat: str | None
    version: int
    head: str  # the hash of the event at `version`, hex
    scenario: str
    ruleset: str
    rules_version: str
    options: SessionOptions
    rules_options: dict[str, bool | int | str]
    dice: str
    seed_hash: str
    limits: Limits


class EventOut(msgspec.Struct, frozen=True, kw_only=True):
    """One event of the log: its envelope (digest and hash in hex) and its payload ``data`` (a
    rules event or a session record; ``data.type`` equals ``type``), embedded byte for byte as
    stored, so a client that keeps those bytes can recompute ``hash`` (eventstore/envelope.py)
    with ``prev`` the hash of the event before."""

    version: int
    type: str
    schema: int
    actor: str
    command_id: str
    time: int  # milliseconds since the epoch
    digest: str  # the rules state after this event, sha256 hex
    hash: str  # the chain hash of this event, hex
    data: msgspec.Raw


class Events(ServerMessage, frozen=True, kw_only=True, tag="events"):
    """Consecutive events, oldest first; each version once, none skipped."""

    events: list[EventOut]


class UndoView(msgspec.Struct, frozen=True, kw_only=True):
    request: int
    seat: str
    back_to: int
    takes_back: list[int]  # the versions of the command records it takes back


class PauseRequestView(msgspec.Struct, frozen=True, kw_only=True):
    request: int
    seat: str
    days: int


class PausedView(msgspec.Struct, frozen=True, kw_only=True):
    """The running pause: asked by ``seat``, from ``since`` until ``until`` (ms since the epoch)."""

    seat: str
    since: int
    until: int


class DrawView(msgspec.Struct, frozen=True, kw_only=True):
    offer: int
    seat: str


class ClockView(msgspec.Struct, frozen=True, kw_only=True):
    """The game's clock (session/clock.py) as of the time ``at`` of the last event (ms since the
    epoch): the milliseconds ``left`` to each seat then (negative: run out), and the seat whose clock
    is ``running`` since (null: none). A client shows ``left[running] - (now - at)``; with
    ``paused_until`` (a pause runs) nothing is charged before that time:
    ``left[running] - max(0, now - max(at, paused_until))``."""

    left: dict[str, int]
    at: int
    running: str | None
    paused_until: int | None = None


class SessionView(msgspec.Struct, frozen=True, kw_only=True):
    """The session as a client renders it: seats taken (in join order), whom the game waits for
    and since when, an open undo request or draw offer, the undone ranges (back_to, accepted_at),
    the end of the game, and the game's ``clock`` (null: none, or not started); an open
    ``pause_request``, the running pause (``paused``, kept until the first event after its end) and
    the days of pause each seat may still ask for (``pause_days_left``, correspondence games)."""

    seats: list[str]
    started: bool
    to_act: str | None
    waiting_since: int
    undo: UndoView | None
    draw: DrawView | None
    reverted: list[tuple[int, int]]
    last_roll: int
    finished: GameFinished | None
    clock: ClockView | None = None
    pause_request: PauseRequestView | None = None
    paused: PausedView | None = None
    pause_days_left: dict[str, int] = {}


class Snapshot(ServerMessage, frozen=True, kw_only=True, tag="snapshot"):
    """The effective state at ``version``, render-ready: the rules ``state`` (positions by unit id,
    turn, phase, pending decisions, victory points...; the map and units are in GET
    /api/scenarios/{id}) and the ``session``. Sent instead of events when a client misses many
    (``behind``) or an undo intervened (``undo``); events after ``version`` follow."""

    reason: Literal["behind", "undo"]
    version: int
    head: str
    state: msgspec.Raw
    session: SessionView


class UndoableCommand(msgspec.Struct, frozen=True, kw_only=True):
    """An effective command an undo request may take back (5.17): its record's version, the seat,
    how many dice it rolled, and the command in words."""

    version: int
    seat: str
    rolls: int
    text: str


class LastMove(msgspec.Struct, frozen=True, kw_only=True):
    unit: str
    path: list[str]


class LeaderView(msgspec.Struct, frozen=True, kw_only=True):
    """A Leader in play on the map (Grand Chancellorsville 23.5, rules/core/components/leaders.py): his
    ``id``, ``name``, ``side`` and ``stars``; the ``hex`` he is in; the ``unit`` he rides with (23.59;
    null while he stands in a hex on his own, 23.51) and whether he is ``alone`` (23.54: no combat unit
    of his side in his hex)."""

    id: str
    name: str
    side: str
    stars: int
    hex: str
    unit: str | None = None
    alone: bool = False


class PositionView(msgspec.Struct, frozen=True, kw_only=True):
    """The game at ``version`` as ``role`` (a seat, or null: a spectator) sees it, computed by the
    server from its own fold: the rules ``state`` (positions, turn, phase, the pending decisions,
    markers, victory points: as in a ``snapshot``), the ``session``, whether it is ``your_move``,
    ``digest`` (the rules state's, hex: a ``choices`` is for this board when it came after it),
    ``undo_detail`` (the actions an open undo request takes back, in words), ``undoable`` (a seat's
    view only: the latest effective commands, oldest first, that an undo request may go back
    before), ``last_move`` (the latest move, retreat or advance of this phase) and ``last_combat``
    (the latest ``combat_resolved`` of this phase, with its ``version``), ``declared`` (how the odds
    of the declared attack waiting for its die are built: ``rules.combat_choices.declared_breakdown``)
    and ``glance``, the battle
    at a glance (api/glance.py: the turn track, the Victory Point schedule and levels, the objective
    hexes and their holders, each side's points and losses). ``written_down`` (Road to Richmond
    17.62): to the player who wrote it down, and to everyone once the game is over, the units he
    wrote down to arrive later, with their Game-Turn; empty to anyone else. ``leaders`` (Grand
    Chancellorsville 23.5): the Leaders in play on the map, where each is (``api.views.leaders_on_map``).
    A client renders it as it
    is: it interprets no event."""

    version: int
    head: str
    digest: str
    role: str | None
    your_move: bool
    state: msgspec.Raw
    session: SessionView
    undo_detail: list[str] = []
    undoable: list[UndoableCommand] = []
    last_move: LastMove | None = None
    last_combat: dict | None = None
    glance: Glance | None = None
    declared: CombatBreakdown | None = None
    written_down: dict[str, int] = {}
    leaders: list[LeaderView] = []


class ViewOut(ServerMessage, frozen=True, kw_only=True, tag="view"):
    """To a connection that said ``view`` in its ``hello``: the game as it is at ``version``, sent at
    once and after every batch of events (``time``: the append time of the newest, ms): whole
    (``view``) on a connection's first, else as ``patch``, a JSON merge patch (RFC 7386: an object's
    members replaced, recursively; null removes one) of the view at version ``base`` that the
    connection has; and the game's record: keep the first ``record_keep`` lines of the record you
    have and append ``record`` (``record_keep`` 0 and the whole record on the first ``view`` of a
    connection). A line is [version, kind, seat, text] (replay/gamerecord.py): one per command with
    its result, one per session record; an accepted undo removes the lines of the commands it took
    back and adds its own."""

    version: int
    time: int
    view: PositionView | None = None
    base: int = 0
    patch: dict | None = None
    record_keep: int
    record: list[RecordLine]


class ChoicesOut(ServerMessage, frozen=True, kw_only=True, tag="choices"):
    """What the player to act may do at ``version`` (`rules.legal.Choices`): sent to that player
    after each change of the state, never to spectators."""

    version: int
    side: str
    choices: msgspec.Raw


class ReachOut(ServerMessage, frozen=True, kw_only=True, tag="reach"):
    """The answer to ``reach``: every hex ``unit`` may end its move in at ``version``, with the cost
    and a cheapest path (`rules.legal.Destination`), exactly as the rules accept them; when none,
    ``refused`` gives the rule's case and sentence. ``stops``: the destinations in an enemy zone of
    control, where the unit must stop (``stops_case``: classic 6.0, revised 7.0). A client drops a
    reach whose ``version`` is not that of its current choices."""

    version: int
    unit: str
    how: ReachHow
    destinations: dict[str, Destination]
    refused: Refusal | None = None
    stops: list[str] = []
    stops_case: str = ""


class CombatOut(ServerMessage, frozen=True, kw_only=True, tag="combat"):
    """The answer to ``combat``: how the odds of the attack asked about are built at ``version``
    (`rules.core.breakdown.CombatBreakdown`: each unit's strength with every modifier named with its
    case, the totals, the shifts, the column, the die modifier, what is still to come), or, when the
    declaration would be refused, ``refused`` (the rule's case and sentence). ``version`` as a
    ``reach``'s: a client drops an answer whose ``version`` is not that of its current choices."""

    version: int
    attackers: list[str]
    defenders: list[str]
    breakdown: CombatBreakdown | None = None
    refused: Refusal | None = None


class Ack(ServerMessage, frozen=True, kw_only=True, tag="ack"):
    """The action ``command_id`` is in the log at versions ``first``..``last``; ``duplicate``: it
    had been appended before (this is the original outcome)."""

    command_id: str
    first: int
    last: int
    duplicate: bool = False


class Error(ServerMessage, frozen=True, kw_only=True, tag="error"):
    """Something the client sent was not done. ``command_id`` when it answers an action; ``case``
    (the rule book's case) for ``illegal``; ``retry_after`` seconds when waiting helps; ``version``
    (the game's) for ``conflict`` and for a ``hello`` whose ``last_version`` is ahead of the log;
    ``missed`` for ``conflict``: the events after the client's ``seen``, consecutive, at most 100,
    with ``more`` true when the game went on past the last of them."""

    code: ErrorCode
    message: str
    command_id: str | None = None
    case: str | None = None
    retry_after: float | None = None
    version: int | None = None
    missed: list[EventOut] | None = None
    more: bool | None = None


class ReplayMarker(msgspec.Struct, frozen=True, kw_only=True):
    """A mark on the replay's time line: ``undone`` (versions ``first``..``last`` taken back by the
    undo accepted at ``at``) or ``player_turn`` (a player-turn began at ``first``; ``label``)."""

    kind: str
    first: int
    last: int
    at: int = 0
    label: str = ""


class ReplayFrame(ServerMessage, frozen=True, kw_only=True, tag="replay_frame"):
    """The game at ``version`` (a replay position), render-ready like a ``snapshot``: the rules
    ``state`` and ``session`` there; ``turn``, ``side``, ``phase`` where it falls; ``undone``: this
    version was taken back later (shown, but stepping skips it); ``last``: the newest version this
    connection may see (a spectator delay holds it back); ``playing``: a ``replay_play`` goes on;
    ``markers``: the time line's marks up to ``last``; ``declared``: as a ``view``'s, how the odds of
    the declared attack waiting for its die there are built; ``leaders``: as a ``view``'s, the Leaders
    on the map there."""

    version: int
    last: int
    turn: int
    side: str
    phase: str
    undone: bool
    playing: bool
    head: str
    state: msgspec.Raw
    session: SessionView
    markers: list[ReplayMarker]
    declared: CombatBreakdown | None = None
    leaders: list[LeaderView] = []


class ReplayFollowing(ServerMessage, frozen=True, kw_only=True, tag="replay_following"):
    """The replay is over: the connection follows the game live again (its live events never
    stopped); ``version``: the newest version it may see."""

    version: int


class ServerRestarting(ServerMessage, frozen=True, kw_only=True, tag="server_restarting"):
    """The server is stopping (SIGTERM, an upgrade): every action in flight was answered before this;
    the socket closes next (1012). Reconnect after ``retry_after`` seconds with the last version seen
    (to this server once it is back, or to another behind the same balancer)."""

    retry_after: float


ServerMessageType = Union[  # noqa: UP007
    Welcome, Events, Snapshot, ViewOut, ChoicesOut, ReachOut, CombatOut, Ack, Error, ReplayFrame, ReplayFollowing,
    ServerRestarting,
]  # fmt: skip


# -- decoding and encoding --------------------------------------------------------------------------
class ProtocolError(Exception):
    """A message the server answers with an `Error`."""

    def __init__(self, code: str, message: str, **fields) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.fields = fields

    def to_message(self, command_id: str | None = None) -> Error:
        return Error(code=self.code, message=self.message, command_id=command_id, **self.fields)


class _Tagged(msgspec.Struct):
    type: str


class _WithCommandId(msgspec.Struct):
    command_id: CommandId | None = None


_decoder = msgspec.json.Decoder(ClientMessageType)
_command_id_decoder = msgspec.json.Decoder(_WithCommandId)
_tag_decoder = msgspec.json.Decoder(_Tagged)
_encoder = msgspec.json.Encoder()
CLIENT_TAGS = frozenset(cls.__struct_config__.tag for cls in ClientMessageType.__args__)  # type: ignore[attr-defined]


def decode(data: bytes | str) -> ClientMessage:
    """The client message in `data`, or ProtocolError ``malformed`` / ``unknown_type`` naming the
    first thing wrong in our own words (rules/core/decoding.py), never msgspec's."""
    try:
        return _decoder.decode(data)
    except RecursionError:
        raise ProtocolError("malformed", "not a message: nested too deeply") from None
    except (msgspec.DecodeError, UnicodeDecodeError):  # a ValidationError is a DecodeError
        found = json_mismatch(data, ClientMessageType)
    if found.kind in ("not_utf8", "not_json"):
        raise ProtocolError("malformed", found.reason())
    if found.kind == "unknown_tag" and found.path == ("type",):
        raise ProtocolError("unknown_type", f"no message has type {found.got}")
    untyped = found.kind == "missing_field" and found.got == "type"
    if found.path == () and (untyped or found.kind in ("wrong_type", "too_deep", "unexplained")):
        raise ProtocolError("malformed", f"not a message: {found.reason()}")
    tag = _tag_decoder.decode(data).type
    raise ProtocolError("malformed", f"a {tag!r} message: {found.sentence()}")


def command_id_in(data: bytes | str) -> str | None:
    """The `command_id` of a message, read even when the rest of it does not decode (an error
    answering it echoes the id): None when there is no valid one (1-100 characters) to read."""
    try:
        return _command_id_decoder.decode(data).command_id
    except (msgspec.DecodeError, RecursionError, UnicodeDecodeError):
        return None


_RULES_TAGS = frozenset(cls.__struct_config__.tag for cls in COMMAND_TYPES)


def metric_type(message: ClientMessage | None) -> str:
    """A message's type for the metrics: its tag, a rules command's own type (``move``), and
    ``unreadable`` for what did not decode (a fixed, small set of labels)."""
    if message is None:
        return "unreadable"
    if isinstance(message, SendCommand):
        try:
            tag = _tag_decoder.decode(message.command).type
        except (msgspec.DecodeError, RecursionError, UnicodeDecodeError):
            return "command"
        return tag if tag in _RULES_TAGS else "command"
    return message.__struct_config__.tag


def encode(message: ServerMessage) -> bytes:
    return _encoder.encode(message)


def encode_event(envelope) -> bytes:
    """The `EventOut` JSON of one stored event (an `eventstore.envelope.Envelope`)."""
    return _encoder.encode(
        EventOut(
            version=envelope.version,
            type=envelope.type,
            schema=envelope.schema,
            actor=envelope.actor,
            command_id=envelope.command_id,
            time=envelope.time,
            digest=envelope.digest.hex(),
            hash=envelope.hash.hex(),
            data=msgspec.Raw(envelope.payload),
        )
    )


def events_message(encoded: list[bytes]) -> bytes:
    """An `Events` message from events already encoded by `encode_event` (each encoded once, sent
    to every socket)."""
    return b'{"type":"events","events":[' + b",".join(encoded) + b"]}"
