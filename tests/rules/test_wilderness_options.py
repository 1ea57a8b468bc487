"""The Wilderness 20.0 optional rules, options at game creation (scenario.toml ``[options]``,
rules.core.scenario.ScenarioOption): 20.1 Pickett's Division (units in play only with the option) and
20.2 General Burnside (the ``movement_die`` component), on the battle's map and on a small one."""

from __future__ import annotations

import msgspec
import pytest

from rules.core.commands import EndPhase, EnterReinforcement, MoveUnit
from rules.core.errors import RuleViolation
from rules.core.events import MovementDieRolled, UnitMoved
from rules.core.game import Game
from rules.core.scenario import ScenarioOption
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.combatmaps import rolls
from tests.rules.rulesmaps import rebel, scenario, union

WILDERNESS = load("wilderness")
BURNSIDE = WILDERNESS.options["general_burnside"]
PICKETT = ("cs-hunton", "cs-corse", "cs-terry")


def test_the_options_are_off_unless_chosen_20_0():
    # 20.0 OPTIONAL RULES: a game without options has neither Pickett's division nor the die
    plain = Game(WILDERNESS, get_ruleset("revised"))
    assert not set(PICKETT) & set(plain.units)
    assert plain.battle.movement_die is None
    both = Game(WILDERNESS, get_ruleset("revised"), {"picketts_division": True, "general_burnside": True})
    assert set(PICKETT) <= set(both.units)
    assert both.battle.movement_die.units == ["us-2-1-ix", "us-2-2-ix", "us-1-3-ix", "us-2-3-ix", "us-art-ix"]


def test_picketts_division_arrives_on_game_turn_nine_at_0118_or_0128_20_1():
    game = Game(WILDERNESS, get_ruleset("revised"), {"picketts_division": True})
    assert [(game.units[u].arrives, game.units[u].entry, game.units[u].strength) for u in PICKETT] == [
        (9, ["0118", "0128"], 7),
        (9, ["0118", "0128"], 7),
        (9, ["0118", "0128"], 5),
    ]
    state = new_game(game)
    assert not set(PICKETT) & set(state.positions)  # reinforcements, not on the map at start


def burnside_game(units):
    """A small map whose option general_burnside binds the units ix1, ix2, ix3 (the IX Corps) of the Union."""
    sc = scenario(units, turns=3, cases={"revised": {"movement_die": "20.2"}})
    option = ScenarioOption(
        title="General Burnside", case="20.2", exclusive={"movement_die": {**BURNSIDE.exclusive["movement_die"], "units": ["ix1", "ix2", "ix3"]}}
    )
    sc = msgspec.structs.replace(sc, options={"general_burnside": option})
    return new_game(Game(sc, get_ruleset("revised"), {"general_burnside": True}))


UNITS = [union("ix1", "0202"), union("ix2", "0204"), union("td", "0206"), union("ix3", None, arrives=1, entry=["0101"]), rebel("far", "0808")]


def test_a_die_before_the_first_ix_corps_unit_moves_20_2():
    # "whenever any unit of the Union IX corps is to be moved, a special die roll is required": once a
    # Movement Phase; on a 3 the move is made, and the next IX unit moves without a roll
    state = burnside_game(UNITS)
    events = decide(state, MoveUnit("ix1", ("0202", "0302")), rolls(3))
    assert [type(e) for e in events] == [MovementDieRolled, UnitMoved]
    assert (events[0].roll, events[0].held, events[0].case) == (3, False, "20.2")
    state = fold(state, events)
    events = decide(state, MoveUnit("ix2", ("0204", "0304")), rolls())  # no die: none is rolled
    assert [type(e) for e in events] == [UnitMoved]


def test_on_a_six_no_ix_corps_unit_moves_that_phase_20_2():
    # "If the result is a '6', none of the IX Corps units may move during that Movement Phase"; the
    # others (the Train Defence units are not affected) move; the next Union Movement Phase rolls again
    state = burnside_game(UNITS)
    events = decide(state, MoveUnit("ix1", ("0202", "0302")), rolls(6))
    assert [(type(e), e.held) for e in events] == [(MovementDieRolled, True)]  # the move is not made
    state = fold(state, events)
    assert state.positions["ix1"] == "0202"
    with pytest.raises(RuleViolation) as refused:
        execute(state, MoveUnit("ix2", ("0204", "0304")), rolls(1))
    assert refused.value.case == "20.2"
    with pytest.raises(RuleViolation):
        execute(state, EnterReinforcement("ix3", ("0101",)), rolls(1))  # entering is moving
    state, _ = execute(state, MoveUnit("td", ("0206", "0306")))
    for _ in range(4):  # to the Union's next Movement Phase (Game-Turn Two)
        state, _ = execute(state, EndPhase())
    assert (state.turn, state.phasing, state.phase) == (2, "union", "movement")
    events = decide(state, MoveUnit("ix2", ("0204", "0304")), rolls(2))
    assert [type(e) for e in events] == [MovementDieRolled, UnitMoved]


def test_a_reinforcement_of_the_ix_corps_entering_rolls_20_2():
    state = burnside_game(UNITS)
    events = decide(state, EnterReinforcement("ix3", ("0101",)), rolls(6))
    assert [(type(e), e.held) for e in events] == [(MovementDieRolled, True)]


def test_the_validator_checks_the_options(tmp_path):
    # an option naming a unit not in the order of battle, an unknown key, a block that does not decode
    import shutil

    from scenarios.loader import folder_of
    from scenarios.source import Files
    from scenarios.validate import check

    folder = tmp_path / "wilderness"
    shutil.copytree(folder_of("wilderness"), folder)
    toml = folder / "scenario.toml"
    toml.write_text(
        toml.read_text()
        .replace('units = ["cs-hunton", "cs-corse", "cs-terry"]', 'units = ["cs-hunton", "cs-pickett"]\ncolour = "grey"')
        .replace("fails_on = [6]", "fails_on = [7]")
    )
    problems = [(p.location, p.message) for p in check(Files(folder))]
    assert ("options.picketts_division", "names no unit of the order of battle: 'cs-pickett'") in problems
    assert any(loc == "options.picketts_division" and "unknown key 'colour'" in m for loc, m in problems)
    assert any(loc.startswith("options.general_burnside.exclusive.movement_die.fails_on") for loc, _ in problems)
