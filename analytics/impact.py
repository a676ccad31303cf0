"""Card impact, read: the early stop of an impact run, its sizing (``cardlab plan
--impact-width``), and the report's impact section (the reasons the correlational rate and the
causal impact disagree are ``analytics.disagreement``'s).

The views themselves (``card_impact``, ``card_removal``...) and what their columns mean are
in ``analytics.views.impact``; the methods are in the documentation's methods page ("Card
impact").
"""

from __future__ import annotations

import math
from typing import Any

import duckdb
import polars as pl

from analytics import text_tables as fmt
from analytics.disagreement import why_they_disagree
from analytics.findings import delta_subject
from analytics.stats import Z95
from analytics.text_tables import TextTable
from analytics.views.impact import RANK_GAP

WIN_RATES = ("win_rate", "team_win_rate")
"""The ``card_removal`` metrics that are win rates (seat, agent, faction, a cooperative party)."""


def finished_arms(con: duckdb.DuckDBPyConnection, max_width: float, min_games: int) -> set[str]:
    """The arm variants measured well enough to stop playing them. A ``stand_in`` arm: every
    row of ``card_impact`` of the variant (each player count and holder agent) has
    ``min_games`` games with the card held and an interval at most ``max_width`` wide. A
    ``one_fewer`` arm (no holder-level impact): ``min_games`` games of the arm at each
    player count, and every win-rate change of ``card_removal`` (seat, agent, faction,
    party) at most ``max_width`` wide."""
    rows = con.execute("""
        SELECT variant FROM card_impact GROUP BY variant
        HAVING bool_and(games >= $games AND impact_high - impact_low <= $width)
        UNION ALL
        SELECT r.variant FROM card_removal AS r JOIN game_stats AS g USING (experiment, variant, n_players)
        WHERE r.metric IN (SELECT unnest($rates)) GROUP BY r.variant
        HAVING bool_and(g.games >= $games AND r.delta_high - r.delta_low <= $width)
    """, {"games": min_games, "width": max_width, "rates": list(WIN_RATES)}).fetchall()
    return {variant for (variant,) in rows}


# ---------------------------------------------------------------- sizing (cardlab plan --impact-width)


def games_for_impact_width(width: float, changed: float, held: float = 1.0) -> tuple[int, int]:
    """(games with the in-place swap, games compared unpaired) for a 95% impact interval at most
    ``width`` wide, where the swap changes the holder's result in a share ``changed`` of the
    holder seat-games and a game holds ``held`` holder seat-games on average.

    Paired, a holder seat-game's difference is -1, 0 or 1, of variance at most ``changed``:
    ``width = 2·z·sqrt(changed / N)``. Unpaired, the two win rates' variances add up, at most
    ``2 · 0.25``. Games = holder seat-games / ``held``."""
    if not 0 < width < 2:
        raise ValueError(f"width must be above 0 and below 2, got {width!r}")
    if not 0 < changed <= 1:
        raise ValueError(f"changed must be above 0 and at most 1, got {changed!r}")
    if held <= 0:
        raise ValueError(f"held must be above 0, got {held!r}")

    def games(variance: float) -> int:
        return max(1, math.ceil(4 * Z95 * Z95 * variance / (width * width) / held))

    return games(changed), games(0.5)


def pilot_plan(con: duckdb.DuckDBPyConnection, width: float) -> pl.DataFrame:
    """From a pilot impact run's ``card_impact``, the games each card's stand-in arm needs for a
    95% interval at most ``width`` wide: widths shrink as one over the root of the games, so
    ``games · (width now / width)²``; one row per player count: the median and the largest
    over the cards (cards whose interval has no width, no game changed, left out)."""
    return con.sql(f"""
        WITH needed AS (
            SELECT n_players, card, games, impact_high - impact_low AS width_now,
                   ceil(games * ((impact_high - impact_low) / {float(width)!r}) ** 2)::BIGINT AS games_needed,
                   games::DOUBLE / (SELECT count(*) FROM games AS g WHERE g.variant = 'baseline'
                                    AND g.experiment = card_impact.experiment
                                    AND g.n_players = card_impact.n_players) AS held_share
            FROM card_impact WHERE impact_high > impact_low
        )
        SELECT n_players, count(*) AS cards, median(width_now) AS median_width_now,
               ceil(median(games_needed / held_share))::BIGINT AS median_games_per_card,
               ceil(max(games_needed / held_share))::BIGINT AS most_games_per_card,
               arg_max(card, games_needed / held_share) AS hardest_card
        FROM needed GROUP BY n_players ORDER BY n_players
    """).pl()


# ---------------------------------------------------------------- the report's section


STAND_IN_NOTE = (
    "impact: the holders' win rate with the card minus the same seats' win rate on the same deals with the card "
    "replaced in place by its game's neutral stand-in (points; positive: the card helps its holder; causal: the two "
    "games differ only by the card); 95%: clustered by game; q: Benjamini-Hochberg over every card; sig: q < 0.05; "
    "x narrower: the unpaired interval of the same games / this one; turns: mean change of game length with the "
    "stand-in; decided: share of the games whose winner changed.")
REMOVAL_NOTE = (
    "one copy fewer, on deals of its own, against the baseline: what the removal changes for everyone. There is no "
    "holder-level impact here: with a shorter deck every seat is dealt other cards, so no seat of these games is "
    "the one that held the card. largest change: the seat, agent or faction win rate (a cooperative party's) "
    "that changed most surely (smallest q); 95%: Newcombe's interval, unpaired (independent games); q: "
    "Benjamini-Hochberg over every card's arm; sig: q < 0.05; turns: the change of the mean game length (Welch); "
    "ends: the end reason whose share changed most surely.")


