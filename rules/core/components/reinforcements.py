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

Road to Richmond 17.2: "Confederate Game-Turn One Reinforcements may move twice their normal Movement
Allowance on the first Game-Turn as long as they do not enter Union Zones of Control (first two units to
arrive: 12 Movement Points; second two units to arrive: 11 Movement Points; etc)": ``first_turn_march``
{side, multiplier}: on Game-Turn One the side's Game-Turn One reinforcements have ``multiplier`` times
their allowance (rules/procedures/movement.py ``allowance_now``; the revised 5.0 column costs one more
Movement Point a stack, hence 12, 11, ...) and may not enter an enemy zone of control that Game-Turn
(rules/procedures/night.py ``zoc_rules``).

    [exclusive.reinforcements]
    first_turn_march = { side = "confederate", multiplier = 2 }

Road to Richmond 17.32: "Arriving on Game-Turn Two on hex 1301 (or hex 1901 if occupied or in the Zone
of Control of a Union unit)": ``alternate_entry`` [{hex, if_occupied_or_controlled}]: ``hex`` is an entry
hex of the units that list it only while ``if_occupied_or_controlled`` holds an enemy unit or lies in an
enemy zone of control (rules/procedures/reinforcements.py ``alternate_entry_closed``); the other hex
stays open as the rule set allows (revised 5.4: into an enemy zone of control, never an enemy's hex).

    [exclusive.reinforcements]
    alternate_entry = [{ hex = "1901", if_occupied_or_controlled = "1301" }]
"""

from __future__ import annotations

from typing import Literal

import msgspec

from rules.core.components.values import Component, HexNumber
from rules.core.scenario import Side, Unit

Direction = Literal["north", "south", "east", "west"]


class WhenBlocked(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Cemetery Hill 18.1: where a side's blocked reinforcements arrive instead: the next unblocked
    map-edge hex ``toward`` these directions ("and/or": any of them), a road hex when ``road``."""

    toward: list[Direction]
    road: bool = False


class FirstTurnMarch(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Road to Richmond 17.2: ``side``'s Game-Turn One reinforcements move ``multiplier`` times their
    Movement Allowance on Game-Turn One, "as long as they do not enter" enemy zones of control."""

    side: Side
    multiplier: int = 2


class AlternateEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Road to Richmond 17.32: "on hex 1301 (or hex 1901 if occupied or in the Zone of Control of a Union
    unit)": ``hex`` (1901) is open to entry only while ``if_occupied_or_controlled`` (1301) holds an
    enemy unit or is in an enemy zone of control."""

    hex: HexNumber
    if_occupied_or_controlled: HexNumber


class Reinforcements(Component, frozen=True):
    lost_if_not_entered: bool = False
    when_blocked: dict[Side, WhenBlocked] = {}
    interior_entry: list[HexNumber] = []
    first_turn_march: FirstTurnMarch | None = None
    alternate_entry: list[AlternateEntry] = []  # Road to Richmond 17.32

    def marching(self, turn: int, unit: Unit) -> bool:
        """Road to Richmond 17.2: does ``unit`` move with the doubled allowance now (a Game-Turn One
        reinforcement of the side, on Game-Turn One)?"""
        march = self.first_turn_march
        return march is not None and turn == 1 and unit.arrives == 1 and unit.side == march.side
