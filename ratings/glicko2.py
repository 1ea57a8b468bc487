"""The Glicko-2 rating system, after Mark Glickman, "Example of the Glicko-2 system"
(glicko.net/glicko/glicko2.pdf, 2013), pure: no I/O, no clock, no state.

One rating period at a time: ``update(player, results)`` is the player's rating after a period in
which he played ``results``, each ``(opponent, score)`` or ``(opponent, score, advantage)``, the
opponents' ratings being those they had at the start of the period (the paper's assumption). Each
step of the paper is a small function here (``to_glicko2_scale`` is step 2, ``g``,
``expected_score`` and ``estimated_variance`` step 3, ``improvement`` step 4, ``new_volatility``
step 5, ``pre_period_deviation`` step 6, ``new_deviation`` and ``new_mean`` step 7,
``from_glicko2_scale`` step 8), so the paper's intermediate figures can be checked one by one.

What this server adds to the paper:

* **Side-aware expectation.** A Blue & Gray battle is seldom balanced, so a result may carry an
  ``advantage``, on the Glicko-2 (mu) scale, of the player's side in that battle, and the expected
  score becomes ``E = 1 / (1 + exp(-g(phi_j) * (mu - mu_j + advantage)))``. The opponent's own
  update takes the same result with ``-advantage``. ``advantage_from_win_rate`` derives it from the
  battle's measured win rate of the side between equal players.
* **Bounded deviation.** A deviation is never above ``MAX_DEVIATION`` (350, an unrated player's)
  nor below ``MIN_DEVIATION`` (30): ``update`` clamps the deviation it returns, and a ``Rating``
  outside the bounds cannot be made. Without the floor a very active player's rating would barely
  move any more; without the ceiling a long-idle one would grow past the unrated deviation.
* **Conservative rating** for leaderboards: ``conservative(r) = r.rating - 2 * r.deviation``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

SCALE = 173.7178
"""The paper's factor between the Glicko scale (ratings, deviations) and the Glicko-2 scale (mu,
phi): ``mu = (rating - 1500) / SCALE`` and ``phi = deviation / SCALE`` (step 2). It is
``400 / ln 10``, to the paper's precision."""

BASE_RATING = 1500.0
"""An unrated player's rating, the centre of the Glicko-2 scale (mu = 0)."""

TAU = 0.5
"""The default system constant tau, which constrains the change in volatility over time (the paper
suggests 0.3 to 1.2); ``update`` takes another as its ``tau`` parameter."""

CONVERGENCE_TOLERANCE = 0.000001
"""Epsilon of step 5: the Illinois iteration stops when its bracket is no wider than this."""

MAX_DEVIATION = 350.0
"""The largest deviation, an unrated player's (on the Glicko scale)."""

MIN_DEVIATION = 30.0
"""The smallest deviation a rating period may leave (on the Glicko scale)."""

MIN_WIN_RATE = 0.01
MAX_WIN_RATE = 0.99
"""``advantage_from_win_rate`` clamps a measured win rate to [MIN_WIN_RATE, MAX_WIN_RATE], so no
battle is ever taken for certain: the advantage stays within about +-4.6 on the mu scale."""

SCORES = (0.0, 0.5, 1.0)
"""A result's score: a loss, a draw, a win."""

_MAX_ITERATIONS = 10_000  # the Illinois iteration converges in a few dozen; this only guards a bug


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's Glicko-2 rating on the Glicko scale (step 1 of the paper): ``rating`` (1500 for a
    new player), ``deviation`` (RD, 350 for a new player; between ``MIN_DEVIATION`` and
    ``MAX_DEVIATION``) and ``volatility`` (sigma, 0.06 for a new player; positive)."""

    rating: float = BASE_RATING
    deviation: float = MAX_DEVIATION
    volatility: float = 0.06

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"rating must be finite, not {self.rating!r}")
        if not MIN_DEVIATION <= self.deviation <= MAX_DEVIATION:
            raise ValueError(
                f"deviation must be within [{MIN_DEVIATION}, {MAX_DEVIATION}], not {self.deviation!r}"
            )
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise ValueError(f"volatility must be positive and finite, not {self.volatility!r}")


class Scaled(NamedTuple):
    """One result on the Glicko-2 scale (step 2): the opponent's ``mu`` and ``phi``, the player's
    ``score`` and his side's ``advantage``."""

    mu: float
    phi: float
    score: float
    advantage: float = 0.0


