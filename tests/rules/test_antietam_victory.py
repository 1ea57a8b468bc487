"""Antietam's victory conditions (003 19.0-19.2): the line of communication to Boteler's Ford, the
fifteen points for all four hexes of Sharpsburg and the levels of victory by the ratio of the points,
on small maps with the battle's parameters and on the Antietam scenario itself."""

import pytest
from combatmaps import of_type
from rulesmaps import rebel, start, union

from rules.core.commands import EndPhase, MoveUnit
from rules.core.components.battle import decode
from rules.core.components.schema import BattleError
from rules.core.events import GameEnded, VictoryDetermined
from rules.core.game import Game
from rules.procedures.victory import end_points, recount
from rules.queries.communications import cut_off
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

ANTIETAM = load("antietam")
TOWN = ["0404", "0405", "0504", "0505"]  # four contiguous hexes standing for Sharpsburg
FORD = "0101"  # standing for Boteler's Ford, 0126


def exclusive():
    battle = ANTIETAM.exclusive
    return {
        "line_of_communications": {**battle["line_of_communications"], "hexes": [FORD]},
        "victory": {**battle["victory"], "control_of_all": [{"hexes": TOWN, "points": 15}]},
        "control_hexes": {"held_at_start": [{"side": "confederate", "hexes": TOWN}]},
    }


def game(units):
    return start(units, exclusive=exclusive(), cases={"classic": ANTIETAM.cases["revised"]})


def test_a_line_of_communication_through_hexes_free_of_enemy_zones_of_control():
    # 19.1: "a series of contiguous hexes free of Enemy units or Enemy Zones of Control to hex 0126"
    state = game([rebel("c", "0105"), union("u", "0808")])
    line = state.game.battle.line_of_communications
    assert cut_off(state, line) == []  # 0104, 0103, 0102, 0101: nobody near
    # a Union unit at 0303 controls 0202, 0203, 0204, 0302, 0304, 0402, 0403: the column 01 is still free
    state = game([rebel("c", "0105"), union("u", "0303")])
    assert cut_off(state, line) == []
    # Union units at 0203 and 0205 control 0103, 0104, 0106, 0202, 0204, 0206: every way from 0105 runs
    # through their zones
    state = game([rebel("c", "0105"), union("u", "0203"), union("v", "0205")])
    assert cut_off(state, line) == ["c"]


def test_friendly_units_do_not_negate_enemy_zones_of_control():
    # 19.1: "Friendly units do not negate Enemy Zones of Control for this purpose"
    # 0203 controls 0103 and 0104, 0205 controls 0106 and 0204: c at 0105 and d at 0104 are cut off
    # though d stands in 0104 and the Confederate holds 0102; e at 0102 is beside the ford
    state = game([rebel("c", "0105"), rebel("d", "0104"), rebel("e", "0102"), union("u", "0203"), union("v", "0205")])
    line = state.game.battle.line_of_communications
    assert cut_off(state, line) == ["c", "d"]


def test_the_units_own_hex_and_the_ford_itself():
    # 19.1 (Ruling): a unit in an enemy zone of control traces a line out of it; one at 0126 has it
    state = game([rebel("c", "0104"), union("u", "0205"), rebel("f", FORD), union("v", "0202")])
    line = state.game.battle.line_of_communications
    # c at 0104 is in the zone of 0205; its line runs 0103 (free), 0102 (in 0202's zone): cut.
    assert cut_off(state, line) == ["c"]
    # the unit at the ford itself, in the zone of 0202, is at 0126: not cut off
    state = game([rebel("c", "0104"), union("u", "0205"), rebel("f", FORD), union("v", "0303")])
    assert cut_off(state, line) == []  # 0104 is in 0205's zone; 0103, 0102, 0101 are free


def test_an_enemy_unit_on_the_ford_cuts_every_line():
    # 19.1, 21.1: "Cutting the South off from Boteler's Ford (hex 0126) assures complete victory"
    state = game([rebel("c", "0505"), rebel("d", "0808"), union("u", FORD)])
    assert cut_off(state, state.game.battle.line_of_communications) == ["c", "d"]


def test_a_confederate_unit_cut_off_counts_as_eliminated_for_victory():
    # 19.1: "considered eliminated for Victory Point purposes": one point per Strength Point to the Union
    state = game([rebel("c", "0105", strength=3), union("u", "0203"), union("v", "0205")])
    awarded = [(a.side, a.points, a.kind, a.subject, a.case) for a in end_points(state) if a.kind == "cut_off"]
    assert awarded == [("union", 3, "cut_off", "c", "19.1")]


