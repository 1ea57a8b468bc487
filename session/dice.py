"""Dice that nobody can doubt (DESIGN.md "Dice").

At game creation the server draws a secret `seed` and records only `seed_hash(seed)` in the first
event; each seat sends a random nonce when it takes its seat, recorded in its join event. The die
rolls of the command recorded at version `v` are, for i = 0, 1, 2, ...:

    roll(seed, game_id, v, i, nonces) where
    message = f"{game_id}:{v}:{i}:{nonces}"     nonces: the seats' nonces in join order, joined by ":"
    block_k = HMAC-SHA256(seed, message)             for k = 0
            = HMAC-SHA256(seed, f"{message}#{k}")    for k = 1, 2, ... (never needed in practice)
    the first byte b of block_0, block_1, ... with b < 252 gives the roll 1 + b % 6

(rejection sampling: 252 = 42 x 6, so each face has probability exactly 1/6). The seed is revealed
in the final event of every ended game, and anyone can then re-derive every roll
(`bluegray verify`). A game may instead use an explicitly insecure fixed seed (tests, sandboxes):
its first event says so and shows the seed.

>>> seed = bytes(32)
>>> [roll(seed, "g1", 7, i, "n1:n2") for i in range(4)]
[4, 5, 2, 3]
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence

SEED_BYTES = 32

#: The seed of games created with the insecure fixed-seed option and no seed of their own.
INSECURE_SEED = hashlib.sha256(b"bluegray/insecure-fixed-seed").digest()

_NONCE = re.compile(r"[A-Za-z0-9_-]{8,128}")
_ACCEPT = 252  # the largest multiple of 6 not above 256


def new_seed() -> bytes:
    """A fresh secret seed (32 random bytes from the OS)."""
    return secrets.token_bytes(SEED_BYTES)


def new_nonce() -> str:
    """A random nonce, for a seat whose client sent none."""
    return secrets.token_urlsafe(16)


def seed_hash(seed: bytes) -> str:
    """The commitment recorded in a game's first event: SHA-256 of the seed, hex."""
    return hashlib.sha256(seed).hexdigest()


def valid_nonce(nonce: str) -> bool:
    """A nonce is 8 to 128 characters of A-Z a-z 0-9 _ - (so that ":" can join them)."""
    return bool(_NONCE.fullmatch(nonce))


def nonce_string(nonces: Sequence[str]) -> str:
    """The seats' nonces as they enter the HMAC message: in join order, joined by ":"."""
    return ":".join(nonces)


def roll(seed: bytes, game_id: str, version: int, index: int, nonces: str) -> int:
    """Roll `index` (from 0) of the command recorded at `version`: 1..6."""
    message = f"{game_id}:{version}:{index}:{nonces}".encode()
    k = 0
    while True:
        block = hmac.digest(seed, message if k == 0 else message + b"#%d" % k, "sha256")  # one-shot HMAC-SHA256
        for b in block:
            if b < _ACCEPT:
                return 1 + b % 6
        k += 1


def rolls(seed: bytes, game_id: str, version: int, nonces: str, n: int) -> list[int]:
    """The first `n` rolls of the command recorded at `version`."""
    return [roll(seed, game_id, version, i, nonces) for i in range(n)]


class Dice:
    """The die of one command: a callable for `rules.reducer.decide` that remembers its rolls.

    `Dice(seed, game_id, version, nonces)()` returns roll 0, then roll 1, ...; `rolls` lists them.
    `known`: the first rolls, already derived from the same seed (`rolls`), not derived again."""

    __slots__ = ("seed", "game_id", "version", "nonces", "rolls", "known")

    def __init__(self, seed: bytes, game_id: str, version: int, nonces: str, known: Sequence[int] = ()) -> None:
        self.seed = seed
        self.game_id = game_id
        self.version = version
        self.nonces = nonces
        self.rolls: list[int] = []
        self.known = known

    def __call__(self) -> int:
        i = len(self.rolls)
        value = self.known[i] if i < len(self.known) else roll(self.seed, self.game_id, self.version, i, self.nonces)
        self.rolls.append(value)
        return value
