"""Experiments page: every experiment under the results folder, its status and size; pick one to
open. While a run is going on, the table refreshes itself."""

from __future__ import annotations

import streamlit as st

from dashboard.common import EXPERIMENT_KEY, REFRESH_SECONDS, RUN_HINT, column_config, load_overview, results_root

st.title("Experiments")
root = results_root()
overview = load_overview(str(root))
if overview.is_empty():
    st.info(f"No experiments in `{root}` yet. Run `{RUN_HINT}` to make one, then reload this page.")
    st.stop()


def _open_selected() -> None:
    rows = st.session_state["experiments_table"].selection.rows
    if rows:
        st.session_state[EXPERIMENT_KEY] = load_overview(str(root))["experiment"][rows[0]]


@st.fragment(run_every=REFRESH_SECONDS if (overview["status"] == "running").any() else None)
def experiments_table() -> None:
    """The overview table; refreshed every few seconds while a run is going on."""
    current = load_overview(str(root))
    running = current.filter(current["status"] == "running")
    interrupted = current.filter(current["status"].is_in(["interrupted", "failed"]))
    st.caption(f"{current.height} experiments in `{root}`"
               + (f" · {running.height} running (this table refreshes itself every {REFRESH_SECONDS} s)"
                  if running.height else "")
               + (f" · {interrupted.height} interrupted or failed (`cardlab run SPEC --resume` finishes them)"
                  if interrupted.height else "")
               + ". Select a row to open that experiment on the other pages (or use the sidebar).")
    config = column_config(current) | {
        "run_at": st.column_config.DatetimeColumn("when run (UTC)", format="YYYY-MM-DD HH:mm"),
        "progress": st.column_config.ProgressColumn("progress", format="percent", min_value=0, max_value=1),
        "size_bytes": st.column_config.NumberColumn("size on disk (bytes)", format="compact"),
        "player_counts": st.column_config.TextColumn("players"),
    }
    st.dataframe(current, hide_index=True, key="experiments_table", on_select=_open_selected,
                 selection_mode="single-row", column_config=config)


experiments_table()
st.write(f"Open: **{st.session_state.get(EXPERIMENT_KEY, overview['experiment'][0])}**")
