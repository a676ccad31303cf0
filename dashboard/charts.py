"""Altair charts of the dashboard. Pure functions of analytics DataFrames:
they choose marks and encodings and compute nothing."""

from __future__ import annotations

from typing import Any

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


def _tooltips(fields: list[tuple[str, str, str]]) -> list[alt.Tooltip]:
    return [alt.Tooltip(field, title=title, format=fmt) if fmt else alt.Tooltip(field, title=title)
            for field, title, fmt in fields]


def interval_chart(frame: pl.DataFrame, key: str, rate: str, low: str, high: str, *, title: str, key_title: str,
                   rate_title: str, color: str | None = None, color_title: str = "", percent: bool = True,
                   horizontal: bool = False) -> alt.LayerChart:
    """A point at ``rate`` and an error bar from ``low`` to ``high`` per ``key``
    (optionally side by side per ``color``): win rates with their 95% intervals."""
    columns = [key, rate, low, high] + ([color] if color else [])
    data = frame.select(columns).with_columns(pl.col(key).cast(pl.String))
    if color:
        data = data.with_columns(pl.col(color).cast(pl.String))
    axis = alt.Axis(format="%") if percent else alt.Axis()
    fmt = ".1%" if percent else ".2f"
    key_channel = (alt.Y if horizontal else alt.X)(f"{key}:N", title=key_title, sort=None)
    value = alt.X if horizontal else alt.Y
    value2 = alt.X2 if horizontal else alt.Y2
    encodings: dict[str, Any] = {"y" if horizontal else "x": key_channel}
    if color:
        encodings["color"] = alt.Color(f"{color}:N", title=color_title, sort=None)
        encodings["yOffset" if horizontal else "xOffset"] = (alt.YOffset if horizontal else alt.XOffset)(
            f"{color}:N", sort=None)
    base = alt.Chart(data).encode(**encodings)
    bars = base.mark_errorbar(ticks=True, thickness=2).encode(
        **{"x" if horizontal else "y": value(f"{low}:Q", title=rate_title, axis=axis),
           "x2" if horizontal else "y2": value2(f"{high}:Q")})
    points = base.mark_point(filled=True, size=60).encode(
        **{"x" if horizontal else "y": value(f"{rate}:Q")},
        tooltip=_tooltips([(f"{key}:N", key_title, ""), (f"{rate}:Q", rate_title, fmt),
                           (f"{low}:Q", "95% low", fmt), (f"{high}:Q", "95% high", fmt)]))
    height = max(200, 22 * data.height) if horizontal else 320
    return alt.LayerChart(layer=[bars, points]).properties(title=title, height=height)


def heatmap(frame: pl.DataFrame, row: str, column: str, value: str, *, title: str, row_title: str,
            column_title: str, value_title: str, order: list[str] | None = None) -> alt.LayerChart:
    """A matrix of ``value`` (a rate) by ``row`` and ``column``, with the rate printed in each cell;
    ``order`` lists the rows and columns in the order to show (default: by name)."""
    data = frame.select(row, column, value, "seat_games")
    sort: Any = order if order else "ascending"
    base = alt.Chart(data).encode(x=alt.X(f"{column}:N", title=column_title, sort=sort),
                                  y=alt.Y(f"{row}:N", title=row_title, sort=sort))
    cells = base.mark_rect().encode(
        color=alt.Color(f"{value}:Q", title=value_title, scale=alt.Scale(scheme="redblue", domainMid=0.5),
                        legend=alt.Legend(format="%")),
        tooltip=_tooltips([(f"{row}:N", row_title, ""), (f"{column}:N", column_title, ""),
                           (f"{value}:Q", value_title, ".1%"), ("seat_games:Q", "Seat-games", ",")]))
    labels = base.mark_text(fontSize=11).encode(text=alt.Text(f"{value}:Q", format=".0%"))
    # A step per row: a fixed height collapses the discrete rows inside Streamlit (1.67).
    return alt.LayerChart(layer=[cells, labels]).properties(title=title, height=alt.Step(40))


