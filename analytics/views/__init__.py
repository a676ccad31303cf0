"""The balance metrics as DuckDB views, defined once for SQL, Python and the report.

``register_metric_views(con)`` defines, on a connection that already has the
base views ``games``, ``players`` and ``cards`` (``analytics.catalog``), one
view per metric table. ``analytics.metrics`` reads them into Polars,
``cardlab report`` prints them and ``cardlab sql`` (or the plain ``duckdb``
client on a catalog file, ``analytics.catalog_file``) queries them. Every
view starts with ``experiment, variant, n_players`` so the same SQL works over
one experiment or all of them; a game is identified by (experiment, variant,
n_players, game_index). Nothing here knows a game by name: the only
per-game input is which optional columns exist (card counters such as
``in_opening_hand``, ``drawn``, ``played``, ``playable``; the games columns
``legal_actions``, ``level_reached``, ``wipes``).

One module per view or small family, each view's SQL beside its column
contract (``dataset.contracts``: every column's name, DuckDB type and
description): ``modes``, ``seats``, ``agents``, ``factions``, ``cooperative``,
``cards``, ``games``, ``design``, ``deltas``, ``impact`` (a card impact run's arms);
the SQL pieces they share in ``shared``, the
bands they flag by in ``thresholds``. ``comment_views`` stores the
descriptions in DuckDB (``COMMENT ON``), ``reference_markdown`` renders them
for the documentation.

Two layers: the *count views* (``dataset.count_views``) are additive aggregates of
the rows, and the metric views read only them (``variant_deltas`` also reads
the rows for the paired tests; ``seed_influence`` the deals of ``deal_replays``,
``skill_depth`` the tables that seat the random agent). So the report can count each shard once,
cache the counts and add them up (``analytics.partials``) instead of
scanning every row each time.

Every metric, its formula, its unit of evidence and when it is flagged is
defined once, in ``analytics/README.md`` ("Metrics"). In short:

- the unit of evidence is the **game**. A rate over seat-games (an agent at
  several seats, a card in several hands, a faction, a cooperative party)
  carries a *clustered* interval: the count views keep, per rate, the sums
  over games of ``n_g``, ``w_g``, ``n_g²``, ``w_g²`` and ``n_g·w_g``, from
  which ``clustered_n`` (``analytics.stats.clustered_effective_n``) gives the
  effective number of independent trials and the Wilson interval is taken
  at that size (``<rate>_effective_n``, ``<rate>_low``, ``<rate>_high``);
- card tables are per agent (the agent holding the seat), never a pool of
  different players;
- in a cooperative experiment (no game where some seats win and others
  lose; ``experiment_modes``) seat tests are left out and every rate counts
  games.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from analytics.views import agents, cards, cooperative, deltas, design, factions, games, impact, modes, seats
from analytics.views.comments import DESCRIBE_VIEW_MACRO, base_contracts, comment_statements
from analytics.views.reference import render_reference
from analytics.views.thresholds import (
    CARD_BAND,
    CARD_MIN_EXPECTED,
    FACTION_BAND,
    NEVER_PLAYED,
    OUTLIER_POINTS,
    OUTLIER_Z,
    SIGNIFICANCE,
    TURN_CAP_REASONS,
)
from dataset.contracts import ViewContract
from dataset.count_views import COUNT_VIEW_CONTRACTS, Columns, count_view_sql
from simcore.api import GameInfo
from simcore.registry import GAMES

__all__ = [
    "CARD_BAND", "CARD_MIN_EXPECTED", "FACTION_BAND", "MATERIALIZED_VIEWS", "METRIC_VIEWS", "METRIC_VIEW_CONTRACTS",
    "NEVER_PLAYED", "OUTLIER_POINTS", "OUTLIER_Z", "SIGNIFICANCE", "TURN_CAP_REASONS", "comment_views",
    "metric_view_sql", "reference_markdown", "refresh_materialized_views", "register_metric_views", "view_contracts",
]

METRIC_VIEWS = (
    "experiment_modes", "seat_stats", "seat_balance", "agent_stats", "faction_stats", "faction_spread", "matchups",
    "party_size_stats", "composition_stats", "class_effects", "run_stats", "seat_totals", "card_stats",
    "card_faction_stats", "card_turn_stats", "game_stats", "end_reason_stats", "turn_distribution",
    "decisiveness", "margin_distribution", "lead_stats", "seed_influence", "skill_depth", "variant_deltas",
    "card_impact", "card_impact_factions", "card_impact_seats", "card_impact_vs_gih", "card_removal",
    "seat_counts", "agent_counts", "faction_counts", "matchup_counts", "team_counts", "card_counts",
    "card_turn_counts", "run_counts", "game_counts", "lead_counts",
)
"""Every view ``register_metric_views`` creates: the metric views, then the count views."""

METRIC_VIEW_CONTRACTS: dict[str, ViewContract] = {view.name: view for view in (
    modes.EXPERIMENT_MODES_CONTRACT, seats.SEAT_STATS_CONTRACT, seats.SEAT_BALANCE_CONTRACT,
    agents.AGENT_STATS_CONTRACT, factions.FACTION_STATS_CONTRACT, factions.FACTION_SPREAD_CONTRACT,
    factions.MATCHUPS_CONTRACT, cooperative.PARTY_SIZE_STATS_CONTRACT, cooperative.COMPOSITION_STATS_CONTRACT,
    cooperative.CLASS_EFFECTS_CONTRACT, cooperative.RUN_STATS_CONTRACT, seats.SEAT_TOTALS_CONTRACT,
    cards.CARD_STATS_CONTRACT, cards.CARD_FACTION_STATS_CONTRACT, cards.CARD_TURN_STATS_CONTRACT,
    games.GAME_STATS_CONTRACT, games.END_REASON_STATS_CONTRACT, games.TURN_DISTRIBUTION_CONTRACT,
    design.DECISIVENESS_CONTRACT, design.MARGIN_DISTRIBUTION_CONTRACT, design.LEAD_STATS_CONTRACT,
    design.SEED_INFLUENCE_CONTRACT, design.SKILL_DEPTH_CONTRACT, deltas.VARIANT_DELTAS_CONTRACT,
    *impact.IMPACT_VIEW_CONTRACTS,
)}
"""Each metric view's contract, in the order ``metric_view_sql`` creates them."""


