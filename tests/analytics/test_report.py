"""``cardlab report``: build once, render as text, Markdown, JSON and a folder of
CSV files, with the metric views' numbers; findings first, sections that do not
apply left out, no column clipped."""

from __future__ import annotations

import itertools
import json
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analytics.catalog import open_catalog
from analytics.folders import NoResultsError
from analytics.metrics import metric
from analytics.report import (
    DOCUMENT_FORMATS,
    METRIC_TABLES,
    Report,
    UnknownFormatError,
    _header_lines,
    _tables,
    build_report,
    render_report,
    write_report_csv,
)
from analytics.sections import SECTIONS
from analytics.stats import no_spread_interval, wilson_interval
from experiments.spec import parse_spec
from tests.conftest import small_paired_spec, write_experiment

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"

if TYPE_CHECKING:
    from tests.conftest import SmallExperiment


@pytest.fixture(scope="module")
def report(small_experiment: SmallExperiment) -> Report:
    return build_report(small_experiment.folder)


@pytest.fixture(scope="module")
def views(small_experiment: SmallExperiment) -> dict[str, pl.DataFrame]:
    """The metric views computed over the rows (no cached counts), as ``cardlab sql`` sees them."""
    con = open_catalog(small_experiment.folder)
    try:
        return {name: metric(con, name) for name in METRIC_TABLES}
    finally:
        con.close()


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _card_rows(text: str) -> dict[str, tuple[str, list[str]]]:
    """Each card's row in the first text card table that lists it: card -> (its flags, the other cells).

    The flags column is left-aligned text that may be empty, so it is cut at the header's
    offsets (the flags from their header to the right-aligned "in hand" header, wider than
    any count here); the numeric cells after it are split on spaces.
    """
    rows: dict[str, tuple[str, list[str]]] = {}
    offsets: tuple[int, int] | None = None
    for line in text.splitlines():
        if line.startswith("  card ") and "in hand" in line:  # a first block's header
            offsets = line.index("flags"), line.index("in hand")
        elif line.startswith("  (columns ") or not line.strip():
            offsets = None  # a later block repeats the names: read the first only
        elif offsets is not None and line.split()[0] != "...":
            flags_at, numbers_at = offsets
            rows.setdefault(line.split()[0], (line[flags_at:numbers_at].strip(), line[numbers_at:].split()))
    return rows


def test_the_report_holds_the_spec_facts_and_the_metric_views(report: Report, views: dict[str, pl.DataFrame]) -> None:
    assert (report.experiment, report.game, report.games_played, report.games_planned) == (
        "divvy_small", "divvy", 600, 600)
    assert report.shards_finished == 6 and not report.cooperative
    assert report.variants.rows() == [("baseline", "baseline", 300, "(game defaults)"),
                                      ("four_rounds", "four_rounds", 300, "rules.rounds = 4")]
    for name, frame in views.items():
        # The report adds one column to the view: what each variant set by construction.
        assert_frame_equal(report.metrics[name].drop("set_by_construction", strict=False), frame,
                           check_dtypes=False, rel_tol=1e-12)


@pytest.mark.parametrize("fmt", DOCUMENT_FORMATS)
def test_the_report_renders_as_one_document_in_every_document_format(report: Report, fmt: str) -> None:
    text = render_report(report, fmt)
    assert text.endswith("\n") and "divvy_small" in text


def test_csv_is_not_one_document_and_an_unknown_format_is_refused_in_one_line(report: Report) -> None:
    with pytest.raises(UnknownFormatError, match=r"^report format 'pdf': expected one of text, markdown, json$"):
        render_report(report, "pdf")
    with pytest.raises(UnknownFormatError, match="csv writes one file per table: write_report_csv"):
        render_report(report, "csv")
    with pytest.raises(UnknownFormatError, match=r"report section 'bogus': expected one of findings, variants"):
        render_report(report, "text", sections=["bogus"])


def test_the_text_report_opens_with_its_findings_then_the_sections_in_order(report: Report) -> None:
    lines = render_report(report, "text").splitlines()
    titles = [line for line in lines if line and not line.startswith(" ")]
    assert titles[0] == "cardlab report: divvy_small"
    assert titles[1].startswith("Findings: what deserves a designer's attention")
    assert titles[2] == "Variants"
    order = ["Findings", "Variants", "Win rate by seat", "Seat balance", "Win rate by agent", "Games:",
             "How games end", "Cards:", "Variant four_rounds against the baseline"]
    positions = [next(index for index, title in enumerate(titles) if title.startswith(prefix)) for prefix in order]
    assert positions == sorted(positions)
    # Divvy has no factions, no cooperative tables, no runs and is no skill ladder: none of those sections.
    for absent in ("Factions", "Cooperative", "Runs", "Skill movement", "Matchups"):
        assert not any(title.startswith(absent) for title in titles), absent


