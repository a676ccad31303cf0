"""Two experiments of the same game side by side (the dashboard's Compare page).

``compare_rates(left, right, keys, rate)`` joins two tables of the same metric
view (e.g. two reports' ``agent_stats``, each filtered to one variant and
player count) on ``keys`` and gives each row both rates with their 95%
intervals, the difference ``right − left`` with Newcombe's interval (from the
two intervals; the experiments are independent samples), a two-sided
z-test at the effective sample sizes, and its Benjamini–Hochberg q-value over
the rows compared (one family of tests, as every other page corrects them).
Pure Polars on small tables.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl

from analytics.stats import benjamini_hochberg, newcombe_difference, two_proportion_ztest
from analytics.views import SIGNIFICANCE

COMPARED = {
    # view: (keys, rate, its effective-n column or the plain count)
    "seat_stats": (("seat",), "win_rate", "games"),
    "agent_stats": (("agent",), "win_rate", "win_rate_effective_n"),
    "faction_stats": (("faction",), "win_rate", "win_rate_effective_n"),
    "party_size_stats": ((), "win_rate", "games"),
    "card_stats": (("agent", "card"), "gih_win_rate", "gih_win_rate_effective_n"),
}
"""The metric views the Compare page puts side by side, with their keys, rate and sample size."""


def compare_rates(left: pl.DataFrame, right: pl.DataFrame, keys: Sequence[str], rate: str,
                  sample: str) -> pl.DataFrame:
    """``left`` and ``right`` (rows of one metric view, one variant and player count each)
    joined on ``keys``: for every key in both, ``left``/``right`` rate, ``_low``/``_high``,
    ``_n`` (``sample``: the effective sample size or the plain count), ``delta = right − left``
    with ``delta_low``/``delta_high`` (Newcombe), ``p_value`` (two-proportion z-test at the
    effective sizes), ``q_value`` (Benjamini–Hochberg over the rows with a p-value) and
    ``significant`` (q below ``SIGNIFICANCE``). Keys in only one table are left out."""
    columns = [rate, f"{rate}_low", f"{rate}_high", sample]

    def side(frame: pl.DataFrame, name: str) -> pl.DataFrame:
        renamed = {column: f"{name}_{suffix}" for column, suffix in
                   zip(columns, ("rate", "low", "high", "n"), strict=True)}
        return frame.select(*keys, *columns).rename(renamed)

    if keys:
        joined = side(left, "left").join(side(right, "right"), on=list(keys), how="inner")
    else:
        joined = pl.concat([side(left, "left"), side(right, "right")], how="horizontal")
    rows = []
    for row in joined.iter_rows(named=True):
        low, high = newcombe_difference(row["left_rate"], row["left_low"], row["left_high"],
                                        row["right_rate"], row["right_low"], row["right_high"])
        n_left, n_right = float(row["left_n"]), float(row["right_n"])
        _, p = two_proportion_ztest(round(row["left_rate"] * n_left), max(1, round(n_left)),
                                    round(row["right_rate"] * n_right), max(1, round(n_right)))
        rows.append({**row, "delta": row["right_rate"] - row["left_rate"], "delta_low": low, "delta_high": high,
                     "p_value": p if math.isfinite(p) else None})
    tested = [index for index, row in enumerate(rows) if row["p_value"] is not None]
    q_values = dict(zip(tested, benjamini_hochberg([rows[index]["p_value"] for index in tested]), strict=True))
    extra = pl.DataFrame(
        [{**{name: row[name] for name in ("delta", "delta_low", "delta_high", "p_value")},
          "q_value": q_values.get(index), "significant": index in q_values and q_values[index] < SIGNIFICANCE}
         for index, row in enumerate(rows)],
        schema={"delta": pl.Float64, "delta_low": pl.Float64, "delta_high": pl.Float64, "p_value": pl.Float64,
                "q_value": pl.Float64, "significant": pl.Boolean})
    return pl.concat([joined, extra], how="horizontal")
