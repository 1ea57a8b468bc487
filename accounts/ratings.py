"""Players' ratings and each battle's balance, in the store (the arithmetic is ratings/glicko2.py).

- ``{a:<id>}:ratings``: a hash: ``<ruleset>`` (the player's rating under that rule set),
  ``<ruleset>:<scenario>`` (on that battle) and ``<ruleset>:<scenario>:<side>`` (on that battle as
  that side) -> the Rating's JSON, with his games counted;
- ``leaderboard:<ruleset>:<scenario>``: a sorted set, account id -> conservative rating;
- ``balance:<ruleset>:<scenario>``: a hash: ``games``, ``union`` (wins), ``draws`` of the finished
  rated games, from which the Union's expected score against an equal opponent is measured.
"""

from __future__ import annotations

import msgspec

from ratings.glicko2 import Rating, conservative


class Rated(msgspec.Struct, frozen=True, kw_only=True):
    """One rating: Glicko-2's rating, deviation and volatility, and the games it counts."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06
    games: int = 0

    def glicko(self) -> Rating:
        return Rating(self.rating, self.deviation, self.volatility)


class Balance(msgspec.Struct, frozen=True, kw_only=True):
    """A battle's finished rated games: how many, the Union's wins, the draws."""

    games: int = 0
    union: int = 0
    draws: int = 0

    def union_win_rate(self) -> float:
        """The Union's expected score against an equal opponent, measured: (wins + draws/2 + 1) /
        (games + 2) (Laplace's rule: a battle with no games yet is taken as even)."""
        return (self.union + self.draws / 2 + 1) / (self.games + 2)


class Ratings:
    def __init__(self, redis, prefix: str = "") -> None:
        self.redis = redis
        self.prefix = prefix

    def _key(self, account_id: str) -> str:
        return f"{self.prefix}{{a:{account_id}}}:ratings"

    def _board(self, ruleset: str, scenario: str) -> str:
        return f"{self.prefix}leaderboard:{ruleset}:{scenario}"

    def _balance(self, ruleset: str, scenario: str) -> str:
        return f"{self.prefix}balance:{ruleset}:{scenario}"

    async def of(self, account_id: str) -> dict[str, Rated]:
        """Every rating of the account, by ``<ruleset>``, ``<ruleset>:<scenario>`` and ``<ruleset>:<scenario>:<side>``."""
        fields = await self.redis.hgetall(self._key(account_id))
        return {k.decode(): msgspec.json.decode(v, type=Rated) for k, v in fields.items()}

    async def get(self, account_id: str, which: str) -> Rated:
        raw = await self.redis.hget(self._key(account_id), which)
        return Rated() if raw is None else msgspec.json.decode(raw, type=Rated)

    async def put(self, account_id: str, which: str, rated: Rated, ruleset: str, scenario: str) -> None:
        await self.redis.hset(self._key(account_id), which, msgspec.json.encode(rated))
        if which == f"{ruleset}:{scenario}":  # a battle's rating: its leaderboard
            await self.redis.zadd(self._board(ruleset, scenario), {account_id: conservative(rated.glicko())})

    async def leaderboard(self, ruleset: str, scenario: str, limit: int) -> list[tuple[str, float]]:
        found = await self.redis.zrevrange(self._board(ruleset, scenario), 0, limit - 1, withscores=True)
        return [(member.decode(), score) for member, score in found]

    async def balance(self, ruleset: str, scenario: str) -> Balance:
        fields = await self.redis.hgetall(self._balance(ruleset, scenario))
        return Balance(**{k.decode(): int(v) for k, v in fields.items()})

    async def count_result(self, ruleset: str, scenario: str, winner: str | None) -> None:
        key = self._balance(ruleset, scenario)
        await self.redis.hincrby(key, "games", 1)
        if winner is None:
            await self.redis.hincrby(key, "draws", 1)
        elif winner == "union":
            await self.redis.hincrby(key, "union", 1)
