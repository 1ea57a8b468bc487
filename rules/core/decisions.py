"""Pending decisions: what the game waits for before anything else happens (``State.pending``).

Combat leaves choices to the players in the middle of a phase: the attacker resolves the attack he
declared (and may reduce its odds, 7.9); the owning player retreats each of his units (7.71; the
defender chooses his own retreats during the attacker's phase), displaces a friendly unit (7.8),
picks his exchange losses (7.6 Ex), advances after combat (7.75). Each waits as one item of
``state.pending``; the first item's ``side`` acts next (``rules.procedures.sequence.to_act``). The items are
frozen Structs, a tagged union on ``kind`` (explicit tags, so a snapshot or an event that carries them
decodes to the same types).

Events that add or remove items: ``DecisionsAwaited`` appends (or puts first) items;
``DecisionDeclined`` drops the first item (an optional decision declined, or one that lapsed because
nothing could be done); ``UnitEliminated`` removes the unit and any retreat it still owed. The
commands that make a decision (rules/procedures/combat.py, rules/procedures/retreat.py) drop their own item.
"""

from __future__ import annotations

from typing import Union

import msgspec

from rules.core.scenario import Side


class Pending(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind"):
    """Base of every pending decision; ``side`` makes it."""

    side: Side


class PendingAttack(Pending, frozen=True, kw_only=True, tag="attack"):
    """A declared attack (7.0) waiting for its die roll; the attacker may first reduce the odds (7.9).

    ``attackers``: units attacking from adjacent hexes; ``bombarding``: artillery attacking from range
    (8.1); ``defenders``: the hexes attacked (7.21, 7.25); ``defending``: every unit in them, ``passive``
    those among them that were attacked before and add no strength but suffer the result (7.74);
    ``attack`` and ``defence``: the totals (defence after terrain, 7.4); ``odds``: the column they give
    (7.0), ``column``: the column the attack will be resolved on (``odds`` or lower, 7.9)."""

    attackers: tuple[str, ...]
    bombarding: tuple[str, ...] = ()
    defenders: tuple[str, ...]
    defending: tuple[str, ...]
    passive: tuple[str, ...] = ()
    attack: int
    defence: int
    odds: str
    column: str
    shift: int = 0  # revised 8.42, 10.2x: the net odds column shift (negative: to the left)
    modifier: int = 0  # revised 8.61: subtracted from the die above 6-1


class PendingRetreat(Pending, frozen=True, kw_only=True, tag="retreat"):
    """A unit that must retreat one hex (7.71), or may (``optional``: bombarding artillery electing
    to take an Ar, 8.16). ``cause``: "combat" (a result), "displaced" (7.81), "bombardment" (8.16),
    "ineffective" (11.31: no advance follows), "train" (Chickamauga 19.11: beside an enemy unit in its
    side's Combat Phase; no advance follows). ``chain``: for a displaced unit, the retreating unit
    that displaced it and those before it in the same chain (Ruling: a chain never displaces one of its
    own units again; 7.82)."""

    unit: str
    cause: str = "combat"
    optional: bool = False
    chain: tuple[str, ...] = ()  # displaced: the units of its chain of displacements so far (7.82)


class PendingLosses(Pending, frozen=True, kw_only=True, tag="exchange_losses"):
    """7.6 Ex: the attacker eliminates units among ``candidates`` (the units that attacked from
    adjacent hexes; never bombarding artillery, 8.0) whose printed strengths total ``at_least``."""

    candidates: tuple[str, ...]
    at_least: int
    # Revised 8.6 Ex*: after losing these (one defending unit, the attacker's choice), the same side
    # loses units among ``then_lose`` (its attackers) whose printed strengths total at least theirs.
    then_lose: tuple[str, ...] = ()


class PendingAdvance(Pending, frozen=True, kw_only=True, tag="advance"):
    """7.75, 7.76: one of ``units`` (victorious participants) may advance into one of ``hexes`` that
    the combat left vacant; the choice is made before any other combat is resolved."""

    units: tuple[str, ...]
    hexes: tuple[str, ...]


class PendingRally(Pending, frozen=True, kw_only=True, tag="rally"):
    """Revised 12.41 (b): at the start of the Combat Phase, before any attack, the rally die is rolled
    for each of ``units`` (those with a Rally marker)."""

    units: tuple[str, ...]


class PendingBeforeCombat(Pending, frozen=True, kw_only=True, tag="before_combat"):
    """Revised 8.77 (``what`` "cavalry": the defender may try to retreat some of ``units``, his cavalry,
    before the die) and 12.34 ("routed": the attacker may retreat some of ``units``, the defender's Routed
    units, before the die); either picks any of them or none."""

    what: str
    units: tuple[str, ...]


class PendingCounterattackAdvance(PendingAdvance, frozen=True, kw_only=True, tag="counterattack_advance"):
    """Road to Vicksburg 19.53 iii (the battle's ``counterattack``): one unit of the counterattack may
    advance one more hex, having ``entered`` hexes so far: the first into one of ``hexes`` (vacated by the
    units it attacked, c), each later one into any adjacent hex (``hexes`` empty), up to the battle's
    limit, never across a prohibited hexside (b) and stopping in an Enemy Zone of Control (d); each unit
    decides for itself, two may enter one hex (a)."""

    entered: int = 0


Decision = Union[  # noqa: UP007
    PendingAttack, PendingRetreat, PendingLosses, PendingAdvance, PendingRally, PendingBeforeCombat,
    PendingCounterattackAdvance,
]


def first_pending(state) -> Pending | None:
    """The decision the game waits for now (the first of ``state.pending``), or None."""
    return state.pending[0] if state.pending else None


def made(state, kind: type[Pending]) -> None:
    """A decision of ``kind`` was made: drop it from the head of ``state.pending`` (in an evolver)."""
    if state.pending and isinstance(state.pending[0], kind):
        state.pending = state.pending[1:]
