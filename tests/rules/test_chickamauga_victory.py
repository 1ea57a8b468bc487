"""Chickamauga's Victory Point schedule (003 21.11 i), 21.12, 21.13) and occupation (21.2), on small
maps with the battle's parameters and on the Chickamauga scenario itself."""

from combatmaps import attack, of_type, to_phase
from rulesmaps import rebel, start, union

from rules.core.commands import EndPhase, MoveUnit
from rules.core.events import GameEnded, VictoryDetermined
from rules.core.game import Game
from rules.procedures.victory import end_points, level_of, recount
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

CHICKAMAUGA = load("chickamauga")


def exclusive(**victory):
    return {
        "victory": {"per_enemy_strength_point_eliminated": {"union": 1, "confederate": 1}, **victory},
        "control_hexes": {"held_at_start": [{"side": "union", "hexes": ["0505"]}, {"side": "confederate", "hexes": ["0707"]}]},
    }


def test_one_point_for_every_enemy_combat_strength_point_eliminated():
    # 21.11 i): the Union scores 4 for a Confederate unit of 4 eliminated
    state = to_phase(start([union("a", "0404", strength=12), rebel("d", "0505", strength=4), rebel("far", "0808")], exclusive=exclusive()))
    state, _ = attack(state, ["a"], ["0505"], die=1)  # 3-1, De
    assert "d" in state.eliminated and state.vp == {"union": 4, "confederate": 0}
    # and the Confederate 5 for a Union unit of 5
    state = to_phase(start([union("a", "0404", strength=5), rebel("d", "0505", strength=12), rebel("far", "0808")], exclusive=exclusive()))
    state, _ = attack(state, ["a"], ["0505"], die=6)  # 1-2, Ae
    assert "a" in state.eliminated and state.vp == {"union": 0, "confederate": 5}


def test_victory_hexes_are_occupied_at_the_start_as_listed():
    # 21.2: "The victory hexes are considered to be occupied at the start of play": no unit need be there
    state = start([union("u", "0101"), rebel("c", "0808")], exclusive=exclusive())
    assert state.control["0505"] == "union" and state.control["0707"] == "confederate"


def test_occupation_points_at_the_end_to_the_side_named_or_to_either():
    # 21.12 i)-iii), 21.2: a hex scores for its side only; an "either Player" hex for whoever occupies it
    occupation = [
        {"hex": "0505", "points": 20, "side": "confederate"},  # held by the Union: nothing
        {"hex": "0707", "points": 10, "side": "confederate"},  # held by the Confederate: 10
        {"hex": "0303", "points": 5},  # nobody has been there: nothing
        {"hex": "0606", "points": 5},  # either Player: the last to move through it
    ]
    state = start([union("u", "0101"), rebel("c", "0808")], exclusive=exclusive(occupation=occupation))
    state, _ = execute(state, MoveUnit("u", ("0101", "0102", "0103", "0104", "0105")))
    assert {(a.side, a.subject, a.points) for a in end_points(state)} == {("confederate", "0707", 10)}
    state = start([union("u", "0605"), rebel("c", "0808")], exclusive=exclusive(occupation=occupation))
    state, _ = execute(state, MoveUnit("u", ("0605", "0606", "0506")))  # through 0606: it occupies it (21.2)
    assert {(a.side, a.subject, a.points) for a in end_points(state)} == {("confederate", "0707", 10), ("union", "0606", 5)}


def test_levels_of_victory():
    # 21.13, on the net figure Union minus Confederate
    game = Game(CHICKAMAUGA, get_ruleset("revised"))
    cases = {
        51: "Union Decisive Victory", 50: "Union Substantive Victory", 26: "Union Substantive Victory",
        25: "Union Marginal Victory", 11: "Union Marginal Victory", 10: "Draw", -10: "Draw",
        -11: "Confederate Marginal Victory", -25: "Confederate Marginal Victory",
        -26: "Confederate Substantive Victory", -50: "Confederate Substantive Victory",
        -51: "Confederate Decisive Victory",
    }
    for diff, level in cases.items():
        assert level_of(game, diff) == level, diff


def test_chickamauga_at_the_start_and_after_fifteen_game_turns():
    # 21.2: Union 0211, 0502, 0822, 1207, 1115; Confederate 1922, 2311. 16.4: fifteen Game-Turns, then
    # 21.0 the Player with more Victory Points is awarded a level of victory
    start_state = new_game(Game(CHICKAMAUGA, get_ruleset("revised")))
    held = {h: start_state.control[h] for h in ("0211", "0502", "0822", "1207", "1115", "1922", "2311")}
    assert held == {"0211": "union", "0502": "union", "0822": "union", "1207": "union", "1115": "union", "1922": "confederate", "2311": "confederate"}
    state, log = start_state, []
    while not state.game_over:
        state, events = execute(state, EndPhase())
        log.extend(events)
    assert state.turn == 15
    determined = of_type(log, VictoryDetermined)[-1]
    # nobody moved: the Union scores 0822, 1207, 1115 (5 each); the gaps it holds are Confederate
    # hexes and the bridges the Confederate holds Union hexes, so they score for nobody; the Train
    # never entered, so never exited: 10 to the Confederate (21.11 iv)); every Union unit and
    # reinforcement traces its line (21.32): 15 - 10
    assert (determined.union, determined.confederate, determined.differential) == (15, 10, 5)
    assert log[-1] == GameEnded(reason="last_turn", result="Draw")
    assert recount(start_state, log) == state.vp
