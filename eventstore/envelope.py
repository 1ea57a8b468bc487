"""The event envelope and its hash chain.

Every event in a game's log is an `Envelope`: the opaque payload the rules encoded, plus what the
store needs to keep the log honest. `hash` is SHA-256 over a canonical, length-framed encoding of
every other field and the previous event's hash, so changing, dropping or reordering any event
changes every later hash, and the head hash (published to players, written in exports) pins the
whole history.

The encoding hashed, in this order, each item framed as an 8-byte big-endian length and its bytes:
  the domain tag b"bluegray/event/1", prev, version, type, schema, payload, actor, command_id, time,
  digest
where integers are decimal ASCII and strings UTF-8. The first event's `prev` is 32 zero bytes.
"""

from __future__ import annotations

import hashlib
import struct

import msgspec

GENESIS = bytes(32)
"""The `prev` of a game's first event."""

_DOMAIN = b"bluegray/event/1"


class NewEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event to append, as the caller knows it: the store adds version, time, prev and hash.

    `digest` is the digest of the canonical game state after this event; the game server computes
    it (the store knows nothing of the rules). `actor` is the seat that caused it ("" for the server
    itself) and `command_id` the client command it answers ("" for none).
    """

    type: str
    payload: bytes
    schema: int = 1
    actor: str = ""
    command_id: str = ""
    digest: bytes = b""


class Envelope(msgspec.Struct, frozen=True, kw_only=True):
    """One stored event. `time` is milliseconds since the Unix epoch, taken by the appending process."""

    version: int
    type: str
    schema: int
    payload: bytes
    actor: str
    command_id: str
    time: int
    digest: bytes
    prev: bytes
    hash: bytes

    def expected_hash(self) -> bytes:
        """The hash this envelope's fields imply (equal to `hash` unless it was tampered with)."""
        return chain_hash(
            prev=self.prev,
            version=self.version,
            type=self.type,
            schema=self.schema,
            payload=self.payload,
            actor=self.actor,
            command_id=self.command_id,
            time=self.time,
            digest=self.digest,
        )


def chain_hash(
    *,
    prev: bytes,
    version: int,
    type: str,
    schema: int,
    payload: bytes,
    actor: str,
    command_id: str,
    time: int,
    digest: bytes,
) -> bytes:
    """SHA-256 over the canonical length-framed encoding of an envelope's fields and `prev`."""
    v, c, tm = b"%d" % version, command_id.encode(), b"%d" % time
    return _sha256(
        b"".join(  # one call: the same bytes as an update per item (a verify hashes every event: spelt out)
            (
                _FRAMED_DOMAIN,
                _length(len(prev)), prev,
                _length(len(v)), v,
                _framed(type),
                _framed(b"%d" % schema),
                _length(len(payload)), payload,
                _framed(actor),
                _length(len(c)), c,
                _length(len(tm)), tm,
                _length(len(digest)), digest,
            )
        )
    ).digest()


def _framed(item: str | bytes) -> bytes:
    """An item of few values (an event type, an actor, a schema number) with its length before it,
    kept once made."""
    framed = _FRAMED.get(item)
    if framed is None:
        data = item.encode() if isinstance(item, str) else item
        framed = _length(len(data)) + data
        if len(_FRAMED) < 4096:
            _FRAMED[item] = framed
    return framed


_FRAMED: dict[str | bytes, bytes] = {}


_length = struct.Struct(">Q").pack  # an item's 8-byte big-endian length
_FRAMED_DOMAIN = _length(len(_DOMAIN)) + _DOMAIN
_sha256 = hashlib.sha256


def seal(event: NewEvent, *, version: int, time: int, prev: bytes) -> Envelope:
    """The envelope of `event` stored at `version` after an event whose hash is `prev`."""
    e = event
    hash_ = chain_hash(
        version=version, type=e.type, schema=e.schema, payload=e.payload, actor=e.actor,
        command_id=e.command_id, time=time, digest=e.digest, prev=prev,
    )
    return Envelope(
        version=version, type=e.type, schema=e.schema, payload=e.payload, actor=e.actor,
        command_id=e.command_id, time=time, digest=e.digest, prev=prev, hash=hash_,
    )
