"""The Shiloh scenario as shipped (003, the revised book, 15.0-24.0): the order of battle exactly as the
charts print it (16.1, 16.2, 17.1, erratum 23.0), the sequence of play (16.3, 16.4) and a map that
agrees with every hex the rules name (18.0, 20.0, 21.2, 9.62, 17.1)."""

from collections import deque

from charts import read_chart

from rules.core import terrain
from rules.core.hexes import Grid
from scenarios.loader import load

# 16.1 as printed (hex, chart strength, designation).
UNION_CHART = """
1515 5 2/5; 1413 8 2/2; 1313 1c 4; 1212 3a 4; 1213 6 3/4; 1111 4a 2; 1112 6 1/2; 1113 6 1/4;
1114 1c 6; 1011 8 3/2; 1013 2a 6; 1014 5 6; 0914 5 2/6; 0810 6 2/4; 0812 6 3/1; 0813 6 1/6;
0711 4a 1; 0712 6 2/1; 0611 6 1/1; 0612 5 4/5; 0411 3a 5; 0412 5 3/5; 0312 5 1/5; 0211 1c 5;
0910 3 Army; 0809 5a Army
"""
# 16.2 as printed, with 23.0 (the cavalry at 0518 is 'I', as on the chart).
CONFEDERATE_CHART = """
0818 6 Jackson; 0718 7 Chalmers; 0616 9 Wood; 0617 1a 1/II; 0516 4a III; 0517 7 Gladden; 0518 2c I;
0415 9 Cleburne; 0416 3a 2/II; 0417 6 Johnson; 0315 6 Hindman; 0316 6 Pond; 0317 2a 1/I;
0318 5 Stephens; 0215 6 Anderson; 0216 6 Russell; 0217 2a 2/I; 0218 9 Statham; 0115 6 Gibson;
0117 6 Stewart; 0118 9 Trabue; 0119 4a Reserve; 0319 6 Bowen; 0116 3c Army; 0418 2a Army
"""
# 17.0, 17.1 (Game-Turn/entry hex, chart strength, designation).
UNION_REINFORCEMENTS = """
5/1701 1g Lexington; 5/1701 2g Tyler; 5/1905 5 10/4;
6/0901 5 1/3; 6/0901 5 2/3; 6/0901 5 3/3; 6/0901 1c 3; 6/0901 2a 3;
6/1905 5 19/4; 6/1905 5 22/4; 6/1905 5 14/5; 6/1905 6 4/2; 6/1905 6 11/5; 6/1905 3a 5;
9/1905 6 5/2; 9/1905 6 6/2; 9/1905 1a 2
"""
TYPE = {"": "infantry", "a": "artillery", "c": "cavalry", "g": "gunboat"}  # 16.0

SCENARIO = load("shiloh")
GRID = Grid(SCENARIO.map.lower_columns)


def chart(text):
    return read_chart(text, TYPE)


def test_sequence_of_play():
    # 16.3 the Confederate is the first Player; 16.4 thirteen Game-Turns, Game-Turn Seven a Night
    assert (SCENARIO.first_player, SCENARIO.turns, SCENARIO.night_turns) == ("confederate", 13, [7])
    assert SCENARIO.rulesets == ["revised"]


def test_initial_deployment_as_the_charts_print_it():
    # 16.1, 16.2
    for side, text in (("union", UNION_CHART), ("confederate", CONFEDERATE_CHART)):
        placed = sorted(
            (u.hex, u.strength, u.type, u.designation) for u in SCENARIO.units if u.side == side and u.hex
        )
        assert placed == chart(text), side


def test_reinforcements_as_the_chart_prints_them():
    # 17.1: the Union only; the Confederate has none
    arriving = [u for u in SCENARIO.units if u.hex is None]
    assert {u.side for u in arriving} == {"union"}
    got = sorted((f"{u.arrives}/{u.entry[0]}", u.strength, u.type, u.designation) for u in arriving)
    assert got == chart(UNION_REINFORCEMENTS)
    assert all(len(u.entry) == 1 for u in arriving)


def test_totals_and_unit_ids():
    # 22.1: "a starting total of 121 Combat Strength Points" for the Union; ids unique though
    # designations repeat ('6', '5', '4', '3', '2', 'Army')
    start = [u for u in SCENARIO.units if u.hex]
    assert sum(u.strength for u in start if u.side == "union") == 121
    assert sum(u.strength for u in start if u.side == "confederate") == 132
    assert sum(u.strength for u in SCENARIO.units if u.hex is None) == 69
    assert len({u.id for u in SCENARIO.units}) == len(SCENARIO.units) == 68
    assert not any(u.designation == "2" and u.type == "cavalry" for u in SCENARIO.units)  # 23.0


