"""Accounts and their sessions in the store's Redis. Every key of one account is under one hash
tag, so a cluster serves them unchanged; only the name index is a key of its own:

- ``{a:<id>}:account``: a hash: ``name``, ``password`` (the Argon2id hash), ``created``, ``kind``
  (``player`` or ``bot``), ``disabled``, ``admin`` (granted only by `bluegray admin grant`);
- ``{a:<id>}:sessions``: a hash: sha256 of a session's secret -> its JSON (expiry, CSRF token);
- ``{a:<id>}:bot``: a bot account's hash: ``owner`` (the player who made it) and ``token`` (the
  sha256 of its one API token: ``bgb_<id>.<secret>``, shown once);
- ``{a:<id>}:games``: a sorted set: the games the account holds a seat in, by when he took it (ms);
- ``{a:<id>}:blocks``: a set: the ids of the accounts this one blocks (api/moderation.py);
- ``accounts:names``: a hash: a name's skeleton (accounts/names.py) -> the account's id.

A session cookie is ``<account id>.<secret>``: the id says where the session is, the secret (256
random bits) is stored only as its sha256, so a copy of the store cannot be used to sign in.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

import msgspec

from accounts.names import check_name, skeleton

SESSION_SECONDS = 30 * 24 * 3600  # a session lasts 30 days from its log-in
ACCOUNT_ID = "0123456789abcdef"
BOT_TOKEN = "bgb_"  # a bot's API token begins so (a seat token never does: they are never confused)


class NameTaken(Exception):
    """The name, or one that looks the same, is another account's."""


