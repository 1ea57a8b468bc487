"""Grand Chancellorsville 23.5, Leaders (the ``leaders`` component), under the revised rules, on small maps
(8 x 8 clear, even columns lower: 0404 touches 0403, 0504, 0505, 0405, 0305, 0304): the battle's dice
and Victory Point parameters, with Leaders of the test's own."""

from __future__ import annotations

import pytest
from combatmaps import of_type, rolls, to_phase
from rulesmaps import board, rebel, scenario, union

from rules import combat_choices, legal
from rules.core.commands import (
    DeclareAttack,
    EndPhase,
    MoveLeader,
    MoveUnit,
    PlaceRally,
    ResolveAttack,
    Retreat,
    RollRally,
    StrategicMove,
)
from rules.core.components.leaders import Place
from rules.core.errors import RuleViolation
from rules.core.events import (
    DisruptionSaved,
    ForcedMarched,
    LeaderEliminated,
    LeaderJoined,
    LeaderKilled,
    LeaderMoved,
    LeaderPlaced,
    LeaderRemoved,
    MoraleChanged,
    RallyRolled,
    UnitEliminated,
    VictoryPointsAwarded,
)
from rules.core.game import Game
from rules.procedures.victory import recount
from rules.queries.zoc import enemy_controlled
from rules.reducer import decide, execute, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

GC = load("grand_chancellorsville")
CASES = {"revised": dict(GC.cases["revised"])}
BLOCK = GC.exclusive["leaders"]
VICTORY = {**GC.exclusive["victory"], "occupation": []}


def leader(id_, side, stars, with_, command=(), **kw):
    return {"id": id_, "name": id_.title(), "side": side, "stars": stars, "with": with_, "command": list(command), **kw}


def start(units, leaders, hexes=None, first="union"):
    exclusive = {"leaders": {**BLOCK, "leaders": leaders}, "victory": VICTORY}
    sc = scenario(units, hexes=hexes, exclusive=exclusive, cases=CASES, turns=20, first_player=first)
    return new_game(Game(sc, get_ruleset("revised")))


def resolve(s, attackers, defenders, *dice):
    s, first = execute(s, DeclareAttack(tuple(attackers), tuple(defenders)))
    events = decide(s, ResolveAttack(), rolls(*dice))
    return fold(s, events), first + events


def test_the_battle_block_23_5():
    # 23.5: one star for each Union corps and Confederate division commander; 23.53: the command by the
    # designation (Union corps: the final character; Confederate division: the final letter); 23.58: Jackson
    # three stars; 23.55: Hooker gives no saving roll; 23.59: each deployed with a unit of his command
    assert (BLOCK["points_per_star"], BLOCK["killed_on"], BLOCK["saved_on"]) == (2, [1], [1, 2, 3])
    units = {u.id: u for u in GC.units}
    by_name = {x["name"]: x for x in BLOCK["leaders"]}
    assert by_name["Jackson"]["stars"] == 3 and by_name["Hooker"].get("saves") is False
    assert by_name["Hooker"]["stars"] > 1 and by_name["Lee"]["stars"] > 1 and by_name["Stuart"]["stars"] > 1
    assert not by_name["Hooker"].get("command") and not by_name["Lee"].get("command")  # the armies
    one_star = [x for x in BLOCK["leaders"] if x["stars"] == 1]
    union_corps = {u.designation.split("/")[-1] for u in GC.units if u.side == "union" and u.type != "cavalry"} - {"Reserve"}
    rebel_divisions = {u.designation.split("/")[-1] for u in GC.units if u.side == "confederate" and "/" in u.designation} - {"S"}
    commands = []
    for x in one_star:
        marks = {units[u].designation.split("/")[-1] for u in x["command"]}
        assert len(marks) == 1
        commands.append(marks.pop())
        if x["side"] == "confederate":
            assert x["name"].replace("A.P. ", "")[0] == commands[-1]  # "the first letter of that divisional commander's name"
        assert sorted(x["command"]) == sorted(u.id for u in GC.units if u.side == x["side"] and u.designation.split("/")[-1] == commands[-1])
    assert sorted(commands) == sorted(union_corps | rebel_divisions)
    for x in BLOCK["leaders"]:
        assert x["with"] in units and units[x["with"]].side == x["side"]
        assert not x.get("command") or x["with"] in x["command"]
    assert units[by_name["Jackson"]["with"]].arrives == 2  # 23.59: with the Game-Turn Two Reinforcements
    stuart = units[by_name["Stuart"]["with"]]
    assert stuart.type == "cavalry" and stuart.arrives == 8  # 23.59: "any Reinforcing Confederate cavalry unit on 1 May"


