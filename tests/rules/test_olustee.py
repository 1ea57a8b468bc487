"""Olustee (revised 003, 15.0-22.0): its exclusive rules on small custom maps (8 x 8, revised rules),
with the template's own blocks (scenarios/templates/olustee/scenario.toml): 18.1 (``may_not_move_until`` with
``until_itself_attacked``), 18.2 (``stacking`` by Combat Strength Points), 20.0 (``exits`` for the Confederate only, ``immediate_victory``
with its Lines of Communication, 19.4; the ``victory`` losses and 2213)."""

from __future__ import annotations

import tomllib

import pytest

from rules.combat_choices import attack_options, combat_breakdown
from rules.core.commands import EndPhase, ExitMap, MoveUnit, ResolveAttack, Retreat
from rules.core.errors import RuleViolation
from rules.core.events import (
    AmmunitionResupplied,
    AmmunitionRolled,
    GameEnded,
    ImmobilityReleased,
    UnitEliminated,
    UnitRetreated,
    VictoryDetermined,
)
from rules.core.game import Game
from rules.procedures.victory import determine_victory
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import TEMPLATES_DIR
from tests.rules.combatmaps import declare, to_phase
from tests.rules.rulesmaps import rebel, scenario, sides, union

TEMPLATE = tomllib.loads((TEMPLATES_DIR / "olustee" / "scenario.toml").read_text())
BLOCKS = TEMPLATE["exclusive"]
CASES = {"revised": TEMPLATE["cases"]["revised"]}


def game(units, exclusive, areas=None, turns=10, hexsides=None):
    sc = scenario(units, turns=turns, first_player="union", exclusive=exclusive, cases=CASES, areas=areas or {}, hexsides=hexsides)
    return new_game(Game(sc, get_ruleset("revised")))


# -- 18.0 MOVEMENT AND STACKING RESTRICTIONS ------------------------------------------------------------
HELD = {"may_not_move_until": {"holds": [{**BLOCKS["may_not_move_until"]["holds"][0], "units": ["ga64"]}]}}


def test_64_ga_may_not_move_during_the_first_two_game_turns_18_1():
    state = game([union("u", "0101"), rebel("ga64", "0505"), rebel("other", "0707")], HELD)
    state = to_phase(state, "confederate", "movement")
    with pytest.raises(RuleViolation) as refused:
        execute(state, MoveUnit("ga64", ("0505", "0504")))
    assert refused.value.case == "18.1"
    execute(state, MoveUnit("other", ("0707", "0706")))  # only 64 GA is held
    state.turn = 3
    execute(state, MoveUnit("ga64", ("0505", "0504")))  # Game-Turn Three: free


def resolved(state, attackers, defenders, die=3):
    """Declare and resolve one attack (a constant die for every roll the revised combat makes)."""
    state, first = declare(state, attackers, defenders)
    events = decide(state, ResolveAttack(), lambda: die)
    return fold(state, events), first + events


def test_64_ga_attacked_moves_freely_from_then_on_18_1():
    state = game([union("w", "0807"), rebel("ga64", "0505"), rebel("other", "0707")], HELD)
    state = to_phase(state, "union", "combat")
    _, events = resolved(state, ["w"], ["0707"])  # another Confederate unit attacked: 64 GA stays held
    assert not [e for e in events if isinstance(e, ImmobilityReleased)]
    state = game([union("u", "0504"), rebel("ga64", "0505")], HELD)
    state = to_phase(state, "union", "combat")
    state, events = resolved(state, ["u"], ["0505"])  # "unless it is attacked"
    released = [e for e in events if isinstance(e, ImmobilityReleased)]
    assert [(e.units, e.cause, e.case) for e in released] == [(["ga64"], "attacked", "18.1")]
    assert "ga64" in state.released
    assert state.game.battle.may_not_move_until.restriction(state, "ga64") is None


