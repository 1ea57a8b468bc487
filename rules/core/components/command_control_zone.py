"""A Command Control Zone (Road to Richmond 18.2, 20.0): hexes a side's units may not enter until some
Game-Turns after an event of the game.

    [exclusive.command_control_zone]
    side = "union"
    area = "command_control_zone"
    turns = 3
    after_exit = { unit = "us-train", hex = "1528" }
    after_entry = ["us-1-1-ii", "us-art-3r"]

20.1: "Union units may not enter the Command Control Zone until three Game-Turns after the Union Player
has exited the Union Train unit from the map sheet at hex 1528, or three Game-Turns after the Union
Game-Turn Fourteen Reinforcements are brought on to the map sheet": the zone (the map's ``area``) opens to
``side`` on the Game-Turn ``turns`` after the first of these: ``after_exit``'s unit exiting the map by
its hex; the first of ``after_entry`` (a group of reinforcements) entering it. Until then no unit of
``side`` enters a hex of the zone by movement, Strategic Movement or as a reinforcement
(rules/procedures/movement.py ``no_entry``, rules/revised/movement.py). 20.2, 20.3: zones of control
and attacks into the zone are the standard ones (nothing here changes them).

Hooker and Lee 19.13: ``opens_on_turn`` instead (or besides): "The Union Player may not move any unit
within two hexes of the western map-edge prior to Game-Turn Four": the zone opens on that Game-Turn.
Second Bull Run 18.0 likewise: "Union units may not enter the four westernmost hex rows of the map
sheet until Game-Turn Five" (the area ``four_westernmost_rows``, supplied with the map; ``opens_on_turn = 5``).

The Game-Turn of each exit and entry is kept in ``state.scored`` (``exited_by:<hex>:<turn>:<unit>``,
``entered_on:<turn>:<unit>``, only in a battle that asks: rules/queries/exits.py).
"""

from __future__ import annotations

import msgspec

from rules.core.components.exits import exit_record
from rules.core.components.values import AreaName, Component, Count, HexNumber, UnitId
from rules.core.marks import marks
from rules.core.scenario import Side

ENTERED_ON = "entered_on:"


class ExitOf(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """20.1: ``unit`` exiting the map by ``hex``."""

    unit: UnitId
    hex: HexNumber


class CommandControlZone(Component, frozen=True):
    side: Side
    area: AreaName
    turns: Count = 3
    after_exit: ExitOf | None = None
    after_entry: list[UnitId] = []
    opens_on_turn: Count | None = None

    def __post_init__(self):
        if self.after_exit is None and not self.after_entry and self.opens_on_turn is None:
            raise ValueError(
                "give after_exit (20.1: the Train's exit by 1528), after_entry (the reinforcements whose arrival "
                "opens the zone) or opens_on_turn (Hooker and Lee 19.13: the Game-Turn it opens on)"
            )

    def watches_entry(self, unit_id: str) -> bool:
        return unit_id in self.after_entry

    def opening(self, scored: set[str]) -> int | None:
        """20.1: the Game-Turn from which ``side`` may enter the zone, or None (not yet known)."""
        turns = []
        if self.after_exit is not None:
            record = exit_record(scored, self.after_exit.unit)
            if record is not None and record[0] == self.after_exit.hex:
                turns.append(record[1])
        for m in marks(scored, ENTERED_ON):
            turn, unit = m.split(":", 1)
            if unit in self.after_entry:
                turns.append(int(turn))
        if turns:
            turns = [min(turns) + self.turns]
        if self.opens_on_turn is not None:  # Hooker and Lee 19.13: "prior to Game-Turn Four"
            turns.append(self.opens_on_turn)
        return min(turns) if turns else None

    def closed_to(self, scored: set[str], side: str, turn: int) -> bool:
        """20.1: may ``side``'s units not enter the zone on Game-Turn ``turn``?"""
        if side != self.side:
            return False
        opens = self.opening(scored)
        return opens is None or turn < opens
