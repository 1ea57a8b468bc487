"""Offering choices: the choices of the seat to act (rules/legal.py), computed once per
position and offered on the next turn of the event loop, and the answers to its questions about the
position (a unit's reach, an attack's odds), kept for the position."""

from __future__ import annotations

import asyncio
import logging

import msgspec

from api import protocol
from api.live.sockets import text_frame
from api.protocol import ProtocolError
from rules.combat_choices import combat_breakdown
from rules.core.errors import RuleViolation
from rules.legal import Refusal
from rules.legal import choices as legal_choices
from rules.legal import reach as legal_reach
from rules.queries.zoc import enemy_controlled
from session import written as written_module

log = logging.getLogger("api.live")  # the log lines keep the name they had before api/live/ was split


COMBAT_KEPT = 64  # combat answers kept per position (the oldest goes first)


class Offering:
    """The choices and answers of a live game's position (a mixin of `api.live.room.LiveGame`: `_at`,
    `_choices`, `_choices_due`, `_reach`, `_combat`, `_written`)."""

    def _choices_soon(self) -> None:
        """Offer the choices of the new position on the next turn of the event loop, once this turn's
        frames (the events, the command's ack) are written: an ack never waits for the choices."""
        if not self._choices_due:
            self._choices_due = True
            asyncio.get_running_loop().call_soon(self._offer_due_choices)

    def _offer_due_choices(self) -> None:
        self._choices_due = False
        self._offer_choices(list(self.conns))

    def _position(self) -> tuple[bytes, int]:
        """The current position: the state's digest and the version this process first saw it at. The
        choices and every reach of one position carry that version, so a client matches them even
        when chat, a draw offer or an undo request moved the version on and left the state as it was."""
        key = self.history.digest()
        if self._at[0] != key:
            self._at = (key, self.history.version)
            self._choices = None
            self._reach = {}
            self._combat = {}
        return self._at

    def _offer_choices(self, conns) -> None:
        """Send the choices to the sockets of the seat to act that want them (once per position)."""
        side = self.history.session.to_act
        if side is None:
            return
        wanting = [c for c in conns if c.seat == side and c.wants_choices]
        if not wanting:
            return
        key, version = self._position()
        if self._choices is None:
            try:
                state = self.history.state  # 17.62: the seat's own choice written down, known to it
                known = written_module.known_to(state, self._written, side)
                self._choices = msgspec.json.encode(legal_choices(state, destinations=False, written=known))
            except Exception:  # noqa: BLE001 - the game goes on without choices
                log.exception("game %s: computing the choices failed", self.game_id)
                return
        frame = text_frame(
            protocol.encode(
                protocol.ChoicesOut(version=version, side=side, choices=msgspec.Raw(self._choices))
            )
        )
        for conn in wanting:
            if conn.choices_key != key:
                conn.choices_key = key
                conn.send_frame(frame)

    def _asked_by_the_seat_to_act(self, seat: str | None, what: str):
        """The history and the position's version, for a question only the seat to act may ask
        (``what`` spectators cannot do); ProtocolError for anyone else, or when the game is over."""
        if seat is None:
            raise ProtocolError("unauthorized", f"spectators cannot {what}")
        h = self.history
        if h.finished is not None or h.state.game_over:
            raise ProtocolError("game_over", "the game is over")
        if h.session.to_act != seat:
            raise ProtocolError("not_your_turn", "the game waits for the other player")
        _, version = self._position()
        return h, version

    def reach(self, seat: str | None, unit: str, how: str) -> bytes:
        """The ``reach`` message for ``unit`` now, for the seat to act (computed once per position and
        shared by its sockets); ProtocolError for anyone else, or when the game is over."""
        h, version = self._asked_by_the_seat_to_act(seat, "ask where a unit may move")
        if (how, unit) not in self._reach:
            known = written_module.known_to(h.state, self._written, seat)  # 17.62: the seat's own choice
            found, refused = legal_reach(h.state, unit, how, written=known)
            stops = stops_in(h.state, unit, found)
            self._reach[(how, unit)] = protocol.encode(
                protocol.ReachOut(
                    version=version,
                    unit=unit,
                    how=how,
                    destinations=found,
                    refused=refused,
                    stops=stops,
                    stops_case=ZOC_CASE.get(h.state.ruleset, "") if stops else "",
                )
            )
        return self._reach[(how, unit)]

    def combat(self, seat: str | None, attackers: list[str], defenders: list[str]) -> bytes:
        """The ``combat`` message for an attack being built now, for the seat to act: how its odds are
        built (``rules.combat_choices.combat_breakdown``), or why it would be refused; the last answers
        of a position are kept (a client asks again as the selection changes back and forth)."""
        h, version = self._asked_by_the_seat_to_act(seat, "plan an attack")
        key = (tuple(attackers), tuple(defenders))
        if key not in self._combat:
            try:
                found, refused = combat_breakdown(h.state, attackers, defenders), None
            except RuleViolation as e:
                found, refused = None, Refusal(case=e.case, message=e.message)
            if len(self._combat) >= COMBAT_KEPT:
                self._combat.pop(next(iter(self._combat)))
            self._combat[key] = protocol.encode(
                protocol.CombatOut(
                    version=version, attackers=list(attackers), defenders=list(defenders), breakdown=found, refused=refused
                )
            )
        return self._combat[key]


#: "All units must cease movement when they enter an Enemy controlled hex": the case, by rule set.
ZOC_CASE = {"classic": "6.0", "revised": "7.0"}


def stops_in(state, unit: str, destinations) -> list[str]:
    """The destinations of `unit` that lie in an enemy zone of control (classic 6.0, revised 7.0:
    it must stop there), in hex order."""
    try:
        side = state.game.scenario.unit(unit).side
    except KeyError:
        return []
    enemy = enemy_controlled(state, side)
    return sorted(hx for hx in destinations if hx in enemy)
