"""Revised cases whose mechanics the 1975 rules share (rules/procedures/combat.py, retreat.py, artillery.py,
exclusive.py), each checked under ``Game(..., "revised")`` on a small map and cited by its revised
number: 5.6, 8.23, 8.73, 8.74, 8.8, 8.81, 8.82, 9.42, 9.44, 9.46, 9.51, 11.22, Chattanooga 18.13 and
20.23; and the fieldworks cases 10.35 and 10.37 (rules/core/breastworks.py).

Hexes (even columns half a hex lower): 0505 touches 0504 0604 0605 0506 0405 0404; 0604 touches 0603
0704 0705 0605 0505 0504; 0705 touches 0704 0804 0805 0706 0605 0604. Union units at 0404 and 0506
control every neighbour of 0505 but 0604.
"""

from __future__ import annotations

from rules.combat_choices import preview
from rules.core.commands import (
    Advance,
    BuildBreastworks,
    CompleteBreastworks,
    DeclareAttack,
    Decline,
    MoveUnit,
    RemoveBreastworks,
    ResolveAttack,
    Retreat,
)
from rules.core.decisions import PendingAdvance, PendingRetreat
from rules.core.events import BreastworksRemoved, UnitEliminated, UnitRetreated
from rules.core.game import Game
from rules.legal import choices
from rules.reducer import decide, execute, fold, new_game
from rules.revised.movement import facings
from rules.rulesets import get as get_ruleset
from tests.rules.combatmaps import of_type, refused, to_phase
from tests.rules.rulesmaps import board, rebel, scenario, sides, union

# Chattanooga's revised numbers of its exclusive rules (scenarios/chattanooga/scenario.toml [cases.revised]).
CHATTANOOGA_CASES = {"movement_quota": "18.11", "ferries": "20.21", "ferries.end": "20.22", "ferries.retreat": "20.23"}


def start(units, options=None, cases=None, **kw):
    """A new revised game on a small map (tests/rules/rulesmaps.py), ``cases`` its revised numbers."""
    return new_game(Game(scenario(units, cases={"revised": cases or {}}, **kw), get_ruleset("revised"), options))


def declared(state, attackers, defenders):
    state, _ = execute(state, DeclareAttack(tuple(attackers), tuple(defenders)))
    return state, state.pending[0]


def resolve(state, *dice):
    """Resolve the declared attack with ``dice`` (the combat die first; any left over are not rolled)."""
    it = iter(dice)
    events = decide(state, ResolveAttack(), lambda: next(it))
    return fold(state, events), events


def options(state):
    return [(o.to, o.displace, o.eliminated) for o in choices(state).decision.options]


def pincer(more=(), terrain=None, hexsides=None, **kw):
    """Union 6 at 0404 and 1 at 0506 around Confederate ``d`` (1) at 0505 (7:1, read on 6:1: die 4 is Dr);
    the Union Combat Phase."""
    units = [union("a", "0404", strength=6), union("b", "0506", strength=1), rebel("d", "0505", strength=1), *more]
    return to_phase(start(units, hexes=board(terrain=terrain or {}), hexsides=hexsides or {}, **kw))


def driven_back(state):
    """a and b attack 0505 with the die 4 (Dr) and any disorder dice 1; the retreat is pending."""
    state, _ = declared(state, ["a", "b"], ["0505"])
    state, events = resolve(state, 4, 1, 1, 1, 1)
    assert events[0].result == "Dr"
    return state, events


# -- 5.6, 8.7, 8.8: retreats ------------------------------------------------------------------------
def test_a_unit_forced_off_the_map_is_eliminated_5_6():
    # 5.6 (with 8.72): a retreat never leaves the map; a unit whose only way back is off the map
    # sheet is eliminated, and counts as eliminated (for victory)
    units = [union("a", "0103", strength=6), union("b", "0201", strength=1), rebel("d", "0102", strength=1)]
    state = to_phase(start(units))
    state, _ = declared(state, ["a", "b"], ["0102"])
    state, events = resolve(state, 4, 1, 1)
    assert events[0].result == "Dr"
    assert UnitEliminated(unit="d", case="8.72") in events and "d" in state.eliminated and "d" not in state.positions