def test_what_four_rounds_sets_by_construction_is_context_in_the_variants_section_not_a_finding(
        report: Report) -> None:
    text = render_report(report, "text")
    findings = text.split("\nVariants", 1)[0]
    assert "mean turns" not in findings and "decisions per game" not in findings
    context = report.metrics["by_construction"]
    assert sorted(zip(context["variant"].to_list(), context["metric"].to_list(), strict=True)) == [
        ("four_rounds", "decisions"), ("four_rounds", "turns")]  # Divvy is played at 2 players only
    assert set(context["set_by_construction"].to_list()) == {"rules.rounds"}
    assert "Set by construction: what the variants change by their own design (context, not findings)" in text


def test_the_text_report_fits_100_columns_and_clips_no_column(report: Report) -> None:
    text = render_report(report, "text")
    assert max(len(line) for line in text.splitlines()) <= 100
    for table in _tables(report, None, None):
        for header in table.headers:
            assert header in text, (table.title, header)
    assert not any(line.rstrip().endswith("...") and not line.strip().startswith("-")
                   for line in text.splitlines())  # no clipped cell


def test_a_rotated_mixed_lineup_shows_seat_balance_per_agent_not_its_pooled_seats(report: Report) -> None:
    # divvy_baseline rotates heuristic and random through the seats: each seat's pooled rate mixes
    # the two agents (about 1/2 whatever the seat is worth). The report leaves those rows out and
    # compares each agent with itself: its win rate at seat 0 against its win rate over its seats.
    text = render_report(report, "text")
    lines = [line.split() for line in text.splitlines()]
    assert "Win rate by seat, every seat the same agent" not in text
    assert "Left out, where the lineup seats different agents" in " ".join(text.split())
    balance = report.metrics["seat_balance"]
    assert balance.height == 4 and not balance["self_play"].any()
    for row in balance.iter_rows(named=True):
        expected = [row["variant"], str(row["n_players"]), row["agent"], "per", "agent", f"{row['games']:,}",
                    f"{row['total_wins']:,}", "-", "-", "-", _percent(row["first_seat_win_rate"]),
                    _percent(row["agent_win_rate"])]
        assert any(line[:len(expected)] == expected for line in lines), expected
    assert not [finding for finding in report.findings if finding.kind == "seat"]


def test_the_agent_rows_show_the_view_numbers_with_the_fair_share_and_the_game_win_rate(report: Report) -> None:
    lines = [line.split() for line in render_report(report, "text").splitlines()]
    for row in report.agent_stats.iter_rows(named=True):
        assert row["fair_share"] == pytest.approx(1 / row["n_players"])
        # The table is wide: two blocks of columns, each row keyed by variant, players and agent.
        key = [row["variant"], str(row["n_players"]), row["agent"]]
        first = [*key, str(row["games"]), str(row["seat_games"]), str(row["wins"]), _percent(row["win_rate"]),
                 f"[{_percent(row['win_rate_low'])},", f"{_percent(row['win_rate_high'])}]",
                 _percent(row["fair_share"])]
        second = [*key, _percent(row["game_win_rate"]), f"[{_percent(row['game_win_rate_low'])},",
                  f"{_percent(row['game_win_rate_high'])}]", _percent(row["game_fair_share"]),
                  str(round(row["win_rate_effective_n"]))]
        assert first in lines and second in lines, (first, second)


