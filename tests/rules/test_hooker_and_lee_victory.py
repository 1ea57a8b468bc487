"""Hooker and Lee 21.0-21.2 under the revised rules: the Victory Point schedule (21.11, 21.12) and the
levels of victory by the ratio of Confederate to Union points (21.2), with the battle's own blocks,
on small maps (its victory hexes 0328, 0511, 1501 stand as 0101, 0102, 0103)."""

from __future__ import annotations

import pytest
from rulesmaps import rebel, scenario, union

from rules.core.commands import MoveUnit
from rules.core.game import Game
from rules.procedures.victory import elimination_points, end_points
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

HOOKER = load("hooker_and_lee")
CASES = {"revised": dict(HOOKER.cases["revised"])}
SMALL = {"0328": "0101", "0511": "0102", "1501": "0103"}


def victory_block():
    block = dict(HOOKER.exclusive["victory"])
    block["occupation"] = [{**o, "hex": SMALL[o["hex"]]} for o in block["occupation"]]
    return block


def start(units, first_player="union"):
    sc = scenario(units, exclusive={"victory": victory_block()}, cases=CASES, turns=9, first_player=first_player)
    return new_game(Game(sc, get_ruleset("revised")))


def test_points_per_strength_point_eliminated_21_11_21_12():
    # 21.11: two per Union Combat Strength Point eliminated; 21.12: three per Confederate one
    state = start([union("u", "0505", strength=9), rebel("c", "0808", strength=5), rebel("d", "0707", strength=1)])
    for unit in ("u", "c"):
        state.positions.pop(unit)
        state.eliminated.append(unit)
    assert elimination_points(state) == {"confederate": 18, "union": 15}


def test_occupation_of_0328_0511_and_1501_21_11_21_12():
    # 21.11: "ten Victory Points each for occupying hexes 0328, 0511 and/or 1501"; 21.12: the Union "15
    # Victory Points for occupying hex 1501"
    state = start([rebel("c", "0201"), rebel("d", "0202"), union("u", "0204"), union("far", "0808")], first_player="confederate")
    state, _ = execute(state, MoveUnit("c", ("0201", "0101")))
    state, _ = execute(state, MoveUnit("d", ("0202", "0102")))
    awards = sorted((a.side, a.subject, a.points) for a in end_points(state) if a.kind == "occupation")
    assert awards == [("confederate", "0101", 10), ("confederate", "0102", 10)]
    state = start([union("u", "0204"), rebel("far", "0808")])
    state, _ = execute(state, MoveUnit("u", ("0204", "0104", "0103")))
    awards = sorted((a.side, a.subject, a.points) for a in end_points(state) if a.kind == "occupation")
    assert awards == [("union", "0103", 15)]


RATIOS = [
    # (Confederate, Union): level, 21.2 as printed ("the ratio of Confederate Victory Points to Union")
    ((40, 20), "Confederate Decisive Victory"),  # 2:1 or greater
    ((10, 0), "Confederate Decisive Victory"),
    ((39, 20), "Confederate Substantive Victory"),  # at least 1.5:1, but less than 2:1
    ((30, 20), "Confederate Substantive Victory"),
    ((29, 20), "Confederate Marginal Victory"),  # greater than 1:1, but less than 1.5:1
    ((21, 20), "Confederate Marginal Victory"),
    ((20, 20), "Union Marginal Victory"),  # 1:1 or less, but greater than 1:1.5
    ((0, 0), "Union Marginal Victory"),  # no points on either side: 1:1
    ((21, 30), "Union Marginal Victory"),
    ((20, 30), "Union Substantive Victory"),  # 1:1.5 or less, but greater than 1:2
    ((16, 30), "Union Substantive Victory"),
    ((15, 30), "Union Decisive Victory"),  # 1:2 or less
    ((0, 10), "Union Decisive Victory"),
]


@pytest.mark.parametrize(("totals", "level"), RATIOS)
def test_levels_of_victory_by_the_ratio_of_confederate_to_union_points_21_2(totals, level):
    # 21.2
    victory = Game(HOOKER, get_ruleset("revised")).battle.victory
    confederate_vp, union_vp = totals
    assert victory.level_for({"union": union_vp, "confederate": confederate_vp}) == level
