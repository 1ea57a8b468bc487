"""The rules state: its copy (every container is copied: State.copy names each one by hand, for speed) and
the answers kept per position."""

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


def test_the_occupants_are_kept_per_position_and_follow_a_change_in_place():
    # State.occupants is worked out once per content of the units' hexes (rules.core.state.kept): a
    # state changed in place, or a copy moved on, gets the answer for its own hexes
    start = new_game(Game(scenario([unit("u", "union", "0101"), unit("v", "union", "0101"), unit("c", "confederate", "0505")]), get_ruleset("revised")))
    assert start.occupants() == {"0101": ["u", "v"], "0505": ["c"]}
    assert start.occupants() is start.occupants()  # the same answer, shared
    moved = start.copy()
    moved.positions["v"] = "0102"
    assert moved.occupants() == {"0101": ["u"], "0102": ["v"], "0505": ["c"]}
    start.positions["c"] = "0404"
    assert start.occupants() == {"0101": ["u", "v"], "0404": ["c"]}