def test_an_agent_in_every_seat_of_every_game_shows_its_self_play_rate_with_the_width_of_its_games(
        tmp_path: Path) -> None:
    # Ring of Chaos with the heuristic in all three seats: one winner a game, so it wins 1/3 of
    # its seat-games in these 12 games. Twelve games do not prove that every game has one
    # winner: the interval keeps the width of what 12 games without spread cannot rule out
    # (no "fixed"), and the seats, all one agent, show seat balance.
    raw = tomllib.loads((EXPERIMENTS / "ring_of_chaos_baseline.toml").read_text())
    raw.update(name="ring_mirror", games=12, shard_size=12, player_counts=[3],
               variants={"labyrinth": raw["variants"]["labyrinth"]})
    folder = write_experiment(parse_spec(raw, "ring_of_chaos_baseline.toml (cut down)"), tmp_path)
    mirror = build_report(folder)
    text = render_report(mirror, "text")
    lines = [line.split() for line in text.splitlines()]
    low, high = no_spread_interval(1 / 3, 12)
    for row in mirror.agent_stats.iter_rows(named=True):
        assert (row["seat_games"], row["wins"], row["self_play"]) == (36, 12, True)
        assert (row["win_rate_low"], row["win_rate_high"]) == pytest.approx((low, high), abs=1e-12)
        assert row["game_win_rate"] == 1.0 and row["game_fair_share"] == 1.0
        assert [row["variant"], "3", "heuristic", "12", "36", "12", "33.3%", f"[{_percent(low)},",
                f"{_percent(high)}]", "33.3%"] in lines
        assert [row["variant"], "3", "heuristic", "100.0%", f"[{_percent(wilson_interval(12, 12)[0])},", "100.0%]",
                "100.0%", "-", "self-play"] in lines
    assert "fixed" not in text
    assert "Win rate by seat, every seat the same agent" in text
    assert mirror.metrics["seat_balance"]["self_play"].all()
    # 1/3 against 1/3 is the lineup's, not a test of the agent: no agent row among the variant's
    # differences (and none in the Benjamini-Hochberg count), while its factions are compared.
    families = set(mirror.metrics["variant_deltas"]["family"])
    assert "agent" not in families and "faction" in families


@pytest.fixture(scope="module")
def party(tmp_path_factory: pytest.TempPathFactory) -> Report:
    """A report of 12 one-hero Party Wanted games: long card names, cards never in hand."""
    raw = tomllib.loads((EXPERIMENTS / "party_wanted_baseline.toml").read_text())
    raw.update(name="party_equipment", games=12, shard_size=12, player_counts=[1], variants={})
    folder = write_experiment(parse_spec(raw, "party_wanted_baseline.toml (cut down)"),
                              tmp_path_factory.mktemp("party"))
    return build_report(folder)


def test_a_card_never_in_hand_shows_no_gih_interval_in_the_card_table(party: Report) -> None:
    # Party Wanted's heroes start with their equipment out of the deck: such a card gets a
    # row (it is playable) with no seat-game in hand, so no in-hand win rate to bound.
    never_in_hand = party.card_stats.filter(pl.col("games_in_hand") == 0)["card"].to_list()
    held = party.card_stats.filter(pl.col("games_in_hand") > 0)["card"].to_list()
    assert never_in_hand and held
    # The card table's rows: a name, its flags, then its seat-games in hand, GIH, GIH 95%.
    rows = _card_rows(render_report(party, "text", sections=["cards"]))
    for card in never_in_hand:
        assert rows[card][1][:3] == ["0", "-", "-"], rows[card]
    for card in held:
        assert "-" in rows[card][1][2] and rows[card][1][2] != "-", rows[card]  # "low-high"


def test_a_card_table_split_by_long_names_shows_each_cards_flags_in_every_block(party: Report) -> None:
    text = render_report(party, "text", sections=["cards"])
    assert "(columns 2 of 2)" in text  # names up to 27 characters do not fit one block of 100
    blocks = [[line for line in block.split("\n  card ", 1)[1].split("\n\n")[0].splitlines() if line.strip()]
              for block in text.split("(columns ")[1:]]
    assert len(blocks) == 2
    for block in blocks:
        header = "  card " + block[0]
        assert header.split()[:2] == ["card", "flags"] and max(map(len, block)) <= 100
    # The flags sit at the same offset in both blocks, next to the name they belong to: the
    # words from the flags header on that are flags (the column is as wide as its longest
    # flags, which depends on the data, so it is not cut at a fixed width).
    flags_at = ("  card " + blocks[0][0]).index("flags")
    first, second = ({line.split()[0]: " ".join(itertools.takewhile(lambda word: word in ("!", "OUT", "never"),
                                                                     line[flags_at:].split()))
                      for line in block[1:]}
                     for block in blocks)
    assert first == second
    stats = party.card_stats
    expected = {row["card"]: " ".join(flag for flag, on in (("!", row["outlier"]), ("OUT", row["surely_outside"]),
                                                            ("never", row["never_played"])) if on)
                for row in stats.iter_rows(named=True)}
    assert first == expected and any(first.values())


