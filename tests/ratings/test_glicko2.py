"""ratings/glicko2.py: Glickman's "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf,
2013) step by step against the figures the paper prints, and this server's additions (side-aware
expectation, deviation bounds, conservative rating) by their properties. The only literal expected
outputs are the paper's published figures; everything else is a property or the paper's formula."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ratings.glicko2 import (
    CONVERGENCE_TOLERANCE,
    MAX_DEVIATION,
    MAX_WIN_RATE,
    MIN_DEVIATION,
    MIN_WIN_RATE,
    SCALE,
    TAU,
    Rating,
    Scaled,
    advantage_from_win_rate,
    conservative,
    estimated_variance,
    expected_score,
    from_glicko2_scale,
    g,
    improvement,
    new_deviation,
    new_mean,
    new_volatility,
    pre_period_deviation,
    to_glicko2_scale,
    update,
)

# The paper's example: a player 1500/200/0.06 plays 1400/30 (win), 1550/100 (loss), 1700/300 (loss).
PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [Rating(1400, 30), Rating(1550, 100), Rating(1700, 300)]
SCORES = [1.0, 0.0, 0.0]
RESULTS = list(zip(OPPONENTS, SCORES, strict=True))
FOUR_PLACES = 0.00005  # a figure the paper prints to 4 decimals is within half a unit of the last
# The paper works v and delta out from its table of g and E rounded to 4 and 3 decimals (1/v =
# 0.9955^2 * 0.639 * 0.361 + ... gives 1.7785 and -0.4834), so exact arithmetic differs from its v
# and delta by about 5e-4 (1.77898, -0.48393); those two are checked to 0.001.
ROUNDED_TABLE = 0.001


def paper_scaled() -> tuple[float, float, list[Scaled]]:
    mu, phi = to_glicko2_scale(PLAYER.rating, PLAYER.deviation)
    scaled = [Scaled(*to_glicko2_scale(o.rating, o.deviation), s) for o, s in RESULTS]
    return mu, phi, scaled


def paper_f(x: float, sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """The paper's f(x) of step 5, written out again here."""
    a = math.log(sigma**2)
    return (
        math.exp(x) * (delta**2 - phi**2 - v - math.exp(x)) / (2 * (phi**2 + v + math.exp(x)) ** 2)
        - (x - a) / tau**2
    )


# ---- the paper's worked example ----


def test_the_defaults_are_the_papers():
    assert Rating() == Rating(1500, 350, 0.06)
    assert TAU == 0.5
    assert SCALE == 173.7178
    assert CONVERGENCE_TOLERANCE == 0.000001


