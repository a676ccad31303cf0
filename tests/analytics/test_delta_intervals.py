"""The 95% interval of every variant delta (``variant_deltas.delta_low``/``delta_high``)
is the formula of its test, recomputed in Python from the view's own columns:
Newcombe's interval from the two Wilson intervals at the effective sample sizes
for unpaired rates, Welch's for means, and for seed-matched games the MOVER interval
of the two discordant parts, worked out here from Wilson's formula."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

from analytics.catalog import open_catalog
from analytics.metrics import variant_deltas
from analytics.stats import (
    LINEARISED_SUMS,
    Z95,
    cluster_spread,
    linearised_parts,
    mcnemar,
    mean_variance,
    newcombe_difference,
    paired_difference,
    skewed_mean_interval,
    wilson_interval,
)
from tests.analytics.synthetic import Synthetic, competitive, cooperative
from tests.analytics.test_balance_metrics import write_games
from tests.conftest import SmallExperiment


def _wilson_at(rate: float, effective_n: float) -> tuple[float, float]:
    from analytics.stats import _wilson_high, _wilson_low

    return (_wilson_low(rate * effective_n, effective_n, Z95), _wilson_high(rate * effective_n, effective_n, Z95))


def test_unpaired_rate_deltas_carry_newcombe_intervals_and_means_welch_ones(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder)
    try:
        deltas = variant_deltas(con)
        game_stats = con.sql("SELECT * FROM game_stats").pl()
    finally:
        con.close()
    assert deltas.height > 20 and {"z", "welch"} <= set(deltas["test"])  # rates and means both covered
    for row in deltas.filter(pl.col("test") == "z").iter_rows(named=True):
        low, high = newcombe_difference(row["baseline_value"], *_wilson_at(row["baseline_value"],
                                                                           row["baseline_effective_n"]),
                                        row["value"], *_wilson_at(row["value"], row["effective_n"]))
        assert (row["delta_low"], row["delta_high"]) == pytest.approx((low, high), abs=1e-9), row
        assert row["delta_low"] <= row["delta"] <= row["delta_high"]
    stats = {row["variant"]: row for row in game_stats.iter_rows(named=True)}
    for row in deltas.filter(pl.col("test") == "welch").iter_rows(named=True):
        column = row["metric"]
        base, variant = stats["baseline"], stats[row["variant"]]
        se = math.sqrt(mean_variance(base[f"sd_{column}"] ** 2, base["games"]) / base["games"]
                       + mean_variance(variant[f"sd_{column}"] ** 2, variant["games"]) / variant["games"])
        assert (row["delta_low"], row["delta_high"]) == pytest.approx(
            (row["delta"] - Z95 * se, row["delta"] + Z95 * se), abs=1e-9)


def test_a_seat_game_per_game_gives_the_plain_wilson_intervals_in_the_newcombe_interval(
        small_experiment: SmallExperiment) -> None:
    # Seat win rates count one seat-game per game: the effective n is the number of games.
    con = open_catalog(small_experiment.folder)
    try:
        seats = variant_deltas(con).filter(pl.col("family") == "seat")
    finally:
        con.close()
    for row in seats.iter_rows(named=True):
        assert row["effective_n"] == row["n"] and row["baseline_effective_n"] == row["baseline_n"]
        wins, base_wins = round(row["value"] * row["n"]), round(row["baseline_value"] * row["baseline_n"])
        low, high = newcombe_difference(row["baseline_value"], *wilson_interval(base_wins, row["baseline_n"]),
                                        row["value"], *wilson_interval(wins, row["n"]))
        assert (row["delta_low"], row["delta_high"]) == pytest.approx((low, high), abs=1e-9)


def _wilson(successes: int, n: int) -> tuple[float, float]:
    """Wilson's (1927) score interval of ``successes / n``: ``(p + z²/2n ∓ z·sqrt(p(1 − p)/n + z²/4n²))
    / (1 + z²/n)``, written out here rather than taken from ``analytics.stats``."""
    p, z2 = successes / n, Z95 * Z95
    centre, half = p + z2 / (2 * n), Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, (centre - half) / (1 + z2 / n)), min(1.0, (centre + half) / (1 + z2 / n)))


def mover_paired_by_hand(a: int, b: int, c: int, d: int) -> tuple[float, float]:
    """The MOVER interval (Zou & Donner 2008) of the variant's rate minus the baseline's from
    the 2×2 table of N pairs: a both won, b only the baseline, c only the variant, d neither.

    Δ = p₊ − p₋ with p₊ = c/N, p₋ = b/N, their Wilson intervals (l₊, u₊), (l₋, u₋) and their
    correlation as two shares of one multinomial, r = −sqrt(b·c/((N − b)(N − c))) (0 when b or
    c is 0): L = Δ − sqrt((p₊ − l₊)² + (u₋ − p₋)² − 2r(p₊ − l₊)(u₋ − p₋)),
    U = Δ + sqrt((u₊ − p₊)² + (p₋ − l₋)² − 2r(u₊ − p₊)(p₋ − l₋))."""
    n = a + b + c + d
    plus, minus = c / n, b / n
    (low_plus, high_plus), (low_minus, high_minus) = _wilson(c, n), _wilson(b, n)
    r = -math.sqrt(b * c / ((n - b) * (n - c))) if b * c else 0.0
    down, up = plus - low_plus, high_minus - minus
    low = plus - minus - math.sqrt(down ** 2 + up ** 2 - 2 * r * down * up)
    up, down = high_plus - plus, minus - low_minus
    high = plus - minus + math.sqrt(up ** 2 + down ** 2 - 2 * r * up * down)
    return (low, high)


def _paired_table(a: int, b: int, c: int, d: int) -> tuple[float, float, float, float]:
    """``paired_difference`` of a 2×2 table (one trial per game): first = baseline, second = variant."""
    n = a + b + c + d
    return paired_difference(n, n, n, (c, c, c), (b, b, b), hits=(c, b))


def test_the_paired_interval_is_mover_of_the_discordant_pairs() -> None:
    # Cavo et al. (2012): complete response before and after consolidation therapy, 161 patients,
    # [[59, 6], [16, 80]]: 6 pairs only before, 16 only after. Fagerland, Lydersen and Laake (2014)
    # print Newcombe's square-and-add interval of after minus before as 0.0046 to 0.1186; this one
    # is near it, from the two discordant shares 16/161 and 6/161.
    statistic, p, low, high = _paired_table(59, 6, 16, 80)
    assert (low, high) == pytest.approx(mover_paired_by_hand(59, 6, 16, 80), abs=1e-12)
    assert (low, high) == pytest.approx((0.0046, 0.1186), abs=0.01)
    assert (statistic, p) == pytest.approx(mcnemar(6, 16), abs=1e-12)  # the test is McNemar's, as before


def test_one_way_discordant_pairs_get_the_score_interval_of_their_share_above() -> None:
    # A buff that only turns losses into wins on the same random numbers: b = 0, c = 3 of 300.
    # The high end is Wilson's of 3/300 (Newcombe's method 10 gave 0.0229 here, Δ + 1.3% instead
    # of Wilson's 2.9%: too short above a low count); the low end widens by Wilson's high of 0/300.
    _, _, low, high = _paired_table(150, 0, 3, 147)
    assert high == pytest.approx(_wilson(3, 300)[1], abs=1e-15)
    assert low == pytest.approx(0.01 - math.hypot(0.01 - _wilson(3, 300)[0], _wilson(0, 300)[1]), abs=1e-15)
    assert (low, high) == pytest.approx(mover_paired_by_hand(150, 0, 3, 147), abs=1e-15)


def test_no_discordant_pair_does_not_prove_the_rates_equal() -> None:
    # b = c = 0: the differences d_g are all 0, and Δ ± z·sd(d) was [0, 0]. Each discordant share
    # is 0 of N, whose Wilson interval still reaches z²/(N + z²): the interval is ± that.
    for table in ((3, 0, 0, 3), (0, 0, 0, 300), (290, 0, 0, 10)):
        n = sum(table)
        _, p, low, high = _paired_table(*table)
        assert p == 1.0 and low < 0 < high, table
        assert (low, high) == pytest.approx((-Z95 ** 2 / (n + Z95 ** 2), Z95 ** 2 / (n + Z95 ** 2)), abs=1e-15)
        assert (low, high) == pytest.approx(mover_paired_by_hand(*table), abs=1e-15)


def _paired_games(folder: Path, baseline_wins: list[int], variant_wins: list[int]) -> None:
    games, seats = [], {}
    for variant, wins in (("baseline", baseline_wins), ("nerf", variant_wins)):
        for index, won in enumerate(wins):
            games.append({"variant": variant, "game_index": index, "n_players": 2, "winners": [0] if won else [1],
                          "seed": 500 + index})
            seats[(variant, index)] = [(None, bool(won)), (None, not won)]
    write_games(folder, folder.name, games, seats, paired=True)


def _deltas_and_seat_zero(folder: Path) -> tuple[pl.DataFrame, dict[str, Any]]:
    """The ``variant_deltas`` of the experiment in ``folder``, and its row of seat 0's win rate."""
    con = open_catalog(folder)
    try:
        deltas = variant_deltas(con)
    finally:
        con.close()
    return deltas, deltas.filter((pl.col("family") == "seat") & (pl.col("key") == "0")).row(0, named=True)


