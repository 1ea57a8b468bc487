"""Grand Chancellorsville 23.2, Forced March Movement (the ``forced_march`` component), under the revised
rules, on a small map: three columns of sixteen clear hexes (a step costs one Movement Point; infantry
has six, cavalry eight, revised 2.4), the rows 01-10 "north of the river" (the battle's two areas), 0105
a River ferry hex; the battle's own block. Moving down a column from 0101, row r is r - 1 points away."""

from __future__ import annotations

from combatmaps import of_type, refused, to_phase
from rulesmaps import board, rebel, scenario, union

from rules import combat_choices, legal
from rules.core.commands import DeclareAttack, EnterReinforcement, MoveUnit
from rules.core.events import ForcedMarched, ReinforcementEntered, UnitMoved
from rules.core.game import Game
from rules.core.hexes import hex_number
from rules.reducer import decide, execute, new_game
from rules.revised.movement import strategic_allowance
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

GC = load("grand_chancellorsville")
CASES = {"revised": dict(GC.cases["revised"])}
BLOCK = GC.exclusive["forced_march"]
NORTH = [hex_number(c, r) for c in (1, 2, 3) for r in range(1, 11)]
AREAS = {"stafford_bank": NORTH[:15], "north_of_rappahannock": NORTH[15:]}


def column(first: int, last: int, col: int = 1) -> tuple[str, ...]:
    step = 1 if last >= first else -1
    return tuple(hex_number(col, r) for r in range(first, last + step, step))


def start(units, turn, phasing="union", block=BLOCK, night=None):
    exclusive = {"forced_march": block} if block is not None else {}
    sc = scenario(units, hexes=board(3, 16, {"0305": "ferry"}), exclusive=exclusive, cases=CASES, turns=20,
                  areas=AREAS, night_turns=night or [])
    s = new_game(Game(sc, get_ruleset("revised")))
    s.turn = turn
    return to_phase(s, phasing, "movement")


def test_the_battle_block_23_2():
    # 23.21 the Union on Game-Turns One to Five north of the river (the two sheets' areas); 23.22 the
    # Confederates on Two and Three; 23.23 the cavalry and Beckham every Game-Turn; twelve Movement Points
    assert BLOCK["allowance"] == 12 and BLOCK["no_bombard"] == ["cs-beckham-s"]
    assert BLOCK["grants"] == [
        {"side": "union", "turns": [1, 2, 3, 4, 5], "within": ["stafford_bank", "north_of_rappahannock"]},
        {"side": "confederate", "turns": [2, 3]},
        {"types": ["cavalry"], "units": ["cs-beckham-s"]},
    ]
    beckham = next(u for u in GC.units if u.id == "cs-beckham-s")
    assert (beckham.designation, beckham.type) == ("Beckham/S", "artillery")
    areas = GC.map.areas
    assert areas["stafford_bank"] and areas["north_of_rappahannock"]


def test_union_forced_march_north_of_the_river_twelve_points_23_21():
    # 23.21: six points is the infantry's own move; nine (to 0110) is a Forced March, announced by its event
    s = start([union("a", "0101"), rebel("far", "0316")], 2)
    events = decide(s, MoveUnit("a", column(1, 10)))
    assert [type(e) for e in events] == [ForcedMarched, UnitMoved] and events[0].case == "23.2"
    assert of_type(decide(s, MoveUnit("a", column(1, 7))), ForcedMarched) == []  # six points: no Forced March


def test_union_forced_march_only_in_hexes_north_of_the_river_23_21():
    # 23.21: row 11 is south of the river: a nine-point move to it is refused; the ferry hex 0305 is not a
    # hex of the Forced March either
    s = start([union("a", "0102"), union("b", "0301"), rebel("far", "0316")], 3)
    assert refused(s, MoveUnit("a", column(2, 11))).case == "23.2"
    region = s.game.battle.forced_march.region(s, "b")
    assert "0304" in region and "0305" not in region and "0111" not in region


def test_forced_march_enters_no_enemy_zone_of_control_23_21():
    # 23.21: "may not enter Enemy Zones of Control during a Game-Turn in which they do so": the enemy at
    # 0210 controls 0110 and 0111 (and 0309, 0310, 0311 ...); a move of the unit's own six points may
    # still enter an enemy zone of control
    s = start([union("a", "0101"), union("b", "0204"), rebel("e", "0210")], 2)
    refusal = refused(s, MoveUnit("a", column(1, 10)))
    assert refusal.case == "23.2" and "zone of control at 0110" in refusal.message  # ten points (7.2)
    assert of_type(decide(s, MoveUnit("a", column(1, 9))), ForcedMarched)  # eight points, 0109 free
    s, events = execute(s, MoveUnit("b", column(4, 9, col=2)))  # six points (7.2: two into 0209, controlled): allowed
    assert of_type(events, ForcedMarched) == []


def test_no_union_forced_march_after_game_turn_five_23_21():
    s = start([union("a", "0101"), rebel("far", "0316")], 6)
    assert refused(s, MoveUnit("a", column(1, 10))).case != "23.2"  # the allowance (six)
    s, _ = execute(s, MoveUnit("a", column(1, 7)))


def test_twelve_points_and_no_more_23_2():
    s = start([union("a", "0101", type_="cavalry"), rebel("far", "0316")], 2)
    assert refused(s, MoveUnit("a", column(1, 14))).message.endswith("(a Forced March's, 12)")
    assert of_type(decide(s, MoveUnit("a", column(1, 13))), ForcedMarched)  # twelve points (cavalry anywhere)


