"""One experiment's results at a glance: ``cardlab report EXPERIMENT``.

``build_report`` opens the catalog, runs every metric of ``analytics.metrics``
once, and keeps the DataFrames with the spec's facts in a ``Report``;
``render_report`` turns it into:

- ``text``: what ``cardlab report`` prints; fixed-width tables that fit a
  100-column terminal. Rates are percentages with one decimal; the per-card
  table lists every card seen in each variant (all 48 in Divvy), best win
  rate when played first, unless ``card_rows`` limits it to the top and
  bottom few.
- ``markdown``: the same sections and formatted numbers as pipe tables.
- ``json``: one JSON object with the facts and every table as a list of row
  objects, numbers unrounded (the exact metric values).
- ``csv``: several CSV tables in one text, unrounded: each is preceded by a
  line ``# <table name>`` and followed by a blank line (``summary`` first,
  then ``variants``, ``win_rate_by_seat``, ``win_rate_by_agent``,
  ``game_length``, ``card_table``, then the metric views ``METRIC_TABLES``,
  then the skill tables ``SKILL_TABLES``).

Besides the original tables, every format holds the balance metrics of
``analytics.views`` (seat balance, factions and matchups, cooperative tables,
game statistics, the 17lands card table, the variant deltas) and the skill
tables of ``analytics.skill`` (the agent-versus-agent matrix when some game
seats different agents, how factions and cards move across the rungs of a
skill ladder, seconds and decisions per game) and the agents' ratings
(``analytics.ratings``: Bradley–Terry on the Elo scale with bootstrap
intervals, and whether adjacent agents' intervals separate); ``sections``
(``SECTIONS``) keeps only some. The metrics are read from per-shard counts
cached beside the results (``analytics.partials``), so a report over millions
of games reads kilobytes once the shards have been counted.
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from analytics.catalog import AnalyticsError, open_catalog, read_manifest, read_spec
from analytics.metrics import card_table, game_length, metric, skill_movement, win_rate_by_agent, win_rate_by_seat
from analytics.ratings import BOOTSTRAP_REPLICATES, VIRTUAL_DRAWS, agent_ratings
from analytics.skill import agent_cost, agent_matrix, ladder_order, rungs_in_order, variant_rules
from workers.location import ResultsPath

FORMATS = ("text", "markdown", "json", "csv")
METRIC_TABLES = (
    "seat_stats", "seat_balance", "agent_stats", "faction_stats", "faction_spread", "matchups",
    "party_size_stats", "composition_stats", "class_effects", "game_stats", "end_reason_stats",
    "turn_distribution", "card_stats", "variant_deltas",
)
SKILL_TABLES = ("agent_matrix", "skill_movement", "agent_cost", "agent_ratings", "rating_gaps")
"""The skill-ladder tables (``analytics.skill``, ``analytics.metrics.skill_movement``,
``analytics.ratings``)."""
TABLE_NAMES = ("variants", "win_rate_by_seat", "win_rate_by_agent", "game_length", "card_table", *METRIC_TABLES,
               *SKILL_TABLES)
TUNING_TABLES = ("tuning_targets", "tuning_front", "tuning_candidates", "tuning_confirmation")
"""A tuning run's tables (``analytics.tuning.tuning_tables``); only in the report of a tuning run."""
SECTIONS: dict[str, tuple[str, ...]] = {
    "variants": ("variants",),
    "seats": ("win_rate_by_seat", "seat_stats", "seat_balance"),
    "agents": ("win_rate_by_agent", "agent_stats"),
    "factions": ("faction_stats", "faction_spread", "matchups"),
    "coop": ("party_size_stats", "composition_stats", "class_effects"),
    "games": ("game_length", "game_stats", "end_reason_stats", "turn_distribution"),
    "cards": ("card_table", "card_stats"),
    "deltas": ("variant_deltas",),
    "matrix": ("agent_matrix",),
    "skill": ("skill_movement",),
    "cost": ("agent_cost",),
    "ratings": ("agent_ratings", "rating_gaps"),
    "tuning": TUNING_TABLES,
}
"""Report sections (``cardlab report --sections``) and the tables each holds."""
WIDTH = 100


class UnknownFormatError(AnalyticsError, ValueError):
    """An output format (or report section) that is not offered."""


@dataclass(frozen=True)
class Report:
    """Everything ``render_report`` shows for one experiment.

    ``variants`` has one row per variant of the spec (baseline first): variant,
    games (games played, over all player counts) and overrides (the dotted-path
    overrides as text). The other frames are the metrics of the same names;
    ``metrics`` holds the metric views of ``analytics.views`` by name
    (``METRIC_TABLES``), also readable as attributes (``report.card_stats``).
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
    win_rate_by_seat: pl.DataFrame
    win_rate_by_agent: pl.DataFrame
    game_length: pl.DataFrame
    card_table: pl.DataFrame
    metrics: dict[str, pl.DataFrame] = field(default_factory=dict)
    tables: tuple[str, ...] = field(default=TABLE_NAMES)

    def __getattr__(self, name: str) -> pl.DataFrame:
        # The metric views' tables (seat_balance, card_stats...) by attribute.
        metrics = self.__dict__.get("metrics", {})
        if name in metrics:
            return metrics[name]
        raise AttributeError(name)

    def frames(self) -> dict[str, pl.DataFrame]:
        """The report's tables by name, in report order."""
        return {name: getattr(self, name) for name in self.tables}


