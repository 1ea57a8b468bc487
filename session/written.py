"""A player's choice written down in secret (Road to Richmond 17.62, the game option
``variable_reinforcements``): what the server keeps outside the log, and the commands it makes of it.

The log holds only a commitment per variable unit (``write_down_reinforcements``); the choice and the
salts are kept by the server under the game's ``hidden`` key (eventstore ``put_hidden``), like the dice
seed, never in an event, snapshot or export. When the player enters a variable unit with a plain
``enter_reinforcement``, the server opens that unit's commitment for him (``opened``): the command
recorded is ``enter_written_reinforcement`` with the unit's Game-Turn and salt, which the rules check
against the commitment. The player's own view shows his choice (``shown_to``); everyone's does once the
game is over. Pure: the caller reads and writes the store.
"""

from __future__ import annotations

import secrets

import msgspec

from rules.core.commands import (
    Command,
    EnterReinforcement,
    EnterWrittenReinforcement,
    WriteDownReinforcements,
)
from rules.core.components.variable_reinforcements import commitment
from rules.core.state import State
from rules.procedures.variable_reinforcements import unopened, variable_units, written

#: The name of the secret under the game's hidden key.
HIDDEN = "written_down"


class WrittenDown(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The choice: the chart Game-Turn of every variable unit (its own for those not listed), and each
    unit's salt (32 hexadecimal digits)."""

    turns: dict[str, int]
    salts: dict[str, str]

    def commitments(self) -> dict[str, str]:
        return {u: commitment(u, t, self.salts[u]) for u, t in self.turns.items()}


class NotWritable(Exception):
    """The choice asked for cannot be written down (a sentence a player understands)."""


def write_down(state: State, later: dict[str, int]) -> tuple[WrittenDown, WriteDownReinforcements]:
    """17.62: the secret and the command recording only its commitments, for ``later`` (the variable
    units that arrive later, with the chart Game-Turn they arrive with: 15 or 18 in Road to Richmond);
    every other variable unit keeps its own Game-Turn. Fresh salts every time."""
    units = variable_units(state)
    if not units:
        raise NotWritable("this game has no variable reinforcements (the game option variable_reinforcements)")
    vr = state.game.battle.variable_reinforcements
    assert vr is not None  # it has variable units: the variant is in force
    unknown = sorted(set(later) - set(units))
    if unknown:
        raise NotWritable(f"not a Game-Turn One reinforcement of {', '.join(vr.entry)}: {', '.join(unknown)}")
    bad = sorted(u for u, t in later.items() if t not in vr.turns())
    if bad:
        allowed = ", ".join(str(t) for t in vr.turns())
        raise NotWritable(f"a Game-Turn is one of {allowed}: not {', '.join(bad)}'s")
    choice = WrittenDown(
        turns={u: later.get(u, vr.turn) for u in units}, salts={u: secrets.token_hex(16) for u in units}
    )
    return choice, WriteDownReinforcements(commitments=choice.commitments())


def matches(state: State, choice: WrittenDown | None) -> bool:
    """Is ``choice`` the one whose commitments the state holds (not one an undo took back)?"""
    if choice is None:
        return False
    held = written(state)
    return bool(held) and choice.commitments() == held


def opened(state: State, command: Command, choice: WrittenDown | None) -> Command:
    """The command to record for ``command``: a plain entry of a variable unit whose commitment is
    still closed becomes its entry as written down (with its Game-Turn and salt); any other as it is."""
    if isinstance(command, EnterReinforcement) and choice is not None and unopened(state, command.unit):
        if command.unit in choice.turns and matches(state, choice):
            return EnterWrittenReinforcement(
                unit=command.unit,
                path=command.path,
                turn=choice.turns[command.unit],
                salt=choice.salts[command.unit],
            )
    return command


def shown_to(state: State, choice: WrittenDown | None, role: str | None, finished: bool) -> dict[str, int]:
    """What a view shows of the choice: the units written down for a later Game-Turn, with it, to the
    player who wrote it down, and to everyone once the game is over; nothing to anyone else."""
    if not matches(state, choice):
        return {}
    vr = state.game.battle.variable_reinforcements
    assert vr is not None and choice is not None  # it matches commitments the state holds
    if not finished and role != vr.side:
        return {}
    return {u: t for u, t in choice.turns.items() if t != vr.turn}


def known_to(state: State, choice: WrittenDown | None, seat: str | None) -> dict[str, int] | None:
    """The choice as the legal choices of ``seat`` may take it (rules/legal.py ``written``): the chart
    Game-Turn of every variable unit, for the player who wrote it down; None for anyone else (the other
    player's and a spectator's choices must not show it), or when nothing kept matches the log."""
    vr = state.game.battle.variable_reinforcements
    if vr is None or seat != vr.side or not matches(state, choice):
        return None
    assert choice is not None  # it matches
    return dict(choice.turns)


def encode(choice: WrittenDown) -> bytes:
    return msgspec.json.encode(choice)


def decode(data: bytes | None) -> WrittenDown | None:
    return None if data is None else msgspec.json.decode(data, type=WrittenDown)
