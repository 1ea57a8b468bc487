"""Retreat, displacement and advance after combat (1975 7.7, 7.8; Chattanooga 16.11, 17.13, 17.15,
19.13), each on a small map.

Hexes (even columns lower): 0505 touches 0504 0604 0605 0506 0405 0404; 0604 touches 0603 0704 0705
0605 0505 0504; 0705 touches 0704 0804 0805 0706 0605 0604; 0304 touches 0303 0403 0404 0305 0204
0203. Union units at 0404 and 0506 control every neighbour of 0505 but 0604.
"""

from combatmaps import attack, of_type, refused, to_phase
from rulesmaps import board, rebel, sides, start, union

from rules.core.commands import Advance, DeclareAttack, Decline, Retreat
from rules.core.decisions import PendingAdvance, PendingRetreat
from rules.core.events import UnitAdvanced, UnitEliminated, UnitRetreated
from rules.legal import choices
from rules.procedures.retreat import RetreatOption
from rules.procedures.sequence import to_act
from rules.reducer import decide, execute


def options(state):
    return [(o.to, o.displace, o.eliminated) for o in choices(state).decision.options]


def pincer(more=(), terrain=None, hexsides=None, **kw):
    """Union 12 at 0404 and 1 at 0506 around Confederate ``d`` (1) at 0505; the Union combat phase."""
    units = [union("a", "0404", strength=12), union("b", "0506", strength=1), rebel("d", "0505", strength=1), *more]
    return to_phase(start(units, hexes=board(terrain=terrain or {}), hexsides=hexsides or {}, **kw))


def test_the_owner_retreats_each_unit_during_the_attackers_phase():
    # 7.71: the Owning Player moves his units one hex out of enemy control, each as he decides; two
    # units of one hex may retreat in different directions
    units = [union("a", "0404", strength=12), rebel("d1", "0505", strength=1), rebel("d2", "0505", strength=1)]
    state = to_phase(start(units))
    state, _ = attack(state, ["a"], ["0505"], die=4)  # 6-1, Dr
    assert to_act(state) == "confederate" and state.phasing == "union"
    assert state.pending[0] == PendingRetreat(side="confederate", unit="d1")
    assert options(state) == [("0604", None, False), ("0605", None, False), ("0506", None, False)]
    state, events = execute(state, Retreat("d1", "0604"))
    assert events == [UnitRetreated(unit="d1", path=("0505", "0604"))]
    state, _ = execute(state, Retreat("d2", "0506"))
    assert (state.positions["d1"], state.positions["d2"]) == ("0604", "0506")
    assert isinstance(state.pending[0], PendingAdvance) and to_act(state) == "union"


def test_no_retreat_into_enemy_control_or_prohibited_terrain():
    # 7.72: not into a prohibited hex, across a prohibited hexside, or into an enemy-controlled hex
    state = pincer(terrain={"0604": "river"})
    state, events = attack(state, ["a", "b"], ["0505"], die=4)
    assert of_type(events, UnitEliminated) == [UnitEliminated(unit="d", case="7.72")]
    state = pincer(hexsides=sides({("0505", "0604"): {"creek"}}))
    state, events = attack(state, ["a", "b"], ["0505"], die=4)
    assert "d" in state.eliminated
    state = pincer()
    state, _ = attack(state, ["a", "b"], ["0505"], die=4)
    assert options(state) == [("0604", None, False)]
    assert refused(state, Retreat("d", "0504")).case == "7.72"
    assert refused(state, Retreat("d", "0707")).case == "7.71"


def test_a_retreat_may_stack_with_a_friendly_unit():
    # 7.73: into a friendly hex within the stacking limit, the friend not in an enemy-controlled hex
    state = pincer(more=[rebel("f", "0604")])
    state, _ = attack(state, ["a", "b"], ["0505"], die=4)
    assert options(state) == [("0604", None, False)]
    state, _ = execute(state, Retreat("d", "0604"))
    assert state.units_in("0604") == ["d", "f"]


def test_displacement_only_when_no_other_hex_is_open():
    # 7.81: the only hex is full: one of its units is displaced and moved back by its owner; the
    # retreating unit takes its place
    state = pincer(more=[rebel("f1", "0604"), rebel("f2", "0604")])
    state, _ = attack(state, ["a", "b"], ["0505"], die=4)
    assert options(state) == [("0604", "f1", False), ("0604", "f2", False)]
    assert refused(state, Retreat("d", "0604")).case == "7.81"
    state, events = execute(state, Retreat("d", "0604", displace="f1"))
    assert events[0] == UnitRetreated(unit="d", path=("0505", "0604"), displaces="f1")
    assert state.pending[0] == PendingRetreat(side="confederate", unit="f1", cause="displaced", chain=("d",))
    assert options(state) == [("0603", None, False), ("0704", None, False), ("0705", None, False)]
    state, _ = execute(state, Retreat("f1", "0704"))
    assert state.units_in("0604") == ["d", "f2"] and state.positions["f1"] == "0704"