def metric_view_sql(columns: Columns, paired: bool | None = None, cached_pairs: bool = False) -> dict[str, str]:
    """The ``SELECT`` of every metric view, by view name, in dependency order.

    They read the count views (``count_view_sql``); ``variant_deltas`` also
    reads ``games`` and ``players`` for the paired tests. ``paired`` tells it
    whether the variants were played on the baseline's seeds: ``None`` finds
    out from the data (seed-matched games), ``False`` skips the pairing joins
    (faster when known). With ``cached_pairs`` it reads its paired sums from the tables
    the caller made (``analytics.partials``) instead of pairing the rows.
    """
    return {
        "experiment_modes": modes.EXPERIMENT_MODES,
        "seat_stats": seats.SEAT_STATS,
        "seat_balance": seats.seat_balance(),
        "agent_stats": agents.AGENT_STATS,
        "faction_stats": factions.FACTION_STATS,
        "faction_spread": factions.FACTION_SPREAD,
        "matchups": factions.MATCHUPS,
        "party_size_stats": cooperative.PARTY_SIZE_STATS,
        "composition_stats": cooperative.COMPOSITION_STATS,
        "class_effects": cooperative.CLASS_EFFECTS,
        "run_stats": cooperative.RUN_STATS,
        "seat_totals": seats.SEAT_TOTALS,
        "card_stats": cards.card_stats_sql(),
        "card_faction_stats": cards.card_faction_stats_sql(columns),
        "card_turn_stats": cards.CARD_TURN_STATS,
        "game_stats": games.game_stats(),
        "end_reason_stats": games.END_REASON_STATS,
        "turn_distribution": games.TURN_DISTRIBUTION,
        "decisiveness": design.decisiveness(),
        "margin_distribution": design.MARGIN_DISTRIBUTION,
        "lead_stats": design.LEAD_STATS,
        "seed_influence": design.SEED_INFLUENCE,
        "skill_depth": design.skill_depth(),
        "variant_deltas": deltas.variant_deltas(paired, columns, cached_pairs),
        **impact.impact_view_sql(columns),
    }


MATERIALIZED_VIEWS = ("experiment_modes", "seat_stats", "agent_stats", "faction_stats", "party_size_stats",
                      "seat_totals", "card_stats", "game_stats")
"""Metric views that other views read several times (``variant_deltas`` joins
each to itself); ``register_metric_views(materialize=True)`` computes them once."""


