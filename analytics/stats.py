"""Statistics for win rates: the Wilson score interval.

A win rate measured over ``n`` games is a binomial proportion. Its plain
normal-approximation ("Wald") interval, ``p ± z·sqrt(p(1-p)/n)``, collapses to
a single point when ``p`` is 0 or 1 and is too narrow for small ``n``; the
Wilson score interval (Wilson 1927) keeps close to its nominal coverage for
every ``p`` and ``n``, and never leaves [0, 1]. That is why every win rate in
cardlab carries a Wilson interval.

With ``p = wins / n`` and ``z`` the two-sided standard-normal quantile for the
confidence level (1.959963984540054 for 95%)::

    centre = (p + z²/(2n)) / (1 + z²/n)
    half   = z / (1 + z²/n) · sqrt(p(1-p)/n + z²/(4n²))
    low, high = centre - half, centre + half

Equivalently, ``low`` and ``high`` are the two roots in ``p̂`` of
``(p - p̂)² = z²·p̂(1-p̂)/n``, i.e. the proportions whose score test does not
reject the observed ``p``.

Conventions: with ``n = 0`` nothing is known and the interval is the whole of
[0, 1]; ``low`` and ``high`` are clamped to [0, 1] to absorb rounding (they are
inside mathematically), and are exactly 0 at no win and exactly 1 at ``n`` wins
(where the formula's two terms cancel, in floating point only to ~1e-19). The
same formula, in the same operation order, is registered in DuckDB as the macros
``wilson_low(w, n[, z := ...])`` and ``wilson_high(w, n[, z := ...])`` by
``register_sql_macros``, so a SQL user gets the numbers of ``wilson_interval``
to the last few bits.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import duckdb


def z_for_confidence(confidence: float) -> float:
    """The two-sided standard-normal quantile: ``Φ⁻¹(1/2 + confidence/2)``.

    1.959963984540054 for 0.95, 2.5758293035489 for 0.99.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


Z95 = z_for_confidence(0.95)
"""``z`` of the 95% interval, the default everywhere (also in the SQL macros)."""


