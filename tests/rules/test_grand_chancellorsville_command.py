"""Grand Chancellorsville 23.4, Union Command Control (the ``corps_command`` component), and 23.31, 23.61 i)
(the exit points and their Line of Communications), under the revised
rules, on small maps (8 x 8, even columns lower) with the battle's parameters: two corps "I" (a1, a2) and
"II" (b1), the cavalry (k1) and the Reserve artillery (r) attached to either corps."""

from __future__ import annotations

from combatmaps import of_type, refused, rolls
from rulesmaps import rebel, scenario, union

from rules.core.commands import EndPhase, MoveLeader, MoveUnit
from rules.core.events import CorpsCommandRolled, LeaderMoved
from rules.core.game import Game
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

GC = load("grand_chancellorsville")
CASES = {"revised": dict(GC.cases["revised"])}
BLOCK = {
    **GC.exclusive["corps_command"],
    "groups": [
        {"name": "I", "units": ["a1", "a2"], "moves_on": [1, 2, 3]},
        {"name": "II", "units": ["b1", "b9"], "moves_on": [1, 2, 3]},
        {"name": "XII", "units": ["x1"], "moves_on": [1, 2, 3]},
        {"name": "Cavalry", "units": ["k1"], "moves_on": [1, 2, 3, 4]},
    ],
    "attached_to": ["I", "II", "XII"],
    "attached": ["r"],
}
UNITS = [union("a1", "0101"), union("a2", "0103"), union("b1", "0105"), union("k1", "0107", type_="cavalry"),
         union("r", "0301", type_="artillery"), union("b9", None, arrives=9, entry=["0108"]),
         union("x1", None, arrives=9, entry=["0108"]), rebel("far", "0808")]


def start(turn):
    sc = scenario(UNITS, exclusive={"corps_command": BLOCK}, cases=CASES, turns=20, first_player="confederate")
    s = new_game(Game(sc, get_ruleset("revised")))
    s.turn = turn
    return s


def to_union_movement(state, *dice):
    events = []
    while not (state.phasing == "union" and state.phase == "movement"):
        more = decide(state, EndPhase(), rolls(*dice))
        state = fold(state, more)
        events += more
    return state, events


def test_the_battle_block_23_4():
    # 23.4: from Game-Turn Seven; "Corps identification is the final character in Union unit
    # designations"; the cavalry one corps moving on '1-4'; the Reserve artillery any corps but the cavalry
    block = GC.exclusive["corps_command"]
    assert (block["side"], block["from_turn"], block["attached"]) == ("union", 7, ["us-art-reserve"])
    groups = {g["name"]: g for g in block["groups"]}
    assert set(groups) == {"I", "II", "III", "V", "VI", "XI", "XII", "Cavalry"} and "Cavalry" not in block["attached_to"]
    units = {u.id: u for u in GC.units}
    for name, g in groups.items():
        assert g["moves_on"] == ([1, 2, 3, 4] if name == "Cavalry" else [1, 2, 3])
        for uid in g["units"]:
            u = units[uid]
            assert u.type == "cavalry" if name == "Cavalry" else u.designation.split("/")[-1] == name
    listed = {x for g in groups.values() for x in g["units"]} | {"us-art-reserve"}
    assert listed == {u.id for u in GC.units if u.side == "union"}


def test_no_command_control_before_game_turn_seven_23_4():
    s, events = to_union_movement(start(6))
    assert of_type(events, CorpsCommandRolled) == []
    s, _ = execute(s, MoveUnit("a1", ("0101", "0201")))


def test_a_die_for_each_corps_on_the_map_4_to_6_holds_it_23_4():
    # corps I rolls 2 (moves), II rolls 5 (held), the cavalry 4 (moves: '1-4'); XII has no unit on the map
    # and rolls nothing
    s, events = to_union_movement(start(7), 2, 5, 4)
    rolled = of_type(events, CorpsCommandRolled)
    assert [(e.turn, e.rolls, e.held) for e in rolled] == [(7, {"I": 2, "II": 5, "Cavalry": 4}, ["II"])]
    s, _ = execute(s, MoveUnit("a1", ("0101", "0201")))
    s, _ = execute(s, MoveUnit("k1", ("0107", "0207")))
    assert refused(s, MoveUnit("b1", ("0105", "0205"))).case == "23.4"
    # the Reserve artillery joins corps I, free to move
    s, _ = execute(s, MoveUnit("r", ("0301", "0302")))


def test_a_held_corps_commander_may_still_move_23_4_23_51():
    # ruling (docs/RULINGS.md): 23.4's die holds "all units in that particular corps", known by their
    # designation; a Leader counter has none: Couch, of held corps II, moves on his own (23.51)
    couch = {"id": "couch", "name": "Couch", "side": "union", "stars": 1, "with": "b1", "command": ["b1", "b9"]}
    leaders = {**GC.exclusive["leaders"], "leaders": [couch]}
    sc = scenario(UNITS, exclusive={"corps_command": BLOCK, "leaders": leaders}, cases=CASES, turns=20, first_player="confederate")
    s = new_game(Game(sc, get_ruleset("revised")))
    s.turn = 7
    s, _ = to_union_movement(s, 2, 5, 4)
    assert refused(s, MoveUnit("b1", ("0105", "0205"))).case == "23.4"
    s, events = execute(s, MoveLeader(leader="couch", path=("0105", "0205")))
    assert [e.path for e in of_type(events, LeaderMoved)] == [("0105", "0205")]


def test_the_reserve_artillery_is_held_only_when_every_corps_is_23_4():
    s, _ = to_union_movement(start(7), 6, 5, 5)
    assert refused(s, MoveUnit("a1", ("0101", "0201"))).case == "23.4"
    assert refused(s, MoveUnit("r", ("0301", "0302"))).case == "23.4"
    assert refused(s, MoveUnit("k1", ("0107", "0207"))).case == "23.4"  # a '5' holds the cavalry


def exit_game(units, blocked):
    """The Union exits by 0801 (F2501 on the small map); the area north of the river is 0108 (and a
    Confederate unit in 0605, the only gap in a lake along row 05, blocks the way when ``blocked``)."""
    block = {**GC.exclusive["exits"], "hexes": ["0801"]}
    block["awards"] = [{**a, "hexes": ["0801"], "line_to_areas": ["north"]} for a in block["awards"]]
    victory = {**GC.exclusive["victory"], "occupation": []}
    units = units + ([rebel("c", "0605")] if blocked else [rebel("c", "0101")])
    walls = {f"{c:02d}05": "lake" for c in range(1, 9) if c not in (6,)}
    from rulesmaps import board
    sc = scenario(units, hexes=board(terrain=walls), exclusive={"exits": block, "victory": victory}, cases=CASES,
                  turns=20, first_player="union", areas={"north": ["0108"]})
    return new_game(Game(sc, get_ruleset("revised")))


def test_exit_points_need_a_line_of_communications_else_eliminated_23_61():
    # 23.31, 23.61 i): one point per Strength Point exited by F2501 "if he can trace a Line of Communications ...
    # to any hex north of the Rappahannock ... If these exited units cannot trace a Line of Communications
    # they are considered eliminated" (two points a Strength Point to the Confederate, ii))
    from rules.core.commands import ExitMap
    from rules.procedures.exits import exit_awards

    for blocked, expected in ((False, [("union", 5, "exited")]), (True, [("confederate", 10, "cut_off")])):
        s = exit_game([union("u", "0802", strength=5)], blocked)
        s, _ = execute(s, ExitMap("u", ("0802", "0801")))
        assert [(a.side, a.points, a.kind) for a in exit_awards(s)] == expected