def test_a_retreat_may_stack_with_a_friend_not_in_an_enemy_zone_8_73():
    # 8.73: a vacant hex, or a friendly hex within the stacking limit (6.32: two units) whose unit is
    # not in an enemy-controlled hex
    state = pincer(more=[rebel("f", "0604")])
    state, _ = driven_back(state)
    assert options(state) == [("0604", None, False)]
    state, _ = execute(state, Retreat("d", "0604"))
    assert state.units_in("0604") == ["d", "f"]
    # the friend in an enemy-controlled hex (0604, next to the Union unit at 0704) is no refuge
    state = pincer(more=[rebel("f", "0604"), union("c", "0704")])
    state, events = driven_back(state)
    assert UnitEliminated(unit="d", case="8.72") in events


def test_a_unit_retreated_into_a_hex_attacked_later_suffers_but_adds_nothing_8_74():
    # 8.74: "the previously retreated unit does not contribute its Combat Strength to the defence
    # (Case 8.14), but it does suffer the result of the attack" (here a bombardment)
    units = [
        union("a", "0404", strength=6),
        union("b", "0506", strength=1),
        union("gun", "0805", type_="artillery", strength=4),
        rebel("d", "0505", strength=3),
        rebel("f", "0604", strength=1),
    ]
    state = to_phase(start(units))
    state, _ = declared(state, ["a", "b"], ["0505"])  # 7 to 3: 2:1, die 1 Dr
    state, events = resolve(state, 1, 1, 1)
    assert events[0].result == "Dr"
    state, _ = execute(state, Retreat("d", "0604"))
    if state.pending and isinstance(state.pending[0], PendingAdvance):
        state, _ = execute(state, Decline())
    state, a = declared(state, ["gun"], ["0604"])  # range 2: 4 against f's 1 only (4:1)
    assert (a.defence, a.passive) == (1, ("d",))
    state, events = resolve(state, 1, 1, 1)  # 4:1, die 1: De
    assert events[0].result == "De" and {"d", "f"} <= set(state.eliminated)


def test_displacement_only_when_no_other_hex_is_open_and_never_disorders_8_8_8_81_8_83():
    # 8.8, 8.81: the only hex is full (two units, 6.32): one of its units is displaced, retreated by its
    # owner as after combat, and the retreating unit takes its place; 8.83 (and 12.18, the same rule in
    # the morale section): the displacement rolls no disorder die and changes no morale
    state = pincer(more=[rebel("f1", "0604"), rebel("f2", "0604")])
    state, _ = driven_back(state)
    assert options(state) == [("0604", "f1", False), ("0604", "f2", False)]
    assert refused(state, Retreat("d", "0604")).case == "8.81"
    state, events = execute(state, Retreat("d", "0604", displace="f1"))
    assert events[0] == UnitRetreated(unit="d", path=("0505", "0604"), displaces="f1")
    morale_events = [e for e in events if type(e).__name__ in ("DisorderRolled", "MoraleChanged")]
    assert state.pending[0] == PendingRetreat(side="confederate", unit="f1", cause="displaced", chain=("d",))
    assert options(state) == [("0603", None, False), ("0704", None, False), ("0705", None, False)]
    state, events = execute(state, Retreat("f1", "0704"))
    assert state.units_in("0604") == ["d", "f2"] and state.positions["f1"] == "0704"
    morale_events += [e for e in events if type(e).__name__ in ("DisorderRolled", "MoraleChanged")]
    assert morale_events == [] and "f1" not in state.morale


def test_no_displacement_while_another_path_is_open_8_82():
    # 8.82: "Units may not Displace Friendly units if they have other paths of retreat open to them."
    units = [union("a", "0404", strength=6), rebel("d", "0505", strength=1), rebel("f1", "0604"), rebel("f2", "0604")]
    state = to_phase(start(units))
    state, _ = declared(state, ["a"], ["0505"])
    state, events = resolve(state, 4, 1, 1)
    assert events[0].result == "Dr"
    assert ("0605", None, False) in options(state)
    assert refused(state, Retreat("d", "0604", displace="f1")).case == "8.82"


