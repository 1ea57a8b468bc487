"""A line of communications traced at the end of the game (Chickamauga 21.32): every unit of ``side``,
and every reinforcement of its that has not entered the map (traced from its entry hexes), needs a
path of at most ``path_hexes`` hexes, through no enemy unit (enemy zones of control do not block it),
to a road that leads through contiguous road hexes off the map at one of ``exits``. A unit that
cannot trace one "is considered eliminated for the purposes of Victory Conditions": the enemy scores
it as eliminated (rules/procedures/victory.py; the tracing is rules/queries/communications.py).

    [exclusive.line_of_communications]
    side = "union"
    exits = ["0101", "0111"]
    path_hexes = 10
"""

from __future__ import annotations

from rules.core.components.values import Component, Count, HexNumber
from rules.core.scenario import Side


class LineOfCommunications(Component, frozen=True):
    side: Side
    exits: list[HexNumber]
    path_hexes: Count = 10
