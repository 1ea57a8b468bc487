"""Self-play and property tests of combat (hypothesis draws the seeds):

- the combat choices offered and ``decide`` agree both ways: every offered declaration (any adjacent
  set of an option, any of its bombarding hexes) is accepted with the offered odds; every random
  declaration ``decide`` accepts is one of the offered ones; every offered answer to a pending
  decision is accepted, and every random retreat accepted is offered; every refusal carries a case;
- over whole self-played games (random and greedy players, small random maps and Chattanooga): no
  unit attacks or is attacked twice in a phase (7.14), no hex over the stacking limit after any phase
  (5.32), no unit leaves an enemy zone of control by movement (5.13), every phase can be ended (no
  dead end), victory points recounted from the event log equal
  the state's (20.1), the game ends with a level of victory (20.2).
"""

import json
import random
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rulesmaps import scenario, unit

from api.cli import main
from players.selfplay import (
    PLAYERS,
    InvariantBroken,
    Referee,
    declaration,
    dice_from,
    random_decision,
    refereed_game,
)
from rules.combat_choices import AdvanceChoice, LossesChoice, ResolveChoice, RetreatChoice
from rules.core.commands import DeclareAttack, Retreat
from rules.core.errors import RuleViolation
from rules.core.events import AttackDeclared, UnitMoved, VictoryDetermined
from rules.core.game import Game
from rules.core.hexes import Grid, hex_number, hexside
from rules.core.scenario import Hexside
from rules.legal import choices
from rules.procedures.combat import may_attack
from rules.reducer import decide, fold, new_game
from rules.rulesets import get as get_ruleset
from scenarios.loader import load

CASE = re.compile(r"^\d+\.\d+$")
GRID = Grid("even")
VICTORY = {
    "per_enemy_unit_eliminated": {"confederate": 3, "union": 2},
    "first_control": {"side": "confederate", "hexes": ["0404"], "points_each": 4},
    "town_in_zoc": {"side": "confederate", "area": "town", "points_each": 4, "unit_type": "infantry"},
    "last_control": {"side": "union", "hexes": ["0505"], "points_each": 4},
    "levels": load("chattanooga").exclusive["victory"]["levels"],
}


def battlefield(seed: int, ruleset: str = "classic") -> Game:
    """An 8x8 map of random terrain with creeks (some bridged or forded), redoubts, a ferry and a
    river hex; six units a side facing each other across rows 3-6 (artillery among them, Union
    artillery immobile but one), a night turn, and Chattanooga's victory parameters."""
    rng = random.Random(seed)
    kinds = ["clear"] * 8 + ["forest", "rough", "forest_rough", "town"]
    hexes = {hex_number(c, r): rng.choice(kinds) for c in range(1, 9) for r in range(1, 9)}
    hexes["0801"], hexes["0802"] = "river", "ferry"
    features: dict[str, Hexside] = {
        hexside("0802", "0803"): Hexside(frozenset({"ferry_crossing"})),
        hexside("0702", "0802"): Hexside(frozenset({"ferry_crossing"})),
    }
    for h in hexes:
        for n in GRID.neighbours(h):
            if n not in hexes or n < h or {hexes[h], hexes[n]} & {"river", "ferry"}:
                continue
            x = rng.random()
            if x < 0.07:
                extra = rng.choice([(), ("bridge",), ("ford",)])
                features[hexside(h, n)] = Hexside(frozenset({"creek", *extra}))
            elif x < 0.12:
                features[hexside(h, n)] = Hexside(frozenset({"redoubt"}), barbed=rng.choice([h, n]))
    land = [h for h, t in hexes.items() if t not in ("river", "ferry")]
    north = [h for h in land if int(h[2:]) in (2, 3, 4)]
    south = [h for h in land if int(h[2:]) in (5, 6, 7)]
    rng.shuffle(north)
    rng.shuffle(south)
    units = []
    for i in range(6):
        kind = "artillery" if i < 2 else rng.choice(["infantry", "infantry", "cavalry"])
        units.append(unit(f"u{i}", "union", north[i], type_=kind, strength=rng.randint(1, 6)))
        units.append(unit(f"c{i}", "confederate", south[i], type_=kind, strength=rng.randint(1, 6)))
    sc = scenario(
        units,
        hexes=hexes,
        hexsides=features,
        turns=3,
        night_turns=[2],
        exclusive={
            "immobile_artillery": {"side": "union", "except": ["u1"]},
            "ferries": {"hexes": ["0802"]},
            "victory": VICTORY,
        },
        areas={"town": ["0101", "0102"]},
    )
    options = {"attack_effectiveness": rng.random() < 0.5, "auto_single_choice": rng.random() < 0.3}
    if ruleset != "classic":
        options.pop("attack_effectiveness")  # the 1975 optional rule 11.0; the revised morale replaces it
    return Game(sc, get_ruleset(ruleset), options)


