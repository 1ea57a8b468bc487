"""The 1975 SPI Blue & Gray Standard Rules (``../shared/rulebooks/000_4a0d9a038d4553b1.txt``) and the
case numbers its Chattanooga exclusive rules carry in that book."""

from __future__ import annotations

from rules import terrain
from rules.rulesets import Ruleset

# 9.0 Terrain Effects Chart: movement points to enter a hex (None: may not enter).
TERRAIN_COST: dict[str, int | None] = {
    terrain.CLEAR: 1,
    terrain.FOREST: 3,
    terrain.ROUGH: 3,
    terrain.FOREST_ROUGH: 6,
    terrain.TOWN: 1,
    terrain.RIVER: None,  # 5.24: units may never enter river hexes
    terrain.FERRY: 3,  # 9.0 "3 MP (see 5.24)"; Chattanooga 19.11
}

CASES: dict[str, str] = {
    # Standard rules
    "sequence": "4.1",
    "movement": "5.0",
    "out_of_sequence": "5.11",
    "enemy_occupied": "5.12",
    "leave_enemy_zoc": "5.13",
    "allowance": "5.15",
    "consecutive": "5.16",
    "moved_once": "5.17",
    "terrain": "5.21",
    "road": "5.22",
    "trail": "5.23",
    "river": "5.24",
    "creek": "5.25",
    "stacking": "5.32",
    "zone_of_control": "6.0",
    "zoc_exit": "6.3",
    "zoc_extent": "6.6",
    "combat": "7.0",
    "night_combat": "10.1",
    "night_zoc": "10.2",
    # Exclusive rules of Chattanooga as this book numbers them (a scenario's own `cases` win).
    "reinforcements": "15.1",
    "reinforcements.when": "15.11",
    "reinforcements.enemy_zoc": "15.12",
    "reinforcements.lost": "15.12",
    "reinforcements.cost": "15.13",
    "reinforcements.stacking": "15.15",
    "immobile_artillery": "16.11",
    "movement_quota": "17.11",
    "movement_quota.bonus": "17.14",
    "control": "17.15",
    "exclusive_night_movement": "17.2",
    "ferries": "19.11",
    "ferries.end": "19.12",
}

CLASSIC = Ruleset(
    name="classic",
    movement_allowance=6,  # 2.4, 5.0
    stacking_limit=2,  # 5.32
    terrain_cost=TERRAIN_COST,
    road_cost=1,  # 5.22
    trail_cost=2,  # 5.23
    ford_extra=1,  # 5.25
    day_phases=("movement", "combat"),  # 4.1
    night_phases=("movement",),  # 10.0, 10.1: no Combat Phase at night
    cases=CASES,
)