def test_a_leader_killed_on_a_one_scores_twice_his_stars_23_56_23_58():
    # a De at 6-1 (die 1) destroys d, with Jackson (three stars): the die '1' kills him; the Union scores
    # two per Strength Point of d and six for Jackson (23.61 iii): "Two Victory Points for every star of a
    # Confederate Leader eliminated")
    units = [union("a", "0404", strength=24), rebel("d", "0505", strength=4), rebel("d2", "0808")]
    s = to_phase(start(units, [leader("jackson", "confederate", 3, "d", ["d", "d2"])]))
    first = s.copy()
    s, events = resolve(s, ["a"], ["0505"], 1, 1)
    assert of_type(events, UnitEliminated)[0].unit == "d"
    killed = of_type(events, LeaderKilled)
    assert [(e.leader, e.roll, e.case) for e in killed] == [("jackson", 1, "23.56")]
    leader_points = [e for e in of_type(events, VictoryPointsAwarded) if e.kind == "leader"]
    assert [(e.side, e.points, e.case) for e in leader_points] == [("union", 6, "23.58")]
    assert s.vp["union"] == 2 * 4 + 6
    assert recount(first, events) == s.vp  # the referee's recount from the log


def test_a_surviving_leader_goes_to_the_nearest_unit_of_his_command_23_56():
    # the die '4': placed on the nearest unit of his command (d2 at 0507, two hexes; d3 at 0808 farther;
    # e, nearer, is not of his command); then he is in d2's hex and goes where d2 goes
    units = [union("a", "0404", strength=24), rebel("d", "0505", strength=4), rebel("d2", "0507"),
             rebel("d3", "0808"), rebel("e", "0606")]
    s = to_phase(start(units, [leader("early", "confederate", 1, "d", ["d", "d2", "d3"])]))
    s, events = resolve(s, ["a"], ["0505"], 1, 4)
    assert [(e.leader, e.unit, e.roll) for e in of_type(events, LeaderPlaced)] == [("early", "d2", 4)]
    rule = s.game.battle.leaders
    assert rule.hex_of(s, rule.leader("early")) == "0507" and not of_type(events, LeaderKilled)
    assert [e for e in of_type(events, VictoryPointsAwarded) if e.kind == "leader"] == []


def test_a_leader_whose_command_is_all_eliminated_is_removed_23_53():
    # 23.53: no unit of his command left: removed from play, no die rolled and no points
    units = [union("a", "0404", strength=24), rebel("d", "0505", strength=4), rebel("x", "0808")]
    s = to_phase(start(units, [leader("colston", "confederate", 1, "d", ["d"])]))
    s, events = resolve(s, ["a"], ["0505"], 1)  # the CRT die only: rolls() fails the test on a second roll
    assert [e.leader for e in of_type(events, LeaderRemoved)] == ["colston"]
    assert s.game.battle.leaders.hex_of(s, s.game.battle.leaders.leader("colston")) is None
    assert s.vp["union"] == 8


def test_no_die_for_a_leader_elsewhere_23_56():
    units = [union("a", "0404", strength=24), rebel("d", "0505", strength=4), rebel("d2", "0808")]
    s = to_phase(start(units, [leader("lee", "confederate", 4, "d2")]))
    s, events = resolve(s, ["a"], ["0505"], 1)
    assert not of_type(events, LeaderKilled) and not of_type(events, LeaderPlaced)


def test_saving_roll_against_a_disruption_23_55():
    # an Ar at 1-4 (die 1) disorders the adjacent attackers (12.11): a (with Sickles) rolls '3', saved; b
    # (with Reynolds) rolls '5', Disordered; c (alone) is Disordered without a saving roll
    units = [union("a", "0404"), union("b", "0405"), union("c", "0506"), rebel("d", "0505", strength=40)]
    ls = [leader("sickles", "union", 1, "a", ["a"]), leader("reynolds", "union", 1, "b", ["b"])]
    s = to_phase(start(units, ls))
    s, events = resolve(s, ["a", "b", "c"], ["0505"], 1, 3, 5)
    saved = of_type(events, DisruptionSaved)
    assert [(e.rolls, e.saved, e.case) for e in saved] == [((("a", 3), ("b", 5)), ("a",), "23.55")]
    assert "a" not in s.morale and s.morale["b"] == "disordered" and s.morale["c"] == "disordered"


