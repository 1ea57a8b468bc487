"""The marks a battle's rules keep in ``State.scored``: strings made of a prefix naming what happened
and its details ("exited_by:<hex>:<turn>:<unit>"); a rule reads back the details of its own prefix."""

from __future__ import annotations

from collections.abc import Iterable


def marks(scored: Iterable[str], prefix: str) -> list[str]:
    """The details of every mark of ``scored`` that begins with ``prefix`` (the prefix taken off)."""
    n = len(prefix)
    return [s[n:] for s in scored if s.startswith(prefix)]
