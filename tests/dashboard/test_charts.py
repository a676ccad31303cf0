"""The charts' pure helpers: outlier labels laid out without overlapping, axes zoomed to the
data (intervals and reference lines inside, rates kept within [0, 1]), and tick labels that say
"%" for rates only: differences of rates tick in points; a turns histogram on an integer axis,
the skill chart's plot kept clear of its long rung names, Elo ratings ticked as integers."""

from __future__ import annotations

import itertools
from typing import Any

import altair as alt
import polars as pl
import pytest

from dashboard.charts import (
    LABEL_EVERY,
    LABEL_HEIGHT,
    POINTS_LABEL,
    RATE_FORMAT,
    RUNG_LINES,
    SCATTER_SPAN,
    TITLE_CHARACTERS,
    bar_chart,
    card_scatter,
    forest_plot,
    interval_chart,
    skill_chart,
    spread_labels,
    title_lines,
    zoomed_domain,
)

HEIGHT = 440
X_DOMAIN = [0.0, 1.0]
Y_DOMAIN = [-0.2, 0.2]


def test_labels_of_crowded_points_never_overlap_and_never_rise_above_their_point() -> None:
    # Eight outliers almost on top of each other, and one far to the right.
    points = [(0.50 + 0.001 * k, 0.10 - 0.0005 * k) for k in range(8)] + [(0.95, 0.10)]
    heights = spread_labels(points, x_domain=X_DOMAIN, y_domain=Y_DOMAIN, height=HEIGHT)
    per_pixel = (Y_DOMAIN[1] - Y_DOMAIN[0]) / HEIGHT
    for (x1, _), y1, (x2, _), y2 in ((points[i], heights[i], points[j], heights[j])
                                     for i, j in itertools.combinations(range(8), 2)):
        assert abs(x1 - x2) < 0.22 and abs(y1 - y2) >= LABEL_HEIGHT * per_pixel - 1e-12
    assert all(label <= y + 1e-12 for (_, y), label in zip(points, heights, strict=True))
    assert heights[-1] == points[-1][1]  # nothing near it: at its point's height
    assert heights[0] == points[0][1]  # the highest label of the crowd stays where it is


def test_labels_far_apart_stay_at_their_points() -> None:
    points = [(0.1, 0.15), (0.9, 0.15), (0.5, -0.15)]
    assert spread_labels(points, x_domain=X_DOMAIN, y_domain=Y_DOMAIN, height=HEIGHT) == [0.15, 0.15, -0.15]


def test_a_rate_axis_zooms_to_the_intervals_and_the_reference_and_stays_within_0_and_1() -> None:
    # Intervals from 45% to 55% and the 1/N line at 50%: 8% of the 10-point span on each side.
    assert zoomed_domain([0.45, 0.55, 0.5]) == pytest.approx([0.442, 0.558])
    # An interval reaching 99.9%: the axis stops at 100%.
    assert zoomed_domain([0.90, 0.999])[1] == 1.0
    # A lone value: at least a 2-point span, so the error bars stay visible.
    low, high = zoomed_domain([0.25])
    assert low < 0.25 < high and high - low == pytest.approx(0.02 * (1 + 2 * 0.08))


def test_a_difference_axis_is_not_clamped_and_no_values_give_the_unit_range() -> None:
    assert zoomed_domain([-0.3, 0.1, 0.0], low=None, high=None) == pytest.approx([-0.332, 0.132])
    assert zoomed_domain([None, None]) == [0.0, 1.0]


def axes_by_field(chart: alt.TopLevelMixin) -> dict[str, dict[str, Any]]:
    """Field -> its axis, over every layer of ``chart``."""
    found: dict[str, dict[str, Any]] = {}
    for layer in chart.to_dict().get("layer", []):
        for encoding in layer.get("encoding", {}).values():
            if isinstance(encoding, dict) and "axis" in encoding and encoding["axis"] is not None:
                found[encoding["field"]] = encoding["axis"]
    return found


def test_the_card_scatter_ticks_the_play_rate_in_percent_and_the_improvement_when_drawn_in_points() -> None:
    cards = pl.DataFrame({"card": ["a", "b"], "play_rate": [0.4, 0.9], "iwd": [0.05, -0.03],
                          "games_in_hand": [50, 60], "gih_win_rate": [0.55, 0.47], "shrunk_win_rate": [0.53, 0.49],
                          "outlier": [False, True], "surely_outside": [False, False], "never_played": [False, False]})
    axes = axes_by_field(card_scatter(cards, title="cards"))
    assert axes["play_rate"]["format"] == RATE_FORMAT
    assert axes["iwd"]["labelExpr"] == POINTS_LABEL and "format" not in axes["iwd"]
    assert "points" in axes["iwd"]["title"]


