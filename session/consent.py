"""A request that needs the opponent's consent (an undo, session/undo.py; a pause, session/pause.py):
one open request at a time, which the opposing seat accepts or declines and the asking seat may
withdraw. Pure: it reads the open request and who is answering.
"""

from __future__ import annotations

from typing import Protocol


class ConsentRefused(Exception):
    """A request, or its answer, that may not be made now: the case and a sentence; ``retry_after``
    (seconds) when waiting will help."""

    def __init__(self, case: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(f"[{case}] {message}")
        self.case = case
        self.message = message
        self.retry_after = retry_after


class Pending(Protocol):
    """An open request: the version of its record and the seat that asked (read-only: the requests
    are frozen Structs)."""

    @property
    def version(self) -> int: ...

    @property
    def seat(self) -> str: ...


def check_answer(
    pending: Pending | None,
    seat: str,
    request: int,
    answer: str,
    *,
    what: str,
    case: str,
    refused: type[ConsentRefused] = ConsentRefused,
) -> None:
    """May `seat` answer (``accept``, ``decline``) or ``withdraw`` the `what` request ("undo",
    "pause") at version `request`? Raises `refused` naming `case` when not."""
    if pending is None or pending.version != request:
        raise refused(case, f"no {what} request at version {request} is waiting (it was answered or lapsed)")
    if answer == "withdraw":
        if seat != pending.seat:
            raise refused(case, f"only the player who asked may withdraw {_a(what)} {what} request")
    elif seat == pending.seat:
        raise refused(case, f"{_a(what)} {what} needs the consent of the opposing player, not your own")


def _a(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"
