"""Hooker and Lee 18.22-18.27 (Jackson's flanking manoeuvre: the ``exit_and_return`` component) under the
revised rules, on small maps (8 x 8, even columns lower) with the battle's block: its exit hexes 2518 and
2514 stand as 0805 and 0806 (the east edge of the small map), its re-entry hexes as 0108 and 0208 (the
south-west corner), and its 20 units as 2."""

from __future__ import annotations

from combatmaps import of_type, refused, to_phase
from rulesmaps import rebel, scenario, union

from rules.core.commands import EndPhase, EnterReinforcement, ExitMap
from rules.core.events import UnitExited, UnitMarchedOff
from rules.core.game import Game
from rules.procedures.exits import exit_paths
from rules.procedures.reinforcements import due, entry_hexes, waiting
from rules.queries.exits import exited
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

HOOKER = load("hooker_and_lee")
CASES = {"revised": dict(HOOKER.cases["revised"])}


def block():
    return {**HOOKER.exclusive["exit_and_return"], "hexes": ["0805", "0806"], "units": 2, "entry": ["0108", "0208"]}


def start(units):
    exclusive = {"exit_and_return": block(), "exits": {"hexes": ["0101"], "cost": 1}}
    sc = scenario(units, exclusive=exclusive, cases=CASES, turns=9, first_player="confederate")
    return new_game(Game(sc, get_ruleset("revised")))


def to_turn(state, turn):
    """To the Confederate Movement Phase of Game-Turn ``turn``."""
    while state.turn < turn:
        state, _ = execute(state, EndPhase())
    return to_phase(state, "confederate", "movement")


UNITS = [rebel("c1", "0705"), rebel("c2", "0706"), rebel("c3", "0704"), union("u", "0505"), union("far", "0101")]


def test_the_battle_block():
    # 18.22: 2518 and/or 2514, a combined total of 20 units, on the first two Game-Turns; 18.23: back on
    # Four and Five; 18.24: the western map edge from 1027 to 1928 inclusive (the edge hexes of columns 10-19)
    b = HOOKER.exclusive["exit_and_return"]
    assert (b["side"], b["hexes"], b["units"]) == ("confederate", ["2518", "2514"], 20)
    assert b["returns"] == [{"exited_on": 1, "turn": 4}, {"exited_on": 2, "turn": 5}]
    assert b["entry"] == [f"{c:02d}{28 if c % 2 else 27}" for c in range(10, 20)]


def test_a_confederate_unit_exits_by_the_southern_hexes_on_the_first_two_game_turns_18_22():
    # 18.22: "may voluntarily exit ... from hexes 2518 and/or 2514": off the map, neither eliminated nor
    # exited for good (18.23: it "must later re-enter")
    s = start(UNITS)
    assert set(exit_paths(s, "c1")) >= {"0805"}
    s, events = execute(s, ExitMap("c1", ("0705", "0805")))
    assert of_type(events, UnitMarchedOff) == [UnitMarchedOff(unit="c1", path=("0705", "0805"), cost=2, returns=4)]
    assert not of_type(events, UnitExited)
    assert "c1" not in s.positions and "c1" not in s.eliminated and exited(s) == []
    assert waiting(s, "confederate") == ["c1"]


def test_a_combined_total_and_no_union_unit_18_22():
    # 18.22: "a combined total of 20 units" (2 on the small map); the hexes are the Confederate's only
    s = start(UNITS)
    s, _ = execute(s, ExitMap("c1", ("0705", "0805")))
    s, _ = execute(s, ExitMap("c2", ("0706", "0806")))
    assert refused(s, ExitMap("c3", ("0704", "0805"))).case == "18.22"
    s = to_phase(start(UNITS), "union", "movement")
    assert refused(s, ExitMap("u", ("0505", "0605", "0705", "0805"))).case == "18.22"


def test_they_return_on_game_turn_four_or_five_at_the_western_edge_18_23_18_24():
    # 18.23: exited on Game-Turn One, back on Four; on Two, back on Five. 18.24: at the re-entry hexes
    s = start(UNITS)
    s, _ = execute(s, ExitMap("c1", ("0705", "0805")))
    s = to_turn(s, 2)
    s, events = execute(s, ExitMap("c2", ("0706", "0806")))
    assert of_type(events, UnitMarchedOff)[0].returns == 5
    s = to_turn(s, 3)
    assert due(s) == []
    s = to_turn(s, 4)
    assert due(s) == ["c1"] and set(entry_hexes(s, "c1")) >= {"0108", "0208"}
    assert "entry hexes" in str(refused(s, EnterReinforcement("c1", ("0101",))))
    s, _ = execute(s, EnterReinforcement("c1", ("0108",)))
    assert s.positions["c1"] == "0108"
    s = to_turn(s, 5)
    assert due(s) == ["c2"]


def test_no_exit_there_after_game_turn_two_18_27():
    # 18.27: "Units leaving the map sheet by this route ... after Game-Turn Two are eliminated": no
    # voluntary exit there on Game-Turn Three; a retreat off the map eliminates (the revised rules)
    s = to_turn(start(UNITS), 3)
    assert refused(s, ExitMap("c1", ("0705", "0805"))).case == "18.22"
    assert "0805" not in exit_paths(s, "c1")


def test_the_column_of_stacks_and_enemy_zones_of_control_18_25_18_26():
    # 18.25: the first stack entering pays the hex's cost, the next one more (the revised 5.0); 18.26:
    # they may enter into an enemy zone of control (5.4): the Union unit at 0308 controls 0208
    units = [rebel(f"c{i}", f"07{i:02d}") for i in range(1, 4)] + [union("u", "0308"), union("far", "0101")]
    exclusive = {"exit_and_return": {**block(), "units": 3}, "exits": {"hexes": ["0101"], "cost": 1}}
    sc = scenario(units, exclusive=exclusive, cases=CASES, turns=9, first_player="confederate")
    s = new_game(Game(sc, get_ruleset("revised")))
    s, _ = execute(s, ExitMap("c1", ("0701", "0702", "0703", "0704", "0705", "0805")))
    s, _ = execute(s, ExitMap("c2", ("0702", "0703", "0704", "0705", "0805")))
    s, _ = execute(s, ExitMap("c3", ("0703", "0704", "0705", "0805")))
    s = to_turn(s, 4)
    entry = s.game.ruleset.procedures.reinforcement_entry
    assert entry.entry_cost(s, "c1", "0108") == 1
    s, _ = execute(s, EnterReinforcement("c1", ("0108",)))
    s, _ = execute(s, EnterReinforcement("c2", ("0108", "0107")))
    assert entry.entry_cost(s, "c3", "0108") == 2  # the second stack of two pays one more
    s, _ = execute(s, EnterReinforcement("c3", ("0208",)))  # into the Union unit's zone of control
    assert s.positions["c3"] == "0208"
