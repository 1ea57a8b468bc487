"""What a spectator may see of a running game: the one rule every path uses (the live broadcast
in api/live/following.py and api/live/spectators.py, GET /api/games/{id} in api/games.py, the
replay cursor, export, report and forks in api/replaying.py).

Two things are held back from spectators: the latest events, under the game's spectator delay
(`visible_version`), and the chat lines said while the two seats did not both show their chat
(records.ChatShown; the fold lists them in ``session.withheld``). A withheld line reaches a
spectator as a placeholder (`withheld_copy`): the same envelope, version, time and hash, its payload
a ``chat`` of the same seat with empty text (a line said is never empty). The versions run on
unbroken and every later event still links to the line's hash; only that one hash cannot be
recomputed from what the spectator holds (replay/verify.py takes it as given).
"""

from __future__ import annotations

import msgspec

from eventstore.envelope import Envelope
from session import records
from session.history import History
from session.records import ChatSaid


def visible_version(history: History, delay: int) -> int:
    """The last version spectators may see: `delay` events behind the game once play has started,
    and, if the game was created with ``spectator_delay_phases`` N, no later than the end of the
    phase N phases back; the creation and the seats are shown at once, everything once the game is
    over."""
    created = history.session.created
    phases = created.options.spectator_delay_phases if created is not None else 0
    if (delay <= 0 and phases <= 0) or history.finished is not None:
        return history.version
    floor = min(history.version, history.session.start or history.version)
    seen = history.version - max(delay, 0)
    if phases > 0:
        ends = phase_ends(history)
        seen = min(seen, ends[-phases] if len(ends) >= phases else floor)
    return max(seen, floor)


def delayed(history: History) -> bool:
    """Does the game hold spectators back at all (a delay in events or in phases)?"""
    created = history.session.created
    return created is not None and (created.options.spectator_delay > 0 or created.options.spectator_delay_phases > 0)


def phase_ends(history: History) -> list[int]:
    """The last version of each effective command that ended a phase, oldest first."""
    return [c.last for c in history.session.commands if c.command.startswith(_END_PHASE)]


_END_PHASE = b'{"type":"end_phase"'


def seen_by(history: History, seat: str | None) -> int:
    """The last version `seat` (None: a spectator) may see of `history` (folded to its head), under
    the game's own spectator delay."""
    if seat is not None:
        return history.version
    created = history.session.created
    return visible_version(history, created.options.spectator_delay if created is not None else 0)


def listing(history: History, view: History | None = None) -> dict[str, int | str]:
    """The fields of the game index (GET /api/games lists games from them without folding any).

    `status`, `to_act` and `waiting_since` are the game's own (a seat silent past `silence` seconds
    lets the opponent claim the game, and it is listed as waiting); `flag_at`, in a game with a
    clock, the time (ms) the clock of the seat to act runs out unless it acts (0: none; session/clock.py),
    after which it is listed as waiting too. For a game with a spectator
    delay, `shown_version` and `shown_to_act` are what spectators may see: `view` is the history
    folded to `visible_version` (None: the game holds nobody back, or `history` is what they see);
    the list shows those, never the game's head. Without a delay the list takes the version from
    the log's meta, which is always current, so nothing here changes with every event. A finished game
without a delay also has `winner` ("" for none) and `result` (the level of victory, else the reason
it ended)."""
    s = history.session
    assert s.created is not None  # a game listed was created
    fields: dict[str, int | str] = {
        "status": "finished" if s.finished else ("active" if s.started else "open"),
        "to_act": s.to_act or "",
        "waiting_since": s.waiting_since,
        "silence": s.created.options.silence_seconds,
        "flag_at": s.clock_at + s.clocks[s.to_act] if s.to_act in s.clocks and s.finished is None else 0,
    }
    if s.finished is not None and not delayed(history):  # how it ended (a delayed game's end waits)
        fields["winner"] = s.finished.winner or ""
        aborted = s.finished.reason == "aborted"  # an admin's abort: no result, whatever the state says
        fields["result"] = "aborted" if aborted else s.finished.result or s.finished.reason
    if delayed(history):
        shown = view if view is not None else history
        fields["shown_version"] = shown.version
        fields["shown_to_act"] = shown.session.to_act or ""
    return fields


def withheld_copy(envelope: Envelope) -> Envelope:
    """The placeholder a spectator gets for a withheld chat line (see the module documentation)."""
    said = records.decode(envelope.payload)
    assert isinstance(said, ChatSaid)
    return msgspec.structs.replace(envelope, payload=records.encode(ChatSaid(seat=said.seat, text="")))


def is_withheld_copy(envelope: Envelope) -> bool:
    """Is this a placeholder of a withheld chat line (a ``chat`` whose text is empty)?"""
    if envelope.type != "chat":
        return False
    try:
        said = records.decode(envelope.payload)
    except msgspec.ValidationError:
        return False
    return isinstance(said, ChatSaid) and said.text == ""


def for_spectators(history: History, envelopes: list[Envelope]) -> list[Envelope]:
    """`envelopes` of the game `history` is folded from (to at least their last version), as a
    spectator may have them: each withheld chat line replaced by its placeholder."""
    withheld = set(history.session.withheld)
    return [withheld_copy(e) if e.version in withheld else e for e in envelopes]
