"""rules/core/state.py ``Digester``: the digest of a game's states in turn, with the encoding of its
unchanged parts kept, is byte for byte ``digest_bytes`` after every event of self-played games (both
rule sets), including after a kept part changes back to an earlier content."""

from __future__ import annotations

import random

import pytest

from players.selfplay import play
from rules.core.handlers import apply
from rules.core.state import Digester, digest_bytes
from rules.reducer import new_game
from session.games import GameCache


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
def test_the_digester_gives_the_digest_after_every_event(ruleset):
    start = new_game(GameCache().game("chattanooga", ruleset))
    state = start.copy()
    digester = Digester()
    events = 0
    for _, _, decided in play(start, random.Random(7), max_commands=150):
        for event in decided:
            apply(state, event)  # in place, as session/history.py folds
            assert digester.digest(state) == digest_bytes(state)
            events += 1
    assert events > 150
    back = start.copy()  # the positions of the start again, after other positions were kept
    assert digester.digest(back) == digest_bytes(back)
    assert digester.digest(state) == digest_bytes(state)