def test_hooker_gives_no_saving_roll_23_55():
    # "Exception: Hooker does not produce this benefit"
    units = [union("a", "0404"), rebel("d", "0505", strength=40)]
    s = to_phase(start(units, [leader("hooker", "union", 4, "a", saves=False)]))
    s, events = resolve(s, ["a"], ["0505"], 1)
    assert not of_type(events, DisruptionSaved) and s.morale["a"] == "disordered"


def test_rally_succeeds_automatically_with_a_leader_23_57():
    # a (Shaken, with a Leader) rallies with no die; b (Shaken, alone) rolls as ever (12.41: '5' Disordered)
    units = [union("a", "0404"), union("b", "0406"), rebel("r", "0808")]
    s = start(units, [leader("hooker", "union", 4, "a", saves=False)])
    s = fold(s, [MoraleChanged(changes=(("a", "shaken"), ("b", "shaken")), case="12.0")])
    s, _ = execute(s, PlaceRally(("a", "b")))
    s, _ = execute(s, EndPhase())
    events = decide(s, RollRally(), rolls(5))
    assert of_type(events, RallyRolled)[0].rolls == (("b", 5),)
    assert [e.case for e in of_type(events, MoraleChanged)][0] == "23.57"
    s = fold(s, events)
    assert "a" not in s.morale and s.morale["b"] == "disordered"


def test_rally_with_a_leader_in_a_town_stays_disordered_23_57_12_17():
    units = [union("a", "0404"), rebel("r", "0808")]
    s = start(units, [leader("couch", "union", 1, "a", ["a"])], hexes=board(terrain={"0404": "town"}))
    s = fold(s, [MoraleChanged(changes=(("a", "routed"),), case="12.0")])
    s, _ = execute(s, PlaceRally(("a",)))
    s, _ = execute(s, EndPhase())
    s = fold(s, decide(s, RollRally(), rolls()))
    assert s.morale == {"a": "disordered"}


def test_leaders_stack_freely_and_one_affects_a_stack_23_52_23_55():
    # 23.52: "there may be more than one Leader in a particular hex" (the highest ranking first); 23.55:
    # "Only one Leader may affect units in a stack": a, with two Leaders, rolls one saving die
    units = [union("a", "0404"), rebel("d", "0505", strength=40)]
    ls = [leader("couch", "union", 1, "a", ["a"]), leader("meade", "union", 2, "a", ["a"])]
    s = to_phase(start(units, ls))
    rule = s.game.battle.leaders
    assert [x.id for x in rule.stacked_with(s, "a")] == ["meade", "couch"]
    s, events = resolve(s, ["a"], ["0505"], 1, 6)  # a second saving die would fail the test
    assert [e.rolls for e in of_type(events, DisruptionSaved)] == [(("a", 6),)]
    assert s.morale["a"] == "disordered"


def test_a_leader_of_more_than_one_star_adds_a_strength_point_23_55():
    # 23.55: Lee (four stars) with a adds one point to the attack; the one-star Couch with d adds none;
    # 23.52: with Jackson (three) also in the attack, still one point ("only the highest ranking Leader")
    units = [union("d", "0505", strength=4), rebel("a", "0404", strength=4), rebel("b", "0405", strength=4),
             rebel("g", "0604", type_="artillery", strength=4)]
    ls = [leader("lee", "confederate", 4, "a"), leader("jackson", "confederate", 3, "b", ["b"]),
          leader("couch", "union", 1, "d", ["d"])]
    s = to_phase(start(units, ls, first="confederate"), "confederate")
    plain = to_phase(start(units, [], first="confederate"), "confederate")
    b = combat_choices.combat_breakdown(s, ("a", "b", "g"), ("0505",))
    assert (b.attack, b.defence) == (combat_choices.combat_breakdown(plain, ("a", "b", "g"), ("0505",)).attack + 1, 4)
    line = next(x for x in b.attackers if x.unit == "a")
    assert [(m.case, m.factor, m.after) for m in line.modifiers] == [("23.55", "+1", 5)]
    # a Leader with artillery only adds nothing ("non-artillery unit or units")
    s2 = to_phase(start(units, [leader("stuart", "confederate", 3, "g")], first="confederate"), "confederate")
    every = ("a", "b", "g")
    assert combat_choices.combat_breakdown(s2, every, ("0505",)).attack == combat_choices.combat_breakdown(plain, every, ("0505",)).attack


