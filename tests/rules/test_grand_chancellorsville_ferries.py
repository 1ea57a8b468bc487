"""Grand Chancellorsville 22.11, the River ferry hexes' movement: entered for two Movement Points
rather than three, and a unit may end its Movement Phase in one (the ``ferries`` component's
``may_end`` and the ``terrain_costs`` component), under the revised rules, on a small map: a river in
column 03 with the River ferry hex 0304 (arrows 0204 and 0404) and the pontoon hex 0307."""

from __future__ import annotations

from combatmaps import refused
from rulesmaps import board, rebel, scenario, sides, union

from rules.core.commands import MoveUnit
from rules.core.game import Game
from rules.procedures.movement import reachable
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

GC = load("grand_chancellorsville")
CASES = {"revised": dict(GC.cases["revised"])}


def start(units, battle=True):
    hexes = {f"03{r:02d}": "river" for r in range(1, 9)} | {"0304": "ferry", "0307": "pontoon"}
    arrows = sides({("0304", "0204"): {"ferry_crossing"}, ("0304", "0404"): {"ferry_crossing"},
                    ("0307", "0207"): {"ferry_crossing"}, ("0307", "0407"): {"ferry_crossing"}})
    exclusive = {"ferries": {"hexes": ["0304"]}}
    if battle:
        exclusive = {"ferries": {**GC.exclusive["ferries"], "hexes": ["0304"]}, "terrain_costs": GC.exclusive["terrain_costs"]}
    sc = scenario(units, hexes=board(terrain=hexes), hexsides=arrows, exclusive=exclusive, cases=CASES, turns=20)
    return new_game(Game(sc, get_ruleset("revised")))


def test_the_battle_blocks_22_11():
    assert GC.exclusive["ferries"]["may_end"] is True
    assert GC.exclusive["terrain_costs"] == {"hex_costs": {"union": {"ferry": 2}, "confederate": {"ferry": 2}}}


def test_a_river_ferry_hex_costs_two_and_may_be_ended_in_22_11():
    # 22.11: "entered at a cost of two Movement Points rather than three. Additionally, units may end their
    # Movement Phase in a River ferry hex"
    s = start([union("u", "0204"), rebel("far", "0808")])
    assert reachable(s, "u").cost["0304"] == 2 and "0304" in reachable(s, "u").ends
    s2, events = execute(s, MoveUnit("u", ("0204", "0304")))
    assert s2.positions["u"] == "0304" and events[0].cost == 2
    # a pontoon hex is still never ended in (22.12: as in the Fredericksburg rules)
    s = start([union("u", "0207"), rebel("far", "0808")])
    assert refused(s, MoveUnit("u", ("0207", "0307"))).case == "22.11"
    # without the option's rules: three, and no move ends there (the revised 6.28)
    s = start([union("u", "0204"), rebel("far", "0808")], battle=False)
    assert reachable(s, "u").cost["0304"] == 3 and "0304" not in reachable(s, "u").ends
