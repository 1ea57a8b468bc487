"""The immobile artillery component (rules/core/components/immobile_artillery.py; Chattanooga
16.11-16.13), asked directly; the rules that use it: test_chattanooga_movement.py, test_retreat.py."""

from rulesmaps import rebel, start, union

from rules.core.components.immobile_artillery import ImmobileArtillery
from rules.core.scenario import Unit


def gun(uid: str, side: str = "union") -> Unit:
    return Unit(id=uid, side=side, type="artillery", strength=2, designation=uid, hex="0101")


def test_immobile_artillery_binds_the_sides_artillery_but_the_exceptions_16_11_16_13():
    guns = ImmobileArtillery(side="union", except_=["sherman"])
    assert guns.binds(gun("xi")) and guns.retreat_eliminates(gun("xi")) and guns.may_not_advance(gun("xi"))
    assert not guns.binds(gun("sherman"))  # 16.13
    assert not guns.binds(gun("rebel", side="confederate"))
    infantry = Unit(id="inf", side="union", type="infantry", strength=4, designation="inf", hex="0101")
    assert not guns.binds(infantry)


def test_immobile_artillery_refuses_a_move_16_11():
    state = start(
        [union("gun", "0101", type_="artillery"), rebel("c", "0808")],
        exclusive={"immobile_artillery": {"side": "union"}},
    )
    refusal = state.game.battle.immobile_artillery.restriction(state, "gun")
    assert (refusal.case, refusal.message) == ("16.11", "gun is Union artillery and may not be moved")
