"""Hooker and Lee (003 18.0, 19.0) under the revised rules: exiting the map (18.11, 18.12, 18.21), the
Union movement restriction (19.11, 19.12, 19.15) and stacking restrictions (19.21-19.23), on small maps (8 x 8, even columns lower) with the
battle's blocks (its exit hexes 1501, 2001, 2101 stand as 0101, 0102, 0103 on the small map)."""

from __future__ import annotations

from combatmaps import refused, to_phase
from rulesmaps import rebel, scenario, union

from rules.core.commands import EnterReinforcement, ExitMap, MoveUnit
from rules.core.game import Game
from rules.procedures.exits import exit_awards
from rules.procedures.movement import reachable
from rules.procedures.retreat import retreat_options
from rules.queries.exits import exited
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

HOOKER = load("hooker_and_lee")
CASES = {"revised": dict(HOOKER.cases["revised"])}
SMALL = {"1501": "0101", "2001": "0102", "2101": "0103"}  # the exit hexes on the small map


def exits_block():
    block = dict(HOOKER.exclusive["exits"])
    block["hexes"] = [SMALL[h] for h in block["hexes"]]
    block["awards"] = [{**a, "hexes": [SMALL[h] for h in a["hexes"]]} for a in block["awards"]]
    return block


def start(units, first_player="union", use=("exits", "movement_quota")):
    exclusive = {name: (exits_block() if name == "exits" else dict(HOOKER.exclusive[name])) for name in use}
    sc = scenario(units, exclusive=exclusive, cases=CASES, turns=9, first_player=first_player)
    return new_game(Game(sc, get_ruleset("revised")))


def test_the_battle_blocks():
    # 18.11, 18.21: exits only at 1501, 2001, 2101; 21.12: one point per Union Strength Point exited;
    # 19.11, 19.12: six Union units a Game-Turn, reinforcements never bound
    assert HOOKER.exclusive["exits"]["hexes"] == ["1501", "2001", "2101"]
    assert HOOKER.exclusive["exits"]["awards"] == [
        {"side": "union", "hexes": ["1501", "2001", "2101"], "per": "strength_point", "points": 1}
    ]
    assert HOOKER.exclusive["movement_quota"] == {"side": "union", "units": 6, "reinforcements_exempt": True}


def test_the_union_exits_only_at_the_exit_hexes_and_scores_its_strength_points_18_11():
    # 18.11: "only from hexes 1501, 2001 and 2101"; 21.12 "one Victory Point for each Union Combat
    # Strength Point exited voluntarily"
    state = start([union("u", "0202", strength=9), union("v", "0606", strength=4), rebel("far", "0808")])
    assert refused(state, ExitMap("v", ("0606", "0706", "0806"))).case == "18.11"
    state, _ = execute(state, ExitMap("u", ("0202", "0102")))
    assert exited(state) == ["u"] and "u" not in state.eliminated  # 18.12: not eliminated
    assert [(a.side, a.points) for a in exit_awards(state)] == [("union", 9)]


def test_not_through_an_exit_hex_the_enemy_controls_18_11():
    # 18.11 "if those hexes are not occupied or controlled by Confederate units": the Confederate at 0201
    # holds 0101 and 0102 in his zone of control; 0103 is free
    state = start([union("u", "0104", strength=9), rebel("c", "0201"), rebel("far", "0808")])
    assert refused(state, ExitMap("u", ("0104", "0103", "0102"))).case == "18.11"
    state, _ = execute(state, ExitMap("u", ("0104", "0103")))
    assert exited(state) == ["u"]


def test_the_confederate_exits_by_the_same_hexes_for_no_points_18_21():
    # 18.21: "through hexes 1501, 2001 and 2101 ... receives no Victory Points for units so exited"
    state = start([rebel("c", "0203", strength=5), union("far", "0808")], first_player="confederate")
    state, _ = execute(state, ExitMap("c", ("0203", "0103")))
    assert exited(state) == ["c"] and exit_awards(state) == []


def test_the_union_moves_only_six_units_a_game_turn_19_11():
    # 19.11: "He may move only six units of his choice each Game-Turn"
    units = [union(f"u{i}", f"03{i:02d}") for i in range(1, 8)] + [rebel("far", "0808")]
    state = start(units)
    for i in range(1, 7):
        state, _ = execute(state, MoveUnit(f"u{i}", (f"03{i:02d}", f"04{i:02d}")))
    assert refused(state, MoveUnit("u7", ("0307", "0407"))).case == "19.11"


