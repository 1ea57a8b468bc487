"""Variable reinforcements written down in secret (Road to Richmond 17.6, a variant chosen at game
creation: the scenario's game option ``variable_reinforcements`` merges this block in).

    [exclusive.variable_reinforcements]
    side = "confederate"
    turn = 1
    entry = ["0103"]
    instead = [{ turn = 15, entry = ["0117"] }, { turn = 18, entry = ["0728", "0328", "0126"] }]

17.61: the ``side``'s reinforcements of chart Game-Turn ``turn`` entering at ``entry`` (the variable
units) may each arrive instead with the reinforcements of one of the ``instead`` Game-Turns, at their
entry hexes (17.63, 17.64: "according to the Early Arrival Rules", so on the Game-Turn 17.5 gives that
chart Game-Turn). 17.62: the player "secretly writes down" which, "before the game starts"; the others
he may still withhold (the revised 5.0-5.5 let any reinforcement enter later anyway).

The secret in a log anyone may replay: commit and reveal, unit by unit. The player's first command
(``WriteDownReinforcements``) records for every variable unit only a commitment, ``commitment(unit,
turn, salt)`` = SHA-256 of ``"<unit>:<chart turn it arrives with>:<salt>"`` with a fresh random salt
of its own; the choices and salts stay with the server, outside the log. A variable unit enters only by
``EnterWrittenReinforcement``, which opens its commitment (turn and salt): the rules check the opening
against the commitment in the state, then treat the unit as a reinforcement of that Game-Turn. Opening
one unit's commitment tells nothing of another's (each has its own salt), and a unit entering at 0103
shows only what the map already shows. docs/RULINGS.md (17.6) says why.
"""

from __future__ import annotations

import hashlib
import re

import msgspec

from rules.core.components.values import Component, Count, HexNumber
from rules.core.marks import marks
from rules.core.scenario import Side, Unit

#: ``state.scored`` keeps, for each variable unit, ``variable_written:<unit>:<commitment>`` once written down
#: and ``variable_shown:<unit>:<turn>`` once its commitment is opened (the state's one set of such facts).
WRITTEN = "variable_written:"
SHOWN = "variable_shown:"

#: A salt: 32 hexadecimal digits (16 random bytes); a commitment: 64 (SHA-256).
SALT = re.compile(r"[0-9a-f]{32}")
DIGEST = re.compile(r"[0-9a-f]{64}")


def commitment(unit: str, turn: int, salt: str) -> str:
    """17.62: what is written into the log for ``unit`` arriving with the reinforcements of chart
    Game-Turn ``turn``: SHA-256 (hex) of ``"<unit>:<turn>:<salt>"``."""
    return hashlib.sha256(f"{unit}:{turn}:{salt}".encode()).hexdigest()


class Instead(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """17.63, 17.64: arriving with the reinforcements of chart Game-Turn ``turn``, at ``entry``."""

    turn: Count
    entry: list[HexNumber]


class VariableReinforcements(Component, frozen=True):
    side: Side
    turn: Count
    entry: list[HexNumber]
    instead: list[Instead]

    def units(self, units: list[Unit]) -> tuple[str, ...]:
        """17.61: the variable units, in scenario order: ``side``'s reinforcements of chart Game-Turn
        ``turn`` whose entry hexes are ``entry``."""
        return tuple(
            u.id for u in units if u.side == self.side and u.arrives == self.turn and list(u.entry) == list(self.entry)
        )

    def turns(self) -> tuple[int, ...]:
        """The chart Game-Turns a variable unit may be written down for: its own, then ``instead``'s."""
        return (self.turn, *(i.turn for i in self.instead))

    def entry_for(self, turn: int) -> list[str]:
        """The entry hexes of the reinforcements of chart Game-Turn ``turn`` (17.63, 17.64)."""
        for i in self.instead:
            if i.turn == turn:
                return list(i.entry)
        return list(self.entry)

    @staticmethod
    def written(scored: set[str]) -> dict[str, str]:
        """The commitment written down for each variable unit (empty: nothing written yet)."""
        return dict(m.rsplit(":", 1) for m in marks(scored, WRITTEN))

    @staticmethod
    def shown(scored: set[str]) -> dict[str, int]:
        """The chart Game-Turn of each variable unit whose commitment has been opened."""
        return {unit: int(turn) for unit, turn in (m.rsplit(":", 1) for m in marks(scored, SHOWN))}
