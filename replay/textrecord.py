"""A game's readable record, like PGN for chess: one line per action, in the rule books' vocabulary.

    v37  GT2 Union Combat    1/2/XIV (7) and 3/1/XIV (5) attack 0913 (Confederate 2/1/Polk, 6) at 2-1 (after terrain; 4-1 before)
    v39  GT2 Union Combat    die 4 on 2-1: Dr (Defender Retreats)

Each line: the version, the Game-Turn, the phasing Player and the phase after the event, and what
happened. Undone actions are left out of `lines` (they never became part of the battle); the undo
requests and their answers are listed.
"""

from __future__ import annotations

from session.records import (
    DrawDeclined,
    DrawOffered,
    GameFinished,
    PauseRequested,
    SeatJoined,
    SeedRevealed,
    UndoAccepted,
    UndoDeclined,
    UndoRequested,
    UndoWithdrawn,
)

#: What a group of `Narrator.say` answers for a kind it does not know (None is an answer: no line).
_NOT_MINE = object()

RESULTS = {
    "Ae": "Attacker Eliminated",
    "Ar": "Attacker Retreats",
    "Dr": "Defender Retreats",
    "De": "Defender Eliminated",
    "Ex": "Exchange",
}


def side_name(side: str | None) -> str:
    return {"union": "Union", "confederate": "Confederate"}.get(side or "", side or "-")