def test_a_defending_leader_of_more_than_one_star_adds_a_strength_point_23_55():
    units = [union("d", "0505", strength=4), rebel("a", "0404", strength=8)]
    s = to_phase(start(units, [leader("hooker", "union", 4, "d", saves=False)], first="confederate"), "confederate")
    b = combat_choices.combat_breakdown(s, ("a",), ("0505",))
    assert (b.attack, b.defence) == (8, 5)


# -- 23.51: a Leader's own move; 23.54: a Leader alone (a line of clear hexes, row 02 of 30 x 3) ----------
LINE = board(30, 3)
MOVES = {"movement_allowance": 12, "forced_march": 24}


def moving(units, leaders, first="union", night_turns=None, hexes=LINE):
    exclusive = {"leaders": {**BLOCK, **MOVES, "leaders": leaders}, "victory": VICTORY}
    sc = scenario(units, hexes=hexes, exclusive=exclusive, cases=CASES, turns=20, first_player=first, night_turns=night_turns)
    return new_game(Game(sc, get_ruleset("revised")))


def row(a, b):
    """The hexes of row 02 from column ``a`` to ``b`` (each adjacent to the next)."""
    step = 1 if b >= a else -1
    return tuple(f"{c:02d}02" for c in range(a, b + step, step))


def test_the_battle_block_23_51():
    # 23.51: "They have a Movement Allowance of twelve and may use Forced March Movement to double this to 24"
    assert (BLOCK["movement_allowance"], BLOCK["forced_march"]) == (12, 24)


def test_a_leader_moves_twelve_on_his_own_and_24_by_forced_march_23_51():
    units = [union("a", "0102"), rebel("r", "3003")]
    s = moving(units, [leader("couch", "union", 1, "a", ["a"])])
    rule = s.game.battle.leaders
    couch = rule.leader("couch")
    offered = legal.choices(s)
    assert offered.may_move_leader == ["couch"]
    dests = offered.leader_moves["couch"]
    assert dests["1302"].cost == 12 and dests["2502"].cost == 24 and "2602" not in dests  # 24 and no more
    s1, events = execute(s, MoveLeader(leader="couch", path=row(1, 13)))
    assert [type(e) for e in events] == [LeaderMoved]  # twelve: no Forced March
    assert (events[0].cost, events[0].case) == (12, "23.51")
    assert rule.hex_of(s1, couch) == "1302" and rule.unit_of(s1, couch) is None and rule.alone(s1, couch)
    events = decide(s, MoveLeader(leader="couch", path=row(1, 25)))
    assert [(type(e), getattr(e, "unit", None)) for e in events] == [(ForcedMarched, "couch"), (LeaderMoved, None)]
    assert events[1].cost == 24
    with pytest.raises(RuleViolation) as e:
        decide(s, MoveLeader(leader="couch", path=row(1, 26)))  # 25 points
    assert e.value.case == "6.15"
    # one move per Movement Phase
    with pytest.raises(RuleViolation) as e:
        decide(s1, MoveLeader(leader="couch", path=row(13, 14)))
    assert e.value.case == "23.51"
    assert legal.choices(s1).may_move_leader == []
    # Leaders may not use Strategic Movement: no such command for a Leader
    with pytest.raises(RuleViolation):
        decide(s, StrategicMove(unit="couch", path=row(1, 13)))


def test_one_less_at_night_11_11_23_51():
    s = moving([union("a", "0102"), rebel("r", "3003")], [leader("couch", "union", 1, "a", ["a"])], night_turns=[1])
    dests = legal.choices(s).leader_moves["couch"]
    assert dests["1202"].cost == 11 and dests["2402"].cost == 23 and "2502" not in dests


