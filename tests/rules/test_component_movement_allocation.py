"""The Atlanta Campaign's Movement Restrictions on small maps: ``movement_allocation`` (Peachtree Creek
17.3, 17.4; Atlanta 17.2; Jonesborough 17.2) and ``reduced_allowance`` (Peachtree Creek 17.2)
(rules/core/components/movement_allocation.py, reduced_allowance.py; rules/procedures/allocation.py)."""

from __future__ import annotations

import pytest

from rules.core.commands import EndPhase, MoveUnit, StrategicMove
from rules.core.components.battle import BattleError, decode
from rules.core.events import AllocationRolled, UnitMoved
from rules.core.game import Game
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import refused, rolls, to_phase
from tests.rules.rulesmaps import board, rebel, scenario, union

#: Peachtree Creek 17.4, the Confederate Command Allocation Table, for each command.
TABLE = [{"turns": [1], "units": [4, 4, 5, 5, 6, 7]}, {"turns": [2, 3, 4, 5, 6], "units": [3, 3, 4, 4, 5, 6]}]
CASES = {"revised": {"movement_allocation": "17.3", "movement_allocation.die": "17.4", "reduced_allowance": "17.2", "reduced_allowance.strategic": "17.2"}}


def game(units, exclusive, first_player="confederate", turns=6, hexes=None, night_turns=None):
    sc = scenario(
        units, hexes=hexes or board(12, 12), turns=turns, first_player=first_player, exclusive=exclusive, cases=CASES,
        night_turns=night_turns,
    )
    return new_game(Game(sc, get_ruleset("revised")))


def peachtree(units, night_turns=None):
    limits = [
        {"side": "confederate", "command": c, "by_die": TABLE, "enemy_zoc_exempt": True} for c in ("Stewart", "Hardee")
    ]
    return game(units, {"movement_allocation": {"limits": limits}}, night_turns=night_turns)


STEWART = [rebel(f"s{i}", f"{i + 1:02d}01", command="Stewart") for i in range(6)]
HARDEE = [rebel(f"h{i}", f"{i + 1:02d}03", command="Hardee") for i in range(3)]
FAR_UNION = [union("far", "1212")]


def step(state, uid):
    here = state.positions[uid]
    return MoveUnit(uid, (here, here[:2] + f"{int(here[2:]) + 1:02d}"))


def test_a_die_for_each_command_at_the_beginning_of_the_movement_phase_17_3_17_4():
    # 17.3: "rolls the die once for Stewart's command ... and once for Hardee's command at the beginning
    # of each Friendly Movement Phase and may move the indicated number of units"; 17.4 Game-Turn One:
    # a 1 gives Stewart four, a 6 gives Hardee seven. The game's first phase: rolled by its first command
    state = peachtree(STEWART + HARDEE + FAR_UNION)
    events = decide(state, step(state, "s0"), rolls(1, 6))
    assert [type(e) for e in events] == [AllocationRolled, AllocationRolled, UnitMoved]
    assert [(e.command, e.roll, e.units, e.case) for e in events[:2]] == [("Stewart", 1, 4, "17.4"), ("Hardee", 6, 7, "17.4")]
    state = fold(state, events)
    for uid in ("s1", "s2", "s3"):  # no die: rolled once this phase
        state, events = execute(state, step(state, uid), rolls())
        assert [type(e) for e in events] == [UnitMoved]
    e = refused(state, step(state, "s4"))  # the fifth Stewart unit
    assert e.case == "17.3" and "Stewart's command has moved 4 units" in str(e)
    # "Allocations may not be transferred from Stewart to Hardee or vice versa"
    for uid in ("h0", "h1", "h2"):
        state, _ = execute(state, step(state, uid))
    assert state.game.battle.movement_allocation.used(state, 1) == 3


def test_the_next_confederate_movement_phase_rolls_as_it_begins_17_3():
    state = peachtree(STEWART + HARDEE + FAR_UNION)
    state, _ = execute(state, step(state, "s0"), rolls(3, 3))
    state = to_phase(state, "union", "combat")
    events = decide(state, EndPhase(), rolls(2, 5))  # the Union Combat Phase ends: Game-Turn Two begins
    rolled = [e for e in events if isinstance(e, AllocationRolled)]
    assert [(e.command, e.units) for e in rolled] == [("Stewart", 3), ("Hardee", 5)]  # Game-Turns Two-Six
    assert fold(state, events).turn == 2


def test_game_turn_two_reads_the_second_column_and_nothing_is_saved_17_4():
    # 17.4 Game-Turns Two-Six: a 1 gives three; "allocations may not be saved from one Game-Turn for use
    # on a later Game-Turn": Game-Turn One's unused moves do not add to Game-Turn Two's
    state = peachtree(STEWART + HARDEE + FAR_UNION)
    state, _ = execute(state, step(state, "s0"), rolls(6, 6))  # seven allowed, one used
    state, _ = execute(state, EndPhase())
    state = to_phase(state, "union", "combat")
    state, events = execute(state, EndPhase(), rolls(1, 1))  # Game-Turn Two
    assert state.turn == 2
    assert [(e.units, e.roll) for e in events if isinstance(e, AllocationRolled)] == [(3, 1), (3, 1)]
    state, _ = execute(state, step(state, "s1"))
    state, _ = execute(state, step(state, "s2"))
    state, _ = execute(state, step(state, "s3"))
    assert refused(state, step(state, "s4")).case == "17.3"


