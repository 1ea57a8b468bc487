"""A whole Road to Richmond game, as the server records it, ends with its level of victory (003 22.0)
and the after-action report says so, the Victory Points of 22.1 included."""

import random

import msgspec

from replay import dice, report, session
from replay.history import History
from replay.records import SessionOptions
from rules import RULES_VERSION
from tests.replay.replaylog import GAMES, SEED, Book, created

LEVELS = {"Union Victory", "Draw", "Confederate Victory"}  # 22.0 (ruling: equal totals a Draw)


class RichmondBook(Book):
    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.history = History(game_id, GAMES)
        self.envelopes = []
        self.clock = 1_700_000_000_000
        record = msgspec.structs.replace(
            created(game_id, SessionOptions()),
            scenario="road_to_richmond",
            scenario_hash=GAMES.scenario_hash("road_to_richmond"),
            ruleset="revised",
            rules_version=RULES_VERSION,
            seed_hash=dice.seed_hash(SEED),
        )
        self.append(session.create(record, GAMES.for_record(record), "creator-nonce"))
        self.append(session.join(self.history, "confederate", "joiner-nonce"))


def test_a_whole_game_ends_with_a_level_of_victory_in_the_report():
    # 16.3 twenty Game-Turns; 22.0 "the Player with the higher number of Victory Points is the winner"
    book = RichmondBook("road-to-richmond-1")
    book.play_random(random.Random(7), 8000)
    assert book.history.finished is not None and book.state.turn == 20
    assert book.history.finished.result in LEVELS
    built = report.build(book.game_id, book.envelopes, GAMES)
    assert built.finished.result == book.history.finished.result
    text = report.lines(book.game_id, book.envelopes, GAMES)
    assert any(book.history.finished.result in line for line in text)