def test_seed_matched_deltas_carry_the_mover_interval_of_the_discordant_pairs(tmp_path: Path) -> None:
    # Six games on the same seeds; seat 0 wins baseline games 0-3 and 5, the variant's 3 and 5:
    # both won 2 pairs (a), only the baseline 3 (b), only the variant none (c), neither 1 (d).
    _paired_games(tmp_path / "paired", [1, 1, 1, 1, 0, 1], [0, 0, 0, 1, 0, 1])
    _, seat0 = _deltas_and_seat_zero(tmp_path / "paired")
    assert seat0["test"] == "mcnemar"
    expected = mover_paired_by_hand(2, 3, 0, 1)
    assert (seat0["delta_low"], seat0["delta_high"]) == pytest.approx(expected, abs=1e-12)
    statistic, p, low, high = _paired_table(2, 3, 0, 1)
    assert (seat0["statistic"], seat0["p_value"]) == pytest.approx((statistic, p), abs=1e-12)
    assert (low, high) == pytest.approx(expected, abs=1e-12)


def test_seed_matched_rates_without_discordant_pairs_keep_an_interval(tmp_path: Path) -> None:
    # The same outcomes on the same seeds: seat 0 wins games 0, 2, 4 in both, no game is a draw or
    # stops at the turn cap. Every paired difference is 0, and every interval has a width.
    _paired_games(tmp_path / "same", [1, 0, 1, 0, 1, 0], [1, 0, 1, 0, 1, 0])
    deltas, seat0 = _deltas_and_seat_zero(tmp_path / "same")
    assert (seat0["test"], seat0["delta"], seat0["p_value"]) == ("mcnemar", 0.0, 1.0)
    high = _wilson(0, 6)[1]
    assert (seat0["delta_low"], seat0["delta_high"]) == pytest.approx((-high, high), abs=1e-12)
    assert seat0["delta_high"] - seat0["delta_low"] > 0.2
    for metric in ("draw_rate", "turn_cap_rate"):
        row = deltas.filter(pl.col("metric") == metric).row(0, named=True)
        assert row["test"] == "mcnemar"
        assert (row["delta_low"], row["delta_high"]) == pytest.approx((-high, high), abs=1e-12), metric


