"""Property tests over random legal play on random small maps (hypothesis draws the seed):

- the choices offered and ``decide`` agree both ways: every offered move is accepted with its cost;
  every random path ``decide`` accepts ends in an offered hex; every refusal carries a case;
- random legal play never leaves more than two units in a hex at the end of a phase (5.32), a unit
  in a river hex, in a ferry hex or off the map (5.24, 19.12, 2.1), or a unit that left an enemy zone
  of control during movement (5.13);
- the phase can always be ended: a player always has a move or may end the phase (no dead end);
- folding the same events twice gives equal states (equal digests), and a snapshot decodes to the
  same state.
"""

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rulesmaps import scenario, unit

from players.selfplay import dice_from, random_command
from rules.core import state as state_codec
from rules.core.commands import EndPhase, EnterReinforcement, MoveUnit, StrategicMove
from rules.core.errors import RuleViolation
from rules.core.events import ReinforcementEntered, UnitMoved
from rules.core.game import Game
from rules.core.hexes import Grid, hex_number, hexside
from rules.core.scenario import Hexside
from rules.legal import choices, reach
from rules.procedures.night import zoc_rules
from rules.procedures.sequence import night_turn
from rules.queries.stacking import overstacked
from rules.queries.zoc import enemy_controlled
from rules.reducer import decide, fold, new_game
from rules.rulesets import get as get_ruleset

CASE = re.compile(r"^\d+\.\d+$")
GRID = Grid("even")
SIZE = 10


RULESETS = ("classic", "revised")  # property tests run under both rule sets


def random_game(seed: int, ruleset: str = "classic") -> Game:
    """A 10x10 map: random terrain, a river along row 5 with a ferry at 0305 and a gap at 0905,
    random creeks (some bridged or forded), roads and trails; six units a side, Union artillery that
    may not move, a quota, a night turn and a reinforcement."""
    rng = random.Random(seed)
    kinds = ["clear"] * 6 + ["forest", "rough", "forest_rough", "town"]
    hexes = {hex_number(c, r): rng.choice(kinds) for c in range(1, SIZE + 1) for r in range(1, SIZE + 1)}
    for c in range(1, SIZE + 1):
        hexes[hex_number(c, 5)] = "river"
    hexes["0305"], hexes["0905"] = "ferry", "clear"
    features: dict[str, set] = {hexside("0304", "0305"): {"ferry_crossing"}, hexside("0305", "0306"): {"ferry_crossing"}}
    for h in hexes:
        for n in GRID.neighbours(h):
            if n not in hexes or n < h or "river" in (hexes[h], hexes[n]) or "ferry" in (hexes[h], hexes[n]):
                continue
            x = rng.random()
            side = features.setdefault(hexside(h, n), set())
            if x < 0.08:
                side.add("creek")
                side.update(rng.choice([(), (), ("bridge",), ("ford",)]))
            elif x < 0.18:
                side.add("road")
            elif x < 0.25:
                side.add("trail")
    hexsides = {k: Hexside(features=frozenset(v)) for k, v in features.items() if v}
    land = [h for h, t in hexes.items() if t not in ("river", "ferry")]
    north = [h for h in land if int(h[2:]) <= 3]
    south = [h for h in land if int(h[2:]) >= 8]
    rng.shuffle(north)
    rng.shuffle(south)
    units = [unit(f"u{i}", "union", north[i % len(north)]) for i in range(6)]
    units[0] = unit("u0", "union", north[0], type_="artillery")
    units[1] = unit("sherman", "union", north[1], type_="artillery", strength=1)
    units += [unit(f"c{i}", "confederate", south[i]) for i in range(6)]
    units.append(unit("r", "union", None, arrives=2, entry=["0101", "0201", "0301"]))
    exclusive = {
        "immobile_artillery": {"side": "union", "except": ["sherman"]},
        "movement_quota": {"side": "union", "units": 3, "bonus_units": 2, "bonus_hex": "0606", "reinforcements_exempt_before_turn": 3},
        "night_movement": {"immobile_sides": ["union"]},
        "reinforcements": {"lost_if_not_entered": True},
    }
    sc = scenario(units, hexes=hexes, hexsides=hexsides, turns=4, night_turns=[3], exclusive=exclusive)
    return Game(sc, get_ruleset(ruleset))


def random_path(state, rng: random.Random, start: str) -> tuple[str, ...]:
    path = [start]
    for _ in range(rng.randint(0, 7)):
        around = GRID.neighbours(path[-1])
        path.append(rng.choice(around))
    return tuple(path)


