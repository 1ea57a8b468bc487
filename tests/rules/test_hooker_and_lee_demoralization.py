"""Hooker and Lee 20.0 (demoralization) and 21.3 (its effect on the level of victory), the
``demoralization`` component, under the revised rules, on small maps (8 x 8, even columns lower) with
the battle's block (the I Corps is "i1", "i2"; the north bank the hexes 0101-0103)."""

from __future__ import annotations

import pytest
from combatmaps import of_type, refused, rolls, to_phase
from rulesmaps import rebel, scenario, union

from rules.core.commands import DeclareAttack, MoveUnit, ResolveAttack
from rules.core.decisions import PendingAdvance
from rules.core.events import ArmyDemoralized, CombatResolved, DemoralizationLimitRaised
from rules.core.game import Game
from rules.procedures.victory import determine_victory
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

HOOKER = load("hooker_and_lee")
CASES = {"revised": dict(HOOKER.cases["revised"])}
NORTH = ["0101", "0102", "0103"]


def block():
    b = dict(HOOKER.exclusive["demoralization"])
    armies = [dict(a) for a in b["armies"]]
    armies[0]["raised"] = {**armies[0]["raised"], "units": ["i1", "i2"]}
    return {**b, "armies": armies}


def start(units, dead=(), first_player="union", victory=False):
    """A game with the battle's demoralization; ``dead``: units eliminated before it starts (losses)."""
    exclusive = {"demoralization": block()}
    if victory:
        exclusive["victory"] = {**HOOKER.exclusive["victory"], "occupation": []}
    sc = scenario([*units, *dead], exclusive=exclusive, cases=CASES, turns=9, first_player=first_player,
                  areas={"north_bank": NORTH})
    state = new_game(Game(sc, get_ruleset("revised")))
    for u in dead:
        state.positions.pop(u.id, None)
        state.eliminated.append(u.id)
    return state


def lost(side, strength):
    """A unit of ``side`` eliminated before the game starts: ``strength`` Combat Strength Points lost."""
    return (union if side == "union" else rebel)(f"dead-{side}", None, strength=strength, arrives=9, entry=["0801"])


def demoralized_on(state, side, turn):
    """The army recorded as Demoralized on Game-Turn ``turn`` (its losses are the game's own)."""
    state = state.copy()
    state.scored = state.scored | {f"demoralized:{side}", f"demoralized_on:{side}:{turn}"}
    return state


def resolve(state, *dice, odds=None):
    events = decide(state, ResolveAttack(odds=odds), rolls(*dice))
    return fold(state, events), events


def test_the_battle_block():
    # 20.11 i) 47, ii) 58 once the I Corps has crossed (the north bank is the map's area); 20.21 52;
    # 20.12 1:3
    game = Game(HOOKER, get_ruleset("revised"))
    low = game.battle.demoralization
    union_army, confederate_army = low.armies
    assert (union_army.side, union_army.losses_above, union_army.raised.losses_above) == ("union", 47, 58)
    assert set(union_army.raised.units) == {u.id for u in HOOKER.units if u.designation.endswith("/I") or u.designation == "I"}
    assert union_army.raised.out_of == "north_bank"
    assert (confederate_army.side, confederate_army.losses_above, confederate_army.raised) == ("confederate", 52, None)
    assert low.least_odds == "1-3"
    # 21.3: every level of 21.2 a side wins has the level one lower
    levels = {lv.level for lv in game.battle.victory.levels}
    assert {r.level for r in low.reduced} == levels and {r.to for r in low.reduced} <= levels


def test_losses_in_excess_of_47_demoralize_the_union_army_at_once_20_11_20_13():
    # 20.11 i): "Union losses must exceed these totals": 46 lost and a 1 more is 47, not in excess; 47
    # lost and a 1 more is 48: Demoralized by the command that eliminated it
    units = [rebel("a", "0404", strength=9), rebel("b", "0604", strength=9), union("v", "0505", strength=1),
             union("w", "0808", strength=1)]
    for before, after in ((46, []), (47, [ArmyDemoralized(side="union", demoralized=True, losses=48, limit=47, case="20.11")])):
        s = to_phase(start(units, [lost("union", before)], first_player="confederate"), "confederate", "combat")
        s, _ = execute(s, DeclareAttack(("a", "b"), ("0505",)))
        s, events = resolve(s, 1, 1, 1, 1)
        assert events[0].result == "De" and "v" in s.eliminated
        assert of_type(events, ArmyDemoralized) == after
    assert s.game.battle.demoralized(s, "union") and not s.game.battle.demoralized(s, "confederate")


