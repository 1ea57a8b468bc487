"""How an attack's odds are built (rules/core/breakdown.py, ``rules.combat_choices.combat_breakdown``):
every modifier named with its case, on small maps, under both rule sets; and, over self-played games,
every declared attack's breakdown adds up to the odds the declaration got.

Cases: 1975 7.4 (the book's example: a 5 defends in rough at 10), 7.6, 9.0 (bridge hexsides), 18.12
(redoubts); revised 8.41 (the book's example: a 5 attacking into rough is 3), 8.42 (the book's example: 14
against 2 in forest is 6-1), 8.46, 8.61, 9.19, 9.48, 9.53, 10.26, 11.23, 12.21, 12.22, 12.23."""

from __future__ import annotations

import random

import pytest

from players.selfplay import PLAYERS, play
from rules.combat_choices import combat_breakdown, declared_breakdown
from rules.core.commands import DeclareAttack
from rules.core.errors import RuleViolation
from rules.core.events import AttackDeclared
from rules.core.game import Game
from rules.core.hexes import hexside
from rules.core.scenario import Hexside
from rules.reducer import fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from tests.rules.combatmaps import to_phase
from tests.rules.rulesmaps import board, rebel, scenario, sides, union


def start(ruleset: str, units, **kw):
    return to_phase(new_game(Game(scenario(units, **kw), get_ruleset(ruleset))))


def mods(line):
    return [(m.case, m.factor, m.before, m.after) for m in line.modifiers]


def test_classic_a_five_defends_in_rough_at_ten_7_4():
    s = start("classic", [union("a", "0404", strength=6), rebel("r", "0505", strength=5)], hexes=board(terrain={"0505": "rough"}))
    b = combat_breakdown(s, ["a"], ["0505"])
    (a,), (r,) = b.attackers, b.defenders
    assert (a.role, a.printed, a.strength, a.modifiers) == ("adjacent", 6, 6, ())  # 1975 modifies no attacker
    assert mods(r) == [("7.4", "x2", 5, 10)] and r.modifiers[0].what == "defending in rough"
    assert (b.attack, b.defence, b.ratio, b.odds, b.table_case, b.shifts) == (6, 10, "1-2", "1-2", "7.6", ())


def test_classic_bridge_hexsides_double_9_0_and_a_redoubt_triples_18_12():
    spec = sides({("0404", "0505"): {"creek", "bridge"}})
    s = start("classic", [union("a", "0404", strength=6), rebel("r", "0505", strength=2)], hexsides=spec)
    (r,) = combat_breakdown(s, ["a"], ["0505"]).defenders
    assert mods(r) == [("9.0", "x2", 2, 4)] and "bridge" in r.modifiers[0].what
    redoubt = {hexside("0404", "0505"): Hexside(features=frozenset({"redoubt"}), barbed="0404")}
    s = start("classic", [union("a", "0404", strength=6), rebel("r", "0505", strength=2)], hexsides=redoubt)
    b = combat_breakdown(s, ["a"], ["0505"])
    assert mods(b.defenders[0]) == [("18.12", "x3", 2, 6)] and (b.defence, b.odds) == (6, "1-1")


def test_revised_a_five_attacking_into_rough_is_three_8_41():
    s = start("revised", [union("u", "0404", strength=5), rebel("r", "0505", strength=2)], hexes=board(terrain={"0505": "rough"}))
    b = combat_breakdown(s, ["u"], ["0505"])
    assert mods(b.attackers[0]) == [("8.41", "x1/2", 5, 3)]
    assert (b.attack, b.defence, b.ratio, b.odds, b.table_case) == (3, 2, "3-2", "3-2", "8.6")


def test_revised_fourteen_against_two_in_forest_is_six_to_one_8_42():
    units = [union("a", "0404", strength=7), union("b", "0604", strength=7), rebel("r", "0505", strength=2)]
    b = combat_breakdown(start("revised", units, hexes=board(terrain={"0505": "forest"})), ["a", "b"], ["0505"])
    assert (b.attack, b.defence, b.ratio, b.odds, b.die_modifier) == (14, 2, "7-1", "6-1", 0)
    assert [(x.case, x.columns) for x in b.shifts] == [("8.42", -1)]


def test_revised_a_redoubt_halves_and_shifts_one_left_8_46():
    redoubt = {hexside("0404", "0505"): Hexside(features=frozenset({"redoubt"}), barbed="0404")}
    s = start("revised", [union("a", "0404", strength=8), rebel("r", "0505", strength=2)], hexsides=redoubt)
    b = combat_breakdown(s, ["a"], ["0505"])
    assert mods(b.attackers[0]) == [("8.46", "x1/2", 8, 4)]
    assert [(x.case, x.columns) for x in b.shifts] == [("8.46", -1)]
    assert (b.ratio, b.odds) == ("2-1", "3-2")


