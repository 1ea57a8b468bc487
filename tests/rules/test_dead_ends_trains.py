"""5.32 (no dead end) in the battles with trains (Chickamauga 19.21, 19.22; Wilderness 18.32): the
shortcut of rules/legal.py ``_DeadEnds`` (one ``stacking.Arrivals`` for all of a unit's destinations)
gives the same answer as checking each state after the move whole (``_checked``) whenever
``_trains_matter`` says the unit's end cannot change where its side's units may go: the unit is no
train and no train of its side may still move. Property over self-played games of both battles: every
destination of every unit that may move, at every Movement Phase position of the games."""

from __future__ import annotations

import random

import pytest

from players.selfplay import play
from rules.core.events import UnitMoved
from rules.core.game import Game
from rules.legal import _DeadEnds, movers
from rules.procedures import movement
from rules.queries import stacking
from rules.reducer import new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load


def compared(scenario_id: str, seed: int) -> tuple[int, int, int]:
    """(destinations compared, of them with a hex over the limit after the move, refused by 5.32)."""
    start = new_game(Game(load(scenario_id), get_ruleset("revised")))
    n = over = refused = 0
    for state, _command, _events in play(start, random.Random(seed)):
        if state.phase != "movement" or state.pending:
            continue
        memo: dict = {}
        for unit in movers(state):
            if movement.why_unit_may_not_move(state, unit) is not None:
                continue
            ends = _DeadEnds(state, unit, memo)
            if ends._trains_matter():
                continue
            reach = movement.reachable(state, unit)
            memo[unit] = reach.ends
            for d in reach.ends:
                event = UnitMoved(unit=unit, path=reach.path(d), cost=movement.movement_points(reach.cost[d]))
                whole = ends._checked(event)
                assert ends.allows(event) == whole, (scenario_id, seed, state.turn, unit, d)
                n += 1
                refused += not whole
                if stacking.counts(state).get(d, 0) >= stacking.limit(state):
                    over += 1
    return n, over, refused


@pytest.mark.parametrize("scenario_id", ["chickamauga", "wilderness"])
def test_the_shortcut_agrees_with_the_whole_check_where_no_train_may_move(scenario_id):  # 5.32, 19.22
    n, over, refused = compared(scenario_id, 1)
    # many destinations, some into a full hex (the 5.32 search ran), some of them refused by it
    assert n > 1000 and over > 0 and refused > 0, (n, over, refused)