def check_attack_agreement(state, rng: random.Random) -> None:
    legal = choices(state)
    game = state.game
    # offered -> accepted, with the offered odds
    for option in rng.sample(legal.attacks, min(4, len(legal.attacks))):
        adjacent = rng.choice(option.adjacent)
        for bombard in ((), option.bombard):
            if not adjacent.hexes and not bombard:
                continue
            (event,) = decide(state, declaration(option, adjacent.hexes, bombard))
            expected = adjacent.odds_with_bombardment if bombard else adjacent.odds
            assert event.attack.odds == expected
    # random declarations: accepted -> offered; refused -> a case
    side = state.phasing
    mine = sorted({h for u, h in state.positions.items() if game.units[u].side == side})
    theirs = sorted({h for u, h in state.positions.items() if game.units[u].side != side})
    if not mine or not theirs:
        return
    for _ in range(8):
        hexes = rng.sample(mine, rng.randint(1, min(3, len(mine))))
        attackers = [u for h in hexes for u in state.units_in(h) if may_attack(state, u)]
        if rng.random() < 0.2 and attackers:
            attackers = attackers[:-1]
        defenders = rng.sample(theirs, rng.randint(1, min(2, len(theirs))))
        try:
            (event,) = decide(state, DeclareAttack(tuple(attackers), tuple(defenders)))
        except RuleViolation as e:
            assert CASE.match(e.case) and e.message
            continue
        assert isinstance(event, AttackDeclared)
        a = event.attack
        offered = {o.defenders: o for o in legal.attacks}
        option = offered[tuple(sorted(defenders))]
        adjacent = tuple(sorted({state.positions[u] for u in a.attackers}))
        assert adjacent in {c.hexes for c in option.adjacent}
        assert {state.positions[u] for u in a.bombarding} <= set(option.bombard)


def check_decision_agreement(state, rng: random.Random) -> None:
    decision = choices(state).decision
    for _ in range(3):
        decide(state, random_decision(decision, rng), dice_from(rng))  # offered -> accepted
    if isinstance(decision, RetreatChoice):
        offered = {(o.to, o.displace) for o in decision.options}
        here = state.positions[decision.unit]
        for n in GRID.neighbours(here):
            for displace in [None, *state.units_in(n)]:
                try:
                    decide(state, Retreat(decision.unit, n, displace))
                except RuleViolation as e:
                    assert CASE.match(e.case)
                    continue
                assert (n, displace) in offered
    assert isinstance(decision, ResolveChoice | RetreatChoice | LossesChoice | AdvanceChoice)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_combat_choices_and_decide_agree(seed):
    rng = random.Random(seed)
    start = new_game(battlefield(seed))
    state = start
    player = PLAYERS["random"]
    dice = dice_from(rng)
    for _ in range(300):
        if state.game_over:
            break
        if state.pending:
            check_decision_agreement(state, rng)
        elif state.phase == "combat" and rng.random() < 0.5:
            check_attack_agreement(state, rng)
        state = fold(state, decide(state, player(state, rng), dice))


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["random", "greedy"]))
@example(483092, "greedy")  # revised: a Routed unit was offered an advance that 12.35 then refused
def test_self_played_small_battles_keep_every_invariant(ruleset, seed, players):
    # 7.14, 5.32, no dead end, 20.1 (victory points recounted from the log), 20.2; both rule sets
    start = new_game(battlefield(seed, ruleset))
    final, log, referee = refereed_game(start, random.Random(seed), PLAYERS[players])
    assert final.game_over and final.result is not None


