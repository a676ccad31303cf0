"""Every dashboard page, run headless with Streamlit's AppTest on a tiny real
experiment of each game: no exception, and the numbers in the page's tables
equal what ``analytics`` computes."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from streamlit.testing.v1 import AppTest

from analytics import explore, metrics
from analytics.catalog import open_catalog, read_spec
from analytics.replay import events_between, moments_of_turn, replay_game, turns_of
from analytics.skill import agent_cost, agent_matrix, variant_rules
from tests.analytics.replay_helpers import hands_after_every_action
from tests.dashboard.conftest import CUTS, GAME_OF, Results
from workers.storage import MANIFEST_FOLDER

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


def shown(at: AppTest, index: int) -> pl.DataFrame:
    """The ``index``-th st.dataframe of the page, back as Polars."""
    return pl.from_pandas(at.dataframe[index].value)


def computed(results: Results, name: str, use: Callable[[duckdb.DuckDBPyConnection], pl.DataFrame]) -> pl.DataFrame:
    """``use(con)`` on the experiment's catalog, as the analytics layer computes it."""
    con = open_catalog(results.folder(name))
    try:
        return use(con)
    finally:
        con.close()


def first(frame: pl.DataFrame, column: str) -> object:
    """The value a page preselects: the first in frame order (variants) or the smallest (player counts)."""
    return frame[column].min() if column == "n_players" else frame[column][0]


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


@pytest.mark.parametrize("name", ALL)
def test_the_win_rates_page_shows_the_analytics_win_rates_of_every_game(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, name, "win_rates", monkeypatch)
    seats = computed(results, name, metrics.win_rate_by_seat)
    n = first(seats, "n_players")
    same(shown(at, 0), seats.filter(pl.col("n_players") == n))
    agents = computed(results, name, metrics.win_rate_by_agent)
    same(shown(at, 1), agents.filter(pl.col("n_players") == n))
    titles = [chart.proto.spec for chart in at.get("vega_lite_chart")]
    assert any(f"Win rate by seat, {n} players" in spec for spec in titles)
    factions = computed(results, name, metrics.faction_stats)
    at_n_baseline = (pl.col("n_players") == n) & (pl.col("variant") == "baseline")
    if GAME_OF[name] == "ring_of_chaos":
        same(shown(at, 2), factions.filter(at_n_baseline))
        by_map = computed(results, name, lambda con: explore.win_rate_by_game_column(con, "faction", "map"))
        same(shown(at, 3), by_map.filter(pl.col("n_players") == n))
        same(shown(at, 4), computed(results, name, metrics.matchups).filter(at_n_baseline))
        assert any("Faction win rate in games with each opponent" in spec for spec in titles)
    if GAME_OF[name] == "party_wanted":
        same(shown(at, 2), factions.filter(at_n_baseline))
        same(shown(at, 3), computed(results, name, metrics.party_size_stats))
        same(shown(at, 4), computed(results, name, metrics.composition_stats).filter(at_n_baseline))
        same(shown(at, 5), computed(results, name, metrics.class_effects).filter(at_n_baseline))
        same(shown(at, 6), computed(results, name, explore.run_ends).filter(at_n_baseline))
        assert any("Where runs end" in spec for spec in titles)


@pytest.mark.parametrize("name", ALL)
def test_the_cards_page_shows_the_card_stats_with_raw_and_shrunk_win_rates_side_by_side(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, name, "cards", monkeypatch)
    stats = computed(results, name, metrics.card_stats)
    n = first(stats, "n_players")
    expected = stats.filter((pl.col("variant") == "baseline") & (pl.col("n_players") == n))
    table = shown(at, 0)
    assert table.columns[:4] == ["card", "games_in_hand", "gih_win_rate", "shrunk_win_rate"]
    same(table.sort("card"), expected.select(table.columns).sort("card"))
    rates = table["shrunk_win_rate"].drop_nulls().to_list()
    assert rates == sorted(rates, reverse=True)
    spec = at.get("vega_lite_chart")[0].proto.spec
    assert "Improvement when drawn" in spec and "Play rate" in spec


def test_the_cards_page_filters_by_name_and_sorts_by_the_chosen_column(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "divvy_tiny", "cards", monkeypatch)
    at.text_input[0].input("axes").run()
    next(box for box in at.selectbox if box.label == "Sort by").select("games in hand").run()
    table = shown(at, 0)
    assert table.height > 0 and all("axes" in card for card in table["card"])
    assert table["games_in_hand"].to_list() == sorted(table["games_in_hand"].to_list(), reverse=True)


@pytest.mark.parametrize("name", ALL)
def test_the_variants_page_shows_each_difference_with_its_interval_and_significance(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, name, "variants", monkeypatch)
    deltas = computed(results, name, explore.variant_delta_intervals)
    if deltas.is_empty():
        assert "has only the baseline" in at.info[0].value and "[variants.NAME]" in at.info[0].value
        return
    variant, n = deltas["variant"][0], first(deltas, "n_players")
    family = next(f for f in ("seat", "agent", "faction", "card", "game") if f in deltas["family"].to_list())
    expected = deltas.filter((pl.col("variant") == variant) & (pl.col("n_players") == n)
                             & (pl.col("family") == family))
    same(shown(at, 0), expected)
    assert (expected["delta_low"] <= expected["delta"]).all() and (expected["delta"] <= expected["delta_high"]).all()
    spec = at.get("vega_lite_chart")[0].proto.spec
    assert "Difference from the baseline (95% interval)" in spec and "Significant (BH q < 0.05)" in spec


