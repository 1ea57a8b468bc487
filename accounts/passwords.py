"""Password hashes: Argon2id (argon2-cffi), computed off the event loop, never stored or logged in
clear.

The default cost is RFC 9106's second recommendation (t=3, 64 MiB, p=4: about 50 ms a hash on one
core); tests lower it. At most `concurrency` hashes run at once, so a burst of log-ins cannot take
all the memory. An unknown account is checked against a dummy hash of the same cost, so the answer
takes as long whether or not the name exists.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_LENGTH = 8
MAX_LENGTH = 256  # bounds the work of one hash (NIST SP 800-63B: accept at least 64)


class PasswordRefused(ValueError):
    """A password that cannot be used, and why."""


def check_password(password: str) -> str:
    if not isinstance(password, str) or not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise PasswordRefused(f"a password is {MIN_LENGTH}-{MAX_LENGTH} characters")
    return password


@dataclass(frozen=True, kw_only=True)
class Cost:
    """Argon2id parameters: passes, memory (KiB), lanes."""

    time_cost: int = 3
    memory_kib: int = 64 * 1024
    parallelism: int = 4


class Passwords:
    """Hash and verify passwords with Argon2id at `cost`, `concurrency` at a time, in threads."""

    def __init__(self, cost: Cost = Cost(), concurrency: int = 4) -> None:
        self._hasher = PasswordHasher(
            time_cost=cost.time_cost, memory_cost=cost.memory_kib, parallelism=cost.parallelism
        )
        self._slots = asyncio.Semaphore(concurrency)
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        async with self._slots:
            return await asyncio.to_thread(self._hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether `password` matches the hash `stored`; with no hash (an unknown account), the
        same work against a dummy, and False."""
        if stored is None:
            if self._dummy is None:
                self._dummy = await self.hash("not the password of anyone")
            await self._check(self._dummy, password)
            return False
        return await self._check(stored, password)

    def needs_rehash(self, stored: str) -> bool:
        """Whether `stored` was made at another cost (it is hashed anew at the next log-in)."""
        return self._hasher.check_needs_rehash(stored)

    async def _check(self, stored: str, password: str) -> bool:
        async with self._slots:
            try:
                return await asyncio.to_thread(self._hasher.verify, stored, password)
            except (VerificationError, InvalidHashError):
                return False
