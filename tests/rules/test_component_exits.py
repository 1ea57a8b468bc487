"""Exiting the map (Chickamauga 18.0) and its Victory Points (21.11 ii)-iv), 21.31), under the revised
rules, on a small map whose exit hexes are 0101 and 0105 (west edge) and whose road 0105-0205-...-0805
runs to the east edge."""

from __future__ import annotations

import pytest

from rules.core.commands import EndPhase, ExitMap
from rules.core.errors import RuleViolation
from rules.core.events import UnitExited
from rules.core.game import Game
from rules.procedures.exits import exit_paths, exit_points, exit_points_during_play
from rules.procedures.reinforcements import waiting
from rules.queries.exits import exited
from rules.queries.zoc import in_enemy_zone_of_control
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.rulesmaps import rebel, scenario, sides, union

EAST_ROAD = sides({(f"0{c}05", f"0{c + 1}05"): {"road"} for c in range(1, 8)})
EXITS = {
    "hexes": ["0101", "0105"],
    "cost": 1,
    "points_per_strength_point": {"union": 1, "confederate": 5},
    "line_to_edge": [{"side": "confederate", "edge": "east"}],
    "must_exit": [{"unit": "train", "points": 10}],
}
CASES = {"revised": {"exits": "18.1", "exits.cost": "18.2", "exits.points": "21.11", "exits.must_exit": "21.11"}}


def start(units, first_player="union"):
    sc = scenario(units, hexsides=EAST_ROAD, exclusive={"exits": EXITS}, cases=CASES, first_player=first_player)
    return new_game(Game(sc, get_ruleset("revised")))


def test_a_unit_exits_at_an_exit_hex_for_one_more_movement_point():
    # 18.1, 18.2: 0103 to 0101 is two clear hexes, and one more to exit: 3 of an allowance of 3
    state = start([union("u", "0103", movement_allowance=3), union("w", "0102"), union("train", "0808"), rebel("far", "0601")])
    state, events = execute(state, ExitMap("u", ("0103", "0102", "0101")))
    assert events[0] == UnitExited(unit="u", path=("0103", "0102", "0101"), cost=3)
    # 18.3, 18.4: removed from play, not eliminated
    assert "u" not in state.positions and "u" not in state.eliminated and exited(state) == ["u"]
    # 18.7: another exits by the same hex
    state, _ = execute(state, ExitMap("w", ("0102", "0101")))
    assert exited(state) == ["u", "w"]


def test_no_exit_beyond_the_allowance_or_elsewhere():
    # 18.2: two hexes and the exit are three; 18.5: only at the exit hexes
    state = start([union("u", "0103", movement_allowance=2), union("train", "0808"), rebel("far", "0601")])
    with pytest.raises(RuleViolation) as refused:
        execute(state, ExitMap("u", ("0103", "0102", "0101")))
    assert refused.value.case == "18.2"
    assert set(exit_paths(state, "u")) == set()
    with pytest.raises(RuleViolation) as refused:
        execute(state, ExitMap("u", ("0103", "0104")))
    assert refused.value.case == "18.1"
    state = start([union("u", "0105", movement_allowance=2), union("train", "0808"), rebel("far", "0601")])
    assert exit_paths(state, "u") == {"0105": ("0105",)}  # standing on it: the exit alone


def test_an_exited_reinforcement_never_returns():
    # 18.3
    state = start([union("r", None, arrives=1, entry=["0105"]), union("train", "0808"), rebel("far", "0601")])
    from rules.core.commands import EnterReinforcement

    state, _ = execute(state, EnterReinforcement("r", ("0105",)))
    state, _ = execute(state, EndPhase())
    for _ in range(4):  # to the Union Movement Phase of Game-Turn 2
        if state.phasing == "union" and state.phase == "movement":
            break
        state, _ = execute(state, EndPhase())
    state, _ = execute(state, ExitMap("r", ("0105",)))
    assert waiting(state) == [] and exited(state) == ["r"]


