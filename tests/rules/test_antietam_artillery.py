"""Antietam's Union rifled artillery (003 18.0-18.2), under the revised rules on small maps with the
battle's parameters, and on the battle's map."""

from rules.core.commands import DeclareAttack, MoveUnit
from rules.core.decisions import PendingRetreat
from rules.core.events import UnitEliminated
from rules.core.game import Game
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.combatmaps import of_type, refused, to_phase
from tests.rules.rulesmaps import board, rebel, scenario, union
from tests.rules.test_revised_combat_rules import declared, resolve

ANTIETAM = load("antietam")


def start(units, battle=True, **kw):
    exclusive = {k: ANTIETAM.exclusive[k] for k in ("immobile_artillery", "rifled_artillery")} if battle else {}
    game = scenario(units, hexes=board(12, 12), exclusive=exclusive, cases={"revised": ANTIETAM.cases["revised"]}, **kw)
    return new_game(Game(game, get_ruleset("revised")))


def test_union_artillery_may_not_be_moved():
    # 18.1: "Union artillery units are immobile; they may not be moved during the course of the game"
    s = start([union("p", "0404", type_="artillery", strength=4), rebel("g", "1010", type_="artillery")])
    assert refused(s, MoveUnit("p", ("0404", "0405"))).case == "18.1"
    s = to_phase(s, "confederate", "movement")
    s, _ = execute(s, MoveUnit("g", ("1010", "1009")))  # the Confederate artillery moves
    assert s.positions["g"] == "1009"


def test_a_range_of_seven_hexes():
    # 18.2: "they have a Range of seven hexes" (9.11: three for other artillery)
    units = [union("p", "0402", type_="artillery", strength=4), rebel("r", "0409", strength=2), rebel("s", "0410", strength=2)]
    s = to_phase(start(units))
    assert s.game.bombard_range("p") == 7
    declared(s, ["p"], ["0409"])  # seven hexes: 0403 ... 0409
    assert "up to 7 hexes" in str(refused(s, DeclareAttack(("p",), ("0410",))))  # eight
    s = to_phase(start(units, battle=False))
    assert "up to 3 hexes" in str(refused(s, DeclareAttack(("p",), ("0409",))))


def test_not_subject_to_range_effects():
    # 18.2: "The Combat Strength of Union artillery is not subject to Range effects": a 4 bombarding at
    # five hexes and at three is 4 (9.19 would make it 3), adjacent it is 4 (9.48 would make it 6)
    s = to_phase(start([union("p", "0402", type_="artillery", strength=4), rebel("r", "0407", strength=1), rebel("t", "0405", strength=1)]))
    assert declared(s, ["p"], ["0407"])[1].attack == 4
    assert declared(s, ["p"], ["0405"])[1].attack == 4
    s = to_phase(start([union("p", "0404", type_="artillery", strength=4), rebel("r", "0405", strength=1)]))
    assert declared(s, ["p"], ["0405"])[1].attack == 4
    s = to_phase(start([union("p", "0402", type_="artillery", strength=4), rebel("r", "0405", strength=1)], battle=False))
    assert declared(s, ["p"], ["0405"])[1].attack == 3  # without the battle's rule: 9.19


def test_no_defensive_bonus_under_9_53():
    # 18.2: "neither is the Combat Strength of these artillery units increased by one-half under Case 9.53"
    units = [rebel("a", "0404", strength=6), union("p", "0505", type_="artillery", strength=4), union("i", "0506")]
    s = to_phase(start(units, first_player="confederate"), "confederate", "combat")
    assert declared(s, ["a"], ["0505"])[1].defence == 4
    s = to_phase(start(units, battle=False, first_player="confederate"), "confederate", "combat")
    assert declared(s, ["a"], ["0505"])[1].defence == 6  # 9.53 for other artillery


def test_no_retreat_when_attacked_solely_by_enemy_artillery():
    # 18.1: "They are not affected by Retreat combat results when attacked solely by Enemy artillery units"
    units = [rebel("g", "0402", type_="artillery", strength=4), union("p", "0404", type_="artillery", strength=2)]
    s = to_phase(start(units, first_player="confederate"), "confederate", "combat")
    s, _ = declared(s, ["g"], ["0404"])
    s, events = resolve(s, 1)
    assert events[0].result == "Dr"
    assert of_type(s.pending, PendingRetreat) == [] and s.positions["p"] == "0404"
    assert "p" not in s.morale  # not Disordered by a retreat it does not make (12.12)


def test_eliminated_instead_of_retreating_when_infantry_takes_part():
    # 18.1: "If forced to retreat due to combat, they are eliminated instead": an attack that is not
    # solely by artillery retreats them, so they are eliminated
    units = [rebel("g", "0402", type_="artillery", strength=2), rebel("i", "0504", strength=2), union("p", "0404", type_="artillery", strength=2)]
    s = to_phase(start(units, first_player="confederate"), "confederate", "combat")
    s, _ = declared(s, ["i", "g"], ["0404"])
    s, events = resolve(s, 1)
    assert events[0].result == "Dr"
    assert UnitEliminated(unit="p", case="18.1") in events


def test_the_parrott_guns_on_the_battle_map():
    # 18.0, 18.2 on the battle's map: A (1513), B (1414), C (1416) are the Union's only artillery, each
    # with its Range of seven; the Confederate artillery keeps three (9.11)
    game = Game(ANTIETAM, get_ruleset("revised"))
    assert {u: game.bombard_range(u) for u in ("us-art-a", "us-art-b", "us-art-c")} == dict.fromkeys(
        ("us-art-a", "us-art-b", "us-art-c"), 7
    )
    assert {game.bombard_range(u.id) for u in ANTIETAM.units if u.side == "confederate" and u.type == "artillery"} == {3}