def test_displacement_chains_8_82():
    # 8.82: "Displaced units can themselves Displace other Friendly units in a chain reaction of
    # Displacement, if that is the only permitted path of retreat open to them."
    more = [rebel("f1", "0604"), rebel("f2", "0604"), rebel("g1", "0705"), rebel("g2", "0705")]
    state = pincer(more=more, terrain={"0603": "river", "0704": "river"})
    state, _ = driven_back(state)
    state, _ = execute(state, Retreat("d", "0604", displace="f1"))
    assert options(state) == [("0705", "g1", False), ("0705", "g2", False)]
    state, _ = execute(state, Retreat("f1", "0705", displace="g2"))
    assert state.pending[0] == PendingRetreat(side="confederate", unit="g2", cause="displaced", chain=("d", "f1"))
    state, _ = execute(state, Retreat("g2", "0805"))
    assert state.units_in("0705") == ["f1", "g1"] and state.positions["g2"] == "0805"


def test_a_displacement_that_would_eliminate_eliminates_the_retreating_unit_8_82():
    # 8.82: "If the Displacement would cause any of the Displaced units to be eliminated, the
    # Displacement does not occur and the retreating unit is instead eliminated."
    more = [rebel("f1", "0604"), rebel("f2", "0604")]
    state = pincer(more=more, terrain={"0603": "river", "0704": "river", "0705": "river"})
    state, events = driven_back(state)
    assert of_type(events, UnitEliminated) == [UnitEliminated(unit="d", case="8.82")]
    assert state.units_in("0604") == ["f1", "f2"]


def test_displaced_artillery_that_has_not_attacked_may_not_8_82():
    # 8.82: "Displaced artillery units which have not yet engaged in an attack may no longer do so
    # during that Combat Phase."
    units = [
        union("a", "0404", strength=4),
        union("gun", "0304", type_="artillery", strength=2),
        union("u", "0304"),
        rebel("d", "0505", strength=4),
        rebel("e", "0102", strength=1),
    ]
    state = to_phase(start(units, hexes=board(terrain={"0403": "river", "0305": "river"})))
    state, _ = declared(state, ["a"], ["0505"])
    state, events = resolve(state, 4, 1, 1, 1)  # 1:1, die 4: Ar
    assert events[0].result == "Ar"
    assert options(state) == [("0304", "gun", False), ("0304", "u", False)]
    state, _ = execute(state, Retreat("a", "0304", displace="gun"))
    state, _ = execute(state, Retreat("gun", "0203"))
    if state.pending and isinstance(state.pending[0], PendingAdvance):
        state, _ = execute(state, Decline())
    assert "gun" in state.silenced
    assert refused(state, DeclareAttack(("gun",), ("0102",))).case == "8.82"


# -- 8.23 -------------------------------------------------------------------------------------------
def test_a_unit_next_to_two_enemies_attacks_both_unless_another_engages_one_8_23():
    # 8.23: a unit in the zone of control of more than one enemy unit attacks all those not engaged by
    # some other attacking unit
    units = [union("x", "0404", strength=6), rebel("e1", "0505", strength=2), rebel("e2", "0403", strength=2)]
    state = to_phase(start(units))
    assert refused(state, DeclareAttack(("x",), ("0505",))).case == "8.23"
    _, a = declared(state, ["x"], ["0505", "0403"])  # one attack on both hexes (8.25)
    assert a.defence == 4
    # with y next to e2 as well, x may attack e1 alone; y must then attack e2
    state = to_phase(start([*units, union("y", "0503")]))
    state, _ = declared(state, ["x"], ["0505"])
    assert state.pending[0].defending == ("e1",)


