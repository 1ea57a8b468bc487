"""Player-Turns a side does not have (Cemetery Hill 16.32: "The Union Player has no Player-Turn on
Game-Turn One. His units may not be moved during the First Game-Turn, except as a result of combat:
Union units' Zones of Control and defensive abilities are unaffected"): the sequence of play (4.0)
passes over the Player-Turn of each ``side`` on its ``game_turn``: no Movement Phase, no Combat Phase,
none of the steps that begin or end them. The game then begins with the other side's Player-Turn.

    [exclusive.player_turns]
    none = [{ side = "union", game_turn = 1 }]

Read by rules/procedures/sequence.py (``next_phase``) and rules/reducer.py (``new_game``).
"""

from __future__ import annotations

import msgspec

from rules.core.components.values import Component
from rules.core.scenario import Side


class NoPlayerTurn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """16.32: ``side`` has no Player-Turn on Game-Turn ``game_turn``."""

    side: Side
    game_turn: int = msgspec.field(default=1)


class PlayerTurns(Component, frozen=True):
    none: list[NoPlayerTurn] = []

    def has_player_turn(self, side: str, turn: int) -> bool:
        """16.32: does ``side`` have a Player-Turn on Game-Turn ``turn``?"""
        return not any(n.side == side and n.game_turn == turn for n in self.none)