def test_the_papers_example_end_to_end():
    after = update(PLAYER, RESULTS, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_step_2_converts_to_the_glicko2_scale():
    mu, phi, scaled = paper_scaled()
    assert mu == 0
    assert phi == pytest.approx(1.1513, abs=FOUR_PLACES)
    assert [s.mu for s in scaled] == pytest.approx([-0.5756, 0.2878, 1.1513], abs=FOUR_PLACES)
    assert [s.phi for s in scaled] == pytest.approx([0.1727, 0.5756, 1.7269], abs=FOUR_PLACES)


def test_step_3_g_and_e_are_the_papers_table():
    mu, _, scaled = paper_scaled()
    assert [g(s.phi) for s in scaled] == pytest.approx([0.9955, 0.9531, 0.7242], abs=FOUR_PLACES)
    assert [expected_score(mu, s.mu, s.phi) for s in scaled] == pytest.approx(
        [0.639, 0.432, 0.303], abs=0.0005
    )


def test_step_3_estimated_variance():
    mu, _, scaled = paper_scaled()
    assert estimated_variance(mu, scaled) == pytest.approx(1.7785, abs=ROUNDED_TABLE)


def test_step_4_improvement():
    mu, _, scaled = paper_scaled()
    assert improvement(mu, estimated_variance(mu, scaled), scaled) == pytest.approx(
        -0.4834, abs=ROUNDED_TABLE
    )


def test_step_5_new_volatility():
    mu, phi, scaled = paper_scaled()
    v = estimated_variance(mu, scaled)
    assert new_volatility(0.06, phi, v, improvement(mu, v, scaled), 0.5) == pytest.approx(0.05999, abs=1e-5)


def test_step_6_and_7_new_deviation_and_mean():
    mu, phi, scaled = paper_scaled()
    v = estimated_variance(mu, scaled)
    sigma = new_volatility(0.06, phi, v, improvement(mu, v, scaled), 0.5)
    phi_star = pre_period_deviation(phi, sigma)
    assert phi_star == pytest.approx(math.sqrt(phi**2 + sigma**2))
    phi_new = new_deviation(phi_star, v)
    assert phi_new == pytest.approx(0.8722, abs=FOUR_PLACES)
    assert new_mean(mu, phi_new, scaled) == pytest.approx(-0.2069, abs=FOUR_PLACES)


def test_step_8_converts_back():
    mu, phi, scaled = paper_scaled()
    for s, o in zip(scaled, OPPONENTS, strict=True):
        assert from_glicko2_scale(s.mu, s.phi) == pytest.approx((o.rating, o.deviation))
    assert from_glicko2_scale(mu, phi) == pytest.approx((PLAYER.rating, PLAYER.deviation))


@pytest.mark.parametrize(("upset", "results"), [(False, RESULTS), (True, [(Rating(2300, 30), 1.0)] * 3)])
def test_step_5_finds_the_root_of_f(upset, results):
    """The paper's example brackets the root by stepping down (delta^2 <= phi^2 + v); a big upset
    brackets it at ln(delta^2 - phi^2 - v). Either way sigma' is where f(x) = 0."""
    mu, phi = to_glicko2_scale(PLAYER.rating, PLAYER.deviation)
    scaled = [Scaled(*to_glicko2_scale(o.rating, o.deviation), s) for o, s in results]
    v = estimated_variance(mu, scaled)
    delta = improvement(mu, v, scaled)
    assert (delta**2 > phi**2 + v) is upset
    sigma = new_volatility(0.06, phi, v, delta, 0.5)
    x = math.log(sigma**2)
    # f is decreasing; the root lies within the tolerance of x.
    assert paper_f(x - CONVERGENCE_TOLERANCE, 0.06, phi, v, delta, 0.5) > 0
    assert paper_f(x + CONVERGENCE_TOLERANCE, 0.06, phi, v, delta, 0.5) < 0


def test_the_order_of_a_periods_results_does_not_matter():
    forward, backward = update(PLAYER, RESULTS), update(PLAYER, RESULTS[::-1])
    assert forward.rating == pytest.approx(backward.rating, abs=1e-9)
    assert forward.deviation == pytest.approx(backward.deviation, abs=1e-9)
    assert forward.volatility == pytest.approx(backward.volatility, abs=1e-9)


# ---- a period with no games (step 6 alone) ----


def test_no_games_only_grows_the_deviation_as_step_6_says():
    after = update(PLAYER, [])
    phi = PLAYER.deviation / SCALE
    assert after.deviation == pytest.approx(SCALE * math.sqrt(phi**2 + PLAYER.volatility**2))
    assert after.deviation > PLAYER.deviation
    assert after.rating == PLAYER.rating
    assert after.volatility == PLAYER.volatility


def test_idleness_never_grows_the_deviation_past_the_ceiling():
    r = Rating(1800, 340, 0.09)
    for _ in range(50):
        r = update(r, [])
    assert r.deviation == MAX_DEVIATION
    assert update(Rating(), []).deviation == MAX_DEVIATION
    assert r.rating == 1800 and r.volatility == 0.09


# ---- draws, symmetry ----


@given(
    rating=st.floats(500, 2500),
    deviation=st.floats(MIN_DEVIATION, MAX_DEVIATION),
    opponent_deviation=st.floats(MIN_DEVIATION, MAX_DEVIATION),
)
def test_a_draw_between_equals_keeps_the_rating_and_lowers_the_deviation_below_idleness(
    rating, deviation, opponent_deviation
):
    """Below what an idle period would leave: a player whose deviation is already near the floor
    may end a period of one draw a little above where he began, as the volatility grows it (step 6)
    more than one game shrinks it (step 7)."""
    player = Rating(rating, deviation)
    after = update(player, [(Rating(rating, opponent_deviation), 0.5)])
    assert after.rating == pytest.approx(rating, abs=1e-9)
    assert after.deviation < update(player, []).deviation or after.deviation == MIN_DEVIATION


@pytest.mark.parametrize("deviation", [350, 200, 100])
def test_a_draw_between_equals_lowers_the_deviation(deviation):
    player = Rating(1620, deviation)
    after = update(player, [(player, 0.5)])
    assert after.rating == pytest.approx(player.rating, abs=1e-9)
    assert after.deviation < deviation


def test_a_draw_between_new_players():
    after = update(Rating(), [(Rating(), 0.5)])
    assert after.rating == 1500
    assert after.deviation < 350


ratings = st.builds(
    Rating,
    rating=st.floats(500, 2500),
    deviation=st.floats(MIN_DEVIATION, MAX_DEVIATION),
    volatility=st.floats(0.01, 0.2),
)
advantages = st.one_of(st.just(0.0), st.floats(-4.6, 4.6))


@given(a=ratings, b=ratings, advantage=advantages)
def test_a_win_moves_winner_and_loser_in_opposite_directions(a, b, advantage):
    a_after = update(a, [(b, 1.0, advantage)])
    b_after = update(b, [(a, 0.0, -advantage)])
    assert a_after.rating > a.rating
    assert b_after.rating < b.rating


@given(a=ratings, b=ratings)
def test_a_draw_moves_the_stronger_down_and_the_weaker_up(a, b):
    assume(abs(a.rating - b.rating) > 0.001)  # not equals, and a difference floating point can see
    stronger, weaker = (a, b) if a.rating > b.rating else (b, a)
    assert update(stronger, [(weaker, 0.5)]).rating < stronger.rating
    assert update(weaker, [(stronger, 0.5)]).rating > weaker.rating


# ---- side-aware expectation ----


@given(p=st.floats(MIN_WIN_RATE, MAX_WIN_RATE), phi=st.floats(0, MAX_DEVIATION / SCALE))
def test_the_advantage_of_a_win_rate_gives_it_back_as_the_expected_score(p, phi):
    advantage = advantage_from_win_rate(p)
    assert expected_score(0.0, 0.0, 0.0, advantage) == pytest.approx(p)  # g(0) = 1: certain ratings
    assert expected_score(0.3, 0.3, phi, advantage) == pytest.approx(1 / (1 + math.exp(-g(phi) * advantage)))


@given(a=ratings, b=ratings, advantage=st.floats(0.01, 4.6))
def test_a_win_the_balance_predicted_gains_less(a, b, advantage):
    assert update(a, [(b, 1.0, advantage)]).rating < update(a, [(b, 1.0)]).rating


@given(a=ratings, b=ratings, advantage=st.floats(0.01, 4.6))
def test_a_loss_with_the_advantage_costs_more(a, b, advantage):
    assert update(a, [(b, 0.0, advantage)]).rating < update(a, [(b, 0.0)]).rating


def test_an_advantage_of_zero_is_the_paper():
    with_zero = update(PLAYER, [(o, s, 0.0) for o, s in RESULTS])
    assert with_zero == update(PLAYER, RESULTS)


def test_an_even_win_rate_is_no_advantage():
    assert advantage_from_win_rate(0.5) == 0


@given(
    p=st.floats(0, 1, exclude_min=True, exclude_max=True),
    q=st.floats(0, 1, exclude_min=True, exclude_max=True),
)
def test_the_advantage_is_monotone_in_the_win_rate(p, q):
    p, q = min(p, q), max(p, q)
    assert advantage_from_win_rate(p) <= advantage_from_win_rate(q)
    if MIN_WIN_RATE <= p < q <= MAX_WIN_RATE:
        assert advantage_from_win_rate(p) < advantage_from_win_rate(q)


@given(p=st.floats(0, 1, exclude_min=True, exclude_max=True))
def test_the_other_sides_advantage_is_the_opposite(p):
    assume(0 < 1 - p < 1)
    # 1 - p is rounded in floating point, hence approx rather than ==.
    assert advantage_from_win_rate(p) == pytest.approx(-advantage_from_win_rate(1 - p), rel=1e-9, abs=1e-12)


def test_the_advantage_is_the_natural_logit_of_the_clamped_win_rate():
    for p in (0.2, 0.5, 0.65, 0.9):
        assert advantage_from_win_rate(p) == pytest.approx(math.log(p / (1 - p)))
        # the same as 400 log10(p / (1 - p)) rating points on the Glicko scale, divided by SCALE
        assert advantage_from_win_rate(p) == pytest.approx(400 * math.log10(p / (1 - p)) / SCALE, rel=1e-6)
    assert advantage_from_win_rate(1e-9) == advantage_from_win_rate(MIN_WIN_RATE)
    assert advantage_from_win_rate(1 - 1e-9) == advantage_from_win_rate(MAX_WIN_RATE)


@pytest.mark.parametrize("p", [0.0, 1.0, -0.1, 1.5, math.nan])
def test_a_win_rate_is_strictly_between_0_and_1(p):
    with pytest.raises(ValueError):
        advantage_from_win_rate(p)


# ---- bounds, leaderboard, checked inputs ----


@given(r=ratings)
def test_conservative_is_rating_less_two_deviations(r):
    assert conservative(r) == r.rating - 2 * r.deviation


def test_conservative_ranks_a_proven_player_above_a_lucky_one():
    proven, lucky = Rating(1700, 40), Rating(1750, 200)
    assert conservative(proven) > conservative(lucky)


def test_the_deviation_never_falls_below_the_floor():
    r = Rating(1500, MIN_DEVIATION, 0.06)
    for _ in range(20):
        r = update(r, [(Rating(1500, MIN_DEVIATION), 0.5)] * 40)
        assert r.deviation == MIN_DEVIATION


@pytest.mark.parametrize(
    "kwargs",
    [
        {"deviation": MIN_DEVIATION - 0.001},
        {"deviation": MAX_DEVIATION + 0.001},
        {"rating": math.inf},
        {"rating": math.nan},
        {"volatility": 0.0},
        {"volatility": -0.06},
        {"volatility": math.nan},
    ],
)
def test_a_rating_out_of_bounds_cannot_be_made(kwargs):
    with pytest.raises(ValueError):
        Rating(**kwargs)


def test_a_rating_is_frozen():
    with pytest.raises(AttributeError):
        Rating().rating = 1600  # type: ignore[misc]


@pytest.mark.parametrize(
    ("results", "tau"),
    [
        ([(Rating(), 0.7)], 0.5),
        ([(Rating(), 2.0)], 0.5),
        ([(Rating(), 1.0, math.nan)], 0.5),
        ([(Rating(), 1.0, math.inf)], 0.5),
        ([(Rating(),)], 0.5),
        ([(Rating(), 1.0)], 0.0),
        ([(Rating(), 1.0)], -0.5),
    ],
)
def test_bad_results_or_tau_are_refused(results, tau):
    with pytest.raises(ValueError):
        update(Rating(), results, tau=tau)


def test_an_opponent_must_be_a_rating():
    with pytest.raises(TypeError):
        update(Rating(), [((1500, 350, 0.06), 1.0)])


# ---- properties over random periods ----

wide_ratings = st.builds(
    Rating,
    rating=st.floats(0, 3500),
    deviation=st.floats(MIN_DEVIATION, MAX_DEVIATION),
    volatility=st.floats(0.001, 1.0),
)
results_strategy = st.lists(
    st.one_of(
        st.tuples(wide_ratings, st.sampled_from([0.0, 0.5, 1.0])),
        st.tuples(
            wide_ratings,
            st.sampled_from([0.0, 0.5, 1.0]),
            st.floats(MIN_WIN_RATE, MAX_WIN_RATE).map(advantage_from_win_rate),
        ),
    ),
    max_size=15,
)


def assert_sound(r: Rating) -> None:
    assert math.isfinite(r.rating)
    assert MIN_DEVIATION <= r.deviation <= MAX_DEVIATION
    assert math.isfinite(r.volatility) and r.volatility > 0


@settings(max_examples=300, deadline=None)
@given(player=wide_ratings, results=results_strategy, tau=st.floats(0.2, 1.5))
def test_one_period_keeps_a_rating_sound(player, results, tau):
    assert_sound(update(player, results, tau=tau))


@settings(max_examples=50, deadline=None)
@given(player=wide_ratings, periods=st.lists(results_strategy, min_size=1, max_size=12))
def test_many_periods_keep_a_rating_sound(player, periods):
    for results in periods:
        player = update(player, results)
        assert_sound(player)