def test_revised_artillery_adjacent_and_at_three_hexes_9_48_9_19_and_morale_12_21():
    units = [
        union("g", "0404", type_="artillery", strength=3),
        union("d", "0604", strength=6),
        rebel("r", "0505", strength=4),
    ]
    s = start("revised", units)
    s.morale["d"] = "disordered"
    b = combat_breakdown(s, ["g", "d"], ["0505"])
    by = {x.unit: x for x in b.attackers}
    assert mods(by["g"]) == [("9.48", "x3/2", 3, 5)]  # 4.5 rounds up (8.32)
    assert mods(by["d"]) == [("12.21", "x2/3", 6, 4)]
    assert b.attack == 9 and b.odds == "2-1"
    s = start("revised", [union("far", "0205", type_="artillery", strength=4), rebel("r", "0505", strength=4)])
    alone = combat_breakdown(s, ["far"], ["0505"])  # 0205 to 0505: three hexes
    (far,) = alone.attackers
    assert far.role == "bombarding" and mods(far) == [("9.19", "x2/3", 4, 3)]


def test_revised_defending_artillery_supported_and_shaken_9_53_12_22_12_23():
    units = [
        union("a", "0404", strength=9),
        rebel("g", "0505", type_="artillery", strength=2),
        rebel("i", "0505", strength=6),
        rebel("x", "0506", strength=3),
    ]
    s = start("revised", units)
    s.morale.update({"i": "shaken", "x": "routed"})
    b = combat_breakdown(s, ["a"], ["0505"])
    by = {x.unit: x for x in b.defenders}
    assert mods(by["g"]) == [("9.53", "x3/2", 2, 3)]
    assert mods(by["i"]) == [("12.22", "x2/3", 6, 4)]
    assert (b.defence, b.odds) == (7, "1-1")  # x, in 0506, is not attacked


def test_revised_high_odds_and_night_8_61_11_23():
    units = [union("a", "0404", strength=9), union("b", "0604", strength=9), rebel("r", "0505", strength=2)]
    b = combat_breakdown(start("revised", units), ["a", "b"], ["0505"])
    assert (b.ratio, b.odds, b.die_modifier) == ("9-1", "6-1", 1)  # 8:1 and 9:1 subtract one
    night = combat_breakdown(start("revised", units, night_turns=[1]), ["a", "b"], ["0505"])
    assert [n.case for n in night.later] == ["11.23"]


def test_revised_a_defender_in_a_ford_hex_gives_the_attacker_a_shift_10_26():
    s = start("revised", [union("a", "0404", strength=4), rebel("r", "0505", strength=4)], hexes=board(terrain={"0505": "ford_hex"}))
    b = combat_breakdown(s, ["a"], ["0505"])
    assert [(x.case, x.columns) for x in b.shifts] == [("10.26", 1)]
    assert (b.ratio, b.odds) == ("1-1", "3-2")


def test_a_refused_declaration_is_refused_with_its_case():
    s = start("classic", [union("a", "0202"), rebel("r", "0505")])
    with pytest.raises(RuleViolation) as e:
        combat_breakdown(s, ["a"], ["0505"])
    assert e.value.case == "7.15"


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
def test_every_declared_attack_adds_up_to_its_odds(ruleset):
    """Over self-played Chattanooga games, the breakdown of each declaration before it is made: the
    units' strengths sum to the totals, the shifts to the attack's net shift, and the totals and
    column are those of the AttackDeclared event; and once declared (7.0), the attack waiting for its
    die shows the same breakdown (``declared_breakdown``)."""
    game = Game(load("chattanooga"), get_ruleset(ruleset))
    seen = 0
    for seed in (1, 2, 3):
        for before, command, events in play(new_game(game), random.Random(seed), 3000, PLAYERS["greedy"]):
            if not isinstance(command, DeclareAttack):
                continue
            declared = next(e.attack for e in events if isinstance(e, AttackDeclared))
            b = combat_breakdown(before, command.attackers, command.defenders)
            assert sum(a.strength for a in b.attackers) == b.attack == declared.attack
            assert sum(d.strength for d in b.defenders) == b.defence == declared.defence
            assert sum(x.columns for x in b.shifts) == declared.shift
            assert b.odds == declared.odds and b.die_modifier == declared.modifier
            assert declared_breakdown(before) is None
            assert declared_breakdown(fold(before, events)) == b
            for line in (*b.attackers, *b.defenders):
                x = line.printed
                for m in line.modifiers:
                    assert m.before == x and m.case
                    x = m.after
                assert x == line.strength or line.role == "passive"
            seen += 1
    assert seen > 20
