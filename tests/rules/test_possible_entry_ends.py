"""15.13, 5.32: ``reinforcements.possible_entry_ends`` (the lazy search a player's "may this
reinforcement enter somewhere?" stops early in) finds the same hexes as the whole
``reachable_from_entry`` search, Grand Chancellorsville's Forced March (23.2) included. Property over
self-played games: every due reinforcement at every entry hex it may use, at every position."""

from __future__ import annotations

import random

import pytest

from players.selfplay import play
from rules.core.game import Game
from rules.procedures import reinforcements
from rules.reducer import new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load


@pytest.mark.parametrize("scenario_id", ["grand_chancellorsville", "road_to_richmond", "chickamauga"])
def test_the_lazy_entry_search_finds_the_whole_searchs_ends(scenario_id):  # 15.13, 23.2
    start = new_game(Game(load(scenario_id), get_ruleset("revised")))
    compared = 0
    for state, _command, _events in play(start, random.Random(1)):
        if state.phase != "movement" or state.pending:
            continue
        for unit in reinforcements.due(state):
            if reinforcements.why_may_not_enter(state, unit) is not None:
                continue
            for entry in reinforcements.entry_hexes(state, unit):
                if reinforcements.entry_problem(state, unit, entry) is not None:
                    continue
                whole = reinforcements.reachable_from_entry(state, unit, entry).ends
                assert set(reinforcements.possible_entry_ends(state, unit, entry)) == set(whole), (unit, entry)
                compared += bool(whole)
    assert compared > 50, compared  # reinforcements with somewhere to go were compared
