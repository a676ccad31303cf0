"""Win rates page, for one agent of the lineup (its seats only; the most-played agent by
default, or every agent pooled when asked): by seat (competitive games, with the fair 1/N line
and the target band), agent and faction (against the expected rate and its band) per player
count and map, with 95% intervals clustered by game; the matchup heatmap of a competitive game (centred on the fair
rate, n in each cell); party size, composition, class effects, runs (level reached, wipes per
game) and where runs end in a cooperative one."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.powers import NEVER_USED
from analytics.text_tables import SELF_PLAY_WIN_RATE
from analytics.views import FACTION_BAND
from dashboard.charts import bar_chart, heatmap, interval_chart
from dashboard.common import ALL_AGENTS, games_columns, lineup_filter, load, open_page, table
from dashboard.evidence import shown_finding

page = open_page("Win rates")
folder, report = page.folder, page.report
coop = report.cooperative
lineup = lineup_filter(report, report.agent_stats,
                       variant_label="Variant (factions, matchups, powers, compositions, runs)",
                       agent_label="Agent (seats held by)", pooled=True,
                       agent_help="Seat, faction and matchup win rates of this agent's seats: a strong and a weak "
                                  "agent pooled read as a fair 50%.")
variant, n_players, agent = lineup.variant, lineup.n_players, lineup.agent
finding = shown_finding(report, variant, n_players)  # a seat, faction, run or power finding's evidence
found = finding.kind if finding is not None else None
held_by = "" if lineup.every_seat else f", held by {agent}"
at_count = pl.col("n_players") == n_players
at_variant = at_count & (pl.col("variant") == variant)
labels = report.labels
named = pl.col("variant").replace_strict(labels, default=pl.col("variant")).alias("variant_label")
people = "heroes" if coop else "players"

if coop:
    st.caption("Cooperative: every hero shares the party's outcome, so every rate counts games, and there is no "
               "seat table (every seat wins the same games).")
else:
    st.subheader("By seat")
    seats = (report.seat_stats if lineup.every_seat else load(folder, "agent_seat_stats", agent)).filter(
        at_count).with_columns(named)
    st.altair_chart(interval_chart(
        seats, "seat", "win_rate", "win_rate_low", "win_rate_high", color="variant_label", color_title="Variant",
        title=f"Win rate by seat{held_by}, {n_players} players (95% Wilson interval; unit: the game)",
        key_title="Seat",
        rate_title="Win rate", reference=1 / n_players, band=FACTION_BAND, reference_title="fair rate 1/N",
        sample="games"), width="stretch")
    st.caption(f"Dashed line: the fair rate 1/N = {100 / n_players:.1f}%; shaded: +- {100 * FACTION_BAND:.0f} points. "
               "Draws count as not-a-win.")
    table(seats.drop("variant_label"), key="seats_table", focus=(
        ("seat", finding.subject.removeprefix("seat ")) if finding is not None and found == "seat" else None))
    if lineup.every_seat and "self_play" in seats.columns and not seats["self_play"].all():
        st.caption("These seats pool different agents (the lineup rotates them through the seats), so a seat's rate "
                   "says which agents sat there, not what the seat is worth: pick an agent to see its own seats, or "
                   "run one agent in every seat to measure seat balance (the report's seat balance is per agent "
                   "here).")

st.subheader("By agent")
agents = report.agent_stats.filter(at_count).with_columns(named)
st.altair_chart(interval_chart(
    agents, "agent", "win_rate", "win_rate_low", "win_rate_high", color="variant_label", color_title="Variant",
    title=f"Win rate by agent, {n_players} {people} (95% interval clustered by game)", key_title="Agent",
    rate_title="Win rate", reference=None if coop else 1 / n_players, reference_title="fair rate 1/N",
    sample="games"), width="stretch")
table(agents.drop("variant_label"), key="agents_table")
if agents["self_play"].any():
    st.caption(f"Self-play: {SELF_PLAY_WIN_RATE}")
if not lineup.every_seat:
    st.caption("Every agent of the lineup: this table is the split by agent itself. The seat, faction and matchup "
               f"tables are {agent}'s seats only.")

factions = (report.faction_stats if lineup.every_seat else load(folder, "agent_faction_stats", agent)).filter(at_count)
if not factions.is_empty():
    st.subheader("By faction" + (" (hero class)" if coop else " (party)"))
    shown = factions.filter(pl.col("variant") == variant)
    expected = float(shown["expected"][0]) if shown.height else None
    st.altair_chart(interval_chart(
        shown, "faction", "win_rate", "win_rate_low", "win_rate_high", horizontal=True,
        title=f"Win rate by faction{held_by}, {labels.get(variant, variant)}, {n_players} {people} "
              "(95% interval clustered by game)",
        key_title="Faction", rate_title="Win rate", reference=expected, band=FACTION_BAND,
        reference_title="expected rate", sample="games"), width="stretch")
    st.caption("Dashed line: the expected rate (" + ("every seat's" if lineup.every_seat else f"{agent}'s")
               + f" pooled win rate at this count); shaded: +- "
               f"{100 * FACTION_BAND:.0f} points, the target band.")
    table(shown, key="factions_table",
          focus=("faction", finding.subject) if finding is not None and found == "faction" else None)
    if "map" in games_columns(folder):
        by_map = load(folder, "win_rate_by_game_column", "faction", "map",
                      None if lineup.every_seat else agent).filter(at_count)
        st.markdown("**By map**")
        st.altair_chart(interval_chart(
            by_map.filter(pl.col("variant") == variant), "key", "win_rate", "ci_low", "ci_high", color="value",
            color_title="Map", horizontal=True,
            title=f"Win rate by faction and map{held_by}, {labels.get(variant, variant)}, {n_players} players",
            key_title="Faction", rate_title="Win rate", reference=expected, band=FACTION_BAND,
            reference_title="expected rate", sample="games"), width="stretch")
        table(by_map, names={"value": "map", "key": "faction", "games": "seat-games"}, key="map_table")

if not coop and not report.matchups.is_empty():
    st.subheader("Matchups")
    pairs = (report.matchups if lineup.every_seat else load(folder, "agent_matchups", agent)).filter(at_variant)
    st.altair_chart(heatmap(pairs, "faction", "opponent", "win_rate", row_title="Faction",
                            column_title="Opponent in the game", value_title="Win rate", center=1 / n_players,
                            title=f"Faction win rate{held_by} in games with each opponent, "
                                  f"{labels.get(variant, variant)}, "
                                  f"{n_players} players (white: the fair {100 / n_players:.1f}%)"),
                    width="stretch")
    table(pairs, key="matchups_table")

powers = report.power_stats.filter(at_variant)
if not powers.is_empty():
    st.subheader("Powers (each faction's)")
    if agent != ALL_AGENTS:
        powers = powers.filter(pl.col("agent") == agent)
    never = powers.filter(pl.col("never_used"))
    if never.height:
        st.warning(f"{never.height} power(s) {NEVER_USED}: {', '.join(never['faction'].to_list())}.")
    outcomes = pl.concat([
        powers.select("agent", "faction", pl.lit(name).alias("series"), pl.col(f"{prefix}_win_rate").alias("rate"),
                      pl.col(f"{prefix}_win_rate_low").alias("low"), pl.col(f"{prefix}_win_rate_high").alias("high"),
                      pl.col(f"games_{prefix}").alias("games"))
        for prefix, name in (("used", "used at least once"), ("unused", "never used"))]).filter(pl.col("games") > 0)
    st.altair_chart(interval_chart(
        outcomes.with_columns(pl.format("{} ({})", pl.col("faction"), pl.col("agent")).alias("faction")
                              if agent == ALL_AGENTS else pl.col("faction")),
        "faction", "rate", "low", "high", color="series", color_title="The power was", horizontal=True,
        title=f"Win rate when the faction's power was used at least once or never{held_by}, "
              f"{labels.get(variant, variant)}, {n_players} {people} (95% interval clustered by game)",
        key_title="Faction", rate_title="Win rate", sample="games"), width="stretch")
    st.caption("Unit: the seat-game, intervals clustered by game (a faction sits at most once in a game of Ring of "
               "Chaos: then it is the game). Uses per game: times used per seat-game; use rate when playable: times "
               "used / steps at which using it was an option (none for a passive power, which only takes effect). "
               "Using a power goes with how a game runs: the difference is not the power's effect.")
    table(powers, plain=("uses_per_game", "uses_per_game_low", "uses_per_game_high"),
          key="powers_table")

if coop:
    st.subheader("Party size")
    sizes = report.party_size_stats.with_columns(named)
    st.altair_chart(interval_chart(
        sizes, "n_players", "win_rate", "win_rate_low", "win_rate_high", color="variant_label", color_title="Variant",
        title="Party win rate by party size (95% Wilson interval; unit: the game)", key_title="Heroes in the party",
        rate_title="Win rate", sample="games"), width="stretch")
    table(sizes.drop("variant_label"), key="sizes_table")
    runs = report.run_stats
    if not runs.is_empty():
        st.subheader("Runs: level reached and wipes")
        at_size = runs.filter(at_count).with_columns(named)
        st.altair_chart(interval_chart(
            at_size, "variant_label", "wipes_per_game", "wipes_per_game_low", "wipes_per_game_high", horizontal=True,
            percent=False, title=f"Wipes per game, {n_players} heroes (95% interval)", key_title="Variant",
            rate_title="Wipes per game", sample="games"), width="stretch")
        st.caption("When the party almost always wins (Party mode: a wiped party revives and goes on), the win rate "
                   "says little: the wipes per game and the level reached say how hard the run was.")
        table(at_size.drop("variant_label"), plain=("mean_level", "mean_level_low", "mean_level_high",
                                                    "wipes_per_game", "wipes_per_game_low", "wipes_per_game_high"),
              key="runs_table")
    st.subheader("Composition")
    table(report.composition_stats.filter(at_variant), key="compositions_table")
    st.markdown("**Marginal effect of each class**")
    table(report.class_effects.filter(at_variant), key="class_effects_table")
    st.subheader("Where runs end")
    ends = load(folder, "run_ends").filter(at_variant)
    if ends.is_empty():
        st.info("This game records no level reached / final enemy.")
    else:
        st.altair_chart(bar_chart(
            ends.with_columns(pl.col("level_reached").cast(pl.String).alias("level")), "final_enemy", "share",
            color="level", color_title="Level reached", horizontal=True, percent=True,
            title=f"Where runs end, {labels.get(variant, variant)}, {n_players} heroes (share of games)",
            x_title="Final enemy", y_title="Share of games"), width="stretch")
        table(ends, key="ends_table")