@pytest.mark.parametrize("name", ALL)
def test_the_sweeps_page_draws_the_response_curve_or_says_how_to_run_a_sweep(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, name, "sweeps", monkeypatch)
    if name != "sweep_tiny":
        message = at.info[0].value
        assert "no `[sweep]` grid" in message and "cardlab run experiments/divvy_sweep.toml" in message
        return
    response = computed(results, name, lambda con: explore.sweep_response(con, "rules.rounds"))
    same(shown(at, 0), response.filter(pl.col("n_players") == 2))
    assert sorted(response["value"].to_list()) == [3, 5]
    assert response["games"].to_list() == [24, 36]  # 12 games per grid point; the baseline plays 5 rounds
    spec = at.get("vega_lite_chart")[0].proto.spec
    assert "rules.rounds (parameter value)" in spec and "Win rate of seat 0" in spec


@pytest.mark.parametrize("name", ALL)
def test_the_game_length_page_shows_the_turns_histogram_and_end_reasons(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, name, "game_length", monkeypatch)
    stats = computed(results, name, metrics.game_stats)
    chosen = (pl.col("variant") == "baseline") & (pl.col("n_players") == first(stats, "n_players"))
    same(shown(at, 0), stats.filter(chosen))
    same(shown(at, 1), computed(results, name, metrics.end_reason_stats).filter(chosen))
    histogram = at.get("vega_lite_chart")[0].proto.spec
    assert "Game length, baseline" in histogram and "Turns (as the game counts them)" in histogram


def test_the_skill_page_shows_the_agent_matrix_skill_movement_and_cost_of_a_ladder(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "skill_tiny", "skill", monkeypatch)
    folder = results.folder("skill_tiny")
    rules = variant_rules(read_spec(folder))
    matrix = computed(results, "skill_tiny", lambda con: agent_matrix(con, rules))
    same(shown(at, 0), matrix)  # one rule set, two players: the whole matrix
    assert set(matrix["agent"]) == {"random", "heuristic", "ismcts(iterations=4)"}
    movement = computed(results, "skill_tiny", metrics.skill_movement)
    flipping = sorted(set(movement.filter(pl.col("sign_flips"))["name"]))
    table = shown(at, 1)
    names = sorted(set(table["name"]))
    # Preselected: the cards that flip sign, else the eight with the largest swing.
    assert (names == flipping) if flipping else (len(names) == 8)
    assert sorted(at.multiselect[0].value) == names
    same(table, movement.filter(pl.col("name").is_in(names)))
    same(shown(at, 2), computed(results, "skill_tiny", lambda con: agent_cost(con, folder)))
    charts = [chart.proto.spec for chart in at.get("vega_lite_chart")]
    assert "Agent win rate in games with each other agent, 2 players" in charts[0]
    assert "Card win rate minus the rung's mean, 2 players" in charts[1]
    assert '"sort": ["random", "heuristic", "ismcts(iterations=4)"]' in charts[1]


def test_the_skill_page_shows_the_matrix_but_no_movement_without_rungs(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "divvy_tiny", "skill", monkeypatch)
    assert "fewer than two rungs" in at.info[0].value
    rules = variant_rules(read_spec(results.folder("divvy_tiny")))
    matrix = computed(results, "divvy_tiny", lambda con: agent_matrix(con, rules))
    same(shown(at, 0), matrix.filter(pl.col("rules") == "(game defaults)"))
    assert len(at.dataframe) == 4  # the matrix, the cost table, the ratings and their adjacent pairs


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
    assert shown_hands(at) == hands[0]  # the page opens on the table after set-up
    assert "omniscient" in at.caption[1].value
    same(shown(at, 1), events_between(trace, 0, 0))
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


def test_the_replay_page_finds_a_game_by_its_seed(results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "divvy_tiny", "replay", monkeypatch)
    games = computed(results, "divvy_tiny", lambda con: con.sql(
        "SELECT * FROM games WHERE variant = 'four_rounds' AND game_index = 7").pl())
    at.radio[0].set_value("seed").run()
    at.text_input[0].input(str(games["seed"][0])).run()
    assert not at.exception
    assert "variant **four_rounds**" in at.markdown[0].value and "game index **7**" in at.markdown[0].value


@pytest.mark.parametrize("name", ALL)
def test_the_sql_page_runs_a_read_and_offers_it_as_csv(
        results: Results, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, name, "sql", monkeypatch)
    query = str(at.text_area[0].value)
    same(shown(at, 0), computed(results, name, lambda con: con.sql(query).pl()))
    assert at.get("download_button")[0].proto.label == "Download CSV"


def test_the_sql_page_refuses_anything_that_is_not_a_read(results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "divvy_tiny", "sql", monkeypatch)
    for statement in ("CREATE TABLE t AS SELECT 1", "COPY games TO '/tmp/games.csv'", "DROP VIEW games",
                      "SELECT 1; SELECT 2", "ATTACH '/tmp/x.duckdb'"):
        at.text_area[0].input(statement).run()
        assert not at.exception
        assert "read-only" in at.error[0].value, statement
        assert not at.dataframe


@pytest.mark.parametrize("page", ["experiments", "win_rates", "cards", "variants", "sweeps", "game_length",
                                  "skill", "replay", "sql"])
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
