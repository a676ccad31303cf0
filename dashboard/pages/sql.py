"""SQL page: a confined, read-only query box over the experiment's catalog (every view), results as a
table, download as CSV, and the views and their columns with their descriptions, searchable.

The connection (``analytics.sql.open_confined_catalog``) reads only the chosen
experiment's finished shards, or every experiment of the results folder when
the toggle says so, and nothing else: DuckDB's file, URL and extension access
is off and its settings are locked. Anything that is not one SELECT is
refused before it runs. Every refusal is one line.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.folders import AnalyticsError
from analytics.sql import frame_csv
from dashboard.common import query, query_all, require_experiment, results_root, views_and_columns

MAX_ROWS = 10_000
EXAMPLE = "SELECT variant, n_players, count(*) AS games, avg(turns) AS mean_turns\nFROM games GROUP BY ALL ORDER BY ALL"

st.title("SQL")
folder = require_experiment()
every = st.toggle("Every experiment in the results folder", value=False, key="sql_every_experiment",
                  help="The views then hold every experiment's rows; the `experiment` column tells them apart.")
scope = f"every experiment in `{results_root()}`" if every else f"`{folder.name}`"
st.caption(f"Read-only DuckDB over {scope}: the views `games`, `players`, `cards` and every metric view "
           "(`seat_stats`, `card_stats`, `variant_deltas`...). It reads nothing else (no files, no other "
           "experiment, no extensions) and writes nothing. One SELECT at a time; "
           "for anything else use `cardlab sql`.")
text = st.text_area("Query", EXAMPLE, height=140)
try:
    frame, total = query_all(text, MAX_ROWS) if every else query(folder, text, MAX_ROWS)
except AnalyticsError as error:
    st.error(f"{error}")
else:
    st.caption(f"{total:,} row{'' if total == 1 else 's'}"
               + (f", first {frame.height:,} shown and downloaded" if total > frame.height else ""))
    st.dataframe(frame, hide_index=True)
    name = "all-experiments" if every else folder.name
    st.download_button("Download CSV", frame_csv(frame), file_name=f"{name}-query.csv", mime="text/csv")


def matching(frame: pl.DataFrame, words: str) -> pl.DataFrame:
    """The rows of ``frame`` in which every word of ``words`` appears in some column (any case)."""
    for word in words.lower().split():
        frame = frame.filter(pl.any_horizontal(pl.col(name).fill_null("").str.to_lowercase().str.contains(
            word, literal=True) for name in frame.columns))
    return frame


with st.expander("Views and columns", expanded=True):
    try:
        views, columns = views_and_columns(folder)
    except AnalyticsError:  # the refusal is already shown above, once
        st.caption("The views and their columns show once the experiment can be read.")
        st.stop()
    search = st.text_input("Search", key="sql_schema_search", placeholder="a view, a column or a word: card, interval",
                           help="Every word must appear in the view's or column's name, type or description.")
    shown_views, shown_columns = matching(views, search), matching(columns, search)
    st.caption(f"{shown_views.height} of {views.height} views, {shown_columns.height} of {columns.height} columns "
               f"of `{folder.name}`. In SQL: `FROM describe_view('card_stats')`.")
    wide = {"description": st.column_config.TextColumn(width="large")}
    st.dataframe(shown_views, hide_index=True, column_config=wide)
    st.dataframe(shown_columns, hide_index=True, column_config=wide)
