"""Victory points and levels of victory (Chattanooga 20.0–20.2, with 15.12 and 17.15), on small maps
with the same parameters as the scenario, and on the Chattanooga scenario itself."""

from combatmaps import attack, of_type, to_phase
from rulesmaps import rebel, sides, start, union

from rules.core.commands import EndPhase, MoveUnit
from rules.core.events import GameEnded, VictoryDetermined, VictoryPointsAwarded
from rules.core.game import Game
from rules.procedures.victory import end_points, level_of, recount
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

LEVELS = load("chattanooga").exclusive["victory"]["levels"]


def victory(**kw):
    params = {
        "per_enemy_unit_eliminated": {"confederate": 3, "union": 2},
        "first_control": {"side": "confederate", "hexes": ["0606", "0707"], "points_each": 4},
        "town_in_zoc": {"side": "confederate", "area": "town", "points_each": 4, "unit_type": "infantry"},
        "last_control": {"side": "union", "hexes": ["0101", "0102"], "points_each": 4},
        "levels": LEVELS,
    }
    params.update(kw)
    return {"victory": params}


def game(units, **kw):
    return start(units, exclusive=victory(), areas={"town": ["0303", "0304"]}, **kw)


def test_points_for_each_enemy_unit_eliminated():
    # 20.11 (1): 3 to the Confederate per Union unit; (3): 2 to the Union per Confederate unit
    state = to_phase(game([union("a", "0404", strength=12), rebel("d", "0505", strength=1), rebel("far", "0808")]))
    state, events = attack(state, ["a"], ["0505"], die=1)  # De
    assert VictoryPointsAwarded(side="union", points=2, kind="eliminated", subject="d", case="20.1") in events
    assert state.vp == {"union": 2, "confederate": 0}
    state = to_phase(game([union("a", "0404", strength=1), rebel("d", "0505", strength=6), rebel("far", "0808")]))
    state, _ = attack(state, ["a"], ["0505"], die=4)  # 1-5, Ae
    assert state.vp == {"union": 0, "confederate": 3}


def test_reinforcements_lost_count_as_union_units_eliminated():
    # 15.12, 20.11 (1)
    units = [union("u", "0101"), union("r", None, arrives=1, entry=["0108"]), rebel("d", "0808")]
    state = start(units, exclusive={**victory(), "reinforcements": {"lost_if_not_entered": True}})
    state, events = execute(state, EndPhase())
    assert "r" in state.eliminated and state.vp["confederate"] == 3


def test_first_control_of_each_hex_scores_once():
    # 20.11 (2): four for either hex when first controlled (17.15), eight for both, only once
    state = game([union("u", "0101"), rebel("c", "0506"), rebel("c2", "0708")], first_player="confederate")
    state, events = execute(state, MoveUnit("c", ("0506", "0606")))
    assert of_type(events, VictoryPointsAwarded) == [
        VictoryPointsAwarded(side="confederate", points=4, kind="first_control", subject="0606", case="20.1")
    ]
    state, events = execute(state, MoveUnit("c2", ("0708", "0707", "0607")))  # through 0707
    assert state.vp["confederate"] == 8
    state, _ = execute(state, EndPhase())
    state, _ = execute(state, EndPhase())
    state, _ = execute(state, MoveUnit("u", ("0101", "0102")))
    assert state.vp["confederate"] == 8


def test_town_hexes_in_the_zone_of_confederate_infantry_at_the_end():
    # 20.12 (1): four per Chattanooga town hex in the zone of control of Confederate infantry; a Union
    # unit in the hex does not negate it; Ruling: a town hex the infantry occupies counts
    units = [union("u", "0303"), rebel("inf", "0403"), rebel("gun", "0205", type_="artillery"), rebel("cav", "0305", type_="cavalry")]
    state = game(units)
    awarded = {(a.kind, a.subject) for a in end_points(state)}
    assert ("town_zoc", "0303") in awarded and ("town_zoc", "0304") in awarded
    state = game([union("u", "0303"), rebel("gun", "0205", type_="artillery"), rebel("cav", "0305", type_="cavalry")])
    assert not [a for a in end_points(state) if a.kind == "town_zoc"]
    state = game([rebel("inf", "0304")])
    assert {a.subject for a in end_points(state) if a.kind == "town_zoc"} == {"0303", "0304"}
    creek = sides({("0403", "0303"): {"creek"}, ("0403", "0304"): {"creek"}})
    state = start([rebel("inf", "0403")], exclusive=victory(), areas={"town": ["0303", "0304"]}, hexsides=creek)
    assert not [a for a in end_points(state) if a.kind == "town_zoc"]  # 6.6: no zone across a creek


def test_hexes_the_union_was_last_to_control():
    # 20.12 (2), 17.15: four per hex the Union was last to control
    state = game([union("u", "0101"), rebel("c", "0808")])
    assert [(a.side, a.subject) for a in end_points(state) if a.kind == "last_control"] == [("union", "0101")]


def test_levels_of_victory():
    # 20.2, the differential Union minus Confederate
    g = Game(load("chattanooga"), get_ruleset("classic"))
    cases = {
        26: "Union Decisive Victory",
        25: "Union Substantive Victory",
        16: "Union Substantive Victory",
        15: "Union Marginal Victory",
        6: "Union Marginal Victory",
        5: "Draw",
        -5: "Draw",
        -6: "Confederate Marginal Victory",
        -15: "Confederate Marginal Victory",
        -16: "Confederate Substantive Victory",
        -25: "Confederate Substantive Victory",
        -26: "Confederate Decisive Victory",
        -40: "Confederate Decisive Victory",
    }
    for diff, level in cases.items():
        assert level_of(g, diff) == level, diff


def test_chattanooga_ends_after_game_turn_ten_with_a_level_of_victory():
    # 14.32, 4.0, 20.0: ten Game-Turns, then the Victory Conditions
    start_state = new_game(Game(load("chattanooga"), get_ruleset("classic")))
    state, log = start_state, []
    while not state.game_over:
        state, events = execute(state, EndPhase())
        log.extend(events)
    assert state.turn == 10
    determined = of_type(log, VictoryDetermined)[-1]
    # the three Game-Turn Two reinforcements never entered: 9 to the Confederate (15.12, 20.11)
    assert (determined.union, determined.confederate, determined.level) == (0, 9, "Confederate Marginal Victory")
    assert log[-1] == GameEnded(reason="last_turn", result="Confederate Marginal Victory")
    assert state.result == "Confederate Marginal Victory"
    assert recount(start_state, log) == state.vp
