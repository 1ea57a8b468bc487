"""Activation of early reinforcements (Road to Richmond 17.4, 17.5, 22.14).

    [exclusive.early_arrival]
    side = "confederate"
    areas = ["south_of_the_chickahominy"]
    near = [{ hexes = ["2426", "1826"], within = 6 }]
    schedule = [{ turn = 13, after = 1 }, { turn = 14, after = 2 }, { turn = 15, after = 3 }, { turn = 18, after = 6 }]
    points = { union = 5 }

17.4: activation happens the first time a unit of ``side`` "exists during some part of its Movement or
Combat Phase" on a hex of one of the map's ``areas`` (i) south of the Chickahominy) or within
``within`` hexes (inclusive) of one of ``near``'s hexes (ii) 2426, 1826). 17.5: the reinforcements of
each scheduled chart Game-Turn (both sides') "may arrive" ``after`` Game-Turns after the Game-Turn of
activation (never later than the chart's). 22.14: ``points`` to each side named when activation happens.

Activation is recorded by its award (``VictoryPointsAwarded`` kind ``early_arrival``, subject the
Game-Turn; ``state.scored`` keeps ``early_arrival:<turn>``): rules/mechanisms/early_arrival.py.
"""

from __future__ import annotations

import msgspec

from rules.core.components.values import AreaName, Component, Count, HexNumber
from rules.core.marks import marks
from rules.core.scenario import Side

ACTIVATED = "early_arrival:"


class Near(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """17.4 ii): within ``within`` hexes (inclusive) of one of ``hexes``."""

    hexes: list[HexNumber]
    within: Count


class Advance(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """17.5: the reinforcements of chart Game-Turn ``turn`` may arrive ``after`` Game-Turns after activation."""

    turn: Count
    after: Count


class EarlyArrival(Component, frozen=True):
    side: Side
    schedule: list[Advance]
    areas: list[AreaName] = []
    near: list[Near] = []
    points: dict[Side, Count] = {}

    def brings_forward(self, turn: int) -> bool:
        """22.14 "triggers Early Arrival": does an activation on Game-Turn ``turn`` bring some scheduled
        reinforcement forward (``turn + after`` before its chart's Game-Turn)? Later, it is no activation."""
        return any(turn + a.after < a.turn for a in self.schedule)

    def activated(self, scored: set[str]) -> int | None:
        """The Game-Turn of activation, or None."""
        turns = [int(m) for m in marks(scored, ACTIVATED)]
        return min(turns) if turns else None

    def arrival(self, chart_turn: int, scored: set[str]) -> int:
        """17.5: the Game-Turn from which a reinforcement of ``chart_turn`` may arrive."""
        when = self.activated(scored)
        if when is None:
            return chart_turn
        for a in self.schedule:
            if a.turn == chart_turn:
                return min(chart_turn, when + a.after)
        return chart_turn