def _override_text(overrides: Any) -> str:
    if not isinstance(overrides, dict) or not overrides:
        return "(game defaults)"
    return ", ".join(f"{path} = {json.dumps(value)}" for path, value in overrides.items())


def build_report(experiment_dir: ResultsPath) -> Report:
    """Compute every metric of the experiment in ``experiment_dir`` (see the module docstring).

    Raises ``NoResultsError`` (an ``AnalyticsError``) if no shard has finished.
    """
    spec = read_spec(experiment_dir)
    # Cached per-shard counts (analytics.partials): every metric reads small
    # count tables, never the rows. Without paired seeds, skip the pairing joins.
    paired = None if spec.get("paired_seeds") else False
    con = open_catalog(experiment_dir, cached=True, paired=paired)
    try:
        seats = win_rate_by_seat(con)
        agents = win_rate_by_agent(con)
        lengths = game_length(con)
        cards = card_table(con)
        metrics = {name: metric(con, name) for name in METRIC_TABLES}
        metrics["agent_matrix"] = agent_matrix(con, variant_rules(spec))
        metrics["skill_movement"] = skill_movement(con)
        metrics["agent_cost"] = agent_cost(con, experiment_dir)
        metrics["agent_ratings"], metrics["rating_gaps"] = agent_ratings(
            con, variant_rules(spec), ladder_order(metrics["agent_cost"]))
    finally:
        con.close()
    from analytics.tuning import tuning_tables

    tuning = tuning_tables(experiment_dir)
    metrics.update(tuning)
    spec_variants = spec.get("variants")
    if not isinstance(spec_variants, dict):
        spec_variants = {}
    played = lengths.group_by("variant").agg(pl.col("games").sum())
    listed = pl.DataFrame(
        {"variant": list(spec_variants), "overrides": [_override_text(v) for v in spec_variants.values()]},
        schema={"variant": pl.String, "overrides": pl.String})
    variants = (
        listed.join(played, on="variant", how="full", coalesce=True)
        .with_columns(pl.col("games").fill_null(0), pl.col("overrides").fill_null("(not in spec.json)"))
        .sort(pl.col("variant") != "baseline", "variant")
        .select("variant", "games", "overrides")
    )
    games_played = int(lengths["games"].sum())
    per_variant = spec.get("games")
    player_counts = spec.get("player_counts")
    # Sweep grid points are variants too, though spec.json lists only the named ones.
    variant_count = len(variant_rules(spec)) or len(spec_variants)
    planned = (per_variant * len(player_counts) * variant_count
               if isinstance(per_variant, int) and isinstance(player_counts, list) else 0)
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
        win_rate_by_seat=seats,
        win_rate_by_agent=agents,
        game_length=lengths,
        card_table=cards,
        metrics=metrics,
        tables=TABLE_NAMES + (TUNING_TABLES if tuning else ()),
    )


# ---------------------------------------------------------------- formatting


def _count(value: Any) -> str:
    return "-" if value is None else f"{int(value):,}"


