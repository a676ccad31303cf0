"""Experiments page: every experiment under the results folder, its status and size; pick one to open."""

from __future__ import annotations

import streamlit as st

from dashboard.common import EXPERIMENT_KEY, RUN_HINT, load_overview, results_root

st.title("Experiments")
root = results_root()
overview = load_overview(str(root))
if overview.is_empty():
    st.info(f"No experiments in `{root}` yet. Run `{RUN_HINT}` to make one, then reload this page.")
    st.stop()

running = overview.filter(overview["status"] == "running")
interrupted = overview.filter(overview["status"].is_in(["interrupted", "failed"]))
st.caption(f"{overview.height} experiments in `{root}`"
           + (f" · {running.height} running (the table refreshes on every rerun)" if running.height else "")
           + (f" · {interrupted.height} interrupted or failed (`cardlab run SPEC --resume` finishes them)"
              if interrupted.height else "")
           + ". Select a row to open that experiment on the other pages (or use the sidebar).")


def _open_selected() -> None:
    rows = st.session_state["experiments_table"].selection.rows
    if rows:
        st.session_state[EXPERIMENT_KEY] = overview["experiment"][rows[0]]


st.dataframe(
    overview, hide_index=True, key="experiments_table", on_select=_open_selected, selection_mode="single-row",
    column_config={
        "run_at": st.column_config.DatetimeColumn("when run (UTC)", format="YYYY-MM-DD HH:mm"),
        "games_done": st.column_config.NumberColumn("games done", format="localized"),
        "games_planned": st.column_config.NumberColumn("games planned", format="localized"),
        "progress": st.column_config.ProgressColumn("progress", format="percent", min_value=0, max_value=1),
        "size_bytes": st.column_config.NumberColumn("size on disk (bytes)", format="compact"),
        "shards_done": st.column_config.NumberColumn("shards done"),
        "player_counts": st.column_config.TextColumn("players"),
    })
st.write(f"Open: **{st.session_state.get(EXPERIMENT_KEY, overview['experiment'][0])}**")