# -- 20.0 VICTORY CONDITIONS ---------------------------------------------------------------------------
EAST = [f"08{r:02d}" for r in range(1, 9)]
VICTORY = {
    "exits": {**BLOCKS["exits"], "hexes": ["0804", "0806"]},
    "immediate_victory": {
        "occupy": BLOCKS["immediate_victory"]["occupy"],
        "exit": [{**BLOCKS["immediate_victory"]["exit"][0], "hexes": ["0804", "0806"], "line_to": ["0101"]}],
    },
    "victory": {**BLOCKS["victory"], "occupation": [{"hex": "0303", "points": 5, "side": "union"}]},
}
STATION = {"olustee_station": ["0404", "0405"]}


def test_a_union_unit_occupying_olustee_station_with_a_line_to_the_east_edge_wins_at_once_20_0():
    state = game([union("u", "0604"), rebel("r", "0101")], VICTORY, STATION)
    state, events = execute(state, MoveUnit("u", ("0604", "0504", "0404")))
    assert isinstance(events[-1], GameEnded) and events[-1].reason == "immediate_victory"
    assert state.game_over and state.result == "Union Decisive Victory"


def test_no_decisive_victory_without_the_line_of_communication_19_4_20_0():
    # Confederate units astride every way east: the line meets enemy units or their zones of control
    blockers = [rebel(f"r{r}", f"06{r:02d}") for r in range(1, 9, 2)]
    state = game([union("u", "0304"), *blockers], VICTORY, STATION)
    state, events = execute(state, MoveUnit("u", ("0304", "0404")))
    assert not state.game_over and not any(isinstance(e, GameEnded) for e in events)


def test_a_confederate_infantry_unit_exiting_by_4104_or_4108_with_a_line_to_1011_wins_at_once_20_0():
    state = game([union("u", "0108"), rebel("r", "0704"), rebel("c", "0706", type_="cavalry")], VICTORY, STATION)
    state = to_phase(state, "confederate", "movement")
    with pytest.raises(RuleViolation):
        execute(state, ExitMap("c", ("0706", "0806")))  # "a Confederate infantry unit": cavalry may not exit
    state, events = execute(state, ExitMap("r", ("0704", "0804")))
    assert isinstance(events[-1], GameEnded) and state.result == "Confederate Decisive Victory"


def test_the_exit_needs_its_line_to_1011_and_the_union_may_not_exit_20_0():
    # a Union unit beside 0101 (1011 on this map): its zone of control cuts the line there
    state = game([union("u", "0201"), union("v", "0707"), rebel("r", "0704")], VICTORY, STATION)
    with pytest.raises(RuleViolation):
        execute(state, ExitMap("v", ("0707", "0806")))  # "the Confederate Player must exit units"
    state = to_phase(state, "confederate", "movement")
    state, events = execute(state, ExitMap("r", ("0704", "0804")))
    assert not state.game_over and not any(isinstance(e, VictoryDetermined) for e in events)


def test_otherwise_losses_decide_five_more_a_marginal_victory_and_2213_counts_five_20_0():
    state = game([union("u", "0302"), rebel("r", "0707")], VICTORY, STATION)
    levels = state.game.battle.victory
    # "at least five more Combat Strength Points ... a Marginal Victory ... four ... or less, a Draw"
    assert (levels.level_of(5), levels.level_of(4), levels.level_of(-4), levels.level_of(-5)) == (
        "Union Marginal Victory", "Draw", "Draw", "Confederate Marginal Victory")
    assert determine_victory(state)[-1].level == "Draw"
    state, _ = execute(state, MoveUnit("u", ("0302", "0303", "0403")))  # passes through 2213 (here 0303)
    assert state.control["0303"] == "union"  # "occupies or was the last to have occupied"
    final = determine_victory(state)[-1]
    assert (final.union, final.confederate, final.level) == (5, 0, "Union Marginal Victory")
    state, _ = execute(state, EndPhase())
    assert levels.for_unit("union", "r", 3) == 3  # one per Combat Strength Point eliminated


STACK = {"stacking": BLOCKS["stacking"]}


