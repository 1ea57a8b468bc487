"""Gunboats (revised 9.6-9.66; rules/core/gunboats.py) on a small map with a river: column 03 is river,
and 0205 (a clear hex beside it) is the scenario's extra gunboat hex, as Shiloh's 1701 (9.62)."""

from __future__ import annotations

import random

import pytest

from players.selfplay import play_game
from rules.combat_choices import attack_options
from rules.core.commands import DeclareAttack, EndPhase, EnterReinforcement, MoveUnit
from rules.core.game import Game
from rules.core.scenario import Map, Scenario
from rules.legal import choices
from rules.queries.zoc import enemy_controlled
from rules.reducer import decide, execute, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import declare, refused, to_phase
from tests.rules.rulesmaps import board, chattanooga_crt, rebel, union

RIVER = tuple(f"03{r:02d}" for r in range(1, 11))
EXTRA = "0205"  # like Shiloh's 1701: named in [exclusive.gunboats] hexes
GUNBOATS = {"gunboats": {"hexes": [EXTRA]}}


def gunboat(uid: str, hex_: str | None, strength: int = 2, **kw):
    return union(uid, hex_, type_="gunboat", strength=strength, **kw)


def scenario(units, terrain=None, rulesets=("revised",), turns=3) -> Scenario:
    hexes = board(10, 10, terrain={**{h: "river" for h in RIVER}, **(terrain or {})})
    return Scenario(
        id="test",
        name="Test",
        rulesets=list(rulesets),
        turns=turns,
        night_turns=[],
        first_player="union",
        map=Map(lower_columns="even", hexes=hexes),
        units=units,
        exclusive=GUNBOATS,
        crt=chattanooga_crt(),
    )


def start(units, **kw):
    return new_game(Game(scenario(units, **kw), get_ruleset("revised")))


def test_moves_through_any_number_of_contiguous_river_hexes_and_the_named_hexes_9_62():
    # 9.62: unlimited allowance, river hexes only (and the scenario's extra hex, 1701 in Shiloh)
    state = start([gunboat("g", "0301"), rebel("r", "0909")])
    moves = choices(state).moves["g"]
    assert set(moves) == (set(RIVER) | {EXTRA}) - {"0301"}
    assert moves["0310"].cost == 9  # nine river hexes: more than any land unit's allowance (10.1: 1 MP each)
    state, _ = execute(state, MoveUnit("g", RIVER))
    assert state.positions["g"] == "0310"


def test_never_leaves_its_waters_9_62():
    state = start([gunboat("g", "0305"), rebel("r", "0909")])
    assert refused(state, MoveUnit("g", ("0305", "0405"))).case == "9.62"  # a clear hex


def test_land_units_still_may_not_enter_river_hexes_6_27():
    state = start([union("i", "0405"), rebel("r", "0909")])
    assert refused(state, MoveUnit("i", ("0405", "0305"))).case == "6.27"
    assert "0305" not in choices(state).moves["i"]


def test_no_zone_of_control_either_way_9_64():
    # 9.64: the rebel beside the river neither stops the gunboat nor is held by it
    state = start([gunboat("g", "0303"), rebel("r", "0405")])
    assert "0307" in choices(state).moves["g"]  # through 0304-0306, all beside 0405
    state, _ = execute(state, MoveUnit("g", ("0303", "0304", "0305", "0306", "0307")))
    assert enemy_controlled(state, "confederate") == set()  # the gunboat controls nothing
    state, _ = execute(to_phase(state, "confederate", "movement"), MoveUnit("r", ("0405", "0505", "0605")))
    assert state.positions["r"] == "0605"


def test_two_gunboats_stack_three_may_not_end_a_phase_together_9_63():
    state = start([gunboat("a", "0305"), gunboat("b", "0306"), gunboat("c", "0307"), rebel("r", "0909")])
    state, _ = execute(state, MoveUnit("b", ("0306", "0305")))
    assert choices(state).may_end_phase  # 9.63: two gunboats in 0305
    state, _ = execute(state, MoveUnit("c", ("0307", "0306", "0305")))
    assert refused(state, EndPhase()).case == "6.32"  # a third over the limit