@pytest.mark.parametrize("ruleset", ["classic", "revised"])
@pytest.mark.parametrize("players", ["random", "greedy"])
def test_chattanooga_self_played_to_the_end(players, ruleset):
    # 14.32, 20.0 (revised 16.4, 21.0): whole games of the scenario under the referee
    start = new_game(Game(load("chattanooga"), get_ruleset(ruleset)))
    # nine days of 4 phases; the night has 2 in 1975 (10.1: no Combat Phase), 4 in the revised (11.2)
    phases = 38 if ruleset == "classic" else 40
    for seed in (1, 2) if ruleset == "classic" else (1,):  # (200 revised games: bluegray selfplay)
        final, log, referee = refereed_game(start, random.Random(seed), PLAYERS[players])
        assert final.turn == 10 and final.result and referee.phases == phases


@pytest.mark.slow
def test_chattanooga_many_games_with_every_option():
    # the same over more games, with attack effectiveness (11.0) and lone choices applied by themselves
    start = new_game(Game(load("chattanooga"), get_ruleset("classic"), {"attack_effectiveness": True, "auto_single_choice": True}))
    for seed in range(10):
        for players in ("random", "greedy"):
            refereed_game(start, random.Random(seed), PLAYERS[players])


def test_the_referee_catches_a_unit_leaving_an_enemy_zone_of_control():
    # 5.13: the rules never emit such a move, so the event is forged to prove the referee's check can fail
    sc = scenario([unit("u", "union", "0303"), unit("c", "confederate", "0304"), unit("v", "union", "0101")], turns=2)
    start = new_game(Game(sc, get_ruleset("classic")))
    referee = Referee(start)
    after = referee.watch(start, [UnitMoved(unit="v", path=("0101", "0102"), cost=1)])  # no enemy near
    assert after.positions["v"] == "0102"
    with pytest.raises(InvariantBroken, match=r"5\.13: u left an enemy zone of control at 0303"):
        referee.watch(after, [UnitMoved(unit="u", path=("0303", "0302"), cost=1)])


def test_the_referee_wants_a_level_of_victory():
    # 20.2: a game with a victory schedule that ends "undetermined" (no levels for its differential) broke
    start = new_game(battlefield(7))
    final = start.copy()
    final.game_over, final.result = True, "undetermined"
    with pytest.raises(InvariantBroken, match="20.2: the game ended without a level of victory"):
        Referee(start).finish(final)
    final.result = VictoryDetermined(union=0, confederate=0, differential=0, level="Draw").level
    Referee(start).finish(final)  # a level: nothing to say


def test_selfplay_command_line(capsys):
    # the contract: one JSON object per game with seed, turns, events, vp and result
    assert main(["selfplay", "chattanooga", "--games", "2", "--seed", "5", "--json", "--players", "greedy"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["seed"] for line in lines] == [5, 6]
    for line in lines:
        assert set(line) == {"seed", "turns", "events", "vp", "result"}
        assert set(line["vp"]) == {"union", "confederate"} and line["turns"] == 10


def test_combat_events_commands_and_pending_decisions_round_trip():
    # DESIGN "The reducer": events and commands decode to what was encoded (explicit tags), a snapshot
    # taken while decisions are pending (7.7, 7.8, 7.75) decodes to the same state, and folding the
    # decoded log gives the same state; the choices encode for a client
    import msgspec

    from players.selfplay import play
    from rules.core import commands, events
    from rules.core import state as codec

    game = Game(load("chattanooga"), get_ruleset("classic"), {"attack_effectiveness": True})
    start = new_game(game)
    log, pending_seen = [], 0
    for before, command, evs in play(start, random.Random(3)):
        assert commands.decode(commands.encode(command)) == command
        if before.pending and pending_seen < 30:
            pending_seen += 1
            again = codec.decode(codec.encode(before), game)
            assert again.pending == before.pending and codec.digest(again) == codec.digest(before)
            msgspec.json.encode(choices(before))
        log.extend(evs)
    decoded = [events.decode(events.encode(e)) for e in log]
    assert decoded == log and pending_seen
    assert codec.digest(fold(start, decoded)) == codec.digest(fold(start, log))