# -- 9.4, 9.5: artillery ----------------------------------------------------------------------------
def test_artillery_in_an_enemy_zone_attacks_every_adjacent_enemy_exerting_it_and_no_other_9_42():
    # 9.42: from an enemy-controlled hex the battery may attack as many enemy units as it is adjacent
    # to, but not non-adjacent ones, nor adjacent ones whose zone of control does not reach its hex
    # (d3, across a creek hexside: 7.6)
    creek = sides({("0404", "0304"): {"creek"}})
    units = [
        union("gun", "0404", type_="artillery", strength=2),
        rebel("d1", "0505", strength=1),
        rebel("d2", "0403", strength=1),
        rebel("d3", "0304", strength=1),
        rebel("far", "0704"),
    ]
    state = to_phase(start(units, hexsides=creek))
    assert [o.defenders for o in choices(state).attacks] == [("0403", "0505")]
    _, a = declared(state, ["gun"], ["0505", "0403"])
    assert a.defending == ("d1", "d2") and a.bombarding == ()
    assert refused(state, DeclareAttack(("gun",), ("0704",))).case == "9.41"  # not adjacent: no bombardment
    refused(state, DeclareAttack(("gun",), ("0505", "0403", "0304")))  # d3 exerts no zone into 0404


def test_terrain_never_prohibits_adjacent_artillery_attacks_9_44():
    # 9.44: a battery in forest attacks the adjacent town hex (no line of sight is asked of an
    # adjacent attack; revised town and forest shift columns, 8.42, but prohibit nothing)
    units = [union("gun", "0404", type_="artillery", strength=2), rebel("d", "0505", strength=2)]
    state = to_phase(start(units, hexes=board(terrain={"0505": "town", "0404": "forest"})))
    p = preview(state, ["gun"], ["0505"])
    assert p.refused is None and p.attack == 3  # 9.48: half again for an adjacent attack
    _, a = declared(state, ["gun"], ["0505"])
    assert a.attackers == ("gun",) and a.bombarding == ()


def test_artillery_across_a_creek_bombards_the_adjacent_enemy_or_any_in_range_9_46():
    # 9.46: not in an enemy zone of control (none crosses the creek, 7.6), the battery bombards, the
    # adjacent unit across the creek hexside included, or any other enemy unit within range
    creek = sides({("0404", "0505"): {"creek"}})
    units = [union("gun", "0404", type_="artillery", strength=2), rebel("d", "0505", strength=1), rebel("far", "0606")]
    state = to_phase(start(units, hexsides=creek))
    assert choices(state).may_end_phase  # no enemy zone of control: nothing owed
    _, a = declared(state, ["gun"], ["0505"])
    assert a.bombarding == ("gun",) and a.attack == 2  # a bombardment: no 9.48 bonus
    _, a = declared(state, ["gun"], ["0606"])
    assert a.bombarding == ("gun",)


def test_artillery_never_adds_to_another_units_defence_by_bombardment_9_51():
    # 9.51: the defence is the defenders' own strength (the Confederate battery two hexes off adds
    # nothing), and a battery bombards only in its own Combat Phase
    units = [union("a", "0404", strength=4), rebel("d", "0505", strength=2), rebel("cgun", "0606", type_="artillery", strength=3)]
    state = to_phase(start(units))
    assert preview(state, ["a"], ["0505"]).defence == 2
    assert all("cgun" not in g.units for o in choices(state).attacks for g in o.groups.values())
    refused(state, DeclareAttack(("cgun",), ("0404",)))  # not in the Confederate Combat Phase


