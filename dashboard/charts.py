"""Altair charts of the dashboard. Functions of analytics DataFrames: they choose
marks, encodings and axis ranges (zoomed to the data, error bars always
inside), lay out labels so that none overlaps or is dropped, and compute no
metric.

Every categorical axis shows every label (no length limit, no overlap
hiding), every chart has human axis titles, win-rate charts draw the fair or
expected rate as a line with the target band around it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

import altair as alt
import polars as pl

ROW_STEP = 24
"""Pixels per row of a horizontal chart (so that no label is dropped)."""
LABEL_HEIGHT = 13
"""Pixels a text label needs, for laying labels out without overlap."""


def _all_labels(title: str | None, **extra: Any) -> alt.Axis:
    """A categorical axis that shows every label in full (Vega-Lite hides overlapping ones and
    cuts long ones by default)."""
    return alt.Axis(title=title, labelLimit=0, labelOverlap=False, **extra)


RATE_FORMAT = ".1~%"
"""The d3 format of a rate's tick: "50%", "50.5%" on a zoomed axis, never "50.0%"."""
POINTS_LABEL = "format(datum.value * 100, '+.1~f')"
"""Vega expression of a tick label on a points axis: a difference of rates of 0.05 reads "+5"."""


def _value_axis(title: str | None, **extra: Any) -> alt.Axis:
    """A quantitative axis (rates, points, counts): a few ticks whose labels never overlap
    ("95%100%"): Vega-Lite drops every other one where they would, and keeps the end ones
    inside the plot."""
    return alt.Axis(title=title, labelOverlap="greedy", labelFlush=True, tickCount=6, labelLimit=0, **extra)


def rate_axis(title: str | None, **extra: Any) -> alt.Axis:
    """The one axis of rates of every chart: percentages (``RATE_FORMAT``), labels never overlapping."""
    return _value_axis(title, format=RATE_FORMAT, **extra)


def points_axis(title: str | None) -> alt.Axis:
    """The one axis of differences of rates of every chart, ticked in percentage points ("+5",
    not "+5%": a "%" would read as a rate); the data stay fractions like every other rate."""
    return _value_axis(title, labelExpr=POINTS_LABEL)


TITLE_CHARACTERS = 72
"""Characters of a chart title's line: a longer title is cut into lines at its commas and
spaces (Vega-Lite draws a title on one line, which a narrow chart clips)."""


def title_lines(text: str, width: int = TITLE_CHARACTERS) -> list[str]:
    """``text`` cut into lines of at most ``width`` characters at spaces (a word longer than a
    line stays whole)."""
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]


def chart_title(text: str) -> alt.TitleParams:
    """A chart's title, cut into lines that fit (``title_lines``), left-aligned."""
    return alt.TitleParams(text=title_lines(text), anchor="start")


def _in_points(chart: alt.Chart, *fields: str) -> alt.Chart:
    """``chart`` with ``<field>_points`` (the field times 100) for tooltips in points."""
    return chart.transform_calculate(**{f"{field}_points": f"datum.{field} * 100" for field in fields})


def zoomed_domain(values: Sequence[float | None], *, pad: float = 0.08, low: float | None = 0.0,
                  high: float | None = 1.0, span: float | None = None) -> list[float]:
    """An axis range around ``values`` (intervals' ends, reference lines) with ``pad`` of the
    span on each side, kept within ``[low, high]`` when given (rates stay in [0, 1]). The
    range spans at least ``span`` (default: 2 points on a rate axis), centred on the values
    and shifted inside ``[low, high]``, so that a lone value is not a hairline and a chart
    filtered down to a few rows keeps its shape."""
    present = [float(value) for value in values if value is not None]
    if not present:
        return [0.0 if low is None else low, 1.0 if high is None else high]
    smallest, largest = min(present), max(present)
    minimum = span if span is not None else (0.02 if high == 1.0 else 1e-9)
    if largest - smallest < minimum:
        middle = (smallest + largest) / 2
        smallest, largest = middle - minimum / 2, middle + minimum / 2
        if low is not None and smallest < low:
            smallest, largest = low, low + minimum
        if high is not None and largest > high:
            smallest, largest = high - minimum, high
    width = largest - smallest
    start, stop = smallest - pad * width, largest + pad * width
    if low is not None:
        start = max(low, start)
    if high is not None:
        stop = min(high, stop)
    return [start, stop]