@pytest.mark.parametrize("build", [lambda: competitive(1, 300, paired=True), lambda: cooperative(1, 300, paired=True)],
                         ids=["competitive", "cooperative"])
def test_the_paired_interval_of_an_agent_is_the_python_twin_on_the_games_sums(build: Callable[[], Synthetic]) -> None:
    # The synthetic games seat an agent twice: n_g = 2 matched seat-games per game (competitive:
    # one winner per game, discordant pairs both ways; cooperative on the same random numbers:
    # the buff only turns losses into wins). The view's interval equals paired_difference on the
    # discordant parts P_g = max(d_g, 0), M_g = max(−d_g, 0) of the per-game sums counted here.
    data = build()
    rows = data.con.sql("""
        SELECT v.agent, v.game_index, count(*) AS n, sum(b.won::INTEGER) AS x, sum(v.won::INTEGER) AS y
        FROM players AS v JOIN players AS b ON b.variant = 'baseline' AND b.experiment = v.experiment
             AND b.game_index = v.game_index AND b.seat = v.seat AND b.agent = v.agent
        WHERE v.variant = 'buffed' GROUP BY ALL""").pl()
    deltas = data.con.sql("SELECT * FROM deltas WHERE family = 'agent'").pl()
    assert deltas.height == 2 and set(deltas["test"]) == {"mcnemar"}
    seats: set[float] = set()
    for row in deltas.iter_rows(named=True):
        games = rows.filter(pl.col("agent") == row["key"])
        n, x, y = (games[name].cast(pl.Float64) for name in ("n", "x", "y"))
        plus, minus = (y - x).clip(lower_bound=0), (x - y).clip(lower_bound=0)
        seats.update(n.unique().to_list())
        positive, negative = ((float(part.sum()), float((part * part).sum()), float((n * part).sum()))
                              for part in (plus, minus))
        statistic, p, low, high = paired_difference(float(n.sum()), float((n * n).sum()), games.height, positive,
                                                    negative, hits=(float((plus > 0).sum()), float((minus > 0).sum())))
        assert (row["statistic"], row["p_value"]) == pytest.approx((statistic, p), abs=1e-12)
        assert (row["delta_low"], row["delta_high"]) == pytest.approx((low, high), abs=1e-12)
    assert 2.0 in seats  # an agent at two seats of each game (the cooperative's other agent holds one)


