"""A line of communications traced at the end of the game, in one of two forms.

Chickamauga 21.32 (``exits``): every unit of ``side``, and every reinforcement of its that has not
entered the map (traced from its entry hexes), needs a path of at most ``path_hexes`` hexes, through no
enemy unit (enemy zones of control do not block it), to a road that leads through contiguous road hexes
off the map at one of ``exits``.

Antietam 19.1 (``hexes``, ``enemy_zoc_blocks``): "a series of contiguous hexes free of Enemy units or
Enemy Zones of Control to hex 0126. Friendly units do not negate Enemy Zones of Control for this
purpose": every unit of ``side`` on the map needs a path, of any length unless ``path_hexes`` is
given, to one of ``hexes``, through no hex holding an enemy unit and, with ``enemy_zoc_blocks``, none
in an enemy zone of control; ``reinforcements_not_entered = false`` when only units on the map trace.

A unit that cannot trace one "is considered eliminated for ... Victory" purposes: the enemy scores it
as eliminated (rules/procedures/victory.py; the tracing is rules/queries/communications.py).

    [exclusive.line_of_communications]
    side = "union"
    exits = ["0101", "0111"]
    path_hexes = 10

    [exclusive.line_of_communications]
    side = "confederate"
    hexes = ["0126"]
    enemy_zoc_blocks = true
    reinforcements_not_entered = false
"""

from __future__ import annotations

from rules.core.components.values import Component, Count, HexNumber
from rules.core.scenario import Side


class LineOfCommunications(Component, frozen=True):
    side: Side
    exits: list[HexNumber] = []
    hexes: list[HexNumber] = []
    path_hexes: Count | None = None
    enemy_zoc_blocks: bool = False
    reinforcements_not_entered: bool = True

    def __post_init__(self):
        if bool(self.exits) == bool(self.hexes):
            raise ValueError("give either exits (a road off the map, 21.32) or hexes (the hexes traced to, 19.1)")
