"""Units held until released (Road to Vicksburg 17.0-17.5): "several units have special restrictions that
inhibit their movement or attacks until they are released by a die roll or other condition ... Once
released, the restricted units become available in the Friendly Movement Phase and can move and attack
freely for the rest of the game."

    [[exclusive.restraints.held]]
    name = "Bowen"                          # 17.1: Bowen's division
    side = "confederate"
    commands = ["Bowen"]                    # the units of these commands (oob.toml command) ...
    within = 2                              # "No unit ... may move more than two hexes from its initial position"
    enemy_zoc = false                       # "... or enter an Enemy Zone of Control"
    released_by_attack_on = ["Bowen", "Loring"]   # i), ii): a unit of these attacked by an adjacent enemy unit
    release_roll = { turn = 3, on = [6] }   # iii): a die in the side's Movement Phase of Game-Turn Three
    released_on_turn = 4                    # iv): "Otherwise, in the Confederate Movement Phase of Game-Turn Four"

- ``units``: the units named, instead of or besides ``commands`` (17.3 ii: "The 2nd brigade and the 1st
  Wisconsin battery"; 17.5: "The 2nd Ohio battery").
- ``move`` false: the units may not move at all (17.5: "cannot move").
- ``released_by_enemy_within``: released once an enemy unit ends an enemy Player-Turn within this many
  hexes of the set-up hex of one of the units (17.5 i).
- ``double_quick`` {allowance, unit_types}: on the Game-Turn of the release, the units of these types have
  this Movement Allowance, not with Strategic Movement (19.51: "On the Game-Turn that Bowen's division
  is released, its infantry brigades can use 'double-quick time' ... a Movement Allowance of nine
  Movement Points. These units may not utilise double-quick time and Strategic Movement in the same
  Movement Phase").
- ``attack_halved``: while held, the units attack at half Combat Strength from adjacent hexes (17.3 i: "All
  units attack at half Combat Strength (in addition to any other adjustments)"; 17.0: "Such restrictions
  do not apply to bombardment attacks unless specifically stated").
- ``attacked_from``: "adjacent" (17.1 i: "attacked by an adjacent Union unit") or "any" (17.3 i: "attacked
  by a Confederate unit": a bombardment too), for ``released_by_attack_on``.
- ``unless_it_attacked``: the release by an attack holds only while no unit bound has taken part in a
  non-bombardment attack (17.3 i: "and no unit of the division has taken part in a non-bombardment
  attack"; ``RestraintAttacked`` records it).
- ``released_by_result`` {units, results}: released once one of ``units`` has suffered one of ``results``
  (the results of the attacks it took part in: 17.3 ii b: "after the 1st brigade has suffered a combat
  result of Ae or Ar").
- ``released_when_unblocked`` {area, units, commands, set_up_in}: released at the end of an enemy
  Player-Turn when no unit of the enemy force (its ``units``, the units of its ``commands``, and the units
  whose set-up hex is in the area ``set_up_in``) occupies or exerts a Zone of Control into a hex of
  ``area`` (17.3 release ii: "When Jackson's force, or its Zone of Control, no longer blocks the Middle
  Road east of Jackson's Creek at the end of a Confederate Player-Turn"; the text names neither the
  force's units nor the road's hexes: the owner's map supplies both as areas in the template).
- ``release_with``: released as well when one of these (by name) is (17.3 ii c): "until the 9th division is
  otherwise released"; 17.4: the 14th division's "release conditions are the same as for the 9th").

A move that leaves ``within`` hexes of the unit's set-up hex, or enters an enemy zone of control without
``enemy_zoc``, is refused (case ``restraints``); retreats and advances after combat are not moves. The
battle rule is rules/mechanisms/restraints.py (its hooks: what holds a unit, and the releases,
``RestraintReleased``, ``RestraintRolled``, kept in ``state.released`` as ``restraint:<name>`` and in
``state.scored``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import msgspec

from rules.core.components.values import AreaName, Component, Count, DieFace, UnitId
from rules.core.scenario import Side, Unit, UnitType

if TYPE_CHECKING:
    from rules.core.state import State

RELEASED = "restraint:"
ROLLED = "restraint_rolled:"
RELEASED_ON = "restraint_turn:"
ATTACKED = "restraint_attacked:"


class ReleaseRoll(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    turn: Count
    on: list[DieFace] = msgspec.field(default_factory=lambda: [6])


class DoubleQuick(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    allowance: Count
    unit_types: list[UnitType] = msgspec.field(default_factory=lambda: ["infantry"])


class ResultRelease(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    units: list[UnitId]
    results: list[str]


class UnblockedRelease(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """17.3 release ii: the enemy force whose units and Zones of Control block ``area`` while held."""

    area: AreaName
    units: list[UnitId] = []
    commands: list[str] = []
    set_up_in: AreaName | None = None

    def __post_init__(self):
        if not self.units and not self.commands and self.set_up_in is None:
            raise ValueError("name the blocking force: its units, commands or set_up_in (the area of its set-up hexes)")

    def in_force(self, unit: Unit, set_up_hexes: frozenset[str]) -> bool:
        """Is ``unit`` of the blocking force (17.3 ii: "Jackson's force")?"""
        return unit.id in self.units or (unit.command is not None and unit.command in self.commands) or (unit.hex is not None and unit.hex in set_up_hexes)


class Restraint(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    side: Side
    commands: list[str] = []
    units: list[UnitId] = []
    within: Count | None = None
    enemy_zoc: bool = True
    move: bool = True
    released_by_attack_on: list[str] = []
    release_roll: ReleaseRoll | None = None
    released_on_turn: Count | None = None
    released_by_enemy_within: Count | None = None
    release_with: list[str] = []
    double_quick: DoubleQuick | None = None
    attack_halved: bool = False
    attacked_from: Literal["adjacent", "any"] = "adjacent"
    unless_it_attacked: bool = False
    released_by_result: ResultRelease | None = None
    released_when_unblocked: UnblockedRelease | None = None  # 17.3 release ii

    def has_attacked(self, state: State) -> bool:
        """17.3 i: has a unit bound taken part in a non-bombardment attack?"""
        return f"{ATTACKED}{self.name}" in state.scored

    def binds(self, unit: Unit) -> bool:
        return unit.side == self.side and (unit.id in self.units or (unit.command is not None and unit.command in self.commands))

    def released(self, state: State) -> bool:
        """17.0: released for good (by an event, or as the Game-Turn of release comes: iv)."""
        if self.released_on_turn is not None and state.turn >= self.released_on_turn:
            return True
        return any(f"{RELEASED}{n}" in state.released for n in (self.name, *self.release_with))

    def release_turn(self, state: State) -> int | None:
        """The Game-Turn it was released (by an event, or by ``released_on_turn``), or None."""
        prefix = f"{RELEASED_ON}{self.name}:"
        turns = [int(k[len(prefix):]) for k in state.scored if k.startswith(prefix)]
        if turns:
            return min(turns)
        if self.released_on_turn is not None and state.turn >= self.released_on_turn:
            return self.released_on_turn
        return None


class Restraints(Component, frozen=True):
    held: list[Restraint] = []

    def holding(self, state: State, unit: str) -> list[Restraint]:
        """The restraints that bind ``unit`` now (not released)."""
        u = state.game.units[unit]
        return [r for r in self.held if r.binds(u) and not r.released(state)]

    def may_not_move(self, state: State, unit: str) -> Restraint | None:
        """17.5: the restraint that keeps ``unit`` from moving at all now, or None."""
        return next((r for r in self.holding(state, unit) if not r.move), None)

    def double_quick(self, state: State, unit: str) -> int | None:
        """19.51: the unit's double-quick Movement Allowance now (the Game-Turn of its release), or None."""
        u = state.game.units[unit]
        for r in self.held:
            dq = r.double_quick
            if dq is not None and r.binds(u) and u.type in dq.unit_types and r.release_turn(state) == state.turn:
                return dq.allowance
        return None

    def within(self, state: State, unit: str) -> int | None:
        """17.1: how far from its set-up hex ``unit`` may move now (None: no limit)."""
        limits = [r.within for r in self.holding(state, unit) if r.within is not None]
        return min(limits) if limits else None

    def attack_halved(self, state: State, unit: str) -> bool:
        """17.3 i: does ``unit`` attack at half Combat Strength now (from an adjacent hex)?"""
        return any(r.attack_halved for r in self.holding(state, unit))

    def barred_from_enemy_zoc(self, state: State, unit: str) -> bool:
        """17.1, 17.3 ii, 17.4: may ``unit`` not enter an enemy zone of control now?"""
        return any(not r.enemy_zoc for r in self.holding(state, unit))
