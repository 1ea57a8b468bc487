"""The searching computer opponent (player ``search``, above ``engine:hard``): it looks ahead over a
whole Player-Turn and the enemy's reply rather than one command.

At the first decision of its Movement Phase it makes **candidate plans** for the whole phase, one for
each movement style of a portfolio (``STYLES``: the ``hard`` engine's own; drawn 2.5 times as hard
to the battle's objectives; a cautious one that weighs the risk a unit runs twice as much; a bold one
a quarter as much; one that weighs the enemy strength it threatens twice; one drawn less to the
objectives; players/engine.py ``Style``); a plan that ends in the position of one made before is
not scored again. Each plan is then looked ahead on ``SAMPLES`` determinized
dice (a fixed sample of die sequences, the same for every plan, so the plans are compared on the
same luck): its own Combat Phase (the engine's attacks at ``LOOK_AHEAD``'s budget, an expectimax over each attack's
die), then the **enemy's reply**: his Movement Phase ended at once where the rules allow (his units
stand where they are) and his Combat Phase by the same engine, the best attacks he has against
the position the plan leaves; the plan is scored by ``evaluate`` when the turn comes back (or at the
game's end). A candidate is compared with the first plan sample by sample (the same dice): it
replaces it only if its gain less one standard error is positive (``lower_bound``), and the best such
is kept. The plan kept is played out, command by command, while the position is the one the plan
expected (a die rolled in movement that fell otherwise ends it); every other decision (combat,
retreats, losses, advances) is the ``hard`` engine's.

The work is fixed: ``len(STYLES)`` plans and ``SAMPLES`` look-aheads for each different one (``considered`` and
``rollouts`` count them), so the player's strength does not depend on the machine's load. The time
(``seconds``, 10 by default) is only a ceiling on the phase's first decision: the first plan is
always finished, the others only while the time allows, and a plan still being scored when it runs
out is dropped. The decisions that follow in the phase are then answered at once.

Tried before and measured worse or no better (docs/ENGINE.md): candidates made by replacing a share
of the hard engine's moves by random ones, scored by the greedy player through the enemy's Player-Turn
(10 pairs against hard on Chattanooga, mean margin -5.8, -11.0 to -0.7) or at the end of the
player's own Player-Turn (-3.3, -13.1 to +6.6).
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from players.engine import Engine, Level, Style, evaluate
from rules.core.commands import Command, EndPhase
from rules.core.errors import RuleViolation
from rules.core.state import MOVEMENT, State, digest
from rules.legal import choices
from rules.reducer import decide, fold

if TYPE_CHECKING:
    from rules.core.scenario import Side

#: The portfolio of movement styles a plan is made in; the first is the hard engine's own.
STYLES = (
    Style(),
    Style(objectives=2.5),
    Style(risk=2.4),
    Style(risk=0.3),
    Style(threat=2.0),
    Style(objectives=0.4),
)
#: Determinized dice samples a plan is looked ahead on, and the ceiling of the first decision.
SAMPLES = 3
SECONDS = 10.0
#: The engine's budget for both sides' combat in a look-ahead: the ``normal`` level's until 2026-12-07
#: (12 attacks, 40 units), kept when normal's was cut, so that the search plays as it was measured.
LOOK_AHEAD = Level("look-ahead", attacks=12, movers=40, seconds=1.2)
#: A look-ahead stops after this many commands whatever happens (a guard; two Player-Turns are far shorter).
ROLLOUT_LIMIT = 3_000


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
    """The time of the search ran out while a plan was being made or scored."""


class Searcher:
    """A player (``players.selfplay.Player``): ``searcher(state, rng)`` returns its command."""

    def __init__(
        self, seconds: float = SECONDS, styles: tuple[Style, ...] = STYLES, samples: int = SAMPLES
    ) -> None:
        self.seconds, self.styles, self.samples = seconds, styles, samples
        self.engine = Engine("hard")  # the decisions outside the plan
        self.attacker = Engine(LOOK_AHEAD)  # both sides' combat in the look-ahead
        self.mover = Engine("easy")  # the enemy's moves in the look-ahead where his phase may not end
        self.plan: dict[str, Command] = {}  # the kept plan: the command for each position it expects
        self.planned: tuple | None = None  # the Player-Turn it was made for
        self.considered = 0  # the candidates scored for the last plan (for tests and figures)
        self.rollouts = 0  # the look-aheads played for the last plan
        self.chosen = 0  # the index in ``styles`` of the plan kept

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
        plan_seed = rng.randrange(2**32)  # the same for every style: plans differ by their style alone
        best: tuple[float, int, dict[str, Command]] | None = None
        base: list[float] = []  # the first plan's value on each die sample
        ends: set[str] = set()  # the positions the plans made so far end in
        self.considered = self.rollouts = self.chosen = 0
        for k, style in enumerate(self.styles):
            limit = deadline if k else None  # the first plan is always finished
            try:
                plan, end = self._plan(state, style, random.Random(plan_seed), limit, dice_seeds[0])
                if digest(end) in ends:
                    continue  # the same moves as a plan already scored: nothing to look ahead
                ends.add(digest(end))
                values = [self._look_ahead(end, side, seed, limit) for seed in dice_seeds]
            except Deadline:
                break
            self.considered += 1
            if not base:
                base = values
            score = lower_bound([v - b for v, b in zip(values, base, strict=True)])
            if best is None or score > best[0]:
                best = (score, k, plan)
            if time.perf_counter() > deadline:
                break
        if best is None:
            return {}
        self.chosen = best[1]
        return best[2]

    def _plan(
        self, state: State, style: Style, rng: random.Random, deadline: float | None, die_seed: int
    ) -> tuple[dict[str, Command], State]:
        """Play the phasing player's Movement Phase from ``state`` by the hard engine in ``style`` (a die
        rolled in movement from ``die_seed``; the enemy's answers, if any, by the hard engine); the
        commands by position, and the position at the phase's end."""
        side, turn = state.phasing, state.turn
        mover = Engine("hard", style)  # a fresh engine: it keeps what it found in a phase
        die = random.Random(die_seed)
        plan: dict[str, Command] = {}
        for _ in range(ROLLOUT_LIMIT):
            if state.game_over or state.phase != MOVEMENT or state.phasing != side or state.turn != turn:
                break
            if deadline is not None and time.perf_counter() > deadline:
                raise Deadline()
            command = mover(state, rng)
            if not state.pending:
                plan[digest(state)] = command
            state = fold(state, decide(state, command, lambda: die.randint(1, 6)))
        return plan, state

    def _look_ahead(self, state: State, side: Side, seed: int, deadline: float | None) -> float:
        """``side``'s evaluation when its next Player-Turn begins (or the game ends), played on from
        ``state`` on the dice of ``seed``: its Combat Phase, then the enemy's reply (see the module)."""
        self.rollouts += 1
        die, rng = random.Random(seed), random.Random(seed + 1)
        began = state.turn
        for _ in range(ROLLOUT_LIMIT):
            if state.game_over or (state.phasing == side and state.turn != began):
                break
            if deadline is not None and time.perf_counter() > deadline:
                raise Deadline()
            command = self._reply(state, side, rng)
            try:
                state = fold(state, decide(state, command, lambda: die.randint(1, 6)))
            except RuleViolation:  # the rules refused the look-ahead's command: score what was reached
                break
        return evaluate(state, side)

    def _reply(self, state: State, side: Side, rng: random.Random) -> Command:
        """A command of the look-ahead: the enemy's Movement Phase ended at once where it may be, the
        rest (both sides' combat and decisions) by the engine at ``LOOK_AHEAD``."""
        if state.phase == MOVEMENT and not state.pending and state.phasing != side:
            if choices(state, destinations=False).may_end_phase:
                return EndPhase()
            return self.mover(state, rng)
        return self.attacker(state, rng)
