"""Revised fieldworks 10.3: breastworks built over two Game-Turns (10.34), one marker a hex (10.36),
facing three adjacent hexsides, counting against a movement quota; trenches stop zones of control
(10.39, in tests/rules/test_revised_movement.py)."""

import pytest
from rulesmaps import rebel, union
from test_revised_movement import game

from rules.core.commands import BuildBreastworks, CompleteBreastworks, EndPhase, MoveUnit
from rules.core.errors import RuleViolation
from rules.legal import choices
from rules.reducer import decide, execute, new_game
from rules.revised.movement import facings

MAY_BUILD = {"breastworks": {"may_build": True}}


def start(units, exclusive=None, **kw):
    return new_game(game(units, exclusive={**MAY_BUILD, **(exclusive or {})}, **kw))


def refused(state, command) -> str:
    with pytest.raises(RuleViolation) as e:
        decide(state, command)
    return e.value.case


def next_union_movement(state):
    turn = state.turn
    while not (state.turn > turn and state.phasing == "union" and state.phase == "movement"):
        state, _ = execute(state, EndPhase())
    return state


def test_infantry_begins_breastworks_and_does_not_move_10_34():
    # 10.0, 10.3, 10.34 i
    state = start([union("i", "0505"), rebel("r", "1010")])
    assert "i" in choices(state).build_breastworks
    state, _ = execute(state, BuildBreastworks(unit="i"))
    assert state.breastworks["0505"].status == "building"
    assert refused(state, MoveUnit("i", ("0505", "0504"))) == "6.18"


def test_not_within_three_hexes_of_an_enemy_10_34():
    state = start([union("i", "0505"), rebel("r", "0508")])
    assert refused(state, BuildBreastworks(unit="i")) == "10.34"
    assert "i" not in choices(state).build_breastworks


def test_only_infantry_and_not_disordered_10_34():
    state = start([union("a", "0505", type_="artillery"), union("i", "0303"), rebel("r", "1010")])
    assert refused(state, BuildBreastworks(unit="a")) == "10.34"
    state.morale["i"] = "disordered"
    assert refused(state, BuildBreastworks(unit="i")) == "10.34"


def test_not_in_games_before_1863_10_34():
    state = new_game(game([union("i", "0505"), rebel("r", "1010")]))
    assert refused(state, BuildBreastworks(unit="i")) == "10.34"


def test_one_marker_a_hex_10_36():
    state = start([union("i", "0505"), union("j", "0505"), rebel("r", "1010")])
    state, _ = execute(state, BuildBreastworks(unit="i"))
    assert refused(state, BuildBreastworks(unit="j")) == "10.36"


def test_flipped_in_the_next_movement_phase_facing_three_adjacent_hexsides_10_34():
    # 4.0 A (flipped in the Movement Phase), 10.32 (the two sides), 10.34 ii
    state = start([union("i", "0505"), rebel("r", "1010")])
    state, _ = execute(state, BuildBreastworks(unit="i"))
    face = facings(state, "i")[0]
    assert refused(state, CompleteBreastworks(unit="i", facing=face)) == "10.34"  # not this phase
    state = next_union_movement(state)
    assert choices(state).complete_breastworks["i"] == facings(state, "i")
    around = state.game.grid.neighbours("0505")
    assert refused(state, CompleteBreastworks(unit="i", facing=(around[0], around[2], around[4]))) == "10.34"
    state, _ = execute(state, CompleteBreastworks(unit="i", facing=face))
    marker = state.breastworks["0505"]
    assert marker.status == "breastworks" and marker.facing == face and marker.covers(face[1])
    assert refused(state, MoveUnit("i", ("0505", "0504"))) == "6.18"  # it did not move in this phase either


def test_building_counts_against_a_movement_quota_both_turns_10_34():
    quota = {"movement_quota": {"side": "union", "units": 1}}
    state = start([union("i", "0505"), union("j", "0202"), rebel("r", "1010")], exclusive=quota, cases={"movement_quota": "18.11"})
    state, _ = execute(state, BuildBreastworks(unit="i"))
    assert refused(state, MoveUnit("j", ("0202", "0203"))) == "18.11"
    state = next_union_movement(state)
    state, _ = execute(state, CompleteBreastworks(unit="i", facing=facings(state, "i")[0]))
    assert refused(state, MoveUnit("j", ("0202", "0203"))) == "18.11"


def test_unfinished_marker_removed_when_its_unit_leaves_10_34():
    state = start([union("i", "0505"), rebel("r", "1010")])
    state, _ = execute(state, BuildBreastworks(unit="i"))
    state = next_union_movement(state)
    state, _ = execute(state, MoveUnit("i", ("0505", "0504")))
    state, _ = execute(state, EndPhase())
    assert "0505" not in state.breastworks


