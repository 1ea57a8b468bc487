"""Words the subcommands print."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """ "1 game", "2 games", "0 games" ("1 player-turn"; `nouns` when not noun + "s")."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"
