"""One experiment's results at a glance: ``cardlab report EXPERIMENT``.

``build_report`` opens the catalog (per-shard counts cached beside the
results, ``analytics.partials``, so a report over millions of games reads
kilobytes), computes every metric view once and keeps the tables with the
spec's facts and the findings in a ``Report``. Then:

- ``render_report(report, "text")``: what ``cardlab report`` prints. It opens
  with the **findings** (``analytics.findings``: what deserves a designer's
  attention, each with its interval and sample), then the sections of
  ``analytics.sections.SECTIONS`` in order: variants, seats, agents,
  factions, cooperative tables, runs, games, cards (one table per variant,
  player count and agent), variant deltas, the skill-ladder tables, the
  agents' ratings (``analytics.ratings``: Bradley–Terry on the Elo scale
  with bootstrap intervals) and, for a ``cardlab tune`` run, the search's
  targets, confirmed candidates and trade-off (``analytics.tuning``).
  Sections that do not apply are left out (seat tests in a cooperative game,
  factions in a game without them, skill movement outside a ladder...). It
  fits a 100-column terminal without clipping a column (wide tables are
  split into blocks of columns, ``analytics.text_tables``). Rates are
  percentages with one decimal, differences of rates percentage points.
- ``render_report(report, "markdown")``: the same, as pipe tables.
- ``render_report(report, "json")``: one JSON document: the facts, the
  findings and every table that applies as a list of row objects, numbers
  unrounded (rates as fractions).
- ``write_report_csv(report, folder)``: one CSV file per table
  (``findings.csv``, ``variants.csv``, ``seat_stats.csv``...) plus
  ``summary.csv``, unrounded; what ``cardlab report --format csv --output
  DIR`` writes.

Column names are those of the metric views everywhere (a rate ``x`` with
``x_low``/``x_high``; see analytics/README.md).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from analytics import text_tables as fmt
from analytics.catalog import open_catalog
from analytics.explore import games_plan, run_status
from analytics.findings import (
    SET_BY,
    Finding,
    construction_rules,
    delta_methods,
    delta_subject,
    findings,
    findings_frame,
    findings_lines,
    mark_set_by_construction,
    set_by_construction,
)
from analytics.folders import AnalyticsError, read_manifest, read_spec
from analytics.impact import impact_tables
from analytics.metrics import metric, skill_movement
from analytics.powers import NEVER_USED, power_stats
from analytics.ratings import BOOTSTRAP_REPLICATES, VIRTUAL_DRAWS, agent_ratings, rating_spans
from analytics.sections import SECTIONS
from analytics.skill import agent_cost, agent_matrix, is_skill_ladder, ladder_order, rungs_in_order, variant_rules
from analytics.stats import shows_no_spread
from analytics.text_tables import SELF_PLAY_WIN_RATE, WIDTH, TextTable, notice
from analytics.tuning import band_words, seen_words, tuning_tables, value_interval_words
from analytics.variants import variant_infos
from analytics.views import CARD_BAND, CARD_MIN_EXPECTED, FACTION_BAND, NEVER_PLAYED, OUTLIER_POINTS, OUTLIER_Z
from analytics.views.deltas import MEANS
from dataset.location import ResultsPath
from experiments.spec import BASELINE

FORMATS = ("text", "markdown", "json", "csv")
"""The formats of ``cardlab report --format`` (``csv`` writes a folder: ``write_report_csv``)."""
DOCUMENT_FORMATS = ("text", "markdown", "json")
"""The formats ``render_report`` returns as one document."""
METRIC_TABLES = (
    "seat_stats", "seat_balance", "agent_stats", "faction_stats", "faction_spread", "matchups",
    "party_size_stats", "composition_stats", "class_effects", "run_stats", "game_stats", "end_reason_stats",
    "turn_distribution", "decisiveness", "margin_distribution", "lead_stats", "seed_influence", "skill_depth",
    "card_stats", "variant_deltas",
)
"""The metric views a report holds (``analytics.views``)."""
SKILL_TABLES = ("agent_matrix", "skill_movement", "agent_cost", "agent_ratings", "rating_gaps", "rating_span")
"""The skill-ladder tables (``analytics.skill``, ``analytics.metrics.skill_movement``,
``analytics.ratings``)."""
TUNING_TABLES = ("tuning_search", "tuning_targets", "tuning_front", "tuning_candidates", "tuning_confirmation")
"""A tuning run's tables (``analytics.tuning.tuning_tables``); only in the report of a tuning run."""
SECTION_TABLES: dict[str, tuple[str, ...]] = {
    "findings": ("findings",),
    "variants": ("variants", "by_construction"),
    "seats": ("seat_stats", "seat_balance"),
    "agents": ("agent_stats",),
    "factions": ("faction_stats", "faction_spread", "matchups"),
    "coop": ("party_size_stats", "composition_stats", "class_effects"),
    "runs": ("run_stats",),
    "games": ("game_stats", "end_reason_stats", "turn_distribution"),
    "design": ("decisiveness", "margin_distribution", "lead_stats", "seed_influence", "skill_depth", "rating_span"),
    "cards": ("card_stats",),
    "impact": ("card_impact", "card_impact_vs_gih", "card_removal"),
    "powers": ("power_stats",),
    "deltas": ("variant_deltas",),
    "matrix": ("agent_matrix",),
    "skill": ("skill_movement",),
    "cost": ("agent_cost",),
    "ratings": ("agent_ratings", "rating_gaps"),
    "tuning": TUNING_TABLES,
}
"""Report section -> the tables it holds (``analytics.sections`` says what each shows)."""
TABLE_NAMES = tuple(name for section in SECTIONS for name in SECTION_TABLES[section])
"""Every table of a report, in report order."""
assert set(SECTION_TABLES) == set(SECTIONS)


class UnknownFormatError(AnalyticsError, ValueError):
    """An output format (or report section) that is not offered."""


@dataclass(frozen=True)
class Report:
    """Everything ``render_report`` shows for one experiment.

    ``variants`` has one row per variant of the spec (baseline first, sweep
    grid points included): variant, label (with a grid point's swept
    values), games (played, over all player counts) and overrides (as text).
    ``metrics`` holds the metric views (``METRIC_TABLES``) and the skill
    tables (``SKILL_TABLES``) by name, also readable as attributes
    (``report.card_stats``); ``findings`` what the report opens with;
    ``cooperative`` whether every game's seats share one outcome.
    """

    experiment: str
    game: str
    description: str
    folder: ResultsPath
    spec: dict[str, Any]
    games_played: int
    games_planned: int
    shards_finished: int
    variants: pl.DataFrame
    cooperative: bool = False
    run_status: str = "finished"
    """How the run stands (``analytics.explore.run_status``): finished, running, interrupted,
    failed or incomplete; a report of a run that failed says so in its header."""
    run_reason: str = ""
    """A failed run's one-line reason (from ``run.json``)."""
    search_status: str | None = None
    """A balance search's status (``analytics.explore.search_status``); None for other experiments."""
    metrics: dict[str, pl.DataFrame] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)

    def __getattr__(self, name: str) -> pl.DataFrame:
        # The metric views' tables (seat_balance, card_stats...) by attribute.
        metrics = self.__dict__.get("metrics", {})
        if name in metrics:
            return metrics[name]
        raise AttributeError(name)

    @property
    def labels(self) -> dict[str, str]:
        """Variant name -> label (a sweep grid point with its swept values)."""
        return dict(self.variants.select("variant", "label").iter_rows())

    def applies(self, section: str) -> bool:
        """Whether ``section`` has something to show for this experiment."""
        metrics = self.metrics
        if section == "seats":
            return not self.cooperative
        if section in ("factions", "coop", "runs", "design", "cards", "impact", "powers", "deltas", "matrix", "cost",
                       "ratings", "tuning"):
            return any(not metrics.get(name, pl.DataFrame()).is_empty() for name in SECTION_TABLES[section])
        if section == "skill":
            # Two rungs are not enough: they must seat different agents (is_skill_ladder), or the
            # section would show a baseline's map and mode variants, all one agent, as "skill".
            return is_skill_ladder(metrics.get("skill_movement", pl.DataFrame()))
        return True

    def frames(self, sections: Sequence[str] | None = None) -> dict[str, pl.DataFrame]:
        """The report's tables by name, in report order: those of ``sections`` (default: every
        section that applies)."""
        chosen = [name for name in SECTIONS if self.applies(name)] if sections is None else list(sections)
        tables: dict[str, pl.DataFrame] = {}
        for section in SECTIONS:
            if section not in chosen:
                continue
            for name in SECTION_TABLES[section]:
                if name == "findings":
                    tables[name] = findings_frame(self.findings)
                elif name == "variants":
                    tables[name] = self.variants
                elif name in self.metrics:
                    tables[name] = self.metrics[name]
        return tables


