"""Altair charts of the Tuning page: pure functions of ``analytics.tuning`` tables."""

from __future__ import annotations

import altair as alt
import polars as pl

SELECTION = "candidate"
"""The name of the point selection of ``front_chart`` (a click picks a candidate)."""


def front_chart(front: pl.DataFrame) -> alt.LayerChart:
    """Change cost against miss, one point per candidate (its latest search look)
    with its miss interval as an error bar; the Pareto front drawn filled and
    joined by a line. A click on a point selects the candidate."""
    data = front.filter(pl.col("miss").is_not_null()).select(
        "trial", "variant", "games", "change", "cost", "miss", "miss_low", "miss_high", "on_front").with_columns(
        pl.when(pl.col("on_front")).then(pl.lit("on the front")).otherwise(pl.lit("dominated")).alias("where"))
    pick = alt.selection_point(name=SELECTION, fields=["trial"], on="click")
    base = alt.Chart(data).encode(x=alt.X("cost:Q", title="Change cost (against the current data)"))
    bars = base.mark_errorbar(opacity=0.4).encode(
        y=alt.Y("miss_low:Q", title="Target miss (95% interval)"),
        y2=alt.Y2("miss_high:Q"))
    line = base.transform_filter(alt.datum.on_front).mark_line(interpolate="step-after", opacity=0.5).encode(
        y=alt.Y("miss_high:Q"))
    points = base.mark_point(size=80, filled=True).encode(
        y=alt.Y("miss:Q"),
        color=alt.Color("where:N", title="", sort=["on the front", "dominated"]),
        opacity=alt.condition(pick, alt.value(1.0), alt.value(0.35)),
        tooltip=[alt.Tooltip("trial:Q", title="Trial"), alt.Tooltip("variant:N", title="Variant"),
                 alt.Tooltip("change:N", title="Change"), alt.Tooltip("games:Q", title="Games"),
                 alt.Tooltip("cost:Q", title="Cost", format=".3f"), alt.Tooltip("miss:Q", title="Miss", format=".4f"),
                 alt.Tooltip("miss_low:Q", title="95% low", format=".4f"),
                 alt.Tooltip("miss_high:Q", title="95% high", format=".4f")],
    ).add_params(pick)
    return alt.LayerChart(layer=[bars, line, points]).properties(height=360)


def history_chart(history: pl.DataFrame) -> alt.LayerChart:
    """The objective over the trials: each trial's first look (the upper end of
    its miss interval, what the sampler is told) and the best so far."""
    data = history.select("trial", "objective", "best_so_far", "games")
    base = alt.Chart(data).encode(x=alt.X("trial:Q", title="Trial (in the order the sampler asked)"))
    points = base.mark_point(filled=True, size=50).encode(
        y=alt.Y("objective:Q", title="Miss, upper end of the 95% interval"),
        tooltip=[alt.Tooltip("trial:Q", title="Trial"), alt.Tooltip("objective:Q", title="Miss (top)", format=".4f"),
                 alt.Tooltip("games:Q", title="Games")])
    best = base.mark_line(interpolate="step-after", color="#d62728").encode(y=alt.Y("best_so_far:Q"))
    return alt.LayerChart(layer=[points, best]).properties(height=280)
