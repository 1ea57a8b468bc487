"""Ezra Church 17.2 on a small map (rules/core/components/immobility.py, ``columns``,
``released_each_turn``, ``released_when_attacked``): "The Union Player may not move the units in hex
row 19XX unless they are released. One unit may be released each Game-Turn starting with Game-Turn One.
If any Union unit in hex row 19XX is attacked than all Union units are released." (Here hex row 05XX.)"""

from __future__ import annotations

from rules.core.commands import DeclareAttack, EndPhase, MoveUnit
from rules.core.events import ImmobilityReleased, UnitMoved
from rules.core.game import Game
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import refused, to_phase
from tests.rules.rulesmaps import board, rebel, scenario, union

RULE = {"immobility": {"side": "union", "columns": [5], "released_each_turn": 1, "released_when_attacked": True}}
CASES = {"revised": {"immobility": "17.2", "immobility.each_turn": "17.2", "immobility.attacked": "17.2"}}


def start(units, first_player="union"):
    sc = scenario(units, hexes=board(12, 12), exclusive=RULE, cases=CASES, first_player=first_player, turns=5)
    return new_game(Game(sc, get_ruleset("revised")))


UNITS = [union("a", "0502"), union("b", "0505"), union("c", "0508", type_="artillery"), union("free", "0202"), rebel("r", "1111")]


def test_one_unit_of_the_row_released_each_game_turn_17_2():
    state = start(UNITS)
    state, events = execute(state, MoveUnit("free", ("0202", "0203")))  # not of the row: moves freely
    assert [type(e) for e in events] == [UnitMoved]
    state, events = execute(state, MoveUnit("b", ("0505", "0605")))  # the Game-Turn One release
    assert [type(e) for e in events] == [UnitMoved, ImmobilityReleased]
    assert (events[1].units, events[1].cause, events[1].case) == (["b"], "each_turn", "17.2")
    e = refused(state, MoveUnit("a", ("0502", "0602")))
    assert e.case == "17.2" and "may not move until released" in str(e)
    state, _ = execute(state, EndPhase())
    state = to_phase(state, "union", "movement")  # Game-Turn Two: one more; b stays released
    assert state.turn == 2
    state, events = execute(state, MoveUnit("c", ("0508", "0608")))
    assert events[-1].units == ["c"]
    state, events = execute(state, MoveUnit("b", ("0605", "0705")))
    assert [type(e) for e in events] == [UnitMoved]
    assert refused(state, MoveUnit("a", ("0502", "0602"))).case == "17.2"


def test_an_attack_on_a_unit_of_the_row_releases_every_one_17_2():
    units = [union("a", "0502"), union("b", "0505"), union("c", "0508"), rebel("r", "0605", strength=6)]
    state = to_phase(start(units, first_player="confederate"), "confederate", "combat")
    state, events = execute(state, DeclareAttack(("r",), ("0505",)))
    released = [e for e in events if isinstance(e, ImmobilityReleased)]
    assert [(e.units, e.cause, e.unit, e.hex) for e in released] == [(["a", "b", "c"], "attacked", "r", "0505")]
    assert {"a", "b", "c"} <= state.released


def test_an_attack_elsewhere_releases_none_17_2():
    units = [union("a", "0502"), union("d", "0808"), rebel("r", "0908", strength=6)]
    state = to_phase(start(units, first_player="confederate"), "confederate", "combat")
    state, events = execute(state, DeclareAttack(("r",), ("0808",)))
    assert not [e for e in events if isinstance(e, ImmobilityReleased)] and "a" not in state.released
