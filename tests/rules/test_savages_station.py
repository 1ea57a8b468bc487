"""Savage's Station (revised 003, 15.0-20.0): its exclusive rules on small custom maps (8 x 8, revised
rules): the Confederate Reinforcement Table (17.1, 17.2: ``reinforcement_table``), the Union Command
Table (18.1, 18.2: ``movement_quota`` with ``by_die``) and the Victory Point Schedule (19.11-19.13:
``victory`` ``first_occupation``, ``occupation``, ``control_of_all`` with ``failing``), with the
template's own blocks (scenarios/templates/savages_station/scenario.toml)."""

from __future__ import annotations

import tomllib

import pytest

from rules.core.commands import EndPhase, EnterReinforcement, MoveUnit
from rules.core.components.schema import BattleError
from rules.core.errors import RuleViolation
from rules.core.events import (
    MovementQuotaRolled,
    ReinforcementEntered,
    ReinforcementTableRolled,
    VictoryPointsAwarded,
)
from rules.core.game import Game
from rules.procedures.reinforcements import due, entry_hexes
from rules.procedures.victory import determine_victory, end_points, recount
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import TEMPLATES_DIR
from tests.rules.combatmaps import rolls
from tests.rules.rulesmaps import rebel, scenario, union

TEMPLATE = tomllib.loads((TEMPLATES_DIR / "savages_station" / "scenario.toml").read_text())
BLOCKS = TEMPLATE["exclusive"]
CASES = {"revised": TEMPLATE["cases"]["revised"]}
AREAS = {"entry_a": ["0101", "0102"], "entry_b": ["0801", "0802"], "entry_c": ["0108"]}


def game(units, blocks=("reinforcement_table", "movement_quota"), turns=6, exclusive=None):
    ex = {b: BLOCKS[b] for b in blocks}
    ex.update(exclusive or {})
    sc = scenario(units, turns=turns, first_player="confederate", exclusive=ex, cases=CASES, areas=AREAS)
    return new_game(Game(sc, get_ruleset("revised")))


GROUPS = [rebel("a1", None, group="A"), rebel("a2", None, group="A"), rebel("b1", None, group="B"), rebel("c1", None, group="C"), rebel("d1", None, group="D")]
UNITS = [union(f"u{i}", f"05{i:02d}") for i in range(3, 8)] + [rebel("r", "0303"), *GROUPS]


def end(state, die=None):
    state, _ = execute(state, EndPhase(), die)
    return state


def test_the_template_table_as_17_2_prints_it():
    table = Game(scenario([rebel("r", "0101")], exclusive={"reinforcement_table": BLOCKS["reinforcement_table"]}, areas=AREAS), get_ruleset("revised")).battle.reinforcement_table
    # 17.2: Game-Turn 1 (16:00): 1-3 A/a, 4 B/a, 5 A/a, 6 D/b; Game-Turn 6 (21:00): 5 and 6 "-/-"
    assert [table.result(1, r) for r in range(1, 7)] == [("A", "a")] * 3 + [("B", "a"), ("A", "a"), ("D", "b")]
    assert [table.result(6, r) for r in range(1, 7)] == [("A", "a"), ("B", "a"), ("C", "c"), ("C", "c"), (None, None), (None, None)]
    assert table.groups() == {"A", "B", "C", "D"}


# -- 17.0 REINFORCEMENTS --------------------------------------------------------------------------
def test_the_die_is_rolled_at_the_beginning_of_the_confederate_movement_phase_and_brings_the_group_at_its_entry_point_17_1():
    state = game(UNITS)
    assert due(state) == []  # 17.1: no group has entered before the roll
    # the game's first phase: the roll comes before its first command (Game-Turn 1, roll 6: "D/b")
    state, events = execute(state, MoveUnit("r", ("0303", "0203")), rolls(6))
    assert isinstance(events[0], ReinforcementTableRolled) and (events[0].roll, events[0].group, events[0].entry, events[0].enters) == (6, "D", "b", True)
    assert events[0].case == "17.1"
    assert due(state) == ["d1"]  # "The result is the units that enter and the hexes at which they enter"
    assert entry_hexes(state, "d1") == ["0801", "0802"]  # entry point b
    with pytest.raises(RuleViolation):
        execute(state, EnterReinforcement("d1", ("0101",)))  # not at entry point a
    state, events = execute(state, EnterReinforcement("d1", ("0802",)))
    assert isinstance(events[0], ReinforcementEntered) and state.positions["d1"] == "0802"
    assert "a1" not in state.positions and due(state) == []  # the other groups did not come


