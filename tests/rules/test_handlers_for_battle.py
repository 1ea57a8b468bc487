"""A game's handler table leaves out the hooks of battle rules its battle lacks (``only_with``,
``Handlers.for_battle``): each such hook must then do nothing, which these tests check by calling every
left-out hook at every command of self-played games of battles without its component."""

from __future__ import annotations

import random

import msgspec
import pytest

from players.selfplay import dice_from, play
from rules import rulesets
from rules.core.battle_rule import THE_BATTLES_LATE_RULES, THE_BATTLES_RULES
from rules.core.components.battle import Battle
from rules.core.handlers import HOOK_TABLES
from rules.reducer import fold, new_game
from session.games import GameCache

#: How each hook table's hooks are called: (state before, the command's events, state after, dice).
CALLS = {
    "after_command": lambda before, events, after, dice, h: h(before, events, after),
    "after_command_rolls": lambda before, events, after, dice, h: h(before, events, after, dice),
    "phase_rolls": lambda before, events, after, dice, h: h(after, dice),
    "end_of_game_turn_rolls": lambda before, events, after, dice, h: h(after, dice),
}


def _marked(name: str) -> list:
    hooks = []
    for table in HOOK_TABLES:
        hooks += [(table, h) for h in getattr(rulesets.get(name).handlers, table) if hasattr(h, "only_with")]
    return hooks


@pytest.mark.parametrize("ruleset", rulesets.NAMES)
def test_every_marked_hook_names_a_battle_component(ruleset):
    marked = _marked(ruleset)
    assert marked  # the trains', the Leaders', ...
    fields = {f.name for f in msgspec.structs.fields(Battle)}
    for table, hook in marked:
        assert hook.only_with in fields, f"{hook.__module__}.{hook.__name__} ({table}): no battle component {hook.only_with!r}"


@pytest.mark.parametrize("ruleset", rulesets.NAMES)
def test_a_game_reads_its_battles_table(ruleset):
    cache = GameCache()
    chattanooga = cache.game("chattanooga", ruleset)
    assert chattanooga.battle.trains is None
    left_out = {h for t, h in _marked(ruleset) if getattr(chattanooga.battle, h.only_with) is None}
    assert left_out
    for table in HOOK_TABLES:
        kept = getattr(chattanooga.handlers, table)
        assert not left_out & set(kept), table
        # the others kept, in the rule set's order, the battle's rules where the table places them (none here)
        assert not chattanooga.rules.active
        assert list(kept) == [h for h in getattr(rulesets.get(ruleset).handlers, table) if h not in left_out and h not in (THE_BATTLES_RULES, THE_BATTLES_LATE_RULES)]


@pytest.mark.parametrize(("scenario", "ruleset"), [("chattanooga", "classic"), ("chattanooga", "revised"), ("shiloh", "revised")])
def test_a_left_out_hook_does_nothing_in_a_battle_without_its_component(scenario, ruleset):
    game = GameCache().game(scenario, ruleset)
    left_out = [(t, h) for t, h in _marked(ruleset) if getattr(game.battle, h.only_with) is None]
    assert left_out
    rng = random.Random(7)
    dice = dice_from(random.Random(8))
    calls = 0
    for before, _command, events in play(new_game(game), rng, max_commands=400):
        after = fold(before, events)
        for table, hook in left_out:
            call = CALLS.get(table, lambda before, events, after, dice, h: h(after))
            assert call(before, events, after, dice, hook) == [], f"{hook.__module__}.{hook.__name__} in {scenario}"
            calls += 1
    assert calls > 1000