def _tooltips(fields: list[tuple[str, str, str]]) -> list[alt.Tooltip]:
    return [alt.Tooltip(field, title=title, format=fmt) if fmt else alt.Tooltip(field, title=title)
            for field, title, fmt in fields]


def interval_chart(frame: pl.DataFrame, key: str, rate: str, low: str, high: str, *, title: str, key_title: str,
                   rate_title: str, color: str | None = None, color_title: str = "", percent: bool = True,
                   horizontal: bool = False, reference: float | None = None, band: float | None = None,
                   reference_title: str = "fair rate", sample: str | None = None,
                   value_format: str | None = None) -> alt.LayerChart:
    """A point at ``rate`` and an error bar from ``low`` to ``high`` per ``key`` (side by side per
    ``color``), on an axis zoomed to the data; with ``reference``, a line there (the fair or
    expected rate) and, with ``band``, the target band ``reference ± band`` shaded.
    ``value_format`` (a d3 format) ticks a value that is not a rate (``percent=False``) and
    shows it in the tooltips: "d" for an Elo rating (``~g`` would tick 100 as "1e+2")."""
    columns = list(dict.fromkeys([key, rate, low, high, *([color] if color else []), *([sample] if sample else [])]))
    data = frame.select(columns).with_columns(pl.col(key).cast(pl.String))
    if color:
        data = data.with_columns(pl.col(color).cast(pl.String))
    ends = [*data[low].to_list(), *data[high].to_list()]
    if reference is not None:
        ends += [reference - (band or 0.0), reference + (band or 0.0)]
    domain = zoomed_domain(ends, low=0.0 if percent else None, high=1.0 if percent else None)
    value_axis = rate_axis(rate_title) if percent else _value_axis(rate_title, format=value_format or "~g")
    fmt = ".1%" if percent else value_format or ".2f"
    key_axis = _all_labels(key_title) if horizontal else _all_labels(key_title, labelAngle=0)
    key_channel = (alt.Y if horizontal else alt.X)(f"{key}:N", sort=None, axis=key_axis)
    value, value2 = (alt.X, alt.X2) if horizontal else (alt.Y, alt.Y2)
    value_name, value2_name = ("x", "x2") if horizontal else ("y", "y2")
    encodings: dict[str, Any] = {"y" if horizontal else "x": key_channel}
    if color:
        encodings["color"] = alt.Color(f"{color}:N", title=color_title, sort=None)
        encodings["yOffset" if horizontal else "xOffset"] = (alt.YOffset if horizontal else alt.XOffset)(
            f"{color}:N", sort=None)
    base = alt.Chart(data).encode(**encodings)
    scale = alt.Scale(domain=domain, zero=False, nice=False)
    bars = base.mark_errorbar(ticks=True, thickness=2).encode(
        **{value_name: value(f"{low}:Q", axis=value_axis, scale=scale), value2_name: value2(f"{high}:Q")})
    tips = [(f"{key}:N", key_title, ""), (f"{rate}:Q", rate_title, fmt), (f"{low}:Q", "95% low", fmt),
            (f"{high}:Q", "95% high", fmt)]
    if color:
        tips.insert(1, (f"{color}:N", color_title, ""))
    if sample:
        tips.append((f"{sample}:Q", "Sample", ","))
    points = base.mark_point(filled=True, size=60).encode(
        **{value_name: value(f"{rate}:Q", scale=scale)}, tooltip=_tooltips(tips))
    layers: list[Any] = []
    if reference is not None:
        if band:
            shade = pl.DataFrame({"from": [reference - band], "to": [reference + band]})
            layers.append(alt.Chart(shade).mark_rect(opacity=0.12, color="#2ca02c").encode(
                **{value_name: value("from:Q", scale=scale), value2_name: value2("to:Q")}))
        line = pl.DataFrame({"reference": [reference], "what": [reference_title]})
        layers.append(alt.Chart(line).mark_rule(strokeDash=[5, 4], color="#2ca02c").encode(
            **{value_name: value("reference:Q", scale=scale)},
            tooltip=_tooltips([("what:N", "Line", ""), ("reference:Q", "Rate", fmt)])))
    # A step per row of a horizontal chart: a fixed height collapses the discrete rows inside Streamlit (1.67).
    height: Any = alt.Step(ROW_STEP * (data[color].n_unique() if color else 1)) if horizontal else 320
    return alt.LayerChart(layer=[*layers, bars, points]).properties(title=chart_title(title), height=height)


