"""Property tests of the revised combat rules (003 8.x, 9.x, 11.2x, 12.x) over random small battles, the
same battles as tests/rules/test_selfplay.py plays under the 1975 rules:

- the combat choices offered and ``decide`` agree both ways (8.1x, 8.2x: every offered attack, a part of
  a stack included (8.22), is accepted at the offered odds; every accepted declaration is offered; every pending decision, rally
  12.41, retreat before combat 8.77 and 12.34, and the Ae*/Ex* choices of 8.6 included, accepts the options it offers);
- self-played games under the referee keep every invariant (8.14, 6.32, no dead end, 21.1) and end with
  a level of victory, with the random and the greedy players.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_selfplay import CASE, GRID, battlefield

from players.selfplay import PLAYERS, declaration, dice_from, random_decision, refereed_game
from rules.combat_choices import (
    AdvanceChoice,
    BeforeCombatChoice,
    LossesChoice,
    RallyChoice,
    ResolveChoice,
    RetreatChoice,
)
from rules.core.commands import DeclareAttack, Retreat
from rules.core.errors import RuleViolation
from rules.core.events import AttackDeclared
from rules.core.game import Game
from rules.legal import choices
from rules.procedures.combat import may_attack
from rules.reducer import decide, fold, new_game
from rules.rulesets import get as get_ruleset


def revised_battlefield(seed: int) -> Game:
    classic = battlefield(seed)
    return Game(classic.scenario, get_ruleset("revised"), {"auto_single_choice": random.Random(seed).random() < 0.3})


def check_attack_agreement(state, rng: random.Random) -> None:
    """As tests/rules/test_selfplay.py's, where a declaration may be followed by the decisions before the
    die (8.77, 12.34)."""
    legal = choices(state)
    game = state.game
    for option in rng.sample(legal.attacks, min(4, len(legal.attacks))):
        adjacent = rng.choice(option.adjacent)
        for bombard in ((), option.bombard):
            if not adjacent.hexes and not bombard:
                continue
            event = decide(state, declaration(option, adjacent.hexes, bombard, adjacent.units))[0]
            expected = adjacent.odds_with_bombardment if bombard else adjacent.odds
            assert event.attack.odds == expected
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
            event = decide(state, DeclareAttack(tuple(attackers), tuple(defenders)))[0]
        except RuleViolation as e:
            assert CASE.match(e.case) and e.message
            continue
        assert isinstance(event, AttackDeclared)
        a = event.attack
        option = {o.defenders: o for o in legal.attacks}[tuple(sorted(defenders))]
        hexes = tuple(sorted({state.positions[u] for u in a.attackers}))
        whole = tuple(u for h in hexes for u in option.groups[h].units) if hexes else ()
        # 8.22: a declaration with part of a stack is offered as that part (``units``)
        offered = {(c.hexes, tuple(sorted(c.units or whole))) for c in option.adjacent if c.hexes == hexes}
        assert (hexes, tuple(sorted(a.attackers))) in offered
        assert {state.positions[u] for u in a.bombarding} <= set(option.bombard)


def check_decision_agreement(state, rng: random.Random) -> None:
    decision = choices(state).decision
    kinds = ResolveChoice | RetreatChoice | LossesChoice | AdvanceChoice | RallyChoice | BeforeCombatChoice
    assert isinstance(decision, kinds)
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


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_revised_combat_choices_and_decide_agree_8_1_8_2_12_41(seed):
    rng = random.Random(seed)
    state = new_game(revised_battlefield(seed))
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


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["random", "greedy"]))
def test_revised_self_played_battles_keep_every_invariant_8_14(seed, players):
    start = new_game(revised_battlefield(seed))
    final, _log, _referee = refereed_game(start, random.Random(seed), PLAYERS[players])
    assert final.game_over and final.result is not None
