"""Exclusive rules that restrict who may move, driven by the scenario's parameters:

- ``immobile_artillery`` {side, except}: that side's artillery may not move, except the units listed
  (Chattanooga 16.11–16.13).
- ``movement_quota`` {side, units, bonus_units, bonus_hex, reinforcements_exempt_before_turn}: no more
  than ``units`` of that side move in one Movement Phase, ``bonus_units`` more while the side controls
  ``bonus_hex``; reinforcements do not count before the given Game-Turn (Chattanooga 17.11–17.15).

Rulings (README "Rulings"):
- 17.14, taking the bonus hex mid-phase: the quota is checked at each move against control at that
  moment, so a Union unit that moves into 1025 gives the seven extra moves at once; the move that
  takes it is one of the eleven.
- 17.12: a reinforcement's entry onto the map is a move; before the exempt Game-Turn it does not
  count, from then on it counts like any other unit.
"""

from __future__ import annotations

from rules.core.errors import RuleViolation
from rules.core.state import State


def immobile(state: State, unit: str) -> RuleViolation | None:
    """16.11, 16.13: the side's artillery may not be moved, except the units named."""
    params = state.game.exclusive.get("immobile_artillery")
    if not params:
        return None
    u = state.game.units[unit]
    if u.type == "artillery" and u.side == params.get("side") and unit not in params.get("except", []):
        return state.game.violation(
            "immobile_artillery", f"{u.designation} is {u.side.title()} artillery and may not be moved"
        )
    return None


def counts_toward_quota(state: State, unit: str) -> bool:
    """17.11, 17.12: does moving this unit use one of its side's quota?"""
    params = state.game.exclusive.get("movement_quota")
    if not params:
        return False
    u = state.game.units[unit]
    if u.side != params.get("side"):
        return False
    return not (u.arrives is not None and state.turn < params.get("reinforcements_exempt_before_turn", 0))


def quota(state: State, side: str) -> int | None:
    """How many units ``side`` may move this Movement Phase as things stand (17.11, 17.14), or None
    when no quota binds it."""
    params = state.game.exclusive.get("movement_quota")
    if not params or params.get("side") != side:
        return None
    n = int(params["units"])
    bonus_hex = params.get("bonus_hex")
    if bonus_hex and state.control.get(bonus_hex) == side:
        n += int(params.get("bonus_units", 0))
    return n


def quota_used(state: State, side: str) -> int:
    return sum(1 for u in state.moved if counts_toward_quota(state, u))


def quota_remaining(state: State, side: str) -> int | None:
    q = quota(state, side)
    return None if q is None else q - quota_used(state, side)


def quota_restriction(state: State, unit: str) -> RuleViolation | None:
    """17.11, 17.14: refuse a move beyond the quota."""
    if not counts_toward_quota(state, unit):
        return None
    side = state.game.units[unit].side
    q = quota(state, side)
    used = quota_used(state, side)
    if q is not None and used >= q:
        params = state.game.exclusive["movement_quota"]
        bonus = params.get("bonus_hex")
        with_bonus = bonus and state.control.get(bonus) == side
        name = "movement_quota.bonus" if with_bonus else "movement_quota"
        extra = (
            f" ({params['units']} and {params.get('bonus_units', 0)} more while holding {bonus})"
            if with_bonus
            else (f"; {params.get('bonus_units', 0)} more while the {side.title()} controls {bonus}" if bonus else "")
        )
        return state.game.violation(
            name,
            f"{state.game.designation(unit)} may not move: the {side.title()} player has already moved "
            f"{used} units this Movement Phase, his limit{extra}",
        )
    return None


def artillery_may_not_move(state: State, unit: str) -> bool:
    """16.11: is this one of the side's artillery units that may not be moved (16.13's exceptions
    aside)?"""
    params = state.game.exclusive.get("immobile_artillery")
    if not params:
        return False
    u = state.game.units[unit]
    return u.type == "artillery" and u.side == params.get("side") and unit not in params.get("except", [])


def retreat_eliminates(state: State, unit: str) -> bool:
    """16.11: "If forced to retreat due to combat, these artillery units are eliminated instead." A
    displacement (7.81: "moved back ... as if it were retreating") would eliminate them too."""
    return artillery_may_not_move(state, unit)


def may_not_advance(state: State, unit: str) -> bool:
    """16.11: "These artillery units may not advance after combat in any attack." """
    return artillery_may_not_move(state, unit)
