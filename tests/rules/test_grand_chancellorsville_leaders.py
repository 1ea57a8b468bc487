"""Grand Chancellorsville 23.5, Leaders (the ``leaders`` component), under the revised rules, on small maps
(8 x 8 clear, even columns lower: 0404 touches 0403, 0504, 0505, 0405, 0305, 0304): the battle's dice
and Victory Point parameters, with Leaders of the test's own."""

from __future__ import annotations

from combatmaps import of_type, rolls, to_phase
from rulesmaps import board, rebel, scenario, union

from rules import combat_choices
from rules.core.commands import DeclareAttack, EndPhase, PlaceRally, ResolveAttack, RollRally
from rules.core.events import (
    DisruptionSaved,
    LeaderKilled,
    LeaderPlaced,
    LeaderRemoved,
    MoraleChanged,
    RallyRolled,
    UnitEliminated,
    VictoryPointsAwarded,
)
from rules.core.game import Game
from rules.procedures.victory import recount
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
