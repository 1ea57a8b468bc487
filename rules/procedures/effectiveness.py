"""Optional rule 11.0, Attack Effectiveness (game option ``attack_effectiveness``, off by default).

- 11.1: units attacking from an enemy-controlled hex (every unit attacking from an adjacent hex is in
  one) that receive an Attacker Retreat lose their Attack Effectiveness: they become ineffective.
  Bombarding artillery, even when it elects to retreat (8.16), does not.
- 11.2: an ineffective unit may not attack (rules/procedures/combat.py) nor enter an enemy-controlled hex
  (rules/procedures/night.py ``zoc_rules``, used by movement; rules/procedures/retreat.py for an advance); it moves and
  defends normally and keeps its zone of control.
- 11.31, 11.32: the check is made at the start of each friendly Combat Phase: the ineffective units
  then in an enemy-controlled hex are ``engaged``. When the phase is ended, each engaged unit that is
  still in an enemy zone of control (its enemies were not all driven off in the phase) retreats as
  after combat (7.7), with no advance by the enemy; units that came into an enemy zone of control
  during the phase (an enemy advance) do not.
- 11.4: at the end of every night Game-Turn all units recover.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.core.decisions import PendingRetreat
from rules.core.events import (
    AttackEffectivenessLost,
    AttackEffectivenessRecovered,
    DecisionsAwaited,
    Event,
    IneffectiveUnitsEngaged,
)
from rules.core.state import COMBAT, State
from rules.procedures.outcomes import Emitter, settle
from rules.procedures.sequence import night_turn
from rules.queries.zoc import enemy_controlled

OPTION = "attack_effectiveness"


def enabled(state: State) -> bool:
    return bool(state.options.get(OPTION, False))


def lose_effectiveness(state: State, attackers: Iterable[str]) -> AttackEffectivenessLost | None:
    """11.1: the event for units attacking from enemy-controlled hexes that received an Ar."""
    units = tuple(sorted(attackers))
    if not enabled(state) or not units:
        return None
    return AttackEffectivenessLost(units=units)


def engaged_at_start_of_combat(state: State) -> list[Event]:
    """11.31: note which ineffective units begin the Combat Phase in an enemy zone of control."""
    if not enabled(state) or state.phase != COMBAT or not state.ineffective:
        return []
    side = state.phasing
    ezoc = enemy_controlled(state, side)
    units = tuple(
        sorted(
            u
            for u in state.ineffective
            if state.game.units[u].side == side and state.positions.get(u) in ezoc
        )
    )
    return [IneffectiveUnitsEngaged(units=units)] if units else []


def retreat_engaged(state: State) -> list[Event]:
    """11.31: engaged units still in an enemy zone of control retreat (no advance follows)."""
    if not state.engaged or state.phase != COMBAT:
        return []
    ezoc = enemy_controlled(state, state.phasing)
    units = sorted(u for u in state.engaged if state.positions.get(u) in ezoc)
    if not units:
        return []
    emit = Emitter(state)
    emit(
        DecisionsAwaited(
            decisions=tuple(PendingRetreat(side=state.phasing, unit=u, cause="ineffective") for u in units)
        )
    )
    settle(emit)
    return emit.events


def recover_at_night(state: State) -> list[Event]:
    """11.4: at the end of any night Game-Turn all units recover their Attack Effectiveness."""
    if state.ineffective and night_turn(state) and enabled(state):
        return [AttackEffectivenessRecovered(units=tuple(sorted(state.ineffective)))]
    return []


def apply_lost(state: State, event: AttackEffectivenessLost) -> None:
    state.ineffective.update(event.units)


def apply_recovered(state: State, event: AttackEffectivenessRecovered) -> None:
    state.ineffective.difference_update(event.units)


def apply_engaged(state: State, event: IneffectiveUnitsEngaged) -> None:
    state.engaged = set(event.units)
