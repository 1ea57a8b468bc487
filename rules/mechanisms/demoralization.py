"""An army's demoralization as it happens (Hooker and Lee 20.0): the battle rule of the
``[exclusive.demoralization]`` block, whose settings are rules/core/components/demoralization.py.

An ``after_command`` hook: after each command, for each army of the battle's ``demoralization`` block,
20.11 ii) the raised limit once all the units it names have crossed (``DemoralizationLimitRaised``),
then 20.13 "The effect of Demoralization is immediate": ``ArmyDemoralized`` when its losses have come to
exceed its limit, or (20.15) no longer exceed the raised one. The effects are read where they act:
rules/revised/combat_procedures.py (20.12 no advance, no voluntary attack below the least odds; 20.14
the automatic Attacker Retreat) and rules/procedures/victory.py (21.3).
"""

from __future__ import annotations

from rules.core.battle_rule import BattleRule
from rules.core.components.demoralization import DEMORALIZED, ON, RAISED
from rules.core.events import ArmyDemoralized, DemoralizationLimitRaised, Event
from rules.core.state import State


def record(state: State, events: list[Event], after: State) -> list[Event]:
    """20.11, 20.13, 20.15, 20.21: the changes the command brought about (``after``: the state after its
    events, kept up to date by the reducer as these are added)."""
    rule = state.game.battle.demoralization
    if rule is None or not events:
        return []
    game = state.game
    out: list[Event] = []
    for army in rule.armies:
        side = army.side
        limit = army.losses_above
        if army.raised is not None:
            if f"{RAISED}{side}" in after.scored:
                limit = army.raised.losses_above
            elif rule.crossed(after, side):  # 20.11 ii): "After all I Corps units cross the river"
                limit = army.raised.losses_above
                out.append(DemoralizationLimitRaised(side=side, limit=limit, case=game.case("demoralization.raised")))
        losses = rule.losses(after, side)
        now = losses > limit  # 20.11: "Union losses must exceed these totals"
        if now != rule.demoralized(after, side):
            case = game.case("demoralization" if now else "demoralization.recovered")
            out.append(ArmyDemoralized(side=side, demoralized=now, losses=losses, limit=limit, case=case))
    return out


def apply_limit_raised(state: State, event: DemoralizationLimitRaised) -> None:
    state.scored = state.scored | {f"{RAISED}{event.side}"}


def apply_demoralized(state: State, event: ArmyDemoralized) -> None:
    if event.demoralized:
        state.scored = state.scored | {f"{DEMORALIZED}{event.side}", f"{ON}{event.side}:{state.turn}"}
    else:
        state.scored = state.scored - {f"{DEMORALIZED}{event.side}"}


class DemoralizationRule(BattleRule):
    """The mechanism (rules/core/battle_rule.py): the changes after a command; ``late``, after the revised
    book's 12.17, where its table had it."""

    component = "demoralization"
    books = frozenset({"revised"})
    late = True
    evolvers = {
        DemoralizationLimitRaised: apply_limit_raised,  # 20.11 ii)
        ArmyDemoralized: apply_demoralized,  # 20.13, 20.15
    }

    def after_command(self, state: State, events: list[Event], after: State) -> list[Event]:
        return record(state, events, after)  # 20.11-20.21
