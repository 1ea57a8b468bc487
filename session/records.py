"""The session records: what a game's log holds besides the rules' own events.

A game's log interleaves two kinds of entries, both JSON payloads in event envelopes whose `type` is
the tag:
- rules events (`rules.core.events`: unit_moved, phase_began, ...), which change the game state;
- session records (this module): the game's creation and its dice commitment, seats taken, each
  accepted command (with the die rolls it used), undo requests and their answers, pause (vacation)
  requests, their answers and early resumptions, draw offers, chat and each seat's consent to show
  it to spectators, and the end of the game with the dice seed revealed (for a game of a
  tournament's duplicate pair, withheld in the end and revealed by a later ``seed_revealed``).

Like the rules' events they are frozen msgspec Structs, a tagged union on the field ``type`` with
explicit tag strings (never the class name) and a schema version ``schema``.

The log of a game always begins:
    1 game_created   (the rules version, scenario and its content hash, options, sha256 of the seed)
    2 seat_joined    (the creator's seat and dice nonce)
    3 seat_joined    (the other seat; play starts here)
then, for every accepted command, one ``command`` record followed by the rules events it caused (all
appended at once); and it ends with ``game_finished``, which reveals the seed and which nothing can
undo. A game of a duplicate pair (``GameCreated.dice_stream`` set) rolls the same dice as the pair's
other game, so its ``game_finished`` withholds the seed (``seed`` empty, ``seed_withheld`` the pair)
and the tournament director appends one more event, ``seed_revealed``, once both games of the pair
have ended: the only event ever after ``game_finished``.
"""

from __future__ import annotations

from typing import Literal, Union, cast

import msgspec

from rules.core.scenario import Side

UndoPolicy = Literal["consent", "none", "free-until-dice"]
DiceMode = Literal["fair", "insecure"]
FinishReason = Literal["rules", "resignation", "draw", "abandonment", "time", "aborted"]

DAY_SECONDS = 86_400


class ClockOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A game's clock (session/clock.py), kept from the times the store gives the events.

    - ``live``: each player has a bank of ``bank_seconds``, and ``increment_seconds`` more at the
      start of each of his Player-Turns; the clock of the seat the game waits for runs.
    - ``correspondence``: ``days_per_turn`` days for each Player-Turn in which a player must act
      (his own, or the opponent's when it waits for his decision); what is left does not carry over.

    A player whose time has run out may not act: his opponent may claim the game (``time``)."""

    mode: Literal["live", "correspondence"] = "live"
    bank_seconds: int = 0
    increment_seconds: int = 0
    days_per_turn: int = 0


class SessionOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The options of a game that are not rules: how undo works and who may see what when.

    - ``undo``: ``consent`` (the opponent must accept), ``none`` (tournament: never), or
      ``free-until-dice`` (casual: the requester's own actions since the last die roll and since
      the opponent last acted undo at once; any other undo needs consent).
    - ``undo_dice``: a house rule letting an undo by consent cross a die roll (5.14 forbids it).
    - ``spectator_delay``: spectators see the game this many events behind (0: live).
    - ``spectator_delay_phases``: spectators see the game this many phases behind: nothing of the
      current phase, nor of the N-1 phases before it (0: live). With both delays the larger holds.
    - ``silence_seconds``: a seat to act that stays silent this long lets the opponent claim the game.
    - ``clock``: the game's clock (`ClockOptions`), or None: no clock.
    """

    undo: UndoPolicy = "consent"
    undo_dice: bool = False
    spectator_delay: int = 0
    spectator_delay_phases: int = 0
    silence_seconds: int = 7 * DAY_SECONDS
    clock: ClockOptions | None = None


class Record(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every session record; never recorded itself."""

    schema: int = 1


class ForkedFrom(msgspec.Struct, frozen=True, kw_only=True):
    """A sandbox game's origin (replay/fork.py): the parent game, the version it was forked at, the
    hash of the parent's event at that version (hex), and the rules state there (``rules.core.state.encode``,
    base64 in JSON): the sandbox starts from that state, with a fresh dice seed."""

    game_id: str
    version: int
    head: str
    state: bytes


class GameCreated(Record, frozen=True, kw_only=True, tag="game_created"):
    """The first event of every game.

    ``seed_hash`` is SHA-256 (hex) of the secret dice seed; with ``dice == "insecure"`` the seed is
    fixed and shown in ``insecure_seed`` (hex): anyone can predict the rolls of such a game.
    ``scenario_hash`` pins the scenario's content (``rules.core.scenario.scenario_hash``); ``rules_version`` the rules
    code that created the game (``rules.RULES_VERSION``). ``fork``: set for a sandbox game branched
    from another game's history (a what-if); it starts from the state recorded there. ``rated``: the
    lobby started it as a rated game between two accounts (api/lobby.py): its result moves both
    players' ratings (api/rating_games.py), and the log, not a side key, says so.

    ``dice_stream`` and ``dice_nonces``: a game of a tournament's duplicate pair (tournaments/,
    api/tournaments.py) rolls the pair's dice, not its own: ``dice_stream`` (the pair's id) takes
    the place of the game id in every roll's HMAC message, and ``dice_nonces`` (the two players'
    tournament entry nonces, in the pair's order) the place of the seats' join nonces, so that both
    games of the pair, with the same seed (the same ``seed_hash``), roll identical dice at identical
    versions. None (every other game): the game id and the seats' nonces, as before; a field left
    None is not written, so no earlier event's bytes change."""

    game_id: str
    rules_version: str
    server_version: str
    scenario: str
    scenario_hash: str
    ruleset: str
    rules_options: dict[str, bool | int | str] = {}
    options: SessionOptions = SessionOptions()
    dice: DiceMode = "fair"
    seed_hash: str
    insecure_seed: str | None = None
    creator: Side
    fork: ForkedFrom | None = None  # a sandbox: where it was forked from (never counted as a result)
    rated: bool = False
    dice_stream: str | None = None
    dice_nonces: str | None = None


