"""The dice of a duplicate pair, committed before anyone enters and revealed at the end.

Each pairing of a duplicate-pair tournament is two games between the same two players with the
sides swapped; both roll the SAME dice, so that the luck of one game is the luck of the other and
cancels over the pair. The rolls of a game are `session.dice.roll(seed, stream, version, i, nonces)`;
for both games of a pair:

- ``seed`` = HMAC-SHA256(master, f"pair:{pair_id}"), where ``master`` is the tournament's secret
  master seed, drawn when the tournament is created; its SHA-256 (`commitment`) is in the
  tournament's first event, before anyone enters, and the master itself in its last event, so
  that anyone can re-derive every pair's seed and check it against each game's ``seed_hash``;
- ``stream`` = the pair's id (``GameCreated.dice_stream``), in place of the game id;
- ``nonces`` = the two players' entry nonces, in the pair's order (first player, second player),
  joined by ":" (``GameCreated.dice_nonces``), in place of the seats' nonces in join order.

So game 1 and game 2 of a pair roll identical dice at identical versions, and the server, which
drew the master before it saw any entry nonce, cannot have chosen a pair's dice.

The pair's seed stays secret until both of its games have ended: each ends with a ``game_finished``
that withholds it (``seed_withheld``, session/records.py), and the director appends ``seed_revealed``
to both once the second has ended (api/tournament_director.py `reveal`), so that the first game to
end does not tell the players of the other every die roll still to come in theirs.

What this does not hide: a player plays both games of his pair, so the rolls he has seen in one are
the rolls the other will give at the same versions. For engines (the bots a tournament is meant for
first) this changes nothing; between people, playing both games at the same pace keeps it small
(docs/PROTOCOL.md, "Tournaments").
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence

from session.dice import SEED_BYTES, nonce_string

_PAIR_ID = re.compile(r"[A-Za-z0-9_.-]{1,100}")


def new_master() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(master: bytes) -> str:
    """What the tournament's first event records: SHA-256 of the master seed, hex."""
    return hashlib.sha256(master).hexdigest()


def pair_seed(master: bytes, pair_id: str) -> bytes:
    """The dice seed of both games of the pair `pair_id`."""
    if not _PAIR_ID.fullmatch(pair_id):
        raise ValueError(f"bad pair id {pair_id!r}: 1 to 100 of A-Z a-z 0-9 _ . -")
    return hmac.digest(master, f"pair:{pair_id}".encode(), "sha256")


def pair_nonces(first: str, second: str) -> str:
    """The nonce string of a pair's games: the first player's entry nonce, then the second's."""
    return nonce_string([first, second])


def check(master_hex: str, committed: str, pairs: Sequence[tuple[str, str]]) -> list[str]:
    """What is wrong with a revealed master seed: against the commitment, and against each
    ``(pair_id, seed_hash)`` its games recorded. Empty: all of it checks."""
    try:
        master = bytes.fromhex(master_hex)
    except ValueError:
        return ["the revealed master seed is not hexadecimal"]
    problems = []
    if commitment(master) != committed:
        problems.append("the revealed master seed is not the one committed (sha256 differs)")
    for pair_id, seed_hash in pairs:
        if hashlib.sha256(pair_seed(master, pair_id)).hexdigest() != seed_hash:
            problems.append(f"pair {pair_id}: its games' seed is not HMAC(master, 'pair:{pair_id}')")
    return problems
