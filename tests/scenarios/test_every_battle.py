"""What every shipped battle's set-up must satisfy, checked once for all of them (each battle's own
file checks what its text says of it): the validator finds nothing; every set-up hex may be occupied;
no more units in a hex than the rule set stacks; no unit starts beside an enemy unit; reinforcements
enter at map-edge hexes they may enter."""

import pytest

from rules.core import terrain
from rules.rulesets import get as get_ruleset
from scenarios.loader import folder_of, list_scenarios, load
from scenarios.source import Files
from scenarios.validate import check

BATTLES = [sid for sid, _ in list_scenarios()]

# 5.24 a river hex, revised 6.27 a lake, 10.1 a pond: never entered; 6.28 a pontoon hex and 5.24 a
# river ferry hex are crossed, never ended in (by land units; gunboats sail rivers, 9.6)
NO_LAND_UNIT_STAYS = frozenset({terrain.RIVER, terrain.LAKE, terrain.POND, terrain.FERRY, terrain.PONTOON})


def test_every_battle_is_listed():
    assert {"chattanooga", "shiloh", "antietam", "cemetery_hill", "chickamauga", "fredericksburg"} <= set(BATTLES)


@pytest.mark.parametrize("battle", BATTLES)
def test_the_validator_finds_nothing(battle):
    assert [str(p) for p in check(Files(folder_of(battle)))] == []


@pytest.mark.parametrize("battle", BATTLES)
def test_every_set_up_hex_may_be_occupied_and_the_stacks_are_within_the_limit(battle):
    # 5.24, 6.27, 6.28, 10.1 (what may not be occupied); 5.32 / 6.32 the stacking limit of each rule set
    scenario = load(battle)
    placed = [u for u in scenario.units if u.hex and u.type != "gunboat"]
    assert placed, "a battle starts with units on the map"
    for u in placed:
        assert scenario.map.hexes[u.hex] not in NO_LAND_UNIT_STAYS, (u.id, u.hex, scenario.map.hexes[u.hex])
    limit = min(get_ruleset(name).stacking_limit for name in scenario.rulesets)
    for h in {u.hex for u in placed}:
        assert sum(u.hex == h for u in placed) <= limit, h


@pytest.mark.parametrize("battle", BATTLES)
def test_no_unit_starts_beside_an_enemy(battle):
    # no unit may start in an enemy Zone of Control (each battle's deployment charts keep them apart)
    scenario = load(battle)
    grid = scenario.map.grid
    placed = [u for u in scenario.units if u.hex]
    beside = [(a.id, b.id) for a in placed for b in placed if a.side != b.side and grid.adjacent(a.hex, b.hex)]
    assert beside == []


@pytest.mark.parametrize("battle", BATTLES)
def test_reinforcements_enter_at_map_edge_hexes_they_may_enter(battle):
    # 15.0 (classic 5.4): reinforcements enter from off the map, at a map-edge hex; a land unit's entry
    # hex is not one it may not enter. (A battle may name interior entry hexes: the validator allows
    # those the scenario lists, and this checks the rest.)
    scenario = load(battle)
    hexes = scenario.map.hexes
    grid = scenario.map.grid
    interior = set((scenario.exclusive.get("reinforcements") or {}).get("interior_entry", []))
    arriving = [u for u in scenario.units if u.hex is None]
    for u in arriving:
        assert u.entry, u.id
        for h in u.entry:
            assert h in hexes, (u.id, h)
            if h not in interior:
                assert any(n not in hexes for n in grid.neighbours(h)), (u.id, h, "not on the map edge")
            if u.type != "gunboat":
                assert hexes[h] not in (terrain.RIVER, terrain.LAKE, terrain.POND), (u.id, h)