def test_the_hexes_the_rules_name():
    hexes = SCENARIO.map.hexes
    on_edge = {h for h in hexes if sum(n in hexes for n in GRID.neighbours(h)) < 6}
    # 17.1: the land entry hexes lie on the map edge (1905 east, 0901 north); 1701 (gunboats) too
    assert {"1905", "0901", "1701"} <= on_edge
    # 18.0: Pittsburg Landing, a land hex beside the river ferry hex (20.0), whose arrows lead to it
    assert hexes["1508"] == terrain.CLEAR
    ferries = [h for h, t in hexes.items() if t == terrain.FERRY]
    assert ferries == ["1608"]
    assert terrain.FERRY_CROSSING in SCENARIO.map.features("1508", "1608")
    assert terrain.FERRY_CROSSING in SCENARIO.map.features("1608", "1709")
    # 21.2: "the bridge (hex 0905)": a bridge across a creek on the road from 0901
    assert {terrain.CREEK, terrain.BRIDGE, terrain.ROAD} <= SCENARIO.map.features("0904", "0905")
    # 9.62: 1701 is not a river hex, but beside one (gunboats reach the river from it)
    assert hexes["1701"] != terrain.RIVER
    assert any(hexes.get(n) == terrain.RIVER for n in GRID.neighbours("1701"))


def land_reach(start, allowed=lambda a, b: True):
    """The hexes reached from ``start`` by land, creeks only at bridges and fords, ferries through
    their arrows."""
    m = SCENARIO.map
    seen, todo = {start}, deque([start])
    while todo:
        a = todo.popleft()
        for b in GRID.neighbours(a):
            if b in seen or b not in m.hexes or m.hexes[b] == terrain.RIVER:
                continue
            f = m.features(a, b)
            if terrain.CREEK in f and not f & {terrain.BRIDGE, terrain.FORD}:
                continue
            if terrain.FERRY in (m.hexes[a], m.hexes[b]) and terrain.FERRY_CROSSING not in f:
                continue
            if allowed(a, b):
                seen.add(b)
                todo.append(b)
    return seen


def test_the_east_bank_reaches_the_west_only_by_the_ferry():
    # 20.0: reinforcements at 1905 "appear on the eastern side of the Tennessee River" and "must use
    # the Ferry Crossing" to join the others
    east = land_reach("1905", lambda a, b: SCENARIO.map.hexes[b] != terrain.FERRY)
    assert "1709" in east and "1508" not in east
    assert "1508" in land_reach("1905")
    # 0901 reaches 0905 by road over the bridge, and the bridge leads to the Landing
    assert {"0905", "1508"} <= land_reach("0901")


def test_every_union_unit_can_make_the_surprise_move():
    # 19.1: every Union unit must move one hex north or north-east on Game-Turns One and Two: for
    # each set-up hex, one of the two is a hex of the map its unit may enter
    hexes = SCENARIO.map.hexes
    for u in SCENARIO.units:
        if u.side == "union" and u.hex:
            q, r = GRID.axial(u.hex)
            ahead = [GRID.number(q, r - 1), GRID.number(q + 1, r - 1)]
            assert any(hexes.get(h) not in (None, terrain.RIVER, terrain.FERRY) for h in ahead), u.id


def test_the_set_up_is_one_unit_a_hex_and_the_armies_three_hexes_apart():
    placed = [u for u in SCENARIO.units if u.hex]
    assert len({u.hex for u in placed}) == len(placed)
    union = {u.hex for u in placed if u.side == "union"}
    confederate = {u.hex for u in placed if u.side == "confederate"}
    # no unit starts in an enemy zone of control (the notes: the nearest are three hexes apart)
    assert min(GRID.distance(a, b) for a in union for b in confederate) == 3


def test_the_ferry_crossing_as_20_0_describes_it():
    # 20.0: Union units only, from the east bank (1709) into Pittsburg Landing (1508) only, closed while
    # the Confederate occupies 1508 (18.31); three Movement Points to enter (10.1: river ferry hex 3)
    from rules.core.game import Game
    from rules.rulesets import get as get_ruleset

    game = Game(SCENARIO, get_ruleset("revised"))
    ferries = game.battle.ferries
    assert ferries.sides == ["union"]
    assert [(w.hex, w.enter_from, w.leave_to) for w in ferries.one_way] == [("1608", "1709", "1508")]
    assert (ferries.closed_while_occupied.side, ferries.closed_while_occupied.hexes) == ("confederate", ["1508"])
    assert game.ruleset.terrain_cost[terrain.FERRY] == 3
    assert game.step_problem("1508", "1608") is not None and game.step_problem("1608", "1709") is not None
    assert game.step_problem("1709", "1608") is None and game.step_problem("1608", "1508") is None
    assert "1508" in game.control_hexes


def test_the_surprise_assault_binds_every_union_unit_on_game_turns_one_and_two_19_1():
    # 19.1 on the Shiloh map: in the Union Movement Phase of Game-Turn One every Union unit may move
    # only into its north or north-east hex, and the phase does not end before they have
    import pytest

    from rules.core.commands import EndPhase
    from rules.core.errors import RuleViolation
    from rules.core.game import Game
    from rules.procedures.movement import reachable
    from rules.reducer import execute, new_game
    from rules.rulesets import get as get_ruleset

    state = new_game(Game(SCENARIO, get_ruleset("revised")))
    while state.phasing != "union":
        state, _ = execute(state, EndPhase())
    assert (state.turn, state.phase) == (1, "movement")
    for u in SCENARIO.units:
        if u.side == "union" and u.hex:
            q, r = GRID.axial(u.hex)
            ahead = {GRID.number(q, r - 1), GRID.number(q + 1, r - 1)}
            ends = set(reachable(state, u.id).ends)
            assert ends and ends <= ahead, u.id
    with pytest.raises(RuleViolation) as refused:
        execute(state, EndPhase())
    assert refused.value.case == "19.1"