def _card_sums(games: pl.DataFrame, n: str, w: str) -> tuple[float, float, float, float, float, float]:
    """A card rate's sums over its games (``clustered_interval``'s arguments) from per-game counts."""
    counted = games.filter(pl.col(n) > 0)
    return (float(counted[n].sum()), float(counted[w].sum()), float((counted[n] ** 2).sum()),
            float((counted[w] ** 2).sum()), float((counted[n] * counted[w]).sum()), float(counted.height))


def linearised_by_hand(games: pl.DataFrame) -> tuple[float, float]:
    """The paired interval of a card rate from its per-game counts (``n``, ``x``: the baseline's
    trials and successes, ``m``, ``y``: the variant's; 0 where a side did not hold the card):
    d_g = (y_g − x_g) − p_b·(m_g − n_g), whose sum over the variant's Σm is p_v − p_b exactly,
    split into P_g = (1 − p_b)·max(Δw, 0) + p_b·max(−Δl, 0) and M_g = (1 − p_b)·max(−Δw, 0) +
    p_b·max(Δl, 0) (Δw: the change of successes, Δl: of failures), each part's clustered
    interval joined by their correlation (``paired_difference``)."""
    n, x, m, y = (games[name].cast(pl.Float64).to_numpy() for name in ("n", "x", "m", "y"))
    rate = x.sum() / n.sum()
    wins, losses = y - x, (m - y) - (n - x)
    plus = (1 - rate) * np.maximum(wins, 0) + rate * np.maximum(-losses, 0)
    minus = (1 - rate) * np.maximum(-wins, 0) + rate * np.maximum(losses, 0)
    assert plus - minus == pytest.approx((y - x) - rate * (m - n), abs=1e-12)
    assert (plus - minus).sum() / m.sum() == pytest.approx(y.sum() / m.sum() - rate, abs=1e-12)
    positive, negative = ((float(part.sum()), float((part * part).sum()), float((m * part).sum()))
                          for part in (plus, minus))
    _, _, low, high = paired_difference(float(m.sum()), float((m * m).sum()), float(((n + m) > 0).sum()), positive,
                                        negative, both=float((plus * minus).sum()))
    return (low, high)


