"""Reinforcements lost if not entered (Chattanooga 15.12): a reinforcement that cannot enter on its
Game-Turn is eliminated (and counts for the enemy's Victory Points, 20.11). Without it (the revised
book, 5.0-5.5) a reinforcement may be held back and enter later.

    [exclusive.reinforcements]
    lost_if_not_entered = true

Cemetery Hill 18.1, instead of the revised 5.4 and 5.5: "If a Reinforcement hex is controlled or
occupied by an Enemy unit, the Reinforcement units are delayed one Game-Turn. Union arrival is on the
next unblocked map edge road hex to the south and/or east of the original entry hex. Confederate
arrival must be on the next unblocked map edge hex north and/or west of the original entry hex."
``when_blocked`` {side: {toward, road}}: no reinforcement of the side enters at a hex in an enemy zone
of control (nor, as ever, one holding an enemy unit); one whose entry hexes all are so at the end of
its Movement Phase is delayed, and on a later Game-Turn enters only at the nearest map-edge hex (a road
hex with ``road``) lying ``toward`` one of the directions (north, south, east, west) from its entry hex
that is then neither enemy-occupied nor enemy-controlled (rules/revised/movement.py).

    [exclusive.reinforcements]
    when_blocked = { union = { toward = ["south", "east"], road = true }, confederate = { toward = ["north", "west"] } }

Road to Richmond 17.31: some Union corps "arrive" in their own lines, at hexes inside the map (0410,
0412-0419). ``interior_entry``: the entry hexes of the charts that are not on the map edge; the
validator refuses any other entry hex off the edge (15.0). Entering there is entering at any entry
hex (5.0-5.4).

    [exclusive.reinforcements]
    interior_entry = ["0410", "0412", "0414", "0416", "0417", "0418", "0419"]
"""

from __future__ import annotations

from typing import Literal

import msgspec

from rules.core.components.values import Component, HexNumber
from rules.core.scenario import Side

Direction = Literal["north", "south", "east", "west"]


class WhenBlocked(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Cemetery Hill 18.1: where a side's blocked reinforcements arrive instead: the next unblocked
    map-edge hex ``toward`` these directions ("and/or": any of them), a road hex when ``road``."""

    toward: list[Direction]
    road: bool = False


class Reinforcements(Component, frozen=True):
    lost_if_not_entered: bool = False
    when_blocked: dict[Side, WhenBlocked] = {}
    interior_entry: list[HexNumber] = []
