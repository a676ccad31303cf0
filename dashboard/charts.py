"""Altair charts of the dashboard. Pure functions of analytics DataFrames:
they choose marks and encodings and compute nothing."""

from __future__ import annotations

import altair as alt
import polars as pl


def win_rate_chart(frame: pl.DataFrame, key: str, title: str, key_title: str) -> alt.LayerChart:
    """Win rate per ``key`` (``seat`` or ``agent``) and variant: a point at the
    rate and an error bar over its Wilson interval (``ci_low``..``ci_high``).

    ``frame`` is ``analytics.metrics.win_rate_by_seat`` or ``win_rate_by_agent``
    (one player count). Variants sit side by side within each ``key`` and
    share a colour across the chart.
    """
    data = frame.select(key, "variant", "games", "wins", "win_rate", "ci_low", "ci_high").with_columns(
        pl.col(key).cast(pl.String))
    base = alt.Chart(data).encode(
        x=alt.X(f"{key}:N", title=key_title, sort=None),
        xOffset=alt.XOffset("variant:N", sort=None),
        color=alt.Color("variant:N", title="Variant", sort=None),
    )
    bars = base.mark_errorbar(ticks=True, thickness=2).encode(
        y=alt.Y("ci_low:Q", title="Win rate (95% Wilson interval)", axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])),
        y2=alt.Y2("ci_high:Q"),
    )
    points = base.mark_point(filled=True, size=60).encode(
        y=alt.Y("win_rate:Q"),
        tooltip=[
            alt.Tooltip("variant:N", title="Variant"),
            alt.Tooltip(f"{key}:N", title=key_title),
            alt.Tooltip("games:Q", title="Games"),
            alt.Tooltip("wins:Q", title="Wins"),
            alt.Tooltip("win_rate:Q", title="Win rate", format=".1%"),
            alt.Tooltip("ci_low:Q", title="95% low", format=".1%"),
            alt.Tooltip("ci_high:Q", title="95% high", format=".1%"),
        ],
    )
    return alt.LayerChart(layer=[bars, points]).properties(title=title, height=320)
