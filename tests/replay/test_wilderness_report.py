"""A whole Battle of the Wilderness game, as the server records it, with both optional rules chosen at
creation (003 20.1, 20.2: rules options), ends with its level of victory (19.0) and the after-action
report says so (without the options: tests/replay/test_battle_reports.py)."""

import random

from replay import report
from tests.replay.replaylog import GAMES, Book

LEVELS = {"Union Victory", "Confederate Victory", "Draw"}  # 19.0: the higher total wins
OPTIONS = {"picketts_division": True, "general_burnside": True}  # 20.1, 20.2


def test_a_whole_game_with_the_optional_rules_ends_with_a_level_of_victory_in_the_report():
    # 16.4 sixteen Game-Turns; 19.0 "the Player with the higher Victory Point total wins"
    book = Book.of_battle("wilderness", "wilderness-1", OPTIONS)
    game = GAMES.for_record(book.history.session.created)
    assert {"cs-hunton", "cs-corse", "cs-terry"} <= set(game.units) and game.battle.movement_die is not None
    book.play_random(random.Random(7), 8000)
    assert book.history.finished is not None and book.state.turn == 16
    assert book.history.finished.result in LEVELS
    built = report.build(book.game_id, book.envelopes, GAMES)
    assert built.finished.result == book.history.finished.result
    text = report.lines(book.game_id, book.envelopes, GAMES)
    assert any(book.history.finished.result in line for line in text)
