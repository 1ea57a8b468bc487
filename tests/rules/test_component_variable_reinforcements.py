"""Variable reinforcements written down in secret (Road to Richmond 17.6, the game option
``variable_reinforcements``), under the revised rules, on a small map: the Game-Turn One
reinforcements enter at 0101 and may instead arrive with the Game-Turn Six reinforcements at 0108;
hex 0805 activates early reinforcements (17.4), which brings Game-Turn Six's forward to the Game-Turn
after (17.5, 17.64)."""

from __future__ import annotations

import pytest

from rules.core.commands import (
    EndPhase,
    EnterReinforcement,
    EnterWrittenReinforcement,
    MoveUnit,
    WriteDownReinforcements,
)
from rules.core.components.variable_reinforcements import commitment
from rules.core.errors import RuleViolation
from rules.core.events import ReinforcementsWrittenDown, WrittenReinforcementShown
from rules.core.game import Game
from rules.core.state import digest
from rules.procedures.reinforcements import arrival_turn, chart_entry
from rules.procedures.variable_reinforcements import variable_units
from rules.reducer import execute, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.rulesmaps import rebel, scenario, union

RICHMOND = load("road_to_richmond")
VARIABLE = {"side": "confederate", "turn": 1, "entry": ["0101"], "instead": [{"turn": 6, "entry": ["0108"]}]}
EARLY = {"side": "confederate", "near": [{"hexes": ["0805"], "within": 0}], "schedule": [{"turn": 6, "after": 1}]}
CASES = {"revised": {"variable_reinforcements": "17.62", "variable_reinforcements.written": "17.62", "early_arrival": "17.4"}}
SALTS = {"a": "a" * 32, "b": "b" * 32, "c": "c" * 32}


def units():
    return [
        rebel("a", None, arrives=1, entry=["0101"]),
        rebel("b", None, arrives=1, entry=["0101"]),
        rebel("c", None, arrives=1, entry=["0101"]),
        rebel("late", None, arrives=6, entry=["0108"]),
        rebel("scout", "0705", type_="cavalry"),
        union("u", "0404"),
    ]


def start(early=False):
    exclusive = {"variable_reinforcements": VARIABLE}
    if early:
        exclusive["early_arrival"] = EARLY
    sc = scenario(units(), exclusive=exclusive, cases=CASES, first_player="confederate", turns=9)
    return new_game(Game(sc, get_ruleset("revised")))


def written_down(choice: dict[str, int]) -> WriteDownReinforcements:
    return WriteDownReinforcements(commitments={u: commitment(u, t, SALTS[u]) for u, t in choice.items()})


def to(state, turn, log=None):
    while not (state.turn == turn and state.phasing == "confederate" and state.phase == "movement"):
        state, events = execute(state, EndPhase())
        if log is not None:
            log += events
    return state


def test_the_battle_option_17_61():
    # 17.61: "some, none, or all of his units listed as Game-Turn One Reinforcements from hex 0103" may
    # arrive with the Game-Turn Fifteen Reinforcements from 0117 and/or Eighteen from 0126, 0328 or 0728
    on = new_game(Game(RICHMOND, get_ruleset("revised"), {"variable_reinforcements": True}))
    vr = on.game.battle.variable_reinforcements
    assert vr.turns() == (1, 15, 18)
    assert vr.entry_for(15) == ["0117"] and sorted(vr.entry_for(18)) == ["0126", "0328", "0728"]
    listed = [u.id for u in RICHMOND.units if u.side == "confederate" and u.arrives == 1 and u.entry == ["0103"]]
    assert len(listed) == 18 and variable_units(on) == tuple(listed)
    off = new_game(Game(RICHMOND, get_ruleset("revised")))  # a variant: off unless chosen
    assert off.game.battle.variable_reinforcements is None and variable_units(off) == ()