def test_a_group_that_has_entered_before_is_no_reinforcement_and_a_dash_is_none_17_1():
    state = game(UNITS)
    state = end(state, rolls(1))  # Game-Turn 1, roll 1: A/a; the Confederate Movement Phase ends
    assert set(due(state)) == set()  # the Confederate Combat Phase: no entry now
    for _ in range(2):  # the Confederate Combat Phase; the Union Movement Phase (its Command Table roll)
        state = end(state, rolls(3))
    assert (state.turn, state.phasing, state.phase) == (1, "union", "combat")
    state, events = execute(state, EndPhase(), rolls(2))  # Game-Turn 2 begins: roll 2, A/a again
    rolled = [e for e in events if isinstance(e, ReinforcementTableRolled)]
    assert [(e.turn, e.group, e.enters) for e in rolled] == [(2, "A", False)]  # "considered to be no Reinforcements"
    assert set(due(state)) == {"a1", "a2"}  # the group of Game-Turn 1, not entered, may still enter (5.0)
    state = game(UNITS, turns=6)
    state.turn = 6  # Game-Turn 6 (21:00), roll 6: "-/-"
    state, events = execute(state, EndPhase(), rolls(6, 4))
    assert (events[0].group, events[0].enters) == ("", False)


# -- 18.0 MOVEMENT RESTRICTIONS -------------------------------------------------------------------
def test_the_command_table_gives_how_many_union_units_may_move_18_1_18_2():
    state = game(UNITS)
    state = end(state, rolls(5))  # the Confederate Movement Phase (Game-Turn 1, roll 5: A/a)
    state, events = execute(state, EndPhase(), rolls(1))  # the Union Movement Phase begins: roll 1
    quota = [e for e in events if isinstance(e, MovementQuotaRolled)]
    # 18.2: "1: 3"; one group of Confederate reinforcements has entered play: nothing added (18.1)
    assert [(e.roll, e.modifier, e.units, e.case) for e in quota] == [(1, 0, 3, "18.1")]
    for i in (3, 4, 5):
        state, _ = execute(state, MoveUnit(f"u{i}", (f"05{i:02d}", f"06{i:02d}")))
    with pytest.raises(RuleViolation) as refused:
        execute(state, MoveUnit("u6", ("0506", "0606")))  # the fourth
    assert refused.value.case == "18.1"


def test_one_is_added_for_each_two_groups_that_have_entered_and_above_six_reads_the_last_row_18_1():
    state = game(UNITS)
    state.scored.update({"reinforcement_table_group:A:1:a", "reinforcement_table_group:B:1:a"})  # two groups in play
    state.scored.add("reinforcement_table:1")
    state = end(state)
    state, events = execute(state, EndPhase(), rolls(6))
    quota = next(e for e in events if isinstance(e, MovementQuotaRolled))
    assert (quota.roll, quota.modifier, quota.units) == (6, 1, 8)  # 6 + 1: the table's last row, eight (ruling)
    assert state.game.battle.movement_quota.by_roll(4 + 1) == 7  # 18.2: a 5 gives seven


def test_a_unit_of_a_group_the_table_does_not_name_is_refused_17_2():
    from scenarios.validate import _table_groups

    class Src:
        data = {"exclusive": {"reinforcement_table": BLOCKS["reinforcement_table"]}}

    assert _table_groups(Src()) == {"A", "B", "C", "D"}  # 17.2's groups
    with pytest.raises(BattleError):  # an entry point the block does not map to an area
        Game(scenario([rebel("r", "0101")], exclusive={"reinforcement_table": {**BLOCKS["reinforcement_table"], "entries": {"a": "entry_a"}}}, areas=AREAS), get_ruleset("revised"))