def heatmap(frame: pl.DataFrame, row: str, column: str, value: str, *, title: str, row_title: str,
            column_title: str, value_title: str, center: float = 0.5, order: list[str] | None = None,
            sample: str = "seat_games") -> alt.LayerChart:
    """A matrix of ``value`` (a rate) by ``row`` and ``column``: the colour scale centred on
    ``center`` (the fair rate of the player count), the rate and its sample ``n`` printed in each
    cell; ``order`` lists the rows and columns in the order to show (default: by name)."""
    data = frame.select(row, column, value, sample).with_columns(
        pl.col(sample).map_elements(lambda n: f"n = {n:,}", return_dtype=pl.String).alias("sample_text"))
    sort: Any = order if order else "ascending"
    base = alt.Chart(data).encode(x=alt.X(f"{column}:N", sort=sort, axis=_all_labels(column_title, labelAngle=-30)),
                                  y=alt.Y(f"{row}:N", sort=sort, axis=_all_labels(row_title)))
    cells = base.mark_rect().encode(
        color=alt.Color(f"{value}:Q", title=value_title,
                        scale=alt.Scale(scheme="redblue", reverse=True, domainMid=center),
                        legend=alt.Legend(format="%")),
        tooltip=_tooltips([(f"{row}:N", row_title, ""), (f"{column}:N", column_title, ""),
                           (f"{value}:Q", value_title, ".1%"), (f"{sample}:Q", "Seat-games", ",")]))
    rates = base.mark_text(fontSize=12, dy=-7).encode(text=alt.Text(f"{value}:Q", format=".0%"))
    counts = base.mark_text(fontSize=9, dy=8, opacity=0.8).encode(text="sample_text:N")
    # A step per row: a fixed height collapses the discrete rows inside Streamlit (1.67).
    return alt.LayerChart(layer=[cells, rates, counts]).properties(title=chart_title(title), height=alt.Step(46))


def bar_chart(frame: pl.DataFrame, x: str, y: str, *, title: str, x_title: str, y_title: str,
              color: str | None = None, color_title: str = "", percent: bool = False,
              horizontal: bool = False, integer: bool = False) -> alt.Chart:
    """Bars of ``y`` per ``x``, stacked by ``color``. With ``integer`` (``x`` a whole number such
    as a count of turns: a histogram; vertical bars), ``x`` is a quantitative axis with integer
    ticks and a bar one unit wide centred on each value, so a value no row has is a gap where
    it belongs, not a category left out."""
    if integer and horizontal:
        raise ValueError("an integer axis is drawn with vertical bars only")
    columns = [x, y] + ([color] if color else [])
    data = frame.select(columns)
    amount_axis = rate_axis(y_title) if percent else _value_axis(y_title, format="~s")
    amount = (alt.X if horizontal else alt.Y)(f"{y}:Q", axis=amount_axis)
    encodings: dict[str, Any] = {"x" if horizontal else "y": amount}
    if integer:
        # Each bar spans value ± 0.5, given as already binned so that Vega-Lite stacks the
        # colours as in a histogram; the axis starts and ends half a unit beyond the data.
        data = data.with_columns((pl.col(x) - 0.5).alias(f"{x}_from"), (pl.col(x) + 0.5).alias(f"{x}_to"))
        values = sorted(data[x].drop_nulls().unique().to_list())
        domain = [values[0] - 0.5, values[-1] + 0.5] if values else [0.0, 1.0]
        encodings["x"] = alt.X(f"{x}_from:Q", bin="binned", scale=alt.Scale(domain=domain, nice=False, zero=False),
                               axis=_value_axis(x_title, format="d", tickMinStep=1, labelAngle=0))
        encodings["x2"] = alt.X2(f"{x}_to:Q")
        kind = "Q"
    else:
        kind = "N"
        encodings["y" if horizontal else "x"] = (alt.Y if horizontal else alt.X)(
            f"{x}:N", sort=None, axis=_all_labels(x_title))
    tips = [(f"{x}:{kind}", x_title, ""), (f"{y}:Q", y_title, ".1%" if percent else ",")]
    if color:
        encodings["color"] = alt.Color(f"{color}:N", title=color_title, sort=None)
        tips.append((f"{color}:N", color_title, ""))
    chart = alt.Chart(data).mark_bar().encode(**encodings, tooltip=_tooltips(tips))
    return chart.properties(title=chart_title(title), height=alt.Step(ROW_STEP) if horizontal else 320)