def test_written_down_before_the_game_starts_17_62():
    state = start()
    # 17.62: "before the game starts": nothing else until it is written down
    with pytest.raises(RuleViolation) as refused:
        execute(state, EndPhase())
    assert refused.value.case == "17.62"
    with pytest.raises(RuleViolation) as refused:
        execute(state, EnterReinforcement("a", ("0101",)))
    assert refused.value.case == "17.62"
    # one commitment for each Game-Turn One reinforcement of 0103 (here 0101), none for another unit
    with pytest.raises(RuleViolation, match="missing c"):
        execute(state, WriteDownReinforcements(commitments={u: commitment(u, 1, SALTS[u]) for u in ("a", "b")}))
    with pytest.raises(RuleViolation, match="not one of them: late"):
        execute(state, WriteDownReinforcements(commitments={**written_down({"a": 1, "b": 1, "c": 1}).commitments, "late": "0" * 64}))
    with pytest.raises(RuleViolation, match="64 hexadecimal"):
        execute(state, WriteDownReinforcements(commitments={"a": "x", "b": "0" * 64, "c": "0" * 64}))
    state, events = execute(state, written_down({"a": 6, "b": 1, "c": 1}))
    # the log holds only the commitments: no Game-Turn, no salt
    assert events == [ReinforcementsWrittenDown(side="confederate", commitments=written_down({"a": 6, "b": 1, "c": 1}).commitments)]
    with pytest.raises(RuleViolation, match="written down already"):
        execute(state, written_down({"a": 1, "b": 1, "c": 1}))
    state, _ = execute(state, EndPhase())  # and now the game goes on


def test_an_opening_that_does_not_match_the_commitment_is_refused_17_62():
    state, _ = execute(start(), written_down({"a": 6, "b": 1, "c": 1}))
    # a was written down for Game-Turn Six: it may not come in at 0101 on Game-Turn One
    for turn, salt in ((1, SALTS["a"]), (1, "0" * 32), (6, "0" * 32), (6, "not a salt")):
        with pytest.raises(RuleViolation, match="does not match the commitment") as refused:
            execute(state, EnterWrittenReinforcement(unit="a", path=("0101",), turn=turn, salt=salt))
        assert refused.value.case == "17.62"
    # nor by the plain command, which would show nothing
    with pytest.raises(RuleViolation, match="only as written down"):
        execute(state, EnterReinforcement("a", ("0101",)))
    # the true opening, but on Game-Turn One: a Game-Turn Six reinforcement may not enter yet (and
    # nothing is shown, the command being refused as a whole)
    with pytest.raises(RuleViolation, match="Game-Turn 6"):
        execute(state, EnterWrittenReinforcement(unit="a", path=("0108",), turn=6, salt=SALTS["a"]))


def test_unlisted_game_turn_one_reinforcements_enter_at_their_hex_or_are_withheld_17_62():
    state, _ = execute(start(), written_down({"a": 6, "b": 1, "c": 1}))
    state, events = execute(state, EnterWrittenReinforcement(unit="b", path=("0101", "0102"), turn=1, salt=SALTS["b"]))
    assert isinstance(events[0], WrittenReinforcementShown) and (events[0].turn, events[0].salt) == (1, SALTS["b"])
    assert state.positions["b"] == "0102"
    # 17.62: "he may deliberately withhold some of his Game-Turn One Reinforcements that he has not
    # listed": c enters on Game-Turn Three, at 0103 read 0101 here
    state = to(state, 3)
    state, _ = execute(state, EnterWrittenReinforcement(unit="c", path=("0101",), turn=1, salt=SALTS["c"]))
    assert state.positions["c"] == "0101"
    # shown once: no second opening
    with pytest.raises(RuleViolation, match="shown already"):
        execute(state, EnterWrittenReinforcement(unit="c", path=("0101",), turn=1, salt=SALTS["c"]))


def test_written_down_for_a_later_game_turn_it_arrives_with_its_reinforcements_17_63():
    # 17.63: "Game-Turn One Reinforcements that become Game-Turn Fifteen Reinforcements by this initial
    # choice ... may arrive with Game-Turn Fifteen Reinforcements" (here Six), at their hex
    state, _ = execute(start(), written_down({"a": 6, "b": 1, "c": 1}))
    state = to(state, 5)
    with pytest.raises(RuleViolation, match="Game-Turn 6"):
        execute(state, EnterWrittenReinforcement(unit="a", path=("0108",), turn=6, salt=SALTS["a"]))
    state = to(state, 6)
    with pytest.raises(RuleViolation, match="only at its entry hexes"):  # not at 0103 (here 0101)
        execute(state, EnterWrittenReinforcement(unit="a", path=("0101",), turn=6, salt=SALTS["a"]))
    state, _ = execute(state, EnterWrittenReinforcement(unit="a", path=("0108",), turn=6, salt=SALTS["a"]))
    assert state.positions["a"] == "0108"
    assert arrival_turn(state, "a") == 6 and chart_entry(state, "a") == ["0108"]


