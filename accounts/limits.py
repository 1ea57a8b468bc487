"""The limit on failed log-ins: per account and per address, each counted over `window` seconds from
its first failure (a counter with an expiry in the store, so every server process shares it).

Past the limit, a log-in is refused before its password is checked, with the seconds until the
window ends; a successful log-in clears its account's count (not its address's).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class LoginLimit:
    per_account: int = 5
    per_address: int = 20
    window: int = 15 * 60


class LoginLimits:
    def __init__(self, redis, prefix: str = "", limit: LoginLimit = LoginLimit()) -> None:
        self.redis = redis
        self.prefix = prefix
        self.limit = limit

    def _account(self, account_id: str) -> str:
        return f"{self.prefix}{{a:{account_id}}}:failures"

    def _address(self, address: str) -> str:
        return f"{self.prefix}login-failures:{hashlib.sha256(address.encode()).hexdigest()[:32]}"

    async def refusal(self, account_id: str | None, address: str) -> int | None:
        """Seconds to wait if the account or the address has failed too often, else None."""
        checks = [(self._address(address), self.limit.per_address)]
        if account_id is not None:
            checks.append((self._account(account_id), self.limit.per_account))
        wait = None
        for key, most in checks:
            count = await self.redis.get(key)
            if count is not None and int(count) >= most:
                ttl = await self.redis.ttl(key)
                wait = max(wait or 0, ttl if ttl > 0 else self.limit.window)
        return wait

    async def failed(self, account_id: str | None, address: str) -> None:
        keys = [self._address(address)] + ([self._account(account_id)] if account_id is not None else [])
        for key in keys:
            if await self.redis.incr(key) == 1:
                await self.redis.expire(key, self.limit.window)

    async def succeeded(self, account_id: str) -> None:
        await self.redis.delete(self._account(account_id))