def test_units_may_not_displace_when_another_path_is_open():
    # 7.82: "Units may not displace other Friendly units if they have other paths of retreat open"
    units = [rebel("f1", "0604"), rebel("f2", "0604")]
    state = to_phase(start([union("a", "0404", strength=12), rebel("d", "0505", strength=1), *units]))
    state, _ = attack(state, ["a"], ["0505"], die=4)
    assert ("0605", None, False) in options(state)
    assert refused(state, Retreat("d", "0604", displace="f1")).case == "7.82"


def test_displacement_chains():
    # 7.82: "Displaced units can themselves displace other Friendly units ... if that is the only
    # permitted path"
    more = [rebel("f1", "0604"), rebel("f2", "0604"), rebel("g1", "0705"), rebel("g2", "0705")]
    state = pincer(more=more, terrain={"0603": "river", "0704": "river"})
    state, _ = attack(state, ["a", "b"], ["0505"], die=4)
    state, _ = execute(state, Retreat("d", "0604", displace="f1"))
    assert options(state) == [("0705", "g1", False), ("0705", "g2", False)]
    state, _ = execute(state, Retreat("f1", "0705", displace="g2"))
    assert state.pending[0] == PendingRetreat(side="confederate", unit="g2", cause="displaced", chain=("d", "f1"))
    state, _ = execute(state, Retreat("g2", "0805"))
    assert state.units_in("0705") == ["f1", "g1"] and state.positions["g2"] == "0805"


def test_a_chain_never_displaces_one_of_its_own_units_again():
    # Ruling (7.82): d displaces f1 from 0604, f1 displaces g2 from 0705; g2 may not displace d (it is
    # of the same chain) but may displace f2, or a unit of 0805, whose units have hexes open. Without
    # it two full hexes could pass units back and forth for ever (an arena game at Chickamauga did).
    more = [rebel("f1", "0604"), rebel("f2", "0604"), rebel("g1", "0705"), rebel("g2", "0705"),
            rebel("h1", "0805"), rebel("h2", "0805")]
    rivers = {h: "river" for h in ("0603", "0704", "0804", "0706")}
    state = pincer(more=more, terrain=rivers)
    state, _ = attack(state, ["a", "b"], ["0505"], die=4)
    state, _ = execute(state, Retreat("d", "0604", displace="f1"))
    state, _ = execute(state, Retreat("f1", "0705", displace="g2"))
    assert state.pending[0].chain == ("d", "f1")
    assert options(state) == [("0805", "h1", False), ("0805", "h2", False), ("0604", "f2", False)]
    assert refused(state, Retreat("g2", "0604", displace="d")).case == "7.82"
    state, _ = execute(state, Retreat("g2", "0604", displace="f2"))
    assert state.pending[0].chain == ("d", "f1", "g2")
    assert ("0705", "f1", False) not in options(state) and ("0705", "g1", False) in options(state)


def test_a_displacement_that_would_eliminate_eliminates_the_retreating_unit():
    # 7.82: "If the displacement would cause any of the displaced units to be eliminated, the
    # retreating unit is instead eliminated"
    more = [rebel("f1", "0604"), rebel("f2", "0604")]
    state = pincer(more=more, terrain={"0603": "river", "0704": "river", "0705": "river"})
    state, events = attack(state, ["a", "b"], ["0505"], die=4)
    assert of_type(events, UnitEliminated) == [UnitEliminated(unit="d", case="7.82")]
    assert state.units_in("0604") == ["f1", "f2"]


def test_displaced_artillery_that_has_not_fired_may_not_fire():
    # 7.82: "Displaced Artillery units which have not yet engaged in combat, may not fire during that
    # Combat Phase"
    units = [
        union("a", "0404", strength=4),
        union("gun", "0304", type_="artillery", strength=2),
        union("u", "0304"),
        rebel("d", "0505", strength=4),
        rebel("e", "0102", strength=1),
    ]
    state = to_phase(start(units, hexes=board(terrain={"0403": "river", "0305": "river"})))
    state, _ = attack(state, ["a"], ["0505"], die=5)  # 1-1, Ar
    assert options(state) == [("0304", "gun", False), ("0304", "u", False)]
    state, _ = execute(state, Retreat("a", "0304", displace="gun"))
    state, _ = execute(state, Retreat("gun", "0203"))
    state, _ = execute(state, Decline())  # d does not advance
    assert "gun" in state.silenced
    assert refused(state, DeclareAttack(("gun",), ("0102",))).case == "7.82"