def test_up_to_eight_combat_strength_points_stack_in_a_hex_not_two_units_18_2():
    # "As an exception to Case 6.32 stacking is not limited to two units"
    units = [union("a", "0403", strength=2), union("b", "0405", strength=3), union("c", "0404", strength=3), union("d", "0504", strength=1), rebel("r", "0808")]
    state = game(units, STACK)
    for u, frm in (("a", "0403"), ("b", "0405")):
        state, _ = execute(state, MoveUnit(u, (frm, "0404")))
    assert sorted(state.units_in("0404")) == ["a", "b", "c"]  # three units, eight points
    state, _ = execute(state, MoveUnit("d", ("0504", "0404")))  # nine: c, not yet moved, may still leave
    with pytest.raises(RuleViolation) as refused:
        execute(state, EndPhase())
    assert refused.value.case == "18.2" and "9 Combat Strength Points" in str(refused.value)
    state, _ = execute(state, MoveUnit("c", ("0404", "0304")))
    execute(state, EndPhase())  # six points left in 0404


def test_a_move_that_leaves_a_hex_over_eight_points_for_good_is_refused_18_2():
    units = [union("a", "0403", strength=2), union("b", "0405", strength=3), union("c", "0304", strength=3), union("d", "0504", strength=1), rebel("r", "0808")]
    state = game(units, STACK)
    for u, frm in (("a", "0403"), ("b", "0405"), ("c", "0304")):
        state, _ = execute(state, MoveUnit(u, (frm, "0404")))
    with pytest.raises(RuleViolation) as refused:  # all three have moved (6.18): none could leave again
        execute(state, MoveUnit("d", ("0504", "0404")))
    assert refused.value.case == "18.2" and "8 Combat Strength Points" in str(refused.value)


def test_a_retreat_goes_only_where_the_points_fit_18_2():
    from rules.procedures.retreat import _around

    units = [union("a", "0404", strength=3), union("full", "0403", strength=6), rebel("r", "0808")]
    state = game(units, STACK)
    around = _around(state, "a", "0404", False)
    assert "0403" not in [o.to for o in around.open] and "0403" in around.full  # 6 + 3 > 8
    assert "0405" in [o.to for o in around.open]


# -- 19.0 CONFEDERATE "TRAIN": the Train as artillery ----------------------------------------------------
RAIL = {
    "train_artillery": {**BLOCKS["train_artillery"], "units": ["gun"]},
    "rifled_artillery": {**BLOCKS["rifled_artillery"], "units": ["gun"]},
}
GUN = {**RAIL, "train_artillery": {**RAIL["train_artillery"], "railway_movement": False}}  # 19.5-19.7 off the rails


def _gun_game(target, gun, inf, exclusive=GUN, gun_id="gun"):
    """Union u at ``target``; the Confederate Train ``gun`` (artillery) and infantry ``inf`` start at
    0508 and 0608 and move (paths given) in the Confederate Movement Phase; then his Combat Phase."""
    units = [union("u", target, strength=2), rebel(gun_id, gun[0], type_="artillery", strength=2), rebel("inf", inf[0])]
    state = to_phase(game(units, exclusive), "confederate", "movement")
    for uid, path in (("inf", inf), (gun_id, gun)):  # 7.3: artillery enters a zone of control after infantry
        if len(path) > 1:
            state, _ = execute(state, MoveUnit(uid, tuple(path)))
    return to_phase(state, "confederate", "combat")


def test_the_train_may_not_attack_by_itself_19_7():
    state = _gun_game("0503", ["0501"], ["0506", "0505", "0504"])
    with pytest.raises(RuleViolation) as refused:
        declare(state, ["gun"], ["0503"])  # 19.7: alone, at two hexes' Range
    assert refused.value.case == "19.7"
    _, events = declare(state, ["inf", "gun"], ["0503"])  # 19.6: it combines with other units
    assert events[0].attack.attackers == ("inf",) and events[0].attack.bombarding == ("gun",)
    (option,) = attack_options(state)  # the attacks offered: the Train only with inf, never by itself
    assert option.bombard == ("0501",) and [c.hexes for c in option.adjacent] == [("0504",)]
    state = _gun_game("0503", ["0501"], ["0508"])  # no other unit may attack u: nothing is offered (19.7)
    assert attack_options(state) == []
    with pytest.raises(RuleViolation) as refused:
        declare(state, ["gun"], ["0503"])
    assert refused.value.case == "19.7"


