"""The surprise assault component (rules/core/components/surprise_assault.py) with Shiloh's parameters
(003 19.0-19.2), under the revised rules on small clear maps (north is the top: 0405's north is 0404,
its north-east 0505)."""

from __future__ import annotations

import itertools

import pytest
from combatmaps import declare, of_type, to_phase

from rules.core.commands import EndPhase, MoveUnit, ResolveAttack, StrategicMove
from rules.core.errors import RuleViolation
from rules.core.events import CombatResolved
from rules.core.game import Game
from rules.procedures.movement import reachable
from rules.reducer import decide, execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.rulesmaps import rebel, scenario, union

SHILOH = load("shiloh")
SURPRISE = SHILOH.exclusive["surprise_assault"]  # union, Game-Turns 1 and 2, north or north-east, -1
CASES = {"revised": {"surprise_assault": "19.1", "surprise_assault.die": "19.2"}}


def start(units, first_player="union", turns=3, surprise=SURPRISE):
    sc = scenario(units, exclusive={"surprise_assault": surprise}, cases=CASES, first_player=first_player, turns=turns)
    return new_game(Game(sc, get_ruleset("revised")))


def refusal(state, command) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        execute(state, command)
    return e.value


def test_the_shiloh_parameters_19_1_19_2():
    assert SURPRISE == {"side": "union", "turns": [1, 2], "directions": ["north", "north_east"], "enemy_attack_die_modifier": -1}


def test_a_union_unit_must_move_one_and_only_one_hex_north_or_north_east_19_1():
    state = start([union("u", "0405"), rebel("far", "0808")])
    assert set(reachable(state, "u").ends) == {"0404", "0505"}  # the Union Player's choice of the two
    assert refusal(state, MoveUnit("u", ("0405", "0406"))).case == "19.1"  # south
    assert refusal(state, MoveUnit("u", ("0405", "0305"))).case == "19.1"  # north-west
    assert refusal(state, MoveUnit("u", ("0405", "0404", "0403"))).case == "19.1"  # "only one"
    # "must move": the Movement Phase does not end before it has
    assert refusal(state, EndPhase()).case == "19.1"
    state, _ = execute(state, MoveUnit("u", ("0405", "0505")))
    state, _ = execute(state, EndPhase())
    assert state.phase != "movement" or state.phasing != "union"


def test_no_strategic_movement_by_the_surprised_side_19_1():
    state = start([union("u", "0405"), rebel("far", "0808")])
    assert refusal(state, StrategicMove("u", ("0405", "0404"))).case == "19.1"


def test_a_unit_in_an_enemy_zone_of_control_may_not_move_and_does_not_hold_the_phase_19_1():
    # "all Union units not locked by Confederate Zones of Control"; "A unit that is in an Enemy Zone of
    # Control may not move": the rebel at 0404 locks u (0405); w (0408) must still move
    state = start([union("u", "0405"), union("w", "0408"), rebel("c", "0404")])
    assert reachable(state, "u").ends == []
    assert refusal(state, MoveUnit("u", ("0405", "0505"))).case in {"6.13", "7.0"}
    assert refusal(state, EndPhase()).case == "19.1"  # w
    state, _ = execute(state, MoveUnit("w", ("0408", "0407")))
    state, _ = execute(state, EndPhase())  # u, locked, stays


def test_a_unit_with_no_hex_open_ahead_stays_19_1():
    # Ruling: at the top edge (0101: north and north-east off the map) the unit cannot move and stays
    state = start([union("u", "0101"), rebel("far", "0808")])
    assert reachable(state, "u").ends == []
    execute(state, EndPhase())
    # nor into an enemy-held hex: 0404 and 0505 both hold Confederates (and u is then locked too)
    state = start([union("u", "0405"), rebel("a", "0404"), rebel("b", "0505")])
    execute(state, EndPhase())


def test_the_confederate_moves_freely_and_the_union_from_game_turn_three_19_1():
    # "Starting with Game-Turn Three the Union forces are free of this movement restriction" (here the
    # surprise lasts Game-Turn One only, on a two-turn game: Game-Turn Two is free)
    state = start([union("u", "0808"), rebel("c", "0405")], first_player="confederate")
    assert {"0406", "0305", "0403"} <= set(reachable(state, "c").ends)
    state = start([union("u", "0405"), rebel("far", "0808")], surprise={**SURPRISE, "turns": [1]})
    state, _ = execute(state, MoveUnit("u", ("0405", "0404")))
    while state.turn == 1:
        state, _ = execute(state, EndPhase())
    state = to_phase(state, "union", "movement")
    assert {"0405", "0303", "0402"} <= set(reachable(state, "u").ends)
    state, _ = execute(state, EndPhase())  # no unit must move


def resolved(state, attackers, defenders, die):
    state, _ = declare(state, attackers, defenders)
    dice = itertools.chain([die], itertools.repeat(6))
    events = decide(state, ResolveAttack(), lambda: next(dice))
    return of_type(events, CombatResolved)[0]


def test_one_is_subtracted_from_the_confederate_combat_die_on_the_first_two_game_turns_19_2():
    # 19.2: 12 against 4 is 3:1; a 2 reads Dr on the revised table, less one (1) De
    units = [rebel("c", "0404", strength=12), union("u", "0405", strength=4), union("far", "0808")]
    state = to_phase(start(units, first_player="confederate"), "confederate", "combat")
    r = resolved(state, ["c"], ["0405"], 2)
    assert (r.odds, r.die, r.result) == ("3-1", 2, "De")
    # not for the Union's attacks (the Union unit, in the rebel's zone of control, does not move)
    units = [union("u", "0404", strength=12), rebel("c", "0405", strength=4), rebel("far", "0808")]
    state = to_phase(start(units), "union", "combat")
    r = resolved(state, ["u"], ["0405"], 2)
    assert (r.odds, r.die, r.result) == ("3-1", 2, "Dr")
    # nor after the surprise: Game-Turn Two when it lasts Game-Turn One only
    units = [rebel("c", "0403", strength=12), union("u", "0405", strength=4), union("far", "0808")]
    state = start(units, first_player="confederate", surprise={**SURPRISE, "turns": [1], "directions": []})
    while state.turn == 1:
        state, _ = execute(state, EndPhase())
    state, _ = execute(state, MoveUnit("c", ("0403", "0404")))
    state = to_phase(state, "confederate", "combat")
    r = resolved(state, ["c"], ["0405"], 2)
    assert (r.odds, r.die, r.result) == ("3-1", 2, "Dr")
