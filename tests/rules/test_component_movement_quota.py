"""The movement quota component (rules/core/components/movement_quota.py; Chattanooga 17.11-17.14), asked
directly on a small map; the rules that use it are in test_chattanooga_movement.py."""

from rulesmaps import board, rebel, start, union

from rules.core.commands import MoveUnit
from rules.core.components.movement_quota import MovementQuota
from rules.reducer import execute

QUOTA = {
    "side": "union",
    "units": 2,
    "bonus_units": 1,
    "bonus_hex": "0505",
    "reinforcements_exempt_before_turn": 3,
}


def game(units):
    return start([*units, rebel("c", "1010")], hexes=board(10, 10), exclusive={"movement_quota": QUOTA})


def test_the_quota_counts_the_side_and_not_early_reinforcements_17_11_17_12():
    state = game([union("a", "0101"), union("r", None, arrives=2, entry=["0101"]), rebel("x", "0808")])
    quota = state.game.battle.movement_quota
    assert quota.counts(state, "a") and not quota.counts(state, "x")
    assert not quota.counts(state, "r")  # 17.12: before Game-Turn 3
    assert quota.quota(state, "union") == 2 and quota.quota(state, "confederate") is None


def test_the_bonus_hex_adds_its_units_while_held_17_14():
    state = game([union("a", "0404"), union("b", "0101"), union("d", "0102")])
    quota = state.game.battle.movement_quota
    assert quota.remaining(state, "union") == 2
    state, _ = execute(state, MoveUnit("a", ("0404", "0505")))
    assert state.control["0505"] == "union" and quota.remaining(state, "union") == 2  # 3 - 1
    state, _ = execute(state, MoveUnit("b", ("0101", "0201")))
    state, _ = execute(state, MoveUnit("d", ("0102", "0202")))
    assert quota.remaining(state, "union") == 0
    assert quota.restriction(state, "a").case == "17.14"


def test_the_refusal_names_the_limit_17_11():
    state = game([union("a", "0101"), union("b", "0102"), union("d", "0103")])
    state, _ = execute(state, MoveUnit("a", ("0101", "0201")))
    state, _ = execute(state, MoveUnit("b", ("0102", "0202")))
    refusal = state.game.battle.movement_quota.restriction(state, "d")
    assert refusal.case == "17.11"
    assert refusal.message.endswith(
        "already moved 2 units this Movement Phase, his limit; 1 more while the Union controls 0505"
    )


def test_tracked_hex_is_the_bonus_hex_17_15():
    assert MovementQuota(side="union", units=1, bonus_hex="0505").tracked_hexes() == ("0505",)
    assert MovementQuota(side="union", units=1).tracked_hexes() == ()