def test_the_train_attacks_at_two_or_three_hexes_never_farther_19_5():
    state = _gun_game("0503", ["0501"], ["0506", "0505", "0504"])
    declare(state, ["inf", "gun"], ["0503"])  # 19.5: a Range of two hexes
    state = _gun_game("0504", ["0501"], ["0506", "0505"])
    declare(state, ["inf", "gun"], ["0504"])  # 19.5: three hexes
    state = _gun_game("0505", ["0501"], ["0507", "0506"])
    with pytest.raises(RuleViolation):
        declare(state, ["inf", "gun"], ["0505"])  # four hexes: beyond its Range


def test_the_train_in_an_enemy_zone_of_control_may_not_attack_at_all_19_5():
    # the Train beside u, in its zone, stacked with infantry that must attack: 19.5 "It may not attack
    # adjacent Enemy units, nor may it attack at all if in an Enemy Zone of Control"; it need not join
    state = _gun_game("0503", ["0506", "0505", "0504"], ["0506", "0505", "0504"])
    with pytest.raises(RuleViolation) as refused:
        declare(state, ["inf", "gun"], ["0503"])
    assert refused.value.case == "19.5"
    _, events = declare(state, ["inf"], ["0503"])
    assert events[0].attack.attackers == ("inf",) and not events[0].attack.bombarding


def test_the_train_combining_with_other_units_shifts_the_odds_one_column_right_19_6():
    # inf 4 beside u 2 (0504-0503), the Train 2 at two hexes (0501): 6 to 2, 3-1, and one column right
    state = _gun_game("0503", ["0501"], ["0506", "0505", "0504"])
    _, events = declare(state, ["inf", "gun"], ["0503"])
    assert (events[0].attack.attack, events[0].attack.defence, events[0].attack.odds) == (6, 2, "4-1")  # 19.6
    shifts = combat_breakdown(state, ["inf", "gun"], ["0503"]).shifts
    assert [(c.case, c.columns) for c in shifts] == [("19.6", 1)]
    # an ordinary battery in the Train's place: 3-1, no shift
    state = _gun_game("0503", ["0501"], ["0506", "0505", "0504"], gun_id="battery")
    _, events = declare(state, ["inf", "battery"], ["0503"])
    assert events[0].attack.odds == "3-1"


def test_the_train_is_not_subject_to_range_effects_19_6():
    # at three hexes (0501-0504) neither its shift nor its strength is reduced (9.25 would take a third)
    state = _gun_game("0504", ["0501"], ["0506", "0505"])
    _, events = declare(state, ["inf", "gun"], ["0504"])
    assert (events[0].attack.attack, events[0].attack.odds) == (6, "4-1")  # 19.6
    without = {"train_artillery": GUN["train_artillery"]}  # the Train's strength alone under 9.25: 2 -> 1
    state = _gun_game("0504", ["0501"], ["0506", "0505"], exclusive=without)
    _, events = declare(state, ["inf", "gun"], ["0504"])
    assert (events[0].attack.attack, events[0].attack.odds) == (5, "3-1")  # 5 to 2, 2-1, still one right


RAILWAY = sides({(f"01{r:02d}", f"01{r + 1:02d}"): {"railway"} for r in range(1, 8)})  # 0101-0108


def test_the_rail_gun_moves_on_railway_hexes_as_far_as_it_likes_19_2():
    units = [union("u", "0808"), rebel("gun", "0101", type_="artillery", strength=2)]
    state = to_phase(game(units, RAIL, hexsides=RAILWAY), "confederate", "movement")
    assert state.game.movement_allowance("gun") > 7  # 19.2: "an unlimited Movement Allowance"
    path = tuple(f"01{r:02d}" for r in range(1, 9))
    after, _ = execute(state, MoveUnit("gun", path))  # seven railway hexes in one move
    assert after.positions["gun"] == "0108"
    with pytest.raises(RuleViolation) as refused:
        execute(state, MoveUnit("gun", ("0101", "0201")))  # 19.2: off the railway it does not move
    assert refused.value.case == "19.2"
    plain = to_phase(game(units, GUN, hexsides=RAILWAY), "confederate", "movement")
    with pytest.raises(RuleViolation):
        execute(plain, MoveUnit("gun", path))  # without 19.2: an artillery unit's own allowance