def register_metric_views(con: duckdb.DuckDBPyConnection, *, counts: bool = True,
                          paired: bool | None = None, materialize: bool = False,
                          defer_binding: bool = True, cached_pairs: bool = False) -> None:
    """Create the count views and every metric view on ``con`` (which has ``games``, ``players``, ``cards``).

    With ``counts=False`` the count views are left to the caller (who has
    created them as tables, e.g. from cached per-shard counts; see
    ``analytics.partials``); with ``cached_pairs`` the paired sums of ``variant_deltas``
    too (``analytics.views.deltas.PAIRED_SUMS``). With ``materialize`` the views of
    ``MATERIALIZED_VIEWS`` are computed once into temporary tables (the
    results must not change while ``con`` is open: the report's cached counts).

    With ``defer_binding`` (the default) DuckDB checks each view's syntax now
    and binds it when a query first reads it: binding every view at creation
    took about a second of CPU per catalog opened (``card_stats``,
    ``card_faction_stats`` and ``variant_deltas`` most of it), paid by every
    ``cardlab sql`` query and dashboard session whatever few views they read.
    A query binds the views it reads either way, so the answers are the same;
    ``False`` binds (and so checks) every view at once (the catalog file).
    """
    columns = Columns.of(con)
    create = "CREATE OR REPLACE VIEW {name} WITH (DEFER_BINDING) AS {query}" if defer_binding else \
        "CREATE OR REPLACE VIEW {name} AS {query}"
    if counts:
        for name, query in count_view_sql(columns).items():
            con.execute(create.format(name=name, query=query))
    if materialize:
        # What each temporary table was computed from, so that it can be computed
        # again when the interval macros change (``refresh_materialized_views``).
        con.execute("CREATE OR REPLACE TEMP TABLE _materialized (position INTEGER, name VARCHAR, query VARCHAR)")
    for position, (name, query) in enumerate(metric_view_sql(columns, paired, cached_pairs).items()):
        if materialize and name in MATERIALIZED_VIEWS:
            con.execute(f"CREATE OR REPLACE TEMP TABLE _{name} AS {query}")
            con.execute("INSERT INTO _materialized VALUES (?, ?, ?)", [position, name, query])
            query = f"SELECT * FROM _{name}"
        con.execute(create.format(name=name, query=query))


def refresh_materialized_views(con: duckdb.DuckDBPyConnection) -> None:
    """Compute the temporary tables of ``register_metric_views(materialize=True)``
    again, in the order they were made: after the SQL macros they use changed
    (``analytics.tuning.use_confidence`` sets the Wilson macros' level). No-op
    on a connection without them."""
    exists = con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = '_materialized' "
                         "AND temporary").fetchone()
    if not exists or not exists[0]:
        return
    for name, query in con.execute("SELECT name, query FROM _materialized ORDER BY position").fetchall():
        con.execute(f"CREATE OR REPLACE TEMP TABLE _{name} AS {query}")


def view_contracts(game_infos: Sequence[GameInfo]) -> dict[str, ViewContract]:
    """Every view's contract for results of the games ``game_infos``, by name: the base
    views (their columns those of the games' tables), the count views, the metric views."""
    return {**base_contracts(game_infos), **COUNT_VIEW_CONTRACTS, **METRIC_VIEW_CONTRACTS}


def comment_views(con: duckdb.DuckDBPyConnection, game_infos: Sequence[GameInfo], *, metrics: bool = True) -> None:
    """Store every view's description and its columns' in DuckDB (``COMMENT ON``): what
    ``duckdb_views()``, ``duckdb_columns()`` and ``describe_view('name')`` show.

    ``con`` holds the base views and, with ``metrics``, the count and metric views
    (``register_metric_views``, or count tables). The base views' columns are read
    from ``con`` (older results may lack a column; several games add theirs) and
    described from the fixed schemas and ``game_infos``' declarations. Commenting a
    view binds it (DuckDB needs its columns): about a third of a second of CPU for
    every view of a catalog, which is why the callers that only compute skip this.
    """
    contracts = [*base_contracts(game_infos, con).values()]
    if metrics:
        contracts += [*COUNT_VIEW_CONTRACTS.values(), *METRIC_VIEW_CONTRACTS.values()]
    tables = {name for (name,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    statements = [DESCRIBE_VIEW_MACRO, *comment_statements(contracts, tables)]
    con.execute("BEGIN TRANSACTION")
    try:
        for statement in statements:
            con.execute(statement)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def reference_markdown() -> str:
    """Every view and column with its description, as Markdown grouped by what a reader
    looks for (the documentation's views reference); the game-specific columns of
    ``games``, ``players`` and ``cards`` per registered game."""
    return render_reference([game.info for game in GAMES.values()], COUNT_VIEW_CONTRACTS, METRIC_VIEW_CONTRACTS)
