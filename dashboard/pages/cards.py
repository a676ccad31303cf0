"""Cards page: the 17lands-style card table of one variant, player count and agent (never a
pool of different agents), optionally one faction. Each card by its name and what its face
says (the game's own card data in that variant: ``analytics.changes.faces_frame``) beside a
designer's columns (win rate in hand with its interval, improvement when drawn, play rate,
shrunk win rate, sample, flags); every other column one switch away. By default only the cards
held in enough games to tell them from the agent's mean (the report's own rule); filters,
sorting; play rate (when playable, if the game records it) against improvement when drawn,
every point named on hover and the flagged ones on the chart. A row clicked opens that card's
detail."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.sensitivity import games_to_tell
from analytics.views import CARD_MIN_EXPECTED, NEVER_PLAYED, OUTLIER_POINTS, OUTLIER_Z
from dashboard.charts import card_scatter
from dashboard.common import (
    choose,
    lineup_filter,
    load,
    load_faces,
    number_filter,
    open_page,
    table,
    text_filter,
    toggle_filter,
)
from dashboard.evidence import shown_finding

DESIGNER = ["name", "kind", "gih_win_rate", "gih_win_rate_low", "gih_win_rate_high", "iwd", "play_rate",
            "playable_play_rate", "shrunk_win_rate", "games_in_hand", "flags", "text", "copies"]
FACE_NAMES = {"name": "card", "kind": "what it is", "text": "what it does", "card": "key", "flags": "flags"}
SORTS = {"shrunk win rate": "shrunk_win_rate", "raw GIH win rate": "gih_win_rate", "improvement when drawn": "iwd",
         "play rate": "play_rate", "play rate when playable": "playable_play_rate",
         "seat-games in hand": "games_in_hand", "|z-score|": "abs_z", "card": "name"}
SHOWS = ["every card", "flagged only (outliers, outside the band)", "never played", "played at least once"]
ALL_FACTIONS = "(all)"

page = open_page("Cards")
folder, report = page.folder, page.report
stats = report.card_stats
if stats.is_empty():
    st.info("No card rows in this experiment: its game records no cards.")
    st.stop()
lineup = lineup_filter(report, stats)
variant, n_players, agent = lineup.variant, lineup.n_players, lineup.agent
shown_finding(report, variant, n_players)
factions = sorted(str(f) for f in report.faction_stats.filter(pl.col("n_players") == n_players)["faction"].unique())
playable = int(stats["games_playable"].sum()) > 0
chosen = (pl.col("variant") == variant) & (pl.col("n_players") == n_players) & (pl.col("agent") == agent)
cards = stats.filter(chosen)
identified = bool(cards.height) and bool(cards["prior_identified"][0])
mean = float(cards["card_mean"][0]) if cards.height and cards["card_mean"][0] is not None else None
enough = games_to_tell(mean, CARD_MIN_EXPECTED)
sort_box, faction_box, games_box = st.columns(3)
sorts = [label for label, column in SORTS.items() if playable or column != "playable_play_rate"]
sort_label = choose("Sort by", sorts, key="sort", container=sort_box,
                    default="shrunk win rate" if identified else "raw GIH win rate")
faction = choose("Faction (of the seat holding the card)", [ALL_FACTIONS, *factions], key="faction",
                 container=faction_box) if factions else ALL_FACTIONS
min_games = number_filter("At least this many seat-games in hand", key="min_games", container=games_box,
                          default=enough,
                          help=f"Default {enough:,}: enough games to tell a card from {agent}'s mean (at least "
                               f"{CARD_MIN_EXPECTED:g} wins and {CARD_MIN_EXPECTED:g} losses expected in hand), the "
                               "report's own rule for flagging a card. 0 shows every card.")
search_box, show_box, columns_box = st.columns(3)
search = text_filter("Card name contains", key="search", container=search_box)
show = choose("Show", SHOWS, key="show", container=show_box)
every_column = toggle_filter("Every column", key="columns", container=columns_box,
                             help="Also the counts behind each rate, the intervals of the play rates, the z-score, "
                                  "the prior of the shrunk win rate...")

if faction != ALL_FACTIONS:
    cards = load(folder, "card_faction_stats", faction).filter(chosen)
faces = load_faces(folder, variant)
cards = cards.join(faces, on="card", how="left").with_columns(
    pl.col("name").fill_null(pl.col("card")), pl.col("kind").fill_null(""), pl.col("text").fill_null(""),
    pl.concat_str([pl.when(pl.col("outlier")).then(pl.lit("outlier")),
                   pl.when(pl.col("surely_outside")).then(pl.lit("outside the band")),
                   pl.when(pl.col("never_played")).then(pl.lit("never played"))], separator=", ",
                  ignore_nulls=True).alias("flags"))
held = cards.height
cards = cards.filter(pl.col("games_in_hand") >= min_games)
if search:
    cards = cards.filter(pl.col("name").str.to_lowercase().str.contains(search.lower(), literal=True)
                         | pl.col("card").str.contains(search.lower(), literal=True))
if show == SHOWS[1]:
    cards = cards.filter(pl.col("outlier") | pl.col("surely_outside"))
elif show == SHOWS[2]:
    cards = cards.filter(pl.col("never_played"))
elif show == SHOWS[3]:
    cards = cards.filter(~pl.col("never_played"))
key = SORTS[sort_label]
order = pl.col("z_score").abs() if key == "abs_z" else pl.col(key)
cards = cards.sort(order, descending=key != "name", nulls_last=True, maintain_order=True)

where = f"{report.labels.get(variant, variant)}, {n_players} {'heroes' if report.cooperative else 'players'}, " \
        f"held by {agent}" + ("" if faction == ALL_FACTIONS else f", {faction}")
st.caption(f"{cards.height} of {held} cards" + (f" (those held in at least {min_games:,} seat-games)"
                                                 if min_games else "")
           + ". Click a row for the card's detail.")
if cards.height:
    first = cards.row(0, named=True)
    if first["prior_identified"]:
        st.caption(f"Shrunk win rate: empirical Bayes, a beta prior of mean {100 * first['card_mean']:.1f}% and "
                   f"strength {first['prior_strength']:,.0f} seat-games fitted to these cards by marginal "
                   f"likelihood (their true rates spread by about {100 * first['card_spread']:.1f} points).")
    else:
        st.info(f"These cards' GIH win rates differ no more than noise would make them: the prior cannot be "
                f"identified and every shrunk win rate is the agent's mean {100 * first['card_mean']:.1f}%. "
                "Sort by the raw GIH win rate or the improvement when drawn instead.")
never = cards.filter(pl.col("never_played"))
if never.height:
    st.warning(f"{never.height} card(s) {NEVER_PLAYED}: {', '.join(never['name'].to_list())}.")
columns = [name for name in DESIGNER if playable or "playable" not in name]
if every_column:
    columns += [name for name in cards.columns if name not in columns and name not in
                ("experiment", "variant", "n_players", "agent") and (playable or "playable" not in name)]
event = table(cards.select(columns), names=FACE_NAMES, lead=("name",), key="cards_table", on_select="rerun",
              selection_mode="single-row")
picked = event.selection.rows if event is not None else []
if picked:  # a row clicked: that card's detail, in this variant, player count and agent
    st.switch_page("pages/card.py", query_params={
        "card": str(cards["card"][picked[0]]), "variant": variant, "players": str(n_players), "agent": agent})
st.caption(f"Counts are of seat-games; intervals are clustered by game. Flagged: outlier (|z| >= {OUTLIER_Z:g} and "
           f"{100 * OUTLIER_POINTS:g}+ points from the agent's card mean) or GIH interval outside the mean +- 10 "
           f"points, each only for a card held in enough games to tell (at least {CARD_MIN_EXPECTED:g} wins and "
           f"{CARD_MIN_EXPECTED:g} losses expected at the mean)."
           + ("" if playable else " This game records no playable counter, so there is no play rate when playable."))
x, x_title = (("playable_play_rate", "Play rate when playable (played / seat-games playable)") if playable
              else ("play_rate", "Play rate (played / seat-games in hand)"))
st.altair_chart(card_scatter(cards, x=x, x_title=x_title, title=f"{x_title.split(' (')[0]} against improvement "
                             f"when drawn, {where}"), width="stretch")
