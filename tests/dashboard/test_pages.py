"""Every dashboard page, run headless with Streamlit's AppTest on a tiny real
experiment of each game: no exception, and the numbers in the page's tables
equal what ``analytics`` computes."""

from __future__ import annotations

import functools
import io
import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from streamlit.testing.v1 import AppTest

from analytics import explore, metrics
from analytics.catalog import open_catalog
from analytics.changes import faces_frame
from analytics.compare import compare_rates
from analytics.folders import read_spec
from analytics.replay import events_between, moments_of_turn, replay_game, turns_of
from analytics.report import Report, build_report
from analytics.sensitivity import games_to_tell
from analytics.skill import agent_cost, agent_matrix, variant_rules
from analytics.sql import frame_csv
from analytics.stats import CLUSTER_CAP, benjamini_hochberg, shows_no_spread
from analytics.views import CARD_MIN_EXPECTED, view_contracts
from dashboard.changes import RATE_METRICS
from dashboard.common import RATE_TRIALS
from dashboard.evidence import delta_words
from dataset.storage import MANIFEST_FOLDER
from simcore.describe import card_name
from simcore.registry import GAMES
from tests.analytics.replay_helpers import hands_after_every_action
from tests.dashboard.conftest import CUTS, GAME_OF, Results

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"
TIMEOUT = 60  # seconds; the first run imports Polars, DuckDB and Altair
ALL = [name for name in CUTS if name != "skill_tiny"]  # the skill ladder has its own tests below