def test_the_text_report_has_one_card_table_per_variant_and_agent_best_shrunk_first(report: Report) -> None:
    lines = render_report(report, "text").splitlines()
    for variant in ("baseline", "four_rounds"):
        for agent in ("heuristic", "random"):
            start = lines.index(f"Cards: {variant}, 2 players, held by {agent} (all 48 cards, by shrunk GIH win rate)")
            header = next(index for index in range(start, start + 20) if lines[index].split()[:2] == ["card", "flags"])
            table = [line.split()[0] for line in lines[header + 1: header + 49]]
            cards = report.card_stats.filter((pl.col("variant") == variant) & (pl.col("agent") == agent))
            assert table == cards["card"].to_list()
            shrunk = cards["shrunk_win_rate"].to_list()
            assert shrunk == sorted(shrunk, reverse=True)


def test_card_rows_limits_the_text_card_tables_to_the_best_and_worst(report: Report) -> None:
    text = render_report(report, "text", card_rows=5)
    assert text.count("top and bottom 5 of 48 cards") == 4  # two variants, two agents
    # One "..." row between the best and the worst 5, in each block of columns of each table.
    names = set(report.card_stats["card"].to_list())
    for table in text.split("\nCards: ")[1:]:
        body = table.split("\n\n")[0]
        blocks = max(1, body.count("(columns "))
        assert body.count("\n  ...") == blocks
        rows = [line for line in body.splitlines() if line.split() and line.split()[0] in names]
        assert len(rows) == 10 * blocks


def test_the_markdown_report_has_a_pipe_table_per_section(report: Report) -> None:
    text = render_report(report, "markdown")
    for title in ("## Findings", "## Variants", "## Win rate by seat", "## Win rate by agent", "## Games:",
                  "## Cards: baseline, 2 players, held by heuristic",
                  "## Cards: four_rounds, 2 players, held by random",
                  "## Variant four_rounds against the baseline"):
        assert title in text
    row = report.agent_stats.row(0, named=True)
    assert (f"| {row['variant']} | 2 | {row['agent']} | {row['games']} | {row['seat_games']} | {row['wins']} | "
            f"{_percent(row['win_rate'])} | [{_percent(row['win_rate_low'])}, {_percent(row['win_rate_high'])}] |"
            ) in text


def test_the_json_report_holds_the_findings_and_the_exact_metric_values(
        report: Report, views: dict[str, pl.DataFrame]) -> None:
    data = json.loads(render_report(report, "json"))
    assert (data["experiment"], data["games_played"], data["games_planned"], data["cooperative"]) == (
        "divvy_small", 600, 600, False)
    assert data["spec"]["variants"] == {"baseline": {}, "four_rounds": {"rules.rounds": 4}}
    assert list(data["tables"])[:2] == ["findings", "variants"]
    assert data["tables"]["findings"] == [finding.data() for finding in report.findings]
    for name in ("seat_stats", "agent_stats", "card_stats", "variant_deltas"):
        added = ["set_by_construction"] if name == "variant_deltas" else []  # the report's column (see above)
        assert list(data["tables"][name][0]) == views[name].columns + added
        assert len(data["tables"][name]) == views[name].height
    assert "party_size_stats" not in data["tables"]  # a section that does not apply is left out


def test_the_csv_report_is_one_file_per_table_with_the_exact_values(report: Report, tmp_path: Path) -> None:
    written = write_report_csv(report, tmp_path / "csv")
    names = [path.stem for path in written]
    assert names[:3] == ["summary", "findings", "variants"]
    assert set(names) >= {"seat_stats", "seat_balance", "agent_stats", "game_stats", "card_stats", "variant_deltas"}
    assert sorted(path.name for path in (tmp_path / "csv").iterdir()) == sorted(f"{name}.csv" for name in names)
    for name in ("seat_stats", "agent_stats", "card_stats"):
        parsed = pl.read_csv(tmp_path / "csv" / f"{name}.csv")
        assert_frame_equal(parsed, report.metrics[name], check_dtypes=False, rel_tol=1e-12)
    summary = dict(pl.read_csv(tmp_path / "csv" / "summary.csv").iter_rows())
    assert summary["games_played"] == "600" and summary["cooperative"] == "False"


