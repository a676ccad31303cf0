"""What-if page: a what-if (an experiment with the variant ``whatif``, played on the baseline's
seeds) against its baseline. What changed, the significant changes in words, every metric's
difference with its 95% interval and Benjamini–Hochberg q-value, and the cards and factions
that moved most. The numbers are the report's variant deltas (``analytics``), the same as on
the Variants page and in ``cardlab report``; this page only chooses and orders them."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.findings import DELTA_POINTS, DELTA_SHARE, FAMILY_ORDER, delta_findings, delta_methods, delta_subject
from dashboard.charts import forest_plot
from dashboard.common import header, open_report, player_counts, players_picker, require_experiment, table
from experiments.whatif import WHATIF_VARIANT

# (No docstrings under these: Streamlit would draw them.) Rows in each "moved most" chart, and
# the metric each ranks by: win rates of factions, GIH win rates of cards.
MOVED_MOST = 10
RATE_METRICS = ("win_rate", "gih_win_rate")

st.title("What-if result")
folder = require_experiment()
report = open_report(folder)
header(report)
deltas = report.variant_deltas
if WHATIF_VARIANT not in report.variants["variant"].to_list():
    st.info(f"`{report.experiment}` is not a what-if (it has no variant `{WHATIF_VARIANT}`). Launch one from the "
            "New run page, or open the Variants page for this experiment's variants.")
    st.stop()
overrides = report.variants.filter(pl.col("variant") == WHATIF_VARIANT)["overrides"][0]
paired = bool(report.spec.get("paired_seeds"))
st.markdown(f"**What if** `{overrides}`? Against the baseline (the game's defaults)"
            + (", on the same seeds: game by game" if paired else "") + ".")
rows = deltas.filter(pl.col("variant") == WHATIF_VARIANT) if not deltas.is_empty() else deltas
if rows.is_empty():
    st.info("No difference to show yet: the what-if has no finished games in both variants.")
    st.stop()
n_players = players_picker(player_counts(rows), cooperative=report.cooperative)
rows = rows.filter(pl.col("n_players") == n_players)
significant = [finding.text for finding in delta_findings(rows, report.labels)]
rows = rows.with_columns(
    pl.Series("what", [delta_subject(row) for row in rows.iter_rows(named=True)], dtype=pl.String),
    pl.col("family").replace_strict(FAMILY_ORDER, default=9).alias("family_order"),
    pl.col("delta").abs().alias("size"),
).sort("family_order", "size", descending=[False, True], nulls_last=True)

st.subheader("The answer")
if significant:
    st.markdown("\n".join(f"- {text}" for text in significant))
else:
    st.markdown(f"No difference is both significant after the Benjamini–Hochberg correction (q < 0.05) and "
                f"large enough to matter ({100 * DELTA_POINTS:g} point for a rate, {100 * DELTA_SHARE:g}% of the "
                f"baseline for a mean) at {n_players} players, in {rows.height} compared metrics: every change is "
                "in the charts and the table below.")
st.caption("Differences = what-if − baseline, with unadjusted 95% intervals from intervals clustered by game "
           f"({delta_methods(set(rows['test'].to_list()))}) and q-values corrected within each family.")

st.subheader("Moved most")
left, right = st.columns(2)
families = set(rows["family"].to_list())
# A game without factions (Divvy) shows its agents' win rates instead.
players = ("faction", "Factions (win rate)") if "faction" in families else ("agent", "Agents (win rate)")
for container, family, title in ((left, *players), (right, "card", "Cards (GIH win rate)")):
    moved = rows.filter((pl.col("family") == family) & pl.col("metric").is_in(RATE_METRICS)).head(MOVED_MOST)
    with container:
        if moved.is_empty():
            st.caption(f"{title}: none in this game.")
            continue
        plot = moved.with_columns(pl.col("what").alias("label"))
        st.altair_chart(forest_plot(plot, percent=True, title=f"{title}: what-if − baseline, {n_players} players"),
                        width="stretch")

st.subheader("Every metric")
listing = rows.select("what", "family", "baseline_value", "value", "delta", "delta_low", "delta_high", "q_value",
                      "significant", "test")
values = ("baseline_value", "value", "delta", "delta_low", "delta_high")
table(listing, plain=values, names={"value": "what-if", "what": "what"}, key="whatif_table")
st.caption("Rates are shares (0.05 = 5 points); turns and decisions are means per game.")
