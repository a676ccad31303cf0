"""Experiments page: every experiment under the results folder, its status and size; pick one to
open it on its findings (the home page). Runs launched from the New run page are listed too,
from the moment they are queued: queued, running (with progress), finished, failed (with the
one-line reason), cancelled or interrupted. While a run is going on, the table refreshes itself."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.folders import read_spec
from dashboard.common import (
    EXPERIMENT_KEY,
    OPEN_EXPERIMENT_KEY,
    REFRESH_SECONDS,
    RUN_HINT,
    column_config,
    experiment_names,
    load_overview,
    results_root,
)
from dataset.location import ResultsPath
from drivers.launcher import LaunchRefused, list_runs, overview_with_launched_runs
from experiments.whatif import WHATIF_VARIANT

ACTIVE = ("running", "queued")
OPEN_HOME_KEY = "experiments_open_home"

st.title("Experiments")
root = results_root()


def overview_now(root: ResultsPath) -> pl.DataFrame:
    """The experiments with the runs launched from the New run page (none on an object store)."""
    overview = load_overview(str(root))
    try:
        return overview_with_launched_runs(overview, list_runs(root), root)
    except LaunchRefused:  # an object store: nothing is launched there
        return overview.with_columns(pl.lit("").alias("reason"))


overview = overview_now(root)
if overview.is_empty():
    st.info(f"No experiments in `{root}` yet. Run `{RUN_HINT}` to make one, then reload this page.")
    st.stop()


def _open_selected() -> None:
    rows = st.session_state["experiments_table"].selection.rows
    if rows:
        name = overview_now(root)["experiment"][rows[0]]
        if name in experiment_names():  # a queued run has no results to open yet
            st.session_state[OPEN_EXPERIMENT_KEY] = name
            st.session_state[OPEN_HOME_KEY] = True


def _open_comparison(name: str) -> None:
    st.session_state[OPEN_EXPERIMENT_KEY] = name


@st.fragment(run_every=REFRESH_SECONDS if overview["status"].is_in(ACTIVE).any() else None)
def experiments_table() -> None:
    """The overview table; refreshed every few seconds while a run is going on or queued."""
    current = overview_now(root)
    running = current.filter(current["status"] == "running")
    queued = current.filter(current["status"] == "queued")
    interrupted = current.filter(current["status"].is_in(["interrupted", "failed"]))
    st.caption(f"{current.height} experiments in `{root}`"
               + (f" · {running.height} running (this table refreshes itself every {REFRESH_SECONDS} s)"
                  if running.height else "")
               + (f" · {queued.height} queued" if queued.height else "")
               + (f" · {interrupted.height} interrupted or failed (`cardlab run SPEC --resume` finishes them)"
                  if interrupted.height else "")
               + ". Select a row to open that experiment on its findings (or use the sidebar).")
    config = column_config(current) | {
        "run_at": st.column_config.DatetimeColumn("when run (UTC)", format="YYYY-MM-DD HH:mm"),
        "progress": st.column_config.ProgressColumn("progress", format="percent", min_value=0, max_value=1),
        "size_bytes": st.column_config.NumberColumn("size on disk (bytes)", format="compact"),
        "player_counts": st.column_config.TextColumn("players"),
        "reason": st.column_config.TextColumn("why it stopped"),
    }
    st.dataframe(current, hide_index=True, key="experiments_table", on_select=_open_selected,
                 selection_mode="single-row", column_config=config)
    if st.session_state.pop(OPEN_HOME_KEY, False):  # a row was chosen: open that experiment on its findings
        st.switch_page("pages/home.py")


experiments_table()
names = experiment_names()
if names:
    chosen = str(st.session_state.get(EXPERIMENT_KEY, names[0]))
    st.write(f"Open: **{chosen}**")
    row = overview.filter(pl.col("experiment") == chosen)
    spec = read_spec(root / chosen) if chosen in names else {}
    finished_whatif = (WHATIF_VARIANT in (spec.get("variants") or {}) and not row.is_empty()
                       and row["status"][0] == "finished")
    if finished_whatif and st.button("Open the what-if comparison", key="experiments_open_whatif",
                                     on_click=_open_comparison, args=(chosen,)):
        st.switch_page("pages/whatif.py")
