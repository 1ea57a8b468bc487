"""The rules context of each game (session/games.py): one Game per process for each scenario content."""

import msgspec

from scenarios.loader import load
from session.games import GameCache


def test_every_game_cache_of_a_process_shares_one_game_per_scenario_content():
    # Building a Game takes tens of milliseconds: one per scenario content, rule set and options.
    first, second = GameCache(), GameCache()
    assert first.game("chattanooga", "revised") is second.game("chattanooga", "revised")
    assert first.game("chattanooga", "classic") is not first.game("chattanooga", "revised")
    shorter = msgspec.structs.replace(load("chattanooga"), turns=9)  # another content under the same id
    other = GameCache(load=lambda _id: shorter)
    assert other.game("chattanooga", "classic").scenario.turns == 9
    assert other.game("chattanooga", "classic") is not first.game("chattanooga", "classic")
