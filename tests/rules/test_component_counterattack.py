"""The counterattack component (rules/core/components/counterattack.py) with Road to Vicksburg's parameters
(003 19.5, 19.6: Bowen's Counterattack, Ammunition Depletion), under the revised rules on small clear maps.
Green ("g") and Cockrell ("k") are Confederate infantry of 4; 0404 touches 0403, 0504, 0505, 0405,
0305, 0304; 0505 touches 0504, 0604, 0605, 0506, 0405, 0404."""

from __future__ import annotations

import tomllib

from combatmaps import declare, of_type, rolls, to_phase

from rules.core.commands import EndPhase, ResolveAttack
from rules.core.decisions import PendingAttack
from rules.core.events import AmmunitionDepletionRolled, CombatResolved, CounterattackRecorded
from rules.core.game import Game
from rules.reducer import decide, execute, fold, new_game
from rules.revised import crt
from rules.rulesets import get as get_ruleset
from scenarios.loader import TEMPLATES_DIR
from tests.rules.rulesmaps import rebel, scenario, union

COUNTERATTACK = {
    "side": "confederate",
    "units": ["g", "k"],
    "strength_factor": 3,
    "die_modifier": -1,
    "advance_hexes": 4,
    "depletion": {"runs_out_at_most": 2, "per_hex_beyond_first": -1, "least_modifier": -3, "out_of_ammo": {"g": "g-ooa", "k": "k-ooa"}},
}
CASES = {"revised": {"counterattack": "19.53", "counterattack.depletion": "19.61"}}
with (TEMPLATES_DIR / "road_to_vicksburg" / "scenario.toml").open("rb") as f:
    BLOCKS = tomllib.load(f)["exclusive"]
SPARES = [rebel("g-ooa", None, strength=2), rebel("k-ooa", None, strength=1)]


def start(units, turns=3, exclusive=None, hexsides=None, counterattack=COUNTERATTACK):
    blocks = {"counterattack": counterattack, **(exclusive or {})}
    sc = scenario([*units, *SPARES], exclusive=blocks, cases=CASES, first_player="confederate", turns=turns, hexsides=hexsides)
    return new_game(Game(sc, get_ruleset("revised")))


def pending(state) -> PendingAttack:
    return next(p for p in state.pending if isinstance(p, PendingAttack))


def then_sixes(*values):
    """A die that rolls ``values``, then 6 (the disorder dice of a result: no disorder)."""
    it = iter(values)
    return lambda: next(it, 6)


def resolve(state, die):
    events = decide(state, ResolveAttack(), then_sixes(die))
    return fold(state, events), events


def test_the_template_gives_bowens_counterattack_19_52_19_53_19_61():
    # 19.5, 19.6: Bowen's Counterattack and the Ammunition Depletion in the template's block
    # 19.52: Green and Cockrell; 19.53 i, ii, iii; 19.61 '1-2'; 19.62 minus one a hex beyond the first, to minus three
    block = BLOCKS["counterattack"]
    assert block["units"] == ["cs-bowen-green", "cs-bowen-cockrell"]
    assert (block["strength_factor"], block["die_modifier"], block["advance_hexes"]) == (3, -1, 4)
    d = block["depletion"]
    assert (d["runs_out_at_most"], d["per_hex_beyond_first"], d["least_modifier"]) == (2, -1, -3)
    assert d["out_of_ammo"] == {"cs-bowen-green": "cs-bowen-green-ooa", "cs-bowen-cockrell": "cs-bowen-cockrell-ooa"}