# -- 11.22: night ----------------------------------------------------------------------------------
def test_non_attacking_units_are_not_affected_by_night_attacks_11_22():
    # 11.22: at night n (which stayed in r's zone of control, so need not attack: 11.21) stays out;
    # it may not advance after the attack, and it is untouched by a's repulse. (Its last sentence, an
    # enemy advancing into a hex with a non-attacking unit: tests/rules/test_revised_separate_attacks.py.)
    units = [union("a", "0404", strength=4), union("n", "0506", strength=4), rebel("r", "0505", strength=4)]
    state = to_phase(start(units, night_turns=[1]))
    assert choices(state).may_end_phase
    state, a = declared(state, ["a"], ["0505"])
    assert a.attackers == ("a",) and a.attack == 4
    won, events = resolve(state, 3, 1, 1)  # night die 3: unchanged; 1:1, die 1: Dr
    assert events[1].result == "Dr"
    assert [p for p in won.pending if isinstance(p, PendingAdvance)] == [PendingAdvance(side="union", units=("a",), hexes=("0505",))]
    lost, events = resolve(state, 3, 4)  # 1:1, die 4: Ar
    assert events[1].result == "Ar"
    assert lost.morale == {"a": "disordered"} and lost.pending[0] == PendingRetreat(side="union", unit="a")
    assert lost.positions["n"] == "0506"


# -- Chattanooga 18.13, 20.23 ----------------------------------------------------------------------
def test_advance_and_retreat_use_no_movement_quota_18_13():
    # 18.13: Union units which advance or retreat as a result of combat do not count against the quota
    quota = {"movement_quota": {"side": "union", "units": 1, "bonus_units": 0, "bonus_hex": "0808"}}
    units = [union("a", "0404", strength=6), union("z", "0202"), rebel("d", "0505", strength=1), rebel("far", "0808")]
    state = to_phase(start(units, exclusive=quota, cases=CHATTANOOGA_CASES))
    state, _ = declared(state, ["a"], ["0505"])
    state, events = resolve(state, 4, 1)  # 6:1, die 4: Dr
    assert events[0].result == "Dr"
    state, _ = execute(state, Retreat("d", "0604"))
    state, _ = execute(state, Advance("a", "0505"))
    assert state.positions["a"] == "0505" and state.game.battle.movement_quota.used(state) == 0
    # a Union unit driven back in the Confederate Combat Phase: its retreat is no move of the quota either
    units = [union("u", "0404", strength=1), union("z", "0202"), rebel("r", "0505", strength=6)]
    state = to_phase(start(units, exclusive=quota, cases=CHATTANOOGA_CASES, first_player="confederate"), "confederate")
    state, _ = declared(state, ["r"], ["0404"])
    state, events = resolve(state, 4, 1)  # 6:1, die 4: Dr
    assert events[0].result == "Dr"
    state, _ = execute(state, Retreat("u", "0403"))
    state, _ = execute(state, Decline())  # r does not advance
    state = to_phase(state, "union", "movement")
    assert "u" not in state.moved and state.game.battle.movement_quota.used(state) == 0
    assert choices(state).moves.get("z")  # the quota's one unit is still to be chosen


def test_a_retreat_into_a_river_ferry_hex_eliminates_20_23():
    # 20.23: "Any unit which is forced to retreat into a river ferry hex is eliminated instead."
    ferry = {"0604": "ferry"}
    crossing = sides({("0505", "0604"): {"ferry_crossing"}, ("0604", "0704"): {"ferry_crossing"}})
    state = pincer(terrain=ferry, hexsides=crossing, exclusive={"ferries": {"hexes": ["0604"]}}, cases=CHATTANOOGA_CASES)
    state, _ = driven_back(state)
    assert options(state) == [("0604", None, True)]
    state, events = execute(state, Retreat("d", "0604"))
    assert events[0] == UnitEliminated(unit="d", case="20.23")
    assert "d" in state.eliminated


# -- 10.35, 10.37: breastworks ---------------------------------------------------------------------
MAY_BUILD = {"breastworks": {"may_build": True}}


