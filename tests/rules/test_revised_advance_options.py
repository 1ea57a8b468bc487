"""The advances offered after combat are the ones the rules accept (revised 9.47, 12.35): found by the
Chickamauga self-play (greedy seed 15: a Routed McNair offered an advance and refused it)."""

from __future__ import annotations

from rules.core.decisions import PendingAdvance
from rules.core.game import Game
from rules.procedures.retreat import AdvanceOption, advance_options
from rules.reducer import new_game
from rules.rulesets import get as get_ruleset
from tests.rules.rulesmaps import rebel, scenario, union


def test_a_routed_unit_or_artillery_is_never_offered_an_advance_9_47_12_35():
    units = [rebel("inf", "0404"), rebel("routed", "0405"), rebel("gun", "0504", type_="artillery"), union("far", "0808")]
    state = new_game(Game(scenario(units, first_player="confederate"), get_ruleset("revised")))
    state.morale["routed"] = "routed"
    head = PendingAdvance(side="confederate", units=("inf", "routed", "gun"), hexes=("0505",))
    assert advance_options(state, head) == [AdvanceOption("inf", "0505")]
