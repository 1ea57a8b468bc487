"""The restraints component's release by an unblocked area (rules/core/components/restraints.py
``released_when_unblocked``) with Road to Vicksburg's 9th Division (003 17.3 release ii: "When Jackson's
force, or its Zone of Control, no longer blocks the Middle Road east of Jackson's Creek at the end of a
Confederate Player-Turn"), under the revised rules on a small clear map whose "middle_road" area is
0602-0604; "jx" is Jackson's force, "n1", "n2" the 9th's brigades."""

from __future__ import annotations

from rules.core.commands import EndPhase, MoveUnit
from rules.core.events import RestraintReleased
from rules.core.game import Game
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.rulesmaps import rebel, scenario, union

ROAD = ["0602", "0603", "0604"]
CASES = {"revised": {"restraints": "17.0"}}


def start(units, force):
    ninth = {
        "name": "9th Division",
        "side": "union",
        "commands": ["9th"],
        "released_on_turn": 6,
        "released_when_unblocked": {"area": "middle_road", **force},  # 17.3 release ii
    }
    second = {"name": "2nd brigade", "side": "union", "units": ["n2"], "enemy_zoc": False, "release_with": ["9th Division"]}
    sc = scenario(
        units, exclusive={"restraints": {"held": [ninth, second]}}, cases=CASES, turns=6,
        areas={"middle_road": ROAD, "jacksons_force": ["0605"]},
    )
    return new_game(Game(sc, get_ruleset("revised")))


def to_end_of_player_turn(state, side):
    """End phases until the other side's Player-Turn begins; the releases on the way."""
    released = []
    while state.phasing != side:
        state, events = execute(state, EndPhase())
    while state.phasing == side:
        state, events = execute(state, EndPhase())
        released += [e for e in events if isinstance(e, RestraintReleased)]
    return state, released


def nines():
    return [union("n1", "0101", command="9th"), union("n2", "0102", command="9th")]


def test_released_when_the_force_and_its_zone_leave_the_road_at_the_end_of_a_confederate_player_turn_17_3_ii():
    # 17.3 ii: jx at 0605 controls 0604, a hex of the road: still blocking at the end of Game-Turn One
    state = start([*nines(), rebel("jx", "0605")], {"units": ["jx"]})
    state, released = to_end_of_player_turn(state, "confederate")
    assert released == [] and state.game.battle.restraints.holding(state, "n1")
    # Game-Turn Two: it moves to 0608, three hexes from the road: released at the end of its Player-Turn
    while (state.phasing, state.phase) != ("confederate", "movement"):
        state, _ = execute(state, EndPhase())
    state, _ = execute(state, MoveUnit("jx", ("0605", "0606", "0607", "0608")))
    assert state.game.battle.restraints.holding(state, "n1")  # not before the end of the Player-Turn
    state, released = to_end_of_player_turn(state, "confederate")
    assert [(e.name, e.cause) for e in released] == [("9th Division", "unblocked")] and state.turn == 3
    # 17.3 ii c): the 2nd brigade is released with the division
    assert state.game.battle.restraints.holding(state, "n1") == [] == state.game.battle.restraints.holding(state, "n2")


def test_only_the_force_blocks_and_a_force_named_by_its_set_up_hexes_17_3_ii():
    # 17.3 ii: another Confederate unit on the road (0603) blocks nothing: released at the end of the
    # first Confederate Player-Turn (jx far off at 0808), not at the end of the Union Player-Turn before it
    state = start([*nines(), rebel("jx", "0808"), rebel("other", "0603")], {"units": ["jx"]})
    state, released = to_end_of_player_turn(state, "union")
    assert released == []
    state, released = to_end_of_player_turn(state, "confederate")
    assert [(e.name, e.cause, state.turn) for e in released] == [("9th Division", "unblocked", 2)]
    # the force named by the area of its set-up hexes (the owner's map, 0605): "other" set up at 0605
    # controls 0604: it blocks
    state = start([*nines(), rebel("other", "0605")], {"set_up_in": "jacksons_force"})
    state, released = to_end_of_player_turn(state, "confederate")
    assert released == [] and state.game.battle.restraints.holding(state, "n2")
