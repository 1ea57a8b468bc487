"""Die rolls a battle makes at the beginning of a side's Movement Phase (Savage's Station 17.1: the
Confederate Reinforcement Table, ``reinforcement_table``; 18.1: the Union Command Table,
``movement_quota`` with ``by_die``; Second Bull Run 17.3: the Conditional Reinforcements,
``conditional_reinforcements``).

They are rolled as the phase begins (``EndPhase`` of the phase before: rules/procedures/sequence.py
``decide_end_phase``), and, for the game's very first phase, which no command begins
(rules/reducer.py ``new_game``), by the first command of that phase, before the command itself is
decided (rules/reducer.py ``decide``). Either way no command of the phase is decided before its roll.
"""

from __future__ import annotations

from rules.core.components.ammunition import OUT as AMMUNITION_OUT
from rules.core.components.ammunition import ROLLED as AMMUNITION_ROLLED
from rules.core.components.conditional_reinforcements import ARRIVED as CONDITIONAL_ARRIVED
from rules.core.components.conditional_reinforcements import ROLLED as CONDITIONAL_ROLLED
from rules.core.components.corps_command import HELD as CORPS_HELD
from rules.core.components.corps_command import ROLLED as CORPS_ROLLED
from rules.core.components.movement_quota import ROLLED as QUOTA_ROLLED
from rules.core.components.reinforcement_table import GROUP, ROLLED
from rules.core.events import (
    AmmunitionRolled,
    ConditionalReinforcementsRolled,
    CorpsCommandRolled,
    Event,
    MovementQuotaRolled,
    ReinforcementTableRolled,
)
from rules.core.handlers import Dice, only_with
from rules.core.state import MOVEMENT, State


def due(state: State) -> bool:
    """Is a roll of the beginning of this Movement Phase still to be made?"""
    if state.phase != MOVEMENT or state.game_over:
        return False
    battle = state.game.battle
    table, quota = battle.reinforcement_table, battle.movement_quota
    conditional = battle.conditional_reinforcements
    return (
        (table is not None and table.to_roll(state))
        or (quota is not None and quota.to_roll(state))
        or (conditional is not None and bool(conditional.to_roll(state)))
        or (battle.ammunition is not None and battle.ammunition.to_roll(state))
    )


def roll_at_start(state: State, dice: Dice | None) -> list[Event]:
    """17.1, 18.1: the rolls due at the beginning of this Movement Phase ([] when none is)."""
    if not due(state):
        return []
    # imported once a roll is due: this is asked before every command
    from rules.procedures.combat import roll

    game = state.game
    out: list[Event] = []
    table = game.battle.reinforcement_table
    if table is not None and table.to_roll(state):  # 17.1
        r = roll(dice, "the Reinforcement Table's die (17.1)")
        group, entry = table.result(state.turn, r)
        enters = group is not None and group not in table.brought(state)  # 17.1: "previously entered": none
        out.append(
            ReinforcementTableRolled(
                side=table.side, turn=state.turn, roll=r, group=group or "", entry=entry or "", enters=enters,
                case=game.case("reinforcement_table"),
            )
        )
    quota = game.battle.movement_quota
    if quota is not None and quota.to_roll(state):  # 18.1
        r = roll(dice, "the Command Table's die (18.1)")
        modifier = quota.die_modifier(state)
        out.append(
            MovementQuotaRolled(
                side=quota.side, turn=state.turn, roll=r, modifier=modifier, units=quota.by_roll(r + modifier),
                case=game.case("movement_quota"),
            )
        )
    ammunition = game.battle.ammunition
    if ammunition is not None and ammunition.to_roll(state):  # Olustee 19.1
        r = roll(dice, "the ammunition die (19.1)")
        out.append(
            AmmunitionRolled(
                side=ammunition.side, turn=state.turn, roll=r, out=r in ammunition.runs_out_on,
                case=game.case("ammunition"),
            )
        )
    conditional = game.battle.conditional_reinforcements
    if conditional is not None:  # Second Bull Run 17.3: "make separate die rolls for each group"
        for group in conditional.to_roll(state):
            r = roll(dice, f"the {group.name}'s die (17.3)")
            out.append(
                ConditionalReinforcementsRolled(
                    side=group.side, group=group.name, turn=state.turn, roll=r, arrived=r in group.on,
                    case=game.case("conditional_reinforcements"),
                )
            )
    return out


def apply_conditional_rolled(state: State, event: ConditionalReinforcementsRolled) -> None:
    """17.3: the group's roll of this Game-Turn is made; on its number the group has arrived."""
    state.scored.add(f"{CONDITIONAL_ROLLED}{event.group}:{event.turn}")
    if event.arrived:
        state.scored.add(f"{CONDITIONAL_ARRIVED}{event.group}:{event.turn}")


def apply_ammunition_rolled(state: State, event: AmmunitionRolled) -> None:
    """Olustee 19.1: the die of this Game-Turn is rolled; on '1-4' the side is out of ammunition."""
    state.scored.add(f"{AMMUNITION_ROLLED}{event.turn}")
    if event.out:
        state.scored.add(f"{AMMUNITION_OUT}{event.turn}")


def apply_table_rolled(state: State, event: ReinforcementTableRolled) -> None:
    state.scored.add(f"{ROLLED}{event.turn}")
    if event.enters:
        state.scored.add(f"{GROUP}{event.group}:{event.turn}:{event.entry}")


def apply_quota_rolled(state: State, event: MovementQuotaRolled) -> None:
    state.scored.add(f"{QUOTA_ROLLED}{event.turn}:{event.units}")


@only_with("corps_command")
def roll_corps_command(state: State, dice: Dice | None) -> list[Event]:
    """Grand Chancellorsville 23.4: the Command Control Phase before the side's Movement Phase: a die for
    each corps on the map ([] when none is due)."""
    rule = state.game.battle.corps_command
    if rule is None or state.game_over or not rule.to_roll(state):
        return []
    # imported once a roll is due: this is asked before every command
    from rules.procedures.combat import roll

    rolls = {g.name: roll(dice, f"the Command Control die of the {g.name} corps (23.4)") for g in rule.present(state)}
    held = [g.name for g in rule.present(state) if rolls[g.name] not in g.moves_on]
    return [CorpsCommandRolled(side=rule.side, turn=state.turn, rolls=rolls, held=held, case=state.game.case("corps_command"))]


def apply_corps_rolled(state: State, event: CorpsCommandRolled) -> None:
    state.scored = (
        state.scored
        | {f"{CORPS_ROLLED}{event.turn}"}
        | {f"{CORPS_ROLLED}{event.turn}:{n}" for n in event.rolls}
        | {f"{CORPS_HELD}{event.turn}:{n}" for n in event.held}
    )
