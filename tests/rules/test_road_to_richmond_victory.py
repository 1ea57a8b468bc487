"""Road to Richmond's Victory Conditions (003 22.0-22.22) and exits (19.0), under the revised rules: on a
small map whose exit hexes are 0101 (for 0117) and 0105 (for 1528), joined by a road 0101-0102-...-0105
(22.21), with a road from 0105 east to 0805 (the Train's road); and on the battle's own map."""

from __future__ import annotations

from rules.core.commands import EndPhase, ExitMap
from rules.core.events import GameEnded, VictoryDetermined
from rules.core.game import Game
from rules.procedures.exits import exit_points, route_line
from rules.procedures.movement import reachable
from rules.procedures.victory import end_points, recount
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.rulesmaps import rebel, scenario, sides, union

WEST = "0101"  # plays 0117
SOUTH = "0105"  # plays 1528
ROADS = sides(
    {**{(f"010{r}", f"010{r + 1}"): {"road"} for r in range(1, 5)}, **{(f"0{c}05", f"0{c + 1}05"): {"road"} for c in range(1, 8)}}
)
RICHMOND = load("road_to_richmond")
AWARDS = [
    {**a, "hexes": [{"0117": WEST, "1528": SOUTH}[h] for h in a["hexes"]], **({"line": [WEST, SOUTH]} if "line" in a else {}),
     **({"after_exit": {"unit": "us-train", "hex": SOUTH}} if "after_exit" in a else {})}
    for a in RICHMOND.exclusive["exits"]["awards"]
]
VICTORY = {**RICHMOND.exclusive["victory"], "occupied_each_turn": [{"hexes": ["0404", "0406"], "points_each": 1, "after_turn": 1}]}
CASES = {"revised": {"exits": "19.12", "exits.cost": "19.11", "exits.points": "22.12", "victory": "22.1", "victory.occupied": "22.13"}}


def start(units, turns=3, first_player="confederate", **extra):
    exclusive = {"exits": {"hexes": [WEST, SOUTH], "cost": 1, "awards": AWARDS}, "victory": VICTORY, "trains": {"units": ["us-train"]}, **extra}
    sc = scenario(units, hexsides=ROADS, exclusive=exclusive, cases=CASES, first_player=first_player, turns=turns)
    return new_game(Game(sc, get_ruleset("revised")))


def train(hex_="0305", **kw):
    return union("us-train", hex_, strength=1, movement_allowance=6, **kw)


def to_union_movement(state):
    while not (state.phasing == "union" and state.phase == "movement"):
        state, _ = execute(state, EndPhase())
    return state


def awards(state):
    return sorted((a.side, a.subject, a.points) for a in exit_points(state))


def test_exit_points_of_22_12_i_and_iii():
    # i) one Victory Point for each Union unit exited from 1528 (whatever its strength); iii) five for
    # the Train exited from 1528 (and not one more under i)); a Union unit exited at 0117 scores nothing
    # without the Train out and a line (ii)
    state = to_union_movement(start([train("0305"), union("a", "0104", strength=7), union("b", "0102", strength=3), rebel("far", "0808")]))
    state, _ = execute(state, ExitMap("us-train", ("0305", "0205", "0105")))
    state, _ = execute(state, ExitMap("a", ("0104", "0105")))
    assert awards(state) == [("union", "a", 1), ("union", "us-train", 5)]
    # ii): with the Train out by 1528 and a line 0117-1528 free of Confederate units, one a Strength Point
    state, _ = execute(state, ExitMap("b", ("0102", "0101")))
    assert awards(state) == [("union", "a", 1), ("union", "b", 3), ("union", "us-train", 5)]


def test_the_line_of_22_21_is_blocked_by_an_enemy_unit_not_by_its_zone_of_control():
    # 22.21: "free of Enemy units at the end of the game ... it can pass through Enemy Zones of Control"
    state = start([train("0808"), union("u", "0606"), rebel("c", "0203")])  # c beside 0102-0104
    assert route_line(state, "union", [WEST, SOUTH])
    state = start([train("0808"), union("u", "0606"), rebel("c", "0103")])  # on the road itself
    assert not route_line(state, "union", [WEST, SOUTH])
    assert route_line(state, "confederate", [WEST, SOUTH])  # its own unit does not block it


