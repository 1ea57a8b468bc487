"""Where a game's handler table calls its battle's rules (rules/core/battle_rule.py, ``Handlers.for_battle``):
at ``THE_BATTLES_RULES``, and a ``late`` rule's hooks at ``THE_BATTLES_LATE_RULES``, after the book's own
steps (Grand Chancellorsville's Leaders after the revised book's 12.17 and 12.16)."""

from __future__ import annotations

from rules.core.battle_rule import THE_BATTLES_LATE_RULES, THE_BATTLES_RULES, BattleRule, BattleRules
from rules.core.handlers import Handlers
from rules.mechanisms.leaders import LeadersRule
from rules.procedures import victory
from rules.revised import combat_procedures as rcp
from session.games import GameCache


def test_the_leaders_hooks_come_after_the_revised_books_own_steps():
    game = GameCache().game("grand_chancellorsville", "revised")
    (leaders,) = [r for r in game.rules if isinstance(r, LeadersRule)]
    after = list(game.handlers.after_command)
    # 23.54 after 12.17 (disorder in towns): the last (the battle has no immediate victory, Olustee 20.0)
    assert after.index(leaders.after_command) > after.index(rcp.disorder_in_towns)
    assert after[-1] == leaders.after_command and victory.immediate_victory not in after
    # 23.51: the last step as a phase ends, after 12.16 (the stationary units recorded)
    assert game.handlers.end_of_phase[-1] == leaders.end_of_phase
    assert rcp.record_stationary in game.handlers.end_of_phase
    assert leaders.after_command_rolls in game.handlers.after_command_rolls  # 23.56
    assert THE_BATTLES_RULES not in game.handlers.after_command
    assert THE_BATTLES_LATE_RULES not in game.handlers.end_of_phase


class _Early(BattleRule):
    component = "early"

    def end_of_phase(self, state):
        return []


class _Late(BattleRule):
    component = "late"
    late = True

    def end_of_phase(self, state):
        return []


def _step(state):
    return []


def _two_rules():
    class Both:
        early, late = object(), object()

    return BattleRules((_Late, _Early), Both(), "revised")


def test_a_late_rule_goes_to_the_late_place_or_with_the_others_where_a_table_has_none():
    rules = _two_rules()
    late, early = rules.active
    with_both = Handlers({}, {}, end_of_phase=(THE_BATTLES_RULES, _step, THE_BATTLES_LATE_RULES)).for_battle(None, rules)
    assert with_both.end_of_phase == (early.end_of_phase, _step, late.end_of_phase)
    one_place = Handlers({}, {}, end_of_phase=(_step, THE_BATTLES_RULES)).for_battle(None, rules)
    assert one_place.end_of_phase == (_step, late.end_of_phase, early.end_of_phase)  # the tuple's order
    no_rules = Handlers({}, {}, end_of_phase=(THE_BATTLES_RULES, _step, THE_BATTLES_LATE_RULES)).for_battle(None)
    assert no_rules.end_of_phase == (_step,)
