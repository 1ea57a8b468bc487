"""Cemetery Hill's exits (003 18.2) and exited cavalry (20.3), under the revised rules, on an 8 x 8 map
(even columns lower) whose east edge is column 08 and south edge row 08, with the battle's parameters."""

from __future__ import annotations

import pytest
from rulesmaps import rebel, scenario, union

from rules.core.commands import EndPhase, ExitMap
from rules.core.errors import RuleViolation
from rules.core.events import UnitExited, VictoryPointsAwarded
from rules.core.game import Game
from rules.procedures.exits import exit_paths
from rules.procedures.victory import end_points, recount
from rules.queries.exits import exit_hexes, exited
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

CEMETERY_HILL = load("cemetery_hill")
CASES = {"revised": {"exits": "18.2", "exits.cost": "18.2", "exits.excess": "20.3", "line_of_communications": "20.4"}}


def start(units, turns=3, with_line=False):
    exclusive = {"exits": dict(CEMETERY_HILL.exclusive["exits"]), "victory": dict(CEMETERY_HILL.exclusive["victory"])}
    if with_line:
        exclusive["line_of_communications"] = dict(CEMETERY_HILL.exclusive["line_of_communications"])
    sc = scenario(units, exclusive=exclusive, cases=CASES, turns=turns)
    return new_game(Game(sc, get_ruleset("revised")))


def cavalry(make, uid, hex_, **kw):
    return make(uid, hex_, type_="cavalry", **kw)


def test_the_battle_exits_cavalry_by_the_east_and_south_edges():
    # 18.0, 18.2, on the battle's map: every hex of column 21 and of the south edge, none elsewhere
    game = Game(CEMETERY_HILL, get_ruleset("revised"))
    hexes = set(exit_hexes(game))
    assert {"2101", "2112", "2120", "2127", "1127", "0127", "0226"} <= hexes
    assert not hexes & {"0104", "1101", "0114", "1110"}
    assert all(h[:2] == "21" or h[2:] in ("26", "27") for h in hexes)
    assert game.battle.exits.unit_types == ["cavalry"] and game.battle.exits.cost == 1


def test_only_cavalry_may_exit():
    # 18.2 "Only cavalry units may exit the map sheet"
    state = start([cavalry(union, "c", "0704"), union("i", "0706"), rebel("far", "0101")])
    state, events = execute(state, ExitMap("c", ("0704", "0804")))
    assert events[0] == UnitExited(unit="c", path=("0704", "0804"), cost=2)
    with pytest.raises(RuleViolation) as refused:
        execute(state, ExitMap("i", ("0706", "0806")))
    assert refused.value.case == "18.2"
    assert exit_paths(state, "i") == {}


def test_only_by_the_east_or_south_edge():
    # 18.2 "They may only exit on the east or south edges of the map sheet"
    state = start([cavalry(union, "c", "0202"), rebel("far", "0606")])
    with pytest.raises(RuleViolation) as refused:
        execute(state, ExitMap("c", ("0202", "0101")))  # the north-west corner: north and west edges
    assert refused.value.case == "18.2"
    paths = exit_paths(state, "c")
    assert paths and all(h[:2] == "08" or h[2:] == "08" for h in paths)
    state = start([cavalry(union, "c", "0307"), rebel("far", "0602")])
    state, events = execute(state, ExitMap("c", ("0307", "0308")))  # the south edge
    assert exited(state) == ["c"]


def test_exiting_costs_one_movement_point():
    # 18.2 "Exiting the map sheet costs one Movement Point": cavalry's eight (revised 2.4) take it seven
    # clear hexes and off; not eight
    state = start([cavalry(union, "c", "0105"), rebel("far", "0101")])
    state, events = execute(state, ExitMap("c", tuple(f"0{c}05" for c in range(1, 9))))
    assert events[0].cost == 8
    state = start([cavalry(union, "c", "0105"), rebel("far", "0101")])
    with pytest.raises(RuleViolation) as refused:
        execute(state, ExitMap("c", ("0105", "0106", *(f"0{c}06" for c in range(2, 9)))))
    assert refused.value.case == "18.2"


def test_exited_units_never_return_are_not_destroyed_and_need_no_line():
    # 18.2 "Once they have exited they may never return. Exited units are not considered destroyed for
    # Victory Point purposes, and may ignore Line of Communication rules."
    state = start([cavalry(union, "c", "0704", strength=5), union("u", "0101"), rebel("far", "0404")], with_line=True)
    state, _ = execute(state, ExitMap("c", ("0704", "0804")))
    assert "c" not in state.positions and "c" not in state.eliminated
    assert exit_paths(state, "c") == {}
    with pytest.raises(RuleViolation):
        execute(state, ExitMap("c", ("0804",)))
    assert [a for a in end_points(state) if a.subject == "c"] == []
    assert state.vp == {"union": 0, "confederate": 0}


def to_union_movement(state, turn):
    while not (state.turn == turn and state.phasing == "union" and state.phase == "movement"):
        state, _ = execute(state, EndPhase())
    return state


def test_five_points_each_game_turn_per_confederate_cavalry_unit_in_excess():
    # 20.3, the book's example, one Game-Turn earlier: the Confederate exits three cavalry units in his
    # Player-Turn of Game-Turn One, the Union two in his of Game-Turn Two; at the end of that Union
    # Player-Turn the Confederate is awarded five Victory Points, and five more at the end of each later
    # Union Player-Turn while no more exit. Nothing at the end of the Union Player-Turn of Game-Turn One.
    units = [
        cavalry(rebel, "r1", "0702"), cavalry(rebel, "r2", "0704"), cavalry(rebel, "r3", "0706"),
        cavalry(union, "u1", "0207"), cavalry(union, "u2", "0407"),
    ]
    first = start(units, turns=4)
    state, log = first, []

    def run(command):
        nonlocal state
        state, events = execute(state, command)
        log.extend(events)

    while state.phasing == "union":
        run(EndPhase())
    assert state.vp == {"union": 0, "confederate": 0}
    for r in ("r1", "r2", "r3"):
        here = state.positions[r]
        run(ExitMap(r, (here, "08" + here[2:])))
    while state.phasing != "union":
        run(EndPhase())
    run(ExitMap("u1", ("0207", "0208")))
    run(ExitMap("u2", ("0407", "0408")))
    while not state.game_over:
        run(EndPhase())
    awards = [(a.side, a.points, a.subject, a.case) for a in log if isinstance(a, VictoryPointsAwarded)]
    assert awards == [("confederate", 5, "2", "20.3"), ("confederate", 5, "3", "20.3"), ("confederate", 5, "4", "20.3")]
    assert state.vp == {"union": 0, "confederate": 15}
    assert recount(first, log) == state.vp


def test_no_points_while_the_union_has_exited_as_many():
    # 20.3 "in excess of the number of Union exited cavalry units": one each, nothing
    units = [cavalry(rebel, "r1", "0702"), cavalry(union, "u1", "0207")]
    state = start(units, turns=2)
    while state.phasing == "union":
        state, _ = execute(state, EndPhase())
    state, _ = execute(state, ExitMap("r1", ("0702", "0802")))
    state = to_union_movement(state, 2)
    state, _ = execute(state, ExitMap("u1", ("0207", "0208")))
    while not state.game_over:
        state, _ = execute(state, EndPhase())
    assert state.vp == {"union": 0, "confederate": 0}
