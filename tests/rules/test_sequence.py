"""Sequence of play (4.0, 4.1), night Game-Turns without a Combat Phase (10.0, 10.1), the end of the
game after the final Game-Turn."""

import pytest
from rulesmaps import rebel, start, union

from rules.core.commands import EndPhase, MoveUnit
from rules.core.errors import RuleViolation
from rules.core.events import GameEnded, GameTurnAdvanced, PhaseBegan, PhaseEnded
from rules.procedures.sequence import to_act
from rules.reducer import decide, execute


def phases_played(state, n):
    seen = [(state.turn, state.phasing, state.phase)]
    for _ in range(n):
        state, _ = execute(state, EndPhase())
        seen.append((state.turn, state.phasing, state.phase))
    return state, seen


def test_game_turn_is_two_player_turns_of_movement_then_combat():
    # 4.1: First Player-Turn (Movement, Combat), Second Player-Turn, Game-Turn Record Interphase.
    state = start([union("u", "0101"), rebel("c", "0808")])
    state, seen = phases_played(state, 4)
    assert seen == [
        (1, "union", "movement"),
        (1, "union", "combat"),
        (1, "confederate", "movement"),
        (1, "confederate", "combat"),
        (2, "union", "movement"),
    ]


def test_first_player_comes_from_the_scenario():
    # 4.1, Chattanooga 14.31: the first player's Player-Turn is the first in every Game-Turn.
    state = start([union("u", "0101"), rebel("c", "0808")], first_player="confederate")
    assert (state.phasing, to_act(state)) == ("confederate", "confederate")


def test_interphase_advances_the_game_turn():
    # 4.1 Game-Turn Record Interphase
    state = start([union("u", "0101"), rebel("c", "0808")])
    state, _ = phases_played(state, 3)
    events = decide(state, EndPhase())
    assert events == [
        PhaseEnded(turn=1, side="confederate", phase="combat"),
        GameTurnAdvanced(turn=2),
        PhaseBegan(turn=2, side="union", phase="movement"),
    ]


def test_night_game_turn_has_no_combat_phase():
    # 10.0, 10.1: the Combat Phase is omitted on a night Game-Turn.
    state = start([union("u", "0101"), rebel("c", "0808")], night_turns=[2])
    state, seen = phases_played(state, 7)
    assert [s for s in seen if s[0] == 2] == [(2, "union", "movement"), (2, "confederate", "movement")]
    assert seen[-1] == (3, "union", "combat")


def test_game_ends_after_the_final_game_turn():
    # 4.0: "At the conclusion of the final Game-Turn, the Victory Conditions are consulted."
    state = start([union("u", "0101"), rebel("c", "0808")], turns=1)
    state, _ = phases_played(state, 3)
    events = decide(state, EndPhase())
    assert events[-1] == GameEnded(reason="last_turn")
    state, _ = execute(state, EndPhase())
    assert state.game_over and to_act(state) is None
    with pytest.raises(RuleViolation) as e:
        decide(state, EndPhase())
    assert e.value.case == "4.1"


def test_combat_phase_may_be_ended_empty():
    # 4.1 B: the Combat Phase (combat arrives with the next issue) may be passed through.
    state = start([union("u", "0101"), rebel("c", "0808")])
    state, _ = execute(state, EndPhase())
    assert state.phase == "combat"
    state, _ = execute(state, EndPhase())
    assert (state.phasing, state.phase) == ("confederate", "movement")


def test_no_movement_out_of_sequence():
    # 5.11: units move only in their own Movement Phase.
    state = start([union("u", "0101"), rebel("c", "0808")])
    with pytest.raises(RuleViolation) as e:
        decide(state, MoveUnit("c", ("0808", "0807")))
    assert e.value.case == "5.11"
    state, _ = execute(state, EndPhase())  # Union combat phase
    with pytest.raises(RuleViolation) as e:
        decide(state, MoveUnit("u", ("0101", "0102")))
    assert e.value.case == "5.11"


def test_set_up_places_units_and_keeps_reinforcements_aside():
    # 3.0: units of the deployment chart on their hexes, the rest aside for the Reinforcement Chart;
    # play starts with Game-Turn One
    state = start([union("u", "0101"), union("r", None, arrives=2, entry=["0101"]), rebel("c", "0808")])
    assert state.positions == {"u": "0101", "c": "0808"}
    assert state.turn == 1 and state.eliminated == []
