"""A battle's movement allocation (rules/core/components/movement_allocation.py; Peachtree Creek 17.3,
17.4, Atlanta 17.2, Jonesborough 17.2): the refusal of a move beyond a limit, the allocation dice rolled
at the beginning of the side's Movement Phase, and the units exempt because they began their move in an enemy
zone of control (17.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.components.movement_allocation import EXEMPT, ROLLED
from rules.core.events import AllocationRolled
from rules.core.handlers import only_with
from rules.core.state import MOVEMENT, State
from rules.queries.zoc import in_enemy_zone_of_control

if TYPE_CHECKING:
    from rules.core.errors import RuleViolation
    from rules.core.events import Event
    from rules.core.handlers import Dice


def restriction(state: State, unit: str) -> RuleViolation | None:
    """17.2, 17.3: refuse a move beyond the unit's allocation (a unit in an enemy zone of control does
    not count where the limit says so)."""
    allocation = state.game.battle.movement_allocation
    if allocation is None:
        return None
    refused = allocation.refusal(state, unit, in_enemy_zone_of_control(state, unit))
    return None if refused is None else state.game.violation(*refused)


@only_with("movement_allocation")
def roll_at_start(state: State, dice: Dice | None) -> list[Event]:
    """Peachtree Creek 17.3, 17.4: "rolls the die once for Stewart's command ... and once for Hardee's
    command at the beginning of each Friendly Movement Phase": a die for each ``by_die`` limit of the
    phasing side with a table for this Game-Turn, not yet rolled (a rule set's ``phase_rolls``: rolled as
    the phase begins, or by the game's first command; rules/procedures/phase_rolls.py)."""
    allocation = state.game.battle.movement_allocation
    if allocation is None or state.phase != MOVEMENT or state.game_over:
        return []
    from rules.procedures.combat import roll

    out: list[Event] = []
    for index, lim in enumerate(allocation.limits):
        table = lim.die_table(state.turn)
        if lim.side != state.phasing or table is None or allocation.rolled(state, index) is not None:
            continue
        r = roll(dice, "the Command Allocation Table (17.4)")
        case = state.game.case("movement_allocation.die")
        out.append(AllocationRolled(side=lim.side, command=lim.command or "", limit=index, roll=r, units=table.units[r - 1], case=case))
    return out


def apply_allocation_rolled(state: State, event: AllocationRolled) -> None:
    state.scored.add(f"{ROLLED}{state.turn}:{event.limit}:{event.units}")


def note_exempt(state: State, unit: str) -> None:
    """17.3: "Units that are in an Enemy Zone of Control do not count against these allocations": a
    unit about to move (``state`` before the move) that stands in one is recorded as not counting."""
    allocation = state.game.battle.movement_allocation
    if allocation is None:
        return
    index = allocation.limit_of(state.game.units[unit])
    if index is not None and allocation.limits[index].enemy_zoc_exempt and in_enemy_zone_of_control(state, unit):
        state.scored.add(f"{EXEMPT}{state.turn}:{unit}")
