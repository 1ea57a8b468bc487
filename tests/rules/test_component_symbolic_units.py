"""Symbolic units (Road to Vicksburg 18.1-18.3, 21.3: the Union "Train" unit; the ``symbolic_units``
component), under the revised rules on small maps (tests/rules/combatmaps.py: 0404 touches 0505; 0505
touches 0504, 0604, 0605, 0506, 0405, 0404)."""

from rules.core.commands import Advance, DeclareAttack, EndPhase, MoveUnit, Retreat
from rules.core.decisions import PendingRetreat
from rules.core.events import UnitEliminated, VictoryPointsAwarded
from rules.core.game import Game
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import of_type, refused, to_phase
from tests.rules.rulesmaps import board, rebel, scenario, union
from tests.rules.test_revised_combat_rules import declared, resolve

CASES = {
    "symbolic_units": "18.0", "symbolic_units.attack": "18.1", "symbolic_units.retreat": "18.1",
    "symbolic_units.zoc": "18.3", "symbolic_units.points": "21.3",
}
POINTS = {"bombarded": {"side": "confederate", "points": 5}, "moved": {"side": "confederate", "points": 5}}


def start(units, symbolic=True, **kw):
    exclusive = {"victory": {"per_enemy_strength_point_eliminated": {"union": 1, "confederate": 1}}}
    if symbolic:
        exclusive["symbolic_units"] = {"units": ["t"], **POINTS}
    game = scenario(units, hexes=board(10, 10), exclusive=exclusive, cases={"revised": CASES}, **kw)
    return new_game(Game(game, get_ruleset("revised")))


def train(h):
    return union("t", h, strength=0)


def test_it_never_attacks_and_adds_no_defence_strength_18_1():
    # 18.1: "The Train unit has no Combat Strength; it may never attack and has no Defence Strength"
    units = [train("0505"), union("i", "0505", strength=2), rebel("a", "0404", strength=6)]
    s = to_phase(start(units, first_player="confederate"), "confederate", "combat")
    _, attack = declared(s, ["a"], ["0505"])
    assert (attack.defence, attack.odds, set(attack.defending)) == (2, "3-1", {"t", "i"})
    s = to_phase(start(units, symbolic=False, first_player="confederate"), "confederate", "combat")
    assert declared(s, ["a"], ["0505"])[1].defence == 3  # a unit's strength is at least 1 (8.32) without it
    s = to_phase(start(units), "union", "combat")
    assert refused(s, DeclareAttack(("t",), ("0404",))).case == "18.1"
    s, _ = execute(s, DeclareAttack(("i",), ("0404",)))  # its companion attacks alone: the Train owes nothing


def test_forced_to_retreat_it_is_eliminated_18_1():
    # 18.1: "If forced to retreat after a combat, it is eliminated": 6 against 2 at 3:1, a '2' is Dr
    units = [train("0505"), union("i", "0505", strength=2), rebel("a", "0404", strength=6)]
    s = to_phase(start(units, first_player="confederate"), "confederate", "combat")
    s, _ = declared(s, ["a"], ["0505"])
    s, events = resolve(s, 2, 6)  # and the companion's Disorder die (12.12)
    assert [(p.unit, p.side) for p in s.pending if isinstance(p, PendingRetreat)] == [("i", "union"), ("t", "union")]
    s, events = execute(s, Retreat("i", "0506"))  # the companion retreats; the Train cannot
    assert [(e.unit, e.case) for e in of_type(events, UnitEliminated)] == [("t", "18.1")]
    assert "t" not in s.positions and s.positions["i"] == "0506"