def test_according_to_the_early_arrival_rules_17_64():
    # 17.64 (as 17.63): they "may arrive with Game-Turn Eighteen Reinforcements listed on the
    # Reinforcement Chart according to the Early Arrival Rules": the scout reaching 0805 on Game-Turn
    # One activates early arrival (17.4), so the Game-Turn Six reinforcements may arrive on Two (17.5),
    # and so may a Game-Turn One reinforcement written down for Six
    state, _ = execute(start(early=True), written_down({"a": 6, "b": 6, "c": 1}))
    state, _ = execute(state, MoveUnit("scout", ("0705", "0805")))
    state = to(state, 2)
    state, _ = execute(state, EnterWrittenReinforcement(unit="a", path=("0108",), turn=6, salt=SALTS["a"]))
    state, _ = execute(state, EnterReinforcement("late", ("0108",)))  # with the chart's own Game-Turn Six unit
    assert state.positions["a"] == state.positions["late"] == "0108"


def test_the_log_alone_replays_the_game_17_62():
    # the reducer learns the choice only from the log: folding the events again gives the same state,
    # and before a unit's opening nothing in the events names its Game-Turn
    start_state = start()
    log = []
    state, events = execute(start_state, written_down({"a": 6, "b": 1, "c": 1}))
    log += events
    state = to(state, 6, log)
    before = "".join(repr(e) for e in log)
    assert not any(isinstance(e, WrittenReinforcementShown) for e in log) and SALTS["a"] not in before
    state, events = execute(state, EnterWrittenReinforcement(unit="a", path=("0108",), turn=6, salt=SALTS["a"]))
    log += events
    assert digest(fold(start_state, log)) == digest(state)


def test_the_legal_choices_agree_with_what_was_written_down_17_62():
    # 17.62: the choice is the player's own: his legal choices (given it, as the server gives them to
    # him) offer a unit written down for a later Game-Turn only then and at that Game-Turn's hexes, and
    # every entry they offer is accepted once the server opens the unit's commitment
    from rules.legal import choices, reach

    choice = {"a": 6, "b": 1, "c": 1}
    # before the game starts the choices offer only the writing down (decide refuses all else)
    waiting = choices(start())
    assert waiting.write_down.units == ["a", "b", "c"]
    assert [(a.turn, a.entry) for a in waiting.write_down.arrivals] == [(1, ["0101"]), (6, ["0108"])]
    assert not waiting.may_enter and not waiting.may_move and not waiting.may_end_phase
    assert waiting.end_phase_refused.case == "17.62"
    assert reach(start(), "a", "enter") == ({}, waiting.end_phase_refused)
    state, _ = execute(start(), written_down(choice))
    assert choices(state).write_down is None
    before = digest(state)
    # without the choice (what the rules alone know, and all the other player could be shown), a looks
    # like any Game-Turn One reinforcement of 0101
    assert "a" in choices(state).may_enter and "a" in choices(state).reinforcements
    known = choices(state, written=choice)
    assert "a" not in known.may_enter and "a" not in known.reinforcements
    assert set(known.may_enter) == {"b", "c"} == set(known.reinforcements)
    found, refused = reach(state, "a", "enter", written=choice)
    assert found == {} and refused is not None and refused.case == "5.1" and "Game-Turn 6" in refused.message
    assert digest(state) == before  # the state itself is left as it was (nothing shown)
    for unit, moves in known.reinforcements.items():
        for hex_, dest in moves.items():
            command = EnterWrittenReinforcement(unit=unit, path=dest.path, turn=choice[unit], salt=SALTS[unit])
            after, _ = execute(state, command)
            assert after.positions[unit] == hex_
    # 17.63: on Game-Turn Six, a is offered at the Game-Turn Six hex (0108), never at 0101
    state = to(state, 6)
    known = choices(state, written=choice)
    assert "a" in known.may_enter and {d.path[0] for d in known.reinforcements["a"].values()} == {"0108"}
    assert reach(state, "a", "enter", written=choice)[0] == known.reinforcements["a"]
    for hex_, dest in known.reinforcements["a"].items():
        after, _ = execute(state, EnterWrittenReinforcement(unit="a", path=dest.path, turn=6, salt=SALTS["a"]))
        assert after.positions["a"] == hex_
    # once c's commitment is opened the rules know it: giving c's Game-Turn or not changes nothing
    state, _ = execute(state, EnterWrittenReinforcement(unit="c", path=("0101",), turn=1, salt=SALTS["c"]))
    assert choices(state, written=choice).reinforcements == choices(state, written={"b": 1, "a": 6}).reinforcements
