"""Sweeps page: for an experiment with a ``[sweep]`` grid, the response curve of a metric
(each agent's win rate, seat 0's, draws, length) against a swept parameter's value, one line
per agent or per value of another swept parameter, one tick per grid value; the baseline is
left out of the curve and the caption says whether it is a grid point."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.explore import SWEEP_METRICS
from analytics.variants import sweep_baseline
from dashboard.charts import response_curve
from dashboard.common import choose, games_columns, load, open_page, player_counts, players_picker, table

POOLED = "(pooled)"

page = open_page("Sweeps")
folder, report = page.folder, page.report
sweep = report.spec.get("sweep") or {}
swept = [path for path in sweep if path in games_columns(folder)]
if not swept:
    st.info("This experiment has no `[sweep]` grid over parameters. Add one to an experiment file (see README "
            "\"Sweeps\") and run it, e.g. `cardlab run experiments/divvy_sweep.toml`.")
    st.stop()
left, middle, right = st.columns(3)
parameter = choose("Parameter (x axis)", swept, key="parameter", container=left)
metric = choose("Metric", list(SWEEP_METRICS), key="metric", container=middle, format_func=SWEEP_METRICS.__getitem__)
if metric == "agent_win_rate":
    split: str | None = "agent"
    response = load(folder, "sweep_agent_response", parameter)
else:
    others = [path for path in swept if path != parameter]
    by = choose("One line per", [POOLED, *others], key="by", container=right)
    split = None if by == POOLED else str(by)
    response = load(folder, "sweep_response", parameter, split)
n_players = players_picker(player_counts(response))
curve = response.filter(pl.col("n_players") == n_players)
reference = 1 / n_players if metric in ("agent_win_rate", "first_seat_win_rate") else None
st.altair_chart(response_curve(curve, metric=metric, parameter=parameter, metric_title=SWEEP_METRICS[metric],
                               by=split, percent=metric.endswith("rate"), reference=reference), width="stretch")
place = sweep_baseline(report.spec)
st.caption(f"Grid: {', '.join(f'{path} = {values}' for path, values in sweep.items())}. "
           "Dimensions not on the x axis or the lines are pooled. " + (place.text() if place else "")
           + (" Agent win rates: 95% intervals clustered by game." if metric == "agent_win_rate" else ""))
table(curve, key="sweep_table")
