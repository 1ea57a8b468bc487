"""The searching computer opponent (player ``search``, above ``engine:hard``): it looks ahead over
whole Player-Turns rather than one command.

At the first decision of its Movement Phase it makes **candidate plans** for the whole phase: the
first is the ``hard`` engine's own (players/engine.py), the others the same engine with a share of
its moves replaced by random legal ones (``random_command``), more the later the candidate, so that
the plans spread around the engine's. Each plan is then played on from the phase's end through the
player's Combat Phase (his attacks the hard engine's, the enemy's answers the greedy player's), on
``SAMPLES`` determinized dice (a fixed sample of die sequences, the same for every plan, so the
plans are compared on the same luck), and scored by the engine's ``evaluate`` at the end of the
Player-Turn (or the game's end). A candidate is compared with the first plan sample by sample (the
same dice): it replaces it only if its gain less one standard error is positive (``lower_bound``),
and the best such is kept. (A horizon through the enemy's Player-Turn with the greedy player
moving both sides was tried first: 10 pairs against hard on Chattanooga, mean margin -5.8, 95%
interval -11.0 to -0.7: the greedy player's random marches made the rollouts noise.) The plan
kept is played out, command by command, while the position is the one the plan expected (a die
rolled in movement that fell otherwise ends it); every other decision (combat, retreats, losses,
advances) is the ``hard`` engine's.

The time bound is the phase's first decision (``seconds``, 10 by default: the level's budget): the
first plan is always finished, the others only while the time allows, and a plan still being made
when it runs out is dropped. The decisions that follow in the phase are then answered at once.
"""

from __future__ import annotations

import random
import time

from players.engine import Engine, evaluate
from players.selfplay import greedy_player, random_command
from rules.core.commands import Command
from rules.core.errors import RuleViolation
from rules.core.state import MOVEMENT, State, digest
from rules.reducer import decide, fold

#: Candidate plans at most, determinized dice samples per plan, and the budget of the first decision.
CANDIDATES = 12
SAMPLES = 4
SECONDS = 10.0
#: The share of the engine's moves a candidate replaces by random ones: candidate k, ``NOISE * k``
#: (capped at one half).
NOISE = 0.04
#: A rollout stops after this many commands whatever happens (a guard; a Player-Turn is far shorter).
ROLLOUT_LIMIT = 2_000


def lower_bound(differences: list[float]) -> float:
    """A candidate's gain over the first plan on the same dice, less one standard error: a plan that
    looks better only by the luck of a few samples is not taken (the winner's curse)."""
    n = len(differences)
    mean = sum(differences) / n
    if n < 2:
        return mean
    spread = (sum((d - mean) ** 2 for d in differences) / (n - 1)) ** 0.5
    return mean - spread / n**0.5


class Deadline(Exception):
    """The time of the search ran out while a plan was being made."""


class Searcher:
    """A player (``players.selfplay.Player``): ``searcher(state, rng)`` returns its command."""

    def __init__(self, seconds: float = SECONDS, candidates: int = CANDIDATES, samples: int = SAMPLES) -> None:
        self.seconds, self.candidates, self.samples = seconds, candidates, samples
        self.engine = Engine("hard")  # the decisions outside the plan
        self.planner = Engine("hard")  # the plans' moves (an engine keeps what it found in a phase)
        self.plan: dict[str, Command] = {}  # the kept plan: the command for each position it expects
        self.planned: tuple | None = None  # the Player-Turn it was made for
        self.considered = 0  # the candidates scored for the last plan (for tests and figures)

    def __call__(self, state: State, rng: random.Random) -> Command:
        if state.phase == MOVEMENT and not state.pending and not state.game_over:
            here = (state.turn, state.phasing, state.game.scenario.name)
            if self.planned != here:
                self.planned = here
                self.plan = self.search(state, rng)
            planned = self.plan.pop(digest(state), None)
            if planned is not None:
                return planned
        return self.engine(state, rng)

    def search(self, state: State, rng: random.Random) -> dict[str, Command]:
        """The best plan for the Movement Phase of ``state`` (see the module), by the positions it expects."""
        deadline = time.perf_counter() + self.seconds
        side = state.phasing
        dice_seeds = [rng.randrange(2**32) for _ in range(self.samples)]
        best: tuple[float, dict[str, Command]] | None = None
        base: list[float] = []  # the first plan's value on each die sample
        self.considered = 0
        for k in range(self.candidates):
            try:
                plan_rng = random.Random(rng.randrange(2**32))
                plan, end = self._plan(state, plan_rng, min(0.5, NOISE * k), deadline if k else None, dice_seeds[0])
                values = [self._rollout(end, side, seed, deadline if k else None) for seed in dice_seeds]
            except Deadline:
                break
            except RuleViolation:  # a noisy plan the rules refuse somewhere: not a candidate
                continue
            self.considered += 1
            if not base:
                base = values
            score = lower_bound([v - b for v, b in zip(values, base, strict=True)])
            if best is None or score > best[0]:
                best = (score, plan)
            if time.perf_counter() > deadline:
                break
        return {} if best is None else best[1]

    def _plan(
        self, state: State, rng: random.Random, noise: float, deadline: float | None, die_seed: int
    ) -> tuple[dict[str, Command], State]:
        """Play the phasing player's Movement Phase from ``state`` (the engine's moves, a ``noise``
        share of them random; a die rolled in movement from ``die_seed``); the commands by position,
        and the position at the phase's end."""
        side, turn = state.phasing, state.turn
        die = random.Random(die_seed)
        plan: dict[str, Command] = {}
        for _ in range(ROLLOUT_LIMIT):
            if state.game_over or state.phase != MOVEMENT or state.phasing != side or state.turn != turn:
                break
            if deadline is not None and time.perf_counter() > deadline:
                raise Deadline()
            if state.pending:
                command = self.planner(state, rng) if state.pending[0].side == side else greedy_player(state, rng)
            else:
                mine = noise == 0 or rng.random() >= noise
                command = self.planner(state, rng) if mine else random_command(state, rng, end_weight=0.0)
                plan[digest(state)] = command
            state = fold(state, decide(state, command, lambda: die.randint(1, 6)))
        return plan, state

    def _rollout(self, state: State, side: str, seed: int, deadline: float | None) -> float:
        """``side``'s evaluation at the end of its Player-Turn played on from ``state`` (its Combat
        Phase: its decisions the hard engine's, the enemy's answers the greedy player's) on the dice
        of ``seed`` (or at the end of the game)."""
        die, rng = random.Random(seed), random.Random(seed + 1)
        turn = state.turn
        for _ in range(ROLLOUT_LIMIT):
            if state.game_over or state.phasing != side or state.turn != turn:
                break
            if deadline is not None and time.perf_counter() > deadline:
                raise Deadline()
            to_act = state.pending[0].side if state.pending else state.phasing
            command = self.planner(state, rng) if to_act == side else greedy_player(state, rng)
            state = fold(state, decide(state, command, lambda: die.randint(1, 6)))
        return evaluate(state, side)
