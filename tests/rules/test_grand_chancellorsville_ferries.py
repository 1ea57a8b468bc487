"""Grand Chancellorsville 22.11, the River ferry hexes: entered for two Movement Points rather than
three, a unit may end its Movement Phase in one, its Combat Strength is halved there, zones of control
extend into and out of it only through its arrows, and no artillery bombards from it (the ``ferries``
component's ``may_end``, ``halved``, ``zoc_through_arrows``, ``no_bombard`` and the ``terrain_costs``
component), under the revised rules, on a small map: a river in column 03 with the River ferry hex 0304
(arrows 0204 and 0404; its other land neighbours 0203 and 0403) and the pontoon hex 0307."""

from __future__ import annotations

from combatmaps import refused, to_phase
from rulesmaps import board, rebel, scenario, sides, union

from rules.core.commands import DeclareAttack, MoveUnit
from rules.core.game import Game
from rules.procedures.movement import reachable
from rules.queries.zoc import enemy_controlled
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
    assert all(GC.exclusive["ferries"][k] is True for k in ("may_end", "halved", "zoc_through_arrows", "no_bombard"))
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


def test_combat_strength_halved_in_a_river_ferry_hex_22_11():
    # "Units in River ferry hexes have their Combat Strength halved when attacking and defending": a 6 in
    # the ferry hex attacks a 3 at 1-1 (not 2-1); a 6 attacks a 6 in the ferry hex at 2-1 (not 1-1)
    s = to_phase(start([union("u", "0304", strength=6), rebel("r", "0404", strength=3), rebel("far", "0808")]))
    s, _ = execute(s, DeclareAttack(("u",), ("0404",)))
    assert s.pending[0].odds == "1-1"
    s = to_phase(start([union("u", "0404", strength=6), rebel("r", "0304", strength=6), rebel("far", "0808")]))
    s, _ = execute(s, DeclareAttack(("u",), ("0304",)))
    assert s.pending[0].odds == "2-1"


def test_zones_of_control_only_through_the_arrows_22_11():
    # "Zones of Control extend into and out of River ferry hexes solely through the entry hex sides"
    s = start([union("u", "0304"), rebel("r", "0203"), rebel("q", "0404"), rebel("far", "0808")])
    union_zone = enemy_controlled(s, "confederate")  # the hexes the Union unit controls
    assert "0204" in union_zone
    assert "0203" not in union_zone and "0403" not in union_zone
    rebel_zone = enemy_controlled(s, "union")
    assert "0304" in rebel_zone  # from q at 0404, through the arrow
    s = start([union("u", "0304"), rebel("r", "0203"), rebel("far", "0808")])
    assert "0304" not in enemy_controlled(s, "union")  # r at 0203 is beside it, not across an arrow


def test_no_bombardment_from_a_river_ferry_hex_22_11():
    # "Artillery units may not bombard from a River ferry hex"
    s = to_phase(start([union("g", "0304", type_="artillery", strength=4), rebel("r", "0504", strength=2), rebel("far", "0808")]))
    assert refused(s, DeclareAttack(("g",), ("0504",))).case == "22.11"