def test_the_rail_gun_is_subject_to_the_normal_rules_of_movement_19_2():
    units = [union("u", "0206"), rebel("gun", "0101", type_="artillery", strength=2), rebel("inf", "0108")]
    state = to_phase(game(units, RAIL, hexsides=RAILWAY), "confederate", "movement")
    assert "0106" in state.game.zoc_into["0206"]
    with pytest.raises(RuleViolation):  # 19.2 "subject to the normal rules of movement": 7.3, no artillery into a zone alone
        execute(state, MoveUnit("gun", tuple(f"01{r:02d}" for r in range(1, 8))))
    after, _ = execute(state, MoveUnit("gun", tuple(f"01{r:02d}" for r in range(1, 5))))
    assert after.positions["gun"] == "0104"


# -- 19.1: the ammunition die ---------------------------------------------------------------------------
AMMO = {"ammunition": BLOCKS["ammunition"]}


def _until(state, turn, side, phase, die):
    """End phases with the constant die ``die`` until ``side``'s ``phase`` of Game-Turn ``turn``; the
    events of the last EndPhase too."""
    events = []
    while (state.turn, state.phasing, state.phase) != (turn, side, phase):
        events = decide(state, EndPhase(), lambda: die)
        state = fold(state, events)
    return state, events


def test_from_game_turn_four_a_die_before_the_confederate_player_turn_1_4_runs_out_19_1():
    units = [union("u", "0101"), rebel("r", "0808")]
    state, events = _until(game(units, AMMO), 3, "confederate", "movement", 5)
    assert not [e for e in events if isinstance(e, AmmunitionRolled)]  # Game-Turn Three: no die
    state, events = _until(state, 4, "confederate", "movement", 5)
    (rolled,) = [e for e in events if isinstance(e, AmmunitionRolled)]
    assert (rolled.turn, rolled.roll, rolled.out, rolled.case) == (4, 5, False, "19.1")  # '5-6': no effect
    state, events = _until(state, 5, "confederate", "movement", 4)
    (rolled,) = [e for e in events if isinstance(e, AmmunitionRolled)]
    assert (rolled.turn, rolled.out) == (5, True)  # '1-4': out of ammunition
    state, events = _until(state, 6, "confederate", "movement", 4)
    assert not [e for e in events if isinstance(e, AmmunitionRolled)]  # "this die roll ceases"
    state, events = _until(game(units, AMMO), 4, "union", "movement", 1)
    assert not [e for e in events if isinstance(e, AmmunitionRolled)]  # the Confederate Player-Turn only


def test_out_of_ammunition_no_confederate_unit_may_enter_an_enemy_zone_of_control_19_1():
    units = [union("u", "0404"), rebel("r", "0406"), rebel("s", "0707")]
    state, _ = _until(game(units, AMMO), 4, "confederate", "movement", 5)
    execute(state, MoveUnit("r", ("0406", "0405")))  # with ammunition: into u's zone
    state, _ = _until(game(units, AMMO), 4, "confederate", "movement", 1)
    with pytest.raises(RuleViolation) as refused:
        execute(state, MoveUnit("r", ("0406", "0405")))
    assert refused.value.case == "19.1"
    execute(state, MoveUnit("s", ("0707", "0706")))  # elsewhere it moves


def _confederate_first(units, die):
    """A Confederate-first game whose ammunition die is rolled from Game-Turn One (the die ``die``), at
    the start of his Combat Phase."""
    sc = scenario(units, turns=10, first_player="confederate", exclusive={"ammunition": {**BLOCKS["ammunition"], "from_turn": 1}}, cases=CASES)
    return _until(new_game(Game(sc, get_ruleset("revised"))), 1, "confederate", "combat", die)


def test_out_of_ammunition_units_in_an_enemy_zone_retreat_one_hex_in_the_combat_phase_19_1():
    units = [union("u", "0404"), rebel("r", "0405"), rebel("far", "0808")]
    state, _ = _confederate_first(units, 1)
    (owed,) = state.pending  # 19.1: "automatically retreat one hex" as the Combat Phase begins
    assert (owed.unit, owed.cause) == ("r", "ammunition")
    with pytest.raises(RuleViolation):
        execute(state, EndPhase())  # not before it has retreated
    state, events = execute(state, Retreat("r", "0406"))
    (retreat,) = [e for e in events if isinstance(e, UnitRetreated)]
    assert retreat.path == ("0405", "0406") and not state.pending and state.positions["far"] == "0808"
    execute(state, EndPhase())  # out of the zone, it need not attack
    state, events = _confederate_first(units, 5)  # '5-6': it stays, and attacks
    assert not [e for e in events if isinstance(e, UnitRetreated)] and state.positions["r"] == "0405"


