"""A game's record as the players read it beside the board: one line per command with its result,
the session's lines (seats, undo requests and their answers, draw offers, chat, the end), and where
an undo was accepted, its line in place of the actions it took back.

Folded one log entry at a time beside the game's `History` (the server keeps one per live game and
one for a spectator delay's view) and sent by the server on every load and, as a change, with every
batch of events (`api.live`, message ``view``): the client never rebuilds it.

A line is ``[version, kind, seat, text]``: the version of the entry that opened it (a ``command``
record, or a session record), ``kind`` its entry's type (``command``, ``undo_requested``,
``undo_accepted``, ``chat``, ...), the seat that acted (None for the game's own lines) and the
text. A command's line is completed by the rules events that follow it ("Union: move 1/2/XV to
0826: 1/2/XV (5) moves 0425-0826 (3 MP)"). An accepted undo back to version b at version a removes
the lines of the commands in b+1..a-1; the undo request, its acceptance and chat stay.

`changed()` says from which line the record changed since it was last asked (the server sends the
lines from there on: ``record_keep`` and ``record``)."""

from __future__ import annotations

import msgspec

from replay.textrecord import Narrator, side_name
from session.records import (
    ChatSaid,
    ChatShown,
    CommandApplied,
    DrawDeclined,
    DrawOffered,
    GameCreated,
    GameFinished,
    PauseAccepted,
    PauseDeclined,
    PauseRequested,
    PauseResumed,
    PauseWithdrawn,
    Record,
    SeatJoined,
    SeedRevealed,
    UndoAccepted,
    UndoDeclined,
    UndoRequested,
    UndoWithdrawn,
)

#: The kinds of line an accepted undo never removes.
KEPT = frozenset(
    {
        "chat",
        "chat_shown",
        "undo_requested",
        "undo_accepted",
        "undo_declined",
        "undo_withdrawn",
        "pause_requested",
        "pause_accepted",
        "pause_declined",
        "pause_withdrawn",
        "pause_resumed",
    }
)

_decode_command = msgspec.json.Decoder(dict)

#: What a group of `GameRecord.event_text` or `command_text` answers for a kind it does not know.
_NOT_MINE = object()


class RecordLine(msgspec.Struct, array_like=True):
    """One line of the record (see the module documentation)."""

    version: int
    kind: str
    seat: str | None
    text: str