def skill_tables(con: duckdb.DuckDBPyConnection, experiment_dir: ResultsPath, spec: dict[str, Any], *,
                 ratings: bool = True) -> dict[str, pl.DataFrame]:
    """The skill-ladder tables (``SKILL_TABLES``) of the experiment whose catalog is ``con``;
    without ``ratings``, all but ``agent_ratings``, ``rating_gaps`` and ``rating_span`` (a
    bootstrap over every game). They read the games' rows, not the cached counts (seconds on a million games): the
    dashboard computes them for its Skill page only."""
    tables = {"agent_matrix": agent_matrix(con, variant_rules(spec)), "skill_movement": skill_movement(con),
              "agent_cost": agent_cost(con, experiment_dir)}
    if ratings:
        tables["agent_ratings"], tables["rating_gaps"] = agent_ratings(con, variant_rules(spec),
                                                                       ladder_order(tables["agent_cost"]))
        tables["rating_span"] = rating_spans(tables["agent_ratings"])
    return tables


def build_report(experiment_dir: ResultsPath, con: duckdb.DuckDBPyConnection | None = None, *,
                 skill: bool = True) -> Report:
    """Compute every metric of the experiment in ``experiment_dir`` (see the module docstring).

    ``con``: the experiment's open catalog to read (opened as below; the caller's, left
    open), else one opened and closed here. Without ``skill``, the report has no skill-ladder
    tables (``SKILL_TABLES``, ``skill_tables``), the only ones that read every game's rows.

    Raises ``NoResultsError`` (an ``AnalyticsError``) if no shard has finished.
    """
    spec = read_spec(experiment_dir)
    # Cached per-shard counts (analytics.partials, open_catalog's default): every
    # metric reads small count tables, never the rows; the catalog skips the pairing
    # joins when the spec says there are no paired seeds, and stores no descriptions.
    connection = con if con is not None else open_catalog(experiment_dir)
    try:
        metrics = {name: metric(connection, name) for name in METRIC_TABLES}
        metrics["power_stats"] = power_stats(connection)  # empty unless players has power_playable/power_used
        for view in SECTION_TABLES["impact"]:  # a card impact run's views (analytics.views.impact); else empty
            metrics[view] = connection.sql(f"SELECT * FROM {view}").pl() if spec.get("impact") else pl.DataFrame()
        modes = metric(connection, "experiment_modes")
        if skill:
            metrics.update(skill_tables(connection, experiment_dir, spec))
    finally:
        if con is None:
            connection.close()
    metrics.update(tuning_tables(experiment_dir))  # a tuning run's tables (cardlab tune); else none
    cooperative = bool(modes["cooperative"].all()) if modes.height else False
    games = metrics["game_stats"]
    played = games.group_by("variant").agg(pl.col("games").sum())
    infos = variant_infos(spec)
    # What each variant set by construction: context in the variants section, never a finding.
    metrics["variant_deltas"] = mark_set_by_construction(metrics["variant_deltas"], set_by_construction(
        {name: info.overrides for name, info in infos.items()}, construction_rules(str(spec.get("game", "")))))
    metrics["by_construction"] = by_construction_table(metrics["variant_deltas"])
    listed = pl.DataFrame(
        {"variant": list(infos), "label": [info.label for info in infos.values()],
         "overrides": [info.text for info in infos.values()]},
        schema={"variant": pl.String, "label": pl.String, "overrides": pl.String})
    variants = (
        listed.join(played, on="variant", how="full", coalesce=True)
        .with_columns(pl.col("games").fill_null(0), pl.col("overrides").fill_null("(not in spec.json)"),
                      pl.col("label").fill_null(pl.col("variant")))
        .sort(pl.col("variant") != "baseline", "variant")
        .select("variant", "label", "games", "overrides")
    )
    planned, search = games_plan(experiment_dir, spec)  # 0 for a balance search: no fixed number
    labels = dict(variants.select("variant", "label").iter_rows())
    games_played = int(games["games"].sum()) if games.height else 0
    status, _, reason = run_status(experiment_dir, games_played, planned, search)
    return Report(
        experiment=str(spec.get("name", experiment_dir.name)),
        game=str(spec.get("game", "?")),
        description=str(spec.get("description", "")),
        folder=experiment_dir,
        spec=spec,
        games_played=games_played,
        games_planned=planned,
        shards_finished=len(read_manifest(experiment_dir)),
        variants=variants,
        cooperative=cooperative,
        run_status=status,
        run_reason=reason,
        search_status=search,
        metrics=metrics,
        findings=findings(metrics, labels, cooperative=cooperative),
    )


# ---------------------------------------------------------------- sections as text tables

Row = dict[str, Any]


def _by(frame: pl.DataFrame, keys: list[str]) -> list[list[Row]]:
    """The rows of ``frame`` grouped by ``keys``, in frame order."""
    if frame.height == 0:
        return []
    return [group.to_dicts() for group in frame.partition_by(keys, maintain_order=True, as_dict=False)]


def _label(report: Report, variant: str) -> str:
    return report.labels.get(variant, variant)


def _players(report: Report) -> str:
    return "heroes" if report.cooperative else "players"


def _variant_table(report: Report) -> TextTable:
    return TextTable(
        title="Variants",
        headers=["variant", "games", "overrides"],
        right=[False, True, False],
        rows=[[row["label"], fmt.count(row["games"]), row["overrides"]] for row in report.variants.to_dicts()],
        keys=1, wrap=2,
        notes=["games: played, over every player count."],
    )


BY_CONSTRUCTION_COLUMNS = ("variant", "n_players", "metric", SET_BY, "baseline_value", "value", "delta",
                           "delta_low", "delta_high", "test", "q_value")


def by_construction_table(deltas: pl.DataFrame) -> pl.DataFrame:
    """The rows of ``variant_deltas`` that a variant's overrides set by construction (its
    ``SET_BY`` column): the variants section's context, left out of the findings."""
    return deltas.filter(pl.col(SET_BY).is_not_null()).select(BY_CONSTRUCTION_COLUMNS)


def _by_construction_tables(report: Report) -> list[TextTable]:
    rows = report.metrics.get("by_construction", pl.DataFrame()).to_dicts()
    if not rows:
        return []
    return [TextTable(
        title="Set by construction: what the variants change by their own design (context, not findings)",
        headers=["variant", "players", "what", "set by", "baseline", "variant", "delta", "95% interval"],
        right=[False, True, False, False, True, True, True, False],
        rows=[[_label(report, row["variant"]), str(row["n_players"]),
               delta_subject({**row, "family": "game", "key": ""}), row[SET_BY],
               _delta_value(row, "baseline_value"), _delta_value(row, "value"),
               fmt.signed(row["delta"]) if row["metric"] in MEANS else fmt.points(row["delta"]),
               (f"[{fmt.signed(row['delta_low'])}, {fmt.signed(row['delta_high'])}]" if row["metric"] in MEANS
                else fmt.points_interval(row["delta_low"], row["delta_high"]))]
              for row in rows],
        keys=1,
        notes=["each game declares which metrics a rules parameter sets (fewer rounds: fewer turns); a variant "
               "changing that parameter changes them by design, so the findings leave them out."],
    )]


def _findings_table(report: Report) -> TextTable:
    return TextTable(
        title="Findings: what deserves a designer's attention (details in the sections below)",
        headers=[], right=[], rows=[],
        notes=[*findings_lines(report.findings),
               f"Bands: seats and factions +- {fmt.percent(FACTION_BAND)} of the fair or expected rate, cards "
               f"+- {fmt.percent(CARD_BAND)} of the agent's card mean; 'surely outside': the whole 95% interval is. "
               "Unit of evidence: the game (rates over seat-games have intervals clustered by game)."],
    )


def _mixed_lineups(report: Report) -> str:
    """The variants and player counts whose games seat different agents, in words."""
    balance = report.metrics["seat_balance"]
    if balance.is_empty() or "self_play" not in balance.columns:
        return ""
    mixed = balance.filter(~pl.col("self_play")).select("variant", "n_players").unique(maintain_order=True)
    return ", ".join(f"{_label(report, variant)} at {players}" for variant, players in mixed.iter_rows())


