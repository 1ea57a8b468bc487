"""Stacked units attacking separately under the revised rules (003 8.22, 8.23, 8.31, 9.13, 9.14, 11.22),
against the 1975 rule that a stack attacks whole (7.22, 8.14), on small maps.

Hexes (even columns half a hex lower): 0404 touches 0403 0504 0505 0405 0305 0304. A Union stack a + b
(4 each) at 0404 has Confederate e1 (4) at 0505 and e2 (4) at 0403 next to it: 4 against 4 is 1-1
(revised table: die 2 Dr, die 4 Ar, die 6 Ar), 8 against 4 is 2-1.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from players.selfplay import dice_from, random_attack, random_decision
from rules.core.commands import DeclareAttack, EndPhase, Retreat
from rules.core.decisions import PendingLosses, PendingRetreat
from rules.core.events import DecisionDeclined
from rules.core.game import Game
from rules.legal import choices
from rules.procedures.sequence import why_phase_may_not_end
from rules.reducer import execute, new_game
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import refused, to_phase
from tests.rules.rulesmaps import rebel, scenario, union
from tests.rules.test_revised_shared_cases import declared, resolve


def start(units, ruleset="revised", **kw):
    return to_phase(new_game(Game(scenario(units, **kw), get_ruleset(ruleset))))


def stack(*more, ruleset="revised"):
    """Union a + b at 0404 beside Confederate e1 (0505) and e2 (0403); the Union Combat Phase."""
    units = [union("a", "0404"), union("b", "0404"), rebel("e1", "0505"), rebel("e2", "0403"), *more]
    return start(units, ruleset)


def retreat_first(state, unit, events=None):
    """Retreat ``unit`` to the first hex offered (the command's events appended to ``events``)."""
    assert state.pending[0] == PendingRetreat(side=state.game.units[unit].side, unit=unit)
    option = next(o for o in choices(state).decision.options if not o.eliminated)
    state, done = execute(state, Retreat(unit, option.to, option.displace))
    if events is not None:
        events.extend(done)
    return state


def offered(state, defenders):
    """The adjacent choices offered against ``defenders``: (units, attack, defence, odds)."""
    option = next(o for o in choices(state).attacks if o.defenders == tuple(defenders))
    return {
        (a.units or tuple(u for h in a.hexes for u in option.groups[h].units), a.attack, a.defence, a.odds)
        for a in option.adjacent
    }


def test_stacked_units_may_be_used_in_separate_attacks_8_22():
    # 8.22: "If more than one unit is in a given hex, these units may be used in separate attacks"
    state = stack()
    state, a = declared(state, ["a"], ["0505"])
    assert a.attackers == ("a",) and a.attack == 4 and a.odds == "1-1"
    # the 1975 rule: the units of a hex attack together (7.22)
    classic = stack(ruleset="classic")
    assert refused(classic, DeclareAttack(("a",), ("0505",))).case == "7.22"


def test_the_choices_offer_each_part_of_a_stack_with_its_odds_8_22():
    # 8.22: the choices list the whole stack and each unit of it against each enemy hex, with the odds of
    # the units chosen; the client declares exactly those units
    state = stack()
    option = next(o for o in choices(state).attacks if o.defenders == ("0505",))
    assert option.separate and option.groups["0404"].units == ("a", "b")
    # the whole stack against e1 alone would leave e2 unattacked (8.11): not offered; against both it is
    assert offered(state, ["0505"]) == {(("a",), 4, 4, "1-1"), (("b",), 4, 4, "1-1")}
    assert offered(state, ["0403", "0505"]) == {(("a", "b"), 8, 8, "1-1")}
    # 1975: only the whole stack
    classic = stack(ruleset="classic")
    assert [(o.defenders, o.separate) for o in choices(classic).attacks] == [(("0403", "0505"), False)]
    assert {a.units for o in choices(classic).attacks for a in o.adjacent} == {()}


def test_a_unit_left_out_of_an_attack_still_owes_its_own_8_12_8_22():
    # 8.12 with 8.22: the obligation is each unit's. With e1 the only enemy, a alone may not attack it:
    # b would be left with no enemy it may attack (no dead end), so only the whole stack is offered
    state = start([union("a", "0404"), union("b", "0404"), rebel("e1", "0505")])
    refusal = refused(state, DeclareAttack(("a",), ("0505",)))
    assert refusal.case == "8.12" and "b at 0404" in refusal.message
    assert offered(state, ["0505"]) == {(("a", "b"), 8, 4, "2-1")}
    # with e2 next to the stack as well, a attacks e1 and the phase may not end before b attacks e2
    state = stack()
    state, _ = declared(state, ["a"], ["0505"])
    state, _ = resolve(state, 4)  # 1-1, die 4: Ar
    state = retreat_first(state, "a")
    refusal = refused(state, EndPhase())
    assert refusal.case == "8.12" and refusal.message.startswith("b at 0404 must attack")
    # 8.23: b need not attack e1, which a engaged; it attacks e2 alone
    assert refused(state, DeclareAttack(("b",), ("0505", "0403"))).case == "8.14"
    assert [(o.defenders, o.owed) for o in choices(state).attacks] == [(("0403",), True)]
    state, b = declared(state, ["b"], ["0403"])
    assert b.attackers == ("b",) and b.defending == ("e2",)


def test_an_adverse_result_touches_only_the_engaged_units_8_22():
    # 8.22: "Any adverse result suffered by a unit engaged in an attack does not affect another unit
    # stacked with it that is engaged in another attack or is not attacking at all"
    state, _ = declared(stack(), ["a"], ["0505"])
    ar, events = resolve(state, 4)  # 1-1, die 4: Ar
    assert events[0].result == "Ar"
    assert ar.morale == {"a": "disordered"}  # 12.11: the retreating attacker only
    assert [p for p in ar.pending if isinstance(p, PendingRetreat)] == [PendingRetreat(side="union", unit="a")]
    ar = retreat_first(ar, "a")
    assert ar.positions["b"] == "0404" and "b" not in ar.morale and "b" not in ar.attacked
    # Ae* (1-5 column, die 3): the defender takes one attacking unit, of those engaged only
    weak = start([union("a", "0404", strength=1), union("b", "0404"), rebel("e1", "0505", strength=5), rebel("e2", "0403")])
    weak, _ = declared(weak, ["a"], ["0505"])
    lost, events = resolve(weak, 3)
    assert events[0].result == "Ae*"
    assert lost.pending[:2] == [
        PendingLosses(side="confederate", candidates=("a",), at_least=1),
        PendingRetreat(side="union", unit="a"),
    ]
    assert lost.morale == {"a": "disordered"}
    # Ex (3-1, die 6): the attacker's losses come from the units that attacked
    strong = start([union("a", "0404", strength=12), union("b", "0404"), rebel("e1", "0505"), rebel("e2", "0403")])
    strong, _ = declared(strong, ["a"], ["0505"])
    ex, events = resolve(strong, 6, 1)  # Ex; a's disorder die 1 (no effect)
    assert events[0].result == "Ex"
    assert ex.eliminated == ["e1"] and ex.pending[0] == PendingLosses(side="union", candidates=("a",), at_least=4)
    assert ex.positions["b"] == "0404"


def test_no_advance_into_a_hex_holding_a_non_attacking_unit_11_22():
    # 11.22: at night "An Enemy unit may not advance after combat into a hex containing a non-attacking
    # unit, even if an attacking unit was retreated from that hex". Stationary a and n (11.21: both may
    # attack, neither must); a attacks alone, is repulsed (Ar) and retreats; n stays, untouched, and e1
    # may not advance into 0404.
    units = [union("a", "0404"), union("n", "0404"), rebel("e1", "0505"), rebel("e2", "0403")]
    state = start(units, night_turns=[1])
    assert choices(state).may_end_phase
    state, _ = declared(state, ["a"], ["0505"])
    state, events = resolve(state, 3, 4)  # night die 3: unchanged; 1-1, die 4: Ar
    assert events[1].result == "Ar"
    done = []
    state = retreat_first(state, "a", done)
    assert DecisionDeclined(side="confederate", kind="advance", reason="no unit may advance") in done
    assert state.positions["n"] == "0404" and state.positions["e1"] == "0505" and "n" not in state.morale
    # by day alike (8.22): the hex is not vacated while b is in it
    state, _ = declared(stack(), ["a"], ["0505"])
    state, _ = resolve(state, 4)  # Ar
    done = []
    state = retreat_first(state, "a", done)
    assert DecisionDeclined(side="confederate", kind="advance", reason="no unit may advance") in done
    # when the whole stack attacked and retreated, the hex is vacated and e1 may advance into it (8.75)
    state = start([union("a", "0404"), union("b", "0404"), rebel("e1", "0505")])
    state, _ = declared(state, ["a", "b"], ["0505"])
    state, events = resolve(state, 5)  # 2-1, die 5: Ar
    assert events[0].result == "Ar"
    state = retreat_first(retreat_first(state, "a"), "b")
    assert [(o.unit, o.to) for o in choices(state).decision.options] == [("e1", "0404")]


def test_batteries_of_one_hex_may_bombard_different_hexes_9_14():
    # 9.14: "If two artillery units in the same hex are bombarding, they need not both bombard the same
    # hex"; 9.13 still: one battery bombarding alone attacks a single hex
    units = [
        union("g1", "0101", type_="artillery"),
        union("g2", "0101", type_="artillery"),
        rebel("e1", "0103"),
        rebel("e2", "0301"),
    ]
    state = start(units)
    assert refused(state, DeclareAttack(("g1",), ("0103", "0301"))).case == "9.13"
    option = next(o for o in choices(state).attacks if o.defenders == ("0103",))
    assert option.separate and option.groups["0101"].units == ("g1", "g2")
    state, a = declared(state, ["g1"], ["0103"])
    assert a.bombarding == ("g1",) and a.attack == 4
    state, events = resolve(state, 2)  # 1-1, die 2: Dr
    assert events[0].result == "Dr"
    state = retreat_first(state, "e1")
    state, b = declared(state, ["g2"], ["0301"])
    assert b.bombarding == ("g2",) and b.defending == ("e2",)
    # 1975: the batteries of a hex bombard together (8.14)
    classic = start(units, "classic")
    assert refused(classic, DeclareAttack(("g1",), ("0103",))).case == "8.14"


def test_a_units_combat_strength_is_unitary_8_31():
    # 8.31: "A given unit's Combat Strength is always unitary; it may not be divided among different
    # combats". a, engaged against e1, may not join a second attack (8.14 too), nor be named twice.
    state, _ = declared(stack(), ["a"], ["0505"])
    state, _ = resolve(state, 4)  # Ar
    state = retreat_first(state, "a")
    refusal = refused(state, DeclareAttack(("a", "b"), ("0403",)))
    assert refusal.case == "8.14" and refusal.message == "a has already attacked this Combat Phase"
    refusal = refused(stack(), DeclareAttack(("a", "a"), ("0505",)))
    assert refusal.case == "8.31" and "a is named twice" in refusal.message


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_split_stacks_never_lead_to_a_dead_end_8_12_8_22(seed):
    # 8.11, 8.12 with 8.22: whatever parts of stacks the player attacks with (the choices offered, any
    # battery of a bombarding stack left out, 9.14), every decision answered at random, the Combat Phase
    # can always be finished: when no attack is offered, the phase may end (no dead end)
    rng = random.Random(seed)
    hexes = [f"{c:02d}{r:02d}" for c in range(3, 7) for r in range(3, 7)]
    rng.shuffle(hexes)
    units = []
    for i in range(rng.randint(2, 4)):  # Union stacks of two, now and then a battery in them
        for j in range(2):
            kind = "artillery" if rng.random() < 0.25 else "infantry"
            units.append(union(f"u{i}{j}", hexes[i], type_=kind, strength=rng.randint(1, 6)))
    for k in range(rng.randint(2, 4)):
        units.append(rebel(f"r{k}", hexes[4 + k], strength=rng.randint(1, 6)))
    units.append(union("gun1", "0101", type_="artillery"))
    units.append(union("gun2", "0101", type_="artillery"))
    state = start(units)
    dice = dice_from(rng)
    parts = 0
    for _ in range(200):
        if state.phase != "combat" or state.phasing != "union":
            break
        legal = choices(state)
        if legal.decision is not None:
            state, _ = execute(state, random_decision(legal.decision, rng), dice)
            continue
        if not legal.attacks:
            assert legal.may_end_phase, why_phase_may_not_end(state)
            break
        parts += sum(1 for o in legal.attacks for a in o.adjacent if a.units)
        state, _ = execute(state, random_attack(legal.attacks, rng), dice)
    else:
        raise AssertionError("the Combat Phase never ran out of attacks")
    event("parts of stacks offered" if parts else "no part of a stack offered")