def test_at_night_a_leader_leaves_an_enemy_zone_of_control_and_enters_no_other_11_12_23_51():
    # 11.12 at night: a unit may leave an enemy-controlled hex, and one that begins in one "may not
    # subsequently re-enter" another that Game-Turn. Couch begins in r's zone (0702, next to r at 0802): he
    # leaves it westward but stops short of q's zone (0402); Hooker, beginning in none (0102), enters q's (0202)
    units = [union("a", "0702"), union("z", "0102"), rebel("r", "0802"), rebel("q", "0302")]
    ls = [leader("couch", "union", 1, "a", ["a"]), leader("hooker", "union", 4, "z", saves=False)]
    s = moving(units, ls, night_turns=[1])
    zone = enemy_controlled(s, "union")
    assert {"0702", "0402", "0202"} <= zone and not {"0602", "0502", "0102"} & zone
    moves = legal.choices(s).leader_moves
    assert "0602" in moves["couch"] and "0502" in moves["couch"] and "0402" not in moves["couch"]
    with pytest.raises(RuleViolation):
        decide(s, MoveLeader(leader="couch", path=row(7, 4)))
    assert "0202" in moves["hooker"] and moves["hooker"]["0202"].cost == 2  # 7.2: a step into a zone, two
    assert [type(e) for e in decide(s, MoveLeader(leader="hooker", path=("0102", "0202")))] == [LeaderMoved]
    # by day he could not leave r's zone at all (6.13)
    assert "couch" not in legal.choices(moving(units, ls)).leader_moves


def test_a_leader_stops_in_an_enemy_zone_of_control_and_forced_marches_into_none_23_51_7_0():
    # ruling: a Leader moves as an infantry unit (7.0 "All units must cease movement when they enter an
    # Enemy controlled hex"; 23.51 gives him Forced March Movement, which enters no Enemy Zone of Control)
    units = [union("a", "0102"), rebel("r", "0802"), rebel("q", "2002")]
    s = moving(units, [leader("couch", "union", 1, "a", ["a"])])
    ev = decide(s, MoveLeader(leader="couch", path=row(1, 7)))  # 0702: r's zone, 5 + 2 (7.2)
    assert ev[-1].cost == 7
    with pytest.raises(RuleViolation) as e:
        decide(s, MoveLeader(leader="couch", path=(*row(1, 7), "0703")))
    assert e.value.case == "7.0"
    with pytest.raises(RuleViolation) as e:
        decide(s, MoveLeader(leader="couch", path=row(1, 8)))  # into r's hex: stopped before it
    assert e.value.case == "7.0"
    dests = legal.choices(s).leader_moves["couch"]
    assert "0702" in dests and "0802" not in dests and "0902" not in dests  # none beyond r's zone on three rows


def test_a_leader_in_an_enemy_zone_of_control_may_not_leave_it_6_13_23_51():
    # with his unit next to r he is in r's zone: by day he may not leave it during movement (6.13, 7.4)
    units = [union("a", "0702"), rebel("r", "0802"), rebel("q", "3003")]
    s = moving(units, [leader("couch", "union", 1, "a", ["a"])])
    assert "couch" not in legal.choices(s).leader_moves
    with pytest.raises(RuleViolation) as e:
        decide(s, MoveLeader(leader="couch", path=row(7, 6)))
    assert e.value.case == "6.13"


def test_a_leaders_forced_march_enters_no_enemy_zone_of_control_23_51_23_2():
    # on five rows, round r's zone (by row 01): beyond twelve points a Forced March, which never enters
    # q's zone (1903, farther than twelve, is not offered; 0703 in r's zone, within twelve, is)
    units = [union("a", "0103"), rebel("r", "0803"), rebel("q", "2003")]
    s = moving(units, [leader("couch", "union", 1, "a", ["a"])], hexes=board(30, 5))
    dests = legal.choices(s).leader_moves["couch"]
    zone = enemy_controlled(s, "union")
    assert dests["0703"].cost == 5 + 2 and "1903" not in dests and "1903" in zone
    far = {h: d for h, d in dests.items() if d.cost > 12}
    assert "1805" in far and all(not set(d.path[1:]) & zone for d in far.values())
    path = (*dests["1804"].path, "1904")  # 18 points, into q's zone
    with pytest.raises(RuleViolation) as e:
        decide(s, MoveLeader(leader="couch", path=path))
    assert e.value.case == "23.2"