def test_bombards_at_six_hexes_strength_unchanged_by_range_9_65():
    # 9.65: range six (0305 to 0905 is 6, to 1005 is 7); no 9.19 reduction at three or more hexes
    state = to_phase(start([gunboat("g", "0305", strength=3), rebel("r", "0905", strength=1), rebel("far", "1005")]))
    bombard = {h for o in attack_options(state) for h in o.bombard}
    assert "0305" in bombard
    assert refused(state, DeclareAttack(("g",), ("1005",))).case == "9.11"  # seven hexes: out of range
    state, _ = declare(state, ["g"], ["0905"])
    head = state.pending[0]
    assert head.bombarding == ("g",) and head.attack == 3  # not 2 (a battery's -1/3 at range 3+)


def test_bombards_next_to_its_target_without_the_adjacent_half_9_65_9_64():
    # 9.65: no +1/2 for an adjacent attack; 9.64: in no enemy zone, so even at range 1 it bombards
    state = to_phase(start([gunboat("g", "0305", strength=4), rebel("r", "0405", strength=2)]))
    state, _ = declare(state, ["g"], ["0405"])
    head = state.pending[0]
    assert head.bombarding == ("g",) and head.attackers == () and head.attack == 4


def test_line_of_sight_as_artillery_9_65_9_31():
    state = to_phase(start([gunboat("g", "0305"), rebel("r", "0705")], terrain={"0505": "forest"}))
    assert refused(state, DeclareAttack(("g",), ("0705",))).case == "9.31"


def test_never_attacked_9_66():
    # 9.66: a hex of gunboats only is no target; the rebel beside it owes no attack and binds nothing
    state = to_phase(start([gunboat("g", "0305"), rebel("r", "0405")]), "confederate", "combat")
    assert refused(state, DeclareAttack(("r",), ("0305",))).case == "9.66"
    assert attack_options(state) == []
    assert choices(state).may_end_phase


def test_not_a_defender_beside_land_units_9_66():
    # 9.66 at the extra hex: a gunboat sharing 0205 with infantry adds no strength to its defence
    units = [gunboat("g", EXTRA, strength=5), union("i", EXTRA, strength=2), rebel("a", "0203", type_="artillery", strength=2)]
    state = to_phase(start(units), "confederate", "combat")
    state, _ = declare(state, ["a"], [EXTRA])  # a bombardment at two hexes
    head = state.pending[0]
    assert head.defence == 2 and "g" not in head.defending


def test_a_gunboat_reinforcement_enters_at_its_named_hex_9_61():
    # 9.61: received as a reinforcement (Shiloh: Lexington and Tyler on 1701, Game-Turn Five)
    state = start([gunboat("g", None, arrives=1, entry=[EXTRA]), rebel("r", "0909")])
    dests = choices(state).reinforcements["g"]
    assert set(dests) == {EXTRA, *RIVER}
    state, _ = execute(state, EnterReinforcement("g", (EXTRA, "0306", "0307", "0308", "0309", "0310")))
    assert state.positions["g"] == "0310"


def test_the_classic_rule_set_refuses_gunboats_9_6():
    sc = scenario([gunboat("lexington", "0305", designation="Lexington"), rebel("r", "0909")], rulesets=("classic",))
    with pytest.raises(ValueError, match="unit lexington \\(Lexington\\) is a gunboat; the classic rule set has no gunboats"):
        Game(sc, get_ruleset("classic"))


def test_self_play_copes_with_gunboats_9_6():
    units = [
        gunboat("g1", "0305", strength=3),
        gunboat("g2", None, arrives=2, entry=[EXTRA]),
        union("i", "0605", strength=5),
        rebel("r1", "0808", strength=4),
        rebel("r2", "0505", strength=3),
    ]
    state = start(units, turns=4)
    final, events = play_game(state, random.Random(7), max_commands=3000)
    assert final.game_over
    waters = set(RIVER) | {EXTRA}
    assert all(final.positions[g] in waters for g in ("g1", "g2") if g in final.positions)
    moved = {e.unit for e in events if type(e).__name__ in ("UnitMoved", "ReinforcementEntered")}
    assert {"g1", "g2"} <= moved
    fired = {u for e in events if type(e).__name__ == "CombatResolved" for u in e.bombarding}
    assert {"g1", "g2"} <= fired  # 9.65: both bombarded
    assert "g1" not in final.eliminated and "g2" not in final.eliminated  # 9.66


def test_decide_and_choices_agree_for_a_gunboat_9_62():
    state = start([gunboat("g", "0305"), rebel("r", "0909")])
    for dest, d in choices(state).moves["g"].items():
        events = decide(state, MoveUnit("g", d.path))
        assert events[-1].path[-1] == dest
