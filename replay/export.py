"""A game's log as a file: JSON Lines, one event envelope per line, in version order.

Each line is the envelope exactly as stored (`eventstore.envelope.Envelope` encoded by msgspec:
bytes fields in base64), so the chain, the digests and the dice of an exported game can be checked
offline (`bluegray verify FILE`). The game's id is in its first event, ``game_created``.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from eventstore.envelope import Envelope
from replay import records
from replay.records import GameCreated

_decoder = msgspec.json.Decoder(Envelope)


def dumps(envelopes: Iterable[Envelope]) -> bytes:
    """The JSON Lines text of `envelopes`."""
    return b"".join(msgspec.json.encode(e) + b"\n" for e in envelopes)


def loads(data: bytes) -> list[Envelope]:
    """The envelopes of a JSON Lines text (raises msgspec.DecodeError on a bad line, naming it)."""
    envelopes = []
    for n, line in enumerate(data.splitlines(), start=1):
        if line.strip():
            try:
                envelopes.append(_decoder.decode(line))
            except (UnicodeDecodeError, RecursionError) as exc:  # msgspec lets these through
                raise msgspec.DecodeError(f"line {n} is not an envelope: {exc}") from None
    return envelopes


def game_id_of(envelopes: list[Envelope]) -> str:
    """The game id named by the first event (``game_created``)."""
    if not envelopes or envelopes[0].type != "game_created":
        raise ValueError("the log does not begin with game_created")
    created = records.decode(envelopes[0].payload)
    assert isinstance(created, GameCreated)
    return created.game_id