def wilson_interval(wins: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of the proportion ``wins / n``.

    See the module docstring for the formula. ``n = 0`` gives ``(0.0, 1.0)``; ``wins`` and
    ``n`` may be fractional (an effective sample size, as in SQL).
    Raises ``ValueError`` unless ``0 <= wins <= n`` and ``0 < confidence < 1``.
    """
    if n < 0 or wins < 0 or wins > n:
        raise ValueError(f"expected 0 <= wins <= n, got wins={wins!r}, n={n!r}")
    z = z_for_confidence(confidence)
    if n == 0:
        return (0.0, 1.0)
    return (_wilson_low(wins, n, z), _wilson_high(wins, n, z))


# The two bounds below and the SQL macros share one operation order, so that
# Python and DuckDB round identically (both use IEEE doubles).
def _wilson_low(wins: float, n: float, z: float) -> float:
    # No win: the low end is 0 exactly (the formula's two terms cancel only to ~1e-19).
    if wins <= 0:
        return 0.0
    p = wins / n
    return max(0.0, (p + z * z / (2 * n)) / (1 + z * z / n) - z / (1 + z * z / n) * math.sqrt(
        p * (1 - p) / n + z * z / (4 * n * n)))


def _wilson_high(wins: float, n: float, z: float) -> float:
    # Every trial a win: the high end is 1 exactly.
    if wins >= n:
        return 1.0
    p = wins / n
    return min(1.0, (p + z * z / (2 * n)) / (1 + z * z / n) + z / (1 + z * z / n) * math.sqrt(
        p * (1 - p) / n + z * z / (4 * n * n)))


def _macro_body(sign: str, clamp: str, bound: str, exact: str) -> str:
    # ``w`` and ``n`` are cast to DOUBLE first: counts arrive as BIGINT or
    # HUGEINT, and integer arithmetic must not sneak into the formula.
    # ``exact``: where the bound is ``bound`` itself (0 wins for the low end,
    # n wins for the high one), returned as such rather than as the formula's
    # rounding residue (1e-19), as ``_wilson_low``/``_wilson_high`` do.
    p = "(w::DOUBLE / n::DOUBLE)"
    nd = "n::DOUBLE"
    return (
        f"CASE WHEN n = 0 OR {exact} THEN {bound} ELSE {clamp}({bound}, "
        f"({p} + z * z / (2 * {nd})) / (1 + z * z / {nd}) {sign} z / (1 + z * z / {nd}) * sqrt("
        f"{p} * (1 - {p}) / {nd} + z * z / (4 * {nd} * {nd}))) END"
    )


WILSON_LOW_SQL = (f"CREATE OR REPLACE MACRO wilson_low(w, n, z := {Z95!r}) AS "
                  f"{_macro_body('-', 'greatest', '0.0', 'w <= 0')}")
WILSON_HIGH_SQL = (f"CREATE OR REPLACE MACRO wilson_high(w, n, z := {Z95!r}) AS "
                   f"{_macro_body('+', 'least', '1.0', 'w >= n')}")
NORMAL_Z_SQL = f"CREATE OR REPLACE MACRO normal_z(z := {Z95!r}) AS z"
"""The z of the normal intervals of the metric views (means over games), 95% by default:
redefined with the Wilson macros when a balance search asks for another level."""




# ====================================================================== tests
#
# Everything below is plain ``math`` (no scipy at run time) and each function
# has a SQL twin, registered by ``register_sql_macros``, written with the same
# formula so that a DuckDB view and the Python function give the same numbers.
# The golden tests compare both with scipy and statsmodels.


def normal_sf(z: float) -> float:
    """Upper tail of the standard normal distribution, ``P(Z > z) = erfc(z/√2)/2``."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def chi2_sf(x: float, df: int) -> float:
    """Upper tail ``P(X > x)`` of the chi-square distribution with integer ``df`` degrees of freedom.

    Closed forms of the regularized upper incomplete gamma function
    ``Q(df/2, x/2)`` for integer ``df`` (Abramowitz & Stegun 26.4.4-26.4.5)::

        even df:  Q = Σ_{i<df/2}           exp(i·ln(x/2) − x/2 − lnΓ(i+1))
        odd df:   Q = erfc(√(x/2)) + Σ_{i<(df−1)/2} exp((i+½)·ln(x/2) − x/2 − lnΓ(i+3/2))

    Each term is taken through logarithms so that huge statistics (millions
    of games) underflow cleanly to 0 instead of producing ``0·∞``.
    """
    if df < 1 or int(df) != df:
        raise ValueError(f"df must be a positive integer, got {df!r}")
    if x <= 0:
        return 1.0
    half = x / 2.0
    log_half = math.log(half)
    if df % 2 == 0:
        total = sum(math.exp(i * log_half - half - math.lgamma(i + 1)) for i in range(df // 2))
    else:
        total = math.erfc(math.sqrt(half)) + sum(
            math.exp((i + 0.5) * log_half - half - math.lgamma(i + 1.5)) for i in range((df - 1) // 2))
    return min(1.0, max(0.0, total))


def chi_square_uniform(counts: list[int] | tuple[int, ...]) -> tuple[float, int, float]:
    """Pearson's chi-square goodness-of-fit test of ``counts`` against equal shares.

    ``counts[k]`` are the wins of seat ``k``; under the null hypothesis every
    seat wins ``1/N`` of the decided games, so the expected count is
    ``E = Σ counts / N``. Returns ``(statistic, df, p)`` with
    ``statistic = Σ (O − E)² / E``, ``df = N − 1`` and ``p = chi2_sf``.
    With no wins at all there is no evidence either way: ``(0, N − 1, 1)``.
    """
    n = len(counts)
    if n < 2:
        raise ValueError(f"need at least two categories, got {n}")
    total = sum(counts)
    if total == 0:
        return (0.0, n - 1, 1.0)
    expected = total / n
    statistic = sum((count - expected) ** 2 for count in counts) / expected
    return (statistic, n - 1, chi2_sf(statistic, n - 1))


def two_proportion_ztest(wins_a: int, n_a: int, wins_b: int, n_b: int) -> tuple[float, float]:
    """Two-sided z-test of equal proportions with the pooled variance.

    ``z = (p_b − p_a) / sqrt(p̄(1 − p̄)(1/n_a + 1/n_b))`` with ``p̄`` the pooled
    proportion; ``p = 2·normal_sf(|z|)``. Positive ``z`` means ``b`` (the
    variant) is higher than ``a`` (the baseline). Returns ``(z, p)``;
    ``(0, 1)`` when a side has no games or the pooled rate is 0 or 1 (no
    variance, no evidence of a difference).
    """
    if n_a <= 0 or n_b <= 0:
        return (0.0, 1.0)
    pooled = (wins_a + wins_b) / (n_a + n_b)
    variance = pooled * (1 - pooled) * (1 / n_a + 1 / n_b)
    if variance <= 0:
        return (0.0, 1.0)
    z = (wins_b / n_b - wins_a / n_a) / math.sqrt(variance)
    return (z, math.erfc(abs(z) / math.sqrt(2.0)))


def mcnemar(only_a: int, only_b: int, correction: bool = True) -> tuple[float, float]:
    """McNemar's test for paired binary outcomes (the same seeds played twice).

    ``only_a``: pairs where only the baseline game was a win; ``only_b``: only
    the variant's. ``statistic = (|only_a − only_b| − 1)² / (only_a + only_b)``
    with the continuity correction (without: no ``− 1``, as statsmodels'
    ``mcnemar(exact=False, correction=...)``), compared with chi-square on one
    degree of freedom. Returns ``(statistic, p)``; ``(0, 1)`` without
    discordant pairs.
    """
    discordant = only_a + only_b
    if discordant <= 0:
        return (0.0, 1.0)
    difference = float(abs(only_a - only_b))
    if correction:
        # Edwards' correction as written (and as statsmodels computes it):
        # not clamped at 0, so b = c gives 1/(b + c) rather than 0.
        difference -= 1.0
    statistic = difference * difference / discordant
    return (statistic, math.erfc(math.sqrt(statistic / 2.0)))


MEAN_STEP = 1.0
"""The smallest difference between two games' values of a count averaged per game (turns,
decisions, levels, wipes are whole numbers): the scale of ``mean_variance``'s floor."""


def mean_variance(variance: float, n: float, confidence: float = 0.95) -> float:
    """The sample variance of a count per game over ``n`` games, at least what ``n`` games
    without spread cannot rule out: ``max(variance, u·(1 − u)·MEAN_STEP²)``, ``u = z²/(n + z²)``.

    ``n`` games that all lasted 5 turns do not prove that every game does: a share up to
    ``u`` (the Wilson upper bound of 0 events in ``n``) may last a turn more or less, and a
    count that varies that way has the variance of a binomial share ``u`` in steps of
    ``MEAN_STEP``. So a mean's interval and a difference's test keep a width where a sample
    happened to show no spread (every game of a short run alike): about ``±2.8·MEAN_STEP/n``
    for a mean, never ``[Δ, Δ]`` with ``p = 0``. Where the games spread more than that
    (every sizeable sample of a game whose length varies), the sample variance itself, as
    Welch's test has it. NaN (one game: the spread unknown) stays NaN. SQL:
    ``mean_variance(variance, n)``."""
    if n <= 0 or math.isnan(variance):
        return variance
    u = _wilson_high(0.0, n, z_for_confidence(confidence))
    return max(variance, u * (1 - u) * MEAN_STEP * MEAN_STEP)


def welch_ztest(mean_a: float, var_a: float, n_a: int, mean_b: float, var_b: float,
                n_b: int) -> tuple[float, float]:
    """Large-sample two-sided test of equal means (turns, decisions per game).

    ``z = (mean_b − mean_a) / sqrt(var_a/n_a + var_b/n_b)`` with the sample
    variances, each at least ``mean_variance``'s floor, ``p = 2·normal_sf(|z|)``.

    Without variance on either side (every game of the baseline lasted 5 turns,
    every game of the variant 4) the floor is the variance: a small sample without
    spread does not make the difference certain (``z`` finite, ``p > 0``). With equal
    means ``(0, 1)``. A side with fewer than two games has no sample variance (its
    spread is unknown, not zero): ``(0, 1)``, no evidence.
    """
    if n_a < 2 or n_b < 2 or math.isnan(var_a) or math.isnan(var_b):
        return (0.0, 1.0)
    variance = mean_variance(var_a, n_a) / n_a + mean_variance(var_b, n_b) / n_b
    z = (mean_b - mean_a) / math.sqrt(variance)
    return (z, math.erfc(abs(z) / math.sqrt(2.0)))


def skewed_mean_interval(n: float, total: float, total_sq: float, total_cube: float,
                         confidence: float = 0.95) -> tuple[float, float]:
    """The interval of the mean of ``n`` values from their sums ``Σx``, ``Σx²``, ``Σx³``, corrected
    for their skewness (Hall 1992, "On the removal of skewness by transformation", *JRSS B*
    54:221, the monotone form of Johnson's 1978 modified t).

    With ``x̄ = Σx/n``, ``s²`` the sample variance (at least ``mean_variance``'s floor),
    ``μ₃ = Σ(x − x̄)³/n`` and ``γ = μ₃/s³``, the statistic ``√n·g((x̄ − μ)/s)`` with
    ``g(t) = t + γt²/3 + γ²t³/27 + γ/(6n)`` is nearly normal where ``√n(x̄ − μ)/s`` is skewed
    against the values (a sample whose mean came out low has a small spread too). ``g`` is
    monotone, ``g(t) = ((1 + γt/3)³ − 1)/γ + γ/(6n)``, so the interval is
    ``[x̄ − s·g⁻¹(z/√n), x̄ − s·g⁻¹(−z/√n)]`` with
    ``g⁻¹(u) = 3(c − 1)/γ = 3v/(c² + c + 1)``, ``v = u − γ/(6n)``, ``c = ∛(1 + γv)`` (the
    second form exact at ``γ = 0``, where it is ``x̄ ± z·s/√n``). Values that rarely differ
    and then one way (a variant that adds a decision now and then on the same seeds) get
    the longer side where the rare values lie. ``(x̄, x̄)`` without variance (fewer than two
    values). SQL: ``skewed_mean_low(n, s1, s2, s3)`` and ``skewed_mean_high(...)``."""
    if n < 2:
        mean = total / n if n > 0 else math.nan
        return (mean, mean)
    z = z_for_confidence(confidence)
    mean = total / n
    variance = mean_variance(max(0.0, (total_sq - total * mean) / (n - 1)), n, confidence)
    spread = math.sqrt(variance)
    third = total_cube / n - 3 * mean * total_sq / n + 2 * mean * mean * mean
    skew = third / (spread * variance)

    def inverse(u: float) -> float:
        shifted = u - skew / (6 * n)
        root = math.cbrt(1 + skew * shifted)
        return 3 * shifted / (root * root + root + 1)

    return (mean - spread * inverse(z / math.sqrt(n)), mean - spread * inverse(-z / math.sqrt(n)))


def benjamini_hochberg(pvalues: list[float] | tuple[float, ...]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (q-values), in the input order.

    With the ``m`` p-values sorted ascending, ``q_(i) = min_{j ≥ i} p_(j)·m/j``,
    capped at 1; rejecting every hypothesis with ``q ≤ α`` keeps the false
    discovery rate at most ``α``. Equal to statsmodels'
    ``multipletests(p, method="fdr_bh")[1]``.
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda index: pvalues[index])
    adjusted = [0.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        index = order[rank - 1]
        running = min(running, pvalues[index] * m / rank)
        adjusted[index] = running
    return adjusted


PRIOR_GRID_LOW = -1.0
"""log10 of the smallest prior strength ``s = alpha + beta`` the beta-binomial fit tries."""
PRIOR_GRID_HIGH = 8.0
"""log10 of the largest one: a best fit there means the data cannot tell the cards apart."""
PRIOR_COARSE_STEP = 0.05
"""Step (in log10 s) of the first, coarse pass of the fit."""
PRIOR_FINE_STEP = 0.001
"""Step of the second pass, within one coarse step of the coarse optimum."""
PRIOR_TOLERANCE = 0.01
"""Log-likelihood by which the best fit must beat the top of the grid (the rates
all alike) for the prior to count as identified; below it the differences are noise."""


def beta_binomial_log_likelihood(wins: Sequence[float], games: Sequence[float], mean: float, strength: float) -> float:
    """The beta-binomial log marginal likelihood of ``wins_k`` out of ``games_k``
    under a beta prior of mean ``mean`` and strength ``strength = alpha + beta``,
    without the binomial coefficients (they do not depend on the prior)::

        Σ_k lnB(w_k + α, n_k − w_k + β) − lnB(α, β),   α = m·s, β = (1 − m)·s
    """
    alpha, beta = mean * strength, (1 - mean) * strength
    base = math.lgamma(alpha) + math.lgamma(beta) - math.lgamma(strength)
    return sum(math.lgamma(w + alpha) + math.lgamma(n - w + beta) - math.lgamma(n + strength) - base
               for w, n in zip(wins, games, strict=True))


def _grid(low: float, high: float, step: float) -> list[float]:
    count = round((high - low) / step)
    return [low + index * step for index in range(count + 1)]


@dataclass(frozen=True)
class BetaPrior:
    """The fitted beta prior of many win rates (``beta_binomial_prior``).

    ``mean`` is the pooled rate; ``strength = alpha + beta`` the number of
    games the prior counts as (null when not ``identified``: the rates differ
    no more than binomial noise would make them); ``spread`` the standard
    deviation of the true rates it implies, ``sqrt(m(1 − m)/(s + 1))``.
    """

    mean: float
    strength: float | None

    @property
    def identified(self) -> bool:
        """Whether the data tell the rates apart (the fit is not at the top of the grid)."""
        return self.strength is not None

    @property
    def alpha(self) -> float | None:
        """``m·s``, or None when not identified."""
        return None if self.strength is None else self.mean * self.strength

    @property
    def beta(self) -> float | None:
        """``(1 − m)·s``, or None when not identified."""
        return None if self.strength is None else (1 - self.mean) * self.strength

    @property
    def spread(self) -> float:
        """Standard deviation of the true rates under the prior (0 when not identified)."""
        return 0.0 if self.strength is None else math.sqrt(self.mean * (1 - self.mean) / (self.strength + 1))

    def shrink(self, wins: float, games: float) -> float:
        """The posterior mean ``(wins + m·s)/(games + s)``; ``m`` when not identified."""
        if self.strength is None:
            return self.mean
        return (wins + self.mean * self.strength) / (games + self.strength)


def beta_binomial_prior(wins: Sequence[float], games: Sequence[float], mean: float | None = None) -> BetaPrior | None:
    """Empirical-Bayes beta prior of many win rates, fitted by marginal likelihood.

    The cards' win rates ``w_k / n_k`` scatter around the pooled mean
    ``m = Σ w / Σ n`` for two reasons: real differences between cards and
    binomial noise. The prior's mean is ``m``; its strength ``s = α + β``
    maximises ``beta_binomial_log_likelihood`` over a grid of ``log10 s``
    (``PRIOR_GRID_LOW`` to ``PRIOR_GRID_HIGH`` in steps of ``PRIOR_COARSE_STEP``,
    then within one coarse step of the best in steps of ``PRIOR_FINE_STEP``;
    the SQL view ``card_stats`` runs the same two passes). A small ``s`` means
    the cards differ a lot (little shrinkage), a large one that they hardly
    differ. When the top of the grid (the rates all alike) fits within
    ``PRIOR_TOLERANCE`` as well as the best point, the data cannot identify
    any difference: ``strength`` is None and every rate shrinks to ``m`` (the
    report and the dashboard say so).

    The counts may be effective ones (fractional): ``card_stats`` fits each card's
    games in hand clustered by game (``clustered_effective_n``) and the GIH rate of them
    won, with ``mean`` the pooled rate of the raw counts (default: ``Σ wins / Σ games``
    of those given). Raw seat-game counts overstate (or understate) how much binomial
    noise the rates carry when one game puts a card in several hands, and so the
    strength.

    Only cards with games count. Returns None with fewer than two such cards
    or a pooled mean of 0 or 1 (no spread to fit).
    """
    pairs = [(w, n) for w, n in zip(wins, games, strict=True) if n > 0]
    if len(pairs) < 2:
        return None
    if mean is None:
        mean = sum(w for w, _ in pairs) / sum(n for _, n in pairs)
    if mean <= 0 or mean >= 1:
        return None
    card_wins, card_games = [w for w, _ in pairs], [n for _, n in pairs]

    def log_likelihood(x: float) -> float:
        return beta_binomial_log_likelihood(card_wins, card_games, mean, 10.0 ** x)

    def best(grid: list[float]) -> tuple[float, float]:
        # (log-likelihood, x) of the best grid point; ties go to the smaller strength.
        score, negative_x = max((log_likelihood(x), -x) for x in grid)
        return score, -negative_x

    coarse_grid = _grid(PRIOR_GRID_LOW, PRIOR_GRID_HIGH, PRIOR_COARSE_STEP)
    score, coarse = best(coarse_grid)
    if score <= log_likelihood(coarse_grid[-1]) + PRIOR_TOLERANCE:
        return BetaPrior(mean=mean, strength=None)
    _, fine = best([coarse + offset for offset in _grid(-PRIOR_COARSE_STEP, PRIOR_COARSE_STEP, PRIOR_FINE_STEP)])
    return BetaPrior(mean=mean, strength=10.0 ** fine)


# ====================================================================== intervals over clustered seat-games
#
# A rate pooled over seat-games (an agent at several seats of a game, a card
# in several hands, a cooperative party) counts seat-games whose outcomes are
# linked within a game: exactly one winner in a competitive game, one shared
# outcome in a cooperative one. The game is then the independent unit, and
# the variance of the pooled rate comes from the per-game sums (the
# cluster-robust "sandwich" variance of a ratio estimator).


CLUSTER_CAP = 100.0
"""Largest effective sample, in multiples of ``n``. A rate whose games spread less than a
hundredth of a binomial's around it shows *no spread* (``shows_no_spread``): every game
gave (nearly) the same share of its seat-games' wins, as one agent in every seat of games
without draws does (1/N) in the games a sample happened to hold. Its effective sample is
``100·n`` (a cap, not a size, which the report prints as ``-``). Its interval is not the
rate itself: ``clustered_interval`` keeps the width of what the games did not show."""


def clustered_effective_n(n: float, wins: float, n_sq: float, wins_sq: float, cross: float,
                          clusters: float) -> float:
    """The effective number of independent trials of a rate pooled over clustered seat-games.

    ``n = Σ n_g`` seat-games and ``wins = Σ w_g`` wins over games ``g``, with
    ``n_sq = Σ n_g²``, ``wins_sq = Σ w_g²``, ``cross = Σ n_g·w_g`` and
    ``clusters`` the number of games with ``n_g > 0``. With ``p = wins / n``
    the cluster-robust variance of ``p`` is ``V = Σ (w_g − p·n_g)² / n²``
    ``= (wins_sq − 2p·cross + p²·n_sq) / n²``, and the effective ``n`` is the
    binomial sample with that variance: ``p(1 − p)/V``. One seat-game per game
    gives back ``n`` exactly; a cooperative party of ``k`` heroes sharing each
    outcome gives the number of games; a competitive agent at several seats of
    one game (only one can win) gives more than ``n`` (at most ``CLUSTER_CAP·n``,
    where the games show no spread, ``shows_no_spread``).
    At ``p`` = 0 or 1 the variance says nothing, and the (conservative) number
    of games is used.
    """
    if n <= 0:
        return 0.0
    p = wins / n
    if p <= 0 or p >= 1:
        return float(clusters)
    spread = cluster_spread(n, wins, n_sq, wins_sq, cross)
    if spread * CLUSTER_CAP <= p * (1 - p) * n:
        return CLUSTER_CAP * n
    return p * (1 - p) * n * n / spread


def shows_no_spread(effective_n: float, n: float) -> bool:
    """Whether a clustered rate over ``n`` seat-games, of effective sample ``effective_n``,
    is at the ``CLUSTER_CAP``: its games hardly spread around it, so its effective n is a
    cap rather than a sample size (its interval keeps a width: ``clustered_interval``)."""
    return n > 0 and effective_n >= CLUSTER_CAP * n


def no_spread_interval(p: float, clusters: float, confidence: float = 0.95) -> tuple[float, float]:
    """The least an interval of a rate ``p`` over ``clusters`` games must hold, however
    alike the games were: ``[p − u·p, p + u·(1 − p)]`` with ``u = z²/(G + z²)``, the
    Wilson upper bound of 0 events in ``G = clusters`` games.

    A sample of ``G`` games that all gave the same share ``p`` cannot rule out that a
    share ``u`` of all games gives another one, as low as 0 or as high as 1 (a draw,
    a tie for first, a rare loss of a dominant agent): the true rate is then
    ``(1 − u)·p + u·s`` for some ``s`` in [0, 1]. ``(0, 1)`` without games. SQL:
    ``no_spread_low(p, clusters)`` and ``no_spread_high(p, clusters)``."""
    if clusters <= 0:
        return (0.0, 1.0)
    u = _wilson_high(0.0, clusters, z_for_confidence(confidence))
    return (p - u * p, p + u * (1 - p))


def clustered_interval(n: float, wins: float, n_sq: float, wins_sq: float, cross: float, clusters: float,
                       confidence: float = 0.95, hits: float | None = None) -> tuple[float, float]:
    """The 95% interval of a rate ``wins / n`` over seat-games clustered by game (the sums
    of ``clustered_effective_n``); ``(0, 1)`` without games. Two cases:

    - **Every game holds the same number of the rate's seat-games** ``k = n / clusters``
      (an agent's seats in a lineup, a card in every hand) and ``hits``, the games with
      at least one win, is known: the rate is the wins per game over ``k``, and wins per
      game are the games won (``hits``) plus the extra wins of games won at several
      seats (``wins − hits``: ties, or a party sharing its win). The interval of each is
      the Wilson interval over the games (the extra wins per game as a share of the
      ``k − 1`` other seats), joined into the interval of their sum with the correlation
      of the two per-game indicators (Newcombe's, ``sum_interval``), over ``k``
      (``per_game_interval``). It is asymmetric where the games are: an agent at two seats
      that wins nearly every game (50% of its seat-games) is uncertain by its rare lost
      games, not by a binomial spread around 50%; one seat per game gives the plain
      Wilson interval, a cooperative party of ``k`` the Wilson interval over games.
    - Otherwise: the Wilson interval at the effective sample size,
      ``wilson(p·n_eff, n_eff)``, widened where needed to ``no_spread_interval``: however
      alike the sample's games were (an effective n at the cap), its width says how many
      games it had.
    """
    if n <= 0:
        return (0.0, 1.0)
    z = z_for_confidence(confidence)
    if hits is not None and clusters > 0 and same_size_games(n, n_sq, clusters):
        return per_game_interval(n, wins, wins_sq, clusters, hits, confidence)
    effective = clustered_effective_n(n, wins, n_sq, wins_sq, cross, clusters)
    p = wins / n
    low, high = _wilson_low(p * effective, effective, z), _wilson_high(p * effective, effective, z)
    floor_low, floor_high = no_spread_interval(p, clusters, confidence)
    return (min(low, floor_low), max(high, floor_high))


def same_size_games(n: float, n_sq: float, clusters: float) -> bool:
    """Whether every one of ``clusters`` games holds the same number of seat-games
    (``Σn_g² · G = (Σn_g)²``, the equality case of Cauchy-Schwarz). SQL ``same_size_games``."""
    return clusters > 0 and abs(n_sq * clusters - n * n) <= 1e-9 * n * n


def per_game_interval(n: float, wins: float, wins_sq: float, clusters: float, hits: float,
                      confidence: float = 0.95) -> tuple[float, float]:
    """The interval of ``wins / n`` when each of ``G = clusters`` games holds ``k = n / G``
    of the rate's seat-games (``clustered_interval``, first case).

    With ``a_g = 1`` when game ``g`` had a win (``hits = Σa_g``) and ``t_g = w_g − a_g`` its
    extra wins, ``p = (Σa_g + Σt_g) / (k·G)``. ``Σa_g / G`` gets the Wilson interval over
    ``G`` games; ``Σt_g / G``, ``k − 1`` times the Wilson interval of ``Σt_g/(k − 1)`` over
    ``G`` games (each game's extra wins as a share of its other ``k − 1`` seats: a variable
    in [0, 1], whose variance a binomial's bounds). Their correlation over the games,
    ``ρ = cov(a, t)/(sd_a·sd_t)`` with ``cov = mean(t)·(1 − mean(a))`` (``t_g > 0`` only
    where ``a_g = 1``) and ``Σt_g² = wins_sq − 2·wins + hits``, joins them
    (``sum_interval``). ``k = 1``: the Wilson interval of ``hits`` over ``G``."""
    z = z_for_confidence(confidence)
    k = n / clusters
    won = min(max(hits, 0.0), clusters)
    won_low, won_high = _wilson_low(won, clusters, z), _wilson_high(won, clusters, z)
    rate_won = won / clusters
    extra = max(0.0, wins - won)
    others = k - 1
    if others <= 0:
        return (min(1.0, max(0.0, won_low / k)), min(1.0, max(0.0, won_high / k)))
    share = min(extra / others, clusters)
    extra_low = others * _wilson_low(share, clusters, z)
    extra_high = others * _wilson_high(share, clusters, z)
    mean_extra = extra / clusters
    spread_won = rate_won * (1 - rate_won)
    spread_extra = max(0.0, (wins_sq - 2 * wins + won) / clusters - mean_extra * mean_extra)
    rho = 0.0
    if spread_won > 0 and spread_extra > 0:
        rho = max(-1.0, min(1.0, mean_extra * (1 - rate_won) / math.sqrt(spread_won * spread_extra)))
    low, high = sum_interval(rate_won, won_low, won_high, mean_extra, extra_low, extra_high, rho)
    return (min(1.0, max(0.0, low / k)), min(1.0, max(0.0, high / k)))


def sum_interval(value_a: float, low_a: float, high_a: float, value_b: float, low_b: float, high_b: float,
                 rho: float = 0.0) -> tuple[float, float]:
    """The interval of ``a + b`` from each one's own interval and their correlation ``rho``:
    Newcombe's difference (``newcombe_difference``) of ``b`` and ``−a`` (correlation
    ``−rho``), i.e. ``a + b ∓ sqrt(d_a² + d_b² + 2ρ·d_a·d_b)`` with ``d`` each one's
    distance to its bound on that side (the "method of variance estimates recovery")."""
    return newcombe_difference(-value_a, -high_a, -low_a, value_b, low_b, high_b, -rho)


def newcombe_difference(p_a: float, low_a: float, high_a: float, p_b: float, low_b: float,
                        high_b: float, phi: float = 0.0) -> tuple[float, float]:
    """Newcombe's interval of ``p_b − p_a`` from each rate's own (Wilson) interval::

        low  = (p_b − p_a) − sqrt((p_b − low_b)² + (high_a − p_a)² − 2φ·(p_b − low_b)(high_a − p_a))
        high = (p_b − p_a) + sqrt((high_b − p_b)² + (p_a − low_a)² − 2φ·(high_b − p_b)(p_a − low_a))

    With ``phi = 0``, two independent samples (Newcombe 1998, "Interval estimation
    for the difference between independent proportions", method 10). It keeps its
    coverage near 0 and 1, where the plain ``Δ ± z·se`` collapses. With ``phi``
    the correlation of the two rates' estimates (``paired_correlation``), the same
    rates measured on the same seeds: Newcombe's hybrid score interval for paired
    data (Newcombe 1998, "Improved confidence intervals for the difference between
    binomial proportions based on paired data", method 10), the card rates' paired
    interval; given two parts of one difference and their correlation, the MOVER interval
    of the difference (Zou & Donner 2008), the win rates' paired one (``paired_difference``). SQL:
    ``newcombe_low(pa, la, ua, pb, lb, ub[, phi := ...])`` and ``newcombe_high(...)``.
    """
    delta = p_b - p_a
    down_b, up_a = p_b - low_b, high_a - p_a
    up_b, down_a = high_b - p_b, p_a - low_a
    # max(0, ·): with |phi| <= 1 the sum is a square's, >= 0 but for rounding.
    return (delta - math.sqrt(max(0.0, down_b * down_b + up_a * up_a - 2 * phi * down_b * up_a)),
            delta + math.sqrt(max(0.0, up_b * up_b + down_a * down_a - 2 * phi * up_b * down_a)))


def cluster_spread(n: float, wins: float, n_sq: float, wins_sq: float, cross: float) -> float:
    """``Σ_g (w_g − p·n_g)²`` with ``p = wins / n``, from the sums ``n = Σn_g``, ``wins = Σw_g``,
    ``n_sq = Σn_g²``, ``wins_sq = Σw_g²``, ``cross = Σn_g·w_g``: ``n²`` times the cluster-robust
    variance of the rate (``clustered_effective_n``); ``p(1 − p)·n`` for one trial per game.
    ``w_g`` may be negative (a paired difference ``d_g``). 0 without trials."""
    if n <= 0:
        return 0.0
    p = wins / n
    return max(0.0, wins_sq - 2 * p * cross + p * p * n_sq)


def paired_correlation(spread_a: float, spread_b: float, spread_d: float) -> float:
    """The correlation ``φ`` of two rates measured on the same games, for Newcombe's paired interval.

    ``spread_a``, ``spread_b``: ``cluster_spread`` of each rate (``S_a = Σ(x_g − p_a·n_g)²``,
    ``S_b`` likewise for ``y_g``) over the matched games; ``spread_d``: that of the per-game
    differences ``d_g = y_g − x_g`` around ``Δ = p_b − p_a``. Then the cross-product
    ``C = Σ(x_g − p_a·n_g)(y_g − p_b·n_g) = (S_a + S_b − S_d)/2`` and ``φ = C / sqrt(S_a·S_b)``:
    for one trial per game (a 2×2 table a, b, c, d of N pairs) ``C = (ad − bc)/N`` and this is
    Newcombe's ``φ̂ = (ad − bc)/sqrt((a+b)(c+d)(a+c)(b+d))``. With his continuity correction
    (Newcombe 1998, method 10): ``ad − bc`` above ``N/2`` is lowered by ``N/2``, between 0 and
    ``N/2`` it counts as 0, below 0 it stays; in terms of ``C``: ``C − 1/2``, 0, ``C``. Without
    spread on a side (a rate of 0 or 1: a margin of the table is 0) ``φ = 0``. The correction
    is what keeps a width when no pair is discordant (``b = c = 0`` gives ``φ`` just below 1,
    not 1). SQL: ``paired_phi(spread_a, spread_b, spread_d)``.
    """
    if spread_a <= 0 or spread_b <= 0:
        return 0.0
    cross = (spread_a + spread_b - spread_d) / 2
    if cross > 0.5:
        cross -= 0.5
    elif cross > 0:
        cross = 0.0
    return max(-1.0, min(1.0, cross / math.sqrt(spread_a * spread_b)))


def discordant_correlation(pairs: float, n_sq: float, positive: tuple[float, float, float],
                           negative: tuple[float, float, float], both: float = 0.0) -> float:
    """The correlation of the two discordant parts of paired differences (``paired_difference``).

    Over matched games ``g`` with ``n_g`` pairs (``pairs = Σn_g``, ``n_sq = Σn_g²``):
    ``positive = (ΣP_g, ΣP_g², Σn_g·P_g)`` of ``P_g = max(d_g, 0)`` and ``negative`` the same
    of ``M_g = max(−d_g, 0)``. With ``p₊ = ΣP/pairs``, ``p₋ = ΣM/pairs`` and each part's
    ``cluster_spread`` ``S₊``, ``S₋``: as ``P_g·M_g = 0`` in every game, the cross-product is
    ``C = Σ(P_g − p₊·n_g)(M_g − p₋·n_g) = −p₋·Σn_g·P_g − p₊·Σn_g·M_g + p₊·p₋·Σn_g²`` and
    ``r = C / sqrt(S₊·S₋)``; 0 when a spread is 0. For one pair per game (a 2×2 table with
    ``b`` pairs only the baseline's, ``c`` only the variant's, of ``N``):
    ``r = −sqrt(b·c / ((N − b)(N − c)))``. Parts that may both be positive in a game (the
    linearised parts of a card rate, ``linearised_parts``) add ``both = ΣP_g·M_g`` to ``C``.
    SQL: ``discordant_phi(n, n_sq, wp, nwp, sp, wm, nwm, sm[, pm := both])`` (``sp``, ``sm``: the
    two spreads)."""
    if pairs <= 0:
        return 0.0
    spread_p = cluster_spread(pairs, positive[0], n_sq, positive[1], positive[2])
    spread_m = cluster_spread(pairs, negative[0], n_sq, negative[1], negative[2])
    if spread_p <= 0 or spread_m <= 0:
        return 0.0
    rate_p, rate_m = positive[0] / pairs, negative[0] / pairs
    cross = both - rate_m * positive[2] - rate_p * negative[2] + rate_p * rate_m * n_sq
    return max(-1.0, min(1.0, cross / math.sqrt(spread_p * spread_m)))


def paired_difference(pairs: float, n_sq: float, clusters: float, positive: tuple[float, float, float],
                      negative: tuple[float, float, float], confidence: float = 0.95,
                      hits: tuple[float, float] | None = None, both: float = 0.0) -> tuple[float, float, float, float]:
    """The paired comparison of a rate played twice on the same seeds (clustered by game).

    Over the matched games ``g`` (``clusters`` of them), each with ``n_g`` matched seat-games
    (``pairs = Σn_g``, ``n_sq = Σn_g²``), ``d_g = y_g − x_g`` the variant's wins minus the
    baseline's, split into its discordant parts ``P_g = max(d_g, 0)`` (pairs won only in the
    variant, net) and ``M_g = max(−d_g, 0)`` (only in the baseline): ``positive = (ΣP_g, ΣP_g²,
    Σn_g·P_g)``, ``negative`` the same of ``M_g``. Returns ``(statistic, p, low, high)``:

    - the statistic ``(|Σd| − 1)² / Σd²`` on chi-square(1), with ``Σd = ΣP − ΣM`` and
      ``Σd² = ΣP² + ΣM²``: McNemar's test with the continuity correction when every ``n_g``
      is 1 (then ``ΣP`` and ``ΣM`` are the two counts of discordant pairs);
    - the interval of ``Δ = p₊ − p₋`` (``p₊ = ΣP/pairs``, ``p₋ = ΣM/pairs``): the MOVER
      interval of a difference of two correlated rates (the "method of variance estimates
      recovery", Zou & Donner 2008, *Stat Med* 27:1693), each part's own interval
      (``clustered_interval``; with ``hits``, the games with ``P_g > 0`` and with
      ``M_g > 0``) joined by their correlation (``discordant_correlation``) in
      ``newcombe_difference``. Each end follows its own part's score interval, so it
      stays right where discordant pairs are few and run one way (a buff that only ever
      turns losses into wins, on the same random numbers): the interval of the two rates
      joined by their correlation (Newcombe's method 10) behaves there like ``Δ ± z·se``,
      short above a low count. With no discordant pair it keeps the width of a part of
      0 in ``clusters`` games on each side: zero discordant pairs do not prove the rates
      equal.

    ``both``: ``ΣP_g·M_g``, where a game may hold both parts (``linearised_parts``); 0 for the
    discordant parts of one difference ``d_g``.
    """
    if pairs <= 0:
        return (0.0, 1.0, -1.0, 1.0)
    sum_d, sum_d2 = positive[0] - negative[0], positive[1] + negative[1] - 2 * both
    statistic = 0.0 if sum_d2 <= 0 else (abs(sum_d) - 1.0) ** 2 / sum_d2
    p_value = math.erfc(math.sqrt(statistic / 2.0))
    hits_p, hits_m = hits if hits is not None else (None, None)
    low_p, high_p = clustered_interval(pairs, positive[0], n_sq, positive[1], positive[2], clusters, confidence,
                                       hits_p)
    low_m, high_m = clustered_interval(pairs, negative[0], n_sq, negative[1], negative[2], clusters, confidence,
                                       hits_m)
    low, high = newcombe_difference(negative[0] / pairs, low_m, high_m, positive[0] / pairs, low_p, high_p,
                                    discordant_correlation(pairs, n_sq, positive, negative, both))
    return (statistic, p_value, low, high)


LINEARISED_SUMS = ("wu", "ld", "wd", "lu", "wu_wu", "wu_ld", "ld_ld", "wd_wd", "wd_lu", "lu_lu",
                   "m_wu", "m_ld", "m_wd", "m_lu", "wu_lu", "ld_wd")
"""The per-game sums ``linearised_parts`` takes, over the matched games: with ``Δw_g`` the
variant's successes minus the baseline's in game ``g`` and ``Δl_g`` the same of the failures
(trials less successes), ``wu = Σmax(Δw, 0)``, ``wd = Σmax(−Δw, 0)``, ``lu = Σmax(Δl, 0)``,
``ld = Σmax(−Δl, 0)``; ``a_b`` the sum of the products of two of them, ``m_a`` of one with the
variant's trials ``m_g``."""


def linearised_parts(rate: float, sums: Mapping[str, float]) -> tuple[tuple[float, float, float],
                                                                     tuple[float, float, float], float]:
    """The two discordant parts of the linearised per-game difference of a rate whose trials
    differ between the paired games (a card's seat-games in hand), for ``paired_difference``.

    The baseline has ``x_g`` successes of ``n_g`` trials in game ``g``, the variant ``y_g`` of
    ``m_g``; ``p_b = Σx/Σn`` is the baseline's ``rate``. As ``Σ(x_g − p_b·n_g) = 0``,
    ``p_v − p_b = Σd_g / Σm`` exactly, with ``d_g = (y_g − x_g) − p_b·(m_g − n_g)
    = (1 − p_b)·Δw_g − p_b·Δl_g``: 0 in a game the variant played alike, ``(1 − p_b)`` for a
    success it added, ``−p_b`` for a failure. Its parts ``P_g = (1 − p_b)·max(Δw_g, 0) +
    p_b·max(−Δl_g, 0)`` and ``M_g = (1 − p_b)·max(−Δw_g, 0) + p_b·max(Δl_g, 0)`` (``d_g = P_g −
    M_g``) are sums of the counts of ``LINEARISED_SUMS`` weighted by ``p_b``, so they add up
    over games whatever ``p_b`` turns out to be. Returns ``(ΣP, ΣP², Σm·P)``, ``(ΣM, ΣM²,
    Σm·M)`` and ``ΣP·M`` (a game may add both a success and a failure:
    ``ΣP·M = p_b(1 − p_b)·Σ(max(Δw, 0)·max(Δl, 0) + max(−Δl, 0)·max(−Δw, 0))``)."""
    p, q = rate, 1.0 - rate
    positive = (q * sums["wu"] + p * sums["ld"],
                q * q * sums["wu_wu"] + 2 * q * p * sums["wu_ld"] + p * p * sums["ld_ld"],
                q * sums["m_wu"] + p * sums["m_ld"])
    negative = (q * sums["wd"] + p * sums["lu"],
                q * q * sums["wd_wd"] + 2 * q * p * sums["wd_lu"] + p * p * sums["lu_lu"],
                q * sums["m_wd"] + p * sums["m_lu"])
    return positive, negative, q * p * (sums["wu_lu"] + sums["ld_wd"])


def games_for_difference(p: float, delta: float, power: float = 0.8, alpha: float = 0.05) -> int:
    """Games needed *per arm* to detect a change of win rate from ``p`` to ``p + delta``.

    The classic normal-approximation formula for a two-sided two-proportion
    z-test at level ``alpha`` with the given ``power`` (Fleiss, Statistical
    Methods for Rates and Proportions, 3rd ed., eq. 4.14, without continuity
    correction)::

        n = (z_{1−α/2}·sqrt(2·p̄(1 − p̄)) + z_{power}·sqrt(p₁(1 − p₁) + p₂(1 − p₂)))² / δ²

    with ``p₁ = p``, ``p₂ = p + δ``, ``p̄ = (p₁ + p₂)/2``; rounded up.
    """
    p2 = p + delta
    if not (0.0 < p < 1.0 and 0.0 < p2 < 1.0) or delta == 0:
        raise ValueError(f"expected 0 < p < 1, 0 < p + delta < 1 and delta != 0, got p={p!r}, delta={delta!r}")
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must be strictly between 0 and 1, got {power!r}")
    z_alpha = z_for_confidence(1.0 - alpha)
    z_power = NormalDist().inv_cdf(power)
    mean = (p + p2) / 2
    root = z_alpha * math.sqrt(2 * mean * (1 - mean)) + z_power * math.sqrt(p * (1 - p) + p2 * (1 - p2))
    return math.ceil(root * root / (delta * delta) - 1e-9)


def power_of_difference(p: float, delta: float, n: int, alpha: float = 0.05) -> float:
    """The power of the two-sided two-proportion z-test with ``n`` games per arm
    (the inverse of ``games_for_difference``, ignoring the far tail)."""
    p2 = p + delta
    z_alpha = z_for_confidence(1.0 - alpha)
    mean = (p + p2) / 2
    spread = math.sqrt(p * (1 - p) + p2 * (1 - p2))
    return 1.0 - NormalDist().cdf((z_alpha * math.sqrt(2 * mean * (1 - mean)) - abs(delta) * math.sqrt(n)) / spread)


def games_for_interval(p: float, width: float, confidence: float = 0.95) -> int:
    """Games needed for the Wilson interval of a rate near ``p`` to be at most ``width`` wide.

    Uses the normal approximation ``width = 2·z·sqrt(p(1 − p)/n)``, then
    steps ``n`` up until the Wilson interval itself is narrow enough.
    """
    if not 0.0 < width < 1.0:
        raise ValueError(f"width must be strictly between 0 and 1, got {width!r}")
    z = z_for_confidence(confidence)
    n = max(1, math.ceil(4 * z * z * p * (1 - p) / (width * width)))
    while True:
        wins = round(p * n)
        low, high = _wilson_low(wins, n, z), _wilson_high(wins, n, z)
        if high - low <= width:
            return n
        n = math.ceil(n * 1.01) + 1


# ----------------------------------------------------------- SQL versions

ERFC_SWITCH = 2.0
_ERFC_SERIES_TERMS = 30
_ERFC_FRACTION_DEPTH = 40


def _erfc_sql(x: str, square: str) -> str:
    """``erfc`` of a non-negative SQL expression ``x`` (``square``: its square), to ~1e-15 absolute.

    DuckDB has no ``erf``. Below ``ERFC_SWITCH``: ``1 − erf`` with the series
    ``erf(x) = 2/√π·exp(−x²)·Σ 2ᵏx^(2k+1)/(1·3·…·(2k+1))`` (all terms
    positive, so no cancellation), 30 terms in Horner form in ``x²``; above it the
    continued fraction ``erfc(x) = exp(−x²)/√π / (x + ½/(x + 1/(x + 3/2/(x + …))))``,
    40 levels deep: each to 6e-16 of ``math.erfc`` on a fine grid of its range. ``x`` and
    ``square`` should be bound names (the caller's lambda): each is named 30 times or more.
    """
    coefficients = []
    value = 1.0
    for k in range(_ERFC_SERIES_TERMS):
        coefficients.append(value)
        value = value * 2 / (2 * k + 3)
    horner = repr(coefficients[-1])
    for coefficient in reversed(coefficients[:-1]):
        horner = f"({horner}) * {square} + {coefficient!r}"
    series = f"1 - {2 / math.sqrt(math.pi)!r} * exp(-{square}) * {x} * ({horner})"
    fraction = x
    for k in range(_ERFC_FRACTION_DEPTH, 0, -1):
        fraction = f"{x} + {k / 2!r} / ({fraction})"
    continued = f"exp(-{square}) / {math.sqrt(math.pi)!r} / ({fraction})"
    return f"CASE WHEN {x} < {ERFC_SWITCH!r} THEN {series} ELSE {continued} END"


def _chi2_sf_sql(x: str) -> str:
    # Each sum's terms as a list over i (lgamma: DuckDB's, the C library's as Python's);
    # ln of a positive stand-in: CASE branches may be evaluated for every row.
    half, log_half = f"({x} / 2)", f"ln(greatest({x}, 1e-300) / 2)"
    terms_even = f"list_transform(range(df // 2), lambda i: exp(i * {log_half} - {half} - lgamma(i + 1)))"
    terms_odd = (f"list_transform(range((df - 1) // 2), lambda i: exp((i + 0.5) * {log_half} - {half} "
                 "- lgamma(i + 1.5)))")
    return (f"CASE WHEN df IS NULL OR {x} IS NULL THEN NULL WHEN {x} <= 0 THEN 1.0 "
            f"WHEN df % 2 = 0 THEN least(1.0, greatest(0.0, coalesce(list_sum({terms_even}), 0.0))) "
            f"ELSE least(1.0, greatest(0.0, erfc(sqrt({x} / 2)) + coalesce(list_sum({terms_odd}), 0.0))) END")


CHI2_MAX_DF = 64
"""``chi2_sf`` in SQL handles up to this many degrees of freedom (NULL beyond)."""

def _once(value: str, body: str) -> str:
    """``body`` (an expression in ``t``) with ``t`` bound to ``value`` once.

    A DuckDB macro is expanded textually, so a long formula that names its
    argument 120 times would copy the argument's own expression 120 times,
    and nested macros multiply that: binding the argument through a
    one-element list lambda keeps each expression written once."""
    return f"list_transform([({value})::DOUBLE], lambda t: {body})[1]"


def _bind(values: dict[str, str], name: str, body: str) -> str:
    """``body`` with ``name.<key>`` bound to each of ``values`` (SQL expressions) once, as
    ``_once`` does for one value: a struct in a one-element list, through a lambda."""
    fields = ", ".join(f"'{key}': ({value})" for key, value in values.items())
    return f"list_transform([{{{fields}}}], lambda {name}: {body})[1]"


STATS_SQL = [
    # erfc(x) for any x: erfc(−x) = 2 − erfc(x).
    # The formula written once, for |x|: binding its few hundred terms is most of what a view
    # that tests a difference costs to bind.
    "CREATE OR REPLACE MACRO erfc(x) AS " + _once("x", _bind(
        {"e": _bind({"a": "abs(t)", "s": "t * t"}, "ef_", _erfc_sql("ef_.a", "ef_.s"))}, "er_",
        "CASE WHEN t IS NULL THEN NULL WHEN t >= 0 THEN er_.e ELSE 2 - er_.e END")),
    "CREATE OR REPLACE MACRO normal_sf(z) AS 0.5 * erfc(z / sqrt(2.0))",
    f"CREATE OR REPLACE MACRO chi2_sf(x, df) AS CASE WHEN df > {CHI2_MAX_DF} THEN NULL ELSE "
    + _once("x", _chi2_sf_sql("t")) + " END",
    # Pooled two-proportion z (b minus a) and its two-sided p-value; 0 and 1 without variance.
    "CREATE OR REPLACE MACRO prop_z(wa, na, wb, nb) AS " + _once(
        "(wa + wb)::DOUBLE / (na + nb)",
        "CASE WHEN na <= 0 OR nb <= 0 OR t * (1 - t) <= 0 THEN 0.0 "
        "ELSE (wb::DOUBLE / nb - wa::DOUBLE / na) / sqrt(t * (1 - t) * (1.0 / na + 1.0 / nb)) END"),
    "CREATE OR REPLACE MACRO prop_p(wa, na, wb, nb) AS erfc(abs(prop_z(wa, na, wb, nb)) / sqrt(2.0))",
    # McNemar with the continuity correction.
    "CREATE OR REPLACE MACRO mcnemar_stat(a, b) AS CASE WHEN a + b <= 0 THEN 0.0 ELSE "
    "(abs(a - b) - 1.0) ** 2 / (a + b) END",
    "CREATE OR REPLACE MACRO mcnemar_p(a, b) AS erfc(sqrt(mcnemar_stat(a, b) / 2))",
    # mean_variance: a sample variance of a count per game, at least u(1 − u)·MEAN_STEP²
    # (u: the Wilson upper bound of 0 events in n games).
    "CREATE OR REPLACE MACRO mean_variance(v, n) AS CASE WHEN n IS NULL OR n <= 0 OR v IS NULL OR isnan(v) THEN v "
    "ELSE " + _once("wilson_high(0.0, n)", f"greatest(v::DOUBLE, t * (1 - t) * {MEAN_STEP * MEAN_STEP!r})") + " END",
    # Welch's z (b minus a), each variance at least mean_variance's floor; 0 when a side has
    # fewer than two games (a NULL or NaN variance: its spread is unknown).
    "CREATE OR REPLACE MACRO welch_z(ma, va, na, mb, vb, nb) AS CASE WHEN na < 2 OR nb < 2 "
    "OR va IS NULL OR vb IS NULL OR isnan(va) OR isnan(vb) THEN 0.0 "
    "ELSE (mb - ma) / sqrt(mean_variance(va, na) / na + mean_variance(vb, nb) / nb) END",
    # skewed_mean_interval: the mean of n values from Σx, Σx², Σx³, corrected for their skewness
    # (Hall's transformation, inverted: g⁻¹(u) = 3v/(c² + c + 1), v = u − γ/(6n), c = ∛(1 + γv)).
    *(f"CREATE OR REPLACE MACRO skewed_mean_{side}(n, s1, s2, s3) AS CASE WHEN n IS NULL OR n < 2 "
      "THEN s1::DOUBLE / n ELSE " + _bind(
          {"n": "n::DOUBLE", "m": "s1::DOUBLE / n", "s2": "s2::DOUBLE", "s3": "s3::DOUBLE",
           "v": "mean_variance(greatest(0.0, (s2::DOUBLE - s1::DOUBLE * (s1::DOUBLE / n)) / (n - 1)), n)"}, "sk_",
          _bind({"sd": "sqrt(sk_.v)", "g": "(sk_.s3 / sk_.n - 3 * sk_.m * sk_.s2 / sk_.n + 2 * sk_.m * sk_.m * sk_.m) "
                 "/ (sqrt(sk_.v) * sk_.v)"}, "sg_",
                _bind({"h": f"{'' if side == 'low' else '-'}{Z95!r} / sqrt(sk_.n) - sg_.g / (6 * sk_.n)"}, "sh_",
                      _bind({"c": "cbrt(1 + sg_.g * sh_.h)"}, "sc_",
                            "sk_.m - sg_.sd * (3 * sh_.h / (sc_.c * sc_.c + sc_.c + 1))")))) + " END"
      for side in ("low", "high")),
    # clustered_effective_n: the effective sample size of a rate over clustered seat-games.
    "CREATE OR REPLACE MACRO clustered_n(n, w, n_sq, w_sq, nw, clusters) AS CASE "
    "WHEN n IS NULL OR n <= 0 THEN 0.0 WHEN w <= 0 OR w >= n THEN clusters::DOUBLE ELSE " + _once(
        "w::DOUBLE / n::DOUBLE",
        f"CASE WHEN (w_sq::DOUBLE - 2 * t * nw::DOUBLE + t * t * n_sq::DOUBLE) * {CLUSTER_CAP!r} "
        f"<= t * (1 - t) * n::DOUBLE THEN {CLUSTER_CAP!r} * n::DOUBLE "
        "ELSE t * (1 - t) * n::DOUBLE * n::DOUBLE / (w_sq::DOUBLE - 2 * t * nw::DOUBLE + t * t * n_sq::DOUBLE) END"
    ) + " END",
    f"CREATE OR REPLACE MACRO shows_no_spread(effective, n) AS n > 0 AND effective >= {CLUSTER_CAP!r} * n",
    # cluster_spread: Σ(w_g − p·n_g)² from the sums (w_g may be a paired difference).
    "CREATE OR REPLACE MACRO cluster_spread(n, w, n_sq, w_sq, nw) AS CASE WHEN n IS NULL OR n <= 0 THEN 0.0 "
    "ELSE " + _once("w::DOUBLE / n::DOUBLE",
                    "greatest(0.0, w_sq::DOUBLE - 2 * t * nw::DOUBLE + t * t * n_sq::DOUBLE)") + " END",
    # paired_correlation: Newcombe's continuity-corrected φ from the spreads of the two rates
    # and of their per-game differences.
    "CREATE OR REPLACE MACRO paired_phi(sa, sb, sd) AS CASE WHEN sa <= 0 OR sb <= 0 THEN 0.0 ELSE " + _once(
        "(sa::DOUBLE + sb::DOUBLE - sd::DOUBLE) / 2",
        "greatest(-1.0, least(1.0, (CASE WHEN t > 0.5 THEN t - 0.5 WHEN t > 0 THEN 0.0 ELSE t END) "
        "/ sqrt(sa::DOUBLE * sb::DOUBLE)))") + " END",
    # discordant_correlation from the sums of the two discordant parts and their spreads.
    "CREATE OR REPLACE MACRO discordant_phi(n, n_sq, wp, nwp, sp, wm, nwm, sm, pm := 0.0) AS CASE "
    "WHEN n IS NULL OR n <= 0 "
    "OR sp <= 0 OR sm <= 0 THEN 0.0 ELSE " + _bind(
        {"p": "wp::DOUBLE / n::DOUBLE", "m": "wm::DOUBLE / n::DOUBLE"}, "dc_",
        "greatest(-1.0, least(1.0, (pm::DOUBLE - dc_.m * nwp::DOUBLE - dc_.p * nwm::DOUBLE "
        "+ dc_.p * dc_.m * n_sq::DOUBLE) "
        "/ sqrt(sp::DOUBLE * sm::DOUBLE)))") + " END",
    # newcombe_difference: the interval of pb − pa from both rates' intervals, paired with phi
    # (DOUBLE first: a decimal literal's products overflow DECIMAL(38)). Each argument bound
    # once: the callers pass whole interval macros, which written out at each use made the
    # views that join two clustered intervals several times longer to bind.
    *(f"CREATE OR REPLACE MACRO newcombe_{side}(pa, la, ua, pb, lb, ub, phi := 0.0) AS " + _bind(
        {"pa": "pa::DOUBLE", "pb": "pb::DOUBLE", "near": f"{near}::DOUBLE", "far": f"{far}::DOUBLE",
         "phi": "phi::DOUBLE"}, "nc_",
        f"(nc_.pb - nc_.pa) {sign} sqrt(greatest(0.0, (nc_.pb - nc_.near) * (nc_.pb - nc_.near) "
        "+ (nc_.far - nc_.pa) * (nc_.far - nc_.pa) - 2 * nc_.phi * (nc_.pb - nc_.near) * (nc_.far - nc_.pa)))")
      for side, sign, near, far in (("low", "-", "lb", "ua"), ("high", "+", "ub", "la"))),
    # no_spread_interval: [p − u·p, p + u·(1 − p)], u = wilson_high(0, clusters).
    "CREATE OR REPLACE MACRO no_spread_low(p, g) AS CASE WHEN g IS NULL OR g <= 0 THEN 0.0 "
    "ELSE p - wilson_high(0.0, g) * p END",
    "CREATE OR REPLACE MACRO no_spread_high(p, g) AS CASE WHEN g IS NULL OR g <= 0 THEN 1.0 "
    "ELSE p + wilson_high(0.0, g) * (1 - p) END",
    "CREATE OR REPLACE MACRO same_size_games(n, n_sq, g) AS g > 0 "
    "AND abs(n_sq::DOUBLE * g - n::DOUBLE * n) <= 1e-9 * n::DOUBLE * n",
    # per_game_interval: the games won and their extra wins, each a Wilson interval over the
    # games, joined by sum_interval (Newcombe's difference of b and -a), over k.
    *(f"CREATE OR REPLACE MACRO per_game_{side}(n, w, w_sq, g, h) AS " + _bind(
        {"k": "n::DOUBLE / g", "g": "g::DOUBLE", "h": "least(greatest(h::DOUBLE, 0.0), g::DOUBLE)",
         "w": "w::DOUBLE", "w_sq": "w_sq::DOUBLE"}, "pg_",
        f"CASE WHEN pg_.k - 1 <= 0 THEN least(1.0, greatest(0.0, wilson_{side}(pg_.h, pg_.g) / pg_.k)) ELSE " + _bind(
            {"a": "pg_.h / pg_.g", "t": "greatest(0.0, pg_.w - pg_.h) / pg_.g",
             "s": "least(greatest(0.0, pg_.w - pg_.h) / (pg_.k - 1), pg_.g)", "o": "pg_.k - 1",
             "ext": "greatest(0.0, (pg_.w_sq - 2 * pg_.w + pg_.h) / pg_.g "
                    "- greatest(0.0, pg_.w - pg_.h) / pg_.g * greatest(0.0, pg_.w - pg_.h) / pg_.g)"}, "pe_",
            f"least(1.0, greatest(0.0, newcombe_{side}(-pe_.a, -wilson_high(pg_.h, pg_.g), -wilson_low(pg_.h, pg_.g), "
            "pe_.t, pe_.o * wilson_low(pe_.s, pg_.g), pe_.o * wilson_high(pe_.s, pg_.g), "
            "phi := -(CASE WHEN pe_.a * (1 - pe_.a) > 0 AND pe_.ext > 0 THEN greatest(-1.0, least(1.0, "
            "pe_.t * (1 - pe_.a) / sqrt(pe_.a * (1 - pe_.a) * pe_.ext))) ELSE 0.0 END)) / pg_.k))") + " END")
      for side in ("low", "high")),
    # clustered_interval from the sums: per_game_* when every game holds as many of the
    # rate's seat-games and its games with a win (hits) are known, else the Wilson bounds at
    # clustered_n widened to the no-spread interval.
    *(f"CREATE OR REPLACE MACRO clustered_{side}(n, w, n_sq, w_sq, nw, g, hits) AS CASE "
      f"WHEN n IS NULL OR n <= 0 THEN {'0.0' if side == 'low' else '1.0'} "
      f"WHEN hits IS NOT NULL AND same_size_games(n, n_sq, g) THEN per_game_{side}(n, w, w_sq, g, hits) "
      "ELSE " + _bind({"p": "w::DOUBLE / n", "e": "clustered_n(n, w, n_sq, w_sq, nw, g)"}, "cl_",
                      f"{'least' if side == 'low' else 'greatest'}(wilson_{side}(cl_.p * cl_.e, cl_.e), "
                      f"no_spread_{side}(cl_.p, g))") + " END"
      for side in ("low", "high")),
]


def register_sql_macros(con: duckdb.DuckDBPyConnection) -> None:
    """Define the statistics macros on ``con``.

    ``wilson_low(w, n[, z := ...])`` and ``wilson_high(w, n[, z := ...])``
    (``z`` defaults to the 95% quantile; pass ``z := 2.5758293035489004`` for
    99%), ``normal_z()`` (the z of the views' normal intervals, 95%), ``erfc(x)``, ``normal_sf(z)``, ``chi2_sf(x, df)``,
    ``prop_z(wa, na, wb, nb)`` and ``prop_p(...)`` (two-proportion z-test, b
    minus a), ``mcnemar_stat(a, b)`` and ``mcnemar_p(a, b)`` (with the
    continuity correction), ``mean_variance(v, n)``, ``welch_z(ma, va, na, mb, vb, nb)``,
    ``clustered_n(n, w, n_sq, w_sq, nw, clusters)`` (``clustered_effective_n``),
    ``shows_no_spread(effective, n)``, ``no_spread_low(p, clusters)`` and ``no_spread_high``
    (``no_spread_interval``), ``same_size_games(n, n_sq, clusters)``, ``per_game_low(n, w,
    w_sq, clusters, hits)`` and ``per_game_high`` (``per_game_interval``),
    ``clustered_low(n, w, n_sq, w_sq, nw, clusters, hits)`` and ``clustered_high(...)``
    (``clustered_interval``; ``hits`` NULL where the games with a win are not counted),
    ``cluster_spread(n, w, n_sq, w_sq, nw)``,
    ``paired_phi(sa, sb, sd)`` (``paired_correlation``), ``discordant_phi(n, n_sq, wp, nwp, sp,
    wm, nwm, sm[, pm := ...])`` (``discordant_correlation``), ``skewed_mean_low(n, s1, s2, s3)``
    and ``skewed_mean_high(...)`` (``skewed_mean_interval``), ``newcombe_low(pa, la, ua,
    pb, lb, ub[, phi := ...])`` and ``newcombe_high(...)`` (``newcombe_difference``):
    the SQL twins of the Python functions of the same names.
    """
    con.execute(WILSON_LOW_SQL)
    con.execute(WILSON_HIGH_SQL)
    con.execute(NORMAL_Z_SQL)
    for statement in STATS_SQL:
        con.execute(statement)