def test_adjacent_brigades_attacking_different_hexes_are_tripled_with_the_die_less_one_19_52_19_53():
    # 19.53: "They do not have to attack the same hex to receive these benefits"; i) tripled; ii) die - 1
    state = to_phase(start([rebel("g", "0404"), rebel("k", "0405"), union("a", "0504"), union("b", "0505")]), "confederate")
    state, events = declare(state, ["g"], ["0504"])
    assert pending(state).attack == 12 and pending(state).odds == "3-1"  # 4 x 3 against 4
    [rec] = of_type(events, CounterattackRecorded)
    assert rec.bonus and rec.units == ("g",)
    state, events = resolve(state, 3)
    [r] = of_type(events, CombatResolved)
    assert r.die == 3 and r.result == crt.ROWS[2][crt.COLUMNS.index("3-1")]  # read on row 2: "subtracting one"
    while state.pending:  # the result's decisions (a retreat, an advance): declined or made by rule
        state, _ = execute(state, next(iter(_moves(state))))
    state, _ = declare(state, ["k"], ["0505"])
    assert pending(state).attack == 12  # the other brigade's attack of the same Combat Phase


def _moves(state):
    from rules.core.commands import Decline, Retreat
    from rules.core.decisions import PendingAdvance, PendingRetreat
    from rules.procedures.retreat import retreat_options

    head = state.pending[0]
    if isinstance(head, PendingAdvance):
        return [Decline()]
    if isinstance(head, PendingRetreat):
        o = next(o for o in retreat_options(state, head.unit) if not o.eliminated)
        return [Retreat(head.unit, o.to)]
    raise AssertionError(head)


def test_stacked_brigades_attacking_the_same_hex_19_52():
    # ii) "stacked with"; both in the one attack
    state = to_phase(start([rebel("g", "0404"), rebel("k", "0404"), union("a", "0504", strength=8)]), "confederate")
    state, _ = declare(state, ["g", "k"], ["0504"])
    assert pending(state).attack == 24


def test_no_bonus_when_the_other_brigade_is_not_alongside_and_the_first_attack_is_spent_19_52():
    # ii) not stacked or adjacent (0404 and 0406 are two hexes apart): no bonus, and "their first attack"
    # is made: none later either
    state = to_phase(start([rebel("g", "0404"), rebel("k", "0406"), union("a", "0504"), union("b", "0507")], turns=3), "confederate")
    state, events = declare(state, ["g"], ["0504"])
    assert pending(state).attack == 4
    assert [e.bonus for e in of_type(events, CounterattackRecorded)] == [False]
    state, _ = resolve(state, 6)
    while state.pending:
        state, _ = execute(state, _moves(state)[0])
    state, events = declare(state, ["k"], ["0507"])
    assert pending(state).attack == 4 and not of_type(events, CounterattackRecorded)


def test_no_bonus_when_the_other_brigade_need_not_attack_this_combat_phase_19_52():
    # i) "Both units attack in the same Combat Phase": k is adjacent to g but to no enemy unit
    state = to_phase(start([rebel("g", "0404"), rebel("k", "0304"), union("a", "0504")]), "confederate")
    state, events = declare(state, ["g"], ["0504"])
    assert pending(state).attack == 4
    assert [e.bonus for e in of_type(events, CounterattackRecorded)] == [False]


def test_the_bonus_lasts_that_player_turn_only_19_53():
    # i) "for that Player-Turn only": a brigade that did not attack in it gets nothing the next Game-Turn
    state = to_phase(start([rebel("g", "0404"), rebel("k", "0404"), union("a", "0504", strength=12)]), "confederate")
    assert pending(declare(state, ["g", "k"], ["0504"])[0]).attack == 24
    c = state.game.battle.counterattack
    state, _ = declare(state, ["g", "k"], ["0504"])
    assert c.in_force(state)
    state, _ = resolve(state, 6)
    while state.pending:
        state, _ = execute(state, _moves(state)[0])
    state, _ = execute(state, EndPhase())
    assert not c.in_force(state)  # the Union Player-Turn
    assert state.game.battle.counterattack.factor(state, "g") == 1


def _counterattack_made(die_after=None):
    """g and k stacked at 0404 attack a at 0504 on Game-Turn 1 (a 6 at 3-1 after the bonus)."""
    state = to_phase(start([rebel("g", "0404"), rebel("k", "0404"), union("a", "0504", strength=8), union("far", "0808")]), "confederate")
    state, _ = declare(state, ["g", "k"], ["0504"])
    state, _ = resolve(state, 6)
    while state.pending:
        state, _ = execute(state, _moves(state)[0])
    return state