def test_retreat_into_a_ferry_hex_eliminates():
    # 19.13: "Any unit which is forced to retreat into a Ferry Hex is eliminated instead"
    ferry = {"0604": "ferry"}
    crossing = sides({("0505", "0604"): {"ferry_crossing"}, ("0604", "0704"): {"ferry_crossing"}})
    state = pincer(terrain=ferry, hexsides=crossing, exclusive={"ferries": {"hexes": ["0604"]}})
    state, _ = attack(state, ["a", "b"], ["0505"], die=4)
    assert options(state) == [("0604", None, True)]
    state, events = execute(state, Retreat("d", "0604"))
    assert events[0] == UnitEliminated(unit="d", case="19.13")
    # the same with the option that applies a lone choice by itself
    state = pincer(terrain=ferry, hexsides=crossing, exclusive={"ferries": {"hexes": ["0604"]}}, options={"auto_single_choice": True})
    state, events = attack(state, ["a", "b"], ["0505"], die=4)
    assert UnitEliminated(unit="d", case="19.13") in events


def test_a_unit_is_forced_into_a_ferry_hex_only_when_nothing_else_is_open_19_13():
    # 19.13 "forced to retreat into a Ferry Hex" (ruling, docs/RULINGS.md): with another hex open the
    # ferry hex is not offered; with only a friendly full hex beside it, the unit displaces (7.81)
    # rather than drown
    ferry = {"0604": "ferry"}
    crossing = sides({("0505", "0604"): {"ferry_crossing"}, ("0604", "0704"): {"ferry_crossing"}})
    rules_ = {"ferries": {"hexes": ["0604"]}}
    units = [union("a", "0404", strength=12), rebel("d", "0505", strength=1)]
    state = to_phase(start(units, hexes=board(terrain=ferry), hexsides=crossing, exclusive=rules_))
    state, _ = attack(state, ["a"], ["0505"], die=4)  # 12-1, Dr
    assert options(state) == [("0605", None, False), ("0506", None, False)]
    units = [*units, rebel("f1", "0605"), rebel("f2", "0605")]
    state = to_phase(start(units, hexes=board(terrain={**ferry, "0506": "river"}), hexsides=crossing, exclusive=rules_))
    state, _ = attack(state, ["a"], ["0505"], die=4)
    assert options(state) == [("0605", "f1", False), ("0605", "f2", False)]


def test_union_artillery_is_eliminated_instead_of_retreating_and_may_not_advance():
    # 16.11: "If forced to retreat due to combat, these artillery units are eliminated instead. These
    # artillery units may not advance after combat in any attack."
    guns = {"immobile_artillery": {"side": "union", "except": ["sherman"]}}
    units = [union("gun", "0404", type_="artillery", strength=1), rebel("r", "0505", strength=12), union("far", "0808")]
    state = to_phase(start(units, exclusive=guns, first_player="confederate"), side="confederate")
    state, events = attack(state, ["r"], ["0404"], die=4)  # 6-1, Dr
    assert UnitEliminated(unit="gun", case="16.11") in events
    units = [union("gun", "0404", type_="artillery", strength=8), union("u", "0604", strength=8), rebel("d", "0505", strength=1)]
    state = to_phase(start([*units, rebel("far", "0101")], exclusive=guns))
    state, _ = attack(state, ["gun", "u"], ["0505"], die=1)  # De
    assert [(o.unit, o.to) for o in choices(state).decision.options] == [("u", "0505")]
    assert refused(state, Advance("gun", "0505")).case == "16.11"


def test_one_victorious_unit_may_advance_into_a_vacated_hex():
    # 7.75, 7.76: one unit, one hex, decided before any other combat; never forced
    units = [union("x", "0404", strength=6), union("y", "0604", strength=6), rebel("d", "0505", strength=1)]
    state = to_phase(start([*units, rebel("far", "0101")]))
    state, _ = attack(state, ["x", "y"], ["0505"], die=1)  # De
    assert state.pending == [PendingAdvance(side="union", units=("x", "y"), hexes=("0505",))]
    assert refused(state, DeclareAttack(("x",), ("0101",))).case == "4.1"  # decided before other combat
    assert refused(state, Advance("y", "0506")).case == "7.75"
    state, events = execute(state, Advance("y", "0505"))
    assert events == [UnitAdvanced(unit="y", path=("0604", "0505"))]
    assert not state.pending and "y" in state.advanced  # 7.76: only one
    state = to_phase(start([*units, rebel("far", "0101")]))
    state, _ = attack(state, ["x", "y"], ["0505"], die=1)
    state, _ = execute(state, Decline())
    assert not state.pending and state.positions["x"] == "0404"


