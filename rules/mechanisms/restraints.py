"""Units held until released (Road to Vicksburg 17.0-17.5): the battle rule of the ``[exclusive.restraints]``
block, whose settings and their questions are rules/core/components/restraints.py (the scenario's schema:
``Battle`` decodes the block there). What holds a unit (a move refused, the hexes too far from its set-up
hex, no enemy zone of control, half Combat Strength in attack, 19.51's double-quick time), and the
releases: an attack on a division (17.1 i, ii; 17.3 i), the die of a Game-Turn (17.1 iii: rolled at the
beginning of the side's Movement Phase), an enemy unit ending its Player-Turn near the set-up hex (17.5
i), a combat result suffered (17.3 ii b), an enemy force no longer blocking an area at the end of its
Player-Turn (17.3 release ii)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from rules.core.battle_rule import AttackFactor, BattleRule
from rules.core.components.restraints import ATTACKED, RELEASED, RELEASED_ON, ROLLED
from rules.core.events import (
    AttackDeclared,
    CombatResolved,
    RestraintAttacked,
    RestraintReleased,
    RestraintRolled,
)
from rules.core.scenario import other_side
from rules.core.state import MOVEMENT, State
from rules.procedures.combat import roll
from rules.procedures.sequence import phases
from rules.queries.zoc import zone_of_control

if TYPE_CHECKING:
    from rules.core.components.restraints import Restraints as Settings
    from rules.core.errors import RuleViolation
    from rules.core.events import Event
    from rules.core.handlers import Dice


def apply_attacked(state: State, event: RestraintAttacked) -> None:
    state.scored.add(f"{ATTACKED}{event.name}")


def apply_released(state: State, event: RestraintReleased) -> None:
    state.released = state.released | {f"{RELEASED}{event.name}"}
    state.scored.add(f"{RELEASED_ON}{event.name}:{state.turn}")  # 19.51: the Game-Turn of the release


def apply_rolled(state: State, event: RestraintRolled) -> None:
    state.scored.add(f"{ROLLED}{event.name}")
    if event.released:
        state.released = state.released | {f"{RELEASED}{event.name}"}
        state.scored.add(f"{RELEASED_ON}{event.name}:{state.turn}")


class Restraints(BattleRule):
    component = "restraints"
    settings: Settings
    evolvers = {
        RestraintRolled: apply_rolled,  # 17.1 iii
        RestraintReleased: apply_released,  # 17.1 i, ii; 17.5 i
        RestraintAttacked: apply_attacked,  # 17.3 i
    }

    # -- what holds a unit -------------------------------------------------------------------------
    def restrict_move(self, state: State, unit: str) -> RuleViolation | None:
        """17.5: "The 2nd Ohio battery cannot move" until released."""
        r = self.settings.may_not_move(state, unit)
        if r is None:
            return None
        return state.game.violation("restraints", f"{state.game.designation(unit)} may not move until released ({r.name})")

    def movement_allowance(self, state: State, unit: str, allowance):
        """19.51: double-quick time on the Game-Turn of the release (not with Strategic Movement)."""
        return self.settings.double_quick(state, unit) or allowance

    def closed_hexes(self, state: State, unit: str) -> frozenset[str]:
        """17.1: the hexes more than ``within`` hexes from ``unit``'s set-up hex, while it is held."""
        limit = self.settings.within(state, unit)
        home = state.game.units[unit].hex
        if limit is None or home is None:
            return frozenset()
        grid = state.game.grid
        return frozenset(h for h in state.game.terrain if grid.distance(home, h) > limit)

    def refuse_entry(self, state: State, unit: str, hex_: str, strategic: bool) -> RuleViolation | None:
        """17.1: "No unit ... may move more than two hexes from its initial position"."""
        if hex_ not in self.closed_hexes(state, unit):
            return None
        game = state.game
        name = game.designation(unit)
        if strategic:
            return game.violation("restraints", f"{name} may not move so far from its initial position ({hex_}) until released")
        return game.violation(
            "restraints", f"{name} may not move more than {self.settings.within(state, unit)} hexes from its initial position ({hex_}) until released"
        )

    def bars_enemy_zoc(self, state: State, unit: str) -> tuple[str, str] | None:
        """17.1, 17.3 ii, 17.4: "... or enter an Enemy Zone of Control" until released."""
        return ("restraints", "until released") if self.settings.barred_from_enemy_zoc(state, unit) else None

    def attack_factors(self, state: State, unit: str, adjacent: bool) -> tuple[AttackFactor, ...]:
        """17.3 i: "All units attack at half Combat Strength (in addition to any other adjustments)" while
        held, from adjacent hexes (17.0: "Such restrictions do not apply to bombardment attacks")."""
        if not adjacent or not self.settings.attack_halved(state, unit):
            return ()
        return (AttackFactor(Fraction(1, 2), "held until released: half Combat Strength in attack", "restraints.attack"),)

    # -- the releases ------------------------------------------------------------------------------
    def phase_rolls(self, state: State, dice: Dice | None) -> list[Event]:
        """17.1 iii, 17.2 iii, 17.3 iii: "If, during the Confederate Movement Phase of Game-Turn Three, the
        Confederate Player rolls a '6' on a die": at the beginning of that Movement Phase, once."""
        if state.phase != MOVEMENT or state.game_over:
            return []
        out: list[Event] = []
        for r in self.settings.held:
            roll_ = r.release_roll
            if roll_ is None or roll_.turn != state.turn or r.side != state.phasing:
                continue
            if f"{ROLLED}{r.name}" in state.scored or r.released(state):
                continue
            d = roll(dice, f"the release die of {r.name} (17.0)")
            out.append(RestraintRolled(side=r.side, name=r.name, turn=state.turn, roll=d, released=d in roll_.on, case=state.game.case("restraints.roll")))
        return out

    def after_command(self, state: State, events: list[Event], after: State) -> list[Event]:
        """17.1 i, ii: "If any unit of the division is attacked by an adjacent Union unit"; 17.3 i: "A unit of
        the division is attacked by a Confederate unit, and no unit of the division has taken part in a
        non-bombardment attack" (``RestraintAttacked`` records such an attack); 17.3 ii b: "after the 1st
        brigade has suffered a combat result of Ae or Ar"."""
        held = self.settings
        units = state.game.units
        out: list[Event] = []

        def done(r) -> bool:
            return r.released(after) or any(x.name == r.name for x in out if isinstance(x, RestraintReleased))

        for e in events:
            if isinstance(e, CombatResolved):  # 17.3 ii b
                for r in held.held:
                    rr = r.released_by_result
                    if rr is None or e.result not in rr.results or done(r):
                        continue
                    who = next((u for u in e.attackers if u in rr.units), None)
                    if who is not None:
                        out.append(RestraintReleased(side=r.side, name=r.name, cause="result", unit=who, hex=after.positions.get(who, ""), case=state.game.case("restraints")))
                continue
            if not isinstance(e, AttackDeclared):
                continue
            adjacent = e.attack.attackers
            for r in held.held:
                attacked_before = r.has_attacked(state) or any(isinstance(x, RestraintAttacked) and x.name == r.name for x in out)
                if r.unless_it_attacked and not attacked_before and not done(r):
                    own = next((u for u in adjacent if r.binds(units[u])), None)
                    if own is not None:  # 17.3 i: a unit of the division in a non-bombardment attack
                        out.append(RestraintAttacked(side=r.side, name=r.name, unit=own, case=state.game.case("restraints")))
                        continue
                if done(r) or (r.unless_it_attacked and attacked_before):
                    continue
                by = adjacent if r.attacked_from == "adjacent" else (*adjacent, *e.attack.bombarding)
                if not by:
                    continue
                hit = [u for u in e.attack.defending if units[u].side == r.side and units[u].command in r.released_by_attack_on]
                if hit:
                    out.append(RestraintReleased(side=r.side, name=r.name, cause="attacked", unit=by[0], hex=after.positions.get(hit[0], ""), case=state.game.case("restraints")))
        return out

    def end_of_phase(self, state: State) -> list[Event]:
        """17.5 i, then 17.3 release ii (``release_nearby``, ``release_unblocked``), each judged at the end
        of the enemy's Player-Turn; the second on the state after the first's releases."""
        nearby = self.release_nearby(state)
        if not nearby:
            return self.release_unblocked(state)
        after = state.copy()
        for e in nearby:
            apply_released(after, e)
        return [*nearby, *self.release_unblocked(after)]

    def _held_at_the_enemy_player_turn_end(self, state: State) -> list:
        """The restraints still held whose enemy is the phasing Player, in the last phase of his Player-Turn
        (17.5 i, 17.3 release ii: releases judged "at the end of a Confederate Player-Turn"); else none."""
        if state.phase != phases(state)[-1]:
            return []
        return [r for r in self.settings.held if not r.released(state) and state.phasing == other_side(r.side)]

    def release_nearby(self, state: State) -> list[Event]:
        """17.5 i: "A Confederate unit ends a Confederate Player-Turn within three hexes of the battery's set-up
        location"."""
        game = state.game
        out: list[Event] = []
        for r in self._held_at_the_enemy_player_turn_end(state):
            if r.released_by_enemy_within is None:
                continue
            homes = [u.hex for u in game.units.values() if r.binds(u) and u.hex is not None]
            for uid, h in sorted(state.positions.items()):
                if game.units[uid].side == state.phasing and any(game.grid.distance(h, home) <= r.released_by_enemy_within for home in homes):
                    out.append(RestraintReleased(side=r.side, name=r.name, cause="within", unit=uid, hex=h, case=game.case("restraints")))
                    break
        return out

    def release_unblocked(self, state: State) -> list[Event]:
        """17.3 release ii: "When Jackson's force, or its Zone of Control, no longer blocks the Middle Road east
        of Jackson's Creek at the end of a Confederate Player-Turn": no unit of the force on the map occupies,
        or exerts a Zone of Control into, a hex of the area (a force wholly gone blocks nothing)."""
        game = state.game
        areas = game.scenario.map.areas
        out: list[Event] = []
        for r in self._held_at_the_enemy_player_turn_end(state):
            rule = r.released_when_unblocked
            if rule is None:
                continue
            road = set(areas.get(rule.area, ()))
            set_up = frozenset(areas.get(rule.set_up_in, ())) if rule.set_up_in is not None else frozenset()
            blocking = any(
                h in road or road.intersection(zone_of_control(state, h))
                for uid, h in state.positions.items()
                if game.units[uid].side != r.side and rule.in_force(game.units[uid], set_up)
            )
            if not blocking:
                out.append(RestraintReleased(side=r.side, name=r.name, cause="unblocked", unit="", hex="", case=game.case("restraints")))
        return out
