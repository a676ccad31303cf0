"""``cardlab tune`` end to end on a small Divvy search: its output, ``--export``,
``--resume`` of a finished search, the report's tuning section and the Tuning page."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from analytics.explore import experiment_overview
from analytics.report import build_report, candidate_report, render_report
from analytics.tuning import (
    STATE_FILE,
    TRIALS,
    TUNING_FOLDER,
    answer_lines,
    band_words,
    objective_history,
    read_state,
    read_table,
    tuning_tables,
    value_interval_words,
)
from cardlab.cli import main
from experiments.spec import load_spec
from simcore.seeding import game_seed
from tests.conftest import SmallExperiment
from tests.embedded_ray import join_shared_ray

SPEC = """
name = "divvy_small_tune"
game = "divvy"
agents = ["heuristic"]
seed = 5
shard_size = 100

[space]
"rules.treasure_target" = [12, 30]
"rules.tied_strength" = ["carry_over", "discard"]

[[targets]]
name = "few draws"
metric = "game_stats.draw_rate"
at_most = 0.03

[[targets]]
name = "no first-seat edge"
metric = "seat_balance.first_seat_advantage"
between = [-0.05, 0.05]

[search]
trials = 6
batch = 3
games = [100, 300]

[confirm]
candidates = 2
games = 400
"""
APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


@dataclass(frozen=True)
class Tuned:
    """A finished small search: where it is and what the command printed."""

    root: Path
    folder: Path
    spec_file: Path
    export: Path
    output: str


@pytest.fixture(scope="module")
def tuned(tmp_path_factory: pytest.TempPathFactory) -> Tuned:
    base = tmp_path_factory.mktemp("tune-cli")
    spec_file = base / "divvy_small_tune.toml"
    spec_file.write_text(SPEC)
    root, export = base / "results", base / "tuned.toml"
    out = io.StringIO()
    join_shared_ray()
    with contextlib.redirect_stdout(out):
        code = main(["tune", str(spec_file), "--results", str(root), "--workers", "2", "--no-progress",
                     "--export", str(export)])
    assert code == 0
    return Tuned(root, root / "divvy_small_tune", spec_file, export, out.getvalue())


def test_tune_prints_the_answer_and_where_the_results_are(tuned: Tuned) -> None:
    state = read_state(tuned.folder)
    answer = state["answer"]
    lines = tuned.output.splitlines()
    assert f"tuning folder: {tuned.folder}" in lines
    assert f"confirmation: {tuned.root / 'divvy_small_tune-confirm'}" in lines
    assert "next: cardlab report divvy_small_tune --sections tuning" in tuned.output
    # The answer in the designer's words first, the optimiser's numbers last.
    (start,) = [index for index, line in enumerate(lines) if line.startswith("answer: ")]
    assert lines[start + 1: start + 1 + len(answer["change_words"])] == [f"  {words}" for words in
                                                                         answer["change_words"]]
    assert lines[start + len(answer["targets"]) + len(answer["change_words"]) + 3].startswith(
        f"  optimiser detail: trial {answer['trial']} ({answer['variant']}), change cost {answer['cost']:.3f}, miss ")


def test_tune_says_how_much_of_the_space_it_evaluated(tuned: Tuned) -> None:
    # rules.treasure_target 12..30 (19 values) x rules.tied_strength (2): 38 points; a budget of 6.
    state = read_state(tuned.folder)
    assert len(state["candidates"]) == 6 and state["space"] == {"points": 38, "whole": False}
    repeats = len(state["duplicates"])
    seen = "points evaluated: 6 distinct of 38 in the space (16%)"
    if repeats:
        seen += (f"; {repeats} more ask(s) of the sampler repeated a point already asked (results reused: no games, "
                 "no trial budget)")
    assert seen in tuned.output.splitlines()
    text = render_report(build_report(tuned.folder), "text", sections=["tuning"])
    assert seen in " ".join(text.split())


def test_the_export_is_an_experiment_with_the_answers_change(tuned: Tuned) -> None:
    answer = read_state(tuned.folder)["answer"]
    exported = load_spec(tuned.export)
    assert exported.paired_seeds and exported.game == "divvy" and exported.games == 400
    assert [variant.name for variant in exported.variants] == ["baseline", "tuned"]
    assert exported.variant("tuned").overrides == answer["changes"]


def test_the_exported_experiment_plays_none_of_the_deals_the_search_chose_on(tuned: Tuned) -> None:
    exported = load_spec(tuned.export)
    searched = pl.read_parquet(tuned.folder / "games" / "**" / "*.parquet", hive_partitioning=False)["seed"]
    confirmed = pl.read_parquet(tuned.root / "divvy_small_tune-confirm" / "games" / "**" / "*.parquet",
                                hive_partitioning=False)["seed"]
    to_play = {game_seed(exported.seed, exported.seed_variant(variant.name), n_players, index)
               for variant in exported.variants for n_players in exported.player_counts
               for index in range(exported.games)}
    assert len(to_play) == exported.games  # paired: both variants play the same deals
    assert not to_play & set(searched.to_list())
    assert not to_play & set(confirmed.to_list())


@pytest.mark.usefixtures("shared_ray")
def test_resume_of_a_finished_search_plays_nothing_and_exports_another_trial(
        tuned: Tuned, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = read_table(tuned.folder, TRIALS)
    state = read_state(tuned.folder)
    other = next(data for data in state["candidates"] if data["trial"] != state["answer"]["trial"])
    target = tmp_path / "other.toml"
    assert main(["tune", str(tuned.spec_file), "--results", str(tuned.root), "--resume", "--export", str(target),
                 "--trial", str(other["trial"])]) == 0
    output = capsys.readouterr().out
    assert "games: 0 in" in output
    assert read_table(tuned.folder, TRIALS).equals(before)
    changes = {path: value for path, value in other["values"].items()
               if value != {"rules.treasure_target": 20, "rules.tied_strength": "carry_over"}[path]}
    assert load_spec(target).variant("tuned").overrides == changes


def test_a_second_search_into_the_same_folder_needs_resume_or_overwrite(
        tuned: Tuned, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tune", str(tuned.spec_file), "--results", str(tuned.root)]) == 2
    assert capsys.readouterr().err == (f"cardlab: error: {tuned.folder}: this search has finished; --resume prints "
                                       "its answer again (and writes it with --export) without playing, --overwrite "
                                       "starts again\n")
    # A search that stopped before its answer: --resume finishes it.
    stopped = tmp_path / "results" / tuned.folder.name
    shutil.copytree(tuned.folder, stopped)
    state_file = stopped / TUNING_FOLDER / STATE_FILE
    state_file.write_text(json.dumps({**json.loads(state_file.read_text()), "status": "confirming"}))
    assert main(["tune", str(tuned.spec_file), "--results", str(tmp_path / "results")]) == 2
    assert capsys.readouterr().err == (f"cardlab: error: {stopped}: results already exist; use --resume to "
                                       "finish them or --overwrite to start again\n")


def test_resume_with_a_changed_spec_is_refused_naming_what_changed(
        tuned: Tuned, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    changed = tmp_path / "divvy_small_tune.toml"
    changed.write_text(SPEC.replace("trials = 6", "trials = 9"))
    assert main(["tune", str(changed), "--results", str(tuned.root), "--resume"]) == 2
    error = capsys.readouterr().err
    assert "the stored tuning spec differs" in error
    assert "(search.trials: 6 when the search started, 9 now)" in error  # what changed, not only that


def test_the_report_has_a_tuning_section_of_the_run(tuned: Tuned) -> None:
    report = build_report(tuned.folder)
    text = render_report(report, "text", sections=["tuning"])
    answer = read_state(tuned.folder)["answer"]
    assert "Tuning: targets" in text and "few draws" in text and "game_stats.draw_rate at most 0.03" in text
    assert "Tuning: confirmed candidates (400 fresh games per player count; joint intervals)" in text
    answer_line = next(line for line in text.splitlines() if line.strip().startswith("ANSWER"))
    assert f" {answer['variant']} " in answer_line
    data = json.loads(render_report(report, "json", sections=["tuning"]))
    assert set(data["tables"]) == {"tuning_search", "tuning_targets", "tuning_front", "tuning_candidates",
                                   "tuning_confirmation"}
    state = read_state(tuned.folder)
    assert data["tables"]["tuning_search"] == [{
        "points": 6, "space_points": 38, "space_known": True, "repeated_asks": len(state["duplicates"]),
        "batches": state["batches"], "status": "finished"}]
    candidates = data["tables"]["tuning_candidates"]
    assert [row["variant"] for row in candidates if row["answer"]] == [answer["variant"]]
    # A plain experiment (the confirmation) has no tuning tables, and says so only when asked.
    confirm = build_report(tuned.root / "divvy_small_tune-confirm")
    assert "tuning_front" not in confirm.frames()
    assert "not a tuning run" in render_report(confirm, "text", sections=["tuning"])


def test_a_candidates_report_keeps_only_it_and_the_current_data(tuned: Tuned) -> None:
    answer = read_state(tuned.folder)["answer"]
    report = candidate_report(build_report(tuned.root / "divvy_small_tune-confirm"), answer["variant"])
    assert set(report.variants["variant"].to_list()) == {"baseline", answer["variant"]}
    assert set(report.metrics["variant_deltas"]["variant"].to_list()) <= {answer["variant"]}


def test_the_objective_history_is_the_running_best_of_the_first_looks(tuned: Tuned) -> None:
    history = objective_history(read_table(tuned.folder, TRIALS))
    assert history["trial"].to_list() == list(range(6))
    objectives = history["objective"].to_list()
    assert history["best_so_far"].to_list() == [min(objectives[: index + 1]) for index in range(6)]


def test_the_tuning_page_shows_the_answer_front_and_a_candidates_report(
        tuned: Tuned, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDLAB_RESULTS", str(tuned.root))
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.session_state["experiment"] = "divvy_small_tune-confirm"  # the confirmation leads to its search
    at.switch_page("pages/tuning.py")
    at.run()
    assert not at.exception, at.exception
    answer = read_state(tuned.folder)["answer"]
    shown = (at.success or at.warning)[0].value
    assert shown.startswith(f"**{answer_lines(answer)[0]}**")
    assert all(f"- {words}" in shown for words in answer["change_words"])  # the change in the designer's words
    tables = tuning_tables(tuned.folder)
    answer_targets = pl.from_pandas(at.dataframe[0].value)
    assert answer_targets.to_dicts() == [
        {"verdict": target["verdict"], "target": target["target"], "where": target["worst_row"],
         "confirmed": value_interval_words(target["metric"].split(".")[1], target["value"], target["low"],
                                           target["high"]),
         "wanted": band_words(target["metric"].split(".")[1], target["band_low"], target["band_high"])}
        for target in answer["targets"]]
    draws = next(row for row in answer_targets.to_dicts() if row["target"] == "few draws")
    assert draws["confirmed"].endswith("%]") and draws["wanted"] == "at most 3.00%"  # a rate reads in %
    edge = next(row for row in answer_targets.to_dicts() if row["target"] == "no first-seat edge")
    assert " points [" in edge["confirmed"] and edge["wanted"] == "-5.0 to +5.0 points"  # a difference in points
    captions = " ".join(caption.value for caption in at.caption)
    assert "points evaluated: 6 distinct of 38 in the space (16%)" in captions
    assert f"each interval at {answer['confidence']:.2%}" in captions
    assert [expander.label for expander in at.expander][:1] == ["Optimiser detail"]
    assert pl.from_pandas(at.dataframe[1].value).equals(tables["tuning_targets"])
    assert at.selectbox[-1].value == answer["trial"]
    assert "Confirmed targets" in " ".join(markdown.value for markdown in at.markdown)
    other = next(trial for trial in tables["tuning_front"].filter(pl.col("miss").is_not_null())["trial"]
                 if trial != answer["trial"])
    at.selectbox[-1].set_value(other).run()
    assert not at.exception, at.exception
    variant = tables["tuning_front"].filter(pl.col("trial") == other)["variant"][0]
    (report,) = [markdown.value for markdown in at.markdown if markdown.value.startswith("# cardlab report: ")]
    assert variant in report
    if answer["variant"] not in ("baseline", variant):
        assert answer["variant"] not in report  # only the picked candidate and the current data


def test_the_tuning_page_of_another_experiment_says_how_to_make_one(
        tuned: Tuned, small_experiment: SmallExperiment, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(small_experiment.folder, tmp_path / small_experiment.folder.name)
    monkeypatch.setenv("CARDLAB_RESULTS", str(tmp_path))
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.switch_page("pages/tuning.py")
    at.run()
    assert not at.exception, at.exception
    assert "This experiment is not a balance search. `cardlab tune experiments/tune/divvy_tune.toml` makes one." in (
        at.info[0].value)


def test_sql_sees_the_trials_tables_of_a_tuning_run(tuned: Tuned, capsys: pytest.CaptureFixture[str]) -> None:
    query = ("SELECT count(*) AS looks, count(DISTINCT target) AS targets "
             "FROM trials JOIN trial_targets USING (trial, stage, rung)")
    assert main(["sql", "--results", str(tuned.root), "--format", "csv", "divvy_small_tune", query]) == 0
    trials = read_table(tuned.folder, TRIALS).filter(pl.col("duplicate_of").is_null())
    assert capsys.readouterr().out.splitlines()[1] == f"{trials.height * 2},2"


def test_without_experiments_the_tuning_page_says_which_command_to_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDLAB_RESULTS", str(tmp_path))
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.switch_page("pages/tuning.py")
    at.run()
    assert not at.exception, at.exception
    assert "cardlab run experiments/divvy_baseline.toml" in at.info[0].value


def test_a_candidates_game_replays_from_the_search_folder(tuned: Tuned, capsys: pytest.CaptureFixture[str]) -> None:
    variant = read_state(tuned.folder)["answer"]["variant"]
    assert main(["sql", "--results", str(tuned.root), "--format", "json", "divvy_small_tune",
                 f"SELECT winners FROM games WHERE variant = '{variant}' AND game_index = 3"]) == 0
    winners = json.loads(capsys.readouterr().out)["winners"]
    assert main(["replay", "--results", str(tuned.root), "--experiment", "divvy_small_tune", "--variant", variant,
                 "--game-index", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"winners: {winners}")


def test_the_report_of_a_finished_search_says_finished_with_no_plan_of_games(tuned: Tuned) -> None:
    # Candidates play different numbers of games (successive halving): no "N of M planned".
    header = render_report(build_report(tuned.folder), "text", sections=["tuning"]).split("\n\n")[1]
    games = next(line for line in header.splitlines() if line.strip().startswith("games"))
    run = next(line for line in header.splitlines() if line.strip().startswith("run"))
    assert "planned" not in games
    assert "(a balance search: its candidates play different numbers of games)" in " ".join(header.split())
    assert run.split() == ["run", "finished"]


def test_the_experiments_overview_lists_a_finished_search_as_finished(tuned: Tuned) -> None:
    row = experiment_overview(tuned.root).filter(pl.col("experiment") == "divvy_small_tune").row(0, named=True)
    assert row["status"] == "finished" and row["games_planned"] == 0 and row["progress"] is None


def test_the_report_marks_the_cheaper_candidates_the_answer_leads_only_within_noise(
        tuned: Tuned, tmp_path: Path) -> None:
    folder = tmp_path / "divvy_small_tune"
    shutil.copytree(tuned.folder, folder)
    state = read_state(folder)
    answer = state["answer"]
    others = [row for row in read_table(folder, TRIALS).filter(pl.col("stage") == "confirm").to_dicts()
              if row["variant"] != answer["variant"]]
    # As choose_answer writes it for an answer that misses: a cheaper one whose interval overlaps.
    answer.update(all_met=False, within_noise=[{key: others[0][key] for key in (
        "trial", "variant", "cost", "miss", "miss_low", "miss_high")}])
    (folder / TUNING_FOLDER / STATE_FILE).write_text(json.dumps(state))
    table = render_report(build_report(folder), "text", sections=["tuning"])
    marked = [line.split() for line in table.splitlines() if line.strip().startswith(("ANSWER", "~"))]
    assert [row[0] for row in marked] == ["ANSWER", "~"] or [row[0] for row in marked] == ["~", "ANSWER"]
    assert next(row for row in marked if row[0] == "~")[2] == others[0]["variant"]
    assert "~: cheaper, and its miss interval overlaps the ANSWER's" in " ".join(table.split())


@pytest.mark.parametrize("where", ["a missing folder", "a folder"])
def test_an_export_that_cannot_be_written_is_refused_before_the_search_plays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    spec_file = tmp_path / "divvy_small_tune.toml"
    spec_file.write_text(SPEC)
    export = tmp_path / "nowhere" / "tuned.toml" if where == "a missing folder" else tmp_path
    assert main(["tune", str(spec_file), "--results", str(tmp_path / "results"), "--export", str(export)]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and error.startswith(f"cardlab: error: --export {export}: ")
    assert ("does not exist" if where == "a missing folder" else "is a folder") in error
    assert not (tmp_path / "results").exists()