def test_unfinished_marker_removed_when_an_enemy_ends_a_combat_phase_adjacent_10_34():
    from rules.core.events import BreastworksRemoved
    from rules.revised.movement import remove_unfinished_breastworks

    state = start([union("i", "0505"), rebel("r", "1010")])
    state, _ = execute(state, BuildBreastworks(unit="i"))
    assert remove_unfinished_breastworks(state) == []
    state.phase = "combat"
    state.positions["r"] = "0506"  # an enemy unit adjacent as the Combat Phase ends
    assert remove_unfinished_breastworks(state) == [
        BreastworksRemoved(hex="0505", reason="an enemy unit ended the Combat Phase adjacent to it")
    ]


# -- 10.33, 10.39: trenches placed by the Initial Deployment --------------------------------------------
TRENCH = {"trenches": {"markers": [{"hex": "0505", "side": "union", "facing": ["0604", "0605", "0506"]}]}}


def entrenched(units):
    return new_game(game(units, exclusive=TRENCH))


def test_deployment_markers_are_trenches_10_33():
    # 10.33: "Any Breastworks Marker placed as part of a Player's Initial Deployment is regarded as a Trench"
    state = entrenched([union("i", "0505"), rebel("r", "1010")])
    marker = state.breastworks["0505"]
    assert (marker.status, marker.side, marker.facing) == ("trench", "union", ("0604", "0605", "0506"))
    assert marker.covers("0604") and not marker.covers("0404")  # 10.38 through its hexsides, as breastworks


def test_zones_of_control_do_not_extend_into_a_trench_across_its_hexsides_10_39():
    from rules.queries.zoc import enemy_controlled

    state = entrenched([union("i", "0505"), rebel("r", "0604")])
    ezoc = enemy_controlled(state, "union")
    assert "0505" not in ezoc and "0504" in ezoc  # 0604 is across a trench hexside of 0505
    assert "0404" in choices(state).moves["i"]  # i is in no enemy zone: it may leave
    state = entrenched([union("i", "0505"), rebel("r", "0404")])
    assert "0505" in enemy_controlled(state, "union")  # 0404 is not across a trench hexside


def test_units_in_a_trench_need_not_attack_across_it_10_39():
    from tests.rules.combatmaps import to_phase

    state = to_phase(entrenched([union("i", "0505"), rebel("r", "0604")]))
    c = choices(state)
    assert c.may_end_phase  # 10.39: not required to attack through a trench hexside
    assert any("0604" in o.defenders for o in c.attacks)  # but it may
    # the rebel is in i's zone of control (it extends out of the trench): he must attack (7.1)
    state = to_phase(state, "confederate", "combat")
    assert not choices(state).may_end_phase


def test_a_trench_unit_that_attacks_attacks_all_adjacent_units_10_39():
    from rules.core.commands import DeclareAttack
    from tests.rules.combatmaps import to_phase

    state = to_phase(entrenched([union("i", "0505", strength=8), rebel("r1", "0604"), rebel("r2", "0605")]))
    assert choices(state).may_end_phase
    assert refused(state, DeclareAttack(("i",), ("0604",))) == "8.23"  # r2 would be left unattacked
    execute(state, DeclareAttack(("i",), ("0604", "0605")))
    # in an enemy zone as well (0404 is not across the trench): it must attack, and all adjacent units
    state = to_phase(entrenched([union("i", "0505", strength=8), rebel("r1", "0604"), rebel("r3", "0404")]))
    assert not choices(state).may_end_phase
    assert refused(state, DeclareAttack(("i",), ("0404",))) == "8.23"
    execute(state, DeclareAttack(("i",), ("0404", "0604")))


def test_artillery_in_a_trench_bombards_across_it_10_39():
    # 10.39: across its trench hexsides no enemy zone reaches the battery, so it is not "in an enemy
    # zone" (9.41) and bombards the adjacent hex (range 1) rather than attacking like infantry
    from rules.core.commands import DeclareAttack
    from tests.rules.combatmaps import to_phase

    state = to_phase(entrenched([union("a", "0505", type_="artillery", strength=4), rebel("r", "0604", strength=2)]))
    state, _ = execute(state, DeclareAttack(("a",), ("0604",)))
    assert state.pending[0].bombarding == ("a",) and state.pending[0].attackers == ()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_self_play_with_trenches_never_stalls_10_39(seed):
    # 10.39's optional attacks and the obligations they bring never leave a phase that cannot end
    import random

    from players.selfplay import play_game

    units = [union("i", "0505", strength=5), union("j", "0404", strength=3), rebel("r1", "0604"), rebel("r2", "0706", strength=5)]
    state = entrenched(units)
    final, _ = play_game(state, random.Random(seed), max_commands=3000)
    assert final.game_over
