"""The computer's levels a player may choose (the lobby, ``POST /api/games``, the house computers,
``bluegray computer`` and ``bluegray bot``): ``easy``, ``normal`` and ``hard`` are the engine's
budgets (players/engine.py ``LEVELS``: one ply of movement, an expectimax of depth one per attack);
``expert`` is the searching player (players/search.py: a portfolio of whole-Movement-Phase plans,
each looked ahead through its Combat Phase and the enemy's reply), whose other decisions are hard's.
"""

from __future__ import annotations

from players.engine import LEVELS, Engine
from players.search import Searcher
from players.selfplay import Player

#: Every level, weakest first.
COMPUTER_LEVELS = (*LEVELS, "expert")


def computer(level: str) -> Player:
    """A fresh player of ``level`` (it keeps what it found within a phase: one per game)."""
    if level == "expert":
        return Searcher()
    if level in LEVELS:
        return Engine(level)
    raise ValueError(f"no level {level!r} (known: {', '.join(COMPUTER_LEVELS)})")