def test_an_advance_ignores_zones_of_control_and_may_cut_off_a_retreat():
    # 7.75: "This advance may be made regardless of Enemy Zones of Control ... advances are useful in
    # cutting off the retreat of Enemy units whose combat has not yet been resolved"
    units = [union("a", "0404", strength=12), union("b", "0707", strength=12)]
    rebels = [rebel("d1", "0505", strength=1), rebel("d2", "0606", strength=1), rebel("z", "0604")]
    state = to_phase(start([*units, *rebels]))
    state, _ = attack(state, ["a"], ["0505"], die=1)  # 6-1, De
    state, _ = execute(state, Advance("a", "0505"))  # into z's zone of control
    state, _ = attack(state, ["b"], ["0606"], die=4)  # 6-1, Dr
    assert options(state) == [("0507", None, False)]  # 0605 and 0506 are now in a's zone


def test_advanced_units_neither_attack_nor_are_attacked_again():
    # 7.75: after advancing, units may neither attack nor be attacked that phase. Ruling: after an Ar
    # one defending unit may advance into the attackers' hex.
    units = [union("a", "0404", strength=4), union("u", "0304"), rebel("d", "0505", strength=4), rebel("far", "0808")]
    state = to_phase(start(units))
    state, _ = attack(state, ["a"], ["0505"], die=5)  # 1-1, Ar
    state, _ = execute(state, Retreat("a", "0403"))
    assert state.pending == [PendingAdvance(side="confederate", units=("d",), hexes=("0404",))]
    assert to_act(state) == "confederate"
    state, _ = execute(state, Advance("d", "0404"))
    assert state.positions["d"] == "0404" and "d" in state.advanced
    assert refused(state, DeclareAttack(("u",), ("0404",))).case == "7.75"
    assert choices(state).may_end_phase  # u is next to d, which may not be attacked


def test_retreat_and_advance_use_no_movement_quota_and_take_control():
    # 17.13: units which advance or retreat do not count against the quota; 17.15 (Ruling): a hex
    # entered by an advance is moved through
    quota = {"movement_quota": {"side": "union", "units": 1, "bonus_units": 0, "bonus_hex": "0505"}}
    units = [union("a", "0404", strength=12), rebel("d", "0505", strength=1), rebel("far", "0101")]
    state = to_phase(start(units, exclusive=quota))
    assert state.control["0505"] == "confederate"
    state, _ = attack(state, ["a"], ["0505"], die=1)  # De
    state, _ = execute(state, Advance("a", "0505"))
    assert state.control["0505"] == "union"
    assert state.moved == set() and state.game.battle.movement_quota.used(state) == 0


def test_a_unit_retreated_into_a_hex_bombarded_later_suffers_but_adds_nothing():
    # 7.74
    units = [
        union("a", "0404", strength=12),
        union("gun", "0805", type_="artillery", strength=4),
        rebel("d", "0505", strength=3),
        rebel("f", "0605", strength=1),
    ]
    state = to_phase(start(units))
    state, _ = attack(state, ["a"], ["0505"], die=4)  # 4-1, Dr
    state, _ = execute(state, Retreat("d", "0605"))
    state, _ = execute(state, Decline())
    state, events = attack(state, ["gun"], ["0605"], die=1)  # 4 against f's 1 only: 4-1, De
    declared = events[0].attack
    assert (declared.defence, declared.passive) == (1, ("d",))
    assert {"d", "f"} <= set(state.eliminated)


def test_a_lone_choice_may_apply_itself():
    # 7.71 with the game option auto_single_choice: a retreat with one legal hex is made at once
    state = pincer(options={"auto_single_choice": True})
    state, events = attack(state, ["a", "b"], ["0505"], die=4)
    assert UnitRetreated(unit="d", path=("0505", "0604")) in events
    assert isinstance(state.pending[0], PendingAdvance)


def test_offered_retreats_are_accepted():
    # 7.71: every offered retreat is accepted by decide
    state = pincer(more=[rebel("f1", "0604"), rebel("f2", "0604")])
    state, _ = attack(state, ["a", "b"], ["0505"], die=4)
    for o in choices(state).decision.options:
        assert isinstance(o, RetreatOption)
        assert decide(state, Retreat("d", o.to, o.displace))
