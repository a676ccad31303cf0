"""Variants page: one variant (a sweep grid point with its swept values) against the baseline.
It opens on what the variant changes (its parameters, the cards it touches with their faces
before and after, and those cards' own metrics), then on what moved most (the report's
significant changes, in words), and, when nothing moved, the smallest change these games
could have detected; then every difference of one family with its 95% interval and
Benjamini–Hochberg q-value, as a forest plot (every row labelled, significant ones marked)
and a table. Card rows are per agent."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.changes import variant_change
from analytics.findings import METRIC_NAMES, delta_findings, delta_methods
from dashboard.changes import (
    change_rows,
    own_metric_rows,
    readable_deltas,
    show_change,
    show_deltas,
    show_null_result,
)
from dashboard.charts import forest_plot
from dashboard.common import (
    choose,
    lineup_agents,
    open_page,
    player_counts,
    players_picker,
    toggle_filter,
    variant_picker,
)
from dashboard.evidence import delta_row, delta_words, headline, shown_finding

FAMILIES = {"seat": "Seats (win rate)", "agent": "Agents (win rate)", "faction": "Factions (win rate)",
            "card": "Cards", "game": "Game (party win rate, draws, turn cap, length)"}
MEANS = ("turns", "decisions")
MOVED_MOST = 10

page = open_page("Variants")
folder, report = page.folder, page.report
deltas = report.variant_deltas
if deltas.is_empty():
    st.info("This experiment has only the baseline. Add a `[variants.NAME]` table (or a `[sweep]`) to the "
            "experiment file and run it again, e.g. `cardlab run experiments/divvy_baseline.toml --overwrite`.")
    st.stop()
left, middle = st.columns(2)
variant = variant_picker(report, container=left, options=deltas["variant"].unique(maintain_order=True).to_list())
n_players = players_picker(player_counts(deltas.filter(pl.col("variant") == variant)), container=middle,
                           cooperative=report.cooperative)
label = report.labels.get(variant, variant)
finding = shown_finding(report, variant, n_players)
at_count = deltas.filter((pl.col("variant") == variant) & (pl.col("n_players") == n_players))

st.subheader(f"What {label} changes")
change = variant_change(report.spec, variant)
show_change(change, before="baseline", after=label)
own = own_metric_rows(at_count, change.cards if change is not None else [])
if own.height:
    st.markdown("**Its cards' own numbers** (every agent that held them), baseline → variant:")
    show_deltas(own, key="own_table", value_name=label)
elif change is not None and change.cards:
    st.caption(f"No card it touches was held in {label}'s games (a card with 0 copies is not in the game), so they "
               "have no numbers of their own there: what their change did is below.")

st.subheader("What moved most")
moved = delta_findings(at_count, report.labels)
if moved:
    st.markdown("\n".join(f"- {headline(found, report)}" for found in moved[:MOVED_MOST])
                + (f"\n- ... and {len(moved) - MOVED_MOST} more below" if len(moved) > MOVED_MOST else ""))
    rates = at_count.filter(pl.col("significant") & ~pl.col("metric").is_in(MEANS)).with_columns(
        pl.col("delta").abs().alias("size")).sort("size", descending=True).head(MOVED_MOST)
    if rates.height:
        plot = rates.with_columns(readable_deltas(rates)["what"].alias("label"))
        st.altair_chart(forest_plot(plot, percent=True, title=f"{label} − baseline: the largest significant "
                                                              f"changes of a rate, {n_players} players"),
                        width="stretch")
else:
    st.markdown("No difference is both significant after the Benjamini–Hochberg correction (q < 0.05) and large "
                "enough to matter at this player count.")
    show_null_result(change_rows(at_count, change), folder=folder, spec=report.spec, allow_queue=False,
                     key="variants_null")

st.subheader("Every difference")
focused = delta_row(finding, report) if finding is not None and finding.kind == "delta" else None
families = [name for name in FAMILIES if name in at_count["family"].unique().to_list()]
family_box, agent_box, toggle_box = st.columns(3)
family = choose("Family", families, key="family", container=family_box, format_func=FAMILIES.__getitem__)
rows = at_count.filter(pl.col("family") == family)
if family == "card":
    agent = choose("Agent (cards held by)", lineup_agents(report, variant, n_players), key="agent",
                   container=agent_box)
    rows = rows.filter(pl.col("agent") == agent)
significant_only = toggle_filter("Significant changes only", key="significant", container=toggle_box)
if significant_only:
    rows = rows.filter(pl.col("significant"))
st.caption(f"{rows['significant'].sum()} of {rows.height} differences significant after the Benjamini–Hochberg "
           "correction within this family (q < 0.05). Intervals are unadjusted 95% intervals, from intervals "
           f"clustered by game: {delta_methods(set(rows['test'].to_list()))}.")
show_deltas(rows, key="deltas_table", value_name=label,
            focus=("what", delta_words(focused)) if focused is not None else None)
for metric in rows["metric"].unique(maintain_order=True).to_list():
    part = rows.filter(pl.col("metric") == metric)
    part = part.with_columns(pl.Series("label", [delta_words(row) for row in part.iter_rows(named=True)],
                                       dtype=pl.String))
    st.altair_chart(forest_plot(part, percent=metric not in MEANS,
                                title=f"{label} − baseline: {METRIC_NAMES.get(metric, metric)}, {n_players} players"),
                    width="stretch")
