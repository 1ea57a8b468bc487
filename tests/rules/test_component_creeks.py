"""The creeks component (rules/core/components/creeks.py) with Road to Vicksburg's Jackson's Creek and
Baker's Creek (003 19.11-19.15), under the revised rules on small clear maps whose creeks the tests draw:
Jackson's Creek runs between columns 03 and 04 (stream hexsides 0304-0404, 0305-0404, 0306-0405,
0306-0406; a ford 0305-0405), its banks the area "jc"; Baker's Creek is a creek with a bridge at 0707-0708,
its banks the area "bc"; "woods" (0606, 0607) is the area of 19.13, a road 0605-0606-0607."""

from __future__ import annotations

import tomllib

import pytest
from combatmaps import to_phase

from rules.core.commands import DeclareAttack, EndPhase, MoveUnit
from rules.core.errors import RuleViolation
from rules.core.game import Game
from rules.reducer import execute, new_game
from rules.revised.combat_procedures import breakdown
from rules.rulesets import get as get_ruleset
from scenarios.loader import TEMPLATES_DIR
from tests.rules.rulesmaps import rebel, scenario, sides, union

with (TEMPLATES_DIR / "road_to_vicksburg" / "scenario.toml").open("rb") as f:
    TEMPLATE = tomllib.load(f)
CREEKS = {
    "creek": [
        {"name": "Jackson's Creek", "banks": "jc", "artillery_only_at_crossings": True},
        {"name": "Baker's Creek", "banks": "bc", "bridge_attacks_optional": True},
    ],
    "road_only": {"area": "woods", "unit_types": ["artillery"]},
}
HEXSIDES = sides({
    ("0304", "0404"): {"stream"}, ("0305", "0404"): {"stream"}, ("0306", "0405"): {"stream"}, ("0306", "0406"): {"stream"},
    ("0305", "0405"): {"creek", "ford"},
    ("0707", "0708"): {"creek", "bridge"}, ("0706", "0707"): {"creek"},
    ("0605", "0606"): {"road"}, ("0606", "0607"): {"road"},
    ("0104", "0204"): {"stream"},  # another stream, not Jackson's Creek
})
AREAS = {"jc": ["0304", "0305", "0306", "0404", "0405", "0406"], "bc": ["0707", "0708"], "woods": ["0606", "0607"]}


def start(units, creeks=CREEKS, first_player="union"):
    sc = scenario(units, hexsides=HEXSIDES, areas=AREAS, exclusive={"creeks": creeks} if creeks else {}, cases={"revised": {"creeks": "19.1"}}, first_player=first_player)
    return new_game(Game(sc, get_ruleset("revised")))


def refused(state, command) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        execute(state, command)
    return e.value


def test_the_template_names_the_creeks_by_the_areas_the_owner_supplies_19_1():
    block = TEMPLATE["exclusive"]["creeks"]
    assert [(c["name"], c["banks"]) for c in block["creek"]] == [("Jackson's Creek", "jacksons_creek"), ("Baker's Creek", "bakers_creek")]
    assert block["creek"][0]["artillery_only_at_crossings"] and block["creek"][1]["bridge_attacks_optional"]
    assert block["road_only"] == {"area": "jacksons_creek_woods", "unit_types": ["artillery"]}
    assert {"jacksons_creek", "bakers_creek", "jacksons_creek_woods"} <= set(TEMPLATE["template"]["areas"])


def test_artillery_crosses_jacksons_creek_only_at_a_bridge_or_ford_19_12():
    # 19.12: "Artillery units can cross Jackson's Creek only at a bridge or a ford"
    state = start([union("gun", "0304", type_="artillery"), union("inf", "0304"), union("gun2", "0305", type_="artillery"), union("gun3", "0104", type_="artillery"), rebel("far", "0808")])
    assert refused(state, MoveUnit("gun", ("0304", "0404"))).case  # across the stream: refused
    state, _ = execute(state, MoveUnit("inf", ("0304", "0404")))  # infantry crosses the stream
    state, _ = execute(state, MoveUnit("gun2", ("0305", "0405")))  # at the ford
    state, _ = execute(state, MoveUnit("gun3", ("0104", "0204")))  # another stream: not Jackson's Creek
    without = start([union("gun", "0304", type_="artillery"), rebel("far", "0808")], creeks=None)
    execute(without, MoveUnit("gun", ("0304", "0404")))  # the standard rules let it cross a stream


def test_zones_of_control_extend_across_jacksons_creek_19_11():
    # 19.11 with 7.6: "Zones of Control do extend across stream hex sides"; across its ford too
    state = start([union("u", "0304"), rebel("far", "0808")])
    assert {"0404"} <= set(state.game.zoc_into["0304"]) and "0405" in state.game.zoc_into["0305"]


def test_a_unit_attacking_across_jacksons_creek_is_halved_19_14():
    # 19.14 read with 10.1 (the revised chart): the unit attacking across a stream, bridge or ford hexside
    # is halved (docs/RULINGS.md)
    state = to_phase(start([union("u", "0304"), union("v", "0305"), rebel("r", "0404")]))
    [line] = breakdown(state, ["u"], [], ["0404"]).attackers
    assert (line.printed, line.strength) == (4, 2)


def test_artillery_moves_into_the_woods_only_along_the_road_19_13():
    # 19.13: "Artillery units cannot move off a road in the wooded hexes east of Jackson's Creek ..."
    state = start([union("gun", "0605", type_="artillery"), union("gun2", "0506", type_="artillery"), union("inf", "0506"), rebel("far", "0101")])
    state, _ = execute(state, MoveUnit("gun", ("0605", "0606", "0607")))  # along the road
    assert refused(state, MoveUnit("gun2", ("0506", "0606"))).case  # off the road into the woods
    execute(state, MoveUnit("inf", ("0506", "0606")))  # infantry is not bound


def test_attacks_across_a_bakers_creek_bridge_are_optional_19_15():
    # 19.15: u (0707) is adjacent to r (0708) only across the bridge: the Combat Phase may end without an attack
    state = to_phase(start([union("u", "0707"), rebel("r", "0708")]))
    state, _ = execute(state, EndPhase())
    assert state.phasing == "confederate"
    # the attack may still be made
    state = to_phase(start([union("u", "0707"), rebel("r", "0708")]))
    execute(state, DeclareAttack(("u",), ("0708",)))
    # without the rule (or across another hexside) the attack is owed: 8.12
    state = to_phase(start([union("u", "0707"), rebel("r", "0708")], creeks={"creek": [{"name": "Baker's Creek", "banks": "bc"}]}))
    assert refused(state, EndPhase()).case == "8.12"
    state = to_phase(start([union("u", "0707"), rebel("r", "0708"), rebel("s", "0807")]))
    assert refused(state, EndPhase()).case == "8.12"  # s is adjacent across no bridge


def test_artillery_does_not_retreat_across_jacksons_creek_either_19_12():
    # 19.12 "can cross ... only at a bridge or a ford": a retreat is a crossing too
    from rules.procedures.retreat import retreat_options

    state = start([union("gun", "0404", type_="artillery"), union("inf", "0404"), rebel("r", "0504"), rebel("s", "0505")])
    assert {o.to for o in retreat_options(state, "inf")} == {"0304", "0305"}  # 0403, 0405: enemy zones of control
    assert retreat_options(state, "gun") == []  # no way but across the stream: eliminated
