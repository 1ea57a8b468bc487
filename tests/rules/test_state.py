"""The rules state's copy: every container is copied (State.copy names each one by hand, for speed)."""

from rulesmaps import scenario, unit

from rules.core.game import Game
from rules.core.state import _CONTAINERS
from rules.reducer import new_game
from rules.rulesets import get as get_ruleset


def test_a_copy_shares_no_container_and_equals_the_original():
    start = new_game(Game(scenario([unit("u", "union", "0101"), unit("c", "confederate", "0505")]), get_ruleset("revised")))
    copy = start.copy()
    shared = [name for name in _CONTAINERS if getattr(copy, name) is getattr(start, name)]
    assert shared == []  # a field added to State and not to State.copy shows here
    assert copy == start and copy.game is start.game
    copy.positions["u"] = "0102"
    copy.moved.add("u")
    assert start.positions["u"] == "0101" and "u" not in start.moved