class Narrator:
    """Turns one effective event at a time into a line (None: nothing worth a line)."""

    def __init__(self, game) -> None:
        self.game = game

    def unit(self, unit_id: str) -> str:
        u = self.game.units.get(unit_id)
        return f"{u.designation} ({u.strength})" if u else unit_id

    def units(self, ids) -> str:
        names = [self.unit(u) for u in ids]
        return " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]

    def line(self, version: int, item, history) -> str | None:
        text = self.say(item)
        if text is None:
            return None
        state = history.state
        where = f"GT{state.turn} {side_name(state.phasing)} {state.phase.replace('_', ' ').title()}" if state else ""
        return f"v{version:<5d} {where:<28s} {text}"

    def say(self, item) -> str | None:
        """An event in words: the first of the kinds' groups that knows it."""
        kind = item.__struct_config__.tag
        for words in (self._say_seats_and_undo, self._say_pause_draw_end, self._say_moves,
                      self._say_combat, self._say_victory):
            text = words(item, kind)
            if text is not _NOT_MINE:
                return text
        return None

    def _say_seats_and_undo(self, item, kind: str):
        """A seat taken, an undo asked for and its answers (5.17)."""
        match kind:
            case "seat_joined":
                assert isinstance(item, SeatJoined)
                return f"the {side_name(item.seat)} Player takes his seat"
            case "undo_requested":
                assert isinstance(item, UndoRequested)
                return f"the {side_name(item.seat)} Player asks to take back {len(item.takes_back)} action(s), back to v{item.back_to} (5.17)"
            case "undo_accepted":
                assert isinstance(item, UndoAccepted)
                who = f"the {side_name(item.seat)} Player consents" if item.seat else "granted by the game's undo policy"
                return f"undo to v{item.back_to}: {who}"
            case "undo_declined":
                assert isinstance(item, UndoDeclined)
                return f"the {side_name(item.seat)} Player declines the undo"
            case "undo_withdrawn":
                assert isinstance(item, UndoWithdrawn)
                return f"the {side_name(item.seat)} Player withdraws the undo request"
        return _NOT_MINE

    def _say_pause_draw_end(self, item, kind: str):
        """A pause, a draw offered or declined, the game over and the dice seed revealed."""
        match kind:
            case "pause_requested":
                assert isinstance(item, PauseRequested)
                return f"the {side_name(item.seat)} Player asks to pause the game for {item.days} day(s)"
            case "pause_accepted" | "pause_declined" | "pause_withdrawn" | "pause_resumed":
                verb = {"pause_accepted": "accepts the pause", "pause_declined": "declines the pause",
                        "pause_withdrawn": "withdraws the pause request", "pause_resumed": "resumes the game"}
                return f"the {side_name(item.seat)} Player {verb[kind]}"
            case "draw_offered":
                assert isinstance(item, DrawOffered)
                return f"the {side_name(item.seat)} Player offers a draw"
            case "draw_declined":
                assert isinstance(item, DrawDeclined)
                return f"the {side_name(item.seat)} Player declines the draw"
            case "game_finished":
                assert isinstance(item, GameFinished)
                return _game_over(item)
            case "seed_revealed":
                assert isinstance(item, SeedRevealed)
                return f"dice seed revealed: both games of the pair {item.pair} have ended"
        return _NOT_MINE

    def _say_moves(self, item, kind: str):
        """Moves, reinforcements, retreats and advances, the phases and Game-Turns."""
        match kind:
            case "unit_moved":
                return f"{self.unit(item.unit)} moves {'-'.join(item.path)} ({item.cost} MP)"
            case "reinforcement_entered":
                return f"{self.unit(item.unit)} enters as a reinforcement at {item.path[0]}: {'-'.join(item.path)} ({item.cost} MP)"
            case "reinforcement_lost":
                return f"{self.unit(item.unit)} failed to enter and is eliminated (15.12)"
            case "phase_began":
                return f"{side_name(item.side)} {item.phase.replace('_', ' ').title()} Phase begins"
            case "game_turn_advanced":
                return f"Game-Turn {item.turn} begins"
            case "unit_retreated":
                extra = f", displacing {self.unit(item.displaces)}" if item.displaces else ""
                return f"{self.unit(item.unit)} retreats {item.path[0]}-{item.path[1]}{extra}"
            case "unit_advanced":
                return f"{self.unit(item.unit)} advances after combat {item.path[0]}-{item.path[1]}"
        return _NOT_MINE

    def _say_combat(self, item, kind: str):
        """An attack declared and resolved, its losses and eliminations."""
        match kind:
            case "attack_declared":
                return self._attack(item.attack)
            case "odds_reduced":
                return f"the attacker reduces the odds from {item.odds} to {item.column} (7.9)"
            case "combat_resolved":
                return f"die {item.die} on the {item.column} column: {item.result} ({RESULTS.get(item.result, item.result)})"
            case "losses_taken":
                return f"{side_name(item.side)} exchange losses: {self.units(item.units)}"
            case "unit_eliminated":
                return f"{self.unit(item.unit)} is eliminated ({item.case})"
            case "decision_declined":
                return "a decision is declined"
            case "attack_effectiveness_lost":
                return f"{self.unit(item.unit)} loses its Attack Effectiveness (11.0)" if hasattr(item, "unit") else None
        return _NOT_MINE

    def _say_victory(self, item, kind: str):
        """Victory Points, the victory determined and the game's end."""
        match kind:
            case "victory_points_awarded":
                return f"{side_name(item.side)} scores {item.points} VP ({item.kind.replace('_', ' ')}: {item.subject})"
            case "victory_determined":
                return f"Victory: Union {item.union}, Confederate {item.confederate} (differential {item.differential}): {item.level}"
            case "game_ended":
                return f"the game ends ({item.reason})" + (f": {item.result}" if item.result else "")
        return _NOT_MINE

    def _attack(self, a) -> str:
        """An attack declared: the attackers, those bombarding, the defenders and the odds."""
        who = " with ".join(
            part for part in (self.units(a.attackers) if a.attackers else "",
                              f"{self.units(a.bombarding)} bombarding" if a.bombarding else "") if part
        )
        return (
            f"{who} attack {', '.join(a.defenders)} "
            f"({self.units(a.defending)}): {a.attack} to {a.defence}, {a.odds}"
        )


def _game_over(item: GameFinished) -> str:
    """The game over: why, the winner, the result and the dice seed."""
    winner = f", {side_name(item.winner)} wins" if item.winner else ""
    result = f" ({item.result})" if item.result else ""
    note = f" ({item.note})" if item.note else ""
    dice = "dice seed withheld until the pair's other game ends" if item.seed_withheld else "dice seed revealed"
    return f"game over: {item.reason}{note}{winner}{result}; {dice}"