def test_confederate_forced_march_on_game_turns_two_and_three_anywhere_23_22():
    # 23.22: "not restricted to hexes north of the Rappahannock River"
    for turn, marches in ((2, True), (3, True), (4, False)):
        s = start([rebel("c", "0104"), union("far", "0316")], turn, phasing="confederate")
        if marches:
            assert [type(e) for e in decide(s, MoveUnit("c", column(4, 14)))] == [ForcedMarched, UnitMoved]
        else:
            assert refused(s, MoveUnit("c", column(4, 14))).case != "23.2"


def test_confederate_reinforcement_may_enter_by_forced_march_23_22():
    # Jackson's corps enters on Game-Turn Two: a reinforcement's entry is a move too
    s = start([rebel("c", None, arrives=2, entry=["0101"]), union("far", "0316")], 2, phasing="confederate")
    events = decide(s, EnterReinforcement("c", column(1, 12)))
    assert [type(e) for e in events] == [ForcedMarched, ReinforcementEntered]


def test_cavalry_every_game_turn_eight_points_into_a_zone_of_control_23_23():
    # 23.23: cavalry twelve points on any Game-Turn it enters no enemy zone of control; on one it does,
    # "it moves at its normal rate of eight Movement Points". The enemy at 0210 controls 0110 and 0111.
    s = start([union("k", "0101", type_="cavalry"), union("j", "0203", type_="cavalry"), rebel("e", "0210")], 15)
    assert refused(s, MoveUnit("k", column(1, 10))).case == "23.2"  # ten points (7.2: two into 0110, in the zone)
    s, events = execute(s, MoveUnit("j", ("0203", *column(4, 10))))  # eight points into it at 0110: its own rate
    assert of_type(events, ForcedMarched) == []
    s = start([union("k", "0101", type_="cavalry"), rebel("e", "0316")], 15)
    assert of_type(decide(s, MoveUnit("k", column(1, 12))), ForcedMarched)  # eleven points, no zone: anywhere


def test_beckham_forced_marches_as_cavalry_and_may_not_bombard_then_23_23():
    # 23.23: "la Beckham ... is treated as cavalry for movement purposes, but it may not bombard if it uses
    # Forced March Movement"; another artillery unit has no Forced March at all
    units = [rebel("cs-beckham-s", "0101", type_="artillery", strength=1), rebel("g", "0301", type_="artillery"),
             union("target", "0113")]
    s = start(units, 15, phasing="confederate")
    assert refused(s, MoveUnit("g", column(1, 10, col=3))).case != "23.2"
    s, events = execute(s, MoveUnit("cs-beckham-s", column(1, 10)))  # nine points, three hexes from 0113
    assert of_type(events, ForcedMarched)
    s = to_phase(s, "confederate", "combat")
    assert all("cs-beckham-s" not in a.attackers for a in combat_choices.attack_options(s))
    assert refused(s, DeclareAttack(("cs-beckham-s",), ("0113",))).case == "23.23"


def test_beckham_bombards_after_a_normal_move_23_23():
    units = [rebel("cs-beckham-s", "0104", type_="artillery", strength=1), union("target", "0113")]
    s = start(units, 15, phasing="confederate")
    s, events = execute(s, MoveUnit("cs-beckham-s", column(4, 10)))  # six points: its own allowance
    assert of_type(events, ForcedMarched) == []
    s = to_phase(s, "confederate", "combat")
    s, _ = execute(s, DeclareAttack(("cs-beckham-s",), ("0113",)))


def test_the_computer_players_are_offered_forced_marches_23_2():
    # legal-move generation: the hexes only a Forced March reaches (0108, 0109: seven and eight points),
    # with a path that keeps its rules; not 0110 (ten points, 7.2, and in the zone of control of 0210) nor
    # 0111 (south of the river)
    s = start([union("a", "0101"), rebel("e", "0210")], 2)
    moves = legal.unit_moves(s, "a")
    assert {"0107", "0108", "0109"} <= set(moves) and not {"0110", "0111"} & set(moves)
    assert (moves["0109"].cost, moves["0109"].path) == (8, column(1, 9))
    for m in moves.values():
        execute(s, MoveUnit("a", m.path))  # every one offered is legal
    late = start([union("a", "0101"), rebel("e", "0210")], 6)
    assert "0108" not in legal.unit_moves(late, "a")


def test_forced_march_is_never_combined_with_strategic_movement_23_2():
    # 23.2: the Strategic Movement allowance is the unit's own, the Forced March's twelve never added
    units = [union("a", "0101"), rebel("far", "0316")]
    with_it, without = start(units, 2), start(units, 2, block=None)
    assert strategic_allowance(with_it, "a") == strategic_allowance(without, "a")


def test_one_less_at_night_11_11_23_2():
    # ruling: the Forced March's twelve, one less at night as every allowance (revised 11.11)
    s = start([union("k", "0101", type_="cavalry"), rebel("far", "0316")], 1, night=[1])
    assert of_type(decide(s, MoveUnit("k", column(1, 12))), ForcedMarched)  # eleven points
    assert refused(s, MoveUnit("k", column(1, 13))).message.endswith("(a Forced March's, 11)")