def spread_labels(points: Sequence[tuple[float, float]], *, x_domain: Sequence[float], y_domain: Sequence[float],
                  height: int, width_share: float = 0.22) -> list[float]:
    """Label heights (in data units) for labels drawn beside ``points`` so that no two overlap.

    Labels are laid out from the top down: a label goes at its point's height
    unless a label already placed within ``width_share`` of the chart's width
    sits less than ``LABEL_HEIGHT`` pixels from it; then it moves down until
    it is clear. ``height`` is the chart's height in pixels."""
    x_span = (x_domain[1] - x_domain[0]) or 1.0
    per_pixel = ((y_domain[1] - y_domain[0]) or 1.0) / height
    order = sorted(range(len(points)), key=lambda index: -points[index][1])
    placed: list[tuple[float, float]] = []
    heights = [0.0] * len(points)
    for index in order:
        x, y = points[index]
        label_y = y
        while any(abs(x - px) / x_span < width_share and abs(label_y - py) < LABEL_HEIGHT * per_pixel
                  for px, py in placed):
            label_y -= per_pixel
        placed.append((x, label_y))
        heights[index] = label_y
    return heights


SCATTER_SPAN = (0.10, 0.04)
"""The least span of the card scatter's axes (play rate, improvement when drawn): a table
filtered down to a card or two keeps a readable chart, not a point blown up to fill it."""
LABEL_EVERY = 12
"""A card scatter of this many cards or fewer labels every card, not only the flagged ones."""