def to_glicko2_scale(rating: float, deviation: float) -> tuple[float, float]:
    """Step 2: a rating and deviation on the Glicko-2 scale, ``(mu, phi)``."""
    return (rating - BASE_RATING) / SCALE, deviation / SCALE


def from_glicko2_scale(mu: float, phi: float) -> tuple[float, float]:
    """Step 8: a mu and phi back on the Glicko scale, ``(rating, deviation)``."""
    return SCALE * mu + BASE_RATING, SCALE * phi


def g(phi: float) -> float:
    """Step 3: the weight ``g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)`` of a result against an opponent
    whose deviation is ``phi``: the less certain his rating, the less the result says."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected_score(mu: float, mu_j: float, phi_j: float, advantage: float = 0.0) -> float:
    """Step 3, side-aware: the expected score ``E = 1 / (1 + exp(-g(phi_j) (mu - mu_j + advantage)))``
    of a player of ``mu`` against an opponent of ``mu_j`` and ``phi_j`` when the player's side has
    ``advantage`` (0: the paper's ``E(mu, mu_j, phi_j)``)."""
    x = g(phi_j) * (mu - mu_j + advantage)
    # The logistic function in the form that cannot overflow for either sign of x.
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def estimated_variance(mu: float, results: Sequence[Scaled]) -> float:
    """Step 3: ``v = 1 / sum(g(phi_j)^2 E (1 - E))``, the estimated variance of the player's rating
    from the period's game outcomes alone (``results`` not empty)."""
    information = 0.0
    for r in results:
        e = expected_score(mu, r.mu, r.phi, r.advantage)
        information += g(r.phi) ** 2 * e * (1.0 - e)
    return 1.0 / information


def improvement(mu: float, v: float, results: Sequence[Scaled]) -> float:
    """Step 4: ``delta = v * sum(g(phi_j) (s_j - E))``, the estimated improvement in rating the
    period's outcomes show."""
    return v * _score_surplus(mu, results)


def new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float = TAU) -> float:
    """Step 5: the new volatility ``sigma'``, the root of the paper's ``f(x)`` found by the Illinois
    algorithm (regula falsi with halving) to ``CONVERGENCE_TOLERANCE``.

    ``f(x) = e^x (delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - a) / tau^2`` with
    ``a = ln(sigma^2)``; ``sigma' = e^(A/2)``. When ``f(C) f(B)`` is exactly 0 the bracket moves as
    when it is negative (``A <- B``), so an exact root ends the iteration."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    tau2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    # 5.2: the initial bracket [A, B].
    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    # 5.3, 5.4: narrow it.
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= CONVERGENCE_TOLERANCE:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    else:  # pragma: no cover - f is monotone decreasing, the iteration always converges
        raise ArithmeticError("the Glicko-2 volatility iteration did not converge")
    # 5.5
    return math.exp(big_a / 2.0)


def pre_period_deviation(phi: float, sigma: float) -> float:
    """Step 6: ``phi* = sqrt(phi^2 + sigma^2)``, the deviation grown by the volatility over one
    period. It is also the whole update of the deviation of a player who played no game in the
    period (his rating and volatility stay as they were)."""
    return math.sqrt(phi * phi + sigma * sigma)


def new_deviation(phi_star: float, v: float) -> float:
    """Step 7: ``phi' = 1 / sqrt(1 / phi*^2 + 1 / v)``, the deviation after the period's games."""
    return 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)


def new_mean(mu: float, phi_new: float, results: Sequence[Scaled]) -> float:
    """Step 7: ``mu' = mu + phi'^2 * sum(g(phi_j) (s_j - E))``, the rating after the period's games."""
    return mu + phi_new * phi_new * _score_surplus(mu, results)


def _score_surplus(mu: float, results: Sequence[Scaled]) -> float:
    """The sum over the period of ``g(phi_j) (s_j - E)`` (steps 4 and 7)."""
    return sum(g(r.phi) * (r.score - expected_score(mu, r.mu, r.phi, r.advantage)) for r in results)


def _clamp_deviation(deviation: float) -> float:
    """A deviation within ``[MIN_DEVIATION, MAX_DEVIATION]``, this server's bounds (clamped on the
    Glicko scale, so that the bound itself survives no round trip through ``SCALE``)."""
    return min(max(deviation, MIN_DEVIATION), MAX_DEVIATION)