def test_units_in_an_enemy_zone_of_control_do_not_count_17_3():
    # 17.3: "Units that are in an Enemy Zone of Control do not count against these allocations". Such a
    # unit moves only at night (revised 7.4, 11.12: it may leave the enemy hex then): Game-Turn One is a
    # night Game-Turn on this map
    units = [rebel("z", "0505", command="Stewart"), union("u", "0506"), *STEWART[:5]]
    state = peachtree(units, night_turns=[1])
    state, _ = execute(state, MoveUnit("s0", ("0101", "0102")), rolls(1, 1))  # four allowed
    for uid in ("s1", "s2", "s3"):
        state, _ = execute(state, step(state, uid))
    assert refused(state, step(state, "s4")).case == "17.3"  # the four are used
    state, events = execute(state, MoveUnit("z", ("0505", "0504")))  # it began in the Union zone
    assert [type(e) for e in events] == [UnitMoved]
    assert state.game.battle.movement_allocation.used(state, 0) == 4


def test_each_player_moves_no_more_than_twelve_units_atlanta_17_2():
    # Atlanta 17.2: "Each Player may move no more than twelve units each Game-Turn" (three here, a
    # smaller map); the Union player the same, counted apart
    limits = [{"side": s, "units": 3} for s in ("confederate", "union")]
    units = [rebel(f"c{i}", f"{i + 1:02d}01") for i in range(4)] + [union(f"u{i}", f"{i + 1:02d}10") for i in range(4)]
    state = game(units, {"movement_allocation": {"limits": limits}})
    for uid in ("c0", "c1", "c2"):
        state, _ = execute(state, step(state, uid))
    assert refused(state, step(state, "c3")).case == "17.3"
    assert state.game.battle.quota_remaining(state, "confederate") == 0
    state = to_phase(state, "union", "movement")
    assert state.game.battle.quota_remaining(state, "union") == 3
    for uid in ("u0", "u1", "u2"):
        state, _ = execute(state, MoveUnit(uid, (state.positions[uid], state.positions[uid][:2] + "09")))
    assert refused(state, MoveUnit("u3", ("0410", "0409"))).case == "17.3"


def test_nineteen_minus_the_game_turn_jonesborough_17_2():
    # Jonesborough 17.2: "subtracting the number of the current Game Turn from nineteen" (18, 17, ...):
    # here the list [2, 1]: two units on Game-Turn One, one on Game-Turn Two
    limits = [{"side": "confederate", "by_turn": [2, 1]}]
    units = [rebel(f"c{i}", f"{i + 1:02d}01") for i in range(3)] + FAR_UNION
    state = game(units, {"movement_allocation": {"limits": limits}}, turns=2)
    state, _ = execute(state, step(state, "c0"))
    state, _ = execute(state, step(state, "c1"))
    assert refused(state, step(state, "c2")).case == "17.3"
    state, _ = execute(state, EndPhase())
    state = to_phase(state, "confederate", "movement")
    state, _ = execute(state, step(state, "c2"))
    assert refused(state, step(state, "c1")).case == "17.3"


def test_a_limit_takes_exactly_one_of_units_by_turn_and_by_die():
    with pytest.raises(BattleError, match="exactly one of units, by_turn and by_die"):
        decode({"movement_allocation": {"limits": [{"side": "union", "units": 3, "by_turn": [3]}]}})
    with pytest.raises(BattleError):
        decode({"movement_allocation": {"limits": [{"side": "union", "by_die": [{"turns": [1], "units": [1, 2]}]}]}})


def test_union_allowance_three_and_no_strategic_movement_on_game_turn_one_peachtree_creek_17_2():
    # 17.2: "On the first Game-Turn only, all Union units have a Movement Allowance of three. No Union
    # unit may use Strategic Movement. On all subsequent Game-Turns, the printed Movement Allowances and
    # normal rules apply."
    exclusive = {"reduced_allowance": {"side": "union", "turns": [1], "allowance": 3, "strategic_movement": False}}
    units = [union("u", "0110"), union("cav", "0210", type_="cavalry"), rebel("c", "1201")]
    state = game(units, exclusive, first_player="union")
    e = refused(state, MoveUnit("u", ("0110", "0109", "0108", "0107", "0106")))
    assert e.case == "6.15" and "its movement allowance is 3" in str(e)
    state, _ = execute(state, MoveUnit("u", ("0110", "0109", "0108", "0107")))  # three hexes: three points
    e = refused(state, StrategicMove("cav", ("0210", "0209")))
    assert e.case == "17.2" and "Strategic Movement" in str(e)
    state, _ = execute(state, EndPhase())
    state = to_phase(state, "union", "movement")  # Game-Turn Two: the printed allowance
    assert state.turn == 2
    state, _ = execute(state, MoveUnit("u", ("0107", "0106", "0105", "0104", "0103", "0102")))
    assert state.positions["u"] == "0102"