def _seat_tables(report: Report) -> list[TextTable]:
    seats = report.metrics["seat_stats"]
    balance = report.metrics["seat_balance"]
    mixed = _mixed_lineups(report)
    shown = seats.filter(pl.col("self_play")) if "self_play" in seats.columns else seats
    seat_notes = ["win share: the seat's wins over all seats' wins (draws do not count; the draws are in the games "
                  "table); fair share 1/N."]
    if mixed:
        seat_notes.append(f"Left out, where the lineup seats different agents ({mixed} players): each seat's rate "
                          "there pools the agents the rotation put in it (a strong agent wins wherever it sits), "
                          "which says nothing about the seat (seat_stats has those rows); seat balance per agent "
                          "below.")
    tables = []
    if shown.height:
        tables.append(TextTable(
            title="Win rate by seat, every seat the same agent (95% Wilson interval; unit: the game)",
            headers=["variant", "players", "seat", "games", "wins", "win rate", "95% interval", "win share",
                     "95% interval"],
            right=[False, True, True, True, True, True, False, True, False],
            rows=[[_label(report, row["variant"]), str(row["n_players"]), str(row["seat"]), fmt.count(row["games"]),
                   fmt.count(row["wins"]), fmt.percent(row["win_rate"]),
                   fmt.interval(row["win_rate_low"], row["win_rate_high"]), fmt.percent(row["win_share"]),
                   fmt.interval(row["win_share_low"], row["win_share_high"])]
                  for row in shown.to_dicts()],
            keys=3, notes=seat_notes))
    else:
        tables.append(notice("Win rate by seat", " ".join(seat_notes[1:])))
    notes = ["self-play (every seat one agent): seat 0 is its share of the wins, against 1/N (chi2: the wins by "
             "seat against 1/N)."]
    if mixed:
        notes.append("per agent (a lineup of different agents, where pooled seats say nothing): seat 0 is the "
                     "agent's win rate in the games it held seat 0, against its win rate over all its seats; an "
                     "agent that wins (or loses) nearly every game wherever it sits shows no seat effect, which "
                     "then says nothing about the seats: self-play (agents = [\"one agent\"]) shows seat balance.")
    notes.append(f"advantage: the difference, with its interval, in percentage points; flag: OUTSIDE when the whole "
                 f"interval is beyond +- {fmt.percent(FACTION_BAND)}, outside? when only the estimate is; '-' for "
                 "one-player games and an agent that never held seat 0 or no other seat.")
    tables.append(TextTable(
        title="Seat balance: first-seat advantage, in self-play (every seat one agent) or per agent",
        headers=["variant", "players", "agent", "lineup", "games", "wins", "chi2", "df", "p", "seat 0", "against",
                 "advantage", "95% interval", "flag"],
        right=[False, True, False, False, True, True, True, True, True, True, True, True, False, False],
        rows=[[_label(report, row["variant"]), str(row["n_players"]), str(row["agent"]),
               "self-play" if row["self_play"] else "per agent", fmt.count(row["games"]),
               fmt.count(row["total_wins"]), fmt.number(row["chi2"], 2), fmt.count(row["df"]),
               fmt.p_value(row["p_value"]),
               fmt.percent(row["first_seat_share"] if row["self_play"] else row["first_seat_win_rate"]),
               fmt.percent(1 / row["n_players"] if row["self_play"] and row["first_seat_share"] is not None
                           else row["agent_win_rate"]),
               fmt.points(row["first_seat_advantage"]),
               fmt.points_interval(row["first_seat_advantage_low"], row["first_seat_advantage_high"]),
               _band_flag(row)]
              for row in balance.to_dicts()],
        keys=3, notes=notes))
    return tables


def _band_flag(row: Row) -> str:
    if row.get("surely_outside"):
        return "OUTSIDE"
    return "outside?" if row.get("outside_band") else ""


def _agent_table(report: Report) -> TextTable:
    notes = ["win rate: over the seat-games the agent held, against the fair share 1/N; game win rate: the games "
             "in which one of its seats won, against its seats per game / N (an agent at two of four seats that "
             "wins every game: win rate 50%, fair 25%; game win rate 100%, fair 50%).",
             "95% intervals clustered by game (an agent's seat-games in one game are linked; "
             "docs/reference/methods.md); effective n: the size of the games' spread, '-' where they show none.",
             f"self-play: {SELF_PLAY_WIN_RATE}"]
    if report.cooperative:
        notes.append("cooperative: every hero shares the party's outcome, so the unit is the game.")
    return TextTable(
        title="Win rate by agent",
        headers=["variant", _players(report), "agent", "games", "seat-games", "wins", "win rate", "95% interval",
                 "fair", "game win rate", "95% interval", "fair", "effective n", ""],
        right=[False, True, False, True, True, True, True, False, True, True, False, True, True, False],
        rows=[[_label(report, row["variant"]), str(row["n_players"]), str(row["agent"]), fmt.count(row["games"]),
               fmt.count(row["seat_games"]), fmt.count(row["wins"]), fmt.percent(row["win_rate"]),
               fmt.interval(row["win_rate_low"], row["win_rate_high"]), fmt.percent(row.get("fair_share")),
               fmt.percent(row.get("game_win_rate")),
               fmt.interval(row.get("game_win_rate_low"), row.get("game_win_rate_high")),
               fmt.percent(row.get("game_fair_share")), _effective_n(row, "win_rate", "seat_games"),
               "self-play" if row.get("self_play") else ""]
              for row in report.metrics["agent_stats"].to_dicts()],
        keys=3, notes=notes,
    )


def _effective_n(row: Row, rate: str, n: str) -> str:
    """A clustered rate's effective sample; ``-`` where the games show no spread, whose
    effective sample is a cap, not a size (``analytics.stats.CLUSTER_CAP``)."""
    effective = row[f"{rate}_effective_n"]
    if fmt.missing(effective) or shows_no_spread(effective, row[n]):
        return "-"
    return fmt.count(round(effective))


def _faction_tables(report: Report) -> list[TextTable]:
    stats = report.metrics["faction_stats"]
    if stats.is_empty():
        return []
    players = _players(report)
    tables = [TextTable(
        title="Factions: win rate against the expected rate +- band (95% interval clustered by game)",
        headers=["variant", players, "faction", "games", "seat-games", "win rate", "95% interval", "expected",
                 "flag"],
        right=[False, True, False, True, True, True, False, True, False],
        rows=[[_label(report, row["variant"]), str(row["n_players"]), str(row["faction"]), fmt.count(row["games"]),
               fmt.count(row["seat_games"]), fmt.percent(row["win_rate"]),
               fmt.interval(row["win_rate_low"], row["win_rate_high"]), fmt.percent(row["expected"]),
               _band_flag(row)]
              for row in stats.to_dicts()],
        keys=3,
        notes=[f"expected: every seat's pooled win rate at that count (1/N without draws); band +- "
               f"{fmt.percent(FACTION_BAND)}; OUTSIDE: the whole interval is outside the band, outside?: only the "
               "estimate is."],
    )]
    tables.append(TextTable(
        title="Faction spread",
        headers=["variant", players, "factions", "min", "max", "spread", "sd", "band", "outside", "surely outside"],
        right=[False, True, True, True, True, True, True, True, True, True],
        rows=[[_label(report, row["variant"]), str(row["n_players"]), str(row["factions"]),
               fmt.percent(row["min_win_rate"]), fmt.percent(row["max_win_rate"]), fmt.percent(row["spread"]),
               fmt.percent(row["sd"]), f"+-{fmt.percent(row['band'])}", str(row["outside_band"]),
               str(row["surely_outside"])]
              for row in report.metrics["faction_spread"].to_dicts()],
        keys=2,
    ))
    if report.cooperative:
        return tables
    for rows in _by(report.metrics["matchups"], ["variant", "n_players"]):
        factions = sorted({row["faction"] for row in rows} | {row["opponent"] for row in rows})
        cells = {(row["faction"], row["opponent"]): row for row in rows}
        tables.append(TextTable(
            title=f"Matchups: {_label(report, rows[0]['variant'])}, {rows[0]['n_players']} players "
                  "(the row faction's win rate in games with the column faction)",
            headers=["faction", *(str(number) for number in range(1, len(factions) + 1))],
            right=[False, *([True] * len(factions))],
            rows=[[f"{number:>2} {faction}",
                   *(fmt.percent(cells[faction, other]["win_rate"]) if (faction, other) in cells else "-"
                     for other in factions)]
                  for number, faction in enumerate(factions, start=1)],
            keys=1,
            notes=["columns: the factions by the numbers of the rows; fair rate "
                   f"{fmt.percent(1 / rows[0]['n_players'])}; '-': never met; seat-games per cell in the matchups "
                   "table (JSON, CSV)."],
        ))
    return tables