class Account(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    created: int
    kind: str = "player"
    disabled: bool = False
    admin: bool = False


class Session(msgspec.Struct, frozen=True, kw_only=True):
    expires: int
    csrf: str


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def split_cookie(cookie: str) -> tuple[str, str] | None:
    """(account id, secret) of a session cookie's value, or None if it cannot be one."""
    account_id, dot, secret = cookie.partition(".")
    if (
        not dot
        or len(account_id) != 16
        or any(c not in ACCOUNT_ID for c in account_id)
        or not 20 <= len(secret) <= 100
    ):
        return None
    return account_id, secret


class Accounts:
    """The accounts of one server (its key `prefix`) in `redis`."""

    def __init__(self, redis, prefix: str = "") -> None:
        self.redis = redis
        self.prefix = prefix
        self.names = f"{prefix}accounts:names"

    def key(self, account_id: str, what: str) -> str:
        return f"{self.prefix}{{a:{account_id}}}:{what}"

    async def register(self, name: str, password_hash: str, kind: str = "player") -> Account:
        """A new account named `name`; NameTaken if that name's skeleton is another's. The name is
        claimed first (HSETNX), so of two racing registrations one wins; a claim whose account was
        never written (a crash between the two writes) is taken over."""
        check_name(name)
        account = Account(id=secrets.token_hex(8), name=name, created=int(time.time()), kind=kind)
        look = skeleton(name)
        if not await self.redis.hsetnx(self.names, look, account.id):
            holder = await self.redis.hget(self.names, look)
            if holder is not None and await self.redis.exists(self.key(holder.decode(), "account")):
                raise NameTaken(name)
            await self.redis.hset(self.names, look, account.id)
        await self.redis.hset(
            self.key(account.id, "account"),
            mapping={
                "name": name,
                "password": password_hash,
                "created": account.created,
                "kind": kind,
                "disabled": 0,
            },
        )
        return account

    async def get(self, account_id: str) -> Account | None:
        fields = await self.redis.hgetall(self.key(account_id, "account"))
        if not fields:
            return None
        return Account(
            id=account_id,
            name=fields[b"name"].decode(),
            created=int(fields[b"created"]),
            kind=fields[b"kind"].decode(),
            disabled=fields[b"disabled"] == b"1",
            admin=fields.get(b"admin") == b"1",
        )

    async def find(self, name: str) -> tuple[Account, str] | tuple[None, None]:
        """The account named `name` (the same letters, in any case) and its password hash."""
        holder = await self.redis.hget(self.names, skeleton(name))
        if holder is None:
            return None, None
        account = await self.get(holder.decode())
        if account is None or account.name.casefold() != name.casefold():
            return None, None
        return account, (await self.redis.hget(self.key(account.id, "account"), "password")).decode()

    async def password_hash(self, account_id: str) -> str | None:
        stored = await self.redis.hget(self.key(account_id, "account"), "password")
        return None if stored is None else stored.decode()

    async def set_password(self, account_id: str, password_hash: str) -> None:
        await self.redis.hset(self.key(account_id, "account"), "password", password_hash)

    async def set_disabled(self, account_id: str, disabled: bool) -> None:
        await self.redis.hset(self.key(account_id, "account"), "disabled", int(disabled))

    async def set_admin(self, account_id: str, admin: bool) -> None:
        await self.redis.hset(self.key(account_id, "account"), "admin", int(admin))

    # -- blocks ----------------------------------------------------------------------------------

    async def block(self, blocker_id: str, blocked_id: str) -> None:
        await self.redis.sadd(self.key(blocker_id, "blocks"), blocked_id)

    async def unblock(self, blocker_id: str, blocked_id: str) -> bool:
        """Whether the block was there."""
        return bool(await self.redis.srem(self.key(blocker_id, "blocks"), blocked_id))

    async def blocked(self, blocker_id: str) -> set[str]:
        """The ids of the accounts `blocker_id` blocks."""
        return {m.decode() for m in await self.redis.smembers(self.key(blocker_id, "blocks"))}

    async def blocks(self, blocker_id: str, blocked_id: str) -> bool:
        return bool(await self.redis.sismember(self.key(blocker_id, "blocks"), blocked_id))

    async def add_game(self, account_id: str, game_id: str) -> None:
        await self.redis.zadd(self.key(account_id, "games"), {game_id: time.time_ns() // 1_000_000}, nx=True)

    async def games(self, account_id: str, offset: int, limit: int) -> tuple[list[str], int | None]:
        """A page of the account's games, newest first, and the offset of the next page (or None)."""
        ids = await self.redis.zrevrange(self.key(account_id, "games"), offset, offset + limit)
        more = len(ids) > limit
        return [i.decode() for i in ids[:limit]], (offset + limit if more else None)

    # -- bots ------------------------------------------------------------------------------------

    async def new_bot_token(self, bot_id: str, owner_id: str) -> str:
        """A new API token for the bot (any older one stops working): ``bgb_<id>.<secret>``."""
        secret = secrets.token_urlsafe(32)
        await self.redis.hset(self.key(bot_id, "bot"), mapping={"owner": owner_id, "token": _digest(secret)})
        return f"{BOT_TOKEN}{bot_id}.{secret}"

    async def bot_owner(self, bot_id: str) -> str | None:
        owner = await self.redis.hget(self.key(bot_id, "bot"), "owner")
        return None if owner is None else owner.decode()

    async def bot(self, token: str) -> Account | None:
        """The bot account whose API token `token` is, if it is live and the bot not disabled."""
        parts = split_cookie(token.removeprefix(BOT_TOKEN)) if token.startswith(BOT_TOKEN) else None
        if parts is None:
            return None
        stored = await self.redis.hget(self.key(parts[0], "bot"), "token")
        if stored is None or not hmac.compare_digest(stored.decode(), _digest(parts[1])):
            return None
        account = await self.get(parts[0])
        return None if account is None or account.disabled or account.kind != "bot" else account

    # -- sessions --------------------------------------------------------------------------------

    async def open_session(self, account_id: str, seconds: int = SESSION_SECONDS) -> tuple[str, Session]:
        """A new session of the account: (the cookie's value, the session). Expired ones are
        dropped now."""
        secret = secrets.token_urlsafe(32)
        session = Session(expires=int(time.time()) + seconds, csrf=secrets.token_urlsafe(24))
        key = self.key(account_id, "sessions")
        await self._drop_expired(key)
        await self.redis.hset(key, _digest(secret), msgspec.json.encode(session))
        return f"{account_id}.{secret}", session

    async def session(self, cookie: str) -> tuple[Account, Session] | None:
        """The account and session of a cookie's value, if it is a live session of an account not
        disabled."""
        parts = split_cookie(cookie)
        if parts is None:
            return None
        account_id, secret = parts
        raw = await self.redis.hget(self.key(account_id, "sessions"), _digest(secret))
        if raw is None:
            return None
        session = msgspec.json.decode(raw, type=Session)
        if session.expires <= time.time():
            return None
        account = await self.get(account_id)
        if account is None or account.disabled:
            return None
        return account, session

    async def close_session(self, cookie: str) -> None:
        parts = split_cookie(cookie)
        if parts is not None:
            await self.redis.hdel(self.key(parts[0], "sessions"), _digest(parts[1]))

    async def close_other_sessions(self, cookie: str) -> int:
        """End every session of the cookie's account but the cookie's own; how many ended."""
        parts = split_cookie(cookie)
        if parts is None:  # no session's cookie: no other session to end
            return 0
        account_id, secret = parts
        key = self.key(account_id, "sessions")
        others = [
            field
            for field in await self.redis.hkeys(key)
            if not hmac.compare_digest(field, _digest(secret).encode())
        ]
        return await self.redis.hdel(key, *others) if others else 0

    async def close_all_sessions(self, account_id: str) -> None:
        await self.redis.delete(self.key(account_id, "sessions"))

    async def _drop_expired(self, key: str) -> None:
        now = time.time()
        stale = [
            field
            for field, raw in (await self.redis.hgetall(key)).items()
            if msgspec.json.decode(raw, type=Session).expires <= now
        ]
        if stale:
            await self.redis.hdel(key, *stale)
