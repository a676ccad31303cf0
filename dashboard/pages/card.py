"""Card detail page: one card, by its name and what its face says (the game's own card data in
the chosen variant), its numbers for one variant, player count and agent (win rate in hand
with its interval, improvement when drawn, play rates, shrunk win rate, sample, flags), the
same across every variant, player count and agent, and its win rate by the turn it was first
played. The Cards page opens it on the card a row names; a finding on a card opens it too."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.text_tables import count, percent, points
from dashboard.charts import interval_chart, trend_chart
from dashboard.common import choose, lineup_filter, load, load_faces, open_page, table, toggle_filter
from dashboard.evidence import shown_finding
from simcore.describe import card_name

DETAIL = ["where", "agent", "gih_win_rate", "gih_win_rate_low", "gih_win_rate_high", "iwd", "play_rate",
          "playable_play_rate", "shrunk_win_rate", "games_in_hand", "played_win_rate", "mean_turn_played",
          "outlier", "surely_outside", "never_played"]
MORE = ["games_played", "card_mean", "z_score", "games_not_seen", "gns_win_rate", "games_playable"]

page = open_page("Card detail")
folder, report = page.folder, page.report
stats = report.card_stats
if stats.is_empty():
    st.info("No card rows in this experiment: its game records no cards.")
    st.stop()
keys = sorted(str(card) for card in stats["card"].unique())
card = str(choose("Card", keys, key="card", format_func=lambda key: f"{card_name(key)} ({key})"))
lineup = lineup_filter(report, stats.filter(pl.col("card") == card))
variant, n_players, agent = lineup.variant, lineup.n_players, lineup.agent
shown_finding(report, variant, n_players)
playable = int(stats["games_playable"].sum()) > 0
label = report.labels.get(variant, variant)

faces = load_faces(folder, variant)
face = faces.filter(pl.col("card") == card)
name = str(face["name"][0]) if face.height else card_name(card)
st.header(name, anchor=False)
if face.height:
    copies = face["copies"][0]
    st.markdown(f"**{face['kind'][0]}**" + (f" · {copies} cop{'y' if copies == 1 else 'ies'}" if copies is not None
                                            else "") + (f"  \n{face['text'][0]}" if face["text"][0] else ""))
    baseline = load_faces(folder, "baseline").filter(pl.col("card") == card)
    if variant != "baseline" and baseline.height and baseline.row(0) != face.row(0):
        st.caption(f"In {label}; the baseline's card: {baseline['kind'][0]} · {baseline['copies'][0]} copies"
                   + (f" · {baseline['text'][0]}" if baseline["text"][0] else ""))

here = stats.filter((pl.col("card") == card) & (pl.col("variant") == variant) & (pl.col("n_players") == n_players)
                    & (pl.col("agent") == agent))
if here.is_empty():
    st.info(f"{agent} never held {name} in {label} at {n_players} players.")
else:
    row = here.row(0, named=True)
    st.caption(f"Held by {agent} in {label}, {n_players} {'heroes' if report.cooperative else 'players'}; rates are "
               "per seat-game, intervals clustered by game. A card held by the winner did not necessarily make it "
               "win: a correlation.")
    top, bottom = st.columns(3), st.columns(3)
    top[0].metric("Win rate in hand (GIH)", percent(row["gih_win_rate"]),
                  help=f"95% interval {percent(row['gih_win_rate_low'])} to {percent(row['gih_win_rate_high'])}; "
                       f"{agent}'s card mean {percent(row['card_mean'])}", border=True)
    top[1].metric("Improvement when drawn (points)", points(row["iwd"]),
                  help="GIH win rate minus the win rate of the seat-games without it", border=True)
    rate, rate_title = (("playable_play_rate", "Play rate when playable") if playable and
                        row.get("playable_play_rate") is not None else ("play_rate", "Play rate"))
    top[2].metric(rate_title, percent(row[rate]), border=True)
    bottom[0].metric("Shrunk win rate", percent(row["shrunk_win_rate"]),
                     help="The GIH win rate pulled towards the agent's card mean by as much as the cards' spread "
                          "says", border=True)
    bottom[1].metric("Seat-games in hand", count(row["games_in_hand"]), border=True)
    bottom[2].metric("Win rate when played", percent(row["played_win_rate"]),
                     help=f"Over {count(row['games_played'])} seat-games in which it was played", border=True)
    flags = [text for flag, text in (("outlier", "an outlier"), ("surely_outside", "surely outside its band"),
                                     ("never_played", "never played by this agent")) if row[flag]]
    if flags:
        st.warning(f"{name} is {', '.join(flags)}.")

st.subheader(f"{name} in every variant, player count and agent")
rows = stats.filter(pl.col("card") == card).with_columns(
    pl.format("{}, {}p", pl.col("variant").replace_strict(report.labels, default=pl.col("variant")),
              pl.col("n_players")).alias("where"))
st.altair_chart(interval_chart(
    rows, "where", "gih_win_rate", "gih_win_rate_low", "gih_win_rate_high", color="agent", color_title="Agent",
    horizontal=True, title=f"{name}: win rate in hand (GIH), 95% interval clustered by game",
    key_title="Variant, players", rate_title="GIH win rate", sample="games_in_hand"), width="stretch")
every_column = toggle_filter("Every column", key="columns")
columns = [column for column in DETAIL + (MORE if every_column else [])
           if column in rows.columns and (playable or "playable" not in column)]
table(rows.select(columns), names={"where": "variant, players"}, lead=("where", "agent"), key="card_detail_table")

st.subheader(f"{name} by the turn it was first played")
turns = load(folder, "card_turns", card)
trend = turns.filter((pl.col("variant") == variant) & (pl.col("n_players") == n_players))
if trend.is_empty():
    st.info(f"{name} was never played in {label} at {n_players} players.")
else:
    st.altair_chart(trend_chart(
        trend, x="first_played_turn", rate="played_win_rate", series="agent", series_title="Agent",
        sample="games_played", x_title="Turn first played", rate_title="Win rate when played",
        title=f"{name}: win rate by the turn first played, {label}, {n_players} players (95% band)"),
        width="stretch")
    table(trend.filter(pl.col("agent") == agent), key="card_trend_table")
