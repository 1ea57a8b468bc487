"""Seat tokens and invite codes: random, stored only as hashes, compared in constant time.

A game's creator gets his own seat's token and one invite code for the other seat; the invite works
once, and the joiner gets that seat's token. Nobody ever receives another seat's token. The hashes
live beside the game's other keys (same hash tag): ``{g:<id>}:seats``, fields ``token:<seat>``,
``invite`` and ``invite_seat``; ``account:<seat>``, the account a signed-in player took the seat with
(any of his browsers may then take it by its session, without the token); ``rating_applied`` once a
rated game's result has moved the ratings.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from eventstore.store import RedisEventStore


def new_token() -> str:
    """A seat token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def new_invite() -> str:
    """An invite code: 144 random bits, URL-safe (it travels in a URL fragment)."""
    return secrets.token_urlsafe(18)


def hashed(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


class Seats:
    """The seat tokens and the invite of each game, in the event store's Redis."""

    def __init__(self, store: RedisEventStore) -> None:
        self.store = store
        self.redis = store.redis

    def key(self, game_id: str) -> str:
        info = self.store.keys(game_id).info
        return info[: -len("info")] + "seats"

    async def create(self, game_id: str, seat: str, token: str, invite_seat: str, invite: str) -> None:
        await self.redis.hset(
            self.key(game_id),
            mapping={f"token:{seat}": hashed(token), "invite": hashed(invite), "invite_seat": invite_seat},
        )

    async def use_invite(self, game_id: str, invite: str) -> str | None:
        """The seat the invite is for, if `invite` is the game's unused invite; it is used up now."""
        key = self.key(game_id)
        stored, seat = await self.redis.hmget(key, ["invite", "invite_seat"])
        if stored is None or seat is None or not hmac.compare_digest(stored, hashed(invite)):
            return None
        if not await self.redis.hdel(key, "invite"):  # only the first of two racing joiners wins
            return None
        return seat.decode()

    async def give_token(self, game_id: str, seat: str, token: str) -> None:
        await self.redis.hset(self.key(game_id), f"token:{seat}", hashed(token))

    async def seat_of(self, game_id: str, token: str) -> str | None:
        """The seat whose token `token` is in this game, or None (every seat compared)."""
        fields = await self.redis.hgetall(self.key(game_id))
        offered = hashed(token)
        found = None
        for name, value in fields.items():
            name = name.decode()
            if name.startswith("token:") and hmac.compare_digest(value, offered):
                found = name.removeprefix("token:")
        return found

    async def bind(self, game_id: str, seat: str, account_id: str) -> None:
        """The seat is the account's (accounts/store.py)."""
        await self.redis.hset(self.key(game_id), f"account:{seat}", account_id)

    async def accounts(self, game_id: str) -> dict[str, str]:
        """Each bound seat's account id."""
        fields = await self.redis.hgetall(self.key(game_id))
        return {
            name.decode().removeprefix("account:"): value.decode()
            for name, value in fields.items()
            if name.startswith(b"account:")
        }

    async def seat_of_account(self, game_id: str, account_id: str) -> str | None:
        """The seat of this game the account took, or None (the first, if he holds both)."""
        for seat, holder in sorted((await self.accounts(game_id)).items()):
            if hmac.compare_digest(holder, account_id):
                return seat
        return None

    async def claim_rating(self, game_id: str) -> bool:
        """True once for a game: the caller rates it (api/rating_games.py); never twice."""
        return bool(await self.redis.hsetnx(self.key(game_id), "rating_applied", 1))