def test_union_units_trace_no_line():
    # 19.1: only Confederate units trace a Line of Communication
    state = game([union("u", "0808"), rebel("c", "0707"), rebel("d", "0807"), rebel("e", "0708")])
    assert cut_off(state, state.game.battle.line_of_communications) == []


def test_fifteen_points_for_all_four_hexes_of_sharpsburg():
    # 19.1: the Confederate controls Sharpsburg at the beginning: 15 to him if nobody moves
    state = game([union("u", "0707"), rebel("c", "0101")])
    assert [(a.side, a.points, a.kind) for a in end_points(state)] == [("confederate", 15, "control_of_all")]
    # "No Victory Points are awarded for individual hexes": a Union unit moving through one hex spoils it
    state, _ = execute(state, MoveUnit("u", ("0707", "0606", "0506", "0505", "0605")))
    assert state.control["0505"] == "union"
    assert [a for a in end_points(state) if a.kind == "control_of_all"] == []


def test_the_last_player_to_occupy_or_move_through_all_four_controls_sharpsburg():
    # 19.1: "the last Player to have a unit occupy or move through the hexes"
    units = [union("u", "0304"), union("v", "0605"), rebel("c", "0101")]
    state = game(units)
    state, _ = execute(state, MoveUnit("u", ("0304", "0404", "0405")))  # occupies 0405, passed 0404
    state, _ = execute(state, MoveUnit("v", ("0605", "0505", "0504")))  # occupies 0504, passed 0505
    assert {h: state.control[h] for h in TOWN} == dict.fromkeys(TOWN, "union")
    assert [(a.side, a.points) for a in end_points(state) if a.kind == "control_of_all"] == [("union", 15)]


RATIOS = [
    # (Union, Confederate): level, 19.2 as printed
    ((30, 15), "Union Decisive Victory"),  # 2:1 or greater
    ((15, 0), "Union Decisive Victory"),  # no Confederate points at all: greater than any ratio
    ((29, 15), "Union Substantive Victory"),  # at least 1.5 to 1, but less than 2:1
    ((15, 10), "Union Substantive Victory"),
    ((14, 10), "Union Marginal Victory"),  # greater than 1:1, but less than 1.5:1
    ((11, 10), "Union Marginal Victory"),
    ((10, 10), "Confederate Marginal Victory"),  # 1:1 or less, but greater than 1:1.25
    ((0, 0), "Confederate Marginal Victory"),  # Ruling: no points on either side is 1:1
    ((9, 10), "Confederate Marginal Victory"),
    ((8, 10), "Confederate Substantive Victory"),  # 1:1.25 or less, but greater than 1:1.5
    ((7, 10), "Confederate Substantive Victory"),
    ((10, 15), "Confederate Decisive Victory"),  # Ruling: exactly 1:1.5 is Decisive ("1:1.5 or less")
    ((6, 10), "Confederate Decisive Victory"),  # less than 1:1.5
    ((0, 15), "Confederate Decisive Victory"),
]


@pytest.mark.parametrize(("totals", "level"), RATIOS)
def test_levels_of_victory_by_the_ratio_of_union_to_confederate_points(totals, level):
    # 19.2: "the ratio of Union Victory Points to Confederate Victory Points"
    victory = Game(ANTIETAM, get_ruleset("revised")).battle.victory
    union_vp, confederate_vp = totals
    assert victory.level_for({"union": union_vp, "confederate": confederate_vp}) == level


def test_the_ratio_parameters_are_checked():
    # 19.2: ratio_of names two sides; a ratio is written as the book prints it
    with pytest.raises(BattleError, match="ratio_of"):
        decode({"victory": {"ratio_of": ["union"]}})
    with pytest.raises(BattleError, match="at_least"):
        decode({"victory": {"ratio_of": ["union", "confederate"], "levels": [{"level": "x", "at_least": "2 to 1"}]}})


def test_antietam_after_ten_game_turns_without_a_move():
    # 16.3: ten Game-Turns; 19.1: the Confederate holds Sharpsburg from the start (15) and every
    # Confederate unit traces its line to 0126; 19.2: 0:15 is less than 1:1.5
    start_state = new_game(Game(ANTIETAM, get_ruleset("revised")))
    assert {h: start_state.control[h] for h in ("0815", "0816", "0716", "0616")} == dict.fromkeys(
        ("0815", "0816", "0716", "0616"), "confederate"
    )
    state, log = start_state, []
    while not state.game_over:
        state, events = execute(state, EndPhase())
        log.extend(events)
    assert state.turn == 10
    determined = of_type(log, VictoryDetermined)[-1]
    assert (determined.union, determined.confederate) == (0, 15)
    assert log[-1] == GameEnded(reason="last_turn", result="Confederate Decisive Victory")
    assert state.result == "Confederate Decisive Victory"
    assert recount(start_state, log) == state.vp
