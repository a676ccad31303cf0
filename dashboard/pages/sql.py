"""SQL page: a read-only query box over the experiment's catalog (every view), results as a table,
download as CSV. Anything that is not a read is refused."""

from __future__ import annotations

import streamlit as st

from analytics.catalog import AnalyticsError
from dashboard.common import query, require_experiment

MAX_ROWS = 10_000
EXAMPLE = "SELECT variant, n_players, count(*) AS games, avg(turns) AS mean_turns\nFROM games GROUP BY ALL ORDER BY ALL"

st.title("SQL")
folder = require_experiment()
st.caption(f"Read-only DuckDB over `{folder.name}`: the views `games`, `players`, `cards` and every metric view "
           "(`seat_stats`, `card_stats`, `variant_deltas`...). One SELECT at a time; "
           "for anything else use `cardlab sql`.")
text = st.text_area("Query", EXAMPLE, height=140)
try:
    frame, total = query(folder, text, MAX_ROWS)
except AnalyticsError as error:
    st.error(f"{error}")
    st.stop()
st.caption(f"{total:,} rows" + (f", first {frame.height:,} shown and downloaded" if total > frame.height else ""))
st.dataframe(frame, hide_index=True)
st.download_button("Download CSV", frame.write_csv(), file_name=f"{folder.name}-query.csv", mime="text/csv")
