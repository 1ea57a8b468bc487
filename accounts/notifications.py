"""What a player chose to be told, and how (kept under his account's hash tag, accounts/store.py):
``{a:<id>}:notify`` holds the settings' JSON, ``{a:<id>}:muted`` the games he asked to hear nothing
of. The webhook's secret is the server's, made when a webhook is first set and shown only to him."""

from __future__ import annotations

import re
import secrets
from typing import Annotated, Literal

import msgspec

EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,255}$")
WEBHOOK = re.compile(r"^https?://[^\s]{1,2000}$")
MAX_REMIND_HOURS = 24 * 14


class Settings(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """``email`` (an address or none); ``email_mode``: ``each`` (a mail at every move that waits
    for him), ``digest`` (at most one mail a day, listing every game waiting for him) or ``off``;
    ``webhook``: a URL that receives a signed JSON POST at every move that waits for him
    (Discord and Slack webhooks read it); ``webhook_secret``: the HMAC key of its signatures;
    ``browser``: notify in an open tab (the web client reads it); ``remind_hours``: in a
    correspondence game, one reminder per Player-Turn when less than this many hours are left on his
    clock (0: none; api/reminders.py)."""

    email: Annotated[str, msgspec.Meta(max_length=320)] | None = None
    email_mode: Literal["each", "digest", "off"] = "digest"
    webhook: Annotated[str, msgspec.Meta(max_length=2000)] | None = None
    webhook_secret: str | None = None
    browser: bool = True
    remind_hours: Annotated[int, msgspec.Meta(ge=0, le=MAX_REMIND_HOURS)] = 24


class SettingsRefused(ValueError):
    pass


def checked(new: Settings, old: Settings) -> Settings:
    """`new` as it will be kept: the address and URL checked, the webhook secret kept (or made for
    a first webhook); a client never sets the secret."""
    if new.email is not None and not EMAIL.match(new.email):
        raise SettingsRefused(f"email: {new.email!r} is not an e-mail address")
    if new.webhook is not None and not WEBHOOK.match(new.webhook):
        raise SettingsRefused("webhook: an http:// or https:// URL")
    secret = old.webhook_secret or (secrets.token_hex(32) if new.webhook else None)
    return msgspec.structs.replace(new, webhook_secret=secret)


class Notifications:
    def __init__(self, redis, prefix: str = "") -> None:
        self.redis = redis
        self.prefix = prefix

    def key(self, account_id: str, what: str) -> str:
        return f"{self.prefix}{{a:{account_id}}}:{what}"

    async def settings(self, account_id: str) -> Settings:
        raw = await self.redis.get(self.key(account_id, "notify"))
        return Settings() if raw is None else msgspec.json.decode(raw, type=Settings)

    async def save(self, account_id: str, settings: Settings) -> Settings:
        kept = checked(settings, await self.settings(account_id))
        await self.redis.set(self.key(account_id, "notify"), msgspec.json.encode(kept))
        return kept

    async def mute(self, account_id: str, game_id: str, muted: bool) -> None:
        key = self.key(account_id, "muted")
        await (self.redis.sadd(key, game_id) if muted else self.redis.srem(key, game_id))

    async def muted(self, account_id: str, game_id: str) -> bool:
        return bool(await self.redis.sismember(self.key(account_id, "muted"), game_id))

    async def first_mail_today(self, account_id: str) -> bool:
        """True once a day (the digest's): the first call in 24 hours."""
        return bool(await self.redis.set(self.key(account_id, "mailed"), 1, nx=True, ex=24 * 3600))
