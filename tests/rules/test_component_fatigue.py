"""Ezra Church 17.4 on a small map: "The Confederate Player only must add one to the die roll for any
Disorder check or Rally attempt" (rules/core/components/fatigue.py)."""

from __future__ import annotations

from rules.core.commands import DeclareAttack, EndPhase, PlaceRally, ResolveAttack, RollRally
from rules.core.events import DisorderRolled, MoraleChanged
from rules.core.game import Game
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import rolls, to_phase
from tests.rules.rulesmaps import rebel, scenario, union

FATIGUE = {"fatigue": {"side": "confederate", "disorder_check": 1, "rally_attempt": 1}}


def start(units, exclusive=FATIGUE, first_player="union"):
    return new_game(Game(scenario(units, exclusive=exclusive, first_player=first_player), get_ruleset("revised")))


def driven_back(attacker, defender, exclusive=FATIGUE, first_player="union"):
    """``attacker`` (4) attacks ``defender`` (2) at 2:1, die 1: Dr; the defender's Disorder check rolls 3."""
    side = "union" if attacker.startswith("u") else "confederate"
    make = {"union": union, "confederate": rebel}
    other = "confederate" if side == "union" else "union"
    units = [make[side](attacker, "0404", strength=4), make[other](defender, "0505", strength=2)]
    state = to_phase(start(units, exclusive, first_player), side, "combat")
    state, _ = execute(state, DeclareAttack((attacker,), ("0505",)))
    events = decide(state, ResolveAttack(), rolls(1, 3))
    return fold(state, events), events


def test_a_confederate_disorder_check_adds_one_17_4():
    # 12.12: Disordered on a 4-6; a Confederate unit's 3 is a 4 at Ezra Church
    state, events = driven_back("u", "c")
    assert [e.rolls for e in events if isinstance(e, DisorderRolled)] == [(("c", 3),)]  # the die as rolled
    assert state.morale.get("c") == "disordered"
    state, _ = driven_back("u", "c", exclusive={})  # without the rule: the 3 leaves it in good order
    assert "c" not in state.morale


def test_the_union_disorder_check_is_unchanged_17_4():
    # "The Confederate Player only"
    state, _ = driven_back("c", "u", first_player="confederate")
    assert "u" not in state.morale


def test_a_confederate_rally_attempt_adds_one_17_4():
    # 12.41 (b) i: a Disordered unit recovers on 1-5 and becomes Shaken on a 6; the Confederate 5 is a 6
    for side, make, after in (("confederate", rebel, "shaken"), ("union", union, None)):
        state = start([make("a", "0404"), (union if side == "confederate" else rebel)("far", "0808")], first_player=side)
        state = fold(state, [MoraleChanged(changes=(("a", "disordered"),), case="12.0")])
        state, _ = execute(state, PlaceRally(("a",)))
        state, _ = execute(state, EndPhase())
        state = fold(state, decide(state, RollRally(), rolls(5)))
        assert state.morale.get("a") == after, side