def test_confederate_exit_points_depend_on_the_train():
    # iv) two a Strength Point from 1528 if the Train exited by 1528 and a Confederate line exists;
    # v) one a Strength Point if the Train was eliminated or never entered
    state = start([train("0305"), rebel("c", "0102", strength=5), union("far", "0808")], first_player="union")
    state, _ = execute(state, ExitMap("us-train", ("0305", "0205", "0105")))
    while state.phasing != "confederate":
        state, _ = execute(state, EndPhase())
    state, _ = execute(state, ExitMap("c", ("0102", "0103", "0104", "0105")))
    assert ("confederate", "c", 10) in awards(state)
    # the Train never entered (a reinforcement still waiting): v), and 22.12 vi) twenty
    state = start([union("us-train", None, strength=1, arrives=3, entry=["0805"]), rebel("c", "0104", strength=5), union("far", "0808")])
    state, _ = execute(state, ExitMap("c", ("0104", "0105")))
    assert awards(state) == [("confederate", "c", 5)]
    assert ("confederate", "us-train", 20) in {(a.side, a.subject, a.points) for a in end_points(state)}
    # the Train on the map at the end: neither iv) nor v), nor vi)
    state = start([train("0808"), rebel("c", "0104", strength=5), union("far", "0707")])
    state, _ = execute(state, ExitMap("c", ("0104", "0105")))
    assert awards(state) == []
    assert not [a for a in end_points(state) if a.kind == "never_entered"]


def test_ten_points_for_eliminating_the_train():
    # 22.11 ii): ten Victory Points for eliminating the Union Train (instead of its one point)
    from tests.rules.combatmaps import attack, to_phase

    state = to_phase(start([train("0505"), rebel("a", "0404", strength=12), rebel("b", "0405", strength=12), union("far", "0808")]), "confederate")
    state, _ = attack(state, ["a", "b"], ["0505"], die=1)
    assert "us-train" in state.eliminated
    assert state.vp["confederate"] == 10
    # 22.11 i): any other unit scores one a Combat Strength Point (the Siege Train eight, 21.24)
    assert state.game.battle.victory.for_unit("confederate", "far", 4) == 4


def test_occupied_hexes_score_at_the_end_of_each_game_turn_after_the_one_named():
    # 22.13 (here after Game-Turn One, hexes 0404 and 0406): one point a hex a Game-Turn to the Player
    # whose unit physically occupies it, at the end of each Game-Turn; recounted from the log
    state = start([train("0808"), union("u", "0404"), rebel("c", "0406"), rebel("x", "0202")], turns=3)
    begin, log = state, []
    while not state.game_over:
        state, events = execute(state, EndPhase())
        log += events
    occupied = [e for e in log if getattr(e, "kind", None) == "occupied"]
    assert sorted((e.side, e.subject) for e in occupied) == [
        ("confederate", "0406@2"), ("confederate", "0406@3"), ("union", "0404@2"), ("union", "0404@3")
    ]
    result = next(e for e in log if isinstance(e, VictoryDetermined))
    assert (result.union, result.confederate) == (2, 2)
    assert recount(begin, log) == {"union": 2, "confederate": 2}
    assert next(e for e in log if isinstance(e, GameEnded)).result == "Draw"  # 22.0: equal totals


def test_levels_the_greater_total_wins():
    # 22.0: "Victory is awarded to the Player who has amassed the greater number of Victory Points"
    game = Game(RICHMOND, get_ruleset("revised"))
    assert game.battle.victory.level_of(1) == "Union Victory"
    assert game.battle.victory.level_of(0) == "Draw"
    assert game.battle.victory.level_of(-1) == "Confederate Victory"


def test_union_units_cut_off_count_as_destroyed_only_if_the_train_never_came_22_22():
    # 22.22: without the Train on the map, a Union unit more than ten hexes from a road or trail to
    # 1528 or 2426 counts as destroyed (its Strength Points to the Confederate); with it, none does
    line = {"side": "union", "exits": [SOUTH], "path_hexes": 1, "reinforcements_not_entered": False, "along_trails": True, "unless_entered": "us-train"}
    waiting_train = union("us-train", None, strength=1, arrives=3, entry=["0805"])
    state = start([waiting_train, union("near", "0204", strength=4), union("far", "0808", strength=6), rebel("c", "0606")], line_of_communications=line)
    cut = {(a.side, a.subject, a.points) for a in end_points(state) if a.kind == "cut_off"}
    assert cut == {("confederate", "far", 6)}
    state = start([train("0305"), union("near", "0204", strength=4), union("far", "0808", strength=6), rebel("c", "0606")], line_of_communications=line)
    assert not [a for a in end_points(state) if a.kind == "cut_off"]