def test_a_leader_joins_a_unit_of_his_command_as_the_phase_ends_23_51_23_53():
    # he stands in 0502 with b (of his command) while the phase lasts: b moves away without him; c, of
    # his command, ends there: as the phase ends he rides with c, and goes where c goes
    units = [union("a", "0102"), union("b", "0502"), union("c", "0702"), rebel("r", "3003")]
    s = moving(units, [leader("couch", "union", 1, "a", ["a", "b", "c"])])
    rule = s.game.battle.leaders
    couch = rule.leader("couch")
    s, _ = execute(s, MoveLeader(leader="couch", path=row(1, 5)))
    s, _ = execute(s, MoveUnit("b", ("0502", "0503")))
    assert rule.hex_of(s, couch) == "0502" and rule.alone(s, couch)
    s, _ = execute(s, MoveUnit("c", row(7, 5)))
    s, events = execute(s, EndPhase())
    assert [(e.leader, e.unit, e.case) for e in of_type(events, LeaderJoined)] == [("couch", "c", "23.51")]
    assert rule.unit_of(s, couch) == "c"
    s = to_phase(s, "union", "movement")
    s, _ = execute(s, MoveUnit("c", row(5, 3)))
    assert rule.hex_of(s, couch) == "0302"
    # carried by c this phase: that was his move
    with pytest.raises(RuleViolation) as e:
        decide(s, MoveLeader(leader="couch", path=row(3, 4)))
    assert e.value.case == "23.51"


def test_a_one_star_leader_ends_only_with_units_of_his_command_23_53():
    # "One-star Leaders may stack only with units of their command. Exception: a one-star Leader may stack in
    # any hex where there is a higher commander present"
    units = [union("a", "0102"), union("x", "0502"), union("y", "0702"), rebel("r", "3003")]
    ls = [leader("couch", "union", 1, "a", ["a"]), leader("hooker", "union", 4, "y", saves=False)]
    s = moving(units, ls)
    with pytest.raises(RuleViolation) as e:
        decide(s, MoveLeader(leader="couch", path=row(1, 5)))
    assert e.value.case == "23.53"
    dests = legal.choices(s).leader_moves["couch"]
    assert "0502" not in dests and "0702" in dests
    s, _ = execute(s, MoveLeader(leader="couch", path=row(1, 7)))  # Hooker is there
    s, events = execute(s, EndPhase())
    assert not of_type(events, LeaderJoined)  # ruling: he stays on his own, riding with no other command's unit
    rule = s.game.battle.leaders
    assert rule.unit_of(s, rule.leader("couch")) is None and rule.hex_of(s, rule.leader("couch")) == "0702"
    # a Leader of more stars stacks with any unit of his side, and rides with it
    s = to_phase(s, "union", "movement")
    s, _ = execute(s, MoveLeader(leader="hooker", path=row(7, 5)))
    s, events = execute(s, EndPhase())
    assert [(e.leader, e.unit) for e in of_type(events, LeaderJoined)] == [("hooker", "x")]


def test_a_one_star_leaders_forced_march_ends_only_with_units_of_his_command_23_53_23_51():
    # 23.53 binds the hexes beyond twelve points too (23.51's Forced March): x (not of his command) at
    # 1802 bars it, and z's 2002 while no higher commander is there; b's 1602 (his command) does not
    units = [union("a", "0102"), union("b", "1602"), union("x", "1802"), union("z", "2002"), rebel("r", "3003")]
    ls = [leader("couch", "union", 1, "a", ["a", "b"]), leader("hooker", "union", 4, "z", saves=False)]
    s = moving(units, ls)
    dests = legal.choices(s).leader_moves["couch"]
    assert dests["1602"].cost == 15 and dests["1902"].cost == 18 and dests["2102"].cost == 20
    assert "1802" not in dests and "1702" in dests
    assert "2002" in dests  # Hooker (four stars) is there: the exception
    with pytest.raises(RuleViolation) as e:
        decide(s, MoveLeader(leader="couch", path=row(1, 18)))
    assert e.value.case == "23.53"
    events = decide(s, MoveLeader(leader="couch", path=row(1, 20)))
    assert [type(e) for e in events] == [ForcedMarched, LeaderMoved]
    # Hooker gone from 2002 (he moves on, leaving z): 2002 is barred to Couch as 1802 is
    s = to_phase(s, "union", "movement")
    s, _ = execute(s, MoveLeader(leader="hooker", path=row(20, 22)))
    dests = legal.choices(s).leader_moves["couch"]
    assert "2002" not in dests and "1802" not in dests and "1602" in dests