def test_bombardment_alone_never_eliminates_it_and_scores_once_a_game_turn_18_1_21_3():
    # 18.1: "The Train unit cannot be eliminated solely by artillery bombardment, but the Confederate
    # Player can gain Victory Points by bombarding the Union Train unit"; 21.3: "5 for each Game-Turn the
    # Union Train unit is bombarded by Confederate artillery": a 4 at three hexes, a '1' is De
    units = [train("0405"), rebel("g", "0402", type_="artillery", strength=4)]
    s = to_phase(start(units, first_player="confederate"), "confederate", "combat")
    s, _ = declared(s, ["g"], ["0405"])
    s, events = resolve(s, 1)
    assert of_type(events, UnitEliminated) == [] and s.positions["t"] == "0405"
    awarded = [(e.side, e.points, e.kind, e.subject, e.case) for e in of_type(events, VictoryPointsAwarded)]
    assert awarded == [("confederate", 5, "symbolic_bombarded", "t@1", "21.3")]
    s = to_phase(execute(s, EndPhase())[0], "confederate", "combat")  # Game-Turn Two: five more
    s, _ = declared(s, ["g"], ["0405"])
    s, events = resolve(s, 3)
    assert [e.subject for e in of_type(events, VictoryPointsAwarded)] == ["t@2"] and s.vp["confederate"] == 10


def test_it_stacks_free_and_friendly_units_move_through_it_18_2():
    # 18.2: "The Train unit may stack with any other unit and does not count against the stacking limit
    # in a hex. A Friendly unit may move through the Train unit's hex as normal": two units and the Train
    # in 0505 end the phase (6.32: two units)
    units = [train("0505"), union("i", "0505"), union("j", "0405"), union("k", "0506"), rebel("far", "1010")]
    s = start(units)
    s, _ = execute(s, MoveUnit("j", ("0405", "0505")))
    s, _ = execute(s, MoveUnit("k", ("0506", "0505", "0504")))  # through it
    s, _ = execute(s, EndPhase())
    assert sorted(s.units_in("0505")) == ["i", "j", "t"]
    s = start([union("t", "0505", strength=4), union("i", "0505"), union("j", "0405"), rebel("far", "1010")], symbolic=False)
    s, _ = execute(s, MoveUnit("j", ("0405", "0505")))  # without the rule the third unit overstacks (6.32)
    assert refused(s, EndPhase()).case == "6.32"


def test_no_zone_of_control_and_alone_in_an_enemy_one_it_is_eliminated_18_3():
    # 18.3: "The Train unit has no Zone of Control": a Confederate unit moves on past it (0604, 0504 are
    # beside 0505); "If the Train unit is in an Enemy Zone of Control at any time while not stacked with a
    # Friendly unit, it is eliminated"
    s = to_phase(start([train("0505"), rebel("a", "0704"), union("far", "0101")]), "confederate", "movement")
    s, events = execute(s, MoveUnit("a", ("0704", "0604", "0504")))
    assert [(e.unit, e.case) for e in of_type(events, UnitEliminated)] == [("t", "18.3")]
    # stacked with a Friendly unit it stays
    s = to_phase(start([train("0505"), union("i", "0505"), rebel("a", "0704"), union("far", "0101")]), "confederate", "movement")
    s, events = execute(s, MoveUnit("a", ("0704", "0604")))
    assert of_type(events, UnitEliminated) == [] and s.positions["t"] == "0505"
    # "at any time": alone, it is eliminated when an advance after combat brings an enemy beside it (a 6
    # against 2 at 3:1, a '1' is De; a advances into 0404, beside 0505)
    units = [train("0505"), union("i", "0404", strength=2), rebel("a", "0304", strength=6)]
    s = to_phase(start(units, first_player="confederate"), "confederate", "combat")
    s, _ = declared(s, ["a"], ["0404"])
    s, events = resolve(s, 1)
    assert [e.unit for e in of_type(events, UnitEliminated)] == ["i"] and "t" in s.positions
    s, events = execute(s, Advance("a", "0404"))
    assert [(e.unit, e.case) for e in of_type(events, UnitEliminated)] == [("t", "18.3")]


def test_moving_from_its_set_up_hex_scores_once_21_3():
    # 21.3: "5 if the Union Train unit moves from its set-up hex"
    s = start([train("0505"), rebel("far", "1010")])
    s, events = execute(s, MoveUnit("t", ("0505", "0405")))
    assert [(e.side, e.points, e.kind) for e in of_type(events, VictoryPointsAwarded)] == [("confederate", 5, "symbolic_moved")]
    s = to_phase(execute(s, EndPhase())[0], "union", "movement")
    s, events = execute(s, MoveUnit("t", ("0405", "0505")))
    assert of_type(events, VictoryPointsAwarded) == [] and s.vp["confederate"] == 5
