"""A skill scale: Bradley–Terry ratings of every agent configuration from the
games that seat different agents together, with bootstrap intervals.

**Model.** Each agent ``a`` has a strength ``θ_a``; in a game, agent ``a``
finishes ahead of agent ``b`` with probability ``1 / (1 + exp(θ_b - θ_a))``
(Bradley–Terry, i.e. logistic in the difference). Every game that seats two
different agents gives one comparison per pair of seats with different
agents: 1 to the seat with the better rank, 0 to the other, 1/2 each when
their ranks are equal (a draw). Ratings are printed on the Elo scale
(``400 · log10`` of the odds: +200 means winning about 76% of games against
the agent rated 0) with the ``anchor`` agent at 0: the first agent of the
ladder order (``analytics.skill.ladder_order``; ``random`` in the shipped
ladders). Variants are pooled when they play the same rules and player
count, as in the agent-versus-agent matrix; mirror games (one agent on
every seat) say nothing about relative skill and are left out.

**Fit.** Maximum likelihood by Newton's method, with one *virtual draw*
added to every pair of agents that met (half a win each way), so that a
pair in which one agent won every game still has a finite rating gap (and a
small sample is pulled slightly towards equal strength). Agents that are not
linked to the anchor by a chain of games are rated apart, in a group of
their own with its own anchor (``fit_linked_groups``).

**Intervals** (95%): bootstrap by game, stratified by variant — each
replicate redraws every variant's games with replacement (multinomially over
the distinct seat-by-seat outcomes, which is the same and costs nothing per
game) and refits; ``BOOTSTRAP_REPLICATES`` replicates from a fixed seed, so
a report is reproducible; the 2.5th to 97.5th percentile. The unit of
evidence is the game: the comparisons of one multi-player game are
resampled together. Where one agent won every game against another, every
replicate is the same and that interval would have no width, so the
interval shown is the wider of the bootstrap one and the model's ±1.96
standard errors (inverse Fisher information of the fit, virtual draws
included), which keeps a 20-0 sweep's uncertainty in view; with a game's
seats linked (more than two players) the bootstrap is the wider one.

**Adjacent agents.** Sorted by rating, each agent and the next one up:
their rating difference with its own interval (same method), whether their
two rating intervals are disjoint (``intervals_separate``), and whether the
difference's interval excludes zero (``difference_excludes_zero``). The
second is the test of the order: the two ratings' intervals share the
anchor's uncertainty (both are measured from the same anchor), so disjoint
intervals ask for more than the data need, the more so the further the
pair is from the anchor; a ladder's order is resolved where every adjacent
difference excludes zero, and beyond doubt where the intervals separate too.

``agent_ratings`` and ``adjacent_gaps`` return Polars frames; the pure
functions below them work on plain numbers and are tested on synthetic data
with known strengths.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import duckdb
import numpy
import polars as pl

from analytics.stats import z_for_confidence

ELO_PER_UNIT = 400 / math.log(10)
"""Elo points per unit of the Bradley–Terry strength (natural log-odds)."""
BOOTSTRAP_REPLICATES = 1000
BOOTSTRAP_SEED = 16
VIRTUAL_DRAWS = 1.0
"""Virtual drawn games added to every pair of agents that met (see the module docstring)."""
CONFIDENCE = 0.95
_NEWTON_STEPS = 100
_NEWTON_TOLERANCE = 1e-10

RATING_SCHEMA = {
    "rules": pl.String, "n_players": pl.Int64, "agent": pl.String, "anchor": pl.String, "games": pl.Int64,
    "comparisons": pl.Int64, "rating": pl.Float64, "rating_low": pl.Float64, "rating_high": pl.Float64,
    "rank": pl.Int64,
}
GAP_SCHEMA = {
    "rules": pl.String, "n_players": pl.Int64, "anchor": pl.String, "lower": pl.String, "upper": pl.String,
    "difference": pl.Float64, "difference_low": pl.Float64, "difference_high": pl.Float64,
    "intervals_separate": pl.Boolean, "difference_excludes_zero": pl.Boolean,
}


@dataclass(frozen=True)
class Outcome:
    """Games of one variant that ended the same way seat by seat: the agent
    and the rank (1 = best) of each seat, and how many games."""

    variant: str
    agents: tuple[str, ...]
    ranks: tuple[int, ...]
    games: int


def comparisons_of(agents: Sequence[str], ranks: Sequence[int]) -> list[tuple[str, str, float]]:
    """The pairwise comparisons of one game: (agent, other agent, the first's
    score: 1 ahead, 0 behind, 1/2 level) for every pair of seats with
    different agents."""
    found = []
    for first in range(len(agents)):
        for second in range(first + 1, len(agents)):
            if agents[first] == agents[second]:
                continue
            score = 0.5 if ranks[first] == ranks[second] else float(ranks[first] < ranks[second])
            found.append((agents[first], agents[second], score))
    return found


def fit_strengths(wins: numpy.ndarray, games: numpy.ndarray, anchor: int = 0,
                  start: numpy.ndarray | None = None) -> numpy.ndarray:
    """Bradley–Terry strengths (natural log-odds units, ``anchor`` at 0) by Newton's method.

    ``games[a, b]`` (symmetric) is the number of comparisons between agents
    a and b, ``wins[a, b]`` the score of a in them (draws count 1/2); every
    agent must be linked to the anchor through pairs with games. The
    likelihood is concave, so Newton's method from zero (or ``start``, e.g.
    the full sample's fit for a bootstrap replicate) converges; a step is
    halved while it would lower the likelihood.
    """
    size = wins.shape[0]
    free = [agent for agent in range(size) if agent != anchor]
    strengths = numpy.zeros(size) if start is None else numpy.array(start, dtype=float)
    current = _log_likelihood(strengths, wins, games)
    for _ in range(_NEWTON_STEPS):
        difference = strengths[:, None] - strengths[None, :]
        expected = 1.0 / (1.0 + numpy.exp(-difference))
        gradient = (wins - games * expected).sum(axis=1)
        weight = games * expected * (1.0 - expected)
        hessian = numpy.diag(weight.sum(axis=1)) - weight  # the negative Hessian
        step = numpy.zeros(size)
        step[free] = numpy.linalg.solve(hessian[numpy.ix_(free, free)], gradient[free])
        scale = 1.0
        while True:
            trial = strengths + scale * step
            likelihood = _log_likelihood(trial, wins, games)
            if likelihood >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        strengths, improvement, current = trial, likelihood - current, likelihood
        if numpy.abs(scale * step).max() < _NEWTON_TOLERANCE or abs(improvement) < _NEWTON_TOLERANCE:
            break
    return strengths


def strength_covariance(strengths: numpy.ndarray, games: numpy.ndarray, anchor: int = 0) -> numpy.ndarray:
    """The model's covariance of the strengths (inverse Fisher information,
    the anchor fixed at 0: its row and column are 0) at ``strengths``."""
    size = strengths.shape[0]
    free = [agent for agent in range(size) if agent != anchor]
    difference = strengths[:, None] - strengths[None, :]
    expected = 1.0 / (1.0 + numpy.exp(-difference))
    weight = games * expected * (1.0 - expected)
    information = numpy.diag(weight.sum(axis=1)) - weight
    covariance = numpy.zeros((size, size))
    if free:
        covariance[numpy.ix_(free, free)] = numpy.linalg.inv(information[numpy.ix_(free, free)])
    return covariance


def _log_likelihood(strengths: numpy.ndarray, wins: numpy.ndarray, games: numpy.ndarray) -> float:
    difference = strengths[:, None] - strengths[None, :]
    # log sigmoid(d) = -log(1 + exp(-d)), computed without overflow.
    log_win = -numpy.logaddexp(0.0, -difference)
    return float((wins * log_win).sum())


def linked_agents(games: numpy.ndarray, anchor: int) -> list[int]:
    """The agents joined to ``anchor`` by a chain of pairs that played (``games > 0``), anchor first."""
    linked = [anchor]
    seen = {anchor}
    for agent in linked:
        for other in numpy.flatnonzero(games[agent] > 0):
            if int(other) not in seen:
                seen.add(int(other))
                linked.append(int(other))
    return linked


@dataclass(frozen=True)
class RatingFit:
    """The fit of one pool of games: agents (anchor first), their Elo ratings,
    the bootstrap ratings (one row per replicate), comparisons and games per agent."""

    agents: tuple[str, ...]
    ratings: numpy.ndarray
    replicates: numpy.ndarray
    comparisons: tuple[int, ...]
    games: tuple[int, ...]
    covariance: numpy.ndarray  # the model's, in Elo points squared (``strength_covariance``)

    def interval(self, upper: int, lower: int | None = None) -> tuple[float, float]:
        """The 95% interval of agent ``upper``'s rating, or of its difference
        from agent ``lower``'s: the wider of the bootstrap percentile interval
        and the model's ±1.96 standard errors (see the module docstring)."""
        replicates = self.replicates[:, upper] - (0.0 if lower is None else self.replicates[:, lower])
        value = self.ratings[upper] - (0.0 if lower is None else self.ratings[lower])
        variance = self.covariance[upper, upper]
        if lower is not None:
            variance += self.covariance[lower, lower] - 2 * self.covariance[upper, lower]
        spread = z_for_confidence(CONFIDENCE) * math.sqrt(max(float(variance), 0.0))
        low, high = percentile_interval(replicates)
        if math.isnan(low):
            return float(value - spread), float(value + spread)
        return min(low, float(value - spread)), max(high, float(value + spread))