def open_page(results: Results, experiment: str | None, page: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """Run ``dashboard/pages/<page>.py`` through the entry script with ``experiment`` chosen."""
    monkeypatch.setenv("CARDLAB_RESULTS", str(results.root))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    if experiment is not None:
        at.session_state["experiment"] = experiment
    at.switch_page(f"pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def open_link(results: Results, page: str, params: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """Open ``dashboard/pages/<page>.py`` as a shared link ``/<page>?key=value&...`` opens it:
    the first run of the session sees the address."""
    monkeypatch.setenv("CARDLAB_RESULTS", str(results.root))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params.update(params)
    at.run()
    at.switch_page(f"pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def chart_data(chart: object) -> pl.DataFrame:
    """Every row of data a Vega-Lite chart of the page draws (its datasets, stacked)."""
    import pyarrow as pa

    frames = [pl.from_arrow(pa.ipc.open_stream(dataset.data.data).read_all())
              for dataset in chart.proto.datasets]  # type: ignore[attr-defined]
    return pl.concat([frame for frame in frames if isinstance(frame, pl.DataFrame)], how="diagonal_relaxed")


def chart_title(chart: object) -> str:
    """A chart's title, its lines (a long title is cut into lines that fit) joined by spaces."""
    title = json.loads(chart.proto.spec)["title"]  # type: ignore[attr-defined]
    text = title["text"] if isinstance(title, dict) else title
    return " ".join(text) if isinstance(text, list) else str(text)


def shown(at: AppTest, index: int) -> pl.DataFrame:
    """The ``index``-th st.dataframe of the page, back as Polars."""
    return pl.from_pandas(at.dataframe[index].value)


def last_deltas(at: AppTest) -> tuple[pl.DataFrame | None, pl.DataFrame | None]:
    """(rates, means) of the page's last table of differences (``dashboard.changes.show_deltas``:
    rates in %, then means per game in their unit, the page's last tables); None for a part
    the page does not show."""
    def is_deltas(index: int, rates: bool) -> bool:
        return index >= 0 and "what" in shown(at, index).columns and "value" in shown(at, index).columns and (
            formats(at, index)["baseline_value"] == "percent") == rates
    index = len(at.dataframe) - 1
    means = shown(at, index) if is_deltas(index, rates=False) else None
    index -= means is not None
    return (shown(at, index) if is_deltas(index, rates=True) else None), means


@functools.cache  # the experiments are read-only: one catalog per experiment for the module's tests
def catalog(results: Results, name: str) -> duckdb.DuckDBPyConnection:
    """The experiment's catalog, as the analytics layer opens it."""
    return open_catalog(results.folder(name))


def computed(results: Results, name: str, use: Callable[[duckdb.DuckDBPyConnection], pl.DataFrame]) -> pl.DataFrame:
    """``use(con)`` on the experiment's catalog, as the analytics layer computes it."""
    return use(catalog(results, name))


def first(frame: pl.DataFrame, column: str) -> Any:
    """The value a page preselects: the first in frame order (variants) or the smallest (player counts)."""
    return frame[column].min() if column == "n_players" else frame[column][0]


def unsampled_blank(frame: pl.DataFrame) -> pl.DataFrame:
    """What a page shows of a metric table: the interval of a rate without a value (no
    sample: a card never in hand, a power never used) blank, not the view's (0, 1)."""
    rates = [column.removesuffix("_low") for column in frame.columns
             if column.endswith("_low") and column.removesuffix("_low") in frame.columns]
    # And the effective n of a rate whose games show no spread: a cap, not a sample size.
    capped = [(f"{rate}_effective_n", trials) for rate, trials in RATE_TRIALS.items()
              if f"{rate}_effective_n" in frame.columns and trials in frame.columns]
    return frame.with_columns(
        *[pl.when(pl.col(rate).is_not_null()).then(pl.col(f"{rate}{end}")).alias(f"{rate}{end}")
          for rate in rates for end in ("_low", "_high")],
        *[pl.when(pl.col(effective) < CLUSTER_CAP * pl.col(trials)).then(pl.col(effective)).alias(effective)
          for effective, trials in capped])


POINTS = ("iwd", "deviation", "effect", "used_effect")
"""Columns that every page shows in percentage points: differences of two rates."""
DELTAS = ("delta", "delta_low", "delta_high")


def as_shown(frame: pl.DataFrame, points: Sequence[str] = ()) -> pl.DataFrame:
    """A metric table as a page's table holds it: the differences of rates (``POINTS`` and
    ``points``) in percentage points, a float sample size (an effective n) rounded to a whole
    number like the counts beside it."""
    return frame.with_columns(
        *[pl.col(name) * 100 for name in (*POINTS, *points) if name in frame.columns],
        *[pl.col(name).round(0) for name, dtype in frame.schema.items() if dtype.is_float() and name.endswith("_n")])


def same(left: pl.DataFrame, right: pl.DataFrame) -> None:
    """Equal tables, ignoring dtypes (Pandas round trip) and float noise."""
    assert_frame_equal(left, right, check_dtypes=False, rel_tol=1e-9)


def test_the_experiments_page_lists_every_experiment_with_status_games_and_size(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, None, "experiments", monkeypatch)
    expected = explore.experiment_overview(results.root)
    assert expected["experiment"].to_list() == sorted(CUTS)
    assert set(expected["status"]) == {"finished"}
    columns = ["experiment", "game", "status", "games_done", "games_planned", "progress", "variants",
               "shards_done", "size_bytes"]
    same(shown(at, 0).select(columns), expected.select(columns))
    assert expected.filter(pl.col("experiment") == "sweep_tiny")["variants"][0] == 5  # baseline + 2x2 grid
    assert (expected["games_done"] == expected["games_planned"]).all()


def test_the_experiments_page_tells_running_and_incomplete_runs_apart(
        results: Results, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("divvy_tiny", "ring_tiny"):
        shutil.copytree(results.folder(name), tmp_path / name)
    (tmp_path / "divvy_tiny" / MANIFEST_FOLDER / "four_rounds-2p-0000000020.json").unlink()
    (tmp_path / "ring_tiny" / MANIFEST_FOLDER / "labyrinth-4p-0000000000.json").unlink()
    (tmp_path / "ring_tiny" / "run.json").write_text(json.dumps({"status": "running", "started": 1.0e9}))
    (tmp_path / "ring_tiny" / ".lock").write_text("1 host")
    at = open_page(Results(tmp_path), None, "experiments", monkeypatch)
    table = shown(at, 0)
    assert table["status"].to_list() == ["incomplete", "running"]
    assert table["games_done"].to_list() == [60, 48]
    assert table["progress"].to_list() == [60 / 80, 48 / 64]
    assert "1 running" in at.caption[0].value


@functools.cache  # built once per experiment for the module's tests (a report is not changed by its readers)
def report_of(results: Results, name: str) -> Report:
    """The experiment's report, as the pages compute it."""
    return build_report(results.folder(name))


def labels(at: AppTest, index: int) -> dict[str, str]:
    """Column -> the label the ``index``-th table shows (from its column config)."""
    config = json.loads(at.dataframe[index].proto.columns)
    return {name: entry["label"] for name, entry in config.items() if "label" in entry}


def formats(at: AppTest, index: int) -> dict[str, str | None]:
    """Column -> the number format the ``index``-th table shows it in (None: Streamlit's own)."""
    config = json.loads(at.dataframe[index].proto.columns)
    return {name: (entry.get("type_config") or {}).get("format") for name, entry in config.items()}


def missing_shown_blank(at: AppTest, index: int) -> bool:
    """Whether the ``index``-th table shows a missing value as a blank cell (unset, Streamlit
    shows a grey "None")."""
    proto = at.dataframe[index].proto
    return proto.HasField("placeholder") and proto.placeholder == ""


def assert_every_column_is_named_for_humans(at: AppTest, own_names: Sequence[str] = ()) -> None:
    """Every table of the page names every column it shows, without underscores (but for a
    column named after something of the user's: a variant, in ``own_names``)."""
    assert at.dataframe
    for index in range(len(at.dataframe)):
        names = labels(at, index)
        for column in shown(at, index).columns:
            assert column in names, (index, column)
            assert "_" not in names[column] or names[column] in own_names, (index, column, names[column])


def default_agent(report: Report, n_players: int) -> str:
    """The agent a page's agent filter preselects: the most seat-games in the baseline at that
    player count, ties broken by the spec's order."""
    agents = report.agent_stats.filter((pl.col("variant") == "baseline") & (pl.col("n_players") == n_players))
    listed = [str(agent) for agent in report.spec["agents"]]
    ranked = sorted(agents.iter_rows(named=True), key=lambda row: (-row["seat_games"], listed.index(row["agent"])))
    return str(ranked[0]["agent"])


@pytest.mark.parametrize("name", ALL)
def test_the_win_rates_page_shows_the_analytics_win_rates_of_every_game(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, name, "win_rates", monkeypatch)
    report = report_of(results, name)
    n = first(report.agent_stats, "n_players")
    at_n = pl.col("n_players") == n
    at_n_baseline = at_n & (pl.col("variant") == "baseline")
    tables = [shown(at, index) for index in range(len(at.dataframe))]
    titles = [chart.proto.spec for chart in at.get("vega_lite_chart")]
    agents = report.agent_stats.filter(at_n)
    agent = default_agent(report, n)
    one_agent = agents.filter(pl.col("variant") == "baseline").height == 1  # then its seats are every seat
    if GAME_OF[name] == "party_wanted":  # cooperative: no seat table, the game is the unit
        assert one_agent
        assert "Win rate by seat" not in " ".join(titles)
        same(tables[0], agents.drop("experiment"))
        assert agents["win_rate_effective_n"].to_list() == pytest.approx(agents["games"].to_list())
        same(tables[1], report.faction_stats.filter(at_n_baseline).drop("experiment"))
        same(tables[2], report.party_size_stats.drop("experiment"))
        same(tables[3], report.run_stats.filter(at_n).drop("experiment"))
        same(tables[4], report.composition_stats.filter(at_n_baseline).drop("experiment"))
        same(tables[5], as_shown(report.class_effects.filter(at_n_baseline).drop("experiment")))
        same(tables[6], computed(results, name, explore.run_ends).filter(at_n_baseline))
        assert any("Where runs end" in spec for spec in titles) and any("Wipes per game" in spec for spec in titles)
        return
    if one_agent:
        same(tables[0], report.seat_stats.filter(at_n).drop("experiment"))
    else:  # the default: the seats of the most-played agent
        same(tables[0], computed(results, name, lambda con: explore.agent_seat_stats(con, agent)).filter(at_n))
        assert at.query_params["agent"] == agent
    # An agent in every seat (Ring of Chaos here: one winner a game) is self-play: its rate is set
    # by the lineup, its games show no spread (an effective n at the cap, left blank), and its
    # interval keeps the width of its games; every sampled rate keeps its own effective n.
    self_play = agents["self_play"].to_list()
    assert all(self_play) if GAME_OF[name] == "ring_of_chaos" else not any(self_play)
    assert (agents["win_rate_low"] < agents["win_rate_high"]).all()
    capped = [shows_no_spread(effective, n) for effective, n in zip(
        agents["win_rate_effective_n"].to_list(), agents["seat_games"].to_list(), strict=True)]
    same(tables[1].drop("win_rate_effective_n"), agents.drop("experiment", "win_rate_effective_n"))
    assert [None if is_capped else round(effective) for is_capped, effective in zip(
        capped, agents["win_rate_effective_n"].to_list(), strict=True)] == tables[1]["win_rate_effective_n"].to_list()
    captions = " ".join(str(caption.value) for caption in at.caption)
    assert ("Self-play: the agent held every seat of every game" in captions) == any(self_play)
    seat_chart = next(spec for spec in titles if "Win rate by seat" in spec and f"{n} players" in spec)
    # The 1/N line (a dashed rule) and the target band (a shaded rectangle) behind the intervals.
    assert '"strokeDash": [5, 4]' in seat_chart and '"type": "rect"' in seat_chart
    if GAME_OF[name] == "ring_of_chaos":
        assert one_agent
        same(tables[2], report.faction_stats.filter(at_n_baseline).drop("experiment"))
        by_map = computed(results, name, lambda con: explore.win_rate_by_game_column(con, "faction", "map"))
        same(tables[3], by_map.filter(at_n))
        same(tables[4], report.matchups.filter(at_n_baseline).drop("experiment"))
        heat = next(spec for spec in titles if "Faction win rate in games with each opponent" in spec)
        assert f'"domainMid": {1 / n}' in heat and "sample_text" in heat  # centred on 1/N, n in each cell
    assert_every_column_is_named_for_humans(at)


EVERY_CARD = {"min_games": "0", "columns": "1"}
"""The Cards page's address showing every card held (no minimum sample) with every column."""
FACE_COLUMNS = ("name", "kind", "text", "copies", "flags")
"""What the Cards page adds to ``card_stats``: each card's face (the game's card data) and its flags."""


def open_cards(results: Results, experiment: str, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    """The Cards page of ``experiment`` opened on every card held, every column (``EVERY_CARD``),
    and the filters ``params``, as a link from another page of the session opens it."""
    monkeypatch.setenv("CARDLAB_RESULTS", str(results.root))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state["experiment"] = experiment
    at.query_params.update({**EVERY_CARD, **params})
    at.switch_page("pages/cards.py")
    at.run()
    assert not at.exception, at.exception
    return at


def stats_part(table: pl.DataFrame) -> pl.DataFrame:
    """A Cards table without the columns it adds to ``card_stats`` (``FACE_COLUMNS``)."""
    return table.drop([name for name in FACE_COLUMNS if name in table.columns])


@pytest.mark.parametrize("name", ALL)
def test_the_cards_page_shows_one_agents_card_stats_with_raw_and_shrunk_win_rates(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_cards(results, name, monkeypatch)
    report = report_of(results, name)
    n = first(report.card_stats, "n_players")
    agent = default_agent(report, n)  # the most-played agent (a tie here: the spec's first)
    expected = report.card_stats.filter((pl.col("variant") == "baseline") & (pl.col("n_players") == n)
                                        & (pl.col("agent") == agent))
    table = shown(at, 0)
    assert table.columns[:6] == ["name", "kind", "gih_win_rate", "gih_win_rate_low", "gih_win_rate_high", "iwd"]
    # A rate without a sample (a card never in hand: Party Wanted's starting equipment; one
    # never played) has no value, so no interval either: the view's (0, 1) is left blank.
    assert {"gih_win_rate_low", "played_win_rate_low"} <= set(table.columns)
    stats = stats_part(table)
    same(stats.sort("card"), as_shown(unsampled_blank(expected.select(stats.columns))).sort("card"))
    never = table.filter(pl.col("games_in_hand") == 0)
    assert never["gih_win_rate_low"].null_count() == never["gih_win_rate_high"].null_count() == never.height
    if GAME_OF[name] == "party_wanted":
        assert never.height > 0
    spec = at.get("vega_lite_chart")[0].proto.spec
    assert "Improvement when drawn" in spec and "Play rate" in spec and f"held by {agent}" in spec
    assert_every_column_is_named_for_humans(at)
    assert labels(at, 0)["gih_win_rate"] == "GIH win rate" and labels(at, 0)["shrunk_win_rate"] == "shrunk win rate"


def test_the_cards_page_splits_a_heuristic_versus_random_lineup_by_agent(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_cards(results, "divvy_tiny", monkeypatch)
    box = next(box for box in at.selectbox if box.label == "Agent (cards held by)")
    assert box.options == ["heuristic", "random"] and box.value == "heuristic"
    heuristic = stats_part(shown(at, 0))
    box.select("random").run()
    assert not at.exception and at.query_params["agent"] == "random"  # kept in the address
    random = stats_part(shown(at, 0))
    report = report_of(results, "divvy_tiny")
    for agent, table in (("heuristic", heuristic), ("random", random)):
        expected = report.card_stats.filter((pl.col("variant") == "baseline") & (pl.col("agent") == agent))
        same(table.sort("card"), as_shown(expected.select(table.columns)).sort("card"))
    heuristic_mean, random_mean = heuristic["gih_win_rate"].mean(), random["gih_win_rate"].mean()
    assert isinstance(heuristic_mean, float) and isinstance(random_mean, float)
    assert heuristic_mean > 0.8 > 0.2 > random_mean


def test_the_cards_page_filters_by_players_name_and_sorts_by_the_chosen_column(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_cards(results, "ring_tiny", monkeypatch)
    players = next(box for box in at.selectbox if box.label == "Players")
    assert players.options == ["3", "4"]
    players.select(4).run()
    next(box for box in at.text_input if box.label == "Card name contains").input("fire").run()
    next(box for box in at.selectbox if box.label == "Sort by").select("seat-games in hand").run()
    assert not at.exception
    table = shown(at, 0)
    assert table.height > 0 and all("fire" in name.lower() for name in table["name"])
    assert table["games_in_hand"].to_list() == sorted(table["games_in_hand"].to_list(), reverse=True)
    assert (at.query_params["players"], at.query_params["search"], at.query_params["sort"]) == (
        "4", "fire", "seat-games in hand")


def test_a_link_with_filters_in_the_address_opens_that_view(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_cards(results, "divvy_tiny", monkeypatch, variant="four_rounds", agent="random", search="axes",
                    sort="card")
    table = shown(at, 0)
    expected = report_of(results, "divvy_tiny").card_stats.filter(
        (pl.col("variant") == "four_rounds") & (pl.col("agent") == "random")
        & pl.col("card").str.contains("axes")).with_columns(
        pl.col("card").map_elements(card_name, return_dtype=pl.String).alias("name")).sort("name")
    assert table["name"].to_list() == expected["name"].to_list()  # sorted by the card's printed name
    stats = stats_part(table)
    same(stats, as_shown(expected.select(stats.columns)))
    assert next(box for box in at.text_input if box.label == "Card name contains").value == "axes"


def test_the_cards_page_opens_on_the_designer_columns_and_the_reports_minimum_sample(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "ring_tiny", "cards", monkeypatch)
    report = report_of(results, "ring_tiny")
    held = report.card_stats.filter((pl.col("variant") == "baseline") & (pl.col("n_players") == 3))
    enough = games_to_tell(float(held["card_mean"][0]), CARD_MIN_EXPECTED)
    box = next(box for box in at.number_input if box.label == "At least this many seat-games in hand")
    assert box.value == enough > 0 and at.query_params["min_games"] == str(enough)
    table = shown(at, 0)
    assert table.columns == ["name", "kind", "gih_win_rate", "gih_win_rate_low", "gih_win_rate_high", "iwd",
                             "play_rate", "playable_play_rate", "shrunk_win_rate", "games_in_hand", "flags", "text",
                             "copies"]
    assert sorted(table["name"]) == sorted(card_name(card) for card in
                                           held.filter(pl.col("games_in_hand") >= enough)["card"])
    faces = {row["name"]: row for row in faces_frame(report.spec, "baseline").iter_rows(named=True)}
    for row in table.iter_rows(named=True):  # the game's own card data beside the statistics
        assert (row["kind"], row["text"], row["copies"]) == (faces[row["name"]]["kind"], faces[row["name"]]["text"],
                                                             faces[row["name"]]["copies"])
        assert row["kind"] and row["copies"] is not None
    next(toggle for toggle in at.toggle if toggle.label == "Every column").set_value(True).run()
    assert {"card", "z_score", "card_mean", "games_played"} <= set(shown(at, 0).columns)
    most = max(held["games_in_hand"].to_list())
    next(box for box in at.number_input if box.label == "At least this many seat-games in hand").set_value(most).run()
    assert shown(at, 0).height == held.filter(pl.col("games_in_hand") >= most).height < held.height


def test_the_card_detail_page_shows_one_card_everywhere_and_its_trend_over_the_turns(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_link(results, "card", {"experiment": "ring_tiny", "card": "fireball"}, monkeypatch)
    assert next(box for box in at.selectbox if box.label == "Card").value == "fireball"
    assert [header.value for header in at.header] == ["Fireball"]  # its printed name, from the game's card data
    report = report_of(results, "ring_tiny")
    everywhere = report.card_stats.filter(pl.col("card") == "fireball")
    table = shown(at, 0)
    assert table.height == everywhere.height == 2 * 2  # two variants, two player counts, one agent
    assert sorted(table["games_in_hand"].to_list()) == sorted(everywhere["games_in_hand"].to_list())
    turns = computed(results, "ring_tiny", lambda con: explore.card_turns(con, "fireball"))
    trend = turns.filter((pl.col("variant") == "baseline") & (pl.col("n_players") == 3))
    same(shown(at, 1), trend.filter(pl.col("agent") == str(report.spec["agents"][0])).drop("experiment"))
    assert set(trend["card"]) == {"fireball"} and trend["first_played_turn"].is_sorted()
    charts = at.get("vega_lite_chart")
    assert "Fireball: win rate in hand (GIH)" in chart_title(charts[0])
    assert "win rate by the turn first played" in chart_title(charts[1])
    assert_every_column_is_named_for_humans(at)


def test_the_compare_page_puts_two_experiments_of_a_game_side_by_side(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "divvy_tiny", "compare", monkeypatch)
    other = next(box for box in at.selectbox if box.label == "Compare with (same game)")
    assert other.options == ["skill_tiny", "sweep_tiny"]  # the other Divvy experiments, not ring_tiny
    other.select("sweep_tiny").run()
    assert not at.exception
    left, right = report_of(results, "divvy_tiny"), report_of(results, "sweep_tiny")
    expected = compare_rates(left.agent_stats.filter(pl.col("variant") == "baseline"),
                             right.agent_stats.filter(pl.col("variant") == "baseline"),
                             ("agent",), "win_rate", "win_rate_effective_n")
    table = shown(at, 0)
    same(table, as_shown(expected, points=DELTAS))
    assert (table["delta_low"] <= table["delta"]).all() and (table["delta"] <= table["delta_high"]).all()
    assert chart_title(at.get("vega_lite_chart")[0]) == "sweep_tiny − divvy_tiny: Agents, 2 players"
    spec = json.dumps(json.loads(at.get("vega_lite_chart")[0].proto.spec), ensure_ascii=False)
    assert "Significant (BH q < 0.05)" in spec and "Difference, right − left" in spec
    assert "from the baseline" not in spec  # no baseline here: two experiments
    next(box for box in at.selectbox if box.label == "What").select("card_stats").run()
    cards = shown(at, 0)
    assert set(cards["agent"]) == {"heuristic", "random"} and cards.height == 2 * 48
    # 96 card rows are one family of tests: each q-value is Benjamini–Hochberg's over all of them.
    tested = cards.filter(pl.col("p_value").is_not_null())
    assert tested["q_value"].to_list() == pytest.approx(benjamini_hochberg(tested["p_value"].to_list()))
    assert (cards["significant"] == (cards["q_value"] < 0.05).fill_null(False)).all()
    assert cards["name"].to_list() == [card_name(card) for card in cards["card"]]  # each card by its printed name


def test_the_compare_page_says_when_no_other_experiment_of_the_game_exists(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "theseus_tiny", "compare", monkeypatch)
    assert "No other experiment of theseus" in at.info[0].value


@pytest.mark.parametrize("name", ALL)
def test_the_variants_page_shows_each_difference_with_its_interval_and_significance(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, name, "variants", monkeypatch)
    report = report_of(results, name)
    deltas = report.variant_deltas
    if deltas.is_empty():
        assert "has only the baseline" in at.info[0].value and "[variants.NAME]" in at.info[0].value
        return
    variant, n = deltas["variant"][0], first(deltas.filter(pl.col("variant") == deltas["variant"][0]), "n_players")
    family = next(f for f in ("seat", "agent", "faction", "card", "game") if f in deltas["family"].to_list())
    expected = deltas.filter((pl.col("variant") == variant) & (pl.col("n_players") == n)
                             & (pl.col("family") == family))
    # Rates (in %, differences in points) and means per game (in their unit), each in its own table.
    rates = expected.filter(pl.col("metric").is_in(RATE_METRICS))
    means = expected.filter(~pl.col("metric").is_in(RATE_METRICS))
    for table, rows, points in zip(last_deltas(at), (rates, means), (DELTAS, ()), strict=True):
        assert (table is not None) == (rows.height > 0)
        if table is not None:
            assert table["what"].to_list() == [delta_words(row) for row in rows.iter_rows(named=True)]
            same(table.select(*DELTAS, "q_value"), as_shown(rows, points=points).select(*DELTAS, "q_value"))
    charts = [chart for chart in at.get("vega_lite_chart") if "largest significant" not in chart_title(chart)]
    spec = charts[0].proto.spec
    assert "Difference from the baseline (95% interval)" in spec and "Significant (BH q < 0.05)" in spec
    assert '"labelLimit": 0' in spec and '"labelOverlap": false' in spec  # every row label shown
    drawn = set(pl.concat([chart_data(chart) for chart in charts], how="diagonal_relaxed")["label"].drop_nulls())
    assert {delta_words(row) for row in expected.iter_rows(named=True)} == drawn  # one labelled line per row
    assert_every_column_is_named_for_humans(at, own_names=[report.labels.get(variant, variant)])


def test_the_variants_page_names_sweep_points_by_their_values(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "sweep_tiny", "variants", monkeypatch)
    box = next(box for box in at.selectbox if box.label == "Variant")
    shown_options = [box.format_func(option) for option in box.options]
    assert shown_options[0] == "sweep-000 (rounds=3, treasure_target=15)"
    assert chart_title(at.get("vega_lite_chart")[0]).startswith("sweep-000 (rounds=3, treasure_target=15) − baseline")


def test_the_variants_page_shows_card_changes_one_agent_at_a_time(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "divvy_tiny", "variants", monkeypatch)
    next(box for box in at.selectbox if box.label == "Family").select("card").run()
    agent = next(box for box in at.selectbox if box.label == "Agent (cards held by)")
    assert agent.options == ["heuristic", "random"] and agent.value == "heuristic"  # most-played (a tie: spec order)
    deltas = report_of(results, "divvy_tiny").variant_deltas.filter(
        (pl.col("variant") == "four_rounds") & (pl.col("family") == "card"))
    for name in ("heuristic", "random"):
        if name == "random":
            agent.select("random").run()
            assert not at.exception and at.query_params["agent"] == "random"
        expected = deltas.filter(pl.col("agent") == name)
        table = last_deltas(at)[0]
        assert table is not None
        assert table.height == expected.height > 0
        same(table.select(*DELTAS, "q_value"), as_shown(expected, points=DELTAS).select(*DELTAS, "q_value"))


@pytest.mark.parametrize("name", ALL)
def test_the_sweeps_page_draws_the_response_curve_or_says_how_to_run_a_sweep(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, name, "sweeps", monkeypatch)
    if name != "sweep_tiny":
        message = at.info[0].value
        assert "no `[sweep]` grid" in message and "cardlab run experiments/divvy_sweep.toml" in message
        return
    response = computed(results, name, lambda con: explore.sweep_agent_response(con, "rules.rounds"))
    same(shown(at, 0), response.filter(pl.col("n_players") == 2))
    # 12 games per grid point, two treasure targets per number of rounds; the baseline (treasure
    # target 20, between the grid's 15 and 25) is no grid point and is left out.
    assert response.filter(pl.col("series") == "heuristic")["games"].to_list() == [24, 24]
    spec = at.get("vega_lite_chart")[0].proto.spec
    assert "rules.rounds (parameter value)" in spec and "Win rate of each agent" in spec
    assert '"values": [3, 5]' in spec and '"format": "d"' in spec  # one integer tick per grid value
    caption = " ".join(caption.value for caption in at.caption)
    assert "The baseline (rules.rounds = 5, rules.treasure_target = 20) is not a grid point" in caption
    next(box for box in at.selectbox if box.label == "Metric").select("first_seat_win_rate").run()
    game_response = computed(results, name, lambda con: explore.sweep_response(con, "rules.rounds"))
    same(shown(at, 0), game_response.filter(pl.col("n_players") == 2))
    assert game_response["games"].to_list() == [24, 24]


@pytest.mark.parametrize("name", ALL)
def test_the_game_length_page_shows_the_turns_histogram_and_end_reasons(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, name, "game_length", monkeypatch)
    stats = computed(results, name, metrics.game_stats)
    n = first(stats, "n_players")
    chosen = (pl.col("variant") == "baseline") & (pl.col("n_players") == n)
    report = report_of(results, name)
    histogram = at.get("vega_lite_chart")[0].proto.spec
    if report.agent_stats.filter(chosen).height == 1:  # one agent at every seat: every game
        same(shown(at, 0), stats.filter(chosen).drop("experiment"))
        same(shown(at, 1), computed(results, name, metrics.end_reason_stats).filter(chosen).drop("experiment"))
        assert "Game length, baseline" in histogram
    else:  # the games of the most-played agent, by how they ended for it
        agent = default_agent(report, n)
        same(shown(at, 0), computed(results, name, lambda con: explore.agent_game_lengths(con, agent)).filter(chosen))
        same(shown(at, 1), computed(results, name, lambda con: explore.agent_end_reasons(con, agent)).filter(chosen))
        assert f"Game length of the games {agent} sat in, baseline" in histogram
    assert "Turns (as the game counts them)" in histogram
    # A quantitative axis with integer ticks: a turn count no game had stays on it, as a gap.
    x = json.loads(histogram)["encoding"]["x"]
    assert x["field"] == "turns_from" and x["type"] == "quantitative" and x["axis"]["format"] == "d"
    assert_every_column_is_named_for_humans(at)


def test_the_skill_page_shows_the_agent_matrix_skill_movement_and_cost_of_a_ladder(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "skill_tiny", "skill", monkeypatch)
    folder = results.folder("skill_tiny")
    rules = variant_rules(read_spec(folder))
    matrix = computed(results, "skill_tiny", lambda con: agent_matrix(con, rules))
    same(shown(at, 0), matrix)  # one rule set, two players: the whole matrix
    assert '"domainMid": 0.5' in at.get("vega_lite_chart")[0].proto.spec  # centred on the fair 1/2
    assert set(matrix["agent"]) == {"random", "heuristic", "ismcts(iterations=4)"}
    movement = computed(results, "skill_tiny", metrics.skill_movement)
    flipping = sorted(set(movement.filter(pl.col("sign_flips"))["name"]))
    table = shown(at, 1)
    names = sorted(set(table["name"]))
    # Preselected: the cards that flip sign, else the eight with the largest swing.
    assert (names == flipping) if flipping else (len(names) == 8)
    assert sorted(at.multiselect[0].value) == names
    same(table, as_shown(movement.filter(pl.col("name").is_in(names))))
    same(shown(at, 2), computed(results, "skill_tiny", lambda con: agent_cost(con, folder)))
    charts = [chart.proto.spec for chart in at.get("vega_lite_chart")]
    assert "Agent win rate in games with each other agent, 2 players" in charts[0]
    assert "Card win rate minus the rung's mean, 2 players" in charts[1]
    assert '"sort": ["random", "heuristic", "ismcts(iterations=4)"]' in charts[1]


def test_the_skill_page_shows_no_movement_across_variants_that_all_seat_one_agent(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    # Ring of Chaos's baseline and labyrinth map, every seat the heuristic: two "rungs" of one agent,
    # whose differences are the map's, not skill's.
    at = open_page(results, "ring_tiny", "skill", monkeypatch)
    assert not at.exception
    assert any("no skill ladder" in info.value for info in at.info)
    charts = [chart.proto.spec for chart in at.get("vega_lite_chart")]
    assert not any("minus the rung's mean" in chart for chart in charts)


def test_the_skill_page_shows_the_matrix_but_no_movement_without_rungs(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "divvy_tiny", "skill", monkeypatch)
    assert "no skill ladder" in at.info[0].value
    rules = variant_rules(read_spec(results.folder("divvy_tiny")))
    matrix = computed(results, "divvy_tiny", lambda con: agent_matrix(con, rules))
    same(shown(at, 0), matrix.filter(pl.col("rules") == "(game defaults)"))
    assert len(at.dataframe) == 2  # the matrix and the cost table: no ladder, so the ratings wait for a switch
    next(toggle for toggle in at.toggle if toggle.label.startswith("Rate the agents")).set_value(True).run()
    assert not at.exception and at.query_params["ratings"] == "1"
    assert len(at.dataframe) == 4  # the ratings and their adjacent pairs too


def shown_hands(at: AppTest) -> list[list[str]]:
    """Each seat's hand as the Replay page shows it (its ``**Hand** (n): a, b`` lines, in seat order)."""
    hands = []
    for element in at.markdown:
        text = str(element.value)
        if text.startswith("**Hand**"):
            cards = text.split(": ", 1)[1]
            hands.append([] if cards == "nothing" else cards.split(", "))
    return hands


@pytest.mark.parametrize("name", ALL)
def test_the_replay_page_shows_every_hand_as_it_was_at_the_chosen_turn(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, name, "replay", monkeypatch)
    players = computed(results, name, lambda con: con.sql("SELECT * FROM players").pl())
    n = int(players["n_players"].min())  # type: ignore[arg-type]
    played = players.filter((pl.col("variant") == "baseline") & (pl.col("n_players") == n)
                            & (pl.col("game_index") == 0)).sort("seat")
    seats = shown(at, 0)
    assert seats["agent"].to_list() == played["agent"].to_list()
    assert seats["won"].to_list() == played["won"].to_list()
    assert seats["score"].to_list() == played["score"].to_list()
    trace = replay_game(results.folder(name), "baseline", n, 0)
    hands = hands_after_every_action(results.folder(name), "baseline", n, 0)
    setup = moments_of_turn(trace, 0)  # set-up and the actions taken in it (Ring of Chaos's party draft)
    assert shown_hands(at) == hands[setup[-1]]  # the page opens on the table after set-up
    assert "omniscient" in at.caption[1].value
    same(shown(at, 1), events_between(trace, 0, setup[-1]))
    turns = turns_of(trace)
    at.button[1].click().run()  # Next
    assert not at.exception
    first = moments_of_turn(trace, turns[1])
    assert shown_hands(at) == hands[first[-1]]  # the table after the whole turn
    same(shown(at, 1), events_between(trace, first[0], first[-1]))
    last = moments_of_turn(trace, turns[-1])
    at.select_slider[0].set_value(turns[-1]).run()
    assert shown_hands(at) == hands[-1] and at.subheader[0].value == f"Turn {turns[-1]}"
    if len(last) > 1:  # step back to the table after the turn's first action
        at.select_slider[1].set_value(last[0]).run()
        assert not at.exception
        assert shown_hands(at) == hands[last[0]]
        same(shown(at, 1), events_between(trace, last[0], last[0]))


def test_a_link_to_a_game_opens_its_replay(results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_link(results, "replay", {"experiment": "ring_tiny", "variant": "labyrinth", "players": "4",
                                       "game": "5"}, monkeypatch)
    heading = next(block.value for block in at.markdown if "game index" in block.value)
    assert "variant **labyrinth**, 4 players, game index **5**" in heading
    players = computed(results, "ring_tiny", lambda con: con.sql("SELECT * FROM players").pl())
    played = players.filter((pl.col("variant") == "labyrinth") & (pl.col("n_players") == 4)
                            & (pl.col("game_index") == 5)).sort("seat")
    assert shown(at, 0)["agent"].to_list() == played["agent"].to_list()
    assert shown(at, 0)["won"].to_list() == played["won"].to_list()
    assert (at.query_params["players"], at.query_params["game"]) == ("4", "5")


def test_the_replay_page_finds_a_game_by_its_seed(results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "divvy_tiny", "replay", monkeypatch)
    games = computed(results, "divvy_tiny", lambda con: con.sql(
        "SELECT * FROM games WHERE variant = 'four_rounds' AND game_index = 7").pl())
    at.radio[0].set_value("seed").run()
    at.text_input[0].input(str(games["seed"][0])).run()
    assert not at.exception
    assert "variant **four_rounds**" in at.markdown[0].value and "game index **7**" in at.markdown[0].value
    assert (at.query_params["find"], at.query_params["seed"]) == ("seed", str(games["seed"][0]))  # a link to it


def test_a_link_with_a_seed_opens_that_games_replay(results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    games = computed(results, "divvy_tiny", lambda con: con.sql(
        "SELECT * FROM games WHERE variant = 'four_rounds' AND game_index = 11").pl())
    at = open_link(results, "replay", {"experiment": "divvy_tiny", "find": "seed", "seed": str(games["seed"][0])},
                   monkeypatch)
    assert at.radio[0].value == "seed" and at.text_input[0].value == str(games["seed"][0])
    assert "variant **four_rounds**" in at.markdown[0].value and "game index **11**" in at.markdown[0].value


@pytest.mark.parametrize("name", ALL)
def test_the_sql_page_runs_a_read_and_offers_it_as_csv(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, name, "sql", monkeypatch)
    query = str(at.text_area[0].value)
    same(shown(at, 0), computed(results, name, lambda con: con.sql(query).pl()))
    assert at.get("download_button")[0].proto.label == "Download CSV"


def test_the_sql_page_offers_a_query_with_a_list_column_as_csv_too(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "divvy_tiny", "sql", monkeypatch)
    at.text_area[0].input("SELECT game_index, winners FROM games ORDER BY variant, game_index LIMIT 3").run()
    assert not at.exception, at.exception  # Polars cannot write a list cell as CSV by itself
    assert at.get("download_button")[0].proto.label == "Download CSV"
    frame = shown(at, 0)
    written = pl.read_csv(io.StringIO(frame_csv(frame)))
    assert written["winners"].to_list() == [str(winners.to_list()) for winners in frame["winners"]]
    assert written["game_index"].to_list() == frame["game_index"].to_list() and written.height == 3


def test_the_sql_page_refuses_anything_that_is_not_a_read(results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "divvy_tiny", "sql", monkeypatch)
    for statement in ("CREATE TABLE t AS SELECT 1", "COPY games TO '/tmp/games.csv'", "DROP VIEW games",
                      "SELECT 1; SELECT 2", "ATTACH '/tmp/x.duckdb'"):
        at.text_area[0].input(statement).run()
        assert not at.exception
        assert "read-only" in at.error[0].value, statement
        assert len(at.dataframe) == 2  # no result: only the schema browser's views and columns


def test_the_sql_page_lists_every_view_and_column_with_its_description_and_finds_them_by_words(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "ring_tiny", "sql", monkeypatch)
    contracts = view_contracts([GAMES["ring_of_chaos"].info])
    views, columns = shown(at, 1), shown(at, 2)  # after the example query's result
    assert views.rows() == [(name, contracts[name].description) for name in sorted(contracts)]
    every_column = [(name, column.name, column.type, column.description)
                    for name in sorted(contracts) for column in contracts[name].columns]
    assert columns.rows() == every_column

    at.text_input(key="sql_schema_search").input("Effective  CARD").run()  # every word, in any case
    assert not at.exception, at.exception
    wanted = [row for row in every_column if all(word in " ".join(row).lower() for word in ("effective", "card"))]
    assert shown(at, 2).rows() == wanted
    # The card views, the clustered rates' intervals ("a card in every hand"), the card deltas and impact's.
    found = {view for view, *_ in wanted}
    assert {"card_faction_stats", "card_stats", "card_turn_stats", "agent_stats", "variant_deltas"} <= found, found
    at.text_input(key="sql_schema_search").input("cooperative").run()
    assert shown(at, 1)["view"].to_list() == [name for name in sorted(contracts)
                                              if "cooperative" in f"{name} {contracts[name].description}".lower()]
    assert "party_size_stats" in shown(at, 1)["view"].to_list()


@pytest.mark.parametrize("page", ["experiments", "win_rates", "cards", "card", "variants", "compare", "sweeps",
                                  "game_length", "design", "skill", "replay", "sql"])
def test_without_experiments_every_page_says_which_command_to_run(
        tmp_path: Path, page: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(Results(tmp_path), None, page, monkeypatch)
    assert "cardlab run experiments/divvy_baseline.toml" in at.info[0].value
    assert not at.dataframe


def test_an_experiment_without_finished_shards_shows_a_warning_not_a_traceback(
        results: Results, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(results.folder("divvy_tiny"), tmp_path / "divvy_tiny")
    shutil.rmtree(tmp_path / "divvy_tiny" / MANIFEST_FOLDER)
    at = open_page(Results(tmp_path), "divvy_tiny", "win_rates", monkeypatch)
    assert "no finished shards yet" in at.warning[0].value


def test_a_newly_finished_shard_shows_up_on_the_next_rerun(
        results: Results, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(results.folder("divvy_tiny"), tmp_path / "divvy_tiny")
    marker = tmp_path / "divvy_tiny" / MANIFEST_FOLDER / "four_rounds-2p-0000000020.json"
    saved = marker.read_text()
    marker.unlink()  # as if the last shard were still being played
    at = open_page(Results(tmp_path), "divvy_tiny", "game_length", monkeypatch)
    assert "60 games played of 80 planned" in at.caption[0].value
    marker.write_text(saved)  # the shard finishes
    at.run()
    assert not at.exception
    assert "80 games played of 80 planned" in at.caption[0].value


def open_entry_page(results: Results, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The entry script's default page (Experiments) with its sidebar: AppTest's ``switch_page``
    runs the page alone, without what ``dashboard/app.py`` puts in the sidebar."""
    monkeypatch.setenv("CARDLAB_RESULTS", str(results.root))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    return at


def test_a_running_experiment_says_that_it_refreshes_itself(
        results: Results, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(results.folder("divvy_tiny"), tmp_path / "divvy_tiny")
    (tmp_path / "divvy_tiny" / "run.json").write_text(json.dumps({"status": "running", "started": 1.0e9}))
    assert not explore.is_running(tmp_path / "divvy_tiny")
    (tmp_path / "divvy_tiny" / ".lock").write_text("1 host")
    assert explore.is_running(tmp_path / "divvy_tiny")
    at = open_entry_page(Results(tmp_path), monkeypatch)
    assert [box.label for box in at.sidebar.selectbox] == ["Experiment"]
    assert any("this page refreshes itself when a shard finishes" in caption.value for caption in at.sidebar.caption)
    (tmp_path / "divvy_tiny" / ".lock").unlink()
    at = open_entry_page(Results(tmp_path), monkeypatch)
    assert not any("refreshes itself" in caption.value for caption in at.sidebar.caption)


TABLE_PAGES = [  # page, experiment, more of its address, whether a table of it holds differences of rates
    ("cards", "ring_tiny", {"columns": "1"}, True), ("card", "ring_tiny", {"card": "fireball", "columns": "1"}, True),
    ("variants", "divvy_tiny", {}, True), ("compare", "divvy_tiny", {"other": "sweep_tiny"}, True),
    ("skill", "skill_tiny", {}, True), ("win_rates", "ring_tiny", {}, True),  # the powers' used minus never
    ("win_rates", "party_tiny", {}, True),  # the classes' effects
    ("win_rates", "divvy_tiny", {}, False), ("sweeps", "sweep_tiny", {}, False)]


@pytest.mark.parametrize(("page", "experiment", "params", "has_differences"), TABLE_PAGES)
def test_differences_of_rates_read_in_signed_points_sample_sizes_as_counts_and_missing_cells_blank(
        results: Results, page: str, experiment: str, params: dict[str, str], has_differences: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_link(results, page, {"experiment": experiment, **params}, monkeypatch)
    differences = sizes = 0
    for index in range(len(at.dataframe)):
        table, shown_as, names = shown(at, index), formats(at, index), labels(at, index)
        assert missing_shown_blank(at, index), index  # as the pages and the README say
        for column in table.columns:
            if column in POINTS or column in DELTAS:  # IWD, a rung's deviation, a variant's difference...
                assert shown_as[column] == "%+.1f" and "points" in names[column], (index, column)
                differences += 1
            if column.endswith("_n") or column == "n":  # every (effective) n, like the counts: 2,000, not 2000
                values = table[column].drop_nulls().to_list()
                assert shown_as[column] == "localized" and values == [round(value) for value in values], column
                sizes += 1
    assert sizes and bool(differences) == has_differences


def test_the_skill_pages_cost_table_leaves_the_rung_of_a_head_to_head_variant_blank(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "skill_tiny", "skill", monkeypatch)
    cost = shown(at, 2)
    assert "rung" in cost.columns and cost["rung"].null_count() > 0  # random vs heuristic: no rung
    assert missing_shown_blank(at, 2)  # blank, not "None"


def test_a_table_with_an_unbounded_band_end_shows_it_blank() -> None:
    # The Tuning page's answer: a target "at most 0.02" has no lower band end.
    def page() -> None:
        import polars as pl

        from dashboard.common import table
        table(pl.DataFrame({"target": ["games end"], "value": [0.0], "low": [0.0], "high": [0.0006],
                            "band_low": [None], "band_high": [0.02]},
                           schema_overrides={"band_low": pl.Float64}),
              plain=("value", "low", "high", "band_low", "band_high"), names={"low": "low", "high": "high"})

    at = AppTest.from_function(page, default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    assert shown(at, 0)["band_low"].to_list() == [None]
    assert missing_shown_blank(at, 0) and labels(at, 0)["band_low"] == "band low"
    assert formats(at, 0)["low"] == "%.3g"  # the metric's own unit: not a percentage


def test_the_replay_pages_action_labels_fit_one_line_and_the_caption_says_the_whole_action(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_link(results, "replay", {"experiment": "divvy_tiny", "variant": "baseline", "players": "2",
                                       "game": "0"}, monkeypatch)
    trace = replay_game(results.folder("divvy_tiny"), "baseline", 2, 0)
    turn = next(turn for turn in turns_of(trace)[1:] if len(moments_of_turn(trace, turn)) > 1)
    at.select_slider[0].set_value(turn).run()
    assert not at.exception
    moments = moments_of_turn(trace, turn)
    actions = [f"{position + 1}. {trace.snapshots[moment].action}" for position, moment in enumerate(moments)]
    assert max(len(action) for action in actions) > 44  # Divvy's discards list every card: long
    # The slider's end labels, drawn under it without room of their own, stay on one line...
    shown_labels = list(at.select_slider[1].options)
    assert all(len(label) <= 44 for label in shown_labels)
    assert [label.removesuffix("…") for label in shown_labels] == [
        action[:len(label) - 1].rstrip() if label.endswith("…") else action
        for label, action in zip(shown_labels, actions, strict=True)]
    # ... and the whole action is in the caption under the heading.
    assert f"Last action: {trace.snapshots[moments[-1]].action}" in at.caption[1].value