def test_the_battle_ends_with_a_level():
    # 16.3: twenty Game-Turns, then 22.0's level
    state = new_game(Game(RICHMOND, get_ruleset("revised")))
    begin, log = state, []
    while not state.game_over:
        state, events = execute(state, EndPhase())
        log += events
    result = next(e for e in log if isinstance(e, VictoryDetermined))
    # nobody moved: the Train never entered (vi) 20 to the Confederate; 22.22: every Union unit on the
    # map is within ten hexes of a road to 1528 or 2426, or counts as destroyed
    assert ("confederate", 20) in {(e.side, e.points) for e in log if getattr(e, "kind", None) == "never_entered"}
    assert result.level == ("Union Victory" if result.differential > 0 else "Draw" if result.differential == 0 else "Confederate Victory")
    assert recount(begin, log) == {"union": result.union, "confederate": result.confederate}


def on_the_map(units, first_player="union"):
    """A game on the battle's map with its exclusive rules and only ``units``."""
    units = [*units, union("us-train", None, strength=1, arrives=11, entry=["2426"], movement_allowance=6)]
    sc = scenario(
        units, hexes=RICHMOND.map.hexes, hexsides=RICHMOND.map.hexsides, exclusive=RICHMOND.exclusive,
        cases=RICHMOND.cases, first_player=first_player, turns=20,
    )
    return new_game(Game(sc, get_ruleset("revised")))


def test_exits_at_0117_and_1528_only_for_one_movement_point_19_11_19_12():
    # 19.11: "Either Player may exit his units from the map sheet via hexes 0117 and 1528 at a cost of
    # one Movement Point"; 19.12: "No unit may exit the map sheet except at either of the two hexes"
    from rules.core.events import UnitExited
    from rules.procedures.exits import exit_paths
    from tests.rules.combatmaps import refused

    units = [union("u", "0118"), union("v", "1527"), union("w", "0104"), rebel("c", "2401")]
    state = on_the_map(units)
    assert set(exit_paths(state, "u")) == {"0117"} and set(exit_paths(state, "v")) == {"1528"}
    assert exit_paths(state, "w") == {}  # 0103, a map-edge hex beside it, is no exit
    state2, events = execute(state, ExitMap("u", ("0118", "0117")))
    into = reachable(state, "u").cost["0117"]  # the step into 0117, then one to leave (19.11)
    assert isinstance(events[0], UnitExited) and events[0].cost == into + 1
    assert refused(state, ExitMap("w", ("0104", "0103"))).case == "19.12"
    assert "u" not in state2.positions and "u" not in state2.eliminated


def test_no_retreat_off_the_map_any_number_by_one_hex_never_to_return_19_21_19_22_19_31():
    # 19.21: "No unit may exit from the map sheet (even at hexes 0117 and 1528) in fulfilment of a retreat
    # ... it is eliminated instead"; 19.22: any number exit by the same hex; 19.31: "removed from play and
    # may never return"
    from tests.rules.combatmaps import to_phase

    # a Confederate on the exit 1528 (the south edge) attacked from 1427, 1527 and 1627, its only
    # neighbours on the map: its retreat has no hex open, and it does not leave by the exit
    units = [rebel("d", "1528", strength=2), union("a", "1427", strength=2), union("b", "1527", strength=2), union("e", "1627", strength=2)]
    state = to_phase(on_the_map(units, first_player="union"))
    from rules.procedures.retreat import retreat_options

    assert retreat_options(state, "d") == []
    from tests.rules.test_component_trains import fight

    state, _ = fight(state, ["a", "b", "e"], ["1528"], 1, 6, 6)  # 3-1: the combat die, then disorder dice
    assert "d" in state.eliminated
    from rules.queries.exits import exited

    assert exited(state) == []
    state = to_union_movement(on_the_map([union("u", "1527"), union("v", "1427"), union("x", "1526"), rebel("c", "2401")]))
    for uid, path in (("u", ("1527", "1528")), ("v", ("1427", "1528")), ("x", ("1526", "1527", "1528"))):
        state, _ = execute(state, ExitMap(uid, path))
    assert exited(state) == ["u", "v", "x"]  # 19.22: three by 1528
    assert not {"u", "v", "x"} & set(state.positions) and not {"u", "v", "x"} & set(state.eliminated)  # 19.31, 19.32
