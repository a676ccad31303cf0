"""Cards page: the 17lands-style card table with filters and sorting, play rate against
improvement when drawn with outliers labelled, shrunk and raw win rates side by side."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.charts import card_scatter
from dashboard.common import header, open_report, pick, player_counts, require_experiment, variants_of

PERCENT = ("gih_win_rate", "gih_win_rate_low", "gih_win_rate_high", "shrunk_win_rate", "gns_win_rate", "iwd",
           "oh_win_rate", "gd_win_rate", "played_win_rate", "played_win_rate_low", "played_win_rate_high",
           "play_rate", "card_mean")
COLUMNS = {name: st.column_config.NumberColumn(name.replace("_", " "), format="percent") for name in PERCENT}
COLUMNS["shrunk_win_rate"] = st.column_config.NumberColumn(
    "shrunk win rate", format="percent", help="Empirical-Bayes GIH win rate: small samples pulled to the mean")
COLUMNS["gih_win_rate"] = st.column_config.NumberColumn(
    "raw GIH win rate", format="percent", help="Win rate of the seat-games with the card in hand")
FIRST = ["card", "games_in_hand", "gih_win_rate", "shrunk_win_rate", "gih_win_rate_low", "gih_win_rate_high",
         "iwd", "play_rate", "z_score", "outlier"]
SORTS = {"shrunk win rate": "shrunk_win_rate", "raw GIH win rate": "gih_win_rate", "improvement when drawn": "iwd",
         "play rate": "play_rate", "games in hand": "games_in_hand", "|z-score|": "abs_z", "card": "card"}

st.title("Cards")
folder = require_experiment()
report = open_report(folder)
header(report)
stats = report.card_stats
if stats.is_empty():
    st.info("No card rows in this experiment: its game records no cards.")
    st.stop()
left, middle, right = st.columns(3)
variant = pick("Variant", variants_of(report), container=left)
n_players = pick("Players", player_counts(stats), container=middle)
sort_label = right.selectbox("Sort by", list(SORTS), index=0)
search_box, games_box, outlier_box = st.columns(3)
search = search_box.text_input("Card name contains", "")
min_games = games_box.number_input("At least this many games in hand", min_value=0, value=0, step=10)
outliers_only = outlier_box.toggle("Outliers only (|z| ≥ 3)", value=False)

cards = stats.filter((pl.col("variant") == variant) & (pl.col("n_players") == n_players)
                     & (pl.col("games_in_hand") >= min_games))
if search:
    cards = cards.filter(pl.col("card").str.contains(search, literal=True))
if outliers_only:
    cards = cards.filter(pl.col("outlier"))
key = SORTS[sort_label]
order = pl.col("z_score").abs() if key == "abs_z" else pl.col(key)
cards = cards.sort(order, descending=key != "card", nulls_last=True, maintain_order=True)

st.altair_chart(card_scatter(cards, title=f"Play rate against improvement when drawn, {variant}, {n_players} players"),
                width="stretch")
st.caption(f"{cards.height} cards. Counts are of seat-games. Raw and shrunk GIH win rates sit side by side; "
           "click a header to sort.")
table = cards.select(FIRST + [name for name in cards.columns if name not in FIRST and name not in
                               ("experiment", "variant", "n_players")])
st.dataframe(table, hide_index=True, column_config=COLUMNS)