def _coop_tables(report: Report, card_rows: int | None) -> list[TextTable]:
    sizes = report.metrics["party_size_stats"]
    if sizes.is_empty():
        return []
    limit = card_rows or 20
    compositions = [row for group in _by(report.metrics["composition_stats"], ["variant", "n_players"])
                    for row in group[:limit]]
    return [
        TextTable(
            title="Cooperative: party win rate by party size (95% Wilson interval; unit: the game)",
            headers=["variant", "heroes", "games", "wins", "win rate", "95% interval"],
            right=[False, True, True, True, True, False],
            rows=[[_label(report, row["variant"]), str(row["n_players"]), fmt.count(row["games"]),
                   fmt.count(row["wins"]), fmt.percent(row["win_rate"]),
                   fmt.interval(row["win_rate_low"], row["win_rate_high"])]
                  for row in sizes.to_dicts()],
            keys=2,
        ),
        TextTable(
            title=f"Cooperative: win rate by composition (best {limit} per variant and size)",
            headers=["variant", "heroes", "composition", "games", "win rate", "95% interval"],
            right=[False, True, False, True, True, False],
            rows=[[_label(report, row["variant"]), str(row["n_players"]), str(row["composition"]),
                   fmt.count(row["games"]), fmt.percent(row["win_rate"]),
                   fmt.interval(row["win_rate_low"], row["win_rate_high"])]
                  for row in compositions],
            keys=2,
        ),
        TextTable(
            title="Cooperative: marginal effect of including each class (win rate with - without)",
            headers=["variant", "heroes", "class", "games with", "with", "without", "effect", "p"],
            right=[False, True, False, True, True, True, True, True],
            rows=[[_label(report, row["variant"]), str(row["n_players"]), str(row["faction"]),
                   fmt.count(row["games_with"]), fmt.percent(row["win_rate_with"]),
                   fmt.percent(row["win_rate_without"]), fmt.points(row["effect"]), fmt.p_value(row["p_value"])]
                  for row in report.metrics["class_effects"].to_dicts()],
            keys=3,
            notes=["effect in percentage points; p: two-proportion z-test over games."],
        ),
    ]


def _mean_interval(row: Row, name: str) -> str:
    if fmt.missing(row[name]):
        return "-"
    return f"[{fmt.number(row[f'{name}_low'], 2)}, {fmt.number(row[f'{name}_high'], 2)}]"


def _run_table(report: Report) -> list[TextTable]:
    runs = report.metrics["run_stats"]
    if runs.is_empty():
        return []
    return [TextTable(
        title="Runs: how far the party gets (cooperative; unit: the game)",
        headers=["variant", "heroes", "games", "win rate", "95% interval", "mean level", "95% interval",
                 "top level", "reached it", "wipes/game", "95% interval", "games with a wipe"],
        right=[False, True, True, True, False, True, False, True, True, True, False, True],
        rows=[[_label(report, row["variant"]), str(row["n_players"]), fmt.count(row["games"]),
               fmt.percent(row["win_rate"]), fmt.interval(row["win_rate_low"], row["win_rate_high"]),
               fmt.number(row["mean_level"], 2), _mean_interval(row, "mean_level"), fmt.count(row["top_level"]),
               fmt.percent(row["top_level_rate"]), fmt.number(row["wipes_per_game"], 2),
               _mean_interval(row, "wipes_per_game"), fmt.percent(row["wipe_rate"])]
              for row in runs.to_dicts()],
        keys=2,
        notes=["When the party almost always wins (Party mode: a wiped party revives and goes on), the win rate "
               "says little: read the wipes per game and the level reached. Intervals: normal 95% for the means, "
               "Wilson for the rates."],
    )]


def _game_tables(report: Report) -> list[TextTable]:
    stats = report.metrics["game_stats"]
    ends = report.metrics["end_reason_stats"]
    reasons = sorted(set(ends["end_reason"])) if ends.height else []
    shares = {(row["variant"], row["n_players"], row["end_reason"]): row["share"] for row in ends.to_dicts()}
    players = _players(report)
    return [
        TextTable(
            title="Games: length, decisions, draws and the turn cap (95% intervals)",
            headers=["variant", players, "games", "mean turns", "p10", "p50", "p90", "max", "decisions/game",
                     "legal/decision", "draw rate", "95% interval", "turn cap", "95% interval"],
            right=[False, True, True, True, True, True, True, True, True, True, True, False, True, False],
            rows=[[_label(report, row["variant"]), str(row["n_players"]), fmt.count(row["games"]),
                   fmt.number(row["mean_turns"], 2), fmt.number(row["p10_turns"]), fmt.number(row["p50_turns"]),
                   fmt.number(row["p90_turns"]), fmt.count(row["max_turns"]), fmt.number(row["mean_decisions"]),
                   fmt.number(row["mean_legal_actions"], 2), fmt.percent(row["draw_rate"]),
                   fmt.interval(row["draw_rate_low"], row["draw_rate_high"]), fmt.percent(row["turn_cap_rate"]),
                   fmt.interval(row["turn_cap_rate_low"], row["turn_cap_rate_high"])]
                  for row in stats.to_dicts()],
            keys=2,
            notes=["turns as the game counts them (rounds in Divvy); legal/decision: mean legal actions per "
                   "decision (forced single-option moves are not decisions; '-' when the game does not record it)."],
        ),
        TextTable(
            title="How games end (share of games)",
            headers=["variant", players, *reasons],
            right=[False, True, *([True] * len(reasons))],
            rows=[[_label(report, row["variant"]), str(row["n_players"]),
                   *(fmt.percent(shares.get((row["variant"], row["n_players"], reason), 0.0)) for reason in reasons)]
                  for row in stats.to_dicts()],
            keys=2,
        ),
    ]


