"""Artillery (1975 8.0–8.5; Chattanooga 16.12), each case on a small map.

From 0404 the line of sight to 0704 (range 3) crosses 0504 and 0604; the line to 0604 (range 2) runs
along the hexside between 0504 and 0505 (the congruent case of 8.32).
"""

from combatmaps import attack, declare, refused, to_phase
from rulesmaps import board, rebel, sides, start, union

from rules.combat_choices import preview
from rules.core.commands import DeclareAttack, Decline, EndPhase, Retreat
from rules.core.decisions import PendingRetreat
from rules.legal import choices
from rules.reducer import execute


def battery(target="0704", terrain=None, more=(), gun_strength=4, **kw):
    """A Union battery at 0404 and a Confederate 1 at ``target``; the Union Combat Phase."""
    units = [union("gun", "0404", type_="artillery", strength=gun_strength), rebel("t", target, strength=1), *more]
    return to_phase(start(units, hexes=board(10, 10, terrain=terrain or {}), **kw))


def may_fire(state, target="0704", gun="gun") -> bool:
    return preview(state, [gun], [target]).odds is not None


def test_range_is_two_or_three_hexes_counting_the_target():
    # 8.11: up to three hexes distant; 8.12: counting the target hex, not the artillery's
    assert may_fire(battery("0704"))
    assert may_fire(battery("0604"), "0604")
    state = battery("0804")
    assert refused(state, DeclareAttack(("gun",), ("0804",))).case == "8.11"


def test_artillery_is_never_forced_to_bombard():
    # 8.11: "they are never forced to attack an Enemy unit merely because it is in range"
    state = battery("0704")
    assert choices(state).may_end_phase
    state, _ = execute(state, EndPhase())
    assert state.phasing == "confederate"


def test_forest_forest_rough_and_town_block_the_line_of_sight_rough_does_not():
    # 8.31, 8.33
    for kind, blocked in [("forest", True), ("forest_rough", True), ("town", True), ("rough", False), ("clear", False)]:
        state = battery("0704", terrain={"0504": kind})
        assert may_fire(state) is not blocked, kind
    state = battery("0704", terrain={"0604": "town"})
    assert refused(state, DeclareAttack(("gun",), ("0704",))).case == "8.31"


def test_the_firers_and_the_targets_hexes_never_block():
    # 8.34
    assert may_fire(battery("0704", terrain={"0404": "town", "0704": "forest"}))


def test_a_line_along_a_hexside_is_blocked_only_when_both_hexes_block():
    # 8.32: congruent to a hexside: blocked only if both hexes beside it are blocking terrain
    assert may_fire(battery("0604", terrain={"0504": "forest"}), "0604")
    assert may_fire(battery("0604", terrain={"0505": "town"}), "0604")
    assert not may_fire(battery("0604", terrain={"0504": "forest", "0505": "town"}), target="0604")


def test_artillery_fires_over_units():
    # 8.35: over other units, Enemy and/or Friendly
    assert may_fire(battery("0704", more=[rebel("between", "0604")]))
    assert may_fire(battery("0704", more=[union("friend", "0504")]))


def test_bombardment_alone_attacks_one_hex():
    # 8.13
    state = battery("0704", more=[rebel("t2", "0604")])
    assert refused(state, DeclareAttack(("gun",), ("0704", "0604"))).case == "8.13"


def test_two_batteries_of_one_hex_bombard_the_same_hex():
    # 8.14 (and 7.22)
    state = battery("0704", more=[union("gun2", "0404", type_="artillery", strength=2)])
    assert refused(state, DeclareAttack(("gun",), ("0704",))).case == "8.14"
    assert preview(state, ["gun", "gun2"], ["0704"]).attack == 6


def test_bombarding_artillery_suffers_no_result_but_may_elect_to_retreat():
    # 8.15: never destroyed or retreated by its own attacks; 8.16: may elect to suffer an Ar
    state = battery("0704", gun_strength=1, more=[rebel("big", "0704", strength=6)])
    state, _ = attack(state, ["gun"], ["0704"], die=4)  # 1-5, Ae
    assert "gun" in state.positions and not state.pending
    state = battery("0704", gun_strength=1)
    state, _ = attack(state, ["gun"], ["0704"], die=1)  # 1-1, Dr
    state = battery("0704", gun_strength=1, more=[rebel("big", "0704", strength=2)])
    state, _ = attack(state, ["gun"], ["0704"], die=5)  # 1-3, Ar
    assert state.pending[0] == PendingRetreat(side="union", unit="gun", cause="bombardment", optional=True)
    assert choices(state).decision.optional
    kept, _ = execute(state, Decline())
    assert kept.positions["gun"] == "0404" and not kept.pending
    moved, _ = execute(state, Retreat("gun", "0403"))
    assert moved.positions["gun"] == "0403"


