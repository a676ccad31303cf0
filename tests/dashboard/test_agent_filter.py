"""The agent filter of the Win rates and Game length pages (one helper with the Cards and Card
detail pages, ``dashboard.common.lineup_filter``): the most-played agent of the lineup by
default, its seats' numbers (not the pool of a heuristic and a random player), every agent
pooled when asked, and the choice kept in the page address."""

from __future__ import annotations

import tomllib

import polars as pl
import pytest

from analytics import explore
from analytics.powers import NEVER_USED, power_stats
from experiments.spec import parse_spec
from tests.conftest import write_experiment
from tests.dashboard.conftest import EXPERIMENTS, Results
from tests.dashboard.test_pages import (
    as_shown,
    assert_every_column_is_named_for_humans,
    chart_title,
    computed,
    open_link,
    open_page,
    report_of,
    same,
    shown,
    unsampled_blank,
)

SEATS_BOX = "Agent (seats held by)"
GAMES_BOX = "Agent (games sat in)"
POOLED = "(every agent, pooled)"


@pytest.fixture(scope="module")
def mixed_results(tmp_path_factory: pytest.TempPathFactory) -> Results:
    """Ring of Chaos at three players, one random and two heuristic seats (rotated): the
    heuristic is the most-played agent although the spec names random first."""
    root = tmp_path_factory.mktemp("agent-filter")
    raw = tomllib.loads((EXPERIMENTS / "ring_of_chaos_baseline.toml").read_text())
    raw.update(name="ring_mixed", games=18, shard_size=18, player_counts=[3], variants={},
               agents=["random", "heuristic", "heuristic"], rotate_seats=True)
    write_experiment(parse_spec(raw, "ring_of_chaos_baseline.toml (cut down, mixed agents)"), root)
    return Results(root)


