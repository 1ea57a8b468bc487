"""Fredericksburg's fog (003 18.0, 18.2) and the Union movement restrictions (19.0), under the revised rules,
on small maps (8 x 8, even columns lower) with the battle's parameters, and on the battle's map."""

from __future__ import annotations

import pytest
from combatmaps import declare, of_type, refused, to_phase
from rulesmaps import rebel, scenario, union

from rules.core.commands import DeclareAttack, EndPhase, MoveUnit
from rules.core.events import MovementRestrictionsLifted
from rules.core.game import Game
from rules.procedures.restrictions import lift_on_crossing
from rules.reducer import execute, new_game
from rules.revised.movement import strategic_allowance
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

FREDERICKSBURG = load("fredericksburg")
CASES = {"revised": dict(FREDERICKSBURG.cases["revised"])}


def start(units, first_player="union", **blocks):
    exclusive = {name: dict(FREDERICKSBURG.exclusive[name]) for name in blocks.get("use", ())}
    sc = scenario(units, exclusive=exclusive, cases=CASES, turns=11, first_player=first_player)
    return new_game(Game(sc, get_ruleset("revised")))


def row(c, r0, n):
    return tuple(f"{c:02d}{r:02d}" for r in range(r0, r0 + n))


# --- 18.2 Fog ----------------------------------------------------------------------------------------


def test_the_battle_has_fog_on_game_turns_one_and_seven():
    # 16.4: "Game-Turns One and Seven are Fog Game-Turns"
    assert FREDERICKSBURG.exclusive["fog"] == {"turns": [1, 7]}


def test_fog_halves_every_movement_allowance():
    # 18.0, 18.2: "all Movement Allowances ... are halved": infantry 6 -> 3, cavalry 8 -> 4 on Game-Turn One
    state = start([union("inf", "0101"), union("cav", "0301", type_="cavalry"), rebel("far", "0808")], use=["fog"])
    assert state.turn == 1
    error = refused(state, MoveUnit("inf", row(1, 1, 5)))  # four hexes of clear terrain
    assert error.case == "6.15"
    state2, _ = execute(state, MoveUnit("inf", row(1, 1, 4)))  # three: allowed
    assert state2.positions["inf"] == "0104"
    assert refused(state2, MoveUnit("cav", row(3, 1, 6)))  # five hexes: more than 4
    state2, _ = execute(state2, MoveUnit("cav", row(3, 1, 5)))
    assert state2.positions["cav"] == "0305"


def test_fog_halves_the_strategic_movement_bonus_too():
    # 18.2: "(including any Strategic Movement bonus)": infantry 6+2 -> 4, cavalry 8+4 -> 6
    state = start([union("inf", "0101"), union("cav", "0301", type_="cavalry"), rebel("far", "0808")], use=["fog"])
    assert strategic_allowance(state, "inf") == 4 and strategic_allowance(state, "cav") == 6
    state.turn = 2
    assert strategic_allowance(state, "inf") == 8 and strategic_allowance(state, "cav") == 12


def test_no_fog_on_other_game_turns():
    # 18.2 binds Game-Turns One and Seven only: on Game-Turn Two infantry moves its six hexes
    state = start([union("inf", "0101"), rebel("far", "0808")], use=["fog"])
    state = to_phase(state, "union", "movement")
    for _ in range(4):
        state, _ = execute(state, EndPhase())
    assert state.turn == 2
    state, _ = execute(state, MoveUnit("inf", row(1, 1, 7)))
    assert state.positions["inf"] == "0107"


def test_no_bombardment_in_fog():
    # 18.2: "artillery may not bombard during these Game-Turns"; adjacent artillery attacks as usual
    units = [union("gun", "0101", type_="artillery"), rebel("reb", "0103"), union("inf", "0505"), rebel("near", "0506")]
    state = start(units, use=["fog"])
    state = to_phase(state, "union", "combat")
    assert not state.game.ruleset.procedures.combat.bombardment_allowed(state)
    error = refused(state, DeclareAttack(("gun",), ("0103",)))
    assert error.case == "18.2"
    state.turn = 2  # no fog: the bombardment is allowed again
    assert state.game.ruleset.procedures.combat.bombardment_allowed(state)
    state.turn = 1
    state, events = declare(state, ("inf",), ("0506",))  # an adjacent attack is not a bombardment
    assert events


# --- 19.0 the Union quota ------------------------------------------------------------------------------


def sixteen(columns=(1, 3)):
    return [union(f"u{c}{r}", f"{c:02d}{r:02d}") for c in columns for r in range(1, 9)]


def step_east(unit):
    c, r = int(unit[1]), int(unit[2:])
    return MoveUnit(unit, (f"{c:02d}{r:02d}", f"{c + 1:02d}{r:02d}"))


def test_only_fifteen_union_units_move_per_game_turn():
    # 19.0: "only 15 Union units may move per Game-Turn"
    state = start([*sixteen(), rebel("far", "0808")], use=["movement_quota"])
    movers = [u.id for u in sixteen()]
    for u in movers[:15]:
        state, _ = execute(state, step_east(u))
    assert refused(state, step_east(movers[15])).case == "19.0"


