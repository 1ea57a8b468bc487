"""A game's log as a file: JSON Lines, one event envelope per line, in version order.

Each line is the envelope exactly as stored (`eventstore.envelope.Envelope` encoded by msgspec:
bytes fields in base64), so the chain, the digests and the dice of an exported game can be checked
offline (`bluegray verify FILE`). The game's id is in its first event, ``game_created``.

A game on a scenario that does not ship with the package (one saved from the editor or imported:
scenarios/library.py) carries it: the first line is then ``{"scenario_document": {...}}``, the whole
scenario as one file (scenarios/document.py), so the game replays, verifies and imports exactly on
another server.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from eventstore.envelope import Envelope
from rules.core.decoding import json_mismatch
from session import records
from session.records import GameCreated

_decoder = msgspec.json.Decoder(Envelope)


CARRIED = b'{"scenario_document":'


class _Carried(msgspec.Struct, forbid_unknown_fields=True):
    scenario_document: msgspec.Raw


def dumps(envelopes: Iterable[Envelope], scenario_document: bytes | None = None) -> bytes:
    """The JSON Lines text of `envelopes`, after the scenario document they play on when given."""
    head = b""
    if scenario_document is not None:
        head = msgspec.json.encode(_Carried(msgspec.Raw(msgspec.json.encode(msgspec.json.decode(scenario_document))))) + b"\n"
    return head + b"".join(msgspec.json.encode(e) + b"\n" for e in envelopes)


def carried_scenario(data: bytes) -> bytes | None:
    """The scenario document (JSON) an exported log carries on its first line, or None."""
    first = data.lstrip().split(b"\n", 1)[0]
    if not first.startswith(CARRIED):
        return None
    try:
        return bytes(msgspec.json.decode(first, type=_Carried).scenario_document)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        found = json_mismatch(first, _Carried)
    raise msgspec.DecodeError(f"line 1 is not a scenario document: {found.sentence()}")


def loads(data: bytes) -> list[Envelope]:
    """The envelopes of a JSON Lines text (raises msgspec.DecodeError on a bad line, naming it); a
    carried scenario document (first line) is skipped (`carried_scenario`)."""
    envelopes = []
    for n, line in enumerate(data.splitlines(), start=1):
        if n == 1 and line.startswith(CARRIED):
            continue
        if line.strip():
            try:
                envelopes.append(_decoder.decode(line))
            except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):  # msgspec lets the last two through
                found = json_mismatch(line, Envelope)
                raise msgspec.DecodeError(f"line {n} is not an envelope: {found.sentence()}") from None
    return envelopes


def game_id_of(envelopes: list[Envelope]) -> str:
    """The game id named by the first event (``game_created``)."""
    if not envelopes or envelopes[0].type != "game_created":
        raise ValueError("the log does not begin with game_created")
    created = records.decode(envelopes[0].payload)
    assert isinstance(created, GameCreated)
    return created.game_id
