"""The built-in computer opponent on the ladder: one account per level of the engine
(players/levels.py COMPUTER_LEVELS), named ``Computer-<level>`` (``Computer-easy``, ``Computer-normal``,
``Computer-hard``, ``Computer-expert``), of kind ``computer``, with no password (nobody logs in as it) and no API token.

A signed-in player challenges one by name from the lobby (POST /api/challenges with
``"opponent": "Computer-normal"``): the server accepts at once, binds the computer's seat to its
account and starts the computer's process with that seat's invite (api/opponents.py; it joins with a
dice nonce of its own, as any player does). A rated challenge is rated like any other game, so each
level earns a rating on every battle (api/rating_games.py) and stands on the leaderboards.

The accounts are made when a server starts (`ensure`), idempotently: of servers starting together
one registers each name and the others find it. A name already held by a player's account (from
before this existed) is left to him, and that level is not on the ladder (logged).
"""

from __future__ import annotations

import logging

from accounts.store import Account, Accounts, NameTaken
from players.levels import COMPUTER_LEVELS as LEVELS

log = logging.getLogger(__name__)

KIND = "computer"
NO_PASSWORD = "!"  # never a valid Argon2 hash: no password opens a computer's account


def name_of(level: str) -> str:
    return f"Computer-{level}"


def level_of(account: Account) -> str | None:
    """The engine level a computer's account plays at (None: not a computer)."""
    if account.kind != KIND:
        return None
    level = account.name.removeprefix("Computer-")
    return level if level in LEVELS else None


async def ensure(accounts: Accounts) -> list[str]:
    """Make the computer's accounts that do not exist yet; the names on the ladder."""
    ready = []
    for level in LEVELS:
        name = name_of(level)
        found, _ = await accounts.find(name)
        if found is None:
            try:
                found = await accounts.register(name, NO_PASSWORD, kind=KIND)
            except NameTaken:  # another server, starting at the same time
                found, _ = await accounts.find(name)
        if found is None or found.kind != KIND:
            log.warning("the name %s belongs to a player: the %s computer is not on the ladder", name, level)
            continue
        ready.append(found.name)
    return ready
