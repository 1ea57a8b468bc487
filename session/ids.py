"""Game ids: 12 URL-safe characters (72 random bits), drawn so that none begins with "-", which a
command line would read as an option (`bluegray verify -Xy...` fails; about 1 draw in 64 did)."""

from __future__ import annotations

import secrets


def new_game_id() -> str:
    """A fresh game id: letters, digits, "_" and "-", never "-" first."""
    while True:
        game_id = secrets.token_urlsafe(9)
        if not game_id.startswith("-"):
            return game_id
