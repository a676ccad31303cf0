"""The views reference as Markdown: every view and column with its description, grouped by
what a reader looks for (``analytics.views.reference_markdown``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dataset.contracts import Column, ViewContract
from dataset.schemas import DESCRIPTIONS, TABLES, table_contract
from simcore.api import GameInfo


@dataclass(frozen=True)
class Section:
    """A group of views a reader looks at together."""

    title: str
    introduction: str
    views: tuple[str, ...]


ROWS = Section(
    "The rows: games, players, cards",
    "The results as they were played: one row per game, per seat of a game, and per card a seat touched. Join them "
    "on `experiment, variant, n_players, game_index`. Each game adds its own columns after the fixed ones.",
    TABLES)

SECTIONS = (
    Section("Seats", "Is a seat favoured? Competitive games only: in a cooperative game every seat shares the "
            "outcome, and the seat rates are NULL.", ("seat_stats", "seat_balance", "seat_totals")),
    Section("Agents", "Each agent's win rate over the seats it held.", ("agent_stats",)),
    Section("Factions", "Ring of Chaos parties and Party Wanted hero classes, against the win rate a faction would "
            "have if none were favoured.", ("faction_stats", "faction_spread", "matchups")),
    Section("Cooperative games", "When the party shares one outcome (Party Wanted), the game is the unit: how "
            "often the party wins, with which classes, how far it gets.",
            ("experiment_modes", "party_size_stats", "composition_stats", "class_effects", "run_stats")),
    Section("Cards", "Per agent, never a pool of different players; seat-games clustered by game. The in-hand "
            "and played win rates are correlational: what holding or playing a card goes with, not what it "
            "causes.", ("card_stats", "card_faction_stats", "card_turn_stats")),
    Section("Game length and endings", "How long games last and how they end; the game is the unit.",
            ("game_stats", "end_reason_stats", "turn_distribution")),
    Section("Game design", "How decisive games are, how the lead moves, how much the deal decides and how much "
            "skill pays; the methods page defines each metric and gives its source.",
            ("decisiveness", "margin_distribution", "lead_stats", "seed_influence", "skill_depth")),
    Section("Variants against the baseline", "Every rate and mean of a variant against the baseline's, with the "
            "difference's interval and a test.", ("variant_deltas",)),
    Section("Card impact", "A card impact run (an `[impact]` table) plays each card against its neutral stand-in on "
            "the same deals (`card_impact`: causal, per holder) and with one copy fewer on deals of its own "
            "(`card_removal`: what the removal changes for every seat and game; no holder-level impact). Empty "
            "for other experiments.",
            ("card_impact", "card_impact_factions", "card_impact_seats", "card_impact_vs_gih", "card_removal")),
    Section("Counts", "The additive counts the metric views read: an experiment's counts are the sums of its "
            "shards' (each shard's task writes them), which keeps the metric views fast on millions of games.",
            ("seat_counts", "agent_counts", "faction_counts", "matchup_counts", "team_counts", "card_counts",
             "card_turn_counts", "run_counts", "game_counts", "lead_counts")),
)
"""The sections after ``ROWS``, in reading order; together they hold every count and metric view."""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _table(columns: Sequence[Column]) -> list[str]:
    """A Markdown table of ``columns``."""
    lines = ["| column | type | description |", "|---|---|---|"]
    lines += [f"| `{column.name}` | `{column.type}` | {_cell(column.description)} |" for column in columns]
    return lines


def _view(view: ViewContract, columns: Sequence[Column] | None = None) -> list[str]:
    return [f"### `{view.name}`", "", view.description, "", *_table(view.columns if columns is None else columns), ""]


def render_reference(game_infos: Sequence[GameInfo], count_views: Mapping[str, ViewContract],
                     metric_views: Mapping[str, ViewContract]) -> str:
    """The reference of the base views (their fixed columns, then each of ``game_infos``'
    own), and of every count and metric view by ``SECTIONS``."""
    lines = ["# Views reference", "",
             "Every view of `cardlab sql`, of the catalog file and of `open_catalog`, column by column. The same "
             "descriptions are in DuckDB: `FROM describe_view('card_stats')`, or `duckdb_columns()`.", "",
             f"## {ROWS.title}", "", ROWS.introduction, ""]
    if game_infos:
        for table in ROWS.views:
            view = table_contract(table, game_infos[0])
            lines += _view(view, [column for column in view.columns if column.name in DESCRIPTIONS[table]])
        lines += ["### Each game's own columns", ""]
        for info in game_infos:
            lines += [f"#### {info.name} (`{info.id}`)", "", "| view | column | type | description |",
                      "|---|---|---|---|"]
            for table in ROWS.views:
                lines += [f"| `{table}` | `{column.name}` | `{column.type}` | {_cell(column.description)} |"
                          for column in table_contract(table, info).columns if column.name not in DESCRIPTIONS[table]]
            lines.append("")
    views = {**count_views, **metric_views}
    for section in SECTIONS:
        lines += [f"## {section.title}", "", section.introduction, ""]
        for name in section.views:
            lines += _view(views[name])
    return "\n".join(lines).rstrip("\n") + "\n"