def test_a_lone_leader_does_not_impede_and_is_eliminated_by_an_enemy_unit_moving_through_23_54_23_58():
    # Couch alone in 0502; r moves through his hex as if he were not there (no zone of control, no
    # blocking): he is eliminated, and the Confederate scores twice his star (23.58)
    units = [union("a", "0102"), rebel("r", "0802", strength=4), rebel("q", "3003")]
    s = moving(units, [leader("couch", "union", 1, "a", ["a"])])
    first = s.copy()
    log = []
    s, events = execute(s, MoveLeader(leader="couch", path=row(1, 5)))
    log += events
    s = fold(s, log_to(s, "confederate", "movement", log))
    dests = legal.choices(s).moves["r"]
    # every way west crosses column 05 (0501, 0502, 0503: his hex or next to it): no zone of control stops r
    assert dests["0302"].cost == 5
    s, events = execute(s, MoveUnit("r", row(8, 3)))
    log += events
    assert [(e.leader, e.unit, e.hex, e.case) for e in of_type(events, LeaderEliminated)] == [("couch", "r", "0502", "23.54")]
    points = [e for e in of_type(events, VictoryPointsAwarded) if e.kind == "leader"]
    assert [(e.side, e.points, e.case) for e in points] == [("confederate", 2, "23.58")]
    rule = s.game.battle.leaders
    assert rule.hex_of(s, rule.leader("couch")) is None and s.vp["confederate"] == 2
    assert recount(first, log) == s.vp


def test_an_enemy_unit_retreating_into_a_lone_leaders_hex_eliminates_him_23_54():
    # "moves into": a retreat too. Couch, on his own at 0506 next to r; a attacks r at 3:1, a '2' is Dr
    # (12.12's die 6: no Disorder), and r retreats into 0506
    units = [union("a", "0404", strength=6), union("b", "0808"), rebel("r", "0505", strength=2)]
    exclusive = {"leaders": {**BLOCK, **MOVES, "leaders": [leader("couch", "union", 1, "b", ["b"])]}, "victory": VICTORY}
    s = new_game(Game(scenario(units, exclusive=exclusive, cases=CASES, turns=20), get_ruleset("revised")))
    s, _ = execute(s, MoveLeader(leader="couch", path=legal.choices(s).leader_moves["couch"]["0506"].path))
    s = to_phase(s)
    s, _ = resolve(s, ["a"], ["0505"], 2, 6)
    s, events = execute(s, Retreat("r", "0506"))
    assert [(e.leader, e.unit, e.hex) for e in of_type(events, LeaderEliminated)] == [("couch", "r", "0506")]
    assert s.vp["confederate"] == 2


def test_an_enemy_unit_ending_in_a_lone_leaders_hex_eliminates_him_23_54():
    units = [union("a", "0102"), rebel("r", "0802"), rebel("q", "3003")]
    s = moving(units, [leader("couch", "union", 1, "a", ["a"])])
    s, _ = execute(s, MoveLeader(leader="couch", path=row(1, 5)))
    s = to_phase(s, "confederate", "movement")
    s, events = execute(s, MoveUnit("r", row(8, 5)))
    assert [e.leader for e in of_type(events, LeaderEliminated)] == ["couch"]


def test_only_an_enemy_unit_entering_his_hex_eliminates_a_lone_leader_23_54():
    # "If an Enemy combat unit moves into or through a hex containing a Leader": a unit of his own side
    # moving through his hex (b, to 0501), enemy units moving elsewhere (q) and next to it (r, to 0602),
    # leave him be; r moving on into his hex (b's zone: it stops there) does not
    units = [union("a", "0102"), union("b", "0302"), rebel("r", "0802"), rebel("q", "3003")]
    s = moving(units, [leader("couch", "union", 1, "a", ["a"])])
    rule = s.game.battle.leaders
    s, _ = execute(s, MoveLeader(leader="couch", path=row(1, 5)))
    s, events = execute(s, MoveUnit("b", ("0302", "0402", "0502", "0501")))
    assert not of_type(events, LeaderEliminated)
    s = to_phase(s, "confederate", "movement")
    s, events = execute(s, MoveUnit("q", ("3003", "2903")))
    assert not of_type(events, LeaderEliminated)
    s, events = execute(s, MoveUnit("r", row(8, 6)))
    assert not of_type(events, LeaderEliminated)
    assert rule.alone(s, rule.leader("couch")) and rule.hex_of(s, rule.leader("couch")) == "0502"
    s, _ = execute(s, EndPhase())
    s = to_phase(s, "confederate", "movement")  # the next Game-Turn's
    s, events = execute(s, MoveUnit("r", row(6, 5)))
    assert [(e.leader, e.unit, e.hex) for e in of_type(events, LeaderEliminated)] == [("couch", "r", "0502")]


