"""Units besides cavalry that retreat before combat under 8.77 (Chickamauga 20.0: Wilder "may retreat
before combat under Case 8.77 on a die-roll of '1-4'"), under the revised rules, on a small map."""

from __future__ import annotations

from rules.core.commands import DeclareAttack, RetreatBeforeCombat
from rules.core.decisions import PendingAttack, PendingBeforeCombat, PendingRetreat
from rules.core.game import Game
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import rolls, to_phase
from tests.rules.rulesmaps import rebel, scenario, union

WILDER = {"retreat_before_combat": {"units": ["wilder"], "highest_roll": 4}}


def attacked(defender, exclusive=WILDER, attacker_type="infantry"):
    """The Confederate attacks ``defender`` (a Union unit at 0505) from 0404."""
    units = [rebel("a", "0404", type_=attacker_type, strength=4), defender]
    s = new_game(Game(scenario(units, exclusive=exclusive, first_player="confederate"), get_ruleset("revised")))
    s = to_phase(s, side="confederate")
    s, _ = execute(s, DeclareAttack(("a",), ("0505",)))
    return s


def test_wilder_may_retreat_before_combat_and_does_on_one_to_four():
    # 20.0, 8.77: the defender is offered the retreat; on a 4 it retreats (two hexes)
    s = attacked(union("wilder", "0505", strength=8))
    head = s.pending[0]
    assert isinstance(head, PendingBeforeCombat) and head.what == "cavalry" and head.units == ("wilder",)
    s = fold(s, decide(s, RetreatBeforeCombat(("wilder",)), rolls(4)))
    assert [type(p) for p in s.pending[:2]] == [PendingRetreat, PendingRetreat]


def test_wilder_stays_on_a_five_where_cavalry_would_go():
    # 20.0: "on a die-roll of '1-4'" (cavalry: 1-5, 8.77)
    s = attacked(union("wilder", "0505", strength=8))
    s = fold(s, decide(s, RetreatBeforeCombat(("wilder",)), rolls(5)))
    assert isinstance(s.pending[0], PendingAttack) and s.positions["wilder"] == "0505"


def test_other_infantry_may_not_and_cavalry_attackers_forbid_it():
    # 8.77: only cavalry (and the units the battle names); not when the attackers include cavalry
    s = attacked(union("other", "0505", strength=8))
    assert isinstance(s.pending[0], PendingAttack)
    s = attacked(union("wilder", "0505", strength=8), exclusive={})
    assert isinstance(s.pending[0], PendingAttack)
    s = attacked(union("wilder", "0505", strength=8), attacker_type="cavalry")
    assert isinstance(s.pending[0], PendingAttack)
