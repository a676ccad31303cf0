"""``cardlab report``: build once, render in every format, same numbers as the metrics."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analytics.catalog import NoResultsError, open_catalog
from analytics.metrics import card_table, game_length, win_rate_by_agent, win_rate_by_seat
from analytics.report import FORMATS, TABLE_NAMES, Report, UnknownFormatError, build_report, render_report

if TYPE_CHECKING:
    from pathlib import Path

    from tests.conftest import SmallExperiment


@pytest.fixture(scope="module")
def report(small_experiment: SmallExperiment) -> Report:
    return build_report(small_experiment.folder)


@pytest.fixture(scope="module")
def metrics(small_experiment: SmallExperiment) -> dict[str, pl.DataFrame]:
    con = open_catalog(small_experiment.folder)
    try:
        return {"win_rate_by_seat": win_rate_by_seat(con), "win_rate_by_agent": win_rate_by_agent(con),
                "game_length": game_length(con), "card_table": card_table(con)}
    finally:
        con.close()


def test_the_report_holds_the_spec_facts_and_the_metrics(report: Report, metrics: dict[str, pl.DataFrame]) -> None:
    assert (report.experiment, report.game, report.games_played, report.games_planned) == (
        "divvy_small", "divvy", 600, 600)
    assert report.shards_finished == 6
    assert report.variants.rows() == [("baseline", 300, "(game defaults)"), ("four_rounds", 300, "rules.rounds = 4")]
    for name, frame in metrics.items():
        assert_frame_equal(getattr(report, name), frame)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_report_renders_in_every_format(report: Report, fmt: str) -> None:
    text = render_report(report, fmt)
    assert text.endswith("\n") and "divvy_small" in text


def test_an_unknown_format_is_refused_in_one_line(report: Report) -> None:
    with pytest.raises(UnknownFormatError, match=r"^report format 'pdf': expected one of text, markdown, json, csv$"):
        render_report(report, "pdf")


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def test_the_text_report_fits_in_100_columns_and_shows_the_metric_numbers(
        report: Report, metrics: dict[str, pl.DataFrame]) -> None:
    text = render_report(report, "text")
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert "games        600 played of 600 planned (6 shards finished)" in text
    # Each seat row: variant, players, seat, games, wins, draws, win rate, [low, high].
    for row in metrics["win_rate_by_seat"].iter_rows(named=True):
        expected = [row["variant"], str(row["n_players"]), str(row["seat"]), str(row["games"]), str(row["wins"]),
                    str(row["draws"]), _percent(row["win_rate"]),
                    f"[{_percent(row['ci_low'])},", f"{_percent(row['ci_high'])}]"]
        assert any(line.split() == expected for line in lines), expected
    for row in metrics["win_rate_by_agent"].iter_rows(named=True):
        expected = [row["variant"], str(row["n_players"]), row["agent"], str(row["games"]), str(row["wins"]),
                    str(row["draws"]), _percent(row["win_rate"]),
                    f"[{_percent(row['ci_low'])},", f"{_percent(row['ci_high'])}]"]
        assert any(line.split() == expected for line in lines), expected


def test_the_text_report_lists_every_card_of_every_variant_best_first(
        report: Report, metrics: dict[str, pl.DataFrame]) -> None:
    lines = render_report(report, "text").splitlines()
    for variant in ("baseline", "four_rounds"):
        start = lines.index(f"Cards: {variant}, 2 players (all 48 cards seen, by win rate when played)")
        table = lines[start + 4: start + 4 + 48]  # title, two notes, header
        cards = metrics["card_table"].filter(pl.col("variant") == variant)
        assert [line.split()[0] for line in table] == cards["card"].to_list()
        first = cards.row(0, named=True)
        assert table[0].split() == [
            first["card"], str(first["games_drawn"]), str(first["times_drawn"]), str(first["games_played"]),
            str(first["times_played"]), _percent(first["win_rate_when_played"]),
            f"[{_percent(first['played_ci_low'])},", f"{_percent(first['played_ci_high'])}]",
            _percent(first["win_rate_when_drawn"])]


def test_card_rows_limits_the_text_card_tables_to_the_best_and_worst(report: Report) -> None:
    text = render_report(report, "text", card_rows=5)
    assert "top and bottom 5 of 48 cards seen" in text
    assert "top and bottom 5 of 48 cards," in text  # the 17lands card stats too
    assert text.count("\n  ...") == 4  # one gap per variant in each of the two card tables


def test_the_markdown_report_has_a_pipe_table_per_section(report: Report, metrics: dict[str, pl.DataFrame]) -> None:
    text = render_report(report, "markdown")
    for title in ("## Win rate by seat (95% Wilson interval)", "## Win rate by agent, over all seats",
                  "## Game length", "## Cards: baseline, 2 players", "## Cards: four_rounds, 2 players"):
        assert title in text
    row = metrics["win_rate_by_agent"].row(0, named=True)
    assert (f"| {row['variant']} | 2 | {row['agent']} | {row['games']} | {row['wins']} | {row['draws']} | "
            f"{_percent(row['win_rate'])} | [{_percent(row['ci_low'])}, {_percent(row['ci_high'])}] |") in text


def test_the_json_report_holds_the_exact_metric_values(report: Report, metrics: dict[str, pl.DataFrame]) -> None:
    data = json.loads(render_report(report, "json"))
    assert (data["experiment"], data["games_played"], data["games_planned"]) == ("divvy_small", 600, 600)
    assert data["spec"]["variants"] == {"baseline": {}, "four_rounds": {"rules.rounds": 4}}
    for name, frame in metrics.items():
        assert data["tables"][name] == frame.to_dicts(), name


def test_the_csv_report_is_one_csv_table_per_section_with_the_exact_values(
        report: Report, metrics: dict[str, pl.DataFrame]) -> None:
    sections: dict[str, str] = {}
    for block in render_report(report, "csv").strip().split("\n\n"):
        title, _, body = block.partition("\n")
        assert title.startswith("# ")
        sections[title[2:]] = body
    assert list(sections) == ["summary", *TABLE_NAMES]
    for name, frame in metrics.items():
        parsed = pl.read_csv(io.StringIO(sections[name]))
        assert_frame_equal(parsed, frame, check_dtypes=False)


def test_building_a_report_without_finished_shards_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "spec.json").write_text('{"name": "empty", "game": "divvy"}')
    with pytest.raises(NoResultsError, match="no finished shards yet"):
        build_report(tmp_path)
