"""The restraints component's attack rules (rules/core/components/restraints.py: ``attack_halved``,
``attacked_from``, ``unless_it_attacked``, ``released_by_result``) with Road to Vicksburg's 9th Division
(003 17.3), under the revised rules on small clear maps. "n1" is the 9th's 1st brigade, "n2" its 2nd,
"art" its battery (command "9th", strength 4); 0404 touches 0403, 0504, 0505, 0405, 0305, 0304."""

from __future__ import annotations

from combatmaps import declare, of_type, to_phase

from rules.core.commands import ResolveAttack
from rules.core.decisions import PendingAttack
from rules.core.events import CombatResolved, RestraintAttacked, RestraintReleased
from rules.core.game import Game
from rules.reducer import decide, execute, fold, new_game
from rules.revised.combat_procedures import breakdown
from rules.rulesets import get as get_ruleset
from tests.rules.rulesmaps import rebel, scenario, union

NINTH = {
    "name": "9th Division",
    "side": "union",
    "commands": ["9th"],
    "attack_halved": True,  # 17.3 i
    "released_by_attack_on": ["9th"],  # release i
    "attacked_from": "any",
    "unless_it_attacked": True,
    "released_on_turn": 6,
}
SECOND = {  # 17.3 ii: the 2nd brigade and the battery, kept out of Enemy Zones of Control
    "name": "9th Division, 2nd brigade and 1st Wisconsin",
    "side": "union",
    "units": ["n2", "art"],
    "enemy_zoc": False,
    "released_on_turn": 4,
    "release_with": ["9th Division"],
    "released_by_result": {"units": ["n1"], "results": ["Ae", "Ae*", "Ar"]},  # ii b
}
CASES = {"revised": {"restraints": "17.0", "restraints.attack": "17.3"}}


def start(units, turns=6, first_player="union"):
    sc = scenario(units, exclusive={"restraints": {"held": [NINTH, SECOND]}}, cases=CASES, turns=turns, first_player=first_player)
    return new_game(Game(sc, get_ruleset("revised")))


def ninth(uid, h, **kw):
    return union(uid, h, command="9th", **kw)


def then_sixes(*values):
    it = iter(values)
    return lambda: next(it, 6)


def resolve(state, die):
    events = decide(state, ResolveAttack(), then_sixes(die))
    return fold(state, events), events


def pending(state) -> PendingAttack:
    return next(p for p in state.pending if isinstance(p, PendingAttack))


def finish(state):
    """Make the pending decisions of a result: decline advances, retreat to the first hex open."""
    from rules.core.commands import Decline, Retreat
    from rules.core.decisions import PendingAdvance, PendingRetreat
    from rules.procedures.retreat import retreat_options

    while state.pending:
        head = state.pending[0]
        if isinstance(head, PendingAdvance):
            state, _ = execute(state, Decline())
        elif isinstance(head, PendingRetreat):
            o = next(o for o in retreat_options(state, head.unit) if not o.eliminated)
            state, _ = execute(state, Retreat(head.unit, o.to))
        else:
            raise AssertionError(head)
    return state


def test_the_9th_attacks_at_half_strength_but_bombards_at_full_17_3_i_17_0():
    # 17.3 i: "All units attack at half Combat Strength (in addition to any other adjustments)"; 17.0: "Such
    # restrictions do not apply to bombardment attacks unless specifically stated"
    state = to_phase(start([ninth("n1", "0404"), ninth("art", "0402", type_="artillery"), rebel("r", "0504"), rebel("s", "0603")]))
    b = breakdown(state, ["n1"], [], ["0504"])
    [line] = b.attackers
    assert (line.printed, line.strength) == (4, 2)
    assert [m.case for m in line.modifiers] == ["17.3"]
    state, _ = declare(state, ["n1"], ["0504"])
    assert pending(state).attack == 2
    state = finish(resolve(state, 1)[0])  # Dr
    # the battery at 0402 bombards 0603 (two hexes): its full 4 (no range reduction at two hexes)
    state, _ = declare(state, ["art"], ["0603"])
    assert pending(state).attack == 4