def _design_tables(report: Report) -> list[TextTable]:
    players = _players(report)
    metrics = report.metrics
    decisiveness = metrics["decisiveness"]
    leads = {(row["variant"], row["n_players"]): row for row in metrics["lead_stats"].to_dicts()}
    tables = [TextTable(
        title="Game design: decisiveness (margin of victory, draws) and the lead (95% intervals)",
        headers=["variant", players, "games", "draw rate", "mean margin", "95% interval", "p10", "p50", "p90",
                 "lead changes", "comebacks", "1/3 leader wins", "2/3 leader wins"],
        right=[False, True, True, True, True, False, True, True, True, True, True, True, True],
        rows=[[_label(report, row["variant"]), str(row["n_players"]), fmt.count(row["games"]),
               fmt.percent(row["draw_rate"]), fmt.number(row["mean_margin"], 2),
               _mean_interval(row, "mean_margin"), fmt.number(row["p10_margin"]),
               fmt.number(row["p50_margin"]), fmt.number(row["p90_margin"]),
               fmt.number(lead.get("mean_lead_changes"), 2), fmt.percent(lead.get("comeback_rate")),
               fmt.percent(lead.get("first_third_leader_win_rate")),
               fmt.percent(lead.get("second_third_leader_win_rate"))]
              for row in decisiveness.to_dicts()
              for lead in [leads.get((row["variant"], row["n_players"]), {})]],
        keys=2,
        notes=["margin: the sole winner's final standing minus the runner-up's, in the game's own units (coins, VP, "
               "points); lead changes: per game; comebacks: games whose winner trailed at some point; 1/3 and 2/3 "
               "leader wins: how often the seat leading alone at the end of the first (second) third of the game "
               "wins. '-' where the game keeps no standings (cooperative)."])]
    seeds = metrics["seed_influence"]
    if seeds.is_empty():
        tables[0].notes.append("How much the deal decides: play the experiment with deal_replays = K (each deal "
                               "K times with other agent seeds) for the deal's share of the outcome.")
    else:
        tables.append(TextTable(
            title="Game design: the deal's share of the outcome (each deal replayed with other agent seeds)",
            headers=["variant", players, "deals", "replays", "deal share", "95% interval", "same winner"],
            right=[False, True, True, True, True, False, True],
            rows=[[_label(report, row["variant"]), str(row["n_players"]), fmt.count(row["deals"]),
                   fmt.count(row["replays"]), fmt.percent(row["deal_share"]),
                   fmt.interval(row["deal_share_low"], row["deal_share_high"]),
                   fmt.percent(row["same_winner_rate"])] for row in seeds.to_dicts()],
            keys=2,
            notes=["deal share: the share of the variance of each seat's outcome explained by the deal (ICC(1)); "
                   "near 100% the cards decide whatever the agents do, near 0% the agents' play does. same winner: "
                   "deals won by the same seats in every replay."]))
    depth = metrics["skill_depth"]
    if not depth.is_empty():
        tables.append(TextTable(
            title="Game design: skill depth, each agent's win rate at tables with the random agent",
            headers=["variant", players, "agent", "seat-games", "win rate", "95% interval", "even", "edge", ""],
            right=[False, True, False, True, True, False, True, True, False],
            rows=[[_label(report, row["variant"]), str(row["n_players"]), str(row["agent"]),
                   fmt.count(row["seat_games"]), fmt.percent(row["win_rate"]),
                   fmt.interval(row["win_rate_low"], row["win_rate_high"]), fmt.percent(row["even_rate"]),
                   fmt.points(row["edge"]), "strongest" if row["strongest"] else ""] for row in depth.to_dicts()],
            keys=3,
            notes=["even: 1/players, the rate of an agent no better than its table; edge: win rate minus even, in "
                   "points."]))
    spans = metrics.get("rating_span", pl.DataFrame())
    if not spans.is_empty():
        tables.append(TextTable(
            title="Game design: the skill ladder's rating span (Elo points, lowest- to highest-rated agent)",
            headers=["rules", "players", "agents", "bottom", "top", "span", "95% interval"],
            right=[False, True, True, False, False, True, False],
            rows=[[row["rules"], str(row["n_players"]), fmt.count(row["agents"]), row["bottom"], row["top"],
                   fmt.number(row["span"], 0),
                   "-" if row["span_low"] is None else
                   f"[{fmt.number(row['span_low'], 0)}, {fmt.number(row['span_high'], 0)}]"]
                  for row in spans.to_dicts()],
            keys=2, wrap=0,
            notes=["A wide span: skill pays a lot (400 Elo points: the stronger wins 10 games to 1); the ratings "
                   "section has every agent's rating."]))
    return tables


def _prior_note(rows: list[Row]) -> str:
    first = rows[0]
    if first["prior_identified"]:
        return (f"shrunk: empirical-Bayes GIH, beta prior of mean {fmt.percent(first['card_mean'])} and strength "
                f"{fmt.number(first['prior_strength'], 0)} games (the cards' true rates spread by "
                f"{fmt.points(first['card_spread']).lstrip('+')} points, sd).")
    return (f"shrunk: the cards' GIH win rates differ no more than noise would make them, so every card shrinks to "
            f"the agent's mean {fmt.percent(first['card_mean'])}: sort by GIH or IWD instead.")


def _card_tables(report: Report, card_rows: int | None) -> list[TextTable]:
    stats = report.metrics["card_stats"]
    playable = bool(stats.height) and int(stats["games_playable"].sum()) > 0
    tables = []
    for rows in _by(stats, ["variant", "n_players", "agent"]):
        shown: list[Row | None] = list(rows)
        what = f"all {len(rows)} cards"
        if card_rows is not None and len(rows) > 2 * card_rows:
            shown = [*rows[:card_rows], None, *rows[-card_rows:]]
            what = f"top and bottom {card_rows} of {len(rows)} cards"
        # One block of 100 columns for card names up to 20 characters with every flag (Divvy's and
        # Ring of Chaos's): the interval as "low-high" in %; the GNS rate (GIH - IWD) and the mean
        # turn played are left to JSON, CSV and the dashboard. The flags stand beside the name and
        # are repeated with it in every block when longer names (Party Wanted's) split the table,
        # so a flag is never 150 rows away from its card.
        headers = ["card", "flags", "in hand", "GIH", "GIH 95%", "IWD", "played",
                   *(["playable"] if playable else []), "shrunk", "z"]
        cells = []
        for row in shown:
            if row is None:
                cells.append(["...", *([""] * (len(headers) - 1))])
                continue
            flags = " ".join(flag for flag, on in (("!", row["outlier"]), ("OUT", row["surely_outside"]),
                                                   ("never", row["never_played"])) if on)
            cells.append([
                str(row["card"]), flags, fmt.count(row["games_in_hand"]), fmt.percent(row["gih_win_rate"]),
                fmt.compact_interval(row["gih_win_rate_low"], row["gih_win_rate_high"])
                if row["games_in_hand"] else "-",  # no seat-game in hand: no rate, so no interval
                fmt.points(row["iwd"]), fmt.percent(row["play_rate"]),
                *([fmt.percent(row["playable_play_rate"])] if playable else []), fmt.percent(row["shrunk_win_rate"]),
                fmt.number(row["z_score"], 2)])
        first = rows[0]
        tables.append(TextTable(
            title=f"Cards: {_label(report, first['variant'])}, {first['n_players']} {_players(report)}, held by "
                  f"{first['agent']} ({what}, by shrunk GIH win rate)",
            headers=headers, right=[False, False, *([True] * (len(headers) - 2))], rows=cells, keys=2,
            notes=["in hand: seat-games with the card drawn or in the opening hand; GIH/GNS: win rate in hand / not "
                   "seen; GIH 95%: its interval in % (clustered by game); IWD = GIH - GNS (points); played: the "
                   "play rate, of the seat-games in hand"
                   + ("; playable: the play rate when playable, of the seat-games it could be played in"
                      if playable else "")
                   + "; GNS (= GIH - IWD), the mean first turn played and the opening-hand and drawn-later win "
                   "rates (OH, GD) are in the JSON and CSV tables and on the dashboard;",
                   _prior_note(rows),
                   f"flags: ! outlier (|z| >= {OUTLIER_Z:g} and {100 * OUTLIER_POINTS:g}+ points from the mean); "
                   f"OUT: the GIH interval is beyond the card mean +- {fmt.percent(CARD_BAND)}; both only with "
                   f"{CARD_MIN_EXPECTED:g}+ expected wins and losses in hand at the mean; never: "
                   f"{NEVER_PLAYED}."],
        ))
    return tables


def _power_tables(report: Report, asked: bool) -> list[TextTable]:
    """The ``powers`` section: one table per variant, player count and agent; named in
    ``--sections`` for a game without powers, one line saying so."""
    stats = report.metrics.get("power_stats", pl.DataFrame())
    if stats.is_empty():
        return [notice("Powers", "This game records no faction powers (no power_playable / power_used "
                                 "columns in its players table).")] if asked else []
    tables = []
    for rows in _by(stats, ["variant", "n_players", "agent"]):
        first = rows[0]
        where = f"{_label(report, first['variant'])}, {first['n_players']} {_players(report)}, {first['agent']}"
        tables.append(TextTable(
            title=f"Powers used: {where} (each faction's power; 95% intervals clustered by game)",
            headers=["faction", "games", "uses/game", "95% interval", "use rate", "95% interval", "flags"],
            right=[False, True, True, False, True, False, False],
            rows=[[str(row["faction"]), fmt.count(row["games"]), fmt.number(row["uses_per_game"], 2),
                   f"[{fmt.number(row['uses_per_game_low'], 2)}, {fmt.number(row['uses_per_game_high'], 2)}]",
                   fmt.percent(row["use_rate"]), fmt.interval(row["use_rate_low"], row["use_rate_high"]),
                   "passive" if row["passive"] else "never" if row["never_used"] else ""] for row in rows],
            keys=1,
            notes=["games: seat-games of this agent with the faction; uses/game: times used per seat-game (normal "
                   "interval, cluster-robust); use rate: times used / steps at which using it was an option (the "
                   "use rate when playable; Wilson interval at the effective sample, clustered by game);",
                   f"flags: passive: never an option, uses count the times it took effect; never: {NEVER_USED}."],
        ))
        tables.append(TextTable(
            title=f"Powers, win rate when used: {where} (seat-games; 95% Wilson intervals clustered by game)",
            headers=["faction", "used", "win rate", "95%", "never", "win rate", "95%", "difference"],
            right=[False, True, True, True, True, True, True, True],
            rows=[[str(row["faction"]), fmt.count(row["games_used"]), fmt.percent(row["used_win_rate"]),
                   fmt.compact_interval(row["used_win_rate_low"], row["used_win_rate_high"])
                   if row["games_used"] else "-", fmt.count(row["games_unused"]), fmt.percent(row["unused_win_rate"]),
                   fmt.compact_interval(row["unused_win_rate_low"], row["unused_win_rate_high"])
                   if row["games_unused"] else "-", fmt.points(row["used_effect"])] for row in rows],
            keys=1,
            notes=["used / never: the seat-games in which the power was used at least once / never, and their win "
                   "rates (95%: the interval in %); difference in points. Using a power goes with how a game runs "
                   "(a party that is winning may have more chances to use it): it is not the power's effect."],
        ))
    return tables