def card_scatter(frame: pl.DataFrame, *, title: str, x: str = "play_rate",
                 x_title: str = "Play rate (games played / games in hand)", height: int = 440) -> alt.LayerChart:
    """``x`` (a play rate) against improvement when drawn per card, on axes zoomed to the cards
    (at least ``SCATTER_SPAN`` wide); outliers and cards surely outside their band
    (``outlier``, ``surely_outside``) in red and labelled with their names (``name`` when the
    frame has it, else ``card``; every card when there are ``LABEL_EVERY`` or fewer), laid
    out so that no two labels overlap (``spread_labels``); every point named in its tooltip.
    The plot keeps its height whatever its title and legends take."""
    named = pl.col("name") if "name" in frame.columns else pl.col("card")
    data = frame.select("card", named.alias("label"), x, "iwd", "games_in_hand", "gih_win_rate", "shrunk_win_rate",
                        "outlier", "surely_outside", "never_played").with_columns(
        (pl.col("outlier") | pl.col("surely_outside")).alias("flagged"))
    data = data.filter(pl.col(x).is_not_null() & pl.col("iwd").is_not_null())
    x_domain = zoomed_domain(data[x].to_list(), span=SCATTER_SPAN[0])
    y_domain = zoomed_domain(data["iwd"].to_list(), low=-1.0, high=1.0, pad=0.12, span=SCATTER_SPAN[1])
    labelled = data if data.height <= LABEL_EVERY else data.filter(pl.col("flagged"))
    heights = spread_labels(list(zip(labelled[x].to_list(), labelled["iwd"].to_list(), strict=True)),
                            x_domain=x_domain, y_domain=y_domain, height=height)
    labels = labelled.with_columns(pl.Series("label_y", heights, dtype=pl.Float64))
    x_scale, y_scale = alt.Scale(domain=x_domain, nice=False), alt.Scale(domain=y_domain, nice=False)
    x_axis = alt.X(f"{x}:Q", scale=x_scale, axis=rate_axis(x_title))
    y_axis = alt.Y("iwd:Q", scale=y_scale, axis=points_axis("Improvement when drawn (GIH − GNS win rate, points)"))
    points = _in_points(alt.Chart(data), "iwd").mark_circle(opacity=0.8).encode(
        x=x_axis, y=y_axis,
        size=alt.Size("games_in_hand:Q", title="Seat-games in hand", scale=alt.Scale(zero=True)),
        color=alt.Color("flagged:N", title="Outlier or outside its band",
                        scale=alt.Scale(domain=[False, True], range=["#4c78a8", "#e45756"])),
        tooltip=_tooltips([("label:N", "Card", ""), (f"{x}:Q", x_title, ".1%"),
                           ("iwd_points:Q", "Improvement when drawn (points)", "+.1f"),
                           ("games_in_hand:Q", "Seat-games in hand", ","),
                           ("gih_win_rate:Q", "GIH win rate", ".1%"), ("shrunk_win_rate:Q", "Shrunk", ".1%"),
                           ("never_played:N", "Never played", "")]))
    leaders = alt.Chart(labels).mark_rule(color="#e45756", opacity=0.5).encode(
        x=alt.X(f"{x}:Q", scale=x_scale), y=alt.Y("iwd:Q", scale=y_scale), y2="label_y:Q")
    names = alt.Chart(labels).mark_text(align="left", dx=8, fontSize=11).encode(
        x=alt.X(f"{x}:Q", scale=x_scale), y=alt.Y("label_y:Q", scale=y_scale), text="label:N",
        color=alt.condition(alt.datum.flagged, alt.value("#b22222"), alt.value("#333333")))
    zero = alt.Chart(pl.DataFrame({"zero": [0.0]})).mark_rule(strokeDash=[4, 4], color="gray").encode(
        y=alt.Y("zero:Q", scale=y_scale))
    # "fit-x": the plot keeps its height whatever the title's lines and the legends take.
    return alt.LayerChart(layer=[zero, points, leaders, names]).properties(
        title=chart_title(title), height=height, autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))


def forest_plot(frame: pl.DataFrame, *, title: str, percent: bool,
                x_title: str = "Difference from the baseline (95% interval)",
                significance: str = "Significant (BH q < 0.05)", q_title: str = "q (BH)") -> alt.LayerChart:
    """Each row's ``delta`` with its 95% interval (``delta_low``..``delta_high``),
    one line per ``label`` (every label shown); significant rows in red (by default after
    Benjamini–Hochberg; ``significance`` and ``q_title`` name another rule and its ``q_value``)."""
    data = frame.select("label", "delta", "delta_low", "delta_high", "q_value", "significant", "n")
    # Differences of rates are in percentage points (axis and tooltips), of means in their unit.
    fmt, unit = ("+.1f", "_points") if percent else ("+.2f", "")
    domain = zoomed_domain([*data["delta_low"].to_list(), *data["delta_high"].to_list(), 0.0], low=None, high=None)
    scale = alt.Scale(domain=domain, nice=False, zero=False)
    chart = _in_points(alt.Chart(data), "delta", "delta_low", "delta_high") if percent else alt.Chart(data)
    base = chart.encode(y=alt.Y("label:N", sort=None, axis=_all_labels(None)))
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("delta_low:Q", scale=scale,
                axis=points_axis(x_title + ", points") if percent else _value_axis(x_title, format="+.2f")),
        x2="delta_high:Q",
        color=alt.Color("significant:N", title=significance,
                        scale=alt.Scale(domain=[False, True], range=["#9e9e9e", "#e45756"])))
    points = base.mark_point(filled=True, size=60).encode(
        x=alt.X("delta:Q", scale=scale), color=alt.Color("significant:N"),
        tooltip=_tooltips([("label:N", "What", ""), (f"delta{unit}:Q", "Difference", fmt),
                           (f"delta_low{unit}:Q", "95% low", fmt), (f"delta_high{unit}:Q", "95% high", fmt),
                           ("q_value:Q", q_title, ".3g"), ("n:Q", "Sample", ",")]))
    zero = alt.Chart(pl.DataFrame({"zero": [0.0]})).mark_rule(color="black").encode(x=alt.X("zero:Q", scale=scale))
    return alt.LayerChart(layer=[zero, bars, points]).properties(title=chart_title(title), height=alt.Step(ROW_STEP))


