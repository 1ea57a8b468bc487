"""The computer's eye for a report (players/review.py on a game's log, replay/steps.py): computed on
demand for one side and level, kept per game version in a small cache of the server's."""

from __future__ import annotations

from collections import OrderedDict

from eventstore.envelope import Envelope
from players.review import review
from replay.gamerecord import GameRecord
from replay.steps import steps
from session.games import GameCache


def computer_review(game_id: str, envelopes: list[Envelope], games: GameCache, side: str, level: str):
    """The review of ``side``'s decisions in the effective line of play of the log, and a function
    giving a command (JSON) in the record's words."""
    played = steps(game_id, envelopes, games)
    game = played[0].before.game if played else None
    return review(played, side, level), GameRecord(game).command_text


class ReviewCache:
    """Reviews (with their command-text function) by (game, version, side, level): the last ``size``
    asked for."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._kept: OrderedDict[tuple, tuple] = OrderedDict()

    def get(self, key: tuple) -> tuple | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def put(self, key: tuple, value: tuple) -> None:
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
