"""Sweeps page: for an experiment with a ``[sweep]`` grid, the response curve of a metric against a
swept parameter's value (the ``games`` columns named by the dotted parameter path)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.explore import SWEEP_METRICS
from dashboard.charts import response_curve
from dashboard.common import games_columns, header, load, open_report, pick, player_counts, require_experiment

st.title("Sweeps")
folder = require_experiment()
report = open_report(folder)
header(report)
sweep = report.spec.get("sweep") or {}
swept = [path for path in sweep if path in games_columns(folder)]
if not swept:
    st.info("This experiment has no `[sweep]` grid. Add one to an experiment file (see README \"Sweeps\") "
            "and run it, e.g. `cardlab run experiments/divvy_sweep.toml`.")
    st.stop()
left, middle, right = st.columns(3)
parameter = left.selectbox("Parameter (x axis)", swept, index=0)
others = [path for path in swept if path != parameter]
by = middle.selectbox("One line per", ["(pooled)", *others], index=0)
metric = right.selectbox("Metric", list(SWEEP_METRICS), index=0, format_func=lambda name: SWEEP_METRICS[name])
split = None if by == "(pooled)" else str(by)
response = load(folder, "sweep_response", parameter, split)
n_players = pick("Players", player_counts(response))
curve = response.filter(pl.col("n_players") == n_players)
st.altair_chart(response_curve(curve, metric=metric, parameter=parameter, metric_title=SWEEP_METRICS[metric],
                               by=split, percent=metric.endswith("rate")), width="stretch")
st.caption(f"Grid: {', '.join(f'{path} = {values}' for path, values in sweep.items())}. "
           "Dimensions not on the x axis or the lines are pooled; the baseline is left out.")
st.dataframe(curve, hide_index=True)
