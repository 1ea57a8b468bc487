"""The revised line of sight with elevation (003: 9.31-9.37; rules/revised/sight.py), on small maps with
levels and ridges, through the revised rule set's procedure ``line_of_sight`` (rules/queries/artillery.py).

The lines used (even columns half a hex lower): 0302 -> 0305 crosses 0303 and 0304 (the firer's hexsides:
0302|0303; the target's: 0304|0305); 0106 -> 0306 runs along hexside 0205|0206 (9.32); 0202 -> 0605
crosses 0303, 0403, 0404, 0505 and passes the corner of 0303, 0403 and 0304.

Cases cited by docs/RULES_COVERAGE.md: 9.3, 9.31, 9.32, 9.33, 9.34, 9.35, 9.36, 9.37."""

from __future__ import annotations

import msgspec
import pytest

from rules.core.commands import DeclareAttack
from rules.core.game import Game
from rules.core.hexes import Grid
from rules.queries import artillery
from rules.reducer import new_game
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import refused, to_phase
from tests.rules.rulesmaps import board, rebel, scenario, sides, union


def game(terrain=None, levels=None, ridges=(), units=(), ruleset="revised") -> Game:
    sc = scenario(
        list(units), hexes=board(terrain=terrain or {}), hexsides=sides({r: {"ridge"} for r in ridges})
    )
    sc = msgspec.structs.replace(sc, map=msgspec.structs.replace(sc.map, levels=dict(levels or {})))
    return Game(sc, get_ruleset(ruleset))


def sees(firer, target, **kw) -> bool:
    return artillery.line_of_sight(game(**kw), firer, target)


def test_straight_line_from_hex_to_hex_9_31():
    assert sees("0302", "0305")  # clear level 1 between
    assert not sees("0302", "0305", terrain={"0304": "forest"})  # a blocking hex between


@pytest.mark.parametrize("kind", ["forest", "forest_rough", "town"])
def test_forest_and_town_block_at_the_same_level_9_33(kind):
    assert not sees("0302", "0305", terrain={"0303": kind})
    # "on the same or a higher Elevation as either": the firer on level 2 and the target on level 1
    assert not sees("0302", "0305", terrain={"0303": kind}, levels={"0302": 2})


def test_rough_blocks_only_when_both_ends_are_lower_9_33_9_35():
    assert not sees("0302", "0305", terrain={"0303": "rough"})  # level 1 to level 1: rough is higher
    assert sees("0302", "0305", terrain={"0303": "rough", "0305": "rough"})  # the target is not lower
    assert sees("0302", "0305", terrain={"0303": "rough", "0302": "rough", "0305": "rough"})
    assert sees("0302", "0305", terrain={"0303": "rough"}, levels={"0302": 2})


def test_both_elevated_ignore_lower_blocking_terrain_9_34():
    # forest and town at level 1 between two level-2 (or rough) hexes do not block
    assert sees("0302", "0305", terrain={"0303": "forest", "0304": "town"}, levels={"0302": 2, "0305": 2})
    assert sees("0302", "0305", terrain={"0302": "rough", "0303": "forest", "0305": "forest_rough"})
    # the same forest on level 2 does (same Elevation, 9.33)
    assert not sees("0302", "0305", terrain={"0303": "forest"}, levels={"0302": 2, "0305": 2, "0303": 2})
    # forest/woods-rough is Elevated: it blocks between level-2 hexes, not between level-3 ones
    assert not sees("0302", "0305", terrain={"0303": "forest_rough"}, levels={"0302": 2, "0305": 2})
    assert sees("0302", "0305", terrain={"0303": "forest_rough"}, levels={"0302": 3, "0305": 3})
    # only one end Elevated: lower forest still blocks, being at the other end's level (9.33 "either")
    assert not sees("0302", "0305", terrain={"0303": "forest"}, levels={"0302": 3})


def test_higher_ground_between_blocks_9_35():
    assert not sees("0302", "0305", levels={"0304": 2})  # non-Elevated to non-Elevated, Elevated between
    assert sees("0302", "0305", levels={"0302": 2, "0304": 2, "0305": 2})  # Elevated to Elevated, same level
    assert not sees("0302", "0305", levels={"0302": 2, "0304": 3, "0305": 2})  # "even higher (clear level 3)"
    assert not sees("0302", "0305", terrain={"0302": "rough", "0305": "rough"}, levels={"0303": 3})
    # Ruling: bare ground blocks only when higher than both ends
    assert sees("0302", "0305", levels={"0302": 3, "0304": 3})