class SeatJoined(Record, frozen=True, kw_only=True, tag="seat_joined"):
    """A player took ``seat``; ``nonce`` is that player's dice nonce (session/dice.py)."""

    seat: Side
    nonce: str


class CommandApplied(Record, frozen=True, kw_only=True, tag="command"):
    """``seat`` gave ``command`` (the rules command, as JSON) and the rules accepted it; the rules
    events it caused follow this record, in the same append. ``rolls`` are the die rolls its
    decision used, in order: roll i is ``session.dice.roll(seed, game_id, <this version>, i, nonces)``."""

    seat: Side
    command: msgspec.Raw
    rolls: list[int] = []


class TakenBack(msgspec.Struct, frozen=True, kw_only=True):
    """One action an undo request takes back: its ``command`` record's version, seat and command."""

    version: int
    seat: Side
    command: msgspec.Raw
    rolls: int = 0


class UndoRequested(Record, frozen=True, kw_only=True, tag="undo_requested"):
    """``seat`` asks to take back every action after ``back_to`` (5.17): exactly ``takes_back``."""

    seat: Side
    back_to: int
    takes_back: list[TakenBack]


class UndoAccepted(Record, frozen=True, kw_only=True, tag="undo_accepted"):
    """The request at version ``request`` is granted: the effective history skips the range
    (``back_to``, this version]. ``seat`` is the opponent who consented, or None when the game's
    ``free-until-dice`` policy granted it without asking."""

    seat: Side | None
    request: int
    back_to: int


class UndoDeclined(Record, frozen=True, kw_only=True, tag="undo_declined"):
    seat: Side
    request: int


class UndoWithdrawn(Record, frozen=True, kw_only=True, tag="undo_withdrawn"):
    seat: Side
    request: int


class PauseRequested(Record, frozen=True, kw_only=True, tag="pause_requested"):
    """``seat`` asks to stop the game's correspondence clock for ``days`` days (session/pause.py)."""

    seat: Side
    days: int


class PauseAccepted(Record, frozen=True, kw_only=True, tag="pause_accepted"):
    """The opponent ``seat`` consents to the request at version ``request``: nobody's clock runs from
    this event's time for the days asked, or until a ``pause_resumed``."""

    seat: Side
    request: int


class PauseDeclined(Record, frozen=True, kw_only=True, tag="pause_declined"):
    seat: Side
    request: int


class PauseWithdrawn(Record, frozen=True, kw_only=True, tag="pause_withdrawn"):
    seat: Side
    request: int


class PauseResumed(Record, frozen=True, kw_only=True, tag="pause_resumed"):
    """``seat`` (either) ends the running pause before its agreed end: the clocks run again from this
    event's time."""

    seat: Side


class DrawOffered(Record, frozen=True, kw_only=True, tag="draw_offered"):
    """``seat`` offers a draw; it stands until answered or until a game action is appended."""

    seat: Side


class DrawDeclined(Record, frozen=True, kw_only=True, tag="draw_declined"):
    seat: Side
    request: int


class ChatSaid(Record, frozen=True, kw_only=True, tag="chat"):
    """``seat`` said ``text`` (1 to 500 characters). A line said while not both seats show their chat
    to spectators (`ChatShown`) is withheld from them: they get it with ``text`` empty (a line said is
    never empty), its place in the log and its hash kept (session/visibility.py)."""

    seat: Side
    text: str