def bar_chart(frame: pl.DataFrame, x: str, y: str, *, title: str, x_title: str, y_title: str,
              color: str | None = None, color_title: str = "", percent: bool = False,
              horizontal: bool = False, ordinal: bool = False) -> alt.Chart:
    """Bars of ``y`` per ``x`` (a histogram when ``x`` is a count of turns), stacked by ``color``."""
    columns = [x, y] + ([color] if color else [])
    data = frame.select(columns)
    kind = "O" if ordinal else "N"
    category = (alt.Y if horizontal else alt.X)(f"{x}:{kind}", title=x_title, sort=None)
    amount = (alt.X if horizontal else alt.Y)(f"{y}:Q", title=y_title,
                                               axis=alt.Axis(format="%") if percent else alt.Axis())
    encodings: dict[str, Any] = {"y" if horizontal else "x": category, "x" if horizontal else "y": amount}
    tips = [(f"{x}:{kind}", x_title, ""), (f"{y}:Q", y_title, ".1%" if percent else ",")]
    if color:
        encodings["color"] = alt.Color(f"{color}:N", title=color_title, sort=None)
        tips.append((f"{color}:N", color_title, ""))
    chart = alt.Chart(data).mark_bar().encode(**encodings, tooltip=_tooltips(tips))
    return chart.properties(title=title, height=max(220, 22 * data[x].n_unique()) if horizontal else 320)


def card_scatter(frame: pl.DataFrame, *, title: str) -> alt.LayerChart:
    """Play rate (x) against improvement when drawn (y) per card; outliers
    (``outlier``) in another colour and labelled with the card's name."""
    data = frame.select("card", "play_rate", "iwd", "games_in_hand", "gih_win_rate", "shrunk_win_rate", "outlier")
    base = alt.Chart(data).encode(
        x=alt.X("play_rate:Q", title="Play rate (games played / games in hand)", axis=alt.Axis(format="%")),
        y=alt.Y("iwd:Q", title="Improvement when drawn (GIH − GNS win rate, points)", axis=alt.Axis(format="+%")),
    )
    points = base.mark_circle(opacity=0.8).encode(
        size=alt.Size("games_in_hand:Q", title="Games in hand"),
        color=alt.Color("outlier:N", title="Outlier (|z| ≥ 3)", scale=alt.Scale(domain=[False, True],
                                                                               range=["#4c78a8", "#e45756"])),
        tooltip=_tooltips([("card:N", "Card", ""), ("play_rate:Q", "Play rate", ".1%"),
                           ("iwd:Q", "IWD", "+.1%"), ("games_in_hand:Q", "Games in hand", ","),
                           ("gih_win_rate:Q", "GIH win rate", ".1%"), ("shrunk_win_rate:Q", "Shrunk", ".1%")]))
    labels = base.transform_filter("datum.outlier").mark_text(align="left", dx=7, fontSize=11).encode(text="card:N")
    zero = alt.Chart(pl.DataFrame({"zero": [0.0]})).mark_rule(strokeDash=[4, 4], color="gray").encode(y="zero:Q")
    return alt.LayerChart(layer=[zero, points, labels]).properties(title=title, height=420)


def forest_plot(frame: pl.DataFrame, *, title: str, percent: bool) -> alt.LayerChart:
    """Each row's ``delta`` with its 95% interval (``delta_low``..``delta_high``),
    one line per ``label``; significant rows (after Benjamini–Hochberg) in red."""
    data = frame.select("label", "delta", "delta_low", "delta_high", "q_value", "significant")
    fmt = "+.1%" if percent else "+.2f"
    axis = alt.Axis(format="+%") if percent else alt.Axis(format="+.2f")
    base = alt.Chart(data).encode(y=alt.Y("label:N", title=None, sort=None))
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("delta_low:Q", title="Difference from the baseline (95% interval)" + (" (points)" if percent else ""),
                axis=axis), x2="delta_high:Q",
        color=alt.Color("significant:N", title="Significant (BH q < 0.05)",
                        scale=alt.Scale(domain=[False, True], range=["#9e9e9e", "#e45756"])))
    points = base.mark_point(filled=True, size=60).encode(
        x="delta:Q", color=alt.Color("significant:N"),
        tooltip=_tooltips([("label:N", "What", ""), ("delta:Q", "Δ", fmt), ("delta_low:Q", "95% low", fmt),
                           ("delta_high:Q", "95% high", fmt), ("q_value:Q", "q (BH)", ".3g")]))
    zero = alt.Chart(pl.DataFrame({"zero": [0.0]})).mark_rule(color="black").encode(x="zero:Q")
    return alt.LayerChart(layer=[zero, bars, points]).properties(title=title, height=max(160, 24 * data.height))