def test_a_card_rate_whose_paired_games_only_turn_losses_into_wins_gets_the_score_interval_above() -> None:
    # One holder a game in both arms, 300 games; the variant wins 3 games the baseline lost and
    # nothing else changes: each such game adds a success and removes a failure, P_g = 1, and
    # the interval is the MOVER interval of the 2×2 table (b = 0, c = 3): Wilson's high end of
    # 3/300 above. The two rates' own intervals joined by their correlation (Newcombe's method
    # 10, used before) stopped near Δ + z·se, short above.
    baseline = [1] * 150 + [0] * 150
    variant = [1] * 150 + [1, 1, 1] + [0] * 147
    games = pl.DataFrame({"n": [1] * 300, "x": baseline, "m": [1] * 300, "y": variant})
    low, high = linearised_by_hand(games)
    assert high == pytest.approx(_wilson(3, 300)[1], abs=1e-12)
    assert (low, high) == pytest.approx(mover_paired_by_hand(150, 0, 3, 147), abs=1e-12)
    # The linearised sums of analytics.stats give the same parts.
    wins, losses = np.array(variant) - np.array(baseline), -(np.array(variant) - np.array(baseline))
    values = {"wu": np.maximum(wins, 0), "wd": np.maximum(-wins, 0), "lu": np.maximum(losses, 0),
              "ld": np.maximum(-losses, 0), "m": np.ones(300)}
    sums = {name: float(np.prod([values[factor] for factor in name.split("_")], axis=0).sum())
            for name in LINEARISED_SUMS}
    positive, negative, both = linearised_parts(0.5, sums)
    assert paired_difference(300, 300, 300, positive, negative, both=both)[2:] == pytest.approx((low, high),
                                                                                                 abs=1e-12)


@pytest.mark.parametrize("build", [lambda: competitive(1, 300, paired=True), lambda: cooperative(1, 300, paired=True)],
                         ids=["competitive", "cooperative"])
def test_card_rate_deltas_on_the_baseline_seeds_are_the_mover_interval_of_the_linearised_parts(
        build: Callable[[], Synthetic]) -> None:
    # On paired seeds a card's seat-games in hand differ between the variants, but the games are
    # the same: the per-game counts of both sides (a side that did not hold the card counts 0)
    # give the linearised differences d_g and their parts, counted here from the card rows. The
    # test is still the z of the difference with the two rates' covariance over the games.
    data = build()
    per_game = data.con.sql("""
        SELECT c.variant, p.agent, c.card, c.game_index, count(*) AS in_hand,
               count(*) FILTER (WHERE c.won) AS won, count(*) FILTER (WHERE c.played > 0) AS played
        FROM cards AS c JOIN players AS p USING (experiment, variant, n_players, game_index, seat)
        GROUP BY ALL""").pl()
    deltas = data.con.sql("SELECT * FROM deltas WHERE family = 'card'").pl()
    assert set(deltas["test"]) == {"paired_z"}
    counted = {"gih_win_rate": ("in_hand", "won"), "play_rate": ("in_hand", "played")}
    for row in deltas.filter(pl.col("metric").is_in(list(counted))).iter_rows(named=True):
        trials, successes = counted[row["metric"]]
        card = per_game.filter((pl.col("agent") == row["agent"]) & (pl.col("card") == row["key"]))
        sides = {variant: card.filter(pl.col("variant") == variant).select(
            "game_index", pl.col(trials).alias("trials"), pl.col(successes).alias("successes"))
            for variant in ("baseline", "buffed")}
        both = sides["baseline"].join(sides["buffed"], on="game_index", how="full", coalesce=True,
                                      suffix="_v").fill_null(0)
        games = both.select(n="trials", x="successes", m="trials_v", y="successes_v")
        assert (row["delta_low"], row["delta_high"]) == pytest.approx(linearised_by_hand(games), abs=1e-9), row
        assert row["delta_low"] <= row["delta"] <= row["delta_high"]
        if row["metric"] == "gih_win_rate":
            sums = {variant: _card_sums(frame, "trials", "successes") for variant, frame in sides.items()}
            rates = {variant: sums[variant][1] / sums[variant][0] for variant in sums}
            spreads = {variant: cluster_spread(*sums[variant][:5]) for variant in sums}
            cross = float(((games["x"] - rates["baseline"] * games["n"])
                           * (games["y"] - rates["buffed"] * games["m"])).sum())
            variance = (spreads["buffed"] / sums["buffed"][0] ** 2 + spreads["baseline"] / sums["baseline"][0] ** 2
                        - 2 * cross / (sums["baseline"][0] * sums["buffed"][0]))
            assert row["statistic"] == pytest.approx((rates["buffed"] - rates["baseline"]) / math.sqrt(variance),
                                                     abs=1e-9)