class ChatShown(Record, frozen=True, kw_only=True, tag="chat_shown"):
    """``seat`` shows its chat to spectators (``shown``), or no longer does. A seat does not until
    it says so; a chat line reaches spectators only when both seats show theirs at the moment it is
    said, so each player knows, when he speaks, who hears him."""

    seat: Side
    shown: bool


def chat_open(shown: dict[str, bool]) -> bool:
    """Do both seats show their chat to spectators (`ChatShown`, folded into `shown`)?"""
    return shown.get("union", False) and shown.get("confederate", False)


class GameFinished(Record, frozen=True, kw_only=True, tag="game_finished"):
    """The last event of a game; nothing can undo it.

    - ``reason``: ``rules`` (the rules ended the game: its last Game-Turn or a sudden death),
      ``resignation``, ``draw`` (accepted), ``abandonment`` (a silent seat's game claimed), ``time`` (a seat's clock
      ran out and the opponent claimed the game) or ``aborted`` (an admin ended it: no winner, no rating;
      ``note`` says why).
    - ``by``: the seat that resigned, accepted the draw or claimed the game (None for ``rules`` and
      ``aborted``).
    - ``winner``: the winning side, None for a draw or when the rules name no winner.
    - ``result``: the level of victory as the rules state it (``State.result``), when they do.
    - ``vp``: victory points by side at the end.
    - ``seed``: the dice seed, revealed (hex): ``sha256(seed)`` is the first event's ``seed_hash``;
      empty when it is withheld (``seed_withheld``).
    - ``seed_withheld``: a game of a duplicate pair: the pair's id (the game's ``dice_stream``). Its
      seed is the seed of the pair's other game, which may still be played, so it is not revealed
      here but by a ``seed_revealed`` after both games have ended. None (every other game) is not
      written, so no earlier event's bytes change.
    """

    reason: FinishReason
    by: Side | None = None
    winner: Side | None = None
    result: str | None = None
    vp: dict[str, int] = {}
    seed: str
    note: str | None = None  # ``aborted``: the admin's reason
    seed_withheld: str | None = None


class SeedRevealed(Record, frozen=True, kw_only=True, tag="seed_revealed"):
    """The dice seed a duplicate pair's game withheld at its end (``GameFinished.seed_withheld``),
    revealed (hex) once both games of the pair have ended: appended after ``game_finished`` by the
    tournament director (api/tournament_director.py), the server as its actor; ``pair``: the pair's id."""

    pair: str
    seed: str


RecordType = Union[  # noqa: UP007 - a runtime union for msgspec
    GameCreated,
    SeatJoined,
    CommandApplied,
    UndoRequested,
    UndoAccepted,
    UndoDeclined,
    UndoWithdrawn,
    PauseRequested,
    PauseAccepted,
    PauseDeclined,
    PauseWithdrawn,
    PauseResumed,
    DrawOffered,
    DrawDeclined,
    ChatSaid,
    ChatShown,
    GameFinished,
    SeedRevealed,
]

RECORD_TYPES: dict[str, type[Record]] = {
    cls.__struct_config__.tag: cls for cls in RecordType.__args__  # type: ignore[attr-defined]
}

#: Records that are game actions: appending one lapses a pending undo request or draw offer.
GAME_ACTIONS = frozenset({"command", "undo_accepted", "game_finished"})

_decoder = msgspec.json.Decoder(RecordType)
_encoder = msgspec.json.Encoder()


#: How a game_created without a duplicate pair's dice ends; left out, it is byte for byte what it was
#: before the fields existed (msgspec writes every field; these two are the struct's last).
_NO_DICE_STREAM = b',"dice_stream":null,"dice_nonces":null}'
#: The same for a game_finished whose seed is not withheld (every game but a duplicate pair's).
_NOT_WITHHELD = b',"seed_withheld":null}'


def encode(record: Record) -> bytes:
    """A record's payload (JSON). A game_created whose ``dice_stream`` and ``dice_nonces`` are
    None is written without them, and a game_finished whose ``seed_withheld`` is None without it."""
    data = _encoder.encode(record)
    if type(record) is GameCreated and data.endswith(_NO_DICE_STREAM):
        data = data[: -len(_NO_DICE_STREAM)] + b"}"
    elif type(record) is GameFinished and data.endswith(_NOT_WITHHELD):
        data = data[: -len(_NOT_WITHHELD)] + b"}"
    return data


def decode(data: bytes) -> Record:
    """A record from its payload (raises msgspec.ValidationError when malformed)."""
    return _decoder.decode(data)


def tag(record_type: type[Record]) -> str:
    return cast(str, record_type.__struct_config__.tag)  # every record's tag is a string