def test_the_i_corps_across_the_river_raises_the_limit_and_recovers_the_army_20_11_20_15():
    # 20.11 ii), 20.15: 50 lost (Demoralized: more than 47); when the last I Corps unit crosses out of the
    # north bank the limit is 58 and losses "lower than 59" recover the army
    units = [union("i1", "0204"), union("i2", "0103"), rebel("far", "0808")]
    s = demoralized_on(start(units, [lost("union", 50)]), "union", 1)
    s, events = execute(s, MoveUnit("i2", ("0103", "0104")))
    assert of_type(events, DemoralizationLimitRaised) == [DemoralizationLimitRaised(side="union", limit=58, case="20.15")]
    assert of_type(events, ArmyDemoralized) == [
        ArmyDemoralized(side="union", demoralized=False, losses=50, limit=58, case="20.15")
    ]
    assert not s.game.battle.demoralized(s, "union")
    # the limit stays raised even if an I Corps unit goes back north of the river
    s, events = execute(s, MoveUnit("i1", ("0204", "0203", "0103")))
    assert of_type(events, ArmyDemoralized) == of_type(events, DemoralizationLimitRaised) == []


def test_before_the_i_corps_has_crossed_losses_above_47_stay_demoralizing_20_15():
    # 20.15: "Union Reinforcements have no effect on recovery/Demoralization until they all cross"
    units = [union("i1", "0204"), union("i2", "0102"), union("m", "0505"), rebel("far", "0808")]
    s = demoralized_on(start(units, [lost("union", 50)]), "union", 1)
    s, events = execute(s, MoveUnit("m", ("0505", "0506")))
    assert of_type(events, ArmyDemoralized) == [] and s.game.battle.demoralized(s, "union")


def test_the_confederate_army_above_52_and_never_recovered_20_21_20_23():
    units = [union("a", "0404", strength=9), union("b", "0604", strength=9), rebel("v", "0505", strength=1), rebel("far", "0808")]
    s = to_phase(start(units, [lost("confederate", 52)]), "union", "combat")
    s, _ = execute(s, DeclareAttack(("a", "b"), ("0505",)))
    s, events = resolve(s, 1, 1, 1, 1)
    assert [(e.side, e.demoralized, e.losses, e.limit) for e in of_type(events, ArmyDemoralized)] == [("confederate", True, 53, 52)]
    assert s.game.battle.demoralization.limit(s, "confederate") == 52  # 20.23: no raised limit


def test_a_demoralized_army_may_not_advance_after_combat_20_12():
    units = [union("a", "0404", strength=9), union("b", "0604", strength=9), rebel("v", "0505", strength=1), rebel("far", "0808")]
    s = demoralized_on(to_phase(start(units, [lost("union", 48)]), "union", "combat"), "union", 1)
    s, _ = execute(s, DeclareAttack(("a", "b"), ("0505",)))
    s, events = resolve(s, 1, 1, 1, 1)
    assert events[0].result == "De" and not [p for p in s.pending if isinstance(p, PendingAdvance)]
    # the same attack by an army that is not Demoralized may advance
    s = to_phase(start(units), "union", "combat")
    s, _ = execute(s, DeclareAttack(("a", "b"), ("0505",)))
    s, events = resolve(s, 1, 1, 1, 1)
    assert [p for p in s.pending if isinstance(p, PendingAdvance)]


def test_no_voluntary_attack_at_less_than_1_3_20_12():
    # 20.12: a bombardment is voluntary: at 1:4 it is refused; an odds reduction (8.9) below 1:3 too
    units = [union("g", "0402", type_="artillery", strength=2), rebel("r", "0405", strength=8),
             union("a", "0604", strength=3), rebel("q", "0705", strength=6), rebel("far", "0808")]
    s = demoralized_on(to_phase(start(units, [lost("union", 48)]), "union", "combat"), "union", 1)
    assert refused(s, DeclareAttack(("g",), ("0405",))).case == "20.12"
    # and the legal choices never offer it (an arena game's player declared one and was refused): a
    # bombardment at 1-4 is offered to an army that is not Demoralized, never to one that is
    from rules.combat_choices import attack_options

    guns = [union("g", "0402", type_="artillery", strength=3), rebel("r", "0405", strength=8), rebel("far", "0808")]
    fresh = to_phase(start(guns), "union", "combat")
    low = demoralized_on(to_phase(start(guns, [lost("union", 48)]), "union", "combat"), "union", 1)
    assert [(o.defenders, o.adjacent[0].odds_with_bombardment) for o in attack_options(fresh)] == [(("0405",), "1-4")]
    assert attack_options(low) == []
    s, _ = execute(s, DeclareAttack(("a",), ("0705",)))
    assert s.pending[0].odds == "1-2"
    assert refused(s, ResolveAttack(odds="1-4"), rolls(1, 1, 1)).case == "20.12"


