"""A whole game of every battle the package ships under the revised rules, as the server records it,
ends at its last Game-Turn with one of the battle's levels of victory, and the after-action report says
so (the report reads a revised game's combats on the revised table, 8.6). Parametrized over the shipped
scenarios: a battle that lands later is covered without a change here. Each battle's own victory
cases: Antietam 19.2, Cemetery Hill 20.5, Chickamauga 22.0, Shiloh 18.2, the Wilderness 19.0, ..."""

import random

import pytest
from replaylog import GAMES, Book

from replay import report
from rules.procedures.victory import params
from scenarios.loader import list_scenarios, load

REVISED = [sid for sid, _ in list_scenarios() if "revised" in load(sid).rulesets]


@pytest.mark.parametrize("scenario_id", REVISED)
def test_a_whole_game_ends_with_a_level_of_victory_in_the_report(scenario_id):
    book = Book.of_battle(scenario_id, f"{scenario_id}-1")
    game = GAMES.for_record(book.history.session.created)
    levels = {level.level for level in params(game).levels}
    automatic = params(game).automatic  # Fredericksburg 20.0: a victory before the last Game-Turn
    if automatic is not None:
        levels.add(automatic.level)
    book.play_random(random.Random(7), 20_000)
    finished = book.history.finished
    assert finished is not None and finished.result in levels, (finished, levels)
    if automatic is not None and finished.result == automatic.level:
        assert book.state.turn == automatic.at_end_of_turn  # ended as that Game-Turn ended
    else:
        assert book.state.turn == game.scenario.turns  # the game ran to its last Game-Turn
    built = report.build(book.game_id, book.envelopes, GAMES)
    assert built.finished.result == finished.result
    assert any(finished.result in line for line in report.lines(book.game_id, book.envelopes, GAMES))