def test_combined_attacks():
    # 8.21, 8.22: artillery joins adjacent units; in range of one of the defending hexes is enough;
    # 8.23: infantry suffers all results, bombarding artillery does not
    units = [
        union("x", "0505", strength=2),
        union("gun", "0303", type_="artillery", strength=4),
        rebel("e1", "0405", strength=1),
        rebel("e2", "0606", strength=4),
    ]
    state = to_phase(start(units, hexes=board(10, 10)))
    assert refused(state, DeclareAttack(("x", "gun"), ("0405", "0606"))).case == "7.25"  # x is not next to 0606
    units = [union("x", "0505", strength=2), union("gun", "0303", type_="artillery", strength=4)]
    units += [rebel("e1", "0405", strength=1), rebel("e2", "0506", strength=4)]
    state = to_phase(start(units, hexes=board(10, 10)))
    p = preview(state, ["x", "gun"], ["0405", "0506"])  # gun reaches 0405 only
    assert (p.attack, p.defence, p.odds) == (6, 5, "1-1")
    state, _ = attack(state, ["x", "gun"], ["0405", "0506"], die=4)  # 1-1, Ar
    assert [p.unit for p in state.pending if isinstance(p, PendingRetreat) and not p.optional] == ["x"]


def test_artillery_in_an_enemy_zone_attacks_like_infantry():
    # 8.41: must take part in an attack on adjacent units and may not bombard; 8.42: only adjacent
    # units; 8.43: suffers every result
    units = [union("gun", "0404", type_="artillery", strength=2), rebel("d", "0505", strength=2), rebel("far", "0704")]
    state = to_phase(start(units, hexes=board(10, 10)))
    assert refused(state, EndPhase()).case == "7.12"
    assert refused(state, DeclareAttack(("gun",), ("0704",))).case == "8.41"
    state, _ = attack(state, ["gun"], ["0505"], die=5)  # 1-1, Ar
    assert state.pending[0] == PendingRetreat(side="union", unit="gun")


def test_terrain_does_not_prohibit_adjacent_artillery_attacks():
    # 8.44: an adjacent attack needs no line of sight
    units = [union("gun", "0404", type_="artillery", strength=2), rebel("d", "0505", strength=2)]
    state = to_phase(start(units, hexes=board(terrain={"0505": "town", "0404": "forest"})))
    assert preview(state, ["gun"], ["0505"]).odds == "1-2"


def test_artillery_across_a_creek_may_bombard_the_adjacent_enemy():
    # 8.45: across a creek hexside from the only adjacent enemy unit, it bombards (that unit included)
    creek = sides({("0404", "0505"): {"creek"}})
    units = [union("gun", "0404", type_="artillery", strength=2), rebel("d", "0505", strength=1), rebel("far", "0606")]
    state = to_phase(start(units, hexsides=creek))
    assert preview(state, ["gun"], ["0505"]).odds == "2-1"
    state, _ = declare(state, ["gun"], ["0505"])
    assert state.pending[0].bombarding == ("gun",)


def test_artillery_never_adds_to_a_defence():
    # 8.51: bombardment only in its own Combat Phase; the defence is the defenders' own strength
    units = [union("a", "0404", strength=4), rebel("d", "0505", strength=2), rebel("cgun", "0606", type_="artillery", strength=3)]
    state = to_phase(start(units))
    assert preview(state, ["a"], ["0505"]).defence == 2
    assert refused(state, DeclareAttack(("cgun",), ("0404",))).case == "7.0"


def test_bombarded_artillery_suffers_results():
    # 8.52: artillery units attacked suffer all results, even when bombarded
    units = [union("gun", "0404", type_="artillery", strength=4), rebel("cgun", "0704", type_="artillery", strength=1)]
    state = to_phase(start(units))
    state, _ = attack(state, ["gun"], ["0704"], die=2)  # 4-1, De
    assert "cgun" in state.eliminated


def test_union_artillery_that_may_not_move_still_fires():
    # 16.12: Union artillery functions in the same fashion as other artillery in every other way
    guns = {"immobile_artillery": {"side": "union", "except": ["sherman"]}}
    state = battery("0704", exclusive=guns)
    assert may_fire(state)