def response_curve(frame: pl.DataFrame, *, metric: str, parameter: str, metric_title: str, by: str | None,
                   percent: bool, reference: float | None = None) -> alt.LayerChart:
    """``metric`` against the swept parameter's value with its 95% band, one line per
    ``series`` (a second swept parameter, or the agent); integer parameters get one tick per
    grid value; with ``reference``, a dashed line (the fair rate)."""
    data = frame.select("value", "series", metric, f"{metric}_low", f"{metric}_high", "games")
    numeric = data.schema["value"].is_numeric()
    integer = data.schema["value"].is_integer()
    values = sorted(data["value"].unique().to_list()) if numeric else None
    x_axis = _value_axis(f"{parameter} (parameter value)", **({"values": values, "format": "d"} if integer else {}))
    x = alt.X(f"value:{'Q' if numeric else 'O'}", axis=x_axis,
              scale=alt.Scale(domain=[values[0], values[-1]], nice=False, zero=False) if values else alt.Undefined)
    ends = [*data[f"{metric}_low"].to_list(), *data[f"{metric}_high"].to_list(),
            *([reference] if reference is not None else [])]
    domain = zoomed_domain(ends, low=0.0 if percent else None, high=1.0 if percent else None)
    y_scale = alt.Scale(domain=domain, nice=False, zero=False)
    color = alt.Color("series:N", title=by or "") if data["series"].drop_nulls().len() else alt.value("#4c78a8")
    base = alt.Chart(data).encode(x=x, color=color)
    band = base.mark_area(opacity=0.2).encode(
        y=alt.Y(f"{metric}_low:Q", scale=y_scale,
                 axis=rate_axis(metric_title) if percent else _value_axis(metric_title, format="~g")),
        y2=f"{metric}_high:Q")
    line = base.mark_line(point=True).encode(
        y=alt.Y(f"{metric}:Q", scale=y_scale),
        tooltip=_tooltips([("value:N", parameter, ""), ("series:N", by or "series", ""),
                           (f"{metric}:Q", metric_title, ".1%" if percent else ".2f"), ("games:Q", "Games", ",")]))
    layers: list[Any] = [band, line]
    if reference is not None:
        layers.insert(0, alt.Chart(pl.DataFrame({"reference": [reference]})).mark_rule(
            strokeDash=[5, 4], color="#2ca02c").encode(y=alt.Y("reference:Q", scale=y_scale)))
    return alt.LayerChart(layer=layers).properties(title=chart_title(f"{metric_title} against {parameter} (95% band)"),
                                                   height=360)


def trend_chart(frame: pl.DataFrame, *, x: str, rate: str, title: str, x_title: str, rate_title: str,
                series: str, series_title: str, sample: str) -> alt.LayerChart:
    """``rate`` against ``x`` (e.g. the played win rate by the turn first played) with its 95% band,
    one line per ``series``; axes zoomed to the data, one tick per integer ``x``."""
    data = frame.select(x, rate, f"{rate}_low", f"{rate}_high", series, sample).with_columns(
        pl.col(series).cast(pl.String))
    values = sorted(data[x].unique().to_list())
    domain = zoomed_domain([*data[f"{rate}_low"].to_list(), *data[f"{rate}_high"].to_list()])
    y_scale = alt.Scale(domain=domain, nice=False, zero=False)
    x_channel = alt.X(f"{x}:Q", axis=_value_axis(x_title, values=values, format="d"),
                      scale=alt.Scale(domain=[values[0], values[-1]] if values else [0, 1], nice=False, zero=False))
    base = alt.Chart(data).encode(x=x_channel, color=alt.Color(f"{series}:N", title=series_title))
    band = base.mark_area(opacity=0.15).encode(
        y=alt.Y(f"{rate}_low:Q", scale=y_scale, axis=rate_axis(rate_title)), y2=f"{rate}_high:Q")
    line = base.mark_line(point=True).encode(
        y=alt.Y(f"{rate}:Q", scale=y_scale),
        tooltip=_tooltips([(f"{series}:N", series_title, ""), (f"{x}:Q", x_title, ""), (f"{rate}:Q", rate_title, ".1%"),
                           (f"{rate}_low:Q", "95% low", ".1%"), (f"{rate}_high:Q", "95% high", ".1%"),
                           (f"{sample}:Q", "Seat-games", ",")]))
    return alt.LayerChart(layer=[band, line]).properties(title=chart_title(title), height=320)