class GameRecord:
    """The record of one game, folded entry by entry (see the module documentation)."""

    def __init__(self, game=None) -> None:
        self.game = game
        self.narrator = Narrator(game) if game is not None else None
        self.lines: list[RecordLine] = []
        self._low = 0  # the first line changed since `changed()` was last called
        self._open: RecordLine | None = None  # the command line the next rules events complete
        self._results: list[str] = []
        self._head = ""  # its text before the results
        self.last_move: dict | None = None  # {unit, path} of the latest move, retreat or advance
        self.last_combat: dict | None = None  # the latest combat_resolved of this phase, with its version

    # -- folding -------------------------------------------------------------------------------------
    def apply(self, version: int, item, game=None) -> None:
        """Fold one log entry (a session record or a rules event, as `History.apply` returned it)."""
        if game is not None and self.game is None:
            self.game = game
            self.narrator = Narrator(game)
        if isinstance(item, Record):
            self._open = None
            self._record(version, item)
        else:
            self._event(version, item)

    def _add(self, version: int, kind: str, seat: str | None, text: str) -> RecordLine:
        line = RecordLine(version, kind, seat, text)
        self._low = min(self._low, len(self.lines))
        self.lines.append(line)
        return line

    def _record(self, v: int, item: Record) -> None:
        """A session record's line: each group adds the line of the records it knows."""
        self._record_game(v, item)
        self._record_undo(v, item)
        self._record_pause(v, item)
        self._record_draw_and_chat(v, item)

    def _record_game(self, v: int, item: Record) -> None:
        """The game created, a seat taken, a command, the game over and the dice seed revealed."""
        match item:
            case GameCreated():
                fixed = " (fixed dice: not a fair game)" if item.dice == "insecure" else ""
                self._add(v, "game_created", None, f"Game created: {item.scenario}, {item.ruleset} rules{fixed}")
            case SeatJoined():
                self._add(v, "seat_joined", item.seat, f"{side_name(item.seat)} took a seat")
            case CommandApplied():
                self._head = f"{side_name(item.seat)}: {self.command_text(bytes(item.command))}"
                self._results = []
                self._open = self._add(v, "command", item.seat, self._head)
            case GameFinished():
                self._add(v, "game_finished", item.by, f"Game over: {finish_text(item)}")
            case SeedRevealed():
                self._add(v, "seed_revealed", None, f"Dice seed revealed: both games of the pair {item.pair} have ended")

    def _record_undo(self, v: int, item: Record) -> None:
        """An undo asked for (5.17), accepted, declined or withdrawn."""
        match item:
            case UndoRequested():
                what = "; ".join(self.command_text(bytes(t.command)) for t in item.takes_back)
                self._add(
                    v,
                    "undo_requested",
                    item.seat,
                    f"{side_name(item.seat)} asks to take back {len(item.takes_back)} action(s): {what} (5.17)",
                )
            case UndoAccepted():
                self._undo(item.back_to, v)
                who = f"{side_name(item.seat)} consented" if item.seat else "granted by the game's undo policy"
                self._add(v, "undo_accepted", item.seat, f"Undo: the game is back at version {item.back_to} ({who})")
            case UndoDeclined():
                self._add(v, "undo_declined", item.seat, f"{side_name(item.seat)} declined the undo")
            case UndoWithdrawn():
                self._add(v, "undo_withdrawn", item.seat, f"{side_name(item.seat)} withdrew the undo request")

    def _record_pause(self, v: int, item: Record) -> None:
        """A pause asked for, accepted, declined, withdrawn or ended."""
        match item:
            case PauseRequested():
                self._add(v, "pause_requested", item.seat, f"{side_name(item.seat)} asks to pause the game for {item.days} day(s)")
            case PauseAccepted():
                self._add(v, "pause_accepted", item.seat, f"{side_name(item.seat)} agreed: the game is paused, no clock runs")
            case PauseDeclined():
                self._add(v, "pause_declined", item.seat, f"{side_name(item.seat)} declined the pause")
            case PauseWithdrawn():
                self._add(v, "pause_withdrawn", item.seat, f"{side_name(item.seat)} withdrew the pause request")
            case PauseResumed():
                self._add(v, "pause_resumed", item.seat, f"{side_name(item.seat)} resumed the game: the clocks run again")

    def _record_draw_and_chat(self, v: int, item: Record) -> None:
        """A draw offered or declined, a chat line, the chat shown to spectators or not."""
        match item:
            case DrawOffered():
                self._add(v, "draw_offered", item.seat, f"{side_name(item.seat)} offers a draw")
            case DrawDeclined():
                self._add(v, "draw_declined", item.seat, f"{side_name(item.seat)} declined the draw")
            case ChatSaid():
                if item.text:  # an empty line is one withheld from spectators (session/visibility.py): not shown
                    self._add(v, "chat", item.seat, f"{side_name(item.seat)}: {item.text}")
            case ChatShown():
                now = "shows" if item.shown else "no longer shows"
                self._add(v, "chat_shown", item.seat, f"{side_name(item.seat)} {now} the chat to spectators")

    def _undo(self, back_to: int, accepted_at: int) -> None:
        kept = [ln for ln in self.lines if not (back_to < ln.version < accepted_at) or ln.kind in KEPT]
        first = next((i for i, (a, b) in enumerate(zip(kept, self.lines, strict=False)) if a is not b), len(kept))
        self._low = min(self._low, first)
        self.lines = kept
        self.last_move = None
        self.last_combat = None

    def _event(self, v: int, event) -> None:
        kind = event.__struct_config__.tag
        if kind in ("unit_moved", "reinforcement_entered", "unit_retreated", "unit_advanced", "unit_exited"):
            self.last_move = {"unit": event.unit, "path": list(event.path)}
        elif kind == "phase_began":
            self.last_move = None
            self.last_combat = None
        elif kind == "combat_resolved":
            self.last_combat = {"version": v, **msgspec.to_builtins(event)}
        text = self.event_text(event)
        line = self._open
        if text is None or line is None:
            return
        self._results.append(text)
        line.text = f"{self._head} — {'; '.join(self._results)}"
        self._low = min(self._low, len(self.lines) - 1)

    # -- words ---------------------------------------------------------------------------------------
    def unit(self, unit_id: str) -> str:
        return self.narrator.unit(unit_id) if self.narrator else unit_id

    def units(self, ids) -> str:
        return self.narrator.units(ids) if self.narrator else ", ".join(ids)

    def leader(self, leader_id: str) -> str:
        """A Leader's name (Grand Chancellorsville 23.5), or his id when the game is not known."""
        rule = self.game.battle.leaders if self.game is not None else None
        found = next((x for x in rule.leaders if x.id == leader_id), None) if rule is not None else None
        return found.name if found is not None else leader_id

    def event_text(self, event) -> str | None:
        """A rules event in words (replay/textrecord.py, and the revised book's own events)."""
        kind = event.__struct_config__.tag
        for words in (self._morale_text, self._combat_text, self._works_text, self._restraint_text,
                      self._leader_text):
            text = words(event, kind)
            if text is not _NOT_MINE:
                return text
        return self.narrator.say(event) if self.narrator else None

    def _morale_text(self, event, kind: str):
        """Attack Effectiveness (11.0), morale, disorder and rally (12.4)."""
        match kind:
            case "attack_effectiveness_lost":
                return f"{self.units(event.units)} lose their Attack Effectiveness (11.0)"
            case "attack_effectiveness_recovered":
                return f"{self.units(event.units)} are effective again"
            case "morale_changed":
                said = [f"{self.unit(u)} {level or 'in good order'}" for u, level in event.changes]
                return f"morale ({event.case}): {', '.join(said)}" if said else None
            case "disorder_rolled":
                return f"disorder dice: {', '.join(f'{self.unit(u)} {r}' for u, r in event.rolls)}" if event.rolls else None
            case "rally_markers_placed":
                return f"Rally markers on {self.units(event.units)} (12.41)"
            case "rally_rolled":
                return f"rally dice: {', '.join(f'{self.unit(u)} {r}' for u, r in event.rolls) or 'none needed'}"
        return _NOT_MINE

    def _combat_text(self, event, kind: str):
        """Night combat, retreat before combat, the terrain chosen, the attack recomputed or voided, a
        decision declined."""
        match kind:
            case "night_combat_die":
                return f"night combat die {event.die}: attack strength {event.attack}"
            case "before_combat_chosen":
                if not event.units:
                    return f"no retreat before combat ({event.kind})"
                die = f", die {event.die}" if event.die else ""
                return f"retreat before combat ({event.kind}): {self.units(event.units)}{die}"
            case "terrain_chosen":
                return f"the defender chooses the {event.option} benefit (8.45)"
            case "attack_recomputed":
                a = event.attack
                return f"the attack now: {a.attack} to {a.defence}, {a.column}"
            case "attack_voided":
                return f"every defender in {', '.join(event.defenders)} retreated before combat: no attack"
            case "decision_declined":
                verb = "declines" if event.reason == "declined" else f"passes ({event.reason})"
                return f"{side_name(event.side)} {verb}: {event.kind.replace('_', ' ')}"
        return _NOT_MINE

    def _works_text(self, event, kind: str):
        """A unit exiting the map and the breastworks (10.3)."""
        match kind:
            case "unit_exited":
                return f"{self.unit(event.unit)} exits the map at {event.path[-1]} ({event.cost} MP)"
            case "breastworks_begun":
                return f"{self.unit(event.unit)} begins breastworks in {event.hex} (10.34)"
            case "breastworks_completed":
                return f"breastworks completed in {event.hex}, facing {', '.join(event.facing)}"
            case "breastworks_removed":
                return f"the breastworks in {event.hex} are removed: {event.reason}"
        return _NOT_MINE

    def _restraint_text(self, event, kind: str):
        """The dice and releases of the battles' restraints on movement."""
        match kind:
            case "movement_die_rolled":
                then = "none of its units may move this Movement Phase" if event.held else "they may move"
                return f"{side_name(event.side)} die for General Burnside ({event.case}): {event.roll}: {then}"
            case "restraint_rolled":
                then = "released" if event.released else "still held"
                return f"{side_name(event.side)} release die for {event.name} ({event.case}): {event.roll}: {then}"
            case "restraint_released":
                why = "attacked it" if event.cause == "attacked" else f"ended its Player-Turn in {event.hex}"
                return f"{event.name} released for good: {self.unit(event.unit)} {why} ({event.case})"
            case "allocation_rolled":
                whose = f"{event.command}'s command" if event.command else side_name(event.side)
                return f"allocation die for {whose} ({event.case}): {event.roll}: {event.units} units may move"
            case "movement_restrictions_lifted":
                done = f"occupies {event.hex}" if event.hex else f"crossed {event.hexside}"
                return (f"{side_name(event.side)} movement restrictions removed for good: "
                        f"{self.unit(event.unit)} {done} ({event.case})")
            case "immobility_released":
                why = {
                    "exit": f"{self.unit(event.unit)} exited at {event.hex}",
                    "occupation": f"{self.unit(event.unit)} occupies {event.hex}",
                    "within": f"{self.unit(event.unit)} came within range",
                    "each_turn": "the Game-Turn's release",
                    "attacked": f"{self.unit(event.unit)} attacked {event.hex}",
                }.get(event.cause, event.cause)
                return f"released from immobility: {self.units(event.units)}: {why} ({event.case})"
        return _NOT_MINE

    def _leader_text(self, event, kind: str):
        """The Leaders (Grand Chancellorsville 23.5)."""
        match kind:
            case "leader_moved":
                return f"{self.leader(event.leader)} moves on his own to {event.path[-1]} ({event.cost} MP, {event.case})"
            case "leader_joined":
                return f"{self.leader(event.leader)} rides with {self.unit(event.unit)} ({event.case})"
            case "leader_killed":
                return f"die {event.roll} for {self.leader(event.leader)}: killed ({event.case})"
            case "leader_placed":
                return f"die {event.roll} for {self.leader(event.leader)}: placed with {self.unit(event.unit)} (23.56)"
            case "leader_eliminated":
                return f"{self.leader(event.leader)}, alone in {event.hex}, is eliminated by {self.unit(event.unit)} ({event.case})"
            case "leader_removed":
                return f"{self.leader(event.leader)} is removed from play: his whole command is gone ({event.case})"
        return _NOT_MINE

    def command_text(self, command: bytes) -> str:
        """A rules command in words."""
        try:
            c = _decode_command.decode(command)
        except msgspec.DecodeError:
            return "a command"
        unit = self.unit(c["unit"]) if "unit" in c else ""
        path = c.get("path") or []
        units = self.units(c.get("units") or [])
        kind = c.get("type")
        for words in (self._movement_command_text, self._combat_command_text, self._works_command_text):
            text = words(kind, c, unit, path, units)
            if text is not _NOT_MINE:
                return text
        return str(c.get("type"))

    def _movement_command_text(self, kind, c: dict, unit: str, path: list, units: str):
        """A command of the Movement Phase, or the end of a phase."""
        match kind:
            case "move":
                return f"move {unit} to {path[-1] if path else '?'}"
            case "strategic_move":
                return f"strategic move of {unit} to {path[-1] if path else '?'} (6.4)"
            case "enter_reinforcement":
                return f"bring {unit} on at {path[0] if path else '?'}"
            case "exit_map":
                return f"{unit} leaves the map at {path[-1] if path else '?'}"
            case "move_leader":  # Grand Chancellorsville 23.51
                return f"move {self.leader(str(c.get('leader')))} on his own to {path[-1] if path else '?'}"
            case "end_phase":
                return "end of the phase"
        return _NOT_MINE

    def _combat_command_text(self, kind, c: dict, unit: str, path: list, units: str):
        """A command of the Combat Phase."""
        match kind:
            case "declare_attack":
                return f"attack {', '.join(c.get('defenders') or [])} with {self.units(c.get('attackers') or [])}"
            case "resolve_attack":
                return f"roll for the attack{' on ' + c['odds'] if c.get('odds') else ''}"
            case "retreat":
                return f"retreat {unit} to {c.get('to')}"
            case "advance":
                return f"advance {unit} to {c.get('to')}"
            case "exchange_losses":
                return f"lose {units}"
            case "decline":
                return "decline"
            case "retreat_before_combat":
                return f"retreat {units} before combat" if units else "no retreat before combat"
            case "choose_terrain":
                return f"choose {c.get('option')}"
        return _NOT_MINE

    def _works_command_text(self, kind, c: dict, unit: str, path: list, units: str):
        """A command of the breastworks (10.3), the rally (12.4) or a voluntary rout."""
        match kind:
            case "build_breastworks":
                return f"begin breastworks with {unit}"
            case "complete_breastworks":
                return f"complete the breastworks of {unit}"
            case "remove_breastworks":
                return "remove breastworks"
            case "place_rally":
                return f"rally {units}"
            case "roll_rally":
                return "roll the rally dice"
            case "voluntary_rout":
                return f"rout {units}"
        return _NOT_MINE

    # -- what changed ----------------------------------------------------------------------------------
    def changed(self) -> tuple[int, list[RecordLine]]:
        """The first line changed since the last call and the lines from there on (all of them the
        first time); the next call answers from here."""
        low, self._low = self._low, len(self.lines)
        low = min(low, len(self.lines))
        return low, self.lines[low:]


def finish_text(f: GameFinished) -> str:
    why = {"rules": "the last Game-Turn", "resignation": "resignation", "draw": "a draw agreed",
           "abandonment": "abandonment", "time": "time (the loser's clock ran out)", "aborted": "an admin's abort"}.get(f.reason, f.reason)
    winner = f"{side_name(f.winner)} wins" if f.winner else "no winner"
    by = f" ({side_name(f.by)})" if f.by else ""
    if f.reason == "aborted":
        return f"aborted by an admin, no winner: {f.note or 'no reason given'}"
    return f"{f.result or winner} — by {why}{by}"