def test_an_unavoidable_attack_below_1_3_is_an_automatic_attacker_retreat_20_14():
    # 20.14: "If after the Game-Turn of Demoralization an attack at 1:3 odds is unavoidable, the Union
    # units making such an attack automatically receive an Attacker Retreat combat result": no die
    units = [union("a", "0404", strength=2), rebel("r", "0505", strength=8), rebel("far", "0808")]
    s = to_phase(start(units, [lost("union", 48)]), "union", "combat")
    s.turn = 2
    s = demoralized_on(s, "union", 1)
    s, _ = execute(s, DeclareAttack(("a",), ("0505",)))
    assert s.pending[0].odds == "1-4"
    events = decide(s, ResolveAttack(), rolls(1, 1, 1))  # disorder dice only, never the combat die
    resolved = of_type(events, CombatResolved)
    assert [(r.odds, r.die, r.result) for r in resolved] == [("1-4", 0, "Ar")]


def test_an_attack_already_below_1_3_is_still_offered_its_own_column_20_12():
    # 20.12 forbids reducing the odds below 1:3 (8.9 is voluntary), not resolving an attack that stands
    # below it (20.13, 20.14): the choice offered is the attack's own column alone, never none (an arena
    # game's random player found an empty choice)
    from rules.combat_choices import decision_choice

    units = [union("a", "0404", strength=2), rebel("r", "0505", strength=8), rebel("far", "0808")]
    s = demoralized_on(to_phase(start(units, [lost("union", 48)]), "union", "combat"), "union", 1)
    s, _ = execute(s, DeclareAttack(("a",), ("0505",)))
    assert s.pending[0].odds == "1-4"
    assert list(decision_choice(s).columns) == ["1-4"]
    s, _ = execute(to_phase(start(units), "union", "combat"), DeclareAttack(("a",), ("0505",)))
    assert list(decision_choice(s).columns) == ["1-4", "1-5"]  # not Demoralized: 8.9 may reduce it


def test_on_the_game_turn_of_demoralization_scheduled_attacks_are_resolved_20_13():
    # 20.13: "all attacks at odds of less than 1:3 that have already been scheduled for that Game-Turn
    # may be resolved": the die decides
    units = [union("a", "0404", strength=2), rebel("r", "0505", strength=8), rebel("far", "0808")]
    s = demoralized_on(to_phase(start(units, [lost("union", 48)]), "union", "combat"), "union", 1)
    s, _ = execute(s, DeclareAttack(("a",), ("0505",)))
    events = decide(s, ResolveAttack(), rolls(1, 1, 1, 1))
    resolved = of_type(events, CombatResolved)
    assert [(r.odds, r.die) for r in resolved] == [("1-4", 1)]


@pytest.mark.parametrize(
    ("demoralized", "totals", "level"),
    [
        ((), (40, 20), "Confederate Decisive Victory"),
        (("confederate",), (40, 20), "Confederate Substantive Victory"),
        (("confederate",), (30, 20), "Confederate Marginal Victory"),
        (("confederate",), (21, 20), "Union Marginal Victory"),  # ruling: one level lower on 21.2's scale
        (("union",), (40, 20), "Confederate Decisive Victory"),  # the loser's demoralization changes nothing
        (("union",), (12, 20), "Union Marginal Victory"),  # 1:1.67, Union Substantive, one lower
        (("union", "confederate"), (40, 20), "Confederate Decisive Victory"),  # "both ... no effect"
    ],
)
def test_a_demoralized_winner_s_victory_is_one_level_lower_21_3(demoralized, totals, level):
    s = start([union("u", "0101"), rebel("c", "0808")], victory=True)
    for side in demoralized:
        s = demoralized_on(s, side, 1)
    s.vp = {"confederate": totals[0], "union": totals[1]}
    assert determine_victory(s)[-1].level == level


def test_the_effect_on_the_confederate_army_is_identical_20_22():
    # 20.22: a Demoralized Confederate army advances no more after combat, nor bombards below 1:3
    units = [rebel("a", "0404", strength=9), rebel("b", "0604", strength=9), union("v", "0505", strength=1),
             rebel("g", "0201", type_="artillery", strength=2), union("r", "0204", strength=8), union("far", "0808")]
    s = to_phase(start(units, [lost("confederate", 53)], first_player="confederate"), "confederate", "combat")
    s = demoralized_on(s, "confederate", 1)
    assert refused(s, DeclareAttack(("g",), ("0204",))).case == "20.12"
    s, _ = execute(s, DeclareAttack(("a", "b"), ("0505",)))
    s, events = resolve(s, 1, 1, 1, 1)
    assert events[0].result == "De" and not [p for p in s.pending if isinstance(p, PendingAdvance)]
