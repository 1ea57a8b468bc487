"""The hash chain's encoding (eventstore/envelope.py): every stored game's head hash depends on it, so
its bytes never change. Two hashes pinned as the first implementation computed them, and the hash
beside the module's own description of the encoding, item by item."""

from __future__ import annotations

import hashlib

from eventstore.envelope import GENESIS, chain_hash

FIELDS = [
    dict(prev=GENESIS, version=1, type="game_created", schema=1, payload=b"\x81\xa1a\x01", actor="",
         command_id="", time=1_700_000_000_000, digest=b""),
    dict(prev=bytes(range(32)), version=12345, type="unit_moved", schema=2, payload=b"x" * 300,
         actor="union", command_id="c-\u00e9", time=1_700_000_000_123, digest=bytes(32)),
]


def described(f: dict) -> bytes:
    """The module docstring's encoding: the domain tag, then each field framed by its 8-byte length."""
    h = hashlib.sha256()
    for item in (b"bluegray/event/1", f["prev"], str(f["version"]).encode(), f["type"].encode(),
                 str(f["schema"]).encode(), f["payload"], f["actor"].encode(), f["command_id"].encode(),
                 str(f["time"]).encode(), f["digest"]):
        h.update(len(item).to_bytes(8, "big"))
        h.update(item)
    return h.digest()


def test_the_chain_hash_is_pinned():
    assert chain_hash(**FIELDS[0]).hex() == "f642da6f41a8724114e9c6f17126a92a4cff8dec012c628b63d809346366f1a1"
    assert chain_hash(**FIELDS[1]).hex() == "61de6024b99de280199eba21fcbfd5480958b21a579bc745bfd859263907f445"


def test_the_chain_hash_is_the_described_encoding():
    for f in FIELDS:
        assert chain_hash(**f) == described(f)