def test_exit_points_and_the_confederate_line_to_the_eastern_edge():
    # 21.11 ii) one per Union Strength Point exited; iii) five per Confederate Strength Point, with
    # 21.31's road off the eastern edge free of Union units; iv) ten if the Train fails to exit
    state = start([union("u", "0303", strength=4), union("train", "0808"), rebel("c", "0104", strength=3)], first_player="confederate")
    state, _ = execute(state, ExitMap("c", ("0104", "0105")))
    points = {(a.side, a.kind, a.subject, a.points) for a in exit_points(state)}
    assert points == {("confederate", "exited", "c", 15), ("confederate", "not_exited", "train", 10)}
    blocked = start([union("u", "0405"), union("train", "0808"), rebel("c", "0104", strength=3)], first_player="confederate")
    blocked, _ = execute(blocked, ExitMap("c", ("0104", "0105")))
    assert {a.kind for a in exit_points(blocked)} == {"not_exited"}  # 21.31: a Union unit on the road
    state = start([union("u", "0102", strength=4), union("train", "0104", strength=1), rebel("far", "0601")])
    state, first = execute(state, ExitMap("u", ("0102", "0101")))
    state, second = execute(state, ExitMap("train", ("0104", "0105")))
    # ii) the Union's are Victory Points Awarded During Play: none left for the end
    assert exit_points(state) == []
    during = exit_points_during_play(state, [*first, *second])
    assert {(a.side, a.kind, a.subject, a.points) for a in during} == {
        ("union", "exited", "u", 4),
        ("union", "exited", "train", 1),
    }


def test_no_retreat_leaves_the_map_the_unit_is_eliminated_instead():
    # 18.6: a unit on an exit hex forced to retreat with no hex of the map open is eliminated, not exited
    from tests.rules.combatmaps import attack, to_phase
    from tests.rules.rulesmaps import start as classic_start

    units = [union("a", "0102", strength=4), union("b", "0201", strength=4), rebel("d", "0101", strength=4), union("train", "0808")]
    state = to_phase(classic_start(units, exclusive={"exits": EXITS}))
    state, _ = attack(state, ["a", "b"], ["0101"], die=1)  # 2-1, Dr: 0102 and 0201 hold the attackers
    assert "d" in state.eliminated and exited(state) == []


def test_the_legal_choices_offer_each_exit_a_unit_may_make():
    # 18.1, 18.2: u (allowance 3) two hexes from 0101 and from 0105 is offered both for 3 Movement Points,
    # and decide accepts what is offered; v stands on 0105 (the exit alone, 1); far is not offered
    from rules.legal import Destination, choices

    units = [
        union("u", "0103", movement_allowance=3),
        union("v", "0105"),
        union("far", "0708"),
        union("train", "0808"),
        rebel("c", "0601"),
    ]
    state = start(units)
    for full in (True, False):
        offered = choices(state, destinations=full).exits
        assert offered["u"] == {
            "0101": Destination(3, ("0103", "0102", "0101")),
            "0105": Destination(3, ("0103", "0104", "0105")),
        }
        assert offered["v"]["0105"] == Destination(1, ("0105",))
        assert "far" not in offered
    after, events = execute(state, ExitMap("u", offered["u"]["0101"].path))
    assert isinstance(events[0], UnitExited) and "u" not in choices(after).exits  # 18.3


def test_no_exit_is_offered_without_exits_or_outside_the_movement_phase():
    from rules.legal import choices

    sc = scenario([union("u", "0101"), rebel("c", "0601")])
    assert choices(new_game(Game(sc, get_ruleset("revised")))).exits == {}
    state, _ = execute(start([union("u", "0101"), union("train", "0808"), rebel("c", "0601")]), EndPhase())
    assert state.phase == "combat" and choices(state).exits == {}


def test_units_exit_only_from_an_exit_hex_a_road_runs_through_19_3():
    # Road to Vicksburg 19.3: "Such units must exit along a road": with along_road the exit hex 0101 (no
    # road) is refused, 0105 (the road 0105-0805 runs through it) is open
    exits = {"hexes": ["0101", "0105"], "along_road": True}
    sc = scenario([union("u", "0103"), rebel("far", "0601")], hexsides=EAST_ROAD, exclusive={"exits": exits}, cases=CASES)
    state = new_game(Game(sc, get_ruleset("revised")))
    assert set(exit_paths(state, "u")) == {"0105"}
    with pytest.raises(RuleViolation) as refused:
        execute(state, ExitMap("u", ("0103", "0102", "0101")))
    assert "must exit along a road" in str(refused.value) and refused.value.case == "18.1"
    state, events = execute(state, ExitMap("u", ("0103", "0104", "0105")))
    assert isinstance(events[0], UnitExited) and exited(state) == ["u"]


