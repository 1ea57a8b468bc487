"""Hooker and Lee (003 18.0, 19.0) under the revised rules: exiting the map (18.11, 18.12, 18.21), the
Union movement restrictions (19.11-19.15) and stacking restrictions (19.21-19.23), on small maps (8 x 8, even columns lower) with the
battle's blocks (its exit hexes 1501, 2001, 2101 stand as 0101, 0102, 0103 on the small map)."""

from __future__ import annotations

from combatmaps import of_type, refused, rolls, to_phase
from rulesmaps import board, rebel, scenario, sides, union

from rules.core.commands import EndPhase, EnterReinforcement, ExitMap, MoveUnit
from rules.core.events import CrossingDieRolled
from rules.core.game import Game
from rules.core.hexes import Grid
from rules.procedures.exits import exit_awards
from rules.procedures.movement import reachable
from rules.procedures.retreat import retreat_options
from rules.queries.exits import exited
from rules.reducer import decide, execute, fold, new_game
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
    assert HOOKER.exclusive["exits"]["not_occupied_or_controlled_by_enemy"] is True  # 18.11, 18.21
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


def test_not_through_an_exit_hex_the_enemy_controls_at_night_either_18_11():
    # 18.11 "only from hexes 1501, 2001 and 2101 if those hexes are not occupied or controlled by
    # Confederate units", with no exception for a Night Game-Turn: revised 11.12 lets u, which begins
    # the Night Game-Turn at 2101 (0103) in the zone of control of the Confederate at 0203 (as Wright/A
    # at 2102), leave that hex, but not leave the map from it; it may move to 2001 (0102), which no
    # Confederate controls, and exit there
    exclusive = {"exits": exits_block()}
    sc = scenario(
        [union("u", "0103"), rebel("c", "0203"), rebel("far", "0808")],
        exclusive=exclusive,
        cases=CASES,
        turns=9,
        night_turns=[1],
    )
    state = new_game(Game(sc, get_ruleset("revised")))
    assert refused(state, ExitMap("u", ("0103",))).case == "18.11"
    state, _ = execute(state, ExitMap("u", ("0103", "0102")))  # 11.12: leaving the controlled hex by night
    assert exited(state) == ["u"]
    # 18.21: the Confederate likewise, "if these hexes are not occupied or controlled by Union units"
    sc = scenario(
        [rebel("c", "0103"), union("u", "0203"), union("far", "0808")],
        exclusive=exclusive,
        cases=CASES,
        turns=9,
        night_turns=[1],
        first_player="confederate",
    )
    assert refused(new_game(Game(sc, get_ruleset("revised"))), ExitMap("c", ("0103",))).case == "18.11"


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


def test_the_western_zone_is_the_edge_and_the_next_row_19_13():
    # 19.13 "within two hexes of the western map-edge" (ruling: the edge hexes, row 28 of the odd columns
    # and 27 of the even, and their neighbours one row in); it opens on Game-Turn Four
    zone = set(HOOKER.map.areas["west_edge_zone"])
    grid = Grid("even")
    edge = {h for h in HOOKER.map.hexes if int(h[2:]) == (28 if int(h[:2]) % 2 else 27)}
    assert edge <= zone and {"1027", "1928", "1728"} <= zone
    assert all(h in edge or any(grid.adjacent(h, e) for e in edge) for h in zone)
    assert HOOKER.exclusive["command_control_zone"] == {"side": "union", "area": "west_edge_zone", "opens_on_turn": 4}
    assert not {u.hex for u in HOOKER.units if u.side == "union" and u.hex} & zone


def zone_game(units, first_player="union"):
    block = {"side": "union", "area": "west", "opens_on_turn": 4}
    sc = scenario(units, exclusive={"command_control_zone": block}, cases=CASES, turns=9, first_player=first_player,
                  areas={"west": ["0107", "0108", "0207", "0206", "0307", "0308"]})
    return new_game(Game(sc, get_ruleset("revised")))


def test_no_union_unit_moves_near_the_western_edge_before_game_turn_four_19_13():
    # 19.13: "may not move any unit within two hexes of the western map-edge prior to Game-Turn Four"
    s = zone_game([union("u", "0305"), rebel("c", "0605"), rebel("far", "0801")])
    assert refused(s, MoveUnit("u", ("0305", "0306", "0307"))).case == "19.13"
    assert "0307" not in reachable(s, "u").ends and "0308" not in reachable(s, "u").ends
    s.turn = 3
    assert refused(s, MoveUnit("u", ("0305", "0306", "0307"))).case == "19.13"
    s.turn = 4
    s, _ = execute(s, MoveUnit("u", ("0305", "0306", "0307")))
    assert s.positions["u"] == "0307"
    # the Confederate is not bound (19.15)
    s = zone_game([rebel("c", "0305"), union("far", "0801")], first_player="confederate")
    s, _ = execute(s, MoveUnit("c", ("0305", "0306", "0307")))
    assert s.positions["c"] == "0307"


