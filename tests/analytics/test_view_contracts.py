"""Every view's column contract (``dataset.contracts``) holds in every catalog of every game:
its columns and DuckDB types are the view's own, every column is described, and the
catalogs store the descriptions as DuckDB comments.

One small played experiment per registered game and the game kit's example game
(``tests/example_game``), each opened as ``open_catalog`` opens it (the shards'
counts, by default), from the rows (``cached=False``), as the catalog file of
``cardlab catalog`` and as the dashboard's confined SQL catalog.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

from analytics.catalog import open_catalog
from analytics.catalog_file import write_catalog_file
from analytics.sql import open_confined_catalog
from analytics.views import METRIC_VIEW_CONTRACTS, metric_view_sql, reference_markdown, view_contracts
from dataset.contracts import ViewContract
from dataset.count_views import COUNT_VIEW_CONTRACTS, COUNT_VIEWS, Columns
from dataset.schemas import DESCRIPTIONS, TABLES
from experiments.spec import parse_spec
from simcore.api import GameInfo
from simcore.registry import GAMES
from tests.conftest import write_experiment
from tests.example_game import GAME as EXAMPLE_GAME

GAME_IDS = (*sorted(GAMES), EXAMPLE_GAME.info.id)
VIEWS = (*TABLES, *COUNT_VIEW_CONTRACTS, *METRIC_VIEW_CONTRACTS)
Described = dict[str, list[tuple[str, str, str | None]]]
"""A catalog's views as DuckDB describes them: view -> [(column, type, comment)], and the view's
own comment under ``(view, "")``'s first entry (see ``_described``)."""


def _info(game_id: str) -> GameInfo:
    return EXAMPLE_GAME.info if game_id == EXAMPLE_GAME.info.id else GAMES[game_id].info


@dataclass(frozen=True)
class Catalogs:
    """Each game's views as each kind of catalog describes them."""

    columns: dict[tuple[str, str], Described]
    view_comments: dict[tuple[str, str], dict[str, str | None]]


CATALOGS: dict[str, Callable[[Path], duckdb.DuckDBPyConnection]] = {
    "open_catalog": lambda folder: open_catalog(folder, comments=True),
    "rows": lambda folder: open_catalog(folder, cached=False, comments=True),
    "catalog file": lambda folder: duckdb.connect(str(write_catalog_file(folder / "catalog.duckdb", [folder])),
                                                  read_only=True),
    "confined": open_confined_catalog,
}
"""How each kind of catalog is opened on an experiment folder."""


def _described(con: duckdb.DuckDBPyConnection) -> tuple[Described, dict[str, str | None]]:
    """Every view's columns with their types and comments, and each view's comment, as the
    catalog holds them (``duckdb_columns()``: what ``describe_view`` and the SQL page's schema
    browser show; every view is bound by then, since commenting a column binds its view)."""
    views = dict(con.execute("SELECT view_name, comment FROM duckdb_views() WHERE NOT internal "
                             "UNION ALL SELECT table_name, comment FROM duckdb_tables()").fetchall())
    columns: Described = {view: [] for view in VIEWS if view in views}
    for view, name, kind, comment in con.execute(
            "SELECT table_name, column_name, data_type, comment FROM duckdb_columns() "
            "ORDER BY table_name, column_index").fetchall():
        if view in columns:
            columns[view].append((name, kind, comment))
    return columns, views


@pytest.fixture(scope="module")
def catalogs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalogs]:
    """A small experiment of every game (two player counts, a second variant on the
    baseline's seeds), described by every kind of catalog."""
    root = tmp_path_factory.mktemp("contracts")
    columns: dict[tuple[str, str], Described] = {}
    view_comments: dict[tuple[str, str], dict[str, str | None]] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(GAMES, EXAMPLE_GAME.info.id, EXAMPLE_GAME)  # the example game is not registered
        for game_id in GAME_IDS:
            info = _info(game_id)
            spec = parse_spec({"name": f"contract_{game_id}", "game": game_id, "games": 8, "shard_size": 4,
                               "player_counts": sorted({info.min_players, info.max_players}),
                               "agents": ["random"], "variants": {"again": {}}, "paired_seeds": True},
                              f"contract test ({game_id})")
            folder = write_experiment(spec, root)
            for kind, connect in CATALOGS.items():
                con = connect(folder)
                try:
                    columns[game_id, kind], view_comments[game_id, kind] = _described(con)
                finally:
                    con.close()
        yield Catalogs(columns, view_comments)


def _contract(view: str, game_id: str) -> ViewContract:
    return view_contracts([_info(game_id)])[view]


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("view", VIEWS)
def test_the_view_has_exactly_the_columns_and_types_of_its_contract_in_every_catalog(
        catalogs: Catalogs, view: str, game_id: str) -> None:
    expected = [(column.name, column.type) for column in _contract(view, game_id).columns]
    for kind in CATALOGS:
        actual = [(name, kind_of) for name, kind_of, _ in catalogs.columns[game_id, kind][view]]
        assert actual == expected, f"{view} in the {kind} catalog of {game_id}"


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("view", VIEWS)
def test_the_view_and_each_of_its_columns_have_a_description(view: str, game_id: str) -> None:
    contract = _contract(view, game_id)
    assert contract.description.strip(), view
    undescribed = [column.name for column in contract.columns if not column.description.strip()]
    assert undescribed == [], f"{view} of {game_id}: columns without a description"


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("kind", CATALOGS)
def test_the_catalog_holds_each_description_as_the_comment_of_its_view_or_column(
        catalogs: Catalogs, kind: str, game_id: str) -> None:
    contracts = view_contracts([_info(game_id)])
    for view, described in catalogs.columns[game_id, kind].items():
        assert catalogs.view_comments[game_id, kind][view] == contracts[view].description, view
        assert [comment for _, _, comment in described] == [
            column.description for column in contracts[view].columns], view


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_game_describes_each_of_its_own_columns_and_no_other(game_id: str) -> None:
    info = _info(game_id)
    own = {*info.game_columns, *info.player_columns, *info.card_counters}
    assert set(info.column_descriptions) == own
    assert all(text.strip() for text in info.column_descriptions.values())
    assert not own & {name for table in DESCRIPTIONS.values() for name in table}  # a fixed column is not the game's


def test_each_count_views_contract_lists_its_key_columns_then_its_additive_columns() -> None:
    assert list(COUNT_VIEW_CONTRACTS) == list(COUNT_VIEWS)
    for view, (keys, additive) in COUNT_VIEWS.items():
        assert COUNT_VIEW_CONTRACTS[view].names() == (*keys, *additive), view


def test_the_metric_view_contracts_are_the_views_register_metric_views_creates_in_order() -> None:
    assert list(METRIC_VIEW_CONTRACTS) == list(metric_view_sql(Columns(frozenset(), frozenset())))


def test_the_views_reference_lists_every_view_and_every_column_of_every_game_with_its_description() -> None:
    text = reference_markdown()
    rows = set(re.findall(r"^\| (?:`(\w+)` \| )?`(\w+)` \| `([A-Z\[\]]+)` \| (.*) \|$", text, re.MULTILINE))
    headers = re.findall(r"^### `(\w+)`$", text, re.MULTILINE)
    assert sorted(headers) == sorted(VIEWS)  # each view once
    for game in GAMES.values():
        for view, contract in view_contracts([game.info]).items():
            for column in contract.columns:
                in_own_table = view in TABLES and column.name not in DESCRIPTIONS[view]
                row = (view if in_own_table else "", column.name, column.type, column.description.replace("|", "\\|"))
                assert row in rows, (game.info.id, view, column.name)