def test_a_forest_plot_of_rate_differences_ticks_in_points_and_one_of_means_in_its_unit() -> None:
    deltas = pl.DataFrame({"label": ["a", "b"], "delta": [0.05, -0.02], "delta_low": [0.01, -0.05],
                           "delta_high": [0.09, 0.01], "q_value": [0.01, 0.5], "significant": [True, False],
                           "n": [100, 100]})
    rates = axes_by_field(forest_plot(deltas, title="rates", percent=True))["delta_low"]
    assert rates["labelExpr"] == POINTS_LABEL and "format" not in rates and rates["title"].endswith(", points")
    means = axes_by_field(forest_plot(deltas, title="means", percent=False))["delta_low"]
    assert means["format"] == "+.2f" and "labelExpr" not in means


def test_the_skill_chart_ticks_the_distance_from_the_rungs_mean_in_points() -> None:
    movement = pl.DataFrame({"name": ["a", "a"], "rung": ["r1", "r2"], "deviation": [0.04, -0.06],
                             "win_rate": [0.54, 0.44], "low": [0.5, 0.4], "high": [0.58, 0.48],
                             "variant_mean": [0.5, 0.5], "direction": [0, -1], "sign_flips": [False, False]})
    axes = axes_by_field(skill_chart(movement, rungs=["r1", "r2"], title="skill", kind_title="Card"))
    assert axes["deviation"]["labelExpr"] == POINTS_LABEL and "format" not in axes["deviation"]


def encodings_of(chart: alt.TopLevelMixin) -> list[dict[str, Any]]:
    """The encoding of ``chart`` (of each of its layers)."""
    spec = chart.to_dict()
    return [layer.get("encoding", {}) for layer in spec.get("layer", [spec])]


def test_a_turns_histogram_has_an_integer_axis_where_a_missing_count_is_a_gap() -> None:
    # Games of 6 and 8 turns, none of 7: 7 keeps its place on the axis, empty.
    turns = pl.DataFrame({"turns": [6, 8], "games": [5, 195]})
    chart = bar_chart(turns, "turns", "games", integer=True, title="length", x_title="Turns", y_title="Games")
    (encoding,) = encodings_of(chart)
    x = encoding["x"]
    assert x["type"] == "quantitative" and x["bin"] == "binned"
    assert x["axis"]["format"] == "d" and x["axis"]["tickMinStep"] == 1 and x["axis"]["labelAngle"] == 0
    assert x["scale"]["domain"] == [5.5, 8.5]  # from half a turn before the shortest to after the longest
    data = next(iter(chart.to_dict()["datasets"].values()))
    assert [(row["turns_from"], row["turns_to"]) for row in data] == [(5.5, 6.5), (7.5, 8.5)]


def test_the_skill_chart_keeps_its_plot_height_with_long_rung_names_and_zooms_to_the_differences() -> None:
    rungs = ["random", "sm_ismcts(iterations=200,rollout=heuristic)"]
    movement = pl.DataFrame({"name": ["a", "a"], "rung": rungs, "deviation": [-0.08, 0.11],
                             "win_rate": [0.42, 0.61], "low": [0.35, 0.55], "high": [0.49, 0.67],
                             "variant_mean": [0.5, 0.5], "direction": [0, 1], "sign_flips": [False, False]})
    chart = skill_chart(movement, rungs=rungs, title="skill", kind_title="Card")
    spec = chart.to_dict()
    # The plot keeps its 380 pixels; Streamlit's default ("fit") would take the labels' height out of them.
    assert spec["autosize"]["type"] == "fit-x" and spec["height"] == 380
    x = next(encoding["x"] for encoding in encodings_of(chart) if encoding.get("x", {}).get("field") == "rung")
    assert x["axis"]["labelAngle"] == 0 and x["axis"]["labelExpr"] == RUNG_LINES  # horizontal, a line per parameter
    y = next(encoding["y"] for encoding in encodings_of(chart) if encoding.get("y", {}).get("field") == "deviation")
    low, high = y["scale"]["domain"]
    assert low < -0.08 and high > 0.11 and high - low < 0.25  # the differences' own range, not a hairline


