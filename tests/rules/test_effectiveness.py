"""Optional rule 11.0, Attack Effectiveness (game option ``attack_effectiveness``), on small maps."""

from combatmaps import attack, refused, to_phase
from rulesmaps import rebel, start, union

from rules.core.commands import Advance, DeclareAttack, Decline, EndPhase, MoveUnit, Retreat
from rules.core.decisions import PendingRetreat
from rules.core.events import AttackEffectivenessLost, IneffectiveUnitsEngaged
from rules.legal import choices
from rules.reducer import execute, fold

ON = {"attack_effectiveness": True}


def ineffective(state, *units):
    return fold(state, [AttackEffectivenessLost(units=units)])


def test_attack_effectiveness_is_an_option_off_by_default():
    # 11.0 OPTIONAL RULE: without it an Ar leaves the attacker effective
    state = to_phase(start([union("a", "0404", strength=4), rebel("d", "0505", strength=4)]))
    state, _ = attack(state, ["a"], ["0505"], die=5)  # 1-1, Ar
    assert state.ineffective == set()


def test_an_attacker_retreat_from_an_enemy_controlled_hex_makes_units_ineffective():
    # 11.1: lost by attacking units that receive an Ar, attacking from an enemy-controlled hex
    units = [union("a", "0404", strength=2), union("gun", "0303", type_="artillery", strength=2), rebel("d", "0505", strength=4)]
    state = to_phase(start([*units, rebel("far", "0808")], options=ON))
    state, _ = attack(state, ["a", "gun"], ["0505"], die=5)  # 1-1, Ar
    assert state.ineffective == {"a"}  # the bombarding battery keeps it
    state, _ = execute(state, Retreat("a", "0403"))
    state, _ = execute(state, Decline())
    state, _ = execute(state, Decline())
    assert state.ineffective == {"a"}


def test_ineffective_units_may_not_attack_nor_enter_enemy_zones_but_move_and_keep_their_zone():
    # 11.2
    state2 = ineffective(start([union("a", "0303"), rebel("d", "0305")], options=ON), "a")
    assert refused(state2, MoveUnit("a", ("0303", "0304"))).case == "11.2"
    state2, _ = execute(state2, MoveUnit("a", ("0303", "0203")))
    assert state2.positions["a"] == "0203"
    state3 = ineffective(start([union("a", "0404"), rebel("d", "0505")], options=ON), "a")
    state3 = to_phase(state3)
    assert refused(state3, DeclareAttack(("a",), ("0505",))).case == "11.2"
    assert "0505" in state3.game.zoc_into["0404"]  # a still controls its neighbours


def test_an_engaged_ineffective_unit_retreats_when_its_enemies_stay():
    # 11.31: ineffective in an enemy zone at the start of its Combat Phase; the enemy is not driven
    # off: the unit retreats as after combat, and no enemy advances
    state = ineffective(start([union("a", "0404"), rebel("d", "0505"), rebel("far", "0808")], options=ON), "a")
    state = to_phase(state)
    assert state.engaged == {"a"}
    assert choices(state).may_end_phase  # d need not be attacked: a may not attack it
    state, events = execute(state, EndPhase())
    assert state.phase == "combat" and state.pending == [PendingRetreat(side="union", unit="a", cause="ineffective")]
    state, _ = execute(state, Retreat("a", "0403"))
    assert not state.pending  # no advance by d
    state, _ = execute(state, EndPhase())
    assert (state.phasing, state.phase) == ("confederate", "movement")


def test_no_retreat_when_the_enemy_is_driven_off():
    # 11.31: "either all the Enemy units must be retreated in combat so that no Enemy Zone of Control
    # is in the Ineffective unit's hex, or ..."
    units = [union("a", "0404"), union("b", "0604", strength=12), rebel("d", "0505", strength=1), rebel("far", "0101")]
    state = to_phase(ineffective(start(units, options=ON), "a"))
    state, _ = attack(state, ["b"], ["0505"], die=1)  # De
    state, _ = execute(state, Decline())
    state, events = execute(state, EndPhase())
    assert (state.phasing, state.phase) == ("confederate", "movement") and state.positions["a"] == "0404"


def test_a_unit_that_comes_into_an_enemy_zone_during_the_phase_does_not_retreat():
    # 11.32: not in an enemy zone at the start of the phase: no retreat, even after an enemy advance
    units = [union("a", "0304"), union("b", "0404", strength=4), rebel("d", "0505", strength=4), rebel("far", "0808")]
    state = to_phase(ineffective(start(units, options=ON), "a"))
    assert state.engaged == set()
    state, _ = attack(state, ["b"], ["0505"], die=5)  # 1-1, Ar
    state, _ = execute(state, Retreat("b", "0403"))
    state, _ = execute(state, Advance("d", "0404"))  # now next to a
    state, _ = execute(state, EndPhase())
    assert (state.phasing, state.phase) == ("confederate", "movement") and state.positions["a"] == "0304"


def test_recovery_at_the_end_of_a_night_game_turn():
    # 11.4: at the end of any night Game-Turn all units are flipped face-up
    state = ineffective(start([union("a", "0101"), rebel("d", "0808")], night_turns=[1], options=ON), "a")
    state, _ = execute(state, EndPhase())  # Union movement (no combat at night)
    state, events = execute(state, EndPhase())  # Confederate movement; the night ends
    assert state.turn == 2 and state.ineffective == set()
    assert not any(isinstance(e, IneffectiveUnitsEngaged) for e in events)