def hall_by_hand(d: Any) -> tuple[float, float]:
    """Hall's (1992) skewness-corrected interval of the mean of ``d``, solved here by bisection
    rather than through ``analytics.stats``' closed-form inverse: the ``t`` where
    ``√n·g(t) = ±z``, ``g(t) = t + γt²/3 + γ²t³/27 + γ/(6n)`` (``γ = m₃/s³``, ``m₃`` the third
    central moment over n, ``s²`` the sample variance at least ``mean_variance``'s floor);
    the interval is ``[d̄ − s·t(+z), d̄ − s·t(−z)]``."""
    n, mean = d.size, float(d.mean())
    s = math.sqrt(mean_variance(float(d.var(ddof=1)), n))
    gamma = float(((d - mean) ** 3).mean()) / s ** 3

    def root(target: float) -> float:
        low, high = -50.0, 50.0  # g is increasing: bisect g(t) = target
        for _ in range(200):
            t = (low + high) / 2
            low, high = (t, high) if t + gamma * t * t / 3 + gamma ** 2 * t ** 3 / 27 + gamma / (6 * n) < target \
                else (low, t)
        return (low + high) / 2

    return (mean - s * root(Z95 / math.sqrt(n)), mean - s * root(-Z95 / math.sqrt(n)))


def test_a_paired_mean_that_changes_few_games_one_way_gets_the_longer_side_where_they_lie() -> None:
    # 100 pairs of games, 30 a decision longer in the variant and 5 two longer, none shorter (a
    # variant that only adds decisions on the same random numbers): the interval of the mean
    # difference is Hall's skewness-corrected one, longer above; d̄ ± z·s/√n (used before) is
    # too short there.
    d = np.array([1] * 30 + [2] * 5 + [0] * 65, dtype=float)
    low, high = skewed_mean_interval(d.size, d.sum(), (d ** 2).sum(), (d ** 3).sum())
    assert (low, high) == pytest.approx(hall_by_hand(d), abs=1e-9)
    half = Z95 * math.sqrt(mean_variance(float(d.var(ddof=1)), d.size) / d.size)
    assert high - d.mean() > half + 0.005 and d.mean() - low < half - 0.005
    # A symmetric sample keeps the symmetric interval.
    symmetric = np.array([1] * 20 + [-1] * 20 + [0] * 60, dtype=float)
    low, high = skewed_mean_interval(100, symmetric.sum(), (symmetric ** 2).sum(), (symmetric ** 3).sum())
    half = Z95 * math.sqrt(float(symmetric.var(ddof=1)) / 100)
    assert (low, high) == pytest.approx((-half, half), abs=1e-12)


def test_mean_deltas_on_the_baseline_seeds_use_the_game_by_game_differences() -> None:
    # Turns and decisions on paired seeds: the differences d_g of the matched games, their mean
    # and sample variance (at least the floor of what that many games cannot rule out) for the
    # test, and for the interval the same corrected for the differences' skewness (Hall's).
    from tests.analytics.synthetic import CompetitiveModel

    data = competitive(1, 400, paired=True, model=CompetitiveModel(short_game=(0.05, 0.10),
                                                                   decisions_rate=(0.3, 0.35)))
    games = data.con.sql("""
        SELECT b.turns AS turns_b, v.turns AS turns_v, b.decisions AS decisions_b, v.decisions AS decisions_v
        FROM games AS b JOIN games AS v USING (experiment, n_players, game_index)
        WHERE b.variant = 'baseline' AND v.variant = 'buffed'""").pl()
    deltas = data.con.sql("SELECT * FROM deltas WHERE family = 'game' AND metric IN ('turns', 'decisions')").pl()
    assert deltas.height == 2 and set(deltas["test"]) == {"paired_z"}
    for row in deltas.iter_rows(named=True):
        d = (games[f"{row['metric']}_v"] - games[f"{row['metric']}_b"]).cast(pl.Float64).to_numpy()
        se = math.sqrt(mean_variance(float(d.var(ddof=1)), d.size) / d.size)
        assert row["delta"] == pytest.approx(d.mean(), abs=1e-12)
        assert (row["delta_low"], row["delta_high"]) == pytest.approx(hall_by_hand(d), abs=1e-9)
        assert row["statistic"] == pytest.approx(d.mean() / se, abs=1e-9)
