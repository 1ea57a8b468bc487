"""Cemetery Hill's victory conditions (003 20.0-20.5), on small maps with the battle's parameters and on
the Cemetery Hill scenario itself.

The small map is 8 x 8 (even columns lower): a road 0505-0605-0705-0805 leads off the east edge (the
Union's friendly edge, 20.2) at 0805, and a road 0104-0204 off the west edge (the Confederate's) at 0104.
"""

import pytest
from rulesmaps import rebel, scenario, sides, union

from rules.core.commands import EndPhase
from rules.core.components.battle import BattleError, decode
from rules.core.components.victory import Level, VictoryPoints
from rules.core.events import GameEnded, VictoryDetermined
from rules.core.game import Game
from rules.procedures.victory import end_points, recount
from rules.queries.communications import cut_off
from rules.queries.edges import roads_off_edge
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

CEMETERY_HILL = load("cemetery_hill")
BATTLE = decode(CEMETERY_HILL.exclusive)
ROADS = sides(
    {("0505", "0605"): {"road"}, ("0605", "0705"): {"road"}, ("0705", "0805"): {"road"}, ("0104", "0204"): {"road"}}
)
CASES = {"revised": {"victory": "20.1", "victory.levels": "20.5", "line_of_communications": "20.4"}}
LEVELS = {
    (200, 100): "Union Decisive",
    (10, 0): "Union Decisive",  # any points to none
    (199, 100): "Union Substantive",
    (150, 100): "Union Substantive",
    (149, 100): "Union Marginal",
    (101, 100): "Union Marginal",
    (100, 100): "Confederate Marginal",  # "1:1 or less": a tie is the Confederate's
    (0, 0): "Confederate Marginal",  # Ruling: no points on either side is 1:1
    (67, 100): "Confederate Marginal",
    (2, 3): "Confederate Substantive",  # 1:1.5 exactly
    (51, 100): "Confederate Substantive",
    (50, 100): "Confederate Decisive",  # 1:2 exactly
    (0, 10): "Confederate Decisive",
}


def start(units):
    exclusive = {
        "victory": dict(CEMETERY_HILL.exclusive["victory"]),
        "line_of_communications": dict(CEMETERY_HILL.exclusive["line_of_communications"]),
    }
    sc = scenario(units, hexsides=ROADS, exclusive=exclusive, cases=CASES)
    return new_game(Game(sc, get_ruleset("revised")))


def line(state):
    return state.game.battle.line_of_communications


def test_levels_of_victory_by_the_ratio_of_union_to_confederate_points():
    # 20.5, every bound as printed: "2:1 or greater", "at least 1.5:1, but less than 2:1", "greater than
    # 1:1, but less than 1.5:1", "1:1 or less, but greater than 1:1.5", "1:1.5 or less, but greater than
    # 1:2", "1:2 or less"
    points = BATTLE.victory
    for (u, c), level in LEVELS.items():
        assert points.level_for({"union": u, "confederate": c}) == level, (u, c)
    # exact, never rounded: 3:2 is 1.5:1, 1:2 below 1:1.5
    assert points.level_for({"union": 3, "confederate": 2}) == "Union Substantive"
    assert points.level_for({"union": 1, "confederate": 2}) == "Confederate Decisive"
    # the differential levels (20.2) still serve the battles that give them
    by_difference = VictoryPoints(levels=[Level(level="Draw", min=-5, max=5)])
    assert by_difference.level_for({"union": 10, "confederate": 8}) == "Draw"


def test_a_ratio_must_be_written_as_the_book_prints_it():
    # 20.5: "2:1", "1:1.5"
    with pytest.raises(BattleError):
        decode({"victory": {"ratio_of": ["union", "confederate"], "levels": [{"level": "x", "at_least": "2 to 1"}]}})


def test_points_per_enemy_strength_point_eliminated():
    # 20.11 two to the Confederate per Union Strength Point; 20.12 three to the Union per Confederate one
    points = BATTLE.victory
    assert points.for_elimination("confederate", 9) == 18
    assert points.for_elimination("union", 9) == 27


def test_the_friendly_map_edges_and_the_roads_leading_off_them():
    # 20.2 east for the Union, west for the Confederate; 20.4 the roads leading off them (0127, the
    # south-west corner, is on the west edge)
    lines = BATTLE.line_of_communications
    assert lines.friendly_edges == {"union": "east", "confederate": "west"}
    assert lines.sides() == ("union", "confederate")
    game = Game(CEMETERY_HILL, get_ruleset("revised"))
    assert roads_off_edge(game, "east") == ["2101", "2106", "2112", "2120"]
    assert roads_off_edge(game, "west") == ["0104", "0114", "0127"]


def test_a_line_of_any_length_to_a_road_leading_off_the_friendly_edge():
    # 20.4: "a series of contiguous hexes of any length ... to a road which in turn leads off a Friendly
    # map edge": 0101 is twelve hexes from 0805 and more from any road; the Confederate at 0808 reaches
    # the west edge's road
    state = start([union("u", "0101"), rebel("c", "0808")])
    assert cut_off(state, line(state)) == []