def _scaled(result: tuple[Rating, float] | tuple[Rating, float, float]) -> Scaled:
    """Step 2 for one result ``(opponent, score)`` or ``(opponent, score, advantage)``, checked."""
    if len(result) == 2:
        opponent, score = result
        advantage = 0.0
    elif len(result) == 3:
        opponent, score, advantage = result
    else:
        raise ValueError(f"a result is (opponent, score) or (opponent, score, advantage), not {result!r}")
    if not isinstance(opponent, Rating):
        raise TypeError(f"an opponent is a Rating, not {opponent!r}")
    if score not in SCORES:
        raise ValueError(f"a score is 1 (win), 0.5 (draw) or 0 (loss), not {score!r}")
    if not math.isfinite(advantage):
        raise ValueError(f"an advantage must be finite, not {advantage!r}")
    mu_j, phi_j = to_glicko2_scale(opponent.rating, opponent.deviation)
    return Scaled(mu_j, phi_j, float(score), float(advantage))


def update(
    player: Rating,
    results: Sequence[tuple[Rating, float] | tuple[Rating, float, float]],
    tau: float = TAU,
) -> Rating:
    """Steps 1 to 8: the player's rating after one rating period in which he played ``results``.

    Each result is ``(opponent, score)`` or ``(opponent, score, advantage)``: the opponent's rating
    at the start of the period, the player's score (1 a win, 0.5 a draw, 0 a loss) and the
    advantage of the player's side in that battle on the Glicko-2 scale (0 if left out; see
    ``advantage_from_win_rate``; the opponent's update takes ``-advantage``). With no results only
    the deviation changes, grown as step 6 says. The deviation returned is clamped to
    ``[MIN_DEVIATION, MAX_DEVIATION]``."""
    if not (math.isfinite(tau) and tau > 0):
        raise ValueError(f"tau must be positive and finite, not {tau!r}")
    scaled = [_scaled(r) for r in results]  # step 2, the opponents
    mu, phi = to_glicko2_scale(player.rating, player.deviation)  # step 2, the player
    sigma = player.volatility
    if not scaled:  # step 6 alone
        _, deviation = from_glicko2_scale(mu, pre_period_deviation(phi, sigma))
        return Rating(player.rating, _clamp_deviation(deviation), sigma)
    v = estimated_variance(mu, scaled)  # step 3
    delta = improvement(mu, v, scaled)  # step 4
    sigma_new = new_volatility(sigma, phi, v, delta, tau)  # step 5
    phi_star = pre_period_deviation(phi, sigma_new)  # step 6
    # Step 7, with the deviation clamped before mu' is taken from it: mu' moves by phi'^2 times
    # the surplus, so a deviation held at the floor or the ceiling moves the rating accordingly.
    deviation = _clamp_deviation(SCALE * new_deviation(phi_star, v))
    phi_new = deviation / SCALE
    mu_new = new_mean(mu, phi_new, scaled)
    rating, _ = from_glicko2_scale(mu_new, phi_new)  # step 8
    return Rating(rating, deviation, sigma_new)


def advantage_from_win_rate(p: float) -> float:
    """The advantage of a side, on the Glicko-2 (mu) scale, whose measured win rate between equal
    players is ``p`` (strictly between 0 and 1): the logit ``ln(p / (1 - p))`` of ``p`` clamped to
    ``[MIN_WIN_RATE, MAX_WIN_RATE]``.

    It is the natural logit, with no further factor, because the expected score of step 3 is the
    logistic function of ``g * (mu - mu_j + advantage)`` in natural units: between equal players
    whose ratings are certain (``g = 1``) it gives back ``E = p``. On the Glicko scale the same
    advantage is ``400 log10(p / (1 - p))`` rating points, which divided by ``SCALE`` (400 / ln 10)
    is the natural logit again. Between equals whose ratings are uncertain the expected score is
    ``1 / (1 + exp(-g(phi_j) * advantage))``, nearer 1/2 than ``p``, as Glicko-2 discounts any
    difference by the opponent's uncertainty. ``advantage_from_win_rate(1 - p)`` is minus
    ``advantage_from_win_rate(p)``: the other side's."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"a win rate is strictly between 0 and 1, not {p!r}")
    p = min(max(p, MIN_WIN_RATE), MAX_WIN_RATE)
    return math.log(p) - math.log1p(-p)


def conservative(rating: Rating) -> float:
    """This server's leaderboard figure (not in the paper): ``rating - 2 * deviation``, a rating the
    player is about 97.5% sure to be above, so a few lucky games do not top the board."""
    return rating.rating - 2.0 * rating.deviation