def _delta_value(row: Row, name: str) -> str:
    return fmt.number(row[name], 2) if row["metric"] in MEANS else fmt.percent(row[name])


def _delta_tables(report: Report, card_rows: int | None) -> list[TextTable]:
    tables = []
    limit = card_rows or 10
    for rows in _by(report.metrics["variant_deltas"], ["variant", "n_players"]):
        cards = sorted((row for row in rows if row["family"] == "card"),
                       key=lambda row: (row["q_value"], row["p_value"], row["agent"] or "", row["key"], row["metric"]))
        kept_cards = ([row for row in cards if row["significant"]] or cards[:limit])[: 3 * limit]
        shown = [row for row in rows if row["family"] != "card"] + kept_cards
        first = rows[0]
        tables.append(TextTable(
            title=f"Variant {_label(report, first['variant'])} against the baseline, {first['n_players']} "
                  f"{_players(report)}",
            headers=["what", "baseline", "variant", "delta", "95% interval", "test", "p", "q (BH)", ""],
            right=[False, True, True, True, False, False, True, True, False],
            rows=[[delta_subject(row), _delta_value(row, "baseline_value"),
                   _delta_value(row, "value"),
                   fmt.signed(row["delta"]) if row["metric"] in MEANS else fmt.points(row["delta"]),
                   (f"[{fmt.signed(row['delta_low'])}, {fmt.signed(row['delta_high'])}]" if row["metric"] in MEANS
                    else fmt.points_interval(row["delta_low"], row["delta_high"])),
                   row["test"], fmt.p_value(row["p_value"]), fmt.p_value(row["q_value"]),
                   "set" if row.get(SET_BY) else "*" if row["significant"] else ""]
                  for row in shown],
            keys=1,
            notes=[f"cards: the significant ones (q < 0.05), else the {limit} with the lowest q ({len(cards)} card "
                   "tests in all); rates in %, their deltas in points, means (turns, decisions) in their units;",
                   f"95% interval: unadjusted ({delta_methods({str(row['test']) for row in shown})}); "
                   "q: Benjamini-Hochberg within the family; * q < 0.05; set: set by the variant's own "
                   "overrides by construction (context, not a finding)."],
        ))
    return tables


_AGENT_KEY = re.compile(r"(?<=[(,])\s*[a-z_]+=")


def short_agent(name: str) -> str:
    """An agent spec without its parameter names, for narrow tables:
    ``ismcts(iterations=100)`` -> ``ismcts(100)``; ``a vs b`` lineups too."""
    return _AGENT_KEY.sub("", name)


def _matrix_cell(row: Row | None) -> str:
    return "-" if row is None else f"{fmt.percent(row['win_rate'])} ({row['seat_games']:,})"


def _movement_cell(row: Row | None) -> str:
    """Deviation from the rung's mean in points, + or - when the whole interval is above or below it."""
    if row is None:
        return "-"
    mark = {1: "+", -1: "-"}.get(row["direction"], "")
    return f"{fmt.points(row['deviation'])}{mark}"


def _matrix_tables(frame: pl.DataFrame, asked: bool, order: list[str]) -> list[TextTable]:
    title = "Agent versus agent"
    if frame.height == 0:
        return [notice(title, "no game seats two different agents.")] if asked else []
    tables = []
    for rows in _by(frame, ["rules", "n_players"]):
        agents = sorted({row["agent"] for row in rows} | {row["opponent"] for row in rows},
                        key=lambda agent: (order.index(agent) if agent in order else len(order), agent))
        cells = {(row["agent"], row["opponent"]): row for row in rows}
        variants = sorted({name for row in rows for name in row["variants"].split(", ")})
        tables.append(TextTable(
            title=f"{title}: {rows[0]['n_players']} players, {rows[0]['rules']}",
            headers=["agent", *(str(number) for number in range(1, len(agents) + 1))],
            right=[False, *([True] * len(agents))],
            rows=[[f"{number} {short_agent(agent)}", *(_matrix_cell(cells.get((agent, other))) for other in agents)]
                  for number, agent in enumerate(agents, start=1)],
            keys=1,
            notes=["the row agent's win rate in games with the column agent, with its seat-games (n);",
                   "columns: the agents by the numbers of the rows; draws count as not-a-win;",
                   f"'-': never met; pooled over {len(variants)} variant(s) with these rules: {', '.join(variants)}."],
        ))
    return tables


def _movement_tables(frame: pl.DataFrame, card_rows: int | None, asked: bool) -> list[TextTable]:
    title = "Skill movement"
    rungs = rungs_in_order(frame)
    if not is_skill_ladder(frame):
        agents = sorted({rung for _, rung in rungs})
        why = ("fewer than two rungs (variants in which every seat plays the same agent)." if len(rungs) < 2 else
               f"no skill ladder: every rung (a variant in which every seat plays one agent) seats "
               f"{short_agent(agents[0])}, so the rungs differ by their rules, not by skill (see the deltas).")
        return [notice(title, why)] if asked else []
    tables = []
    for kind_players, group in frame.group_by(["kind", "n_players"], maintain_order=True):
        kind, players = str(kind_players[0]), int(kind_players[1])
        names = (group.group_by("name").agg(
            pl.col("sign_flips").first(),
            (pl.col("deviation").max() - pl.col("deviation").min()).alias("swing"))
            .sort(["sign_flips", "swing", "name"], descending=[True, True, False], nulls_last=True))
        total = names.height
        if card_rows is not None and kind == "card" and total > card_rows:
            names = names.head(max(card_rows, int(names["sign_flips"].sum())))
        by_key = {(row["name"], row["variant"]): row for row in group.to_dicts()}
        shown_rungs = [(variant, rung) for variant, rung in rungs
                       if any((name, variant) in by_key for name in names["name"])]
        what = f"all {total}" if names.height == total else f"{names.height} of {total}"
        tables.append(TextTable(
            title=f"{title}: {kind}s, {players} players ({what}; win rate minus the rung's mean, in points)",
            headers=[kind, *(str(number) for number in range(1, len(shown_rungs) + 1)), "flips"],
            right=[False, *([True] * len(shown_rungs)), False],
            rows=[[str(name), *(_movement_cell(by_key.get((name, variant))) for variant, _ in shown_rungs),
                   "FLIPS" if flips else ""]
                  for name, flips in names.select("name", "sign_flips").iter_rows()],
            keys=1,
            notes=["rungs: " + "; ".join(f"{number} {short_agent(rung)}" for number, (_, rung)
                                         in enumerate(shown_rungs, start=1)),
                   "+/-: the whole 95% interval above/below the rung's mean; FLIPS: + on one rung, - on another;",
                   f"{'factions: win rate' if kind == 'faction' else 'cards: win rate in hand (GIH)'}; "
                   "sorted by flips, then by the swing across rungs."],
        ))
    return tables


def _cost_table(report: Report) -> TextTable:
    return TextTable(
        title="Cost per game: wall seconds of one worker and agent decisions (all seats)",
        headers=["variant", "players", "agents", "games", "s/game", "decisions/game", "ms/decision"],
        right=[False, True, False, True, True, True, True],
        # The variant's name: its swept lineup is the agents column.
        rows=[[str(row["variant"]), str(row["n_players"]), short_agent(str(row["lineup"])),
               fmt.count(row["games"]), fmt.small_number(row["seconds_per_game"], 3),
               fmt.number(row["decisions_per_game"], 1), fmt.small_number(row["ms_per_decision"], 2)]
              for row in report.metrics["agent_cost"].to_dicts()],
        keys=2,
        notes=["s/game: play_seconds of the finished shards (manifest) / their games; wall time, so it grows "
               "when the machine is busy and is not reproducible, and a worker's first shard pays its imports "
               "(about a second); '-': shards written before it was recorded; agents without parameter names: "
               "ismcts(100) is ismcts(iterations=100)."],
    )


