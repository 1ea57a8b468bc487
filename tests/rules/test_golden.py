"""The golden corpus (tests/rules/golden.py): 120 self-played Chattanooga games, both rule sets,
both computer players, with and without the game options, replay to byte-identical events and state
digests. A change of the rules core must not change one byte; a ruling that does re-records the
corpus in its own commit and names the games it changes."""

import json

from golden import CORPUS, corpus, differences


def test_the_golden_corpus_plays_byte_identical():
    recorded = json.loads(CORPUS.read_text())
    assert len(recorded) == 120
    now = corpus()
    assert differences(recorded, now) == []
