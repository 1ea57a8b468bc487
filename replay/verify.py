"""Verifying a game: the hash chain, every state digest, and every die roll.

`verify(game_id, envelopes)` checks, in one pass over the whole log:
1. the chain: versions 1, 2, ... each linked to the hash of the one before, each hash matching its
   envelope's contents (but a chat line withheld from spectators, whose text a spectator's copy
   lacks: session/visibility.py; a note says how many);
2. the fold: the log folds (session/history.py), the rules state after every event has the
   digest that event recorded, and every field the fold derives (the actor of each event, the
   seat of each command, the reason, winner, result and victory points of ``game_finished``) is
   what the fold of the log before it gives (replay/derived.py: `Report.mismatch` names the first
   that is not);
3. the dice, once the seed is known (revealed by ``game_finished``, or for a duplicate pair's game,
   whose ``game_finished`` withholds it, by the ``seed_revealed`` after it; or shown by an insecure
   game's ``game_created``): sha256(seed) is the committed ``seed_hash``; every ``command`` record's rolls
   are re-derived from the seed (session/dice.py); and the command, decided again with those dice on
   the state before it, gives exactly the rules events that follow it in the log.

A game still running cannot have its rolls checked (its seed is secret): the report says so, unless
the caller holds the seed (an operator's `bluegray upgrade-check` reads it from the store: `seed`).
Nor can a finished game of a duplicate pair whose seed is still withheld (the pair's other game has
not ended): the report says "dice seed withheld until the pair's other game ends" (`seed_withheld`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import msgspec

from eventstore.envelope import GENESIS, Envelope
from replay import derived
from replay.derived import DerivedFieldMismatch
from rules import RULES_VERSION
from rules.core import events as rules_events
from rules.core.commands import AnyCommand
from rules.core.commands import decode as decode_command
from rules.core.decoding import json_mismatch
from rules.core.errors import RuleViolation
from rules.reducer import decide
from session import dice as dice_module
from session import records
from session.games import GameCache
from session.history import History, HistoryError, decode_entry
from session.records import CommandApplied, GameCreated, GameFinished, Record, SeedRevealed
from session.visibility import is_withheld_copy


class Mismatch(msgspec.Struct, kw_only=True):
    """A derived field the log states otherwise than its fold gives (replay/derived.py): the event's
    version and type, the field, and both values (as Python writes them)."""

    version: int
    type: str
    field: str
    recorded: str
    derived: str


class Report(msgspec.Struct, kw_only=True):
    """What `verify` found. ``ok`` when there is no problem; ``dice_checked`` when the seed was
    known and every roll was re-derived."""

    game_id: str
    ok: bool = False
    events: int = 0
    version: int = 0
    head: str = ""
    commands: int = 0
    rolls: int = 0
    finished: bool = False
    reason: str | None = None
    result: str | None = None
    dice: str = "fair"
    dice_checked: bool = False
    rules_version: str = ""
    scenario_matches: bool = True
    problems: list[str] = []
    notes: list[str] = []
    mismatch: Mismatch | None = None  # the first derived field that differs, when one does
    seed: str | None = None  # the dice seed (hex), once revealed (or shown by an insecure game)
    seed_hash: str = ""  # its commitment in game_created
    #: A duplicate pair's game that ended with its seed withheld, not revealed since: the pair's id.
    seed_withheld: str = ""
    dice_stream: str = ""  # what stands for the game in the rolls' HMAC: its id, or a duplicate pair's
    dice_nonces: str = ""  # the nonce string of the rolls (a duplicate pair's, or the seats' in join order)
    #: The version and type of the event at which the fold (or a decision made again) first departs
    #: from the log (0, "": it does not).
    differs_at: int = 0
    differs_type: str = ""


def _seed(envelopes: list[Envelope]) -> tuple[bytes | None, GameCreated | None]:
    created = finished = revealed = None
    for e in envelopes:
        if e.type == "game_created" and created is None:
            created = records.decode(e.payload)
        elif e.type == "game_finished":
            finished = records.decode(e.payload)
        elif e.type == "seed_revealed":
            revealed = records.decode(e.payload)
    if isinstance(finished, GameFinished) and finished.seed:
        return bytes.fromhex(finished.seed), created
    if isinstance(finished, GameFinished) and isinstance(revealed, SeedRevealed):
        return bytes.fromhex(revealed.seed), created
    if isinstance(created, GameCreated) and created.dice == "insecure" and created.insecure_seed:
        return bytes.fromhex(created.insecure_seed), created
    return None, created if isinstance(created, GameCreated) else None


def _withheld(envelopes: list[Envelope]) -> bool:
    """Did the game end with its seed withheld for its duplicate pair (and no seed_revealed since)?"""
    last = envelopes[-1] if envelopes else None
    return last is not None and last.type == "game_finished" and records.decode(last.payload).seed_withheld is not None


def _record_of(envelope: Envelope) -> Record | None:
    if envelope.type not in records.RECORD_TYPES:
        return None
    try:
        return decode_entry(envelope)
    except msgspec.ValidationError:
        return None


def chain_problem(envelopes: list[Envelope]) -> str | None:
    """The first break in a log's hash chain (versions 1, 2, ... each linked to the one before, each
    hash matching its contents), or None when it is whole."""
    prev = GENESIS
    for i, e in enumerate(envelopes, start=1):
        if e.version != i:
            return f"version {e.version} where {i} was expected"
        if e.prev != prev:
            return f"version {i} does not link to the hash of the event before it"
        if e.expected_hash() != e.hash and not is_withheld_copy(e):
            return f"version {i}: its hash does not match its contents"
        prev = e.hash
    return None


def verify(game_id: str, envelopes: Iterable[Envelope], games: GameCache | None = None,
           seed: bytes | None = None) -> Report:
    """Check one game's whole log (see the module documentation); `seed`: a running game's secret
    seed, so that its rolls and decisions are checked too."""
    games = games or GameCache()
    envelopes = list(envelopes)
    report = Report(game_id=game_id, events=len(envelopes))
    problems = report.problems

    # 1. The chain.
    if not _chain_whole(envelopes, report):
        return report

    # The seed, if it may be known.
    found = _created(game_id, envelopes, games, seed, report)
    if found is None:
        return report
    created, seed = found
    seed = _seed_checked(envelopes, created, seed, report)

    # 2 and 3. The fold, every digest, every roll and every decision.
    history = History(game_id, games)
    before_fold = len(problems)
    e = _fold(game_id, envelopes, history, seed, report)
    if len(problems) > before_fold and e is not None:
        report.differs_at, report.differs_type = e.version, e.type
    _conclude(history, report)
    return report


def _chain_whole(envelopes: list[Envelope], report: Report) -> bool:
    """The chain checked (a problem when it breaks: False), its version and head, and a note of the chat
    lines withheld from spectators."""
    broken = chain_problem(envelopes)
    if broken:
        report.problems.append(broken)
        return False
    report.version = len(envelopes)
    report.head = (envelopes[-1].hash if envelopes else GENESIS).hex()
    hidden = sum(1 for e in envelopes if is_withheld_copy(e) and e.expected_hash() != e.hash)
    if hidden:
        report.notes.append(
            f"{hidden} chat line(s) withheld from spectators: their hashes are taken as given (the events "
            "after each still link to it)"
        )
    return True


def _created(game_id: str, envelopes: list[Envelope], games: GameCache, seed: bytes | None,
             report: Report) -> tuple[GameCreated, bytes | None] | None:
    """The game_created record and the seed (revealed, or the caller's), the report's fields of the
    game created; None (and a problem) when they cannot be read or its scenario loaded."""
    problems = report.problems
    try:
        revealed, created = _seed(envelopes)
        seed = revealed if revealed is not None else seed
    except (msgspec.ValidationError, ValueError):  # ValueError: a seed that is not hexadecimal
        problems.append("an unreadable session record: game_created, game_finished or seed_revealed does not decode")
        return None
    if created is None:
        problems.append("the log does not begin with game_created")
        return None
    report.dice = created.dice
    report.seed_hash = created.seed_hash
    report.dice_stream = created.dice_stream or game_id
    report.rules_version = created.rules_version
    if created.rules_version != RULES_VERSION:
        report.notes.append(
            f"the game was played under rules {created.rules_version}, this is rules {RULES_VERSION}: "
            "a decision the rules changed since would show as a problem"
        )
    try:
        report.scenario_matches = games.matches(created)
    except Exception as exc:  # noqa: BLE001 - an unknown scenario is a finding, not a crash
        problems.append(f"scenario {created.scenario!r} cannot be loaded: {exc}")
        return None
    if not report.scenario_matches:
        report.notes.append(f"the scenario {created.scenario!r} changed since the game was created")
    return created, seed


def _seed_checked(envelopes: list[Envelope], created: GameCreated, seed: bytes | None,
                  report: Report) -> bytes | None:
    """The seed if it is the one committed in game_created (else a problem, and None); a note when it is
    withheld or secret."""
    if seed is not None:
        if hashlib.sha256(seed).hexdigest() != created.seed_hash:
            report.problems.append(
                "the revealed seed is not the one committed in game_created (sha256 differs)"
            )
            seed = None
        else:
            report.dice_checked = True
            report.seed = seed.hex()
    elif _withheld(envelopes):
        report.seed_withheld = created.dice_stream or ""
        report.notes.append(
            f"dice seed withheld until the pair's other game ends (duplicate pair {report.seed_withheld}): "
            "its rolls cannot be checked yet"
        )
    else:
        report.notes.append(
            "the game is not over: its dice seed is secret, so its rolls cannot be checked yet"
        )
    return seed


#: What `_applied` and `_command` answer when the fold stops (a problem is written).
_STOP = object()


def _fold(game_id: str, envelopes: list[Envelope], history: History, seed: bytes | None,
          report: Report) -> Envelope | None:
    """Fold the log checking every digest, every derived field and, with the seed, every roll and
    decision; the envelope the fold stopped at (the last one when it did not stop)."""
    problems = report.problems
    expected: list | None = None  # the rules events the current command must be followed by
    e = None
    for e in envelopes:
        if expected is not None and e.type in records.RECORD_TYPES:
            if expected:
                problems.append(f"version {e.version}: the command before it should have caused more events")
                break
            expected = None
        state_before = history.state
        # the event the command decided, when the payload is its very encoding: not decoded again
        decided = expected[0] if expected and rules_events.encode(expected[0]) == e.payload else None
        item = _applied(history, e, decided, report)
        if item is _STOP:
            break
        if isinstance(item, CommandApplied):
            expected = _command(game_id, history, state_before, item, seed, e.version, expected, report)
            if expected is _STOP:
                break
        elif not isinstance(item, Record) and expected is not None:
            if not expected or expected.pop(0) != item:
                problems.append(f"version {e.version}: not the event the command decides with these dice")
                break
    else:
        if expected:
            problems.append("the last command should have caused more events")
    return e


def _applied(history: History, e: Envelope, decided, report: Report):
    """One envelope folded, its derived fields checked first: the item the fold gives, or `_STOP` (and
    a problem, with the mismatch) when the fold departs from the log."""
    record = _record_of(e)  # None: a rules event, or a record the fold finds unreadable
    try:
        if record is not None or e.type not in records.RECORD_TYPES:
            derived.check(history, e, record)
        return history.apply(e, check_digest=True, decoded=record or decided)
    except DerivedFieldMismatch as exc:
        report.problems.append(str(exc))
        report.mismatch = Mismatch(
            version=exc.version,
            type=exc.event_type,
            field=exc.field,
            recorded=repr(exc.recorded),
            derived=repr(exc.derived),
        )
        return _STOP
    except HistoryError as exc:
        report.problems.append(str(exc))
        return _STOP


def _command(game_id: str, history: History, state_before, item: CommandApplied, seed: bytes | None,
             version: int, expected: list | None, report: Report):
    """A command counted with its rolls; with the seed, the rules events it decides again
    (`_STOP` when its rolls or decision differ); without, `expected` as it was."""
    report.commands += 1
    report.rolls += len(item.rolls)
    if seed is None:
        return expected
    expected = _redecide(game_id, history, state_before, item, seed, version, report.problems)
    if expected is None:
        report.dice_checked = False
        return _STOP
    return expected


def _conclude(history: History, report: Report) -> None:
    """The report's last fields: dice checked only without a problem, the nonces, the end, ok."""
    if report.problems:
        report.dice_checked = False
    if history.session.created is not None:
        report.dice_nonces = history.dice_nonces()
    finished = history.finished
    report.finished = finished is not None
    if finished is not None:
        report.reason, report.result = finished.reason, finished.result
    report.ok = not report.problems


def _redecide(game_id, history, state_before, item: CommandApplied, seed, version, problems) -> list | None:
    """The rules events the command at `version` decides with the dice the seed gives; None (and a
    problem) when its recorded rolls or the decision differ."""
    stream, nonces = history.dice_stream(), history.dice_nonces()
    derived = dice_module.rolls(seed, stream, version, nonces, len(item.rolls))
    if derived != list(item.rolls):
        problems.append(f"version {version}: rolls {list(item.rolls)} recorded, the seed gives {derived}")
        return None
    rolled = dice_module.Dice(seed, stream, version, nonces, known=derived)  # the same rolls, not derived twice
    try:
        events = decide(state_before, decode_command(bytes(item.command)), rolled)
    except RuleViolation as exc:
        problems.append(f"version {version}: the command is refused when decided again: {exc}")
        return None
    except msgspec.ValidationError:
        found = json_mismatch(bytes(item.command), AnyCommand)
        problems.append(f"version {version}: the recorded command does not decode: {found.sentence()}")
        return None
    if rolled.rolls != list(item.rolls):
        problems.append(
            f"version {version}: the decision used {len(rolled.rolls)} rolls, {len(item.rolls)} recorded"
        )
        return None
    return list(events)