def _elo(value: Any) -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:+,.0f}"


def _elo_interval(low: Any, high: Any) -> str:
    return "-" if low is None or high is None else f"[{_elo(low)}, {_elo(high)}]"


def _ratings_tables(report: Report, asked: bool) -> list[TextTable]:
    """The ``ratings`` section: one rating table and one adjacent-gaps table per pool of variants."""
    ratings, gaps = report.metrics["agent_ratings"], report.metrics["rating_gaps"]
    if ratings.height == 0:
        return [notice("Ratings", "no game seats two different agents with different results "
                                  "(a skill ladder's head-to-head variants do).")] if asked else []
    tables = []
    for group in ratings.partition_by(["rules", "n_players", "anchor"], maintain_order=True, as_dict=False):
        rows = group.to_dicts()
        rules, players, anchor = rows[0]["rules"], rows[0]["n_players"], rows[0]["anchor"]
        pool = f"{players} players, {rules}, {short_agent(anchor)} = 0"
        tables.append(TextTable(
            title=f"Ratings (Bradley-Terry, Elo scale): {pool}",
            headers=["rank", "agent", "rating", "95% interval", "games", "comparisons"],
            right=[True, False, True, False, True, True],
            rows=[[fmt.count(row["rank"]), short_agent(row["agent"]), _elo(row["rating"]),
                   _elo_interval(row["rating_low"], row["rating_high"]), fmt.count(row["games"]),
                   fmt.count(row["comparisons"])]
                  for row in rows],
            keys=2,
            notes=["rating: Elo points (400 log10 of the odds; +200 wins 76% of games against 0) from the games "
                   "seating different agents, one comparison per pair of seats, mirror games left out; "
                   f"{VIRTUAL_DRAWS:g} virtual draw per pair that met; 95% interval: bootstrap by game, stratified "
                   f"by variant ({BOOTSTRAP_REPLICATES:,} replicates, fixed seed)."],
        ))
        pairs = gaps.filter((pl.col("rules") == rules) & (pl.col("n_players") == players)
                            & (pl.col("anchor") == anchor)).to_dicts()
        if not pairs:
            continue
        separated = sum(1 for row in pairs if row["intervals_separate"])
        resolved = sum(1 for row in pairs if row["difference_excludes_zero"])
        tables.append(TextTable(
            title=f"Adjacent agents by rating: {pool}",
            headers=["lower", "upper", "difference", "95% interval", "excludes 0", "disjoint"],
            right=[False, False, True, False, False, False],
            rows=[[short_agent(row["lower"]), short_agent(row["upper"]), _elo(row["difference"]),
                   _elo_interval(row["difference_low"], row["difference_high"]),
                   "yes" if row["difference_excludes_zero"] else "NO",
                   "yes" if row["intervals_separate"] else "NO"]
                  for row in pairs],
            keys=2,
            notes=[f"order resolved for {resolved} of {len(pairs)} adjacent pairs (excludes 0: the difference's "
                   f"95% interval excludes 0); disjoint: the two rating intervals separate ({separated} of "
                   f"{len(pairs)}); disjoint is stricter, as both intervals share the anchor's uncertainty."],
        ))
    return tables


def _miss_interval(row: Row) -> str:
    if row.get("miss") is None:
        return "- (a target had no rows)"
    return f"{row['miss']:.3f} [{row['miss_low']:.3f}, {row['miss_high']:.3f}]"


def _tuning_tables(report: Report, asked: bool) -> list[TextTable]:
    """The tuning section: how much of the space was seen, the targets, the confirmed
    candidates (their changes in the designer's words) and their targets, the trade-off."""
    metrics = report.metrics
    if "tuning_front" not in metrics:
        return [notice("Tuning", "not a tuning run: `cardlab tune SPEC` makes one.")] if asked else []
    search = metrics["tuning_search"].row(0, named=True) if "tuning_search" in metrics else None
    seen = [seen_words(search["points"], search["space_points"], search["repeated_asks"], search["space_known"])
            ] if search else []
    tables = [TextTable(
        title="Tuning: targets (every selected row of the metric view must lie in the band)",
        headers=["target", "metric and band", "weight"], right=[False, False, True],
        rows=[[row["target"], row["band"], f"{row['weight']:g}"] for row in metrics["tuning_targets"].to_dicts()],
        wrap=1, notes=seen)]
    candidates = metrics.get("tuning_candidates", pl.DataFrame())
    if candidates.is_empty():
        tables.append(notice("Tuning: confirmation", "not confirmed yet: `cardlab tune SPEC --resume` finishes it."))
    else:
        games = candidates["games"][0]
        level = candidates["confidence"][0]
        tables.append(TextTable(
            title=f"Tuning: confirmed candidates ({games:,} fresh games per player count; joint intervals)",
            headers=["", "trial", "variant", "cost", "miss [interval]", "met", "not met", "undecided"],
            right=[False, True, False, True, False, True, True, True],
            rows=[["ANSWER" if row["answer"] else "~" if row["within_noise"] else "", str(row["trial"]),
                   row["variant"], f"{row['cost']:.3f}", _miss_interval(row), str(row["met"]), str(row["not_met"]),
                   str(row["undecided"])]
                  for row in candidates.to_dicts()],
            notes=["met: the whole interval inside the band; not met: the whole interval outside; ANSWER: the "
                   "cheapest candidate meeting every target (else the lowest miss); ~: cheaper, and its miss "
                   "interval overlaps the ANSWER's, which meets not every target: that the ANSWER comes closer is "
                   f"not shown. Each interval is at {level:.2%}, so that all the target rows of all "
                   f"{candidates.height} confirmed variants hold together at 95% (Bonferroni): the answer is chosen "
                   "among them. Changes:",
                   *(f"- {row['variant']}: {row['change_words'] or '(none: the current data)'}"
                     for row in candidates.to_dicts())]))
        confirmation = metrics["tuning_confirmation"]
        for variant in confirmation["variant"].unique(maintain_order=True).to_list():
            tables.append(TextTable(
                title=f"Tuning: confirmed targets of {variant} (the worst row of each target; joint intervals)",
                headers=["target", "worst row", "value [interval]", "wanted", "verdict"],
                right=[False, False, False, False, False],
                rows=[[row["target"], row["worst_row"], _target_value(row),
                       band_words(_column(row), row["band_low"], row["band_high"]), row["verdict"]]
                      for row in confirmation.filter(pl.col("variant") == variant).to_dicts()],
                keys=1))
    front = metrics["tuning_front"]
    shown = front.filter(pl.col("on_front")) if not front.is_empty() else front
    tables.append(TextTable(
        title="Tuning: trade-off, change cost against miss (Pareto front of each candidate's latest search look)",
        headers=["trial", "variant", "games", "change", "cost", "miss [interval]"],
        right=[True, False, True, False, True, False],
        rows=[[str(row["trial"]), row["variant"], fmt.count(row["games"]),
               row.get("change_words") or row["change"] or "(current data)", f"{row['cost']:.3f}",
               _miss_interval(row)] for row in shown.to_dicts()],
        wrap=3,
        notes=[f"{shown.height} of {front.height} candidates are on the front (no other is both cheaper and "
               "closer); miss: the targets' weighted miss, point and 95% interval; the search minimises its upper "
               "end. Every look: SELECT * FROM the trials table (analytics.tuning.read_table(folder, 'trials'))."]))
    return tables


def _column(row: Row) -> str:
    """The metric column of a confirmed target row (older runs kept no metric: plain numbers)."""
    return str(row.get("metric") or "").split(".")[-1]


def _target_value(row: Row) -> str:
    return value_interval_words(_column(row), row["value"], row["low"], row["high"])


SectionRenderer = Callable[[Report, int | None, bool], list[TextTable]]