# -- 19.0 VICTORY CONDITIONS -----------------------------------------------------------------------
VICTORY = {
    "victory": {**BLOCKS["victory"], "first_occupation": [
        {"side": "confederate", "hex": "0404", "points": 25, "from_turn": 4, "then": 15},
        {"side": "union", "hex": "0404", "points": 15},
    ], "occupation": [{"hex": h, "points": 5, "side": "confederate"} for h in ("0707", "0708", "0808")],
        "control_of_all": [{"hexes": ["0707", "0708", "0808"], "points": 10, "side": "union", "failing": "confederate"}]},
    "control_hexes": {"held_at_start": [{"side": "union", "hexes": ["0404", "0707", "0708", "0808"]}]},
}


def victory_game(units, turns=6):
    return game(units, blocks=(), turns=turns, exclusive=VICTORY)


def awards(events, kind):
    return [(e.side, e.points) for e in events if isinstance(e, VictoryPointsAwarded) and e.kind == kind]


def test_occupying_savages_station_on_game_turns_one_to_three_scores_25_and_only_the_first_time_19_11():
    start = victory_game([rebel("r", "0402"), rebel("s", "0407"), union("u", "0808")])
    state, events = execute(start, MoveUnit("r", ("0402", "0403", "0404", "0405")))  # passes through: occupies (19.13)
    assert awards(events, "first_occupation") == [("confederate", 25)]
    assert state.control["0404"] == "confederate"
    later, more = execute(state, MoveUnit("s", ("0407", "0406", "0405", "0404")))
    assert awards(more, "first_occupation") == []  # "single and exclusive awards"
    assert recount(start, [*events, *more]) == later.vp == {"union": 0, "confederate": 25}  # recounted from the log


def test_from_game_turn_four_the_confederate_first_occupation_scores_15_19_11():
    start = victory_game([rebel("r", "0402"), union("u", "0808")])
    start.turn = 4
    _, events = execute(start, MoveUnit("r", ("0402", "0403", "0404")))
    assert awards(events, "first_occupation") == [("confederate", 15)]


def test_the_union_scores_15_on_its_first_occupation_of_savages_station_19_11():
    start = victory_game([rebel("r", "0101"), union("u", "0406")])
    state = end(start)
    state = end(state)
    assert (state.phasing, state.phase) == ("union", "movement")
    # 19.13: the Union occupies 2516 initially; the award is for a Union unit occupying it (ruling)
    assert awards([], "first_occupation") == [] and state.vp == {"union": 0, "confederate": 0}
    state, events = execute(state, MoveUnit("u", ("0406", "0405", "0404")))
    assert awards(events, "first_occupation") == [("union", 15)]


def test_at_the_end_five_for_each_hex_the_confederate_occupies_and_ten_to_the_union_unless_he_holds_all_three_19_12_19_13():
    state = victory_game([rebel("r", "0606"), rebel("s", "0101"), union("u", "0202")])
    # 19.13: "All territorial objectives are regarded initially as occupied by the Union Player"
    assert [state.control[h] for h in ("0707", "0708", "0808")] == ["union"] * 3
    assert awards(end_points(state), "occupation") == [] and awards(end_points(state), "control_of_all") == [("union", 10)]
    state, _ = execute(state, MoveUnit("r", ("0606", "0707", "0708")))
    assert awards(end_points(state), "occupation") == [("confederate", 5), ("confederate", 5)]
    assert awards(end_points(state), "control_of_all") == [("union", 10)]  # 19.12 ii): he failed to occupy all
    state.control["0808"] = "confederate"
    assert awards(end_points(state), "control_of_all") == []
    assert awards(end_points(state), "occupation") == [("confederate", 5)] * 3


def test_one_victory_point_per_enemy_strength_point_and_the_higher_total_wins_19_11_19_0():
    state = victory_game([rebel("r", "0606", strength=3), union("u", "0202")])
    victory = state.game.battle.victory
    assert victory.for_unit("union", "r", 3) == 3 and victory.for_unit("confederate", "u", 4) == 4  # 19.11 i)
    # 19.0: "the Player with the higher number of Victory Points is the winner"
    assert (victory.level_of(1), victory.level_of(0), victory.level_of(-1)) == ("Union Victory", "Draw", "Confederate Victory")
    level = determine_victory(state)[-1]
    assert (level.union, level.confederate, level.level) == (10, 0, "Union Victory")  # 19.12 ii) alone
