"""A tournament's events: its log, in the same store as the games (api/tournaments.py keeps it).

    1 tournament_created   the terms and the master seed's commitment (tournaments/dice.py)
      entered              a player entered, with his dice nonce (one event each)
      started              entries closed: the players, in entry order
      round_paired         a round's pairings, each with its game ids, the bye, the deadline
      game_result          a game of the round ended (or was decided at the deadline)
      round_finished       every game of the round has a result
      ...                  (the next round_paired, ...)
      tournament_finished  the standings, and the master seed revealed

Frozen msgspec Structs, a tagged union on ``type`` with explicit tags, and a ``schema`` number, as
the games' own records (session/records.py).
"""

from __future__ import annotations

from typing import Literal, Union

import msgspec

from session.records import ClockOptions
from tournaments.standings import Placing

Kind = Literal["round_robin", "swiss"]


class Record(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    schema: int = 1


class TournamentCreated(Record, frozen=True, kw_only=True, tag="tournament_created"):
    """The terms: ``kind``, ``duplicate`` (each pairing two games, sides swapped, the same dice),
    the battle and rule set, the games' clock, ``rounds`` (Swiss; a round robin has as many as its
    players need), ``max_players``, ``round_seconds`` (each round's deadline after its pairing),
    ``rated``, the ``creator`` (an account id, shown as ``creator_name``), and ``seed_hash``: SHA-256 of the master seed."""

    tournament_id: str
    name: str
    kind: Kind
    duplicate: bool
    scenario: str
    ruleset: str
    clock: ClockOptions | None = None
    rounds: int = 0
    max_players: int
    round_seconds: int
    rated: bool = False
    creator: str
    creator_name: str
    seed_hash: str


class Entered(Record, frozen=True, kw_only=True, tag="entered"):
    """A player (account id ``player``, shown as ``name``) entered; ``nonce``: his dice nonce."""

    player: str
    name: str
    nonce: str


class Started(Record, frozen=True, kw_only=True, tag="started"):
    players: list[str]  # in entry order


class GameRef(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    union: str
    confederate: str


class Pairing(msgspec.Struct, frozen=True, kw_only=True):
    """Two players' meeting in a round: ``first`` and ``second`` (pairing order), its games (one,
    or two sides swapped in a duplicate pair), and ``pair_id``, the dice stream of a pair's games."""

    pair_id: str
    first: str
    second: str
    games: list[GameRef]


class RoundPaired(Record, frozen=True, kw_only=True, tag="round_paired"):
    round: int  # 1, 2, ...
    pairings: list[Pairing]
    bye: str | None = None
    deadline: int  # ms since the epoch


class GameResult(Record, frozen=True, kw_only=True, tag="game_result"):
    """A game of round ``round`` ended: the winning side (None: a draw, or nobody), how it ended
    (the game's own ``reason``, or ``double_loss``: nobody moved before the deadline), and each
    side's Victory Points."""

    round: int
    game_id: str
    winner: str | None = None
    reason: str
    vp: dict[str, int] = {}


class RoundFinished(Record, frozen=True, kw_only=True, tag="round_finished"):
    round: int


class TournamentFinished(Record, frozen=True, kw_only=True, tag="tournament_finished"):
    standings: list[Placing]
    master_seed: str  # hex: sha256 of it is tournament_created's seed_hash


RecordType = Union[  # noqa: UP007 - a runtime union for msgspec
    TournamentCreated, Entered, Started, RoundPaired, GameResult, RoundFinished, TournamentFinished
]
RECORD_TYPES: dict[str, type[Record]] = {
    cls.__struct_config__.tag: cls for cls in RecordType.__args__  # type: ignore[attr-defined]
}

_decoder = msgspec.json.Decoder(RecordType)
_encoder = msgspec.json.Encoder()


def encode(record: Record) -> bytes:
    return _encoder.encode(record)


def decode(data: bytes) -> Record:
    return _decoder.decode(data)


def tag(record: Record) -> str:
    """The record's ``type``: every record class sets its tag as a string."""
    return str(record.__struct_config__.tag)