def test_an_elo_axis_ticks_plain_integers() -> None:
    ratings = pl.DataFrame({"agent": ["random", "heuristic"], "rating": [0.0, 649.0], "rating_low": [0.0, 528.0],
                            "rating_high": [0.0, 774.0]})
    chart = interval_chart(ratings, "agent", "rating", "rating_low", "rating_high", percent=False, value_format="d",
                           horizontal=True, title="ratings", key_title="Agent", rate_title="Elo rating")
    axes = axes_by_field(chart)
    assert axes["rating_low"]["format"] == "d"  # not "~g": 100 read "1e+2"


CARDS = pl.DataFrame({"card": [f"card_{k}" for k in range(20)], "name": [f"Card {k}" for k in range(20)],
                      "play_rate": [0.3 + 0.03 * k for k in range(20)], "iwd": [0.01 * (k - 10) for k in range(20)],
                      "games_in_hand": [100 + k for k in range(20)], "gih_win_rate": [0.5] * 20,
                      "shrunk_win_rate": [0.5] * 20, "outlier": [k == 3 for k in range(20)],
                      "surely_outside": [False] * 20, "never_played": [False] * 20})


def scatter_layers(chart: alt.TopLevelMixin) -> list[dict[str, Any]]:
    spec = chart.to_dict()
    return [{**layer, "rows": spec["datasets"][layer["data"]["name"]]} for layer in spec["layer"]]


def test_every_value_axis_drops_a_tick_label_rather_than_overlap_and_rates_tick_in_percent() -> None:
    # "95%100%": on a narrow chart Vega-Lite drew every tick label, overlapping; now it drops some.
    charts = [card_scatter(CARDS, title="cards"),
              interval_chart(pl.DataFrame({"seat": [0, 1], "w": [0.5, 0.96], "lo": [0.45, 0.93], "hi": [0.55, 0.99]}),
                             "seat", "w", "lo", "hi", title="seats", key_title="Seat", rate_title="Win rate")]
    for chart in charts:
        for field, axis in axes_by_field(chart).items():
            if field in ("seat",):
                assert axis["labelOverlap"] is False  # a category: every label shown
            else:
                assert axis["labelOverlap"] == "greedy" and axis["labelFlush"] is True, field
    assert axes_by_field(charts[1])["lo"]["format"] == RATE_FORMAT == ".1~%"


def test_a_long_chart_title_is_cut_into_lines_that_fit() -> None:
    text = ("Play rate when playable against improvement when drawn, sweep-004 (rounds=4, treasure_target=20), "
            "3 players, held by heuristic, Defenders of the Faith")
    lines = title_lines(text)
    assert len(lines) == 3 and all(len(line) <= TITLE_CHARACTERS for line in lines) and " ".join(lines) == text
    title = card_scatter(CARDS, title=text).to_dict()["title"]
    assert title["text"] == lines and title["anchor"] == "start"


def test_a_card_scatter_filtered_to_one_card_keeps_its_shape_and_names_the_card() -> None:
    one = card_scatter(CARDS.filter(pl.col("card") == "card_5"), title="one card")
    spec = one.to_dict()
    assert spec["height"] == 440 and spec["autosize"]["type"] == "fit-x"
    x_low, x_high = next(layer["encoding"]["x"]["scale"]["domain"] for layer in spec["layer"]
                         if layer.get("encoding", {}).get("x", {}).get("field") == "play_rate")
    y_low, y_high = next(layer["encoding"]["y"]["scale"]["domain"] for layer in spec["layer"]
                         if layer.get("encoding", {}).get("y", {}).get("field") == "iwd")
    assert x_high - x_low >= SCATTER_SPAN[0] and y_high - y_low >= SCATTER_SPAN[1]
    labels = [row["label"] for layer in scatter_layers(one) if layer["mark"].get("type") == "text"
              for row in layer["rows"]]
    assert labels == ["Card 5"]  # a few cards: each labelled, by its name


def test_a_crowded_card_scatter_labels_only_its_flagged_cards_and_names_every_point_on_hover() -> None:
    assert CARDS.height > LABEL_EVERY
    layers = scatter_layers(card_scatter(CARDS, title="cards"))
    labels = [row["label"] for layer in layers if layer["mark"].get("type") == "text" for row in layer["rows"]]
    assert labels == ["Card 3"]
    circles = next(layer for layer in layers if layer["mark"].get("type") == "circle")
    assert circles["encoding"]["tooltip"][0] == {"field": "label", "title": "Card", "type": "nominal"}
    assert len(circles["rows"]) == 20