def crossing_game(units):
    """A river in column 03 (0301-0308) with two River ferry hexes: 0304 (arrows 0204, 0404: Ely's Ford)
    and 0307 (arrows 0207, 0407)."""
    hexes = {f"03{r:02d}": "river" for r in range(1, 9)} | {"0304": "ferry", "0307": "ferry"}
    arrows = sides({("0304", "0204"): {"ferry_crossing"}, ("0304", "0404"): {"ferry_crossing"},
                    ("0307", "0207"): {"ferry_crossing"}, ("0307", "0407"): {"ferry_crossing"}})
    block = {"side": "union", "units": ["av1", "av2"], "hex": "0304", "succeeds_on": [1]}
    sc = scenario(units, hexes=board(terrain=hexes), hexsides=arrows, exclusive={"crossing_die": block,
                  "ferries": {"hexes": ["0304", "0307"]}}, cases=CASES, turns=9, first_player="confederate")
    return new_game(Game(sc, get_ruleset("revised")))


def to_union_movement(state, *dice):
    """End the Confederate phases: the Union Movement Phase begins with its rolls (``dice``)."""
    events = []
    while not (state.phasing == "union" and state.phase == "movement"):
        more = decide(state, EndPhase(), rolls(*dice) if state.phase == "combat" else None)
        state = fold(state, more)
        events += more
    return state, events


def test_averill_crosses_ely_s_ford_only_after_a_one_19_14():
    # 19.14: "may not cross Ely's Ford until the Union Player rolls a '1' on the die. The die is rolled once
    # for each Game-Turn": a 4 on Game-Turn One, a 1 on Game-Turn Two
    units = [union("av1", "0204", type_="cavalry"), union("av2", "0205", type_="cavalry"), union("other", "0206", type_="cavalry"),
             rebel("far", "0808")]
    s, events = to_union_movement(crossing_game(units), 4)
    assert [(e.turn, e.roll, e.allowed) for e in of_type(events, CrossingDieRolled)] == [(1, 4, False)]
    assert refused(s, MoveUnit("av1", ("0204", "0304", "0404"))).case == "19.14"
    assert "0404" not in reachable(s, "av1").ends
    # another unit crosses there freely; the die is not rolled again this Game-Turn
    s, events = execute(s, MoveUnit("other", ("0206", "0207", "0307", "0407")))
    assert s.positions["other"] == "0407" and not of_type(events, CrossingDieRolled)
    s = to_phase(s, "confederate", "movement")
    s, events = to_union_movement(s, 1)
    assert [(e.turn, e.roll, e.allowed) for e in of_type(events, CrossingDieRolled)] == [(2, 1, True)]
    s, _ = execute(s, MoveUnit("av1", ("0204", "0304", "0404")))
    assert s.positions["av1"] == "0404"


def test_averill_never_crosses_another_river_ferry_hex_19_14():
    # 19.14: "These units may not cross at any other River ferry hex", before the '1' or after it
    units = [union("av1", "0207", type_="cavalry"), union("av2", "0205", type_="cavalry"), rebel("far", "0808")]
    s, _ = to_union_movement(crossing_game(units), 1)
    assert refused(s, MoveUnit("av1", ("0207", "0307", "0407"))).case == "19.14"
    s, _ = execute(s, MoveUnit("av2", ("0205", "0204", "0304", "0404")))
    assert s.positions["av2"] == "0404"


def test_a_confederate_unit_forced_off_the_map_at_an_exit_hex_is_not_eliminated_18_21():
    # 18.21: "Confederate units exiting the map sheet through these hexes for any reason, even as a result
    # of combat, are not considered eliminated": c at 0101 (1501 on the small map), its retreat hexes held
    # by Union units or their zones, retreats off the map: exited; 18.12: a Union unit so forced is eliminated
    from rules.core.commands import DeclareAttack, ResolveAttack
    from rules.reducer import decide as decide_

    units = [union("a", "0201", strength=1), union("b", "0102", strength=1), rebel("c", "0101", strength=1),
             rebel("far", "0808")]
    s = to_phase(start(units), "union", "combat")
    s, _ = execute(s, DeclareAttack(("a", "b"), ("0101",)))
    events = decide_(s, ResolveAttack(), rolls(1, 1, 1, 1))
    s = fold(s, events)
    assert events[0].result == "Dr"
    assert "c" not in s.positions and "c" not in s.eliminated and exited(s) == ["c"]
    units = [rebel("a", "0201", strength=1), rebel("b", "0102", strength=1), union("u", "0101", strength=1),
             union("far", "0808")]
    s = to_phase(start(units, first_player="confederate"), "confederate", "combat")
    s, _ = execute(s, DeclareAttack(("a", "b"), ("0101",)))
    events = decide_(s, ResolveAttack(), rolls(1, 1, 1, 1))
    s = fold(s, events)
    assert events[0].result == "Dr" and "u" in s.eliminated and exited(s) == []
