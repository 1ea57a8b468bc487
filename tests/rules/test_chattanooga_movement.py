"""Chattanooga's movement rules as scenario parameters: Union artillery (16.11–16.13), the Union
movement quota and control (17.11–17.16), night (17.2) and ferries (19.11, 19.12); each on a small
map built for the case, and the real scenario's start when it is present."""

import pytest
from rulesmaps import board, rebel, sides, start, union

from rules.core.commands import EndPhase, EnterReinforcement, MoveUnit
from rules.core.errors import RuleViolation
from rules.legal import choices, unit_moves
from rules.reducer import decide, execute
from rules.rulesets import get as get_ruleset

QUOTA = {
    "movement_quota": {
        "side": "union",
        "units": 11,
        "bonus_units": 7,
        "bonus_hex": "1010",
        "reinforcements_exempt_before_turn": 5,
    }
}
ARTILLERY = {"immobile_artillery": {"side": "union", "except": ["sherman"]}}
NIGHT = {"night_movement": {"immobile_sides": ["union"]}}


def refused(state, command) -> str:
    with pytest.raises(RuleViolation) as e:
        decide(state, command)
    return e.value.case


def to_turn(state, turn):
    while state.turn < turn:
        state, _ = execute(state, EndPhase())
    return state


def army(n=20, **kw):
    """``n`` Union infantry in rows 1 and 2 (u00..), a Confederate far away, on a 14x14 board."""
    units = [union(f"u{i:02d}", f"{i % 10 + 1:02d}{i // 10 + 1:02d}") for i in range(n)]
    return start([*units, rebel("c", "1414")], hexes=board(14, 14), **kw)


def move_down(state, unit):
    """Move a unit two hexes south, straight down its column."""
    h = state.positions[unit]
    column, row = h[:2], int(h[2:])
    return execute(state, MoveUnit(unit, (h, f"{column}{row + 1:02d}", f"{column}{row + 2:02d}")))[0]


def test_union_artillery_may_not_move():
    # 16.0, 16.11: no Union artillery units may be moved
    units = [union("gun", "0101", type_="artillery", strength=4), union("sherman", "0301", type_="artillery", strength=1)]
    state = start([*units, rebel("c", "0808"), rebel("cgun", "0606", type_="artillery")], exclusive=ARTILLERY)
    assert refused(state, MoveUnit("gun", ("0101", "0102"))) == "16.11"
    assert "gun" not in choices(state).moves


def test_sherman_moves_normally():
    # 16.13: the Union 1a "Sherman" may move normally
    units = [union("gun", "0101", type_="artillery"), union("sherman", "0301", type_="artillery", strength=1)]
    state = start([*units, rebel("c", "0808")], exclusive=ARTILLERY)
    assert decide(state, MoveUnit("sherman", ("0301", "0302")))


def test_confederate_artillery_moves():
    # 17.16: Confederate units have no extraordinary movement limitations (16.11 is Union only)
    state = start([union("u", "0101"), rebel("cgun", "0606", type_="artillery")], exclusive=ARTILLERY)
    state = to_turn(state, 1)
    state, _ = execute(state, EndPhase())
    state, _ = execute(state, EndPhase())
    assert decide(state, MoveUnit("cgun", ("0606", "0607")))


def test_union_moves_no_more_than_eleven_units():
    # 17.0, 17.11: during any one Movement Phase no more than eleven Union units
    state = army(exclusive=QUOTA)
    for i in range(11):
        state = move_down(state, f"u{i:02d}")
    assert refused(state, MoveUnit("u11", ("0202", "0203"))) == "17.11"
    assert choices(state).moves == {}
    assert choices(state).may_end_phase


def test_seven_more_while_the_union_controls_the_bonus_hex():
    # 17.14, 17.15: seven more while the Union controls the hex (a Union unit stands in it)
    units = [union(f"u{i:02d}", f"{i % 10 + 1:02d}{i // 10 + 1:02d}") for i in range(20)]
    units.append(union("holder", "1010"))
    state = start([*units, rebel("c", "1414")], hexes=board(14, 14), exclusive=QUOTA)
    for i in range(18):
        state = move_down(state, f"u{i:02d}")
    assert refused(state, MoveUnit("u18", ("0902", "0903"))) == "17.14"


def test_taking_the_bonus_hex_mid_phase_gives_the_extra_moves_at_once():
    # 17.14 ruling: the quota is checked at each move against control at that moment; the move
    # that takes the hex is one of the eleven
    state = army(n=20, exclusive=QUOTA)
    assert state.control == {"1010": None}  # never entered: nobody controls it (17.15 ruling)
    for i in range(10):
        state = move_down(state, f"u{i:02d}")
    state.positions["u19"] = "0910"  # (set up for the case) a unit next to 1010
    state, _ = execute(state, MoveUnit("u19", ("0910", "1010")))  # the 11th
    assert state.control["1010"] == "union"
    for i in range(10, 17):
        state = move_down(state, f"u{i:02d}")  # the 12th to the 18th
    assert refused(state, MoveUnit("u17", ("0802", "0803"))) == "17.14"


