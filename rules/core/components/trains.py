"""Trains (Chickamauga 19.0, the Union "Train"): non-combat units of the rear echelon.

    [exclusive.trains]
    units = ["us-train"]

What a train is, case by case (the rules that read this component cite them):
- 19.11 it may never attack; 19.3 it has no zone of control, so enemy units move adjacent to it or past
  it freely and need not attack it (rules/queries/zoc.py, rules/procedures/combat.py);
- 19.11 beside an enemy unit in its side's Combat Phase it retreats (rules/procedures/trains.py);
- 19.21, 19.23, 19.24 it retreats only through road or trail hexsides, never into an occupied hex, and
  no unit retreats into its hex; it never displaces nor is displaced (rules/procedures/retreat.py);
- 19.21 it never stacks: no unit may end a move in its hex nor it in an occupied one; 19.22 no unit may
  move through its hex, nor it through an occupied hex (rules/procedures/movement.py);
- 19.23 it moves only along roads and trails (rules/core/game.py ``steps_for``), never strategically
  (rules/revised/movement.py).
Its defence strength (19.12) and Movement Allowance (19.23) are the order of battle's.

Road to Richmond 21.0 (the Union "Train" and "Siege Train"): the same rules for its Train, but
- ``displacement = true`` (21.16: "The Train unit may Displace and be Displaced as a consequence of
  combat"; Chickamauga 19.24 forbids both: default false): a hex holding a unit is then full for a
  retreating train (21.13: it stacks with none), and a train's hex full for a retreating unit, so each
  may displace the other (7.81, rules/procedures/retreat.py);
- ``beside_across_creeks = false`` (21.11: it retreats when beside a Confederate unit "that is not on the
  other side of a non-bridge or ford creek (not stream) hex side"; default true: Chickamauga 19.11 says
  only "adjacent");
- ``road_only`` (21.23, its movement: "The Union Siege Train artillery unit may only move along roads
  and trails, and if forced to retreat off of a road or trail, is eliminated"): units that are not
  trains but move and retreat only along roads and trails (``Game.road_bound``).

    [exclusive.trains]
    units = ["us-train"]
    displacement = true
    beside_across_creeks = false
    road_only = ["us-siege-train"]

The Wilderness 18.3 (the Union "Train Defence" units, "the actual brigades and the various supply wagons"):
the same rules (18.31 never attack, retreat when beside an enemy in the Union Combat Phase; 18.33 no
stacking; 18.34 roads and trails only, eliminated when forced off them; 18.35 ``displacement = true``),
but
- ``zone_of_control = true``: the text never takes their zone of control away (Chickamauga 19.3 does:
  default false), so they exert one as any unit and bind enemies beside them to attack;
- ``enter_enemy_zoc = false`` (18.32: "The Train Defence units may never enter an Enemy controlled
  hex"; default true): a move, or an entry, into an enemy-controlled hex is refused;
- ``attacker_retreat = true`` (18.31: "it automatically suffers an Attacker Retreat combat result ... The
  Confederate unit(s) to which the unit was adjacent may advance after combat"; Chickamauga 19.11: "a
  Confederate unit may not advance into the vacated hex"; default false): after the train's automatic
  retreat the enemy units beside it may advance into its hex (rules/procedures/trains.py), and, the
  result being an Attacker Retreat, a train in an enemy controlled hex is Disordered (revised 12.11:
  rules/revised/combat_procedures.py ``train_attacker_retreat``).

    [exclusive.trains]
    units = ["us-td-1", "us-td-2"]
    displacement = true
    zone_of_control = true
    enter_enemy_zoc = false
    attacker_retreat = true

Road to Vicksburg 18.4 (the Union "Train", a symbolic unit: rules/core/components/symbolic_units.py):
"After this, the Train unit has a Movement Allowance of one hex per Game-Turn, but can only move along
roads": ``road_only`` with ``trails = false`` (default true: Chickamauga 19.23 "roads and trails"): the
trains and ``road_only`` units move and retreat along road hexsides only.

    [exclusive.trains]
    units = []
    road_only = ["us-train"]
    trails = false
"""

from __future__ import annotations

from rules.core.components.values import Component, UnitId


class Trains(Component, frozen=True):
    units: list[UnitId]
    displacement: bool = False
    beside_across_creeks: bool = True
    road_only: list[UnitId] = []
    zone_of_control: bool = False  # Wilderness 18.3 (true); Chickamauga 19.3: none
    enter_enemy_zoc: bool = True  # Wilderness 18.32 (false)
    attacker_retreat: bool = False  # Wilderness 18.31 (true): an Ar; Chickamauga 19.11: no advance
    trails: bool = True  # Road to Vicksburg 18.4 (false): "can only move along roads"; Chickamauga 19.23: and trails

    def is_train(self, unit_id: str) -> bool:
        return unit_id in self.units
