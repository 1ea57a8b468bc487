"""An army's rout (First Bull Run 18.0): the battle rule of the ``[exclusive.army_rout]`` block, whose
settings are rules/core/components/army_rout.py; an end-of-Game-Turn die roll under the revised rule set,
whose Shaken and Routed units (12.0) it counts."""

from __future__ import annotations

from rules.core.battle_rule import BattleRule
from rules.core.events import ArmyRoutChecked, Event, VictoryDetermined
from rules.core.scenario import SIDES, other_side
from rules.core.state import State
from rules.procedures.combat import roll
from rules.revised.morale import ROUTED, SHAKEN


def rout_check(state: State, dice) -> list[Event]:
    """First Bull Run 18.0 (the battle's ``army_rout``), as each Game-Turn ends: each Player rolls the
    die, adds one for each of his units Shaken or Routed and two for each eliminated; at the threshold
    or above his army routs. One army routed: its opponent's Decisive Victory; both: a Draw
    (``VictoryDetermined``; rules/procedures/sequence.py then ends the game, "play stops")."""
    rule = state.game.battle.army_rout
    if rule is None or state.game_over or state.result is not None:
        return []
    game = state.game
    case = game.case("army_rout")
    out: list[Event] = []
    routed = []
    for side in (game.scenario.first_player, other_side(game.scenario.first_player)):
        die = roll(dice, "the rout check (18.0)")
        poor = sum(1 for u in state.positions if game.units[u].side == side and state.morale.get(u) in (SHAKEN, ROUTED))
        lost = sum(1 for u in state.eliminated if game.units[u].side == side)
        total = rule.total(die, poor, lost)
        fled = total >= rule.at_least
        out.append(ArmyRoutChecked(side=side, roll=die, shaken_or_routed=poor, eliminated=lost, total=total, routed=fled, case=case))
        if fled:
            routed.append(side)
    level = rule.level(routed)
    if level is not None:
        totals = {s: state.vp.get(s, 0) for s in SIDES}
        out.append(VictoryDetermined(union=totals["union"], confederate=totals["confederate"], differential=totals["union"] - totals["confederate"], level=level))
    return out


def apply_rout_checked(state: State, event: ArmyRoutChecked) -> None:
    """18.0: the check changes nothing by itself (a rout is the ``VictoryDetermined`` that follows)."""


class ArmyRoutRule(BattleRule):
    """The mechanism (rules/core/battle_rule.py): the rout check as each Game-Turn ends."""

    component = "army_rout"
    books = frozenset({"revised"})  # it counts the revised book's Shaken and Routed units (12.0)
    evolvers = {ArmyRoutChecked: apply_rout_checked}  # 18.0

    def end_of_game_turn_rolls(self, state: State, dice) -> list[Event]:
        return rout_check(state, dice)  # 18.0