def test_control_is_the_last_side_to_move_through():
    # 17.15: control is having a unit in the hex or being the last to have a unit move through it;
    # losing it takes the extra moves away (17.14)
    state = army(n=12, exclusive=QUOTA)
    state.positions["u00"] = "0910"
    state, _ = execute(state, MoveUnit("u00", ("0910", "1010", "1110", "1210", "1310")))  # through
    assert state.control["1010"] == "union"
    state = to_turn(state, 1)
    state, _ = execute(state, EndPhase())
    state, _ = execute(state, EndPhase())  # Confederate movement
    state.positions["c"] = "1012"
    state, _ = execute(state, MoveUnit("c", ("1012", "1011", "1010", "0910")))
    assert state.control["1010"] == "confederate"
    state = to_turn(state, 2)
    for i in range(1, 12):
        state = move_down(state, f"u{i:02d}")
    assert refused(state, MoveUnit("u00", ("1310", "1311"))) == "17.11"


def test_reinforcements_outside_the_quota_until_game_turn_five():
    # 17.12: Game-Turn Two reinforcements do not count toward the quota until Game-Turn Five
    r = union("r", None, arrives=2, entry=["0114"])
    units = [union(f"u{i:02d}", f"{i % 10 + 1:02d}{i // 10 + 1:02d}") for i in range(12)]
    state = start([*units, r, rebel("c", "1414")], hexes=board(14, 14), turns=6, exclusive=QUOTA)
    state = to_turn(state, 2)
    for i in range(11):
        state = move_down(state, f"u{i:02d}")
    assert decide(state, EnterReinforcement("r", ("0114", "0113")))  # the 12th mover, outside the quota
    state, _ = execute(state, EnterReinforcement("r", ("0114", "0113")))
    state = to_turn(state, 4)
    for i in range(11):
        state = move_down(state, f"u{i:02d}")
    assert decide(state, MoveUnit("r", ("0113", "0112")))  # still outside on Game-Turn Four
    state = to_turn(state, 5)
    for i in range(11):
        state = move_down(state, f"u{i:02d}")
    assert refused(state, MoveUnit("r", ("0113", "0112"))) == "17.11"  # counted from Game-Turn Five


def test_confederates_have_no_quota():
    # 17.16: Confederate units do not have any extraordinary movement limitations
    units = [rebel(f"c{i:02d}", f"{i % 10 + 1:02d}{i // 10 + 1:02d}") for i in range(14)]
    state = start([*units, union("u", "1414")], hexes=board(14, 14), exclusive=QUOTA, first_player="confederate")
    for i in range(14):
        state = move_down(state, f"c{i:02d}")
    assert len(state.moved) == 14


def test_no_union_movement_at_night():
    # 17.2: no Union units may move during the night Game-Turns
    state = start([union("u", "0101"), rebel("c", "0808")], night_turns=[1], exclusive=NIGHT)
    assert refused(state, MoveUnit("u", ("0101", "0102"))) == "17.2"
    assert choices(state).moves == {}


def test_confederates_may_leave_but_not_enter_union_zones_at_night():
    # 17.2: Confederate units may move at night; they may not enter, but may exit, enemy ZOCs
    units = [union("u", "0105"), rebel("c", "0104"), rebel("d", "0101")]
    state = start(units, night_turns=[1], exclusive=NIGHT, first_player="confederate")
    assert decide(state, MoveUnit("c", ("0104", "0103", "0102")))  # leaves the zone
    assert refused(state, MoveUnit("c", ("0104", "0204"))) == "17.2"  # 0204 is controlled too
    assert refused(state, MoveUnit("d", ("0101", "0102", "0103", "0104"))) in {"17.2", "5.12"}
    assert "0204" not in unit_moves(state, "d")


def test_ferry_rules_of_chattanooga():
    # 19.0, 19.11: through ferry hexes only along their arrows, 3 MP; 19.12: never end the phase in one
    hexes = board(terrain={h: "river" for h in ("0203", "0303", "0403", "0503", "0603", "0703", "0803")})
    hexes["0103"] = "ferry"
    hexsides = sides({("0102", "0103"): {"ferry_crossing"}, ("0103", "0104"): {"ferry_crossing"}})
    exclusive = {"ferries": {"hexes": ["0103"]}}
    cases = {"classic": {"ferries": "19.11", "ferries.end": "19.12"}}
    state = start([union("u", "0102"), rebel("c", "0808")], hexes=hexes, hexsides=hexsides, exclusive=exclusive, cases=cases)
    assert decide(state, MoveUnit("u", ("0102", "0103", "0104")))[0].cost == 4
    assert refused(state, MoveUnit("u", ("0102", "0103"))) == "19.12"


def test_chattanooga_start():
    # 14.1, 14.2, 16.11, 17.11: the real scenario's start: Union artillery other than Sherman is not
    # offered, and every offered move is accepted
    loader = pytest.importorskip("scenarios.loader")
    from rules.core.game import Game
    from rules.reducer import new_game

    state = new_game(Game(loader.load("chattanooga"), get_ruleset("classic")))
    legal = choices(state)
    units = state.game.units
    assert all(units[u].side == "union" for u in legal.moves)
    assert not any(units[u].type == "artillery" and u != "us-sherman-art" for u in legal.moves)
    for unit, dests in legal.moves.items():
        for dest in list(dests.values())[:3]:
            assert decide(state, MoveUnit(unit, dest.path))