def response_curve(frame: pl.DataFrame, *, metric: str, parameter: str, metric_title: str, by: str | None,
                   percent: bool) -> alt.LayerChart:
    """``metric`` against the swept parameter's value with its 95% band, one line per ``by`` value."""
    data = frame.select("value", "series", metric, f"{metric}_low", f"{metric}_high", "games")
    numeric = data.schema["value"].is_numeric()
    x = alt.X(f"value:{'Q' if numeric else 'O'}", title=f"{parameter} (parameter value)")
    axis = alt.Axis(format="%") if percent else alt.Axis()
    color = alt.Color("series:N", title=by) if by else alt.value("#4c78a8")
    base = alt.Chart(data).encode(x=x, color=color)
    band = base.mark_area(opacity=0.2).encode(y=alt.Y(f"{metric}_low:Q", title=metric_title, axis=axis),
                                              y2=f"{metric}_high:Q")
    line = base.mark_line(point=True).encode(
        y=f"{metric}:Q",
        tooltip=_tooltips([("value:N", parameter, ""), (f"{metric}:Q", metric_title, ".1%" if percent else ".2f"),
                           ("games:Q", "Games", ",")]))
    return alt.LayerChart(layer=[band, line]).properties(
        title=f"{metric_title} against {parameter} (95% band)", height=360)


SKILL_DIRECTIONS = {1: "surely above the rung's mean", 0: "within its interval", -1: "surely below the rung's mean"}
"""Legend text of ``analytics.metrics.skill_movement``'s ``direction``."""


def skill_chart(frame: pl.DataFrame, *, rungs: list[str], title: str, kind_title: str) -> alt.LayerChart:
    """Each name's win rate minus its rung's mean (``skill_movement``'s
    ``deviation``) across the rungs of a skill ladder, in ``rungs`` order: one
    line per name, the points filled when the whole 95% interval is above or
    below the mean, names that flip sign drawn thick."""
    data = frame.select("name", "rung", "deviation", "win_rate", "low", "high", "variant_mean", "direction",
                        "sign_flips").with_columns(
        pl.col("direction").replace_strict(SKILL_DIRECTIONS, return_dtype=pl.String).alias("where"),
        pl.when(pl.col("sign_flips")).then(pl.lit("flips sign")).otherwise(pl.lit("no flip")).alias("flip"))
    base = alt.Chart(data).encode(
        x=alt.X("rung:N", title="Rung (agent at every seat)", sort=rungs),
        y=alt.Y("deviation:Q", title="Win rate minus the rung's mean", axis=alt.Axis(format="+%")),
        color=alt.Color("name:N", title=kind_title))
    lines = base.mark_line().encode(
        strokeWidth=alt.StrokeWidth("flip:N", title="Sign", scale=alt.Scale(domain=["flips sign", "no flip"],
                                                                           range=[3.5, 1.2])))
    points = base.mark_point(size=70).encode(
        shape=alt.Shape("where:N", title="95% interval", sort=list(SKILL_DIRECTIONS.values())),
        fill=alt.condition(alt.datum.direction != 0, alt.Color("name:N"), alt.value("white")),
        tooltip=_tooltips([("name:N", kind_title, ""), ("rung:N", "Rung", ""), ("win_rate:Q", "Win rate", ".1%"),
                           ("low:Q", "95% low", ".1%"), ("high:Q", "95% high", ".1%"),
                           ("variant_mean:Q", "Rung mean", ".1%"), ("deviation:Q", "Minus the mean", "+.1%"),
                           ("flip:N", "Sign", "")]))
    zero = alt.Chart(pl.DataFrame({"zero": [0.0]})).mark_rule(color="black").encode(y="zero:Q")
    return alt.LayerChart(layer=[zero, lines, points]).properties(title=title, height=380)