def _to_confederate_movement(state, die):
    """End phases to the Confederate Movement Phase of the next Game-Turn, the Ammunition Depletion die
    rolling ``die``."""
    events_all = []
    for _ in range(6):
        events = decide(state, EndPhase(), rolls(die))
        state = fold(state, events)
        events_all += events
        if state.phasing == "confederate" and state.phase == "movement":
            return state, events_all
    raise AssertionError("never reached the Confederate Movement Phase")


def test_ammunition_depletion_on_1_2_replaces_both_brigades_19_61():
    state = _counterattack_made()
    at = {u: state.positions[u] for u in ("g", "k")}
    # first_player confederate: Game-Turn 1 Confederate, Union; Game-Turn 2 Confederate Movement
    state, events = _to_confederate_movement(state, 2)
    [d] = of_type(events, AmmunitionDepletionRolled)
    assert (d.turn, d.roll, d.modifier, d.out) == (2, 2, 0, True)
    assert "g" not in state.positions and "k" not in state.positions
    assert state.positions["g-ooa"] == at["g"] and state.positions["k-ooa"] == at["k"]
    assert "g" not in state.eliminated  # replaced, not eliminated


def test_ammunition_depletion_on_3_leaves_them_and_is_rolled_once_19_61():
    state = _counterattack_made()
    state, events = _to_confederate_movement(state, 3)
    [d] = of_type(events, AmmunitionDepletionRolled)
    assert not d.out and "g" in state.positions and "g-ooa" not in state.positions
    for _ in range(2):  # to Game-Turn 3: no die
        state = fold(state, decide(state, EndPhase(), rolls()))
    state, events = _to_confederate_movement(state, 1)
    assert state.turn == 3 and not of_type(events, AmmunitionDepletionRolled)


def test_out_of_ammo_units_count_at_full_strength_for_victory_points_19_63():
    # 19.63, 21.1: "counted at full strength even if Out of Ammo": g-ooa (2) scores g's 4
    victory = {"victory": {"per_enemy_strength_point_eliminated": {"union": 1, "confederate": 1}}}
    state = to_phase(start([rebel("g", "0404"), rebel("k", "0404"), union("a", "0504", strength=8), union("far", "0808")], exclusive=victory), "confederate")
    state, _ = declare(state, ["g", "k"], ["0504"])
    state, _ = resolve(state, 6)
    while state.pending:
        state, _ = execute(state, _moves(state)[0])
    state, _ = _to_confederate_movement(state, 1)
    assert "g-ooa" in state.positions
    from rules.core.events import UnitEliminated
    from rules.procedures.victory import elimination_points

    state = fold(state, [UnitEliminated(unit="g-ooa", case="8.6")])
    assert elimination_points(state)["union"] == 4


def _destroyed(units=(), hexsides=None, counterattack=COUNTERATTACK):
    """g and k stacked at 0404 eliminate a (0504) at 6-1 (24 to 4, a 2: De); the advances are pending."""
    state = start([rebel("g", "0404"), rebel("k", "0404"), union("a", "0504"), union("far", "0108"), *units], hexsides=hexsides, counterattack=counterattack)
    state, _ = declare(to_phase(state, "confederate"), ["g", "k"], ["0504"])
    state, events = resolve(state, 2)
    assert [r.result for r in of_type(events, CombatResolved)] == ["De"]
    return state


def _options(state):
    from rules.procedures.retreat import advance_options

    return sorted((o.unit, o.to) for o in advance_options(state, state.pending[0]))


def test_each_brigade_advances_up_to_four_hexes_both_into_the_vacated_hex_19_53_iii():
    from rules.core.commands import Advance
    from rules.core.events import CounterattackAdvanced

    state = _destroyed()
    # a) both brigades may enter the vacated hex (one decision each); c) the first hex is the vacated one
    assert _options(state) == [("g", "0504")]
    assert refused_advance(state, Advance("g", "0403"))
    for to in ("0504", "0604", "0704", "0804"):
        state, events = execute(state, Advance("g", to))
    assert [e.hexes for e in of_type(events, CounterattackAdvanced)] == [4]
    # four hexes: no more; k's own decision follows, into the hex g vacated first
    assert _options(state) == [("k", "0504")]
    state, _ = execute(state, Advance("k", "0504"))
    assert ("k", "0604") in _options(state)