def test_the_win_rates_page_shows_one_agents_seats_of_a_heuristic_versus_random_lineup(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(results, "divvy_tiny", "win_rates", monkeypatch)
    box = next(box for box in at.selectbox if box.label == SEATS_BOX)
    assert box.options == ["heuristic", "random", POOLED] and box.value == "heuristic"
    heuristic = shown(at, 0)
    report = report_of(results, "divvy_tiny")
    pooled = report.seat_stats.filter(pl.col("n_players") == 2)
    # Rotated seats: pooled, each seat wins about half its games; the heuristic's seats win nearly all.
    assert heuristic["games"].to_list() == [20, 20, 20, 20] and pooled["games"].to_list() == [40, 40, 40, 40]
    assert min(heuristic["win_rate"]) > 0.8 and max(pooled["win_rate"]) < 0.6
    same(heuristic, computed(results, "divvy_tiny", lambda con: explore.agent_seat_stats(con, "heuristic")))
    assert "Win rate by seat, held by heuristic, 2 players" in at.get("vega_lite_chart")[0].proto.spec
    box.select("random").run()
    assert not at.exception and at.query_params["agent"] == "random"  # kept in the address
    random = shown(at, 0)
    assert max(random["win_rate"]) < 0.2
    same(random, computed(results, "divvy_tiny", lambda con: explore.agent_seat_stats(con, "random")))
    next(box for box in at.selectbox if box.label == SEATS_BOX).select(POOLED).run()
    assert not at.exception and at.query_params["agent"] == POOLED
    same(shown(at, 0), pooled.drop("experiment"))


def test_the_default_agent_is_the_most_played_and_its_factions_and_matchups_are_its_own(
        mixed_results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(mixed_results, "ring_mixed", "win_rates", monkeypatch)
    box = next(box for box in at.selectbox if box.label == SEATS_BOX)
    assert box.options == ["heuristic", "random", POOLED] and box.value == "heuristic"  # 2 seats of 3
    assert at.query_params["agent"] == "heuristic"

    def of_heuristic(query: str) -> pl.DataFrame:
        return computed(mixed_results, "ring_mixed", lambda con: getattr(explore, query)(con, "heuristic"))

    tables = [shown(at, index) for index in range(len(at.dataframe))]
    same(tables[0], of_heuristic("agent_seat_stats"))
    factions = of_heuristic("agent_faction_stats")
    same(tables[2], factions)
    assert factions["seat_games"].sum() == 2 * 18  # two seats of each of the 18 games
    pooled = report_of(mixed_results, "ring_mixed").faction_stats
    assert pooled["seat_games"].sum() == 3 * 18
    by_map = computed(mixed_results, "ring_mixed",
                      lambda con: explore.win_rate_by_game_column(con, "faction", "map", "heuristic"))
    same(tables[3], by_map)
    assert by_map["games"].sum() == 2 * 18
    matchups = of_heuristic("agent_matchups")
    same(tables[4], matchups)
    assert matchups.height and set(matchups["agent"]) == {"heuristic"}
    powers = computed(mixed_results, "ring_mixed", power_stats).filter(pl.col("agent") == "heuristic")
    same(tables[5], as_shown(unsampled_blank(powers)))  # the heuristic's parties' powers only
    assert powers.height and powers["seat_games"].sum() == 2 * 18
    titles = " ".join(chart_title(chart) for chart in at.get("vega_lite_chart"))
    assert "Win rate by faction, held by heuristic" in titles and "Faction win rate, held by heuristic" in titles
    assert "Win rate when the faction's power was used at least once or never, held by heuristic" in titles
    assert_every_column_is_named_for_humans(at)


def test_the_win_rates_page_shows_each_powers_use_and_flags_one_never_used(
        mixed_results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_link(mixed_results, "win_rates", {"experiment": "ring_mixed", "agent": "random"}, monkeypatch)
    powers = computed(mixed_results, "ring_mixed", power_stats).filter(pl.col("agent") == "random")
    table = shown(at, 5)
    same(table, as_shown(unsampled_blank(powers)))
    assert {"use_rate", "uses_per_game", "used_win_rate", "unused_win_rate", "never_used"} <= set(table.columns)
    never = powers.filter(pl.col("never_used"))["faction"].to_list()
    assert never  # random, on these seeds, never took the one chance its Hell Raisers had
    warning = next(str(element.value) for element in at.warning if NEVER_USED in str(element.value))
    assert all(faction in warning for faction in never)
    assert "Unit: the seat-game, intervals clustered by game" in " ".join(str(c.value) for c in at.caption)


def test_a_link_to_one_agents_win_rates_opens_that_agents_seats(
        mixed_results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_link(mixed_results, "win_rates", {"experiment": "ring_mixed", "agent": "random"}, monkeypatch)
    assert next(box for box in at.selectbox if box.label == SEATS_BOX).value == "random"
    seats = shown(at, 0)
    same(seats, computed(mixed_results, "ring_mixed", lambda con: explore.agent_seat_stats(con, "random")))
    assert seats["games"].sum() == 18  # one seat of each game


def test_the_game_length_page_splits_the_agents_games_by_how_they_ended_for_it(
        results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_link(results, "game_length", {"experiment": "divvy_tiny", "variant": "four_rounds"}, monkeypatch)
    box = next(box for box in at.selectbox if box.label == GAMES_BOX)
    assert box.options == ["heuristic", "random", POOLED] and box.value == "heuristic"
    chosen = (pl.col("variant") == "four_rounds") & (pl.col("n_players") == 2)
    lengths = computed(results, "divvy_tiny", lambda con: explore.agent_game_lengths(con, "heuristic")).filter(chosen)
    same(shown(at, 0), lengths)
    same(shown(at, 1), computed(results, "divvy_tiny",
                                lambda con: explore.agent_end_reasons(con, "heuristic")).filter(chosen))
    pooled = report_of(results, "divvy_tiny").game_stats.filter(chosen)
    # Every game, split by how it ended for the heuristic: 39 won, one drawn (pooled: one row of 40).
    assert lengths["outcome"].to_list() == ["won", "draw"] and lengths["games"].to_list() == [39, 1]
    assert pooled["games"].to_list() == [40]
    assert "Game length of the games heuristic sat in" in at.get("vega_lite_chart")[0].proto.spec
    assert at.query_params["agent"] == "heuristic"
    box.select(POOLED).run()
    assert not at.exception and at.query_params["agent"] == POOLED
    same(shown(at, 0), pooled.drop("experiment"))
    assert_every_column_is_named_for_humans(at)


def test_the_agent_game_lengths_are_those_of_the_games_it_sat_in(mixed_results: Results) -> None:
    games = computed(mixed_results, "ring_mixed", lambda con: con.sql(
        "SELECT g.game_index, g.turns, bool_or(p.won) AS won, any_value(g.draw) AS draw FROM games AS g "
        "JOIN players AS p USING (variant, n_players, game_index) WHERE p.agent = 'random' GROUP BY ALL").pl())
    lengths = computed(mixed_results, "ring_mixed", lambda con: explore.agent_game_lengths(con, "random"))
    for outcome, rows in (("won", games.filter(pl.col("won"))),
                          ("lost", games.filter(~pl.col("won") & ~pl.col("draw"))),
                          ("draw", games.filter(pl.col("draw")))):
        row = lengths.filter(pl.col("outcome") == outcome)
        assert (row["games"].sum() if row.height else 0) == rows.height
        if rows.height:
            assert row["mean_turns"][0] == pytest.approx(rows["turns"].mean())
            assert row["share"][0] == pytest.approx(rows.height / 18)
