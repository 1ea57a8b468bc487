"""An army that routs and flees the battlefield (First Bull Run 18.0: "At the end of each Game-Turn, each
Player rolls the die. Each Player adds one to the die roll result for each of his units that has been
Shaken or Routed, and two for each of his units that has been eliminated. If the result is 17 or more,
that Player's army has routed and fled the battlefield; play stops and his opponent has achieved a
Decisive Victory. Note that both armies may rout on the same Game-Turn in which case the result is a
Draw.").

    [exclusive.army_rout]
    at_least = 17
    per_shaken_or_routed = 1
    per_eliminated = 2
    levels = { union = "Confederate Decisive Victory", confederate = "Union Decisive Victory" }
    both = "Draw"

``levels``: the level of victory when that side's army routs (its opponent's Decisive Victory). The
check is rules/procedures/victory.py ``rout_check`` (an end-of-Game-Turn step that rolls, the final
Game-Turn's included): ``ArmyRoutChecked`` for each side, the Union first; when an army routs,
``VictoryDetermined`` with the level and ``GameEnded`` reason ``automatic_victory`` ("play stops").
Ruling (docs/RULINGS.md, "First Bull Run"): "units that has been Shaken or Routed" counts the units
on the map that are Shaken or Routed as the Game-Turn ends (a rallied unit no longer counts; an
eliminated one counts two, as eliminated, not three). Revised rule set only (Shaken and Routed are
its morale levels, 12.0).
"""

from __future__ import annotations

from rules.core.components.values import Component, Count
from rules.core.scenario import Side


class ArmyRout(Component, frozen=True):
    levels: dict[Side, str]
    both: str = "Draw"
    at_least: Count = 17
    per_shaken_or_routed: Count = 1
    per_eliminated: Count = 2

    def total(self, roll: int, shaken_or_routed: int, eliminated: int) -> int:
        """18.0: the die roll plus one a Shaken or Routed unit and two an eliminated one."""
        return roll + self.per_shaken_or_routed * shaken_or_routed + self.per_eliminated * eliminated

    def level(self, routed: list[str]) -> str | None:
        """18.0: the level of victory when the sides ``routed`` have routed (both: a Draw); None: none."""
        if not routed:
            return None
        return self.both if len(routed) > 1 else self.levels[routed[0]]
