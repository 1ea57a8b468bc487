"""A whole Cemetery Hill game, as the server records it, ends with its level of victory (003 20.5) and
the after-action report says so."""

import random

import msgspec

from replay import dice, report, session
from replay.history import History
from replay.records import SessionOptions
from rules import RULES_VERSION
from tests.replay.replaylog import GAMES, SEED, Book, created

LEVELS = {
    "Union Decisive", "Union Substantive", "Union Marginal",
    "Confederate Marginal", "Confederate Substantive", "Confederate Decisive",
}  # 20.5, in the book's words


class CemeteryHillBook(Book):
    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.history = History(game_id, GAMES)
        self.envelopes = []
        self.clock = 1_700_000_000_000
        record = msgspec.structs.replace(
            created(game_id, SessionOptions()),
            scenario="cemetery_hill",
            scenario_hash=GAMES.scenario_hash("cemetery_hill"),
            ruleset="revised",
            rules_version=RULES_VERSION,
            seed_hash=dice.seed_hash(SEED),
        )
        self.append(session.create(record, GAMES.for_record(record), "creator-nonce"))
        self.append(session.join(self.history, "confederate", "joiner-nonce"))


def test_a_whole_game_ends_with_a_level_of_victory_in_the_report():
    # 16.4 fifteen Game-Turns, 20.0 "the Player with the higher number of Victory Points is awarded
    # victory", 20.5 at its level: the game's result is a level, and the report shows it
    book = CemeteryHillBook("cemetery-hill-1")
    book.play_random(random.Random(7), 5000)
    assert book.history.finished is not None and book.state.turn == 15
    assert book.history.finished.result in LEVELS
    built = report.build(book.game_id, book.envelopes, GAMES)
    assert built.finished.result == book.history.finished.result
    text = report.lines(book.game_id, book.envelopes, GAMES)
    assert any(book.history.finished.result in line for line in text)