def check_agreement(state, rng: random.Random) -> None:
    legal = choices(state)
    check_reach(state, legal)
    # Offered -> accepted, with the offered cost.
    for unit_id, dests in list(legal.moves.items())[:4]:
        for dest in rng.sample(list(dests.values()), min(3, len(dests))):
            event = decide(state, MoveUnit(unit_id, dest.path))[0]  # (revised 12.17 may add a disorder)
            assert event.cost == dest.cost
    for unit_id, dests in legal.reinforcements.items():
        for dest in rng.sample(list(dests.values()), min(3, len(dests))):
            event = decide(state, EnterReinforcement(unit_id, dest.path))[0]
            assert event.cost == dest.cost
    for unit_id, dests in list(legal.strategic.items())[:3]:  # revised 6.4
        for dest in rng.sample(list(dests.values()), min(2, len(dests))):
            event = decide(state, StrategicMove(unit=unit_id, path=dest.path))[0]
            assert event.cost == dest.cost
    # Random paths: accepted -> offered (at no more than the path's cost); refused -> a case.
    for _ in range(6):
        unit_id = rng.choice(sorted(state.game.units))
        u = state.game.units[unit_id]
        if unit_id in state.positions:
            command = MoveUnit(unit_id, random_path(state, rng, state.positions[unit_id]))
            offered = legal.moves
        else:
            command = EnterReinforcement(unit_id, random_path(state, rng, rng.choice(u.entry or ["0101"])))
            offered = legal.reinforcements
        try:
            event = decide(state, command)[0]
        except RuleViolation as e:
            assert CASE.match(e.case) and e.message
            continue
        dest = offered[unit_id][event.path[-1]]
        assert dest.cost <= event.cost


def check_reach(state, legal) -> None:
    """The summary the server sends names every unit of the full form, and each unit's reach is
    exactly its destinations in the full form; a unit named but with no destination gets a reason."""
    summary = choices(state, destinations=False)
    assert not summary.moves and not summary.reinforcements and not summary.strategic
    assert summary.may_move == legal.may_move and summary.may_enter == legal.may_enter
    assert summary.may_move_strategically == legal.may_move_strategically
    for how, listed, table in (
        ("move", summary.may_move, legal.moves),
        ("enter", summary.may_enter, legal.reinforcements),
        ("strategic", summary.may_move_strategically, legal.strategic),
    ):
        assert set(table) <= set(listed)
        for unit_id in listed:
            found, refused = reach(state, unit_id, how)
            assert found == table.get(unit_id, {})
            assert (refused is None) == bool(found)
            assert refused is None or (CASE.match(refused.case) and refused.message)


def check_event(before, event, after) -> None:
    game = after.game
    for hex_ in after.positions.values():
        assert hex_ in game.terrain  # on the map
        assert game.terrain[hex_] != "river"  # 5.24
    if isinstance(event, UnitMoved | ReinforcementEntered):
        assert event.path[-1] not in game.ferry_hexes  # 5.24, 19.12
    if isinstance(event, UnitMoved):
        side = game.units[event.unit].side
        leaves_zoc = event.path[0] in enemy_controlled(before, side)
        assert not leaves_zoc or (night_turn(before) and zoc_rules(before, side).may_exit)  # 5.13, 17.2


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_every_rule(ruleset, seed):
    rng = random.Random(seed)
    start = new_game(random_game(seed, ruleset))
    state, log = start, []
    for _ in range(400):
        if state.game_over:
            break
        if rng.random() < 0.3:
            check_agreement(state, rng)
        legal = choices(state)
        # no dead end: a move, an attack, a pending decision's option, or the end of the phase
        assert legal.may_end_phase or legal.moves or legal.reinforcements or legal.attacks or legal.decision
        command = random_command(state, rng, end_weight=0.3, legal=legal)
        events = decide(state, command, dice_from(rng))
        for event in events:
            after = fold(state, [event])
            check_event(state, event, after)
            if isinstance(command, EndPhase) and event is events[0]:
                assert overstacked(state) == {}  # 5.32: at the end of the phase
            state = after
        log.extend(events)
    assert state.game_over
    # Folding the same events twice gives equal states; the snapshot decodes to the same state.
    once, twice = fold(start, log), fold(start, log)
    assert state_codec.digest(once) == state_codec.digest(twice) == state_codec.digest(state)
    decoded = state_codec.decode(state_codec.encode(state), state.game)
    assert state_codec.digest(decoded) == state_codec.digest(state)


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_phase_can_be_ended(ruleset, seed):
    # 5.32, no dead end: from random states of play, ending the phase stays reachable by moves
    # (over-full hexes can be emptied) — play on, preferring moves, and the phase always ends.
    rng = random.Random(seed)
    state = new_game(random_game(seed, ruleset))
    for _ in range(120):
        if state.game_over:
            break
        legal = choices(state)
        if not legal.may_end_phase:
            assert legal.moves or legal.reinforcements or legal.attacks or legal.decision
        command = random_command(state, rng, end_weight=0.05, legal=legal)
        state = fold(state, decide(state, command, dice_from(rng)))