def test_end_hexes_and_their_ridge_hexsides_never_block_9_36():
    assert sees("0302", "0305", terrain={"0302": "forest", "0305": "town"})
    assert sees("0302", "0305", levels={"0302": 3, "0305": 1}, terrain={"0305": "forest"})
    assert sees("0302", "0305", ridges=[("0302", "0303"), ("0304", "0305")])  # beside the firer, the target
    assert not sees("0302", "0305", ridges=[("0303", "0304")])  # beside neither: blocks (10.1)


def test_congruent_to_a_hexside_blocked_only_on_both_sides_9_32():
    assert Grid("even").sight_line("0106", "0306") == ([], [("0205", "0206")])
    assert sees("0106", "0306", terrain={"0205": "forest"})
    assert not sees("0106", "0306", terrain={"0205": "forest", "0206": "town"})
    assert sees("0106", "0306", levels={"0205": 2})  # one side higher ground only (9.35)
    assert not sees("0106", "0306", levels={"0205": 2, "0206": 3})


def test_line_along_a_hexside_and_ridges_ruling_9_32_9_36():
    # 0202 -> 0507 runs along 0203|0303, 0305|0404 and 0406|0506 and crosses 0304 and 0405
    line = Grid("even").sight_line("0202", "0507")
    assert line == (["0304", "0405"], [("0203", "0303"), ("0305", "0404"), ("0406", "0506")])
    assert sees("0202", "0507", ridges=[("0305", "0405")])  # the way through 0404 is open
    assert sees("0202", "0507", ridges=[("0305", "0404")])  # a ridge along the line is not crossed
    assert not sees("0202", "0507", ridges=[("0305", "0405"), ("0404", "0405")])  # both ways crossed
    assert not sees("0202", "0507", ridges=[("0304", "0305")], terrain={"0404": "forest"})


def test_line_through_a_corner_ruling_9_32():
    line = Grid("even").sight_line("0202", "0605")
    assert line == (["0303", "0403", "0404", "0505"], [])
    assert sees("0202", "0605", terrain={"0304": "forest"})  # touched at a corner only
    assert sees("0202", "0605", ridges=[("0303", "0403")])  # round by 0304 is open
    assert not sees("0202", "0605", ridges=[("0303", "0403"), ("0303", "0304")])
    assert not sees("0202", "0605", ridges=[("0303", "0403")], terrain={"0304": "forest"})
    assert not sees("0202", "0605", ridges=[("0403", "0404")])  # crossed in the middle of the hexside


def test_same_as_1975_without_levels_rough_or_ridges_9_3():
    # forest and town only: the revised line of sight is the 1975 one (8.31-8.34)
    terrain = {
        "0303": "forest",
        "0404": "town",
        "0503": "forest",
        "0205": "forest",
        "0206": "town",
        "0604": "forest_rough",
    }
    revised, classic = game(terrain=terrain), game(terrain=terrain, ruleset="classic")
    hexes = sorted(revised.terrain)
    for a in hexes[::9]:
        for b in hexes:
            if a != b:
                assert artillery.line_of_sight(revised, a, b) == artillery.line_of_sight(classic, a, b), (
                    a,
                    b,
                )


def test_bombardment_needs_the_line_and_units_never_block_9_31_9_37():
    units = [
        union("g", "0302", type_="artillery", strength=4),
        union("i", "0303"),
        rebel("r", "0305", strength=2),
    ]
    sc = scenario(units, hexes=board(), hexsides={})
    s = to_phase(
        new_game(
            Game(
                msgspec.structs.replace(sc, map=msgspec.structs.replace(sc.map, levels={"0304": 2})),
                get_ruleset("revised"),
            )
        )
    )
    e = refused(s, DeclareAttack(("g",), ("0305",)))
    assert "0304" in str(e) and "level 2" in str(e)  # 9.35: the hill between blocks
    s = to_phase(new_game(Game(sc, get_ruleset("revised"))))
    assert artillery.bombard_problem(s.game, "0302", "0305") is None  # the friendly unit in 0303 (9.37)
