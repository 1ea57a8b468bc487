"""The night movement component (rules/core/components/night_movement.py; Chattanooga 17.2), asked
directly; the rules that use it: test_chattanooga_movement.py, test_revised_chattanooga.py."""

from rulesmaps import rebel, start, union

from rules.core.components.night_movement import NightMovement


def test_night_movement_binds_only_its_sides_and_only_at_night_17_2():
    night = {"night_movement": {"immobile_sides": ["union"]}}
    state = start([union("u", "0101"), rebel("c", "0808")], night_turns=[1], exclusive=night)
    component = state.game.battle.night_movement
    assert component == NightMovement(
        immobile_sides=["union"], may_exit_enemy_zoc=True, may_enter_enemy_zoc=True
    )
    assert component.restriction(state, "u").case == "17.2"
    assert component.restriction(state, "c") is None
    by_day = start([union("u", "0101"), rebel("c", "0808")], night_turns=[2], exclusive=night)
    assert by_day.game.battle.night_movement.restriction(by_day, "u") is None