def test_under_construction_marker_removed_when_its_unit_retreats_from_a_bombardment_10_35():
    # 10.35: i began breastworks (10.34 i); the Confederate battery moves within range and bombards
    # it: the Dr drives i back and its Under Construction Marker is removed
    units = [union("i", "0505", strength=1), rebel("g", "0509", type_="artillery", strength=6), rebel("far", "0101")]
    state = start(units, exclusive=MAY_BUILD, hexes=board(10, 10))
    state, _ = execute(state, BuildBreastworks(unit="i"))
    state = to_phase(state, "confederate", "movement")
    state, _ = execute(state, MoveUnit("g", choices(state).moves["g"]["0507"].path))
    state = to_phase(state, "confederate", "combat")
    assert state.breastworks["0505"].status == "building"
    state, a = declared(state, ["g"], ["0505"])
    assert a.bombarding == ("g",)
    state, events = resolve(state, 4, 1)  # 6:1 (one column right for the marker, 10.34 i), die 4: Dr
    assert of_type(events, BreastworksRemoved) == [BreastworksRemoved(hex="0505", reason="its unit was attacked")]
    assert events[1].result == "Dr" and state.pending[0] == PendingRetreat(side="union", unit="i")
    state, _ = execute(state, Retreat("i", "0504"))
    assert "0505" not in state.breastworks


def completed(units):
    """i (at 0505) begins breastworks on Game-Turn 1 and flips them on Game-Turn 2; the Union Combat
    Phase of Game-Turn 2."""
    state = start(units, exclusive=MAY_BUILD, hexes=board(10, 10))
    state, _ = execute(state, BuildBreastworks(unit="i"))
    state = to_phase(to_phase(state, "confederate"), "union", "movement")
    state, _ = execute(state, CompleteBreastworks(unit="i", facing=facings(state, "i")[0]))
    return to_phase(state)


def test_a_marker_removed_by_choice_at_the_end_of_a_friendly_combat_phase_10_37():
    # 10.37: at the end of his Combat Phase a player with an infantry or cavalry unit in the marker's
    # hex may remove it
    state = completed([union("i", "0505"), rebel("far", "1010")])
    assert state.breastworks["0505"].status == "breastworks"
    assert choices(state).remove_breastworks == ["0505"]
    state, events = execute(state, RemoveBreastworks(hex="0505"))
    assert events == [BreastworksRemoved(hex="0505", reason="removed by the union player at the end of his Combat Phase")]
    assert "0505" not in state.breastworks and choices(state).remove_breastworks == []


def test_a_marker_is_not_removed_in_a_movement_phase_nor_by_artillery_alone_10_37():
    # 10.37: "may not remove a Breastworks Marker until the end of a Friendly Combat Phase"; only
    # infantry or cavalry remove it; never in the enemy's Combat Phase
    state = completed([union("i", "0505"), rebel("far", "1010")])
    moving = to_phase(state, "union", "movement")
    assert refused(moving, RemoveBreastworks(hex="0505")).case == "10.37"
    assert choices(moving).remove_breastworks == []
    theirs = to_phase(state, "confederate", "combat")
    assert refused(theirs, RemoveBreastworks(hex="0505")).case == "10.37"
    assert refused(state, RemoveBreastworks(hex="0606")).case == "10.37"  # no marker there
    guns = completed([union("i", "0505"), union("g", "0606", type_="artillery"), rebel("far", "1010")])
    guns.positions["g"], guns.positions["i"] = "0505", "0606"  # only the battery in the marker's hex
    assert choices(guns).remove_breastworks == []
    assert refused(guns, RemoveBreastworks(hex="0505")).case == "10.37"


def test_either_player_may_remove_a_marker_his_unit_holds_but_not_before_the_phase_may_end_10_37():
    # 10.37: "either Player": a Confederate unit holding the Union marker's hex removes it at the end of
    # the Confederate Combat Phase; not while an attack is still owed
    state = completed([union("i", "0505"), rebel("r", "1010"), rebel("s", "0909")])
    state = to_phase(state, "confederate", "combat")
    state.positions["i"], state.positions["r"] = "0202", "0505"  # r has taken the breastworks
    assert choices(state).remove_breastworks == ["0505"]
    state.positions["s"] = "0203"  # next to i: an attack is owed (8.11)
    assert not choices(state).may_end_phase and choices(state).remove_breastworks == []
    assert refused(state, RemoveBreastworks(hex="0505")).case == "10.37"
    state.positions["s"] = "0909"
    state, _ = execute(state, RemoveBreastworks(hex="0505"))
    assert "0505" not in state.breastworks
