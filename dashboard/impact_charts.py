"""The Card impact page's chart: each card's correlational IWD against its causal impact."""

from __future__ import annotations

import altair as alt
import polars as pl


def impact_against_iwd(frame: pl.DataFrame, *, title: str, height: int = 440) -> alt.LayerChart:
    """One point per card of ``card_impact_vs_gih``: IWD (baseline, correlational) across, impact
    (paired arms, causal) up, both in points, with the impact's 95% interval as a rule; the
    cards whose two ranks disagree in red and named. On the diagonal the two agree."""
    data = frame.with_columns((pl.col("iwd") * 100).alias("iwd_points"),
                              (pl.col("impact") * 100).alias("impact_points"),
                              (pl.col("impact_low") * 100).alias("low_points"),
                              (pl.col("impact_high") * 100).alias("high_points"))
    color = alt.Color("disagree:N", title="Ranks disagree", scale=alt.Scale(domain=[False, True],
                                                                          range=["#4c78a8", "#e45756"]))
    x = alt.X("iwd_points:Q", title="Improvement when drawn, IWD (correlational, points)")
    base = alt.Chart(data)
    bars = base.mark_rule(opacity=0.5).encode(x=x, y="low_points:Q", y2="high_points:Q", color=color)
    points = base.mark_circle(size=60, opacity=0.85).encode(
        x=x, y=alt.Y("impact_points:Q", title="Impact: win rate with the card minus without (causal, points)"),
        color=color,
        tooltip=[alt.Tooltip("card:N", title="Card"), alt.Tooltip("iwd_points:Q", title="IWD", format="+.1f"),
                 alt.Tooltip("impact_points:Q", title="Impact", format="+.1f"),
                 alt.Tooltip("iwd_rank:Q", title="Rank by IWD"), alt.Tooltip("impact_rank:Q", title="Rank by impact"),
                 alt.Tooltip("length_bias:Q", title="Longer games when held (turns)", format="+.2f"),
                 alt.Tooltip("strength_bias:Q", title="Stronger holder seats", format="+.1%")])
    names = base.transform_filter("datum.disagree").mark_text(align="left", dx=7, fontSize=11,
                                                              color="#b22222").encode(
        x=x, y="impact_points:Q", text="card:N")
    lo = min(data["iwd_points"].min() or 0.0, data["low_points"].min() or 0.0)
    hi = max(data["iwd_points"].max() or 0.0, data["high_points"].max() or 0.0)
    diagonal = alt.Chart(pl.DataFrame({"a": [lo, hi], "b": [lo, hi]})).mark_line(
        strokeDash=[4, 4], color="gray").encode(x="a:Q", y="b:Q")
    return alt.LayerChart(layer=[diagonal, bars, points, names]).properties(title=title, height=height)