def test_an_attack_on_the_division_releases_it_and_the_2nd_brigade_17_3_release_i():
    state = to_phase(start([ninth("n1", "0404"), ninth("n2", "0808"), rebel("r", "0504")], first_player="confederate"), "confederate")
    state, events = declare(state, ["r"], ["0404"])
    assert sorted(e.name for e in of_type(events, RestraintReleased)) == ["9th Division"]
    held = state.game.battle.restraints
    assert held.holding(state, "n1") == [] and held.holding(state, "n2") == []  # ii c: released with it
    assert not held.attack_halved(state, "n1")


def test_a_bombardment_of_the_division_releases_it_17_3_release_i():
    # "attacked by a Confederate unit": not only by an adjacent one (17.1's "adjacent")
    state = to_phase(start([ninth("n1", "0404"), rebel("gun", "0406", type_="artillery"), rebel("far", "0808")]), "confederate")
    state, events = declare(state, ["gun"], ["0404"])
    assert [e.name for e in of_type(events, RestraintReleased)] == ["9th Division"]


def test_no_release_once_a_unit_of_the_division_has_attacked_from_an_adjacent_hex_17_3_release_i():
    # "and no unit of the division has taken part in a non-bombardment attack"
    state = to_phase(start([ninth("n1", "0404"), rebel("r", "0504"), rebel("gun", "0407", type_="artillery")]))
    state, events = declare(state, ["n1"], ["0504"])
    assert [e.unit for e in of_type(events, RestraintAttacked)] == ["n1"]
    state = finish(resolve(state, 1)[0])  # Dr: r retreats
    state = to_phase(state, "confederate", "combat")
    assert state.game.grid.distance(state.positions["gun"], state.positions["n1"]) <= 3
    state, events = declare(state, ["gun"], [state.positions["n1"]])  # the Confederate battery bombards n1
    assert not of_type(events, RestraintReleased)
    assert [r.name for r in state.game.battle.restraints.holding(state, "n1")] == ["9th Division"]


def test_a_bombardment_by_the_division_keeps_its_release_by_attack_17_3_release_i():
    state = to_phase(start([ninth("art", "0402", type_="artillery"), ninth("n1", "0808"), rebel("s", "0603"), rebel("gun", "0806", type_="artillery")]))
    state, events = declare(state, ["art"], ["0603"])
    assert not of_type(events, RestraintAttacked)
    state = finish(resolve(state, 6)[0])
    state = to_phase(state, "confederate")
    state, events = declare(state, ["gun"], ["0808"])
    assert [e.name for e in of_type(events, RestraintReleased)] == ["9th Division"]


def test_the_1st_brigade_suffering_ar_releases_the_2nd_brigade_17_3_ii_b():
    # ii b: "The Union Movement Phase after the 1st brigade has suffered a combat result of Ae or Ar"
    state = to_phase(start([ninth("n1", "0404"), ninth("n2", "0808"), rebel("r", "0504")]))
    state, _ = declare(state, ["n1"], ["0504"])  # 2 to 4: 1-2
    state, events = resolve(state, 2)
    assert [r.result for r in of_type(events, CombatResolved)] == ["Ar"]
    assert [(e.name, e.cause) for e in of_type(events, RestraintReleased)] == [("9th Division, 2nd brigade and 1st Wisconsin", "result")]
    held = state.game.battle.restraints
    assert not held.barred_from_enemy_zoc(state, "n2")
    assert [r.name for r in held.holding(state, "n2")] == ["9th Division"]  # the division itself stays held


def test_a_dr_of_the_1st_brigade_releases_nothing_17_3_ii_b():
    state = to_phase(start([ninth("n1", "0404"), ninth("n2", "0808"), rebel("r", "0504")]))
    state, _ = declare(state, ["n1"], ["0504"])
    state, events = resolve(state, 1)
    assert [r.result for r in of_type(events, CombatResolved)] == ["Dr"]
    assert not of_type(events, RestraintReleased)
    assert state.game.battle.restraints.barred_from_enemy_zoc(state, "n2")