def test_sections_keep_only_their_tables_in_every_format(report: Report, tmp_path: Path) -> None:
    data = json.loads(render_report(report, "json", sections=["seats", "deltas"]))
    assert list(data["tables"]) == ["seat_stats", "seat_balance", "variant_deltas"]
    text = render_report(report, "text", sections=["cards"])
    assert "Cards: baseline" in text and "Win rate by seat" not in text and "Findings" not in text
    written = write_report_csv(report, tmp_path / "some", sections=["agents"])
    assert [path.name for path in written] == ["summary.csv", "agent_stats.csv"]


def test_every_section_is_known_to_the_report() -> None:
    from analytics.report import SECTION_RENDERERS, SECTION_TABLES

    assert list(SECTION_TABLES) == list(SECTIONS) == list(SECTION_RENDERERS)


def test_the_header_says_how_the_run_ended_and_a_failed_ones_reason(
        report: Report, small_experiment: SmallExperiment, tmp_path: Path) -> None:
    assert ("run", "finished") in _header_lines(report)
    assert json.loads(render_report(report, "json", sections=["seats"]))["run_status"] == "finished"
    # The same shards, but the run stopped on an error before its last shard.
    import shutil

    from dataset.storage import MANIFEST_FOLDER, RUN_FILE

    folder = tmp_path / small_experiment.folder.name
    shutil.copytree(small_experiment.folder, folder)
    markers = sorted((folder / MANIFEST_FOLDER).glob("*.json"))
    for marker in markers[len(markers) // 2:]:
        marker.unlink()
    (folder / RUN_FILE).write_text(json.dumps({"status": "failed: disk full", "ended": 1.0e9}))
    failed = build_report(folder)
    assert failed.games_played < failed.games_planned
    assert ("run", "failed: disk full; the numbers are of the finished shards only") in _header_lines(failed)
    data = json.loads(render_report(failed, "json", sections=["seats"]))
    assert (data["run_status"], data["run_reason"]) == ("failed", "disk full")


def test_building_a_report_without_finished_shards_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "spec.json").write_text('{"name": "empty", "game": "divvy"}')
    with pytest.raises(NoResultsError, match="no finished shards yet"):
        build_report(tmp_path)


def test_the_divvy_card_table_is_one_block_with_every_label_and_the_gns_is_left_to_json(report: Report) -> None:
    text = render_report(report, "text", sections=["cards"])
    assert "(columns" not in text  # not split into blocks of columns
    headers = ["card", "flags", "in hand", "GIH", "GIH 95%", "IWD", "played", "playable", "shrunk", "z"]
    header_lines = [line.split("  ") for line in text.splitlines() if line.startswith("  card ")]
    assert len(header_lines) == 4  # two variants, two agents
    for line in header_lines:
        assert [cell.strip() for cell in line if cell.strip()] == headers
    assert max(len(line) for line in text.splitlines()) <= 100
    row = report.card_stats.row(0, named=True)
    flags, cells = _card_rows(text)[row["card"]]
    low, high = row["gih_win_rate_low"], row["gih_win_rate_high"]
    assert cells[:3] == [str(row["games_in_hand"]), _percent(row["gih_win_rate"]), f"{100 * low:.1f}-{100 * high:.1f}"]
    expected_flags = [flag for flag, on in (("!", row["outlier"]), ("OUT", row["surely_outside"]),
                                            ("never", row["never_played"])) if on]
    assert flags.split() == expected_flags
    assert "GNS (= GIH - IWD)" in text and "gns_win_rate" in render_report(report, "json", sections=["cards"])


def _deltas_notes(report: Report) -> str:
    text = render_report(report, "text", sections=["deltas"])
    return " ".join(line.strip() for line in text.splitlines() if "95% interval:" in line)


def test_the_deltas_note_of_an_unpaired_experiment_does_not_claim_paired_intervals(report: Report) -> None:
    # divvy_baseline has no paired_seeds: each variant plays its own seeds.
    assert not report.spec.get("paired_seeds")
    notes = _deltas_notes(report)
    assert "Newcombe's interval for rates, unpaired" in notes and "Welch for means" in notes
    assert "paired interval" not in notes and "baseline's seeds" not in notes


def test_the_deltas_note_of_a_paired_experiment_names_the_paired_interval(tmp_path_factory: pytest.TempPathFactory
                                                                            ) -> None:
    folder = write_experiment(small_paired_spec(), tmp_path_factory.mktemp("paired"))
    notes = _deltas_notes(build_report(folder))
    assert "MOVER paired interval for rates, on the baseline's seeds" in notes
