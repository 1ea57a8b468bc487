"""A battle's exclusive rules decoded into typed components (rules/core/components/battle.py, schema.py):
every block of ``[exclusive]`` becomes its component, a block of ``[exclusive_overrides.<rule set>]``
is merged key by key over it, and a wrong value is refused with the block, the key and the reason."""

import pytest
from rulesmaps import rebel, scenario, union

from rules.core.components.battle import Battle, decode, merged
from rules.core.components.movement_quota import MovementQuota
from rules.core.components.schema import BattleError, references
from rules.core.components.victory import Level
from rules.core.game import Game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load


def error(exclusive: dict) -> tuple[str, str]:
    with pytest.raises(BattleError) as e:
        decode(exclusive)
    return str(e.value).split(": ", 1)[0], e.value.reason


def test_every_block_of_chattanooga_is_a_component():
    s = load("chattanooga")
    classic = decode(s.exclusive)
    assert classic.movement_quota == MovementQuota(  # 17.11-17.14
        side="union", units=11, bonus_units=7, bonus_hex="1025", reinforcements_exempt_before_turn=5
    )
    assert classic.immobile_artillery.except_ == ["us-sherman-art"]  # 16.13
    assert classic.reinforcements.lost_if_not_entered  # 15.12
    assert classic.victory.levels[3] == Level(level="Draw", min=-5, max=5)  # 20.2
    assert {n for n in Battle.__struct_fields__ if getattr(classic, n) is not None} >= set(s.exclusive)


def test_overrides_are_merged_key_by_key_under_their_rule_set_21_2():
    s = load("chattanooga")
    revised = Game(s, get_ruleset("revised")).battle
    assert not revised.reinforcements.lost_if_not_entered  # revised 17.1, 5.0: none lost
    assert revised.victory.levels[3] == Level(level="Draw", min=-10, max=10)  # 21.2
    assert revised.victory.first_control == decode(s.exclusive).victory.first_control  # the rest kept
    assert merged({"a": {"x": 1, "y": 2}}, {"a": {"y": 3}, "b": {"z": 4}}) == {
        "a": {"x": 1, "y": 3},
        "b": {"z": 4},
    }


def test_absent_components_keep_the_standard_rules():
    battle = decode({})
    assert battle.movement_quota is None and battle.night_movement is None and battle.ferries is None
    assert not battle.reinforcements.lost_if_not_entered and battle.artillery.case_9_18
    assert battle.movement_restrictions() == () and battle.tracked_hexes() == frozenset()


@pytest.mark.parametrize(
    ("exclusive", "where", "reason"),
    [
        (
            {"movement_qouta": {}},
            "exclusive.movement_qouta",
            "unknown key 'movement_qouta' (known: immobile_artillery,",
        ),
        (
            {"movement_quota": {"side": "union", "units": "11"}},
            "exclusive.movement_quota.units",
            "expected a whole number, got a string",
        ),
        (
            {"movement_quota": {"side": "union"}},
            "exclusive.movement_quota",
            "missing the required key 'units'",
        ),
        (
            {"immobile_artillery": {"side": "yankee"}},
            "exclusive.immobile_artillery.side",
            "'yankee' is not a side (confederate, union)",
        ),
        (
            {"ferries": {"hexes": ["13O5"]}},
            "exclusive.ferries.hexes #1",
            "expected a string that is a hex number, four digits XXYY",
        ),
        ({"ferries": ["1305"]}, "exclusive.ferries", "expected a table, got a list"),
        (
            {"victory": {"levels": [{"level": "Draw"}, {"level": "Win", "mn": 3}]}},
            "exclusive.victory.levels #2.mn",
            "unknown key 'mn' (known: level, min, max, at_least, above, at_most, below, occupied, without_exits)",
        ),
        (
            {"victory": {"per_enemy_unit_eliminated": {"union": -2}}},
            "exclusive.victory.per_enemy_unit_eliminated.union",
            "expected a whole number >= 0",
        ),
    ],
)
def test_a_wrong_value_is_refused_with_its_block_key_and_reason(exclusive, where, reason):
    found = error(exclusive)
    assert found[0] == where and found[1].startswith(reason)


def test_a_game_refuses_a_battle_it_cannot_decode():
    bad = scenario(
        [union("u", "0101"), rebel("c", "0808")], exclusive={"night_movement": {"immobile_sides": "union"}}
    )
    with pytest.raises(
        BattleError, match=r"exclusive.night_movement.immobile_sides: expected a list, got a string"
    ):
        Game(bad, get_ruleset("classic"))


def test_references_name_every_hex_unit_and_area_for_the_validator():
    found = set(references(Battle, load("chattanooga").exclusive))
    assert ("unit", ("immobile_artillery", "except", 0), "us-sherman-art") in found
    assert ("hex", ("movement_quota", "bonus_hex"), "1025") in found
    assert ("area", ("victory", "town_in_zoc", "area"), "chattanooga_town") in found
    assert ("hex", ("victory", "last_control", "hexes", 3), "2419") in found
    # refused values are still looked at (the validator reports both)
    assert list(references(Battle, {"immobile_artillery": {"side": "yankee", "except": ["nobody"]}})) == [
        ("unit", ("immobile_artillery", "except", 0), "nobody")
    ]


def test_tracked_hexes_are_the_bonus_hex_and_the_victory_hexes_17_15():
    game = Game(load("chattanooga"), get_ruleset("classic"))
    assert game.control_hexes == {"1025", "1514", "1417", "2207", "2311", "2416", "2419"}
    assert decode({"control_hexes": {"hexes": ["1913"]}}).tracked_hexes() == {"1913"}