def fit_ratings(outcomes: Sequence[Outcome], order: Sequence[str], replicates: int = BOOTSTRAP_REPLICATES,
                seed: int = BOOTSTRAP_SEED) -> tuple[RatingFit | None, list[str]]:
    """Elo ratings with bootstrap replicates from ``outcomes`` of one pool
    (see the module docstring). The anchor is the first agent of ``order``
    that played (agents missing from ``order`` follow, by name). Returns the
    fit (None without a comparison) and the agents left unrated because no
    chain of games links them to the anchor."""
    compared = [(outcome, comparisons_of(outcome.agents, outcome.ranks)) for outcome in outcomes]
    compared = [(outcome, pairs) for outcome, pairs in compared if pairs]
    names = sorted({name for _, pairs in compared for pair in pairs for name in pair[:2]},
                   key=lambda name: (order.index(name) if name in order else len(order), name))
    if not names:
        return None, []
    index = {name: position for position, name in enumerate(names)}
    # Per distinct outcome, its score and comparison matrices; a replicate is
    # their sum weighted by how often the outcome was redrawn.
    size = len(names)
    score_parts = numpy.zeros((len(compared), size, size))
    count_parts = numpy.zeros((len(compared), size, size))
    for row, (_, pairs) in enumerate(compared):
        for first, second, score in pairs:
            a, b = index[first], index[second]
            score_parts[row, a, b] += score
            score_parts[row, b, a] += 1.0 - score
            count_parts[row, a, b] += 1.0
            count_parts[row, b, a] += 1.0
    observed = numpy.array([outcome.games for outcome, _ in compared], dtype=float)
    met = (observed @ count_parts.reshape(len(compared), -1)).reshape(size, size) > 0
    linked = linked_agents(met.astype(float), 0)
    unrated = [name for position, name in enumerate(names) if position not in linked]
    keep = numpy.ix_(linked, linked)
    virtual_games = VIRTUAL_DRAWS * met[keep]

    def ratings_for(weights: numpy.ndarray, start: numpy.ndarray | None = None) -> numpy.ndarray:
        scores = (weights @ score_parts.reshape(len(compared), -1)).reshape(size, size)[keep]
        counts = (weights @ count_parts.reshape(len(compared), -1)).reshape(size, size)[keep]
        strengths = fit_strengths(scores + virtual_games / 2, counts + virtual_games, anchor=0,
                                  start=None if start is None else start / ELO_PER_UNIT)
        return ELO_PER_UNIT * strengths

    ratings = ratings_for(observed)
    observed_counts = (observed @ count_parts.reshape(len(compared), -1)).reshape(size, size)[keep] + virtual_games
    covariance = ELO_PER_UNIT ** 2 * strength_covariance(ratings / ELO_PER_UNIT, observed_counts)
    draws = _stratified_redraws([outcome for outcome, _ in compared], replicates, seed)
    replicate_ratings = numpy.array([ratings_for(weights, ratings) for weights in draws]) if replicates else \
        numpy.empty((0, len(linked)))
    per_agent_comparisons = count_parts.sum(axis=2)  # (outcome, agent)
    per_agent_games = (count_parts.sum(axis=2) > 0).astype(float)
    return RatingFit(
        agents=tuple(names[position] for position in linked),
        ratings=ratings,
        replicates=replicate_ratings,
        comparisons=tuple(int(value) for value in (observed @ per_agent_comparisons)[linked]),
        games=tuple(int(value) for value in (observed @ per_agent_games)[linked]),
        covariance=covariance,
    ), unrated