def test_reinforcements_of_game_turn_four_do_not_count_until_game_turn_five():
    # 19.0: "Union Reinforcements arriving on Game-Turn Four do not count against this restriction until
    # Game-Turn Five"
    state = start([union("a", "0101"), union("v", None, arrives=4, entry=["0108"]), rebel("far", "0808")], use=["movement_quota"])
    quota = state.game.battle.movement_quota
    state.turn = 4
    assert not quota.counts(state, "v") and quota.counts(state, "a")
    state.turn = 5
    assert quota.counts(state, "v")


def test_a_confederate_unit_in_burnsides_headquarters_lifts_the_quota():
    # 19.0: "This restriction is lifted if a Confederates unit occupies Burnside's headquarters (hex 0206),
    # either due to movement, or retreat or advance"
    units = [*sixteen((5, 7)), rebel("c", "0104")]
    exclusive_quota = dict(FREDERICKSBURG.exclusive["movement_quota"])
    assert exclusive_quota["lifted_by_enemy_occupying"] == ["0206"]
    sc = scenario(units, exclusive={"movement_quota": exclusive_quota}, cases=CASES, turns=11, first_player="confederate")
    state = new_game(Game(sc, get_ruleset("revised")))
    assert "0206" in state.control  # tracked
    state, events = execute(state, MoveUnit("c", ("0104", "0103")))  # elsewhere: nothing lifted
    assert of_type(events, MovementRestrictionsLifted) == []
    # a move that ends in 0206
    state = new_game(Game(sc, get_ruleset("revised")))
    state, events = execute(state, MoveUnit("c", ("0104", "0204", "0205", "0206")))
    (lifted,) = of_type(events, MovementRestrictionsLifted)
    assert (lifted.side, lifted.hex, lifted.unit, lifted.case) == ("union", "0206", "c", "19.0")
    assert "union" in state.released
    state = to_phase(state, "union", "movement")
    movers = [u.id for u in sixteen((5, 7))]
    for u in movers:  # all sixteen move
        state, _ = execute(state, step_east(u))


@pytest.mark.parametrize("how", ["retreat", "advance"])
def test_occupation_by_retreat_or_advance_lifts_it_too(how):
    # 19.0: "either due to movement, or retreat or advance in prospect of or after combat": whatever the
    # command, once a Confederate unit occupies 0206 (21.21) the quota is lifted
    units = [union("u", "0101"), rebel("c", "0207")]
    sc = scenario(units, exclusive={"movement_quota": dict(FREDERICKSBURG.exclusive["movement_quota"])}, cases=CASES, turns=11)
    state = new_game(Game(sc, get_ruleset("revised")))
    after = state.copy()
    after.positions = {**state.positions, "c": "0206"}
    after.control = {**state.control, "0206": "confederate"}
    (lifted,) = lift_on_crossing(state, [], after)
    assert lifted.hex == "0206" and lifted.unit == "c"


# --- 19.0 with 21.3: an exit is a move of the quota, and 6.32 no dead end ------------------------------


def crowded_then_exit(quota_units):
    """Fourteen Union units, two of them in 0404 with a third moved in on top (0404 over the limit,
    6.32), and 'x' beside the exit hex 0101 (21.32's exits, here on the small map's west edge)."""
    exclusive = {
        "movement_quota": {**FREDERICKSBURG.exclusive["movement_quota"], "units": quota_units},
        "exits": {**FREDERICKSBURG.exclusive["exits"], "hexes": ["0101"]},
    }
    units = [union("a", "0404"), union("b", "0404"), union("c", "0405"), union("x", "0102"), rebel("far", "0808")]
    sc = scenario(units, exclusive=exclusive, cases=CASES, turns=11)
    state = new_game(Game(sc, get_ruleset("revised")))
    state, _ = execute(state, MoveUnit("c", ("0405", "0404")))  # 6.32: legal, one of a or b may still leave
    return state


def test_an_exit_may_not_take_the_last_move_an_overfull_hex_needs():
    # 6.32 (5.32) "no more than two units in one hex at the end of any phase", 19.0 (the quota) and 21.3
    # (the exit is the unit's move, 21.31: one Movement Point): with one move of the quota left and 0404
    # holding three, 'x' may not spend it leaving the map: 0404 could not be emptied of its third
    from rules.core.commands import ExitMap
    from rules.procedures.exits import exit_paths

    state = crowded_then_exit(quota_units=2)
    assert state.game.battle.quota_remaining(state, "union") == 1
    error = refused(state, ExitMap("x", ("0102", "0101")))
    assert error.case == "6.32" and "may not exit the map: 0404" in str(error)
    assert exit_paths(state, "x") == {}  # nor is it offered among the legal moves
    state, _ = execute(state, MoveUnit("a", ("0404", "0504")))  # the move 0404 needed
    state, _ = execute(state, EndPhase())  # and the phase ends within the limit
    # with one more move in the quota the exit leaves the one 0404 needs: allowed
    state = crowded_then_exit(quota_units=3)
    assert exit_paths(state, "x") == {"0101": ("0102", "0101")}
    state, _ = execute(state, ExitMap("x", ("0102", "0101")))
    assert "x" not in state.positions
