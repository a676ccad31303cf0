"""Cards page: the 17lands-style card table of one variant, player count and agent (never a
pool of different agents), optionally one faction, with filters and sorting; play rate (when
playable, if the game records it) against improvement when drawn with flagged cards
labelled; shrunk and raw win rates side by side, and what the shrinkage did."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.views import CARD_MIN_EXPECTED, NEVER_PLAYED, OUTLIER_POINTS, OUTLIER_Z
from dashboard.charts import card_scatter
from dashboard.common import (
    choose,
    header,
    lineup_filter,
    load,
    number_filter,
    open_report,
    require_experiment,
    table,
    text_filter,
    toggle_filter,
)

FIRST = ["card", "games_in_hand", "gih_win_rate", "gih_win_rate_low", "gih_win_rate_high", "shrunk_win_rate",
         "iwd", "play_rate", "playable_play_rate", "z_score", "outlier", "surely_outside", "never_played"]
SORTS = {"shrunk win rate": "shrunk_win_rate", "raw GIH win rate": "gih_win_rate", "improvement when drawn": "iwd",
         "play rate": "play_rate", "play rate when playable": "playable_play_rate",
         "seat-games in hand": "games_in_hand", "|z-score|": "abs_z", "card": "card"}
ALL_FACTIONS = "(all)"

st.title("Cards")
folder = require_experiment()
report = open_report(folder)
header(report)
stats = report.card_stats
if stats.is_empty():
    st.info("No card rows in this experiment: its game records no cards.")
    st.stop()
lineup = lineup_filter(report, stats)
variant, n_players, agent = lineup.variant, lineup.n_players, lineup.agent
factions = sorted(str(f) for f in report.faction_stats.filter(pl.col("n_players") == n_players)["faction"].unique())
playable = int(stats["games_playable"].sum()) > 0
sort_box, faction_box, games_box = st.columns(3)
sorts = [label for label, column in SORTS.items() if playable or column != "playable_play_rate"]
chosen = (pl.col("variant") == variant) & (pl.col("n_players") == n_players) & (pl.col("agent") == agent)
cards = stats.filter(chosen)
identified = bool(cards.height) and bool(cards["prior_identified"][0])
sort_label = choose("Sort by", sorts, key="sort", container=sort_box,
                    default="shrunk win rate" if identified else "raw GIH win rate")
faction = choose("Faction (of the seat holding the card)", [ALL_FACTIONS, *factions], key="faction",
                 container=faction_box) if factions else ALL_FACTIONS
min_games = number_filter("At least this many seat-games in hand", key="min_games", container=games_box)
search_box, flagged_box, never_box = st.columns(3)
search = text_filter("Card name contains", key="search", container=search_box)
flagged_only = toggle_filter("Flagged only (outliers, outside the band)", key="flagged", container=flagged_box)
hide_never = toggle_filter("Hide cards never played", key="hide_never", container=never_box)

if faction != ALL_FACTIONS:
    cards = load(folder, "card_faction_stats", faction).filter(chosen)
cards = cards.filter(pl.col("games_in_hand") >= min_games)
if search:
    cards = cards.filter(pl.col("card").str.contains(search, literal=True))
if flagged_only:
    cards = cards.filter(pl.col("outlier") | pl.col("surely_outside"))
if hide_never:
    cards = cards.filter(~pl.col("never_played"))
key = SORTS[sort_label]
order = pl.col("z_score").abs() if key == "abs_z" else pl.col(key)
cards = cards.sort(order, descending=key != "card", nulls_last=True, maintain_order=True)

where = f"{report.labels.get(variant, variant)}, {n_players} {'heroes' if report.cooperative else 'players'}, " \
        f"held by {agent}" + ("" if faction == ALL_FACTIONS else f", {faction}")
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
    st.warning(f"{never.height} card(s) {NEVER_PLAYED}: {', '.join(never['card'].to_list())}.")
x, x_title = (("playable_play_rate", "Play rate when playable (played / seat-games playable)") if playable
              else ("play_rate", "Play rate (played / seat-games in hand)"))
st.altair_chart(card_scatter(cards, x=x, x_title=x_title, title=f"{x_title.split(' (')[0]} against improvement "
                             f"when drawn, {where}"), width="stretch")
st.caption(f"{cards.height} cards. Counts are of seat-games; intervals are clustered by game. Flagged: outlier "
           f"(|z| >= {OUTLIER_Z:g} and {100 * OUTLIER_POINTS:g}+ points from the agent's card mean) or GIH interval "
           f"outside the mean +- 10 points, each only for a card held in enough games to tell (at least "
           f"{CARD_MIN_EXPECTED:g} wins and {CARD_MIN_EXPECTED:g} losses expected at the mean)."
           + ("" if playable else " This game records no playable counter, so there is no play rate when playable."))
shown = cards.select([name for name in FIRST if name in cards.columns and (playable or "playable" not in name)]
                     + [name for name in cards.columns if name not in FIRST and name not in
                        ("experiment", "variant", "n_players", "agent")
                        and (playable or "playable" not in name)])
table(shown, key="cards_table")
