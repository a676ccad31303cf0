"""What-if page: a what-if (an experiment with the variant ``whatif``, played on the baseline's
seeds) against its baseline. It leads with the change: the cards it touched, each with its
face before and after and its own numbers (play rate, win rate in hand, win rate when played,
for every agent), or the rules it changed. Then the answer: the significant changes in words,
or, when there is none, the smallest change these games could have detected and the games a
smaller one needs (and, on a dashboard that launches runs, a button that queues them); then
the factions (or agents) and cards that moved most, and every metric's difference with its
95% interval and Benjamini–Hochberg q-value, rates in % and their differences in points. The
numbers are the report's variant deltas (``analytics``), as on the Variants page and in
``cardlab report``; this page only chooses and orders them."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.changes import variant_change
from analytics.findings import FAMILY_ORDER, delta_findings, delta_methods
from analytics.text_tables import percent, points
from dashboard.changes import (
    change_rows,
    own_metric_rows,
    parameter_lines,
    readable_deltas,
    show_change,
    show_deltas,
    show_null_result,
)
from dashboard.charts import forest_plot
from dashboard.common import open_page, player_counts, players_picker
from dashboard.evidence import delta_words, headline
from experiments.whatif import WHATIF_VARIANT

# (No docstrings under these: Streamlit would draw them.) Rows in each "moved most" chart, and
# the metric each ranks by: win rates of factions, GIH win rates of cards; tiles of the changed
# cards' own numbers.
MOVED_MOST = 10
RATE_METRICS = ("win_rate", "gih_win_rate")
TILES = 6

page = open_page("What-if result")
folder, report = page.folder, page.report
deltas = report.variant_deltas
if WHATIF_VARIANT not in report.variants["variant"].to_list():
    st.info(f"`{report.experiment}` is not a what-if (it has no variant `{WHATIF_VARIANT}`). Launch one from the "
            "New run page, or open the Variants page for this experiment's variants.")
    st.stop()
change = variant_change(report.spec, WHATIF_VARIANT)
overrides = (parameter_lines(change.parameters) if change is not None and change.parameters else
             report.variants.filter(pl.col("variant") == WHATIF_VARIANT)["overrides"][0])
paired = bool(report.spec.get("paired_seeds"))
st.markdown(f"**What if** `{overrides}`? Against the baseline (the game's defaults)"
            + (", on the same seeds: game by game" if paired else "") + ".")
rows = deltas.filter(pl.col("variant") == WHATIF_VARIANT) if not deltas.is_empty() else deltas
if rows.is_empty():
    show_change(change, before="baseline", after="what-if")
    st.info("No difference to show yet: the what-if has no finished games in both variants.")
    st.stop()
n_players = players_picker(player_counts(rows), cooperative=report.cooperative)
rows = rows.filter(pl.col("n_players") == n_players)

st.subheader("What changed")
show_change(change, before="baseline", after="what-if")
own = own_metric_rows(rows, change.cards if change is not None else [])
if own.height:
    st.markdown("**The changed card" + ("s'" if len(change.cards if change else []) > 1 else "'s")
                + " own numbers**, baseline → what-if:")
    for start in range(0, min(own.height, TILES), 3):
        for tile, row in zip(st.columns(3), own.slice(start, 3).iter_rows(named=True), strict=False):
            tile.metric(delta_words(row), percent(row["value"]), f"{points(row['delta'])} points",
                        help=f"Baseline {percent(row['baseline_value'])}; 95% interval of the difference "
                             f"{points(row['delta_low'])} to {points(row['delta_high'])} points; "
                             f"q = {row['q_value']:.2g}" if row["q_value"] is not None else None,
                        border=True)
    show_deltas(own, key="whatif_own_table", value_name="what-if")
elif change is not None and change.cards:
    st.caption("No card it touches was held in the what-if's games (a card with 0 copies is not in the game): "
               "what its change did is below.")

st.subheader("The answer")
found = delta_findings(rows, report.labels)
if found:
    st.markdown("\n".join(f"- {headline(finding, report)}" for finding in found))
else:
    st.markdown("No difference is both significant after the Benjamini–Hochberg correction (q < 0.05) and "
                f"large enough to matter at {n_players} players, in {rows.height} compared metrics.")
    show_null_result(change_rows(rows, change), folder=folder, spec=report.spec, allow_queue=True,
                     key="whatif_null")
st.caption("Differences = what-if − baseline, with unadjusted 95% intervals from intervals clustered by game "
           f"({delta_methods(set(rows['test'].to_list()))}) and q-values corrected within each family.")

ordered = rows.with_columns(
    pl.col("family").replace_strict(FAMILY_ORDER, default=9).alias("family_order"),
    pl.col("delta").abs().alias("size"),
).sort("family_order", "size", descending=[False, True], nulls_last=True)
st.subheader("Moved most")
left, right = st.columns(2)
families = set(ordered["family"].to_list())
# A game without factions (Divvy) shows its agents' win rates instead.
players = ("faction", "Factions (win rate)") if "faction" in families else ("agent", "Agents (win rate)")
for container, family, title in ((left, *players), (right, "card", "Cards (GIH win rate)")):
    moved = ordered.filter((pl.col("family") == family) & pl.col("metric").is_in(RATE_METRICS)).head(MOVED_MOST)
    with container:
        if moved.is_empty():
            st.caption(f"{title}: none in this game.")
            continue
        plot = moved.with_columns(readable_deltas(moved)["what"].alias("label"))
        st.altair_chart(forest_plot(plot, percent=True, title=f"{title}: what-if − baseline, {n_players} players"),
                        width="stretch")

st.subheader("Every metric")
st.caption("Rates in %, their differences in percentage points; turns and decisions are means per game.")
show_deltas(ordered, key="whatif_table", value_name="what-if")
