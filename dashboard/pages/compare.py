"""Compare page: two experiments of the same game side by side (one variant and player count of
each). It opens on what differs between the two (the parameters, the cards they touch with
their faces on each side, and the experiments' own settings), then the changed cards' own
win rates in hand; then seat, agent, faction and party win rates or each agent's card GIH win
rates, with the difference and its 95% interval (Newcombe, from intervals clustered by game),
a two-proportion test and its Benjamini–Hochberg q-value over the rows compared, as a forest
plot and a table; when nothing differs significantly, the smallest difference these games
could have detected."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.changes import experiment_change
from analytics.compare import COMPARED, compare_rates
from dashboard.changes import show_change, show_null_result
from dashboard.charts import forest_plot
from dashboard.common import (
    choose,
    load_overview,
    open_page,
    open_report,
    player_counts,
    players_picker,
    results_root,
    table,
    variant_picker,
)
from simcore.describe import card_name

VIEWS = {"agent_stats": "Agents", "seat_stats": "Seats", "faction_stats": "Factions",
         "party_size_stats": "Party", "card_stats": "Cards (GIH win rate per agent)"}
FAMILIES = {"agent_stats": "agent", "seat_stats": "seat", "faction_stats": "faction", "party_size_stats": "game",
            "card_stats": "card"}

page = open_page("Compare experiments")
folder, report = page.folder, page.report
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
left_label = f"{report.experiment} · {report.labels.get(variant, variant)}"
right_label = f"{other.experiment} · {other.labels.get(other_variant, other_variant)}"


def rows_of(frame: pl.DataFrame, name: str) -> pl.DataFrame:
    """One variant and player count of a metric table."""
    return frame.filter((pl.col("variant") == name) & (pl.col("n_players") == n_players))


def compared_rows(view: str, keep: pl.Expr | None = None) -> pl.DataFrame:
    """``compare_rates`` of one metric view, right − left (only the rows ``keep`` allows)."""
    keys, rate, sample = COMPARED[view]
    mine, theirs = rows_of(report.metrics[view], variant), rows_of(other.metrics[view], other_variant)
    if keep is not None:
        mine, theirs = mine.filter(keep), theirs.filter(keep)
    return compare_rates(mine, theirs, keys, rate, sample)


def as_deltas(compared: pl.DataFrame, view: str) -> pl.DataFrame:
    """Compared rows in the shape of ``variant_deltas`` (left as the baseline), for the null result."""
    keys, rate, _ = COMPARED[view]
    # A row's key is what it is about besides its agent (a card, a seat): the agent itself for
    # the agents' table, nothing for the party.
    named = [name for name in keys if name != "agent"] or list(keys)
    key = pl.concat_str([pl.col(name).cast(pl.String) for name in named], separator=" · ") if named \
        else pl.lit("party")
    return compared.select(
        pl.lit(FAMILIES[view]).alias("family"), (pl.col("agent") if "agent" in keys else pl.lit(None)).alias("agent"),
        key.alias("key"), pl.lit("team_win_rate" if view == "party_size_stats" else rate).alias("metric"),
        pl.col("left_rate").alias("baseline_value"), pl.col("right_rate").alias("value"), "delta", "delta_low",
        "delta_high", "q_value", "significant", pl.lit("z").alias("test"), pl.col("left_n").alias("baseline_n"),
        pl.col("right_n").alias("n"))


st.subheader("What differs")
change = experiment_change(report.spec, variant, other.spec, other_variant)
show_change(change, before=left_label, after=right_label)
touched = change.cards if change is not None else []
if touched and not report.card_stats.is_empty() and not other.card_stats.is_empty():
    own = compared_rows("card_stats", pl.col("card").is_in(touched))
    if own.height:
        st.markdown("**The changed cards' own win rates in hand**, right − left:")
        table(own.with_columns(pl.col("card").map_elements(card_name, return_dtype=pl.String).alias("name")),
              names={"left_rate": "left", "right_rate": "right", "left_n": "left n", "right_n": "right n"},
              percent=("left_rate", "right_rate", "left_low", "left_high", "right_low", "right_high"),
              points=("delta", "delta_low", "delta_high"), lead=("name", "agent"), key="compare_own_table")

st.subheader("Side by side")
views = [name for name in VIEWS if not report.metrics[name].is_empty() and not other.metrics[name].is_empty()
         and not (name == "seat_stats" and report.cooperative)]
view = choose("What", views, key="what", format_func=VIEWS.__getitem__)
keys = COMPARED[view][0]
compared = compared_rows(view)
st.caption(f"Left: {left_label}; right: {right_label}; {n_players} players. Difference = right − left; 95% "
           "intervals (Newcombe) from each side's interval, the experiments being independent samples; q: "
           "Benjamini–Hochberg over these rows.")
if compared.is_empty():
    st.info("Nothing in common to compare (no shared agent, faction or card).")
    st.stop()
labels = compared.select(pl.concat_str([pl.col(key).cast(pl.String) for key in keys], separator=" · ")
                         .alias("label")) if keys else pl.DataFrame({"label": ["party"]})
plot = compared.with_columns(labels["label"], pl.col("right_n").alias("n"))
st.altair_chart(forest_plot(plot, percent=True, title=f"{other.experiment} − {report.experiment}: {VIEWS[view]}, "
                            f"{n_players} players", x_title="Difference, right − left (95% interval)"),
                width="stretch")
st.caption(f"Red: q < 0.05 (two-proportion z-test at the effective sample sizes, Benjamini–Hochberg over the "
           f"{compared.height} rows compared).")
shown = compared.with_columns(pl.col("card").map_elements(card_name, return_dtype=pl.String).alias("name")) \
    if "card" in compared.columns else compared
table(shown, names={"left_rate": f"{report.experiment}", "right_rate": f"{other.experiment}",
                    "left_low": "left 95% low", "left_high": "left 95% high", "right_low": "right 95% low",
                    "right_high": "right 95% high", "left_n": "left n", "right_n": "right n"},
      percent=("left_rate", "right_rate", "left_low", "left_high", "right_low", "right_high"),
      points=("delta", "delta_low", "delta_high"), lead=("name", "agent") if "card" in compared.columns else (),
      key="compare_table")
if not compared["significant"].any():
    st.markdown("No row differs significantly (q < 0.05).")
    show_null_result(as_deltas(compared, view), folder=results_root() / str(other_name), spec=other.spec,
                     allow_queue=False, key="compare_null")