def _stratified_redraws(outcomes: Sequence[Outcome], replicates: int, seed: int) -> numpy.ndarray:
    """Bootstrap weights (replicates × outcomes): each variant's games redrawn
    with replacement, i.e. multinomially over its distinct outcomes."""
    generator = numpy.random.default_rng(seed)
    weights = numpy.zeros((replicates, len(outcomes)))
    variants = sorted({outcome.variant for outcome in outcomes})
    for variant in variants:
        members = [row for row, outcome in enumerate(outcomes) if outcome.variant == variant]
        counts = numpy.array([outcomes[row].games for row in members], dtype=float)
        weights[:, members] = generator.multinomial(int(counts.sum()), counts / counts.sum(), size=replicates)
    return weights


def percentile_interval(values: numpy.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The central ``confidence`` range of bootstrap ``values`` (percentile method)."""
    if values.size == 0:
        return math.nan, math.nan
    tail = 100 * (1 - confidence) / 2
    low, high = numpy.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def games_to_separate(win_rate: float, power: float = 0.8, confidence: float = CONFIDENCE) -> int:
    """Two-player games between two agents, one of which wins ``win_rate`` of
    them, for the 95% interval of their rating difference to exclude zero
    with probability ``power``: the logit of the score has standard error
    ``1 / sqrt(n p (1 - p))``, so ``n = ((z + z_power) / logit(p))² / (p (1 - p))``,
    rounded up. How the skill ladder specs are sized (the closest adjacent
    pair decides); a near tie needs thousands (p = 0.52: about 4,900)."""
    if not 0.0 < win_rate < 1.0 or win_rate == 0.5:
        raise ValueError(f"win_rate: expected a rate strictly between 0 and 1 other than 0.5, got {win_rate!r}")
    if not 0.0 < power < 1.0:
        raise ValueError(f"power: expected a number strictly between 0 and 1, got {power!r}")
    logit = math.log(win_rate / (1 - win_rate))
    z = z_for_confidence(confidence) + NormalDist().inv_cdf(power)
    return math.ceil((z / logit) ** 2 / (win_rate * (1 - win_rate)) - 1e-9)


def outcomes_by_pool(con: duckdb.DuckDBPyConnection, rules: Mapping[str, str]) -> dict[tuple[str, int], list[Outcome]]:
    """The distinct seat-by-seat outcomes of the games that seat two or more
    different agents, grouped into pools of variants with the same rules
    (``rules`` maps a variant to its rules text, ``analytics.skill.variant_rules``)
    and player count."""
    # Only the variants that seat different agents are read game by game (the
    # cheap per-variant agent counts say which), so mirror-only experiments
    # of millions of games cost nothing here.
    mixed = [(str(variant), int(n_players)) for variant, n_players in con.sql("""
        SELECT variant, n_players FROM agent_counts GROUP BY variant, n_players HAVING count(DISTINCT agent) > 1
    """).fetchall()]
    if not mixed:
        return {}
    wanted = pl.DataFrame(mixed, schema={"variant": pl.String, "n_players": pl.Int64}, orient="row")
    con.register("rating_variants", wanted.to_arrow())
    rows = con.sql("""
        WITH per_game AS (
            SELECT variant, n_players, game_index,
                   list(agent ORDER BY seat) AS agents, list(rank::INTEGER ORDER BY seat) AS ranks
            FROM players
            WHERE (variant, n_players) IN (SELECT (variant, n_players) FROM rating_variants)
            GROUP BY experiment, variant, n_players, game_index
            HAVING count(DISTINCT agent) > 1
        )
        SELECT variant, n_players, agents, ranks, count(*) AS games
        FROM per_game GROUP BY ALL ORDER BY ALL
    """).fetchall()
    con.unregister("rating_variants")
    pools: dict[tuple[str, int], list[Outcome]] = {}
    for variant, n_players, agents, ranks, games in rows:
        key = (rules.get(variant, f"variant {variant}"), int(n_players))
        pools.setdefault(key, []).append(Outcome(str(variant), tuple(agents), tuple(ranks), int(games)))
    return pools


def agent_ratings(con: duckdb.DuckDBPyConnection, rules: Mapping[str, str], order: Sequence[str],
                  replicates: int = BOOTSTRAP_REPLICATES) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The ratings table and the adjacent-gaps table of an experiment (see the module docstring).

    Ratings: rules, n_players, agent, anchor (the agent at 0 in its linked
    group), games (games the agent played against another agent),
    comparisons, rating, rating_low, rating_high (Elo points), rank (1 =
    highest rating in its group). Gaps: rules, n_players, lower, upper (adjacent agents
    by rating), difference (upper minus lower) with difference_low and
    difference_high, intervals_separate, difference_excludes_zero. Empty frames when no game seats two
    different agents or every such game ends level for all seats (a
    cooperative game).
    """
    rating_rows: list[dict[str, object]] = []
    gap_rows: list[dict[str, object]] = []
    for (rules_text, n_players), outcomes in outcomes_by_pool(con, rules).items():
        if not _informative(outcomes):
            continue
        for fit in fit_linked_groups(outcomes, order, replicates):
            rating_rows.extend(_rating_rows(rules_text, n_players, fit))
            gap_rows.extend(_gap_rows(rules_text, n_players, fit))
    return (pl.DataFrame(rating_rows, schema=RATING_SCHEMA, orient="row") if rating_rows
            else pl.DataFrame(schema=RATING_SCHEMA),
            pl.DataFrame(gap_rows, schema=GAP_SCHEMA, orient="row") if gap_rows else pl.DataFrame(schema=GAP_SCHEMA))


def fit_linked_groups(outcomes: Sequence[Outcome], order: Sequence[str],
                      replicates: int = BOOTSTRAP_REPLICATES) -> list[RatingFit]:
    """``fit_ratings`` of each group of agents linked by chains of games, each
    with its own anchor (its first agent in ``order``): agents that never met
    anyone of another group cannot be put on one scale with it."""
    fits: list[RatingFit] = []
    remaining = list(outcomes)
    while remaining:
        fit, unrated = fit_ratings(remaining, order, replicates)
        if fit is None:
            break
        fits.append(fit)
        left = set(unrated)
        remaining = [outcome for outcome in remaining if set(outcome.agents) & left]
    return fits


def _informative(outcomes: Sequence[Outcome]) -> bool:
    """Whether some game has seats with different ranks (a cooperative game's never do)."""
    return any(len(set(outcome.ranks)) > 1 for outcome in outcomes)


def _rating_rows(rules_text: str, n_players: int, fit: RatingFit) -> list[dict[str, object]]:
    by_rating = sorted(range(len(fit.agents)), key=lambda position: -fit.ratings[position])
    rank = {position: number for number, position in enumerate(by_rating, start=1)}
    rows: list[dict[str, object]] = []
    for position in by_rating:
        low, high = fit.interval(position)  # the anchor's: [0, 0]
        rows.append({"rules": rules_text, "n_players": n_players, "agent": fit.agents[position],
                     "anchor": fit.agents[0], "games": fit.games[position],
                     "comparisons": fit.comparisons[position], "rating": float(fit.ratings[position]),
                     "rating_low": low, "rating_high": high, "rank": rank[position]})
    return rows


def _gap_rows(rules_text: str, n_players: int, fit: RatingFit) -> list[dict[str, object]]:
    by_rating = sorted(range(len(fit.agents)), key=lambda position: fit.ratings[position])
    rows: list[dict[str, object]] = []
    for lower, upper in itertools.pairwise(by_rating):
        low, high = fit.interval(upper, lower)
        lower_interval, upper_interval = fit.interval(lower), fit.interval(upper)
        rows.append({"rules": rules_text, "n_players": n_players, "anchor": fit.agents[0],
                     "lower": fit.agents[lower], "upper": fit.agents[upper],
                     "difference": float(fit.ratings[upper] - fit.ratings[lower]),
                     "difference_low": low, "difference_high": high,
                     "intervals_separate": bool(upper_interval[0] > lower_interval[1]),
                     "difference_excludes_zero": bool(low > 0 or high < 0)})
    return rows


SPAN_SCHEMA = {
    "rules": pl.String, "n_players": pl.Int64, "anchor": pl.String, "agents": pl.Int64, "bottom": pl.String,
    "top": pl.String, "span": pl.Float64, "span_low": pl.Float64, "span_high": pl.Float64,
}


def rating_spans(ratings: pl.DataFrame) -> pl.DataFrame:
    """A skill ladder's rating span per linked group of ``agent_ratings``' table: the Elo points
    from its lowest-rated agent (``bottom``) to its highest (``top``), how much skill the game
    rewards across the agents played. ``span_low``/``span_high``: its 95% interval when one end
    is the group's anchor (rated 0 exactly, so the other end's interval is the span's, negated
    when the anchor is on top); NULL otherwise. Groups of one agent are left out (pure)."""
    rows: list[dict[str, object]] = []
    for (rules, n_players, anchor), group in ratings.group_by(["rules", "n_players", "anchor"], maintain_order=True):
        if group.height < 2:
            continue
        ordered = group.sort("rating")
        bottom, top = ordered.row(0, named=True), ordered.row(-1, named=True)
        low, high = ((top["rating_low"], top["rating_high"]) if bottom["agent"] == anchor else
                     (-bottom["rating_high"], -bottom["rating_low"]) if top["agent"] == anchor else (None, None))
        rows.append({"rules": rules, "n_players": n_players, "anchor": anchor, "agents": group.height,
                     "bottom": bottom["agent"], "top": top["agent"], "span": top["rating"] - bottom["rating"],
                     "span_low": low, "span_high": high})
    return pl.DataFrame(rows, schema=SPAN_SCHEMA, orient="row") if rows else pl.DataFrame(schema=SPAN_SCHEMA)
