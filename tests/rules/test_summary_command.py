"""``players.selfplay.summary_command``: a random command from the choices without destinations (what
the server sends a client), asking for one drawn unit's reach at a time (`rules.legal.reach`), as
`bluegray loadtest --choices` and the web client play.

- over Chattanooga positions (both rule sets) the command it picks is accepted by ``decide``, it asks
  only about units the summary lists, and it picks what ``random_command`` picks from the full
  choices with the same seed;
- a unit with nowhere to end its move (5.13, 5.32) is dropped and another drawn, none asked twice;
  with none left the phase ends, or, when it may not end, it is a dead end.
"""

import random

import pytest

from players.selfplay import DeadEnd, answered, dice_from, random_command, random_player, summary_command
from rules.core.commands import EndPhase, EnterReinforcement, MoveUnit
from rules.core.game import Game
from rules.core.state import MOVEMENT
from rules.legal import Choices, Destination, Refusal, choices, reach
from rules.reducer import decide, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load


def movement_positions(ruleset: str, seed: int, wanted: int):
    """Movement Phase positions with nothing pending, from a game self-played by the random player."""
    rng = random.Random(seed)
    dice = dice_from(rng)
    state = new_game(Game(load("chattanooga"), get_ruleset(ruleset)))
    found = 0
    for _ in range(2000):
        if state.game_over or found == wanted:
            return
        if state.phase == MOVEMENT and not state.pending and rng.random() < 0.2:
            found += 1
            yield state
        state = fold(state, decide(state, random_player(state, rng), dice))


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
def test_the_command_from_the_summary_and_reach_is_legal_and_the_full_choices_one(ruleset):
    positions = 0
    for state in movement_positions(ruleset, 3, 6):
        positions += 1
        legal = choices(state)
        summary = choices(state, destinations=False)
        listed = {("move", u) for u in summary.may_move} | {("enter", u) for u in summary.may_enter}
        listed |= {("strategic", u) for u in summary.may_move_strategically}
        for seed in range(4):
            asked = []

            def destinations(how, unit, state=state, asked=asked):
                asked.append((how, unit))
                return reach(state, unit, how)[0]

            command = answered(summary_command(summary, random.Random(seed), end_weight=0.05), destinations)
            assert set(asked) <= listed and len(asked) == len(set(asked))
            assert command == random_command(state, random.Random(seed), end_weight=0.05, legal=legal)
            decide(state, command, dice_from(random.Random(seed)))  # accepted: no RuleViolation
    assert positions == 6


def pick(summary: Choices, seed: int, reaches: dict) -> tuple:
    """The command picked with this seed when each unit's reach is ``reaches[unit]`` (else empty),
    and the (how, unit) asked, in order."""
    asked = []

    def destinations(how, unit):
        asked.append((how, unit))
        return reaches.get(unit, {})

    return answered(summary_command(summary, random.Random(seed), end_weight=0.0), destinations), asked


def test_a_unit_with_nowhere_to_go_is_dropped_and_never_asked_twice():
    # 5.13, 5.32: a unit free to start a move can have no hex to end it in; its reach is empty
    summary = Choices(
        side="union", turn=1, phase=MOVEMENT, may_move=["a", "b", "c"], may_enter=["r"], may_end_phase=True
    )
    for seed in range(20):
        command, asked = pick(summary, seed, {})
        assert command == EndPhase()
        assert sorted(asked) == [("enter", "r"), ("move", "a"), ("move", "b"), ("move", "c")]

    only_c = {"0101": Destination(2, ("0100", "0101"))}
    for seed in range(20):
        command, asked = pick(summary, seed, {"c": only_c})
        assert command == MoveUnit("c", ("0100", "0101")) and asked[-1] == ("move", "c")
        assert len(asked) == len(set(asked))

    entering = Choices(side="union", turn=1, phase=MOVEMENT, may_enter=["r"], may_end_phase=True)
    assert pick(entering, 0, {"r": only_c}) == (EnterReinforcement("r", ("0100", "0101")), [("enter", "r")])


def test_nowhere_to_go_and_the_phase_may_not_end_is_a_dead_end():
    refused = Refusal("5.32", "a hex is over the stacking limit")
    summary = Choices(
        side="union",
        turn=1,
        phase=MOVEMENT,
        may_move=["a", "b"],
        may_end_phase=False,
        end_phase_refused=refused,
    )
    with pytest.raises(DeadEnd, match="stacking"):
        pick(summary, 0, {})


def test_the_draws_follow_the_seed():
    units = [f"u{i}" for i in range(12)]
    summary = Choices(side="union", turn=1, phase=MOVEMENT, may_move=units, may_end_phase=True)
    assert pick(summary, 5, {}) == pick(summary, 5, {})
    assert any(pick(summary, 5, {})[1] != pick(summary, s, {})[1] for s in range(6, 10))
