"""The moderation queue: players' reports of chat lines, in the store (api/moderation.py takes
them and shows them to admins).

A report names one chat line by its game and its version in the log (which is immutable, so what
was said there is what the admin reads), the account that reported it, a reason and when. One hash,
``moderation:reports`` (a few thousand entries at most), field ``<game>:<version>:<account id>``:
an account reporting the same line twice makes one report (HSETNX), whatever the second reason.

Reporting is limited per account (`ReportLimit`): a counter under the account's hash tag with an
expiry, as accounts/limits.py counts failed log-ins.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import msgspec


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """One report: the line (``game_id``, ``version``, the ``seat`` that said it and its ``text``),
    who reported it (``by``: the account's name; ``by_id``), ``reason`` and ``created`` (ms)."""

    id: str
    game_id: str
    version: int
    seat: str
    text: str
    by: str
    by_id: str
    reason: str
    created: int


@dataclass(frozen=True, kw_only=True)
class ReportLimit:
    per_account: int = 20
    window: int = 3600


class Reports:
    def __init__(self, redis, prefix: str = "", limit: ReportLimit = ReportLimit()) -> None:
        self.redis = redis
        self.prefix = prefix
        self.limit = limit
        self.key = f"{prefix}moderation:reports"

    def _count(self, account_id: str) -> str:
        return f"{self.prefix}{{a:{account_id}}}:reports"

    async def refusal(self, account_id: str) -> int | None:
        """Seconds to wait if the account has reported too often lately, else None."""
        key = self._count(account_id)
        count = await self.redis.get(key)
        if count is None or int(count) < self.limit.per_account:
            return None
        ttl = await self.redis.ttl(key)
        return ttl if ttl > 0 else self.limit.window

    async def add(
        self, *, game_id: str, version: int, seat: str, text: str, by: str, by_id: str, reason: str
    ) -> tuple[Report, bool]:
        """The report of this account about this line, and whether it is new (a second report of
        the same line by the same account is the first one, and is not counted against the limit)."""
        rid = f"{game_id}:{version}:{by_id}"
        report = Report(
            id=rid,
            game_id=game_id,
            version=version,
            seat=seat,
            text=text,
            by=by,
            by_id=by_id,
            reason=reason,
            created=time.time_ns() // 1_000_000,
        )
        if not await self.redis.hsetnx(self.key, rid, msgspec.json.encode(report)):
            return msgspec.json.decode(await self.redis.hget(self.key, rid), type=Report), False
        counter = self._count(by_id)
        if await self.redis.incr(counter) == 1:
            await self.redis.expire(counter, self.limit.window)
        return report, True

    async def all(self) -> list[Report]:
        """Every report, the newest first."""
        found = [msgspec.json.decode(raw, type=Report) for raw in (await self.redis.hgetall(self.key)).values()]
        return sorted(found, key=lambda r: (-r.created, r.id))

    async def dismiss(self, report_id: str) -> bool:
        """Take a report out of the queue (an admin dealt with it); whether it was there."""
        return bool(await self.redis.hdel(self.key, report_id))