def test_out_of_ammunition_a_unit_unable_to_retreat_is_eliminated_19_1():
    # r in the corner 0101: its neighbours 0102 and 0201 held or under the zones of u, w and v
    units = [rebel("r", "0101"), union("u", "0201"), union("w", "0103"), union("v", "0203")]
    state, events = _confederate_first(units, 1)
    assert [e.unit for e in events if isinstance(e, UnitEliminated)] == ["r"]  # 19.1: "is eliminated"
    assert "r" not in state.positions


# -- 19.3, 19.4: re-supply ------------------------------------------------------------------------------
def _out_from_turn_one(units, turn=1):
    """A Confederate-first game, out of ammunition on Game-Turn One (the die 1), in his Movement Phase of
    Game-Turn ``turn``; the Train is ``gun``."""
    block = {**BLOCKS["ammunition"], "from_turn": 1, "train": "gun"}
    sc = scenario(units, turns=10, first_player="confederate", exclusive={"ammunition": block}, cases=CASES)
    state, _ = _until(new_game(Game(sc, get_ruleset("revised"))), 1, "confederate", "combat", 1)
    state, _ = _until(state, turn, "confederate", "movement", 1)
    assert "ammunition_out:1" in state.scored
    return state


def test_units_are_re_supplied_two_full_game_turns_after_running_out_19_3():
    units = [union("u", "0404"), rebel("r", "0406"), rebel("gun", "0808", type_="artillery")]
    state = _out_from_turn_one(units, 2)
    with pytest.raises(RuleViolation):
        execute(state, MoveUnit("r", ("0406", "0405")))  # Game-Turn Two: still out
    state, _ = _until(state, 3, "confederate", "movement", 1)
    execute(state, MoveUnit("r", ("0406", "0405")))  # 19.3: "regain supply at the start of Game-Turn" 1 + 2


def test_the_train_having_moved_units_within_four_hexes_are_re_supplied_at_once_19_3_19_4():
    units = [union("u", "0808"), rebel("gun", "0101", type_="artillery"), rebel("near", "0106"), rebel("far", "0107")]
    state = _out_from_turn_one(units, 2)
    state, events = execute(state, MoveUnit("gun", ("0101", "0102")))
    (fresh,) = [e for e in events if isinstance(e, AmmunitionResupplied)]
    assert (fresh.units, fresh.case) == (("near",), "19.3")  # 0106 is four hexes from 0102; 0107 five
    # 19.4: the path is a Line of Communication: w's zone of control cuts it
    state = _out_from_turn_one([*units, union("w", "0204")], 2)
    state, events = execute(state, MoveUnit("gun", ("0101", "0102")))
    assert not [e for e in events if isinstance(e, AmmunitionResupplied)]


def test_a_re_supplied_unit_ignores_the_restrictions_of_19_1_19_3():
    units = [union("u", "0304"), rebel("gun", "0106", type_="artillery"), rebel("r", "0306")]
    state = _out_from_turn_one(units, 2)
    with pytest.raises(RuleViolation):
        execute(state, MoveUnit("r", ("0306", "0305")))  # out of ammunition: not into u's zone
    state, events = execute(state, MoveUnit("gun", ("0106", "0107")))
    assert [e.units for e in events if isinstance(e, AmmunitionResupplied)] == [("r",)]
    state, _ = execute(state, MoveUnit("r", ("0306", "0305")))  # re-supplied: into u's zone
    state, _ = execute(state, EndPhase())  # and in his Combat Phase it does not retreat: it attacks
    assert state.phase == "combat" and not state.pending and state.positions["r"] == "0305"
    with pytest.raises(RuleViolation):
        execute(state, EndPhase())  # 8.12: in an enemy zone it must attack, as any supplied unit