def refused_advance(state, command) -> bool:
    from rules.core.errors import RuleViolation

    try:
        decide(state, command, None)
    except RuleViolation:
        return True
    return False


def test_the_advance_ceases_on_entering_an_enemy_zone_of_control_19_53_iii_d():
    from rules.core.commands import Advance

    # z at 0705: 0604 is in its zone of control
    state = _destroyed([union("z", "0705")])
    state, _ = execute(state, Advance("g", "0504"))
    state, _ = execute(state, Advance("g", "0604"))
    assert _options(state) == [("k", "0504")]  # g's advance has ceased; k decides next


def test_no_prohibited_hexside_is_crossed_19_53_iii_b():
    from rules.core.commands import Advance
    from tests.rules.rulesmaps import sides

    state = _destroyed(hexsides=sides({("0504", "0604"): {"creek"}}))
    state, _ = execute(state, Advance("g", "0504"))
    assert ("g", "0604") not in _options(state) and ("g", "0505") in _options(state)


def test_without_the_advance_parameter_the_standard_advance_of_one_unit_8_76():
    from rules.core.decisions import PendingAdvance, PendingCounterattackAdvance

    state = _destroyed(counterattack={k: v for k, v in COUNTERATTACK.items() if k != "advance_hexes"})
    assert [type(p) for p in state.pending] == [PendingAdvance]
    assert not isinstance(state.pending[0], PendingCounterattackAdvance)


def test_the_longest_advance_modifies_the_depletion_die_the_book_s_example_19_62():
    from rules.core.commands import Advance, Decline

    # 19.62: "if one brigade advances two hexes and the other brigade advances three hexes, the modifier
    # for the Ammunition Depletion die roll is minus '2'. Bowen's infantry brigades run out of ammunition
    # on a die roll of '1-4'."
    state = _destroyed()
    for to in ("0504", "0604", "0704"):
        state, _ = execute(state, Advance("g", to))
    state, _ = execute(state, Decline())
    for to in ("0504", "0505"):
        state, _ = execute(state, Advance("k", to))
    state, _ = execute(state, Decline())
    assert not state.pending
    out, _ = _to_confederate_movement(state, 4)
    [d] = of_type(_, AmmunitionDepletionRolled)
    assert (d.roll, d.modifier, d.out) == (4, -2, True)
    kept, events = _to_confederate_movement(state, 5)
    [d] = of_type(events, AmmunitionDepletionRolled)
    assert (d.roll, d.modifier, d.out) == (5, -2, False)


def test_the_modifier_is_at_most_minus_three_19_62():
    from rules.core.commands import Advance, Decline

    state = _destroyed()
    for to in ("0504", "0604", "0704", "0804"):
        state, _ = execute(state, Advance("g", to))
    state, _ = execute(state, Decline())  # k stays
    assert state.game.battle.counterattack.depletion_modifier(state) == -3
    _, events = _to_confederate_movement(state, 6)
    [d] = of_type(events, AmmunitionDepletionRolled)
    assert (d.modifier, d.out) == (-3, False)  # 6 - 3 = 3: not '1-2'


def test_the_advance_keeps_to_the_stacking_limit_19_53_iii_6_32():
    # Ruling: a) lifts the one-unit advance, not the stacking limit (two units, 6.32): 0704 holds two
    # Confederate units, so g may not enter it; 0705 it may
    from rules.core.commands import Advance

    state = _destroyed([rebel("x", "0704"), rebel("y", "0704")])
    state, _ = execute(state, Advance("g", "0504"))
    state, _ = execute(state, Advance("g", "0604"))
    opts = _options(state)
    assert ("g", "0704") not in opts and ("g", "0705") in opts