def _percent(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{100 * value:.1f}%"


def _interval(low: Any, high: Any) -> str:
    if low is None or high is None:
        return "-"
    return f"[{_percent(low)}, {_percent(high)}]"


def _number(value: Any, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


@dataclass
class _Table:
    """A table of already formatted cells; ``right`` marks right-aligned columns."""

    title: str
    headers: list[str]
    right: list[bool]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        widths = [max([len(h), *(len(row[i]) for row in self.rows)]) for i, h in enumerate(self.headers)]

        def line(cells: Sequence[str]) -> str:
            return "  " + "  ".join(
                cell.rjust(width) if right else cell.ljust(width)
                for cell, width, right in zip(cells, widths, self.right, strict=True)).rstrip()

        body = [self.title, *(f"  {note}" for note in self.notes)]
        if self.headers:
            body.append(line(self.headers))
            body.extend(line(row) for row in self.rows)
        return "\n".join(body)

    def markdown(self) -> str:
        def line(cells: Sequence[str]) -> str:
            return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

        body = [f"## {self.title}", ""]
        if self.notes:
            body.extend([*self.notes, ""])
        if not self.headers:
            return "\n".join(body).rstrip()
        body.append(line(self.headers))
        body.append("|" + "|".join("---:" if right else "---" for right in self.right) + "|")
        body.extend(line(row) for row in self.rows)
        return "\n".join(body)


Row = dict[str, Any]


def _rows(frame: pl.DataFrame) -> list[Row]:
    return frame.to_dicts()


def _win_rate_table(title: str, frame: pl.DataFrame, key: str, key_header: str) -> _Table:
    return _Table(
        title=title,
        headers=["variant", "players", key_header, "games", "wins", "draws", "win rate", "95% interval"],
        right=[False, True, key == "seat", True, True, True, True, False],
        rows=[[row["variant"], str(row["n_players"]), str(row[key]), _count(row["games"]), _count(row["wins"]),
               _count(row["draws"]), _percent(row["win_rate"]), _interval(row["ci_low"], row["ci_high"])]
              for row in _rows(frame)],
    )


def _length_tables(frame: pl.DataFrame) -> list[_Table]:
    lengths = _Table(
        title="Game length (turns as the game counts them)",
        headers=["variant", "players", "games", "mean turns", "min", "p50", "p90", "max", "decisions/game"],
        right=[False, *([True] * 8)],
        rows=[[row["variant"], str(row["n_players"]), _count(row["games"]), _number(row["mean_turns"], 2),
               _count(row["min_turns"]), _number(row["p50_turns"]), _number(row["p90_turns"]),
               _count(row["max_turns"]), _number(row["mean_decisions"], 1)]
              for row in _rows(frame)],
    )
    reasons = [name for name in frame.columns if name.startswith("end_")]
    ends = _Table(
        title="How games end (share of games)",
        headers=["variant", "players", "draw", *(name.removeprefix("end_") for name in reasons)],
        right=[False, True, True, *([True] * len(reasons))],
        rows=[[row["variant"], str(row["n_players"]), _percent(row["draw_rate"]),
               *(_percent(row[name]) for name in reasons)]
              for row in _rows(frame)],
    )
    return [lengths, ends]


_CARD_NOTES = [
    "drawn in, played in: seat-games in which the seat drew, played the card at least once;",
    "draws, plays: times in all; win% played, win% drawn: share of those seat-games the seat won.",
]


def _card_tables(frame: pl.DataFrame, card_rows: int | None) -> list[_Table]:
    tables = []
    groups = frame.partition_by(["variant", "n_players"], maintain_order=True, as_dict=False)
    for group in groups:
        rows = _rows(group)
        variant, players = rows[0]["variant"], rows[0]["n_players"]
        shown: list[Row | None] = list(rows)
        what = f"all {len(rows)} cards seen"
        if card_rows is not None and len(rows) > 2 * card_rows:
            shown = [*rows[:card_rows], None, *rows[-card_rows:]]
            what = f"top and bottom {card_rows} of {len(rows)} cards seen"
        cells = [
            ["...", "", "", "", "", "", "", ""] if row is None else
            [row["card"], _count(row["games_drawn"]), _count(row["times_drawn"]), _count(row["games_played"]),
             _count(row["times_played"]), _percent(row["win_rate_when_played"]),
             _interval(row["played_ci_low"], row["played_ci_high"]), _percent(row["win_rate_when_drawn"])]
            for row in shown
        ]
        tables.append(_Table(
            title=f"Cards: {variant}, {players} players ({what}, by win rate when played)",
            headers=["card", "drawn in", "draws", "played in", "plays", "win% played", "95% interval",
                     "win% drawn"],
            right=[False, True, True, True, True, True, False, True],
            rows=cells,
            notes=_CARD_NOTES,
        ))
    return tables


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _header_lines(report: Report) -> list[tuple[str, str]]:
    agents = report.spec.get("agents")
    agent_text = ", ".join(map(str, agents)) if isinstance(agents, list) else "?"
    if report.spec.get("rotate_seats"):
        agent_text += " (seats rotated every game)"
    planned = f" of {report.games_planned:,} planned" if report.games_planned else ""
    lines = [
        ("experiment", report.experiment),
        ("game", report.game),
        ("description", report.description or "-"),
        ("folder", str(report.folder)),
        ("games", f"{report.games_played:,} played{planned} ({report.shards_finished} shards finished)"),
        ("agents", agent_text),
        ("seed", str(report.spec.get("seed", "?"))),
    ]
    return lines


def _variant_table(report: Report) -> _Table:
    return _Table(
        title="Variants",
        headers=["variant", "games", "overrides"],
        right=[False, True, False],
        rows=[[row["variant"], _count(row["games"]), row["overrides"]] for row in _rows(report.variants)],
    )


def _p_value(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return "<1e-4" if value < 1e-4 else f"{value:.4f}"


def _signed_points(value: Any) -> str:
    """A difference of rates in percentage points."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{100 * value:+.1f}"


def _points_interval(low: Any, high: Any) -> str:
    if low is None or high is None:
        return "-"
    return f"[{_signed_points(low)}, {_signed_points(high)}]"


def _by_count(frame: pl.DataFrame) -> list[tuple[str, int, list[Row]]]:
    if frame.height == 0:
        return []
    return [(group["variant"][0], group["n_players"][0], _rows(group))
            for group in frame.partition_by(["variant", "n_players"], maintain_order=True, as_dict=False)]


def _seat_balance_table(frame: pl.DataFrame) -> _Table:
    return _Table(
        title="Seat balance: chi-square of wins by seat against 1/N; first-seat advantage (share - 1/N)",
        headers=["variant", "players", "games", "wins", "chi2", "df", "p", "seat 0 share", "advantage",
                 "95% interval"],
        right=[False, True, True, True, True, True, True, True, True, False],
        rows=[[row["variant"], str(row["n_players"]), _count(row["games"]), _count(row["total_wins"]),
               _number(row["chi2"], 2), _count(row["df"]), _p_value(row["p_value"]), _percent(row["first_seat_share"]),
               _signed_points(row["first_seat_advantage"]),
               _points_interval(row["first_seat_advantage_low"], row["first_seat_advantage_high"])]
              for row in _rows(frame)],
        notes=["advantage and interval in percentage points; '-' for one-player games."],
    )


def _faction_tables(report: Report) -> list[_Table]:
    stats = report.metrics.get("faction_stats")
    if stats is None or stats.height == 0:
        return []
    tables = [_Table(
        title="Factions: win rate (95% Wilson interval) against the expected rate +- band",
        headers=["variant", "players", "faction", "seat-games", "win rate", "95% interval", "expected", "flag"],
        right=[False, True, False, True, True, False, True, False],
        rows=[[row["variant"], str(row["n_players"]), str(row["faction"]), _count(row["seat_games"]),
               _percent(row["win_rate"]), _interval(row["win_rate_low"], row["win_rate_high"]),
               _percent(row["expected"]),
               "OUTSIDE" if row["surely_outside"] else ("outside?" if row["outside_band"] else "")]
              for row in _rows(stats)],
        notes=["OUTSIDE: the whole interval is outside the band; outside?: only the estimate is."],
    )]
    spread = report.metrics["faction_spread"]
    tables.append(_Table(
        title="Faction spread",
        headers=["variant", "players", "factions", "min", "max", "spread", "sd", "band", "outside"],
        right=[False, True, True, True, True, True, True, True, True],
        rows=[[row["variant"], str(row["n_players"]), str(row["factions"]), _percent(row["min_win_rate"]),
               _percent(row["max_win_rate"]), _percent(row["spread"]), _percent(row["sd"]),
               f"+-{_percent(float(row['band']))}", str(row["outside_band"])]
              for row in _rows(spread)],
    ))
    for variant, players, rows in _by_count(report.metrics["matchups"]):
        # Columns by number: faction names are too long for a 100-column matrix.
        factions = sorted({row["faction"] for row in rows} | {row["opponent"] for row in rows})
        rates = {(row["faction"], row["opponent"]): row["win_rate"] for row in rows}
        tables.append(_Table(
            title=f"Matchups: {variant}, {players} players (row faction's win rate in games with the column faction)",
            headers=["faction", *(str(number) for number in range(1, len(factions) + 1))],
            right=[False, *([True] * len(factions))],
            rows=[[f"{number:>2} {_clip(faction, 24)}", *(_percent(rates.get((faction, other))) for other in factions)]
                  for number, faction in enumerate(factions, start=1)],
            notes=["columns: the factions by the numbers of the rows; '-': never met."],
        ))
    return tables


def _coop_tables(report: Report, card_rows: int | None) -> list[_Table]:
    sizes = report.metrics.get("party_size_stats")
    if sizes is None or sizes.height == 0:
        return []
    tables = [_Table(
        title="Cooperative: team win rate by party size (95% Wilson interval)",
        headers=["variant", "party size", "games", "wins", "win rate", "95% interval"],
        right=[False, True, True, True, True, False],
        rows=[[row["variant"], str(row["n_players"]), _count(row["games"]), _count(row["wins"]),
               _percent(row["win_rate"]), _interval(row["win_rate_low"], row["win_rate_high"])]
              for row in _rows(sizes)],
    )]
    compositions = _rows(report.metrics["composition_stats"])
    limit = card_rows or 20
    tables.append(_Table(
        title=f"Cooperative: win rate by composition (best {limit} per variant and size)",
        headers=["variant", "size", "composition", "games", "win rate", "95% interval"],
        right=[False, True, False, True, True, False],
        rows=[[row["variant"], str(row["n_players"]), _clip(str(row["composition"]), 40), _count(row["games"]),
               _percent(row["win_rate"]), _interval(row["win_rate_low"], row["win_rate_high"])]
              for _, _, group in _by_count(report.metrics["composition_stats"]) for row in group[:limit]]
        if compositions else [],
    ))
    tables.append(_Table(
        title="Cooperative: marginal effect of including each class (win rate with - without)",
        headers=["variant", "size", "class", "games with", "with", "without", "effect", "p"],
        right=[False, True, False, True, True, True, True, True],
        rows=[[row["variant"], str(row["n_players"]), str(row["faction"]), _count(row["games_with"]),
               _percent(row["win_rate_with"]), _percent(row["win_rate_without"]), _signed_points(row["effect"]),
               _p_value(row["p_value"])]
              for row in _rows(report.metrics["class_effects"])],
        notes=["effect in percentage points; p: two-proportion z-test."],
    ))
    return tables


def _game_stats_table(frame: pl.DataFrame) -> _Table:
    return _Table(
        title="Games: decisions, legal actions, draws and turn cap (95% Wilson intervals)",
        headers=["variant", "players", "p50 dec.", "legal/dec.", "draw rate", "95% interval",
                 "turn cap", "95% interval"],
        right=[False, True, True, True, True, False, True, False],
        rows=[[row["variant"], str(row["n_players"]), _number(row["p50_decisions"]),
               _number(row["mean_legal_actions"], 2), _percent(row["draw_rate"]),
               _interval(row["draw_rate_low"], row["draw_rate_high"]), _percent(row["turn_cap_rate"]),
               _interval(row["turn_cap_rate_low"], row["turn_cap_rate_high"])]
              for row in _rows(frame)],
        notes=["legal/dec.: mean legal actions per decision (forced single-option moves are not decisions)."],
    )


_CARD_STATS_NOTES = [
    "in hand: seat-games with the card drawn or in the opening hand; GIH/GNS: win% in hand / not seen;",
    "IWD = GIH - GNS (points); OH/GD: opening hand / drawn later; shrunk: empirical-Bayes GIH;",
    "z: GIH against the card mean; ! marks |z| >= 3.",
]


def _card_stats_tables(frame: pl.DataFrame, card_rows: int | None) -> list[_Table]:
    tables = []
    for variant, players, rows in _by_count(frame):
        shown: list[Row | None] = list(rows)
        what = f"all {len(rows)} cards"
        if card_rows is not None and len(rows) > 2 * card_rows:
            shown = [*rows[:card_rows], None, *rows[-card_rows:]]
            what = f"top and bottom {card_rows} of {len(rows)} cards"
        tables.append(_Table(
            title=f"Card stats: {variant}, {players} players ({what}, by shrunk GIH win rate)",
            headers=["card", "in hand", "GIH", "GNS", "IWD", "OH", "GD", "play%", "turn", "shrunk", "z", ""],
            right=[False, *([True] * 10), False],
            rows=[["...", *([""] * 11)] if row is None else
                  [_clip(str(row["card"]), 24), _count(row["games_in_hand"]), _percent(row["gih_win_rate"]),
                   _percent(row["gns_win_rate"]), _signed_points(row["iwd"]), _percent(row["oh_win_rate"]),
                   _percent(row["gd_win_rate"]), _percent(row["play_rate"]), _number(row["mean_turn_played"], 2),
                   _percent(row["shrunk_win_rate"]), _number(row["z_score"], 2), "!" if row["outlier"] else ""]
                  for row in shown],
            notes=_CARD_STATS_NOTES,
        ))
    return tables


def _delta_tables(frame: pl.DataFrame, card_rows: int | None) -> list[_Table]:
    tables = []
    limit = card_rows or 10
    for variant, players, rows in _by_count(frame):
        cards = sorted((row for row in rows if row["family"] == "card"),
                       key=lambda row: (row["q_value"], row["p_value"], row["key"], row["metric"]))
        kept_cards = [row for row in cards if row["significant"]] or cards[:limit]
        if len(kept_cards) > 3 * limit:
            kept_cards = kept_cards[: 3 * limit]
        shown = [row for row in rows if row["family"] != "card"] + kept_cards
        tables.append(_Table(
            title=f"Variant {variant} against baseline, {players} players",
            headers=["family", "key", "metric", "baseline", "variant", "delta", "test", "p", "q (BH)", ""],
            right=[False, False, False, True, True, True, False, True, True, False],
            rows=[[row["family"], _clip(str(row["key"]), 20), row["metric"],
                   _number(row["baseline_value"], 2) if row["test"] == "welch" else _percent(row["baseline_value"]),
                   _number(row["value"], 2) if row["test"] == "welch" else _percent(row["value"]),
                   _number(row["delta"], 2) if row["test"] == "welch" else _signed_points(row["delta"]),
                   row["test"], _p_value(row["p_value"]), _p_value(row["q_value"]),
                   "*" if row["significant"] else ""]
                  for row in shown],
            notes=[f"cards: the significant ones (q < 0.05), else the {limit} with the lowest q "
                   f"({len(cards)} card tests in all);",
                   "rates in %, deltas in points; q: Benjamini-Hochberg within the family; * q < 0.05."],
        ))
    return tables


def _notice(title: str, text: str) -> _Table:
    """A section with nothing to show, saying why (only when the section was asked for)."""
    return _Table(title=title, headers=[], right=[], rows=[], notes=[text])


_AGENT_KEY = re.compile(r"(?<=[(,])\s*[a-z_]+=")


def short_agent(name: str) -> str:
    """An agent spec without its parameter names, for narrow tables:
    ``ismcts(iterations=100)`` -> ``ismcts(100)``; ``a vs b`` lineups too."""
    return _AGENT_KEY.sub("", name)


def _matrix_cell(row: Row | None) -> str:
    return "-" if row is None else f"{_percent(row['win_rate'])} ({row['seat_games']:,})"


def _movement_cell(row: Row | None) -> str:
    """Deviation from the rung's mean in points, + or - when the whole interval is above or below it."""
    if row is None:
        return "-"
    mark = {1: "+", -1: "-"}.get(row["direction"], "")
    return f"{_signed_points(row['deviation'])}{mark}"


def _matrix_tables(frame: pl.DataFrame, asked: bool, order: list[str]) -> list[_Table]:
    title = "Agent versus agent"
    if frame.height == 0:
        return [_notice(title, "no game seats two different agents.")] if asked else []
    tables = []
    for group in frame.partition_by(["rules", "n_players"], maintain_order=True, as_dict=False):
        rows = _rows(group)
        agents = sorted({row["agent"] for row in rows} | {row["opponent"] for row in rows},
                        key=lambda agent: (order.index(agent) if agent in order else len(order), agent))
        cells = {(row["agent"], row["opponent"]): row for row in rows}

        variants = sorted({name for row in rows for name in row["variants"].split(", ")})
        tables.append(_Table(
            title=f"{title}: {rows[0]['n_players']} players, {_clip(rows[0]['rules'], 60)}",
            headers=["agent", *(str(number) for number in range(1, len(agents) + 1))],
            right=[False, *([True] * len(agents))],
            rows=[[f"{number} {_clip(short_agent(agent), 24)}",
                   *(_matrix_cell(cells.get((agent, other))) for other in agents)]
                  for number, agent in enumerate(agents, start=1)],
            notes=["the row agent's win rate in games with the column agent, with its seat-games (n);",
                   "columns: the agents by the numbers of the rows; draws count as not-a-win;",
                   f"'-': never met; pooled over {len(variants)} variant(s) with these rules: "
                   f"{_clip(', '.join(variants), 60)}."],
        ))
    return tables


def _movement_tables(frame: pl.DataFrame, card_rows: int | None, asked: bool) -> list[_Table]:
    title = "Skill movement"
    rungs = rungs_in_order(frame)
    if len(rungs) < 2:
        return [_notice(title, "fewer than two rungs (variants in which every seat plays the same agent).")] \
            if asked else []
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
        by_key = {(row["name"], row["variant"]): row for row in _rows(group)}

        shown_rungs = [(variant, rung) for variant, rung in rungs
                       if any((name, variant) in by_key for name in names["name"])]
        what = f"all {total}" if names.height == total else f"{names.height} of {total}"
        tables.append(_Table(
            title=f"{title}: {kind}s, {players} players ({what}; win rate minus the rung's mean, in points)",
            headers=[kind, *(str(number) for number in range(1, len(shown_rungs) + 1)), "flips"],
            right=[False, *([True] * len(shown_rungs)), False],
            rows=[[_clip(str(name), 24), *(_movement_cell(by_key.get((name, variant))) for variant, _ in shown_rungs),
                   "FLIPS" if flips else ""]
                  for name, flips in names.select("name", "sign_flips").iter_rows()],
            notes=["rungs: " + "; ".join(f"{number} {_clip(short_agent(rung), 24)}" for number, (_, rung)
                                         in enumerate(shown_rungs, start=1)),
                   "+/-: the whole 95% interval above/below the rung's mean; FLIPS: + on one rung, - on another;",
                   f"{'factions: win rate' if kind == 'faction' else 'cards: win rate in hand (GIH)'}; "
                   "sorted by flips, then by the swing across rungs."],
        ))
    return tables


def _cost_table(frame: pl.DataFrame) -> _Table:
    return _Table(
        title="Cost per game: wall seconds of one worker and agent decisions (all seats)",
        headers=["variant", "players", "agents", "games", "s/game", "decisions/game", "ms/decision"],
        right=[False, True, False, True, True, True, True],
        rows=[[row["variant"], str(row["n_players"]), _clip(short_agent(str(row["lineup"])), 32), _count(row["games"]),
               _number(row["seconds_per_game"], 3), _number(row["decisions_per_game"], 1),
               _number(row["ms_per_decision"], 2)]
              for row in _rows(frame)],
        notes=["s/game: play_seconds of the finished shards (manifest) / their games; wall time, so it grows",
               "when the machine is busy and is not reproducible, and a worker's first shard pays its imports",
               "(about a second); '-': shards written before it was recorded;",
               "agents without parameter names: ismcts(100) is ismcts(iterations=100)."],
    )


def _elo(value: Any) -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:+,.0f}"


def _elo_interval(low: Any, high: Any) -> str:
    return "-" if low is None or high is None else f"[{_elo(low)}, {_elo(high)}]"


def _ratings_tables(ratings: pl.DataFrame, gaps: pl.DataFrame, asked: bool) -> list[_Table]:
    """The ``ratings`` section: one rating table and one adjacent-gaps table per pool of variants."""
    title = "Ratings"
    if ratings.height == 0:
        return [_notice(title, "no game seats two different agents with different results "
                               "(a skill ladder's head-to-head variants do).")] if asked else []
    tables = []
    for group in ratings.partition_by(["rules", "n_players", "anchor"], maintain_order=True, as_dict=False):
        rows = _rows(group)
        rules, players, anchor = rows[0]["rules"], rows[0]["n_players"], rows[0]["anchor"]
        tables.append(_Table(
            title=f"{title} (Bradley-Terry, Elo scale): {players} players, {_clip(rules, 40)}, "
                  f"{_clip(short_agent(anchor), 30)} = 0",
            headers=["rank", "agent", "rating", "95% interval", "games", "comparisons"],
            right=[True, False, True, False, True, True],
            rows=[[_count(row["rank"]), _clip(short_agent(row["agent"]), 40), _elo(row["rating"]),
                   _elo_interval(row["rating_low"], row["rating_high"]), _count(row["games"]),
                   _count(row["comparisons"])]
                  for row in rows],
            notes=["rating: Elo points (400 log10 of the odds; +200 wins 76% of games against 0) from the games",
                   "seating different agents, one comparison per pair of seats, mirror games left out;",
                   f"{VIRTUAL_DRAWS:g} virtual draw per pair that met; 95% interval: bootstrap by game, stratified",
                   f"by variant ({BOOTSTRAP_REPLICATES:,} replicates, fixed seed)."],
        ))
        pairs = _rows(gaps.filter((pl.col("rules") == rules) & (pl.col("n_players") == players)
                                  & (pl.col("anchor") == anchor)))
        if not pairs:
            continue
        separated = sum(1 for row in pairs if row["intervals_separate"])
        resolved = sum(1 for row in pairs if row["difference_excludes_zero"])
        tables.append(_Table(
            title=f"Adjacent agents by rating: {players} players, {_clip(rules, 40)}, "
                  f"{_clip(short_agent(anchor), 30)} = 0",
            headers=["lower", "upper", "difference", "95% interval", "excludes 0", "disjoint"],
            right=[False, False, True, False, False, False],
            rows=[[_clip(short_agent(row["lower"]), 28), _clip(short_agent(row["upper"]), 28),
                   _elo(row["difference"]), _elo_interval(row["difference_low"], row["difference_high"]),
                   "yes" if row["difference_excludes_zero"] else "NO",
                   "yes" if row["intervals_separate"] else "NO"]
                  for row in pairs],
            notes=[f"order resolved for {resolved} of {len(pairs)} adjacent pairs (excludes 0: the difference's "
                   "95% interval", f"excludes 0); disjoint: the two rating intervals separate ({separated} of "
                   f"{len(pairs)});", "disjoint is stricter, as both intervals share the anchor's uncertainty."],
        ))
    return tables


def _sections(report: Report, card_rows: int | None, sections: Sequence[str] | None = None) -> list[_Table]:
    wanted = set(SECTIONS if sections is None else sections)
    metrics = report.metrics
    tables: list[_Table] = []
    if "variants" in wanted:
        tables.append(_variant_table(report))
    if "seats" in wanted:
        tables.append(_win_rate_table("Win rate by seat (95% Wilson interval)", report.win_rate_by_seat, "seat",
                                      "seat"))
        if "seat_balance" in metrics:
            tables.append(_seat_balance_table(metrics["seat_balance"]))
    if "agents" in wanted:
        tables.append(_win_rate_table("Win rate by agent, over all seats (95% Wilson interval)",
                                      report.win_rate_by_agent, "agent", "agent"))
    if "factions" in wanted:
        tables.extend(_faction_tables(report))
    if "coop" in wanted:
        tables.extend(_coop_tables(report, card_rows))
    if "games" in wanted:
        tables.extend(_length_tables(report.game_length))
        if "game_stats" in metrics:
            tables.append(_game_stats_table(metrics["game_stats"]))
    if "cards" in wanted:
        tables.extend(_card_tables(report.card_table, card_rows))
        if "card_stats" in metrics:
            tables.extend(_card_stats_tables(metrics["card_stats"], card_rows))
    if "deltas" in wanted and "variant_deltas" in metrics:
        tables.extend(_delta_tables(metrics["variant_deltas"], card_rows))
    asked = sections is not None
    if "matrix" in wanted and "agent_matrix" in metrics:
        tables.extend(_matrix_tables(metrics["agent_matrix"], asked and "matrix" in wanted,
                                     ladder_order(metrics.get("agent_cost"))))
    if "skill" in wanted and "skill_movement" in metrics:
        tables.extend(_movement_tables(metrics["skill_movement"], card_rows, asked and "skill" in wanted))
    if "cost" in wanted and "agent_cost" in metrics:
        tables.append(_cost_table(metrics["agent_cost"]))
    if "ratings" in wanted and "agent_ratings" in metrics:
        tables.extend(_ratings_tables(metrics["agent_ratings"], metrics["rating_gaps"], asked and "ratings" in wanted))
    if "tuning" in wanted and "tuning_front" in metrics:
        tables.extend(_tuning_tables(metrics))
    elif "tuning" in wanted and asked:
        tables.append(_notice("Tuning", "not a tuning run: `cardlab tune SPEC` makes one."))
    return tables


def _miss_interval(row: Row) -> str:
    if row.get("miss") is None:
        return "- (a target had no rows)"
    return f"{row['miss']:.3f} [{row['miss_low']:.3f}, {row['miss_high']:.3f}]"


def _value_interval(row: Row) -> str:
    return f"{row['value']:.3g} [{row['low']:.3g}, {row['high']:.3g}]"


def _band_text(row: Row) -> str:
    low = "-inf" if row["band_low"] is None else f"{row['band_low']:.3g}"
    high = "inf" if row["band_high"] is None else f"{row['band_high']:.3g}"
    return f"[{low}, {high}]"


def _tuning_tables(metrics: dict[str, pl.DataFrame]) -> list[_Table]:
    """The tuning section: targets, confirmed candidates and their targets, the trade-off."""
    tables = [_Table(
        title="Tuning: targets (every selected row of the metric view must lie in the band)",
        headers=["target", "metric and band", "weight"], right=[False, False, True],
        rows=[[row["target"], _clip(row["band"], 60), f"{row['weight']:g}"]
              for row in _rows(metrics["tuning_targets"])])]
    candidates = metrics.get("tuning_candidates", pl.DataFrame())
    if candidates.is_empty():
        tables.append(_notice("Tuning: confirmation", "not confirmed yet: `cardlab tune SPEC --resume` finishes it."))
    else:
        games = candidates["games"][0]
        tables.append(_Table(
            title=f"Tuning: confirmed candidates ({games:,} fresh games per player count; joint intervals)",
            headers=["", "trial", "variant", "cost", "miss [interval]", "met", "not met", "undecided"],
            right=[False, True, False, True, False, True, True, True],
            rows=[["ANSWER" if row["answer"] else "", str(row["trial"]), row["variant"], f"{row['cost']:.3f}",
                   _miss_interval(row), str(row["met"]), str(row["not_met"]), str(row["undecided"])]
                  for row in _rows(candidates)],
            notes=["met: the whole interval inside the band; not met: the whole interval outside; ANSWER: the",
                   "cheapest candidate meeting every target (else the lowest miss). Each interval is at the level",
                   "that makes all of a candidate's rows hold together at 95% (Bonferroni). Changes:",
                   *(f"  {row['variant']}: {row['change'] or '(none: the current data)'}"
                     for row in _rows(candidates))]))
        confirmation = metrics["tuning_confirmation"]
        for variant in confirmation["variant"].unique(maintain_order=True).to_list():
            tables.append(_Table(
                title=f"Tuning: confirmed targets of {variant} (the worst row of each target; joint intervals)",
                headers=["target", "worst row", "value [interval]", "band", "verdict"],
                right=[False, False, False, False, False],
                rows=[[_clip(row["target"], 16), _clip(row["worst_row"], 26), _value_interval(row),
                       _band_text(row), row["verdict"]]
                      for row in _rows(confirmation.filter(pl.col("variant") == variant))]))
    front = metrics["tuning_front"]
    shown = front.filter(pl.col("on_front")) if not front.is_empty() else front
    tables.append(_Table(
        title="Tuning: trade-off, change cost against miss (Pareto front of each candidate's latest search look)",
        headers=["trial", "variant", "games", "change", "cost", "miss [interval]"],
        right=[True, False, True, False, True, False],
        rows=[[str(row["trial"]), row["variant"], _count(row["games"]), _clip(row["change"] or "(current data)", 40),
               f"{row['cost']:.3f}", _miss_interval(row)] for row in _rows(shown)],
        notes=[f"{len(shown)} of {len(front)} candidates are on the front (no other is both cheaper and closer),",
               "miss: the targets' weighted miss, point and 95% interval; the search minimises its upper end.",
               "Every look: SELECT * FROM the trials table (analytics.tuning.read_table(folder, 'trials'))."]))
    return tables


def _render_text(report: Report, card_rows: int | None, sections: Sequence[str] | None) -> str:
    header = [f"cardlab report: {report.experiment}", ""]
    header.extend(_clip(f"  {key:<12} {value}", WIDTH) for key, value in _header_lines(report))
    blocks = ["\n".join(header)]
    for table in _sections(report, card_rows, sections):
        blocks.append("\n".join(_clip(line, WIDTH) for line in table.text().splitlines()))
    return "\n\n".join(blocks) + "\n"


def _render_markdown(report: Report, card_rows: int | None, sections: Sequence[str] | None) -> str:
    header = [f"# cardlab report: {report.experiment}", ""]
    header.extend(f"- **{key}**: {value}" for key, value in _header_lines(report))
    tables = [table.markdown() for table in _sections(report, card_rows, sections)]
    return "\n\n".join(["\n".join(header), *tables]) + "\n"


def _json_value(value: Any) -> Any:
    # JSON has no NaN or infinity; a missing rate is null.
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _selected(report: Report, sections: Sequence[str] | None) -> dict[str, pl.DataFrame]:
    frames = report.frames()
    if sections is None:
        return frames
    names = {name for section in sections for name in SECTIONS[section]}
    return {name: frame for name, frame in frames.items() if name in names}


def report_data(report: Report, sections: Sequence[str] | None = None) -> dict[str, Any]:
    """The report as plain JSON-ready data (what the ``json`` format prints)."""
    return {
        "experiment": report.experiment,
        "game": report.game,
        "description": report.description,
        "folder": str(report.folder),
        "games_played": report.games_played,
        "games_planned": report.games_planned,
        "shards_finished": report.shards_finished,
        "spec": report.spec,
        "tables": {
            name: [{key: _json_value(value) for key, value in row.items()} for row in frame.to_dicts()]
            for name, frame in _selected(report, sections).items()
        },
    }


def _render_json(report: Report, card_rows: int | None, sections: Sequence[str] | None) -> str:
    return json.dumps(report_data(report, sections), indent=2) + "\n"


def _render_csv(report: Report, card_rows: int | None, sections: Sequence[str] | None) -> str:
    summary = pl.DataFrame({
        "key": ["experiment", "game", "games_played", "games_planned", "shards_finished", "folder"],
        "value": [report.experiment, report.game, str(report.games_played), str(report.games_planned),
                  str(report.shards_finished), str(report.folder)],
    })
    out = io.StringIO()
    for name, frame in {"summary": summary, **_selected(report, sections)}.items():
        out.write(f"# {name}\n")
        out.write(frame.write_csv())
        out.write("\n")
    return out.getvalue()


_RENDERERS: dict[str, Callable[[Report, int | None, Sequence[str] | None], str]] = {
    "text": _render_text,
    "markdown": _render_markdown,
    "json": _render_json,
    "csv": _render_csv,
}


def render_report(report: Report, fmt: str, *, card_rows: int | None = None,
                  sections: Sequence[str] | None = None) -> str:
    """``report`` as text, Markdown, JSON or CSV (see the module docstring).

    ``card_rows`` limits the text and Markdown card tables to the best and the
    worst ``card_rows`` cards of each variant (default: every card). JSON and
    CSV always hold every row. ``sections`` (names of ``SECTIONS``; default
    all) keeps only those sections, in every format. Raises
    ``UnknownFormatError`` for another ``fmt`` or an unknown section.
    """
    renderer = _RENDERERS.get(fmt)
    if renderer is None:
        raise UnknownFormatError(f"report format {fmt!r}: expected one of {', '.join(FORMATS)}")
    for section in sections or ():
        if section not in SECTIONS:
            raise UnknownFormatError(f"report section {section!r}: expected one of {', '.join(SECTIONS)}")
    return renderer(report, card_rows, sections)