def _removal_row(card: str, rows: list[dict[str, Any]]) -> tuple[tuple[float, float], list[str]]:
    """One card's line of the removal table and its sort key (the surest win-rate change first)."""
    rates = sorted((row for row in rows if row["metric"] in WIN_RATES),
                   key=lambda row: (row["q_value"] if row["q_value"] is not None else 2.0, -abs(row["delta"] or 0)))
    turns = next((row for row in rows if row["metric"] == "turns"), None)
    ends = sorted((row for row in rows if row["family"] == "end_reason"),
                  key=lambda row: row["q_value"] if row["q_value"] is not None else 2.0)
    top = rates[0] if rates else None
    end = ends[0] if ends and ends[0]["significant"] else None
    cells = [card, "*" if top is not None and top["significant"] else "",
             fmt.count(turns["n"] if turns is not None else None),
             delta_subject(top) if top is not None else "-",
             fmt.points(top["delta"]) if top is not None else "-",
             fmt.points_interval(top["delta_low"], top["delta_high"]) if top is not None else "-",
             fmt.p_value(top["q_value"]) if top is not None else "-",
             fmt.signed(turns["delta"]) if turns is not None else "-",
             f"[{fmt.signed(turns['delta_low'])}, {fmt.signed(turns['delta_high'])}]" if turns is not None else "-",
             f"{end['key']} {fmt.points(end['delta'])}" if end is not None else "-"]
    key = (top["q_value"] if top is not None and top["q_value"] is not None else 2.0,
           -abs(top["delta"] or 0.0) if top is not None else 0.0)
    return key, cells


def removal_tables(removal: pl.DataFrame) -> list[TextTable]:
    """The report's one-copy-fewer tables: per player count, every card's surest win-rate change,
    its change of game length and of the way games end (``card_removal``)."""
    tables: list[TextTable] = []
    if removal.is_empty():
        return tables
    for (n_players,), group in removal.group_by(["n_players"], maintain_order=True):
        by_card: dict[str, list[dict[str, Any]]] = {}
        for row in group.to_dicts():
            by_card.setdefault(str(row["card"]), []).append(row)
        lines = sorted(_removal_row(card, rows) for card, rows in by_card.items())
        tables.append(TextTable(
            title=f"One copy fewer: {n_players} players ({len(lines)} cards, the surest change first)",
            headers=["card", "sig", "games", "largest change", "points", "95%", "q", "turns", "turns 95%", "ends"],
            right=[False, False, True, False, True, True, True, True, True, False],
            rows=[cells for _, cells in lines], keys=1, notes=[REMOVAL_NOTE]))
    return tables


def impact_tables(frame: pl.DataFrame, versus: pl.DataFrame, removal: pl.DataFrame,
                  rows: int | None) -> list[TextTable]:
    """The report's ``impact`` section: per player count and agent, every card by impact with
    its paired interval, q-value, length change and winner-changed share; the cards whose
    IWD rank and impact rank disagree, with why; then what one copy fewer changes."""
    tables: list[TextTable] = []
    for (n_players, agent), group in (frame.group_by(["n_players", "agent"], maintain_order=True)
                                      if not frame.is_empty() else []):
        ordered = group.sort("impact", descending=True, nulls_last=True).to_dicts()
        shown: list[dict[str, Any] | None] = list(ordered)
        what = f"all {len(ordered)} cards"
        if rows is not None and len(ordered) > 2 * rows:
            shown = [*ordered[:rows], None, *ordered[-rows:]]
            what = f"top and bottom {rows} of {len(ordered)} cards"
        cells = []
        for row in shown:
            if row is None:
                cells.append(["...", *([""] * 8)])
                continue
            cells.append([
                str(row["card"]), "*" if row["significant"] else "", fmt.count(row["games"]),
                fmt.points(row["impact"]), fmt.points_interval(row["impact_low"], row["impact_high"]),
                fmt.small_number(row["q_value"]), fmt.number(row["pairing_gain"], 1),
                fmt.signed(row["turns_change"]), fmt.percent(row["winner_changed_share"])])
        tables.append(TextTable(
            title=f"Card impact: {n_players} players, held by {agent} ({what}, by impact)",
            headers=["card", "sig", "games", "impact", "impact 95%", "q", "x narrower", "turns", "decided"],
            right=[False, False, *([True] * 7)], rows=cells, keys=1, notes=[STAND_IN_NOTE]))
    disagreeing = versus.filter(pl.col("disagree")) if not versus.is_empty() else versus
    if not disagreeing.is_empty():
        cells = [[str(row["card"]), str(row["agent"]), str(row["iwd_rank"]), str(row["impact_rank"]),
                  fmt.points(row["iwd"]), fmt.points(row["impact"]), why_they_disagree(row)]
                 for row in disagreeing.head(rows or disagreeing.height).to_dicts()]
        tables.append(TextTable(
            title="Where the correlational rate and the causal impact disagree",
            headers=["card", "agent", "IWD rank", "impact rank", "IWD", "impact", "why the IWD is biased"],
            right=[False, False, True, True, True, True, False], rows=cells, keys=1, wrap=6,
            notes=[f"cards whose rank by IWD (baseline, correlational) and by impact differ by {RANK_GAP}+ places; "
                   "why: what biases or blurs IWD for the card: games held in were longer or its holders had more "
                   "cards in hand (every card looks better in them); its holder seats were stronger; its holders "
                   "win more even with the stand-in (who holds it, not what it does); its not-seen games are ones "
                   "another seat held it in (a rival's card counts against IWD); the GIH rate's own 95% noise."]))
    return [*tables, *removal_tables(removal)]
