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
  ``game_length``, ``card_table``).
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from analytics.catalog import AnalyticsError, open_catalog, read_manifest, read_spec
from analytics.metrics import card_table, game_length, win_rate_by_agent, win_rate_by_seat

FORMATS = ("text", "markdown", "json", "csv")
TABLE_NAMES = ("variants", "win_rate_by_seat", "win_rate_by_agent", "game_length", "card_table")
WIDTH = 100


class UnknownFormatError(AnalyticsError, ValueError):
    """An output format that is not offered."""


@dataclass(frozen=True)
class Report:
    """Everything ``render_report`` shows for one experiment.

    ``variants`` has one row per variant of the spec (baseline first): variant,
    games (games played, over all player counts) and overrides (the dotted-path
    overrides as text). The other frames are the metrics of the same names.
    """

    experiment: str
    game: str
    description: str
    folder: Path
    spec: dict[str, Any]
    games_played: int
    games_planned: int
    shards_finished: int
    variants: pl.DataFrame
    win_rate_by_seat: pl.DataFrame
    win_rate_by_agent: pl.DataFrame
    game_length: pl.DataFrame
    card_table: pl.DataFrame
    tables: tuple[str, ...] = field(default=TABLE_NAMES)

    def frames(self) -> dict[str, pl.DataFrame]:
        """The report's tables by name, in report order."""
        return {name: getattr(self, name) for name in self.tables}


def _override_text(overrides: Any) -> str:
    if not isinstance(overrides, dict) or not overrides:
        return "(game defaults)"
    return ", ".join(f"{path} = {json.dumps(value)}" for path, value in overrides.items())


def build_report(experiment_dir: Path) -> Report:
    """Compute every metric of the experiment in ``experiment_dir`` (see the module docstring).

    Raises ``NoResultsError`` (an ``AnalyticsError``) if no shard has finished.
    """
    spec = read_spec(experiment_dir)
    con = open_catalog(experiment_dir)
    try:
        seats = win_rate_by_seat(con)
        agents = win_rate_by_agent(con)
        lengths = game_length(con)
        cards = card_table(con)
    finally:
        con.close()
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
    planned = (per_variant * len(player_counts) * len(spec_variants)
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

        body = [self.title, *(f"  {note}" for note in self.notes), line(self.headers)]
        body.extend(line(row) for row in self.rows)
        return "\n".join(body)

    def markdown(self) -> str:
        def line(cells: Sequence[str]) -> str:
            return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

        body = [f"## {self.title}", ""]
        if self.notes:
            body.extend([*self.notes, ""])
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


def _sections(report: Report, card_rows: int | None) -> list[_Table]:
    return [
        _variant_table(report),
        _win_rate_table("Win rate by seat (95% Wilson interval)", report.win_rate_by_seat, "seat", "seat"),
        _win_rate_table("Win rate by agent, over all seats (95% Wilson interval)", report.win_rate_by_agent,
                        "agent", "agent"),
        *_length_tables(report.game_length),
        *_card_tables(report.card_table, card_rows),
    ]


def _render_text(report: Report, card_rows: int | None) -> str:
    header = [f"cardlab report: {report.experiment}", ""]
    header.extend(_clip(f"  {key:<12} {value}", WIDTH) for key, value in _header_lines(report))
    blocks = ["\n".join(header)]
    for table in _sections(report, card_rows):
        blocks.append("\n".join(_clip(line, WIDTH) for line in table.text().splitlines()))
    return "\n\n".join(blocks) + "\n"


def _render_markdown(report: Report, card_rows: int | None) -> str:
    header = [f"# cardlab report: {report.experiment}", ""]
    header.extend(f"- **{key}**: {value}" for key, value in _header_lines(report))
    return "\n\n".join(["\n".join(header), *(table.markdown() for table in _sections(report, card_rows))]) + "\n"


def _json_value(value: Any) -> Any:
    # JSON has no NaN or infinity; a missing rate is null.
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def report_data(report: Report) -> dict[str, Any]:
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
            for name, frame in report.frames().items()
        },
    }


def _render_json(report: Report, card_rows: int | None) -> str:
    return json.dumps(report_data(report), indent=2) + "\n"


def _render_csv(report: Report, card_rows: int | None) -> str:
    summary = pl.DataFrame({
        "key": ["experiment", "game", "games_played", "games_planned", "shards_finished", "folder"],
        "value": [report.experiment, report.game, str(report.games_played), str(report.games_planned),
                  str(report.shards_finished), str(report.folder)],
    })
    out = io.StringIO()
    for name, frame in {"summary": summary, **report.frames()}.items():
        out.write(f"# {name}\n")
        out.write(frame.write_csv())
        out.write("\n")
    return out.getvalue()


_RENDERERS: dict[str, Callable[[Report, int | None], str]] = {
    "text": _render_text,
    "markdown": _render_markdown,
    "json": _render_json,
    "csv": _render_csv,
}


def render_report(report: Report, fmt: str, *, card_rows: int | None = None) -> str:
    """``report`` as text, Markdown, JSON or CSV (see the module docstring).

    ``card_rows`` limits the text and Markdown card tables to the best and the
    worst ``card_rows`` cards of each variant (default: every card). JSON and
    CSV always hold every row. Raises ``UnknownFormatError`` for another ``fmt``.
    """
    renderer = _RENDERERS.get(fmt)
    if renderer is None:
        raise UnknownFormatError(f"report format {fmt!r}: expected one of {', '.join(FORMATS)}")
    return renderer(report, card_rows)
