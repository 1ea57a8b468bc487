"""What a spectator may see of a running game: the one rule every path uses (the live broadcast
in api/live.py, GET /api/games/{id} in api/games.py, the replay cursor, export, report and forks in
api/replaying.py)."""

from __future__ import annotations

from replay.history import History


def visible_version(history: History, delay: int) -> int:
    """The last version spectators may see: `delay` events behind the game once play has started
    (the creation and the seats are shown at once), everything once the game is over."""
    if delay <= 0 or history.finished is not None:
        return history.version
    return max(history.version - delay, min(history.version, history.session.start or history.version))


def seen_by(history: History, seat: str | None) -> int:
    """The last version `seat` (None: a spectator) may see of `history` (folded to its head), under
    the game's own spectator delay."""
    if seat is not None:
        return history.version
    created = history.session.created
    return visible_version(history, created.options.spectator_delay if created is not None else 0)