def test_a_lone_leader_cannot_be_attacked_nor_bombarded_23_54():
    # "Unaccompanied Leaders are not affected by bombarding artillery units": nothing to attack in his hex
    units = [union("a", "0102"), rebel("r", "0602"), rebel("g", "0802", type_="artillery"), rebel("q", "3003")]
    s = moving(units, [leader("couch", "union", 1, "a", ["a"])])
    s, _ = execute(s, MoveLeader(leader="couch", path=row(1, 5)))
    s = to_phase(s, "confederate", "combat")
    assert all("0502" not in o.defenders for o in combat_choices.attack_options(s))
    with pytest.raises(RuleViolation):
        decide(s, DeclareAttack(("r",), ("0502",)))
    with pytest.raises(RuleViolation):
        decide(s, DeclareAttack(("g",), ("0502",)))


def test_a_leader_with_a_unit_rides_along_and_blocks_as_it_does_23_54():
    # with a unit of his side he is not alone: the enemy may not enter the hex (6.12), the unit moves
    # away with him (ruling: as before 23.51)
    units = [union("a", "0502"), rebel("r", "0802"), rebel("q", "3003")]
    s = moving(units, [leader("couch", "union", 1, "a", ["a"])], first="confederate")
    assert "0402" not in legal.choices(s).moves["r"]  # a's zone stops r at 0602
    with pytest.raises(RuleViolation):
        decide(s, MoveUnit("r", row(8, 4)))
    s = to_phase(s, "union", "movement")
    s, _ = execute(s, MoveUnit("a", row(5, 3)))
    rule = s.game.battle.leaders
    assert rule.hex_of(s, rule.leader("couch")) == "0302"


def test_leader_moves_on_the_battle_map_are_offered_and_accepted_23_51():
    # the computer players' choices: each Leader of the phasing side with a hex to go to; what is offered is
    # accepted, and the reach a client asks for is the full table's
    s = new_game(Game(GC, get_ruleset("revised")))
    offered = legal.choices(s)
    assert offered.may_move_leader and set(offered.leader_moves) <= set(offered.may_move_leader)
    for lid, dests in offered.leader_moves.items():
        assert legal.reach(s, lid, "leader") == (dests, None)
        for hex_ in sorted(dests)[:: max(1, len(dests) // 5)]:
            events = decide(s, MoveLeader(leader=lid, path=dests[hex_].path))
            assert events[-1].path[-1] == hex_ and events[-1].cost == dests[hex_].cost


def log_to(state, side, phase, log):
    """The events of the EndPhase commands from ``state`` to ``side``'s ``phase`` (appended to ``log``)."""
    out = []
    s = state
    for _ in range(12):
        if s.phasing == side and s.phase == phase:
            log += out
            return out
        s, events = execute(s, EndPhase())
        out += events
    raise AssertionError("never reached")


def test_every_leaders_place_read_at_once_23_51_23_59():
    # 23.59: a Leader is in the hex of the unit he rides with (none while it has not arrived); 23.51: one
    # who moved on his own stands in his hex with no unit. Leaders.places reads them all in one pass over
    # the marks, and agrees with the questions asked of each one
    units = [union("a", "0102"), union("b", "0902"), union("z", None), rebel("r", "3003")]
    chiefs = [leader("couch", "union", 1, "a", ["a"]), leader("meade", "union", 1, "b", ["b"]), leader("howard", "union", 1, "z", ["z"])]
    s = moving(units, chiefs)
    rule = s.game.battle.leaders
    s, _ = execute(s, MoveLeader(leader="couch", path=row(1, 5)))
    places = rule.places(s)
    assert places == {
        "couch": Place(unit=None, standing="0502", hex="0502"),
        "meade": Place(unit="b", standing=None, hex="0902"),
        "howard": Place(unit="z", standing=None, hex=None),
    }
    for x in rule.leaders:
        assert (rule.unit_of(s, x), rule.standing(s, x), rule.hex_of(s, x)) == places[x.id]
    assert legal.choices(s).may_move_leader == ["meade"]  # couch has moved, howard is not on the map


def test_a_leaders_id_has_no_colon_the_separator_of_his_marks():
    with pytest.raises(ValueError, match="has no ':'"):
        moving([union("a", "0102")], [leader("us:couch", "union", 1, "a", ["a"])])
