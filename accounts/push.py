"""A player's Web Push subscriptions (kept under his account's hash tag, accounts/store.py):
``{a:<id>}:push`` is a hash from each subscription's endpoint to its JSON. A browser gives one per
device (`PushSubscription.toJSON()`: the push service's endpoint and the keys its messages are
encrypted to, RFC 8291); api/push.py sends to them and forgets one the push service says is gone."""

from __future__ import annotations

import base64
import re
from typing import Annotated

import msgspec

ENDPOINT = re.compile(r"^https?://[^\s]{1,2000}$")
MAX_SUBSCRIPTIONS = 10  # devices per account


class PushKeys(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``p256dh``: the browser's P-256 public key (65 bytes, uncompressed), ``auth``: its 16-byte
    authentication secret; both base64url, as the browser gives them."""

    p256dh: Annotated[str, msgspec.Meta(max_length=200)]
    auth: Annotated[str, msgspec.Meta(max_length=100)]


class Subscription(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=False):
    """POST /api/me/push: a browser's push subscription (``endpoint``, ``keys``); other fields a
    browser adds (``expirationTime``) are ignored."""

    endpoint: Annotated[str, msgspec.Meta(max_length=2000)]
    keys: PushKeys


class Unsubscribe(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """DELETE /api/me/push: the ``endpoint`` of the subscription to forget."""

    endpoint: Annotated[str, msgspec.Meta(max_length=2000)]


class SubscriptionRefused(ValueError):
    pass


def b64url(text: str) -> bytes:
    """Base64url (padded or not) decoded; ValueError when it is not."""
    if not re.fullmatch(r"[A-Za-z0-9_-]*={0,2}", text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))


def checked(sub: Subscription) -> Subscription:
    """`sub` if it is one a push service could take, else SubscriptionRefused naming the field."""
    if not ENDPOINT.match(sub.endpoint):
        raise SubscriptionRefused("endpoint: an http:// or https:// URL")
    try:
        key = b64url(sub.keys.p256dh)
    except ValueError:
        key = b""
    if len(key) != 65 or key[0] != 4:
        raise SubscriptionRefused("keys.p256dh: a P-256 public key, 65 bytes uncompressed, in base64url")
    try:
        auth = b64url(sub.keys.auth)
    except ValueError:
        auth = b""
    if len(auth) != 16:
        raise SubscriptionRefused("keys.auth: 16 bytes in base64url")
    return sub


class PushSubscriptions:
    def __init__(self, redis, prefix: str = "") -> None:
        self.redis = redis
        self.prefix = prefix

    def key(self, account_id: str) -> str:
        return f"{self.prefix}{{a:{account_id}}}:push"

    async def add(self, account_id: str, sub: Subscription) -> None:
        """Keep `sub` (checked) for the account; the same endpoint again replaces it."""
        checked(sub)
        key = self.key(account_id)
        if len(await self.redis.hkeys(key)) >= MAX_SUBSCRIPTIONS and not await self.redis.hexists(key, sub.endpoint):
            raise SubscriptionRefused(f"endpoint: at most {MAX_SUBSCRIPTIONS} devices per account; remove one first")
        await self.redis.hset(key, sub.endpoint, msgspec.json.encode(sub))

    async def remove(self, account_id: str, endpoint: str) -> bool:
        return bool(await self.redis.hdel(self.key(account_id), endpoint))

    async def all(self, account_id: str) -> list[Subscription]:
        found = await self.redis.hvals(self.key(account_id))
        return sorted((msgspec.json.decode(raw, type=Subscription) for raw in found), key=lambda s: s.endpoint)