def test_reinforcements_are_never_bound_19_12():
    # 19.12: "Union Reinforcements arriving on Game-Turns Four and Five are not subject to or affected by
    # this restriction at any time during the game": six moves used, the reinforcement still enters
    # and, on a later Game-Turn, moves beside six others
    units = [union(f"u{i}", f"03{i:02d}") for i in range(1, 7)] + [
        union("r", None, arrives=1, entry=["0801"]), rebel("far", "0108")]
    state = start(units)
    for i in range(1, 7):
        state, _ = execute(state, MoveUnit(f"u{i}", (f"03{i:02d}", f"04{i:02d}")))
    state, _ = execute(state, EnterReinforcement("r", ("0801", "0802")))
    assert state.positions["r"] == "0802"
    state = to_phase(state, "confederate", "movement")
    state = to_phase(state, "union", "movement")
    assert state.turn == 2
    for i in range(1, 7):
        state, _ = execute(state, MoveUnit(f"u{i}", (f"04{i:02d}", f"05{i:02d}")))
    state, _ = execute(state, MoveUnit("r", ("0802", "0803")))
    assert state.positions["r"] == "0803"


def test_the_confederate_has_no_movement_restrictions_19_15():
    # 19.15: seven Confederate units move in one Movement Phase
    units = [rebel(f"c{i}", f"03{i:02d}") for i in range(1, 8)] + [union("far", "0808")]
    state = start(units, first_player="confederate")
    for i in range(1, 8):
        state, _ = execute(state, MoveUnit(f"c{i}", (f"03{i:02d}", f"04{i:02d}")))
    assert all(state.positions[f"c{i}"] == f"04{i:02d}" for i in range(1, 8))


def test_the_union_divisions_are_its_infantry_19_21():
    # 19.21: the divisions ("2/V": 2nd Division, V Corps) stack with no unit; the corps artillery and the
    # cavalry are brigades
    alone = set(HOOKER.exclusive["stacking"]["alone"])
    assert alone == {u.id for u in HOOKER.units if u.side == "union" and u.type == "infantry"}
    assert len(alone) == 16


def stacking_game(units, first_player="union"):
    sc = scenario(units, exclusive={"stacking": {"alone": ["d1", "d2"]}}, cases=CASES, turns=9, first_player=first_player)
    return new_game(Game(sc, get_ruleset("revised")))


def test_no_brigade_stacks_with_a_division_and_divisions_do_not_stack_19_21():
    # 19.21: "Union divisions may not stack, and no brigade may stack with a division"
    units = [union("d1", "0404"), union("d2", "0402"), union("b1", "0406", type_="artillery"),
             union("b2", "0204", type_="cavalry"), rebel("far", "0808")]
    s = stacking_game(units)
    assert refused(s, MoveUnit("b1", ("0406", "0405", "0404"))).case == "19.22"
    assert refused(s, MoveUnit("d2", ("0402", "0403", "0404"))).case == "19.22"
    assert "0404" not in reachable(s, "b2").ends and "0404" not in reachable(s, "d2").ends
    # a division may not end its move in a brigade's hex either
    assert refused(s, MoveUnit("d1", ("0404", "0405", "0406"))).case == "19.22"


def test_two_brigades_stack_19_21():
    # 19.21: "Two brigades may stack together in accordance with Case 6.32"
    units = [union("b1", "0406", type_="artillery"), union("b2", "0404", type_="cavalry"), rebel("far", "0808")]
    s = stacking_game(units)
    s, _ = execute(s, MoveUnit("b2", ("0404", "0405", "0406")))
    assert s.positions["b2"] == s.positions["b1"] == "0406"


def test_a_union_unit_moves_through_a_division_but_does_not_end_a_phase_with_one_19_22():
    # 19.22: "may move through hexes containing divisions, but may neither end the Movement Phase nor the
    # Combat Phase stacked with one": through 0404 (d1) to 0405; no retreat ends in a division's hex
    units = [union("d1", "0404"), union("b1", "0403", type_="artillery"), rebel("far", "0808")]
    s = stacking_game(units)
    s2, _ = execute(s, MoveUnit("b1", ("0403", "0404", "0405")))
    assert s2.positions["b1"] == "0405"
    assert "0404" not in {o.to for o in retreat_options(s, "b1")}


def test_confederate_units_stack_normally_19_23():
    # 19.23: a Confederate brigade joins another in its hex (the battle names no Confederate unit alone)
    units = [rebel("c1", "0404"), rebel("c2", "0402"), union("far", "0808")]
    s = stacking_game(units, first_player="confederate")
    s, _ = execute(s, MoveUnit("c2", ("0402", "0403", "0404")))
    assert s.positions["c1"] == s.positions["c2"] == "0404"
    assert not {u for u in HOOKER.exclusive["stacking"]["alone"] if not u.startswith("us-")}