def wall(*extra):
    # Confederate units at 0602, 0605, 0608: their zones of control fill column 06 (and 05, 07 beside
    # them), so no Union line crosses it through empty hexes
    return [rebel("w1", "0602"), rebel("w2", "0605"), rebel("w3", "0608"), *extra]


def test_enemy_units_and_enemy_controlled_hexes_block_the_line():
    # 20.4: "The entire path of hexes, including the road hexes, must be free of Enemy units and
    # Enemy-controlled hexes"
    state = start([union("u", "0305", strength=7), *wall()])
    assert cut_off(state, line(state)) == ["u"]  # and the Confederates trace west, across no Union zone


def test_a_hex_held_by_a_friendly_unit_passes_whatever_the_enemy_zones():
    # 20.4 "Exception: A Line of Communication may be traced through any hex occupied by Friendly units,
    # regardless of Enemy Zones of Control": 0604, in the zones of 0602 and 0605, held by a Union unit
    state = start([union("u", "0305"), union("v", "0604"), *wall()])
    assert cut_off(state, line(state)) == []
    # the Union unit in an enemy zone traces from its own hex (it holds a friendly unit)
    state = start([union("v", "0604"), *wall()])
    assert cut_off(state, line(state)) == []


def test_one_point_for_each_enemy_strength_point_without_a_line():
    # 20.11: one Victory Point to the Confederate "for each remaining Union Combat Strength Point
    # without a Line of Communication at the end of the game"; 20.12 the same to the Union
    state = start([union("u", "0305", strength=7), *wall()])
    awarded = [(a.side, a.points, a.subject, a.case) for a in end_points(state) if a.kind == "cut_off"]
    assert awarded == [("confederate", 7, "u", "20.4")]
    # a Confederate unit behind a Union wall on the west: the Union scores its 5
    west = [union("x1", "0302"), union("x2", "0305"), union("x3", "0308")]
    state = start([rebel("c", "0605", strength=5), *west])
    awarded = [(a.side, a.points, a.subject) for a in end_points(state) if a.kind == "cut_off"]
    assert awarded == [("union", 5, "c")]


def test_cemetery_hill_ends_after_fifteen_game_turns_with_a_level_of_victory():
    # 16.4 fifteen Game-Turns; 20.0 "At the end of the game, the number of Victory Points is totalled";
    # 20.5 the level. Nobody moves: nothing is eliminated, every unit (and every reinforcement, from its
    # entry hexes) traces its line: 0:0, read as 1:1, a Confederate Marginal victory
    start_state = new_game(Game(CEMETERY_HILL, get_ruleset("revised")))
    assert cut_off(start_state, BATTLE.line_of_communications) == []
    state, log = start_state, []
    while not state.game_over:
        state, events = execute(state, EndPhase())
        log.extend(events)
    assert state.turn == 15
    determined = [e for e in log if isinstance(e, VictoryDetermined)][-1]
    assert (determined.union, determined.confederate) == (0, 0)
    assert log[-1] == GameEnded(reason="last_turn", result="Confederate Marginal")
    assert recount(start_state, log) == state.vp


def test_units_are_not_halved_attacking_into_town_hexes():
    # 19.0, 19.1 "Units are not halved attacking into town hexes": on the battle's map, an attack on each of
    # Gettysburg's town hexes from each clear hex beside it (across no stream) halves no attacker; the
    # town gives the defender the standard revised chart's one column shift left (10.1)
    from rules.revised import combat as rc
    from rules.revised.combat_procedures import _hexside

    game = Game(CEMETERY_HILL, get_ruleset("revised"))
    towns = CEMETERY_HILL.map.areas["gettysburg"]
    checked = 0
    for d in towns:
        assert game.terrain[d] == "town"
        for a in game.neighbours[d]:
            if game.terrain[a] != "clear" or _hexside(game)(a, d)[0]:
                continue
            for artillery in (False, True):
                options = rc.terrain_options([rc.Attacker("a", a, True, artillery)], [d], game.terrain, _hexside(game))
                assert options == [rc.TerrainOption("terrain", frozenset(), -1)], (a, d)
            checked += 1
    assert checked == 9  # the clear hexes beside the town across no hexside feature
    assert "town" not in rc.HALVING_HEX


def test_the_line_is_given_in_one_form():
    # 20.2, 20.4: friendly_edges names each side's edge, so no side beside it; nor exits with it
    with pytest.raises(BattleError):
        decode({"line_of_communications": {"side": "union", "friendly_edges": {"union": "east"}}})
    with pytest.raises(BattleError):
        decode({"line_of_communications": {"exits": ["0101"], "friendly_edges": {"union": "east"}}})
    with pytest.raises(BattleError):
        decode({"line_of_communications": {"exits": ["0101"]}})  # 21.32 needs the side that traces
