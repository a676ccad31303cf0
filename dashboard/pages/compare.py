"""Compare page: two experiments of the same game side by side (one variant and player count
of each): seat, agent, faction and party win rates and each agent's card GIH win rates, with
the difference and its 95% interval (Newcombe, from intervals clustered by game) and a forest
plot of the differences."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.compare import COMPARED, compare_rates
from dashboard.charts import forest_plot
from dashboard.common import (
    choose,
    header,
    load_overview,
    open_report,
    player_counts,
    players_picker,
    require_experiment,
    results_root,
    table,
    variant_picker,
)

VIEWS = {"agent_stats": "Agents", "seat_stats": "Seats", "faction_stats": "Factions",
         "party_size_stats": "Party", "card_stats": "Cards (GIH win rate per agent)"}

st.title("Compare experiments")
folder = require_experiment()
report = open_report(folder)
header(report)
overview = load_overview(str(results_root()))  # the sidebar's experiment is the left side
same_game = [name for name, game in overview.select("experiment", "game").iter_rows()
             if game == report.game and name != folder.name]
if not same_game:
    st.info(f"No other experiment of {report.game} under the results folder to compare `{folder.name}` with. "
            "Run another spec of the same game (or the same spec under another name) first.")
    st.stop()
other_name = choose("Compare with (same game)", same_game, key="other")
other = open_report(results_root() / str(other_name))
left, right = st.columns(2)
with left:
    st.markdown(f"**Left: {report.experiment}**")
    variant = variant_picker(report, key="variant")
with right:
    st.markdown(f"**Right: {other.experiment}**")
    other_variant = variant_picker(other, key="other_variant")
counts = sorted(set(player_counts(report.agent_stats)) & set(player_counts(other.agent_stats)))
if not counts:
    st.info("The two experiments share no player count.")
    st.stop()
n_players = players_picker(counts, cooperative=report.cooperative)
views = [name for name in VIEWS if not report.metrics[name].is_empty() and not other.metrics[name].is_empty()
         and not (name == "seat_stats" and report.cooperative)]
view = choose("What", views, key="what", format_func=VIEWS.__getitem__)
keys, rate, sample = COMPARED[view]


def rows_of(frame: pl.DataFrame, name: str) -> pl.DataFrame:
    """One variant and player count of a metric table."""
    return frame.filter((pl.col("variant") == name) & (pl.col("n_players") == n_players))


compared = compare_rates(rows_of(report.metrics[view], variant), rows_of(other.metrics[view], other_variant),
                         keys, rate, sample)
st.caption(f"Left: {report.experiment} · {report.labels.get(variant, variant)}; right: {other.experiment} · "
           f"{other.labels.get(other_variant, other_variant)}; {n_players} players. Difference = right − left; 95% "
           "intervals (Newcombe) from each side's interval, the experiments being independent samples.")
if compared.is_empty():
    st.info("Nothing in common to compare (no shared agent, faction or card).")
    st.stop()
labels = compared.select(pl.concat_str([pl.col(key).cast(pl.String) for key in keys], separator=" · ")
                         .alias("label")) if keys else pl.DataFrame({"label": ["party"]})
plot = compared.with_columns(labels["label"], (pl.col("p_value") < 0.05).alias("significant"),
                             pl.col("p_value").alias("q_value"), pl.col("right_n").alias("n"))
st.altair_chart(forest_plot(plot, percent=True, title=f"{other.experiment} − {report.experiment}: {VIEWS[view]}, "
                            f"{n_players} players", x_title="Difference, right − left (95% interval)",
                            significance="Significant (p < 0.05, not corrected)", q_title="p"), width="stretch")
st.caption("Red: p < 0.05 (two-proportion z-test at the effective sample sizes; not corrected for multiple tests).")
table(compared, names={"left_rate": f"{report.experiment}", "right_rate": f"{other.experiment}",
                       "left_low": "left 95% low", "left_high": "left 95% high", "right_low": "right 95% low",
                       "right_high": "right 95% high", "left_n": "left n", "right_n": "right n"},
      percent=("left_rate", "right_rate", "left_low", "left_high", "right_low", "right_high"),
      points=("delta", "delta_low", "delta_high"), key="compare_table")