def test_along_a_road_from_an_exit_edge_only_at_its_road_hexes_19_3():
    # Road to Vicksburg 19.3 with Cemetery Hill 18.2's exit edges: of the west edge, only 0105, where the
    # road runs, is an exit hex
    exits = {"edges": ["west"], "along_road": True}
    sc = scenario([union("u", "0203"), rebel("far", "0601")], hexsides=EAST_ROAD, exclusive={"exits": exits}, cases=CASES)
    state = new_game(Game(sc, get_ruleset("revised")))
    from rules.queries.exits import exit_hexes

    assert exit_hexes(state.game) == ("0105",)
    assert set(exit_paths(state, "u")) == {"0105"}


def test_the_union_exit_points_are_awarded_during_play_21_11():
    # 21.11 "Victory Points Awarded During Play: ... ii) The Union Player receives one Victory Point for
    # every Union Combat Strength Point exited from the map sheet": scored as u (4) exits, so the score
    # shown during play has them; iii) the Confederate's depend on 21.31's road "free of Union units at
    # the end of the game" and iv) on the Train's failing to exit: both at the end. The final total
    # counts u's four once.
    from rules.core.events import GameEnded, VictoryDetermined, VictoryPointsAwarded
    from rules.procedures.victory import end_points, recount

    victory = {
        "per_enemy_strength_point_eliminated": {"union": 1, "confederate": 1},
        "levels": [{"level": "Draw"}],
    }
    units = [union("u", "0102", strength=4), union("train", "0808"), rebel("c", "0104", strength=3)]
    exclusive = {"exits": EXITS, "victory": victory}
    sc = scenario(units, hexsides=EAST_ROAD, exclusive=exclusive, cases=CASES, turns=1)
    begin = new_game(Game(sc, get_ruleset("revised")))
    state, events = execute(begin, ExitMap("u", ("0102", "0101")))
    assert VictoryPointsAwarded(side="union", points=4, kind="exited", subject="u", case="21.11") in events
    assert state.vp.get("union") == 4
    assert all(a.subject != "u" for a in end_points(state))
    log = list(events)
    state, events = execute(state, EndPhase())
    log += events
    state, events = execute(state, EndPhase())  # to the Confederate Movement Phase
    log += events
    state, events = execute(state, ExitMap("c", ("0104", "0105")))
    log += events
    assert state.vp.get("confederate", 0) == 0  # iii): at the end, when 21.31 is judged
    while not state.game_over:
        state, events = execute(state, EndPhase())
        log += events
    determined = [e for e in log if isinstance(e, VictoryDetermined)][-1]
    # iii) 15 (21.31: the road east is free of Union units) and iv) 10 (the Train has not exited)
    assert (determined.union, determined.confederate) == (4, 25)
    assert isinstance(log[-1], GameEnded) and recount(begin, log) == state.vp


def test_by_night_a_unit_may_leave_the_map_from_an_enemy_zone_of_control_19_3():
    # Road to Vicksburg 19.3: "Units can exit the map sheet at any time during a Friendly Movement Phase if
    # no Enemy unit or Enemy Zone of Control prevents it" (docs/RULINGS.md): a zone of control prevents an
    # exit when it prevents the move. By day u, beginning at the exit hex 0105 in the zone of control of
    # the Confederate at 0205, may not leave it (6.0); on a Night Game-Turn revised 11.12 lets it leave a
    # controlled hex, so nothing prevents the exit. Unlike Hooker and Lee 18.11, 19.3 names no hexes that
    # must be free of enemy control (test_hooker_and_lee_movement: ...at_night_either_18_11).
    exits = {"hexes": ["0101", "0105"], "along_road": True}
    units = [union("u", "0105"), rebel("c", "0205"), rebel("far", "0808")]

    def at(night_turns):
        sc = scenario(units, hexsides=EAST_ROAD, exclusive={"exits": exits}, cases=CASES, night_turns=night_turns)
        return new_game(Game(sc, get_ruleset("revised")))

    day = at([])
    assert in_enemy_zone_of_control(day, "u")
    assert exit_paths(day, "u") == {}
    with pytest.raises(RuleViolation):
        execute(day, ExitMap("u", ("0105",)))
    night = at([1])
    assert set(exit_paths(night, "u")) == {"0105"}
    night, events = execute(night, ExitMap("u", ("0105",)))
    assert isinstance(events[0], UnitExited) and exited(night) == ["u"]