SECTION_RENDERERS: dict[str, SectionRenderer] = {
    "findings": lambda report, rows, asked: [_findings_table(report)],
    "variants": lambda report, rows, asked: [_variant_table(report), *_by_construction_tables(report)],
    "seats": lambda report, rows, asked: _seat_tables(report),
    "agents": lambda report, rows, asked: [_agent_table(report)],
    "factions": lambda report, rows, asked: _faction_tables(report),
    "coop": lambda report, rows, asked: _coop_tables(report, rows),
    "runs": lambda report, rows, asked: _run_table(report),
    "games": lambda report, rows, asked: _game_tables(report),
    "design": lambda report, rows, asked: _design_tables(report),
    "cards": lambda report, rows, asked: _card_tables(report, rows),
    "impact": lambda report, rows, asked: impact_tables(report.metrics["card_impact"],
                                                        report.metrics["card_impact_vs_gih"],
                                                        report.metrics["card_removal"], rows),
    "powers": lambda report, rows, asked: _power_tables(report, asked),
    "deltas": lambda report, rows, asked: _delta_tables(report, rows),
    "matrix": lambda report, rows, asked: _matrix_tables(report.metrics["agent_matrix"], asked,
                                                         ladder_order(report.metrics.get("agent_cost"))),
    "skill": lambda report, rows, asked: _movement_tables(report.metrics["skill_movement"], rows, asked),
    "cost": lambda report, rows, asked: [_cost_table(report)],
    "ratings": lambda report, rows, asked: _ratings_tables(report, asked),
    "tuning": lambda report, rows, asked: _tuning_tables(report, asked),
}
"""Section -> the text tables it prints (``asked``: the section was named in ``--sections``)."""


def _check_sections(sections: Sequence[str] | None) -> None:
    for section in sections or ():
        if section not in SECTIONS:
            raise UnknownFormatError(f"report section {section!r}: expected one of {', '.join(SECTIONS)}")


def _tables(report: Report, card_rows: int | None, sections: Sequence[str] | None) -> list[TextTable]:
    """The text tables of ``sections`` (default: every section that applies), in report order.

    A section that does not apply is left out; named in ``sections``, the
    skill sections say why they have nothing to show."""
    tables: list[TextTable] = []
    for section in SECTIONS:
        asked = sections is not None and section in sections
        if sections is not None and not asked:
            continue
        if not report.applies(section) and not (asked and section in ("matrix", "skill", "ratings", "tuning",
                                                                         "powers")):
            continue
        tables.extend(SECTION_RENDERERS[section](report, card_rows, asked))
    return tables


def _header_lines(report: Report) -> list[tuple[str, str]]:
    agents = report.spec.get("agents")
    agent_text = ", ".join(map(str, agents)) if isinstance(agents, list) else "?"
    if report.spec.get("rotate_seats"):
        agent_text += " (seats rotated every game)"
    planned = (f" of {report.games_planned:,} planned" if report.games_planned else
               " (a balance search: its candidates play different numbers of games)" if report.search_status
               else "")
    return [
        ("experiment", report.experiment),
        ("game", report.game + (" (cooperative)" if report.cooperative else "")),
        ("description", report.description or "-"),
        ("folder", str(report.folder)),
        ("games", f"{report.games_played:,} played{planned} ({report.shards_finished} shards finished)"),
        ("run", report.run_status + (f": {report.run_reason}" if report.run_reason else "")
         + ("" if report.run_status == "finished" else "; the numbers are of the finished shards only")),
        ("agents", agent_text),
        ("seed", str(report.spec.get("seed", "?"))),
    ]


def _render_text(report: Report, card_rows: int | None, sections: Sequence[str] | None) -> str:
    import textwrap

    header = [f"cardlab report: {report.experiment}", ""]
    for key, value in _header_lines(report):
        header.extend(textwrap.wrap(f"{key:<12} {value}", WIDTH - 2, initial_indent="  ",
                                    subsequent_indent=" " * 15, break_long_words=False))
    blocks = ["\n".join(header)]
    blocks.extend(table.text() for table in _tables(report, card_rows, sections))
    return "\n\n".join(blocks) + "\n"


def _render_markdown(report: Report, card_rows: int | None, sections: Sequence[str] | None) -> str:
    header = [f"# cardlab report: {report.experiment}", ""]
    header.extend(f"- **{key}**: {value}" for key, value in _header_lines(report))
    tables = [table.markdown() for table in _tables(report, card_rows, sections)]
    return "\n\n".join(["\n".join(header), *tables]) + "\n"


def _json_value(value: Any) -> Any:
    # JSON has no NaN or infinity; a missing rate is null.
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    return value


def _summary(report: Report) -> dict[str, Any]:
    return {"experiment": report.experiment, "game": report.game, "description": report.description,
            "folder": str(report.folder), "games_played": report.games_played,
            "games_planned": report.games_planned, "shards_finished": report.shards_finished,
            "run_status": report.run_status, "run_reason": report.run_reason, "cooperative": report.cooperative}


def report_data(report: Report, sections: Sequence[str] | None = None) -> dict[str, Any]:
    """The report as plain JSON-ready data (what the ``json`` format prints): the facts, the
    spec and every table of ``sections`` (default: those that apply) as lists of rows."""
    _check_sections(sections)
    return {
        **_summary(report),
        "spec": report.spec,
        "tables": {
            name: [{key: _json_value(value) for key, value in row.items()} for row in frame.to_dicts()]
            for name, frame in report.frames(sections).items()
        },
    }


def _render_json(report: Report, card_rows: int | None, sections: Sequence[str] | None) -> str:
    return json.dumps(report_data(report, sections), indent=2) + "\n"


_RENDERERS: dict[str, Callable[[Report, int | None, Sequence[str] | None], str]] = {
    "text": _render_text,
    "markdown": _render_markdown,
    "json": _render_json,
}


def render_report(report: Report, fmt_name: str, *, card_rows: int | None = None,
                  sections: Sequence[str] | None = None) -> str:
    """``report`` as one text, Markdown or JSON document (see the module docstring).

    ``card_rows`` limits the text and Markdown card tables to the best and the
    worst ``card_rows`` cards of each table (default: every card). JSON
    always holds every row. ``sections`` (names of ``SECTIONS``; default:
    every section that applies) keeps only those. Raises
    ``UnknownFormatError`` for another format (``csv`` is a folder of files:
    ``write_report_csv``) or an unknown section.
    """
    renderer = _RENDERERS.get(fmt_name)
    if renderer is None:
        hint = "; csv writes one file per table: write_report_csv" if fmt_name == "csv" else ""
        raise UnknownFormatError(f"report format {fmt_name!r}: expected one of {', '.join(DOCUMENT_FORMATS)}{hint}")
    _check_sections(sections)
    return renderer(report, card_rows, sections)


def _csv_ready(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with list columns joined into text (CSV has no lists)."""
    lists = [name for name, dtype in frame.schema.items() if isinstance(dtype, pl.List)]
    return frame.with_columns(pl.col(name).cast(pl.List(pl.String)).list.join(", ") for name in lists)


def write_report_csv(report: Report, folder: Path, sections: Sequence[str] | None = None) -> list[Path]:
    """Write every table of ``sections`` (default: those that apply) as ``folder/<table>.csv``,
    plus ``summary.csv`` (key, value), numbers unrounded; return the files written.

    ``folder`` is created if needed; each file is written to a temporary
    name and renamed, so a reader never sees half a file. Raises
    ``UnknownFormatError`` for an unknown section (before writing anything).
    """
    _check_sections(sections)
    frames = report.frames(sections)
    summary = pl.DataFrame({"key": list(_summary(report)), "value": [str(v) for v in _summary(report).values()]})
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, frame in {"summary": summary, **frames}.items():
        path = folder / f"{name}.csv"
        temporary = folder / f".{name}.csv.{os.getpid()}.tmp"
        _csv_ready(frame).write_csv(temporary)
        os.replace(temporary, path)
        written.append(path)
    return written


def candidate_report(report: Report, variant: str) -> Report:
    """``report`` cut down to ``variant`` and the baseline (the current data): a
    candidate's full report, with its deltas against the current data."""
    keep = {BASELINE, variant}

    def cut(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.filter(pl.col("variant").is_in(keep)) if "variant" in frame.columns else frame

    # The tuning tables stay with the search's report: the candidate's has none.
    metrics = {name: cut(frame) for name, frame in report.metrics.items() if not name.startswith("tuning_")}
    variants = cut(report.variants)
    labels = dict(variants.select("variant", "label").iter_rows())
    return dataclasses.replace(report, variants=variants, metrics=metrics,
                               findings=findings(metrics, labels, cooperative=report.cooperative))