SKILL_DIRECTIONS = {1: "surely above the rung's mean", 0: "within its interval", -1: "surely below the rung's mean"}
"""Legend text of ``analytics.metrics.skill_movement``'s ``direction``."""


RUNG_LINES = "split(replace(replace(datum.label, ')', ''), '(', ','), ',')"
"""Vega expression of a rung's tick label: the agent's name, then each of its parameters on a
line of its own (``sm_ismcts(iterations=200,rollout=heuristic)`` on three short lines)."""


def skill_chart(frame: pl.DataFrame, *, rungs: list[str], title: str, kind_title: str) -> alt.LayerChart:
    """Each name's win rate minus its rung's mean (``skill_movement``'s
    ``deviation``) across the rungs of a skill ladder, in ``rungs`` order: one
    line per name, the points filled when the whole 95% interval is above or
    below the mean, names that flip sign drawn thick. The rung labels are
    horizontal, one line per agent parameter, and the plot's 380 pixels are
    its own (labels and legends come on top), so long agent names never
    squash the lines; the y axis is zoomed to the differences and 0."""
    data = frame.select("name", "rung", "deviation", "win_rate", "low", "high", "variant_mean", "direction",
                        "sign_flips").with_columns(
        pl.col("direction").replace_strict(SKILL_DIRECTIONS, return_dtype=pl.String).alias("where"),
        pl.when(pl.col("sign_flips")).then(pl.lit("flips sign")).otherwise(pl.lit("no flip")).alias("flip"))
    # At least a point either side of 0, so that a flat line is not blown up into noise.
    domain = zoomed_domain([*data["deviation"].to_list(), -0.01, 0.01], low=None, high=None)
    y_scale = alt.Scale(domain=domain, nice=False, zero=False)
    base = _in_points(alt.Chart(data), "deviation").encode(
        x=alt.X("rung:N", sort=rungs, axis=_all_labels("Rung (agent at every seat)", labelAngle=0,
                                                        labelExpr=RUNG_LINES)),
        y=alt.Y("deviation:Q", scale=y_scale, axis=points_axis("Win rate minus the rung's mean (points)")),
        color=alt.Color("name:N", title=kind_title))
    lines = base.mark_line().encode(
        strokeWidth=alt.StrokeWidth("flip:N", title="Sign", scale=alt.Scale(domain=["flips sign", "no flip"],
                                                                           range=[3.5, 1.2])))
    points = base.mark_point(size=70).encode(
        shape=alt.Shape("where:N", title="95% interval", sort=list(SKILL_DIRECTIONS.values())),
        fill=alt.condition(alt.datum.direction != 0, alt.Color("name:N"), alt.value("white")),
        tooltip=_tooltips([("name:N", kind_title, ""), ("rung:N", "Rung", ""), ("win_rate:Q", "Win rate", ".1%"),
                           ("low:Q", "95% low", ".1%"), ("high:Q", "95% high", ".1%"),
                           ("variant_mean:Q", "Rung mean", ".1%"),
                           ("deviation_points:Q", "Minus the mean (points)", "+.1f"),
                           ("flip:N", "Sign", "")]))
    zero = alt.Chart(pl.DataFrame({"zero": [0.0]})).mark_rule(color="black").encode(
        y=alt.Y("zero:Q", scale=y_scale))
    # Streamlit fits a chart's whole height, labels included, into its height ("fit"); "fit-x"
    # fits the width only, so the plot keeps its height whatever the labels take.
    return alt.LayerChart(layer=[zero, lines, points]).properties(
        title=chart_title(title), height=380, autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))
