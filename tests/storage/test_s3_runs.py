"""A run to ``s3://`` (moto's server on loopback, real local Ray) writes the
same rows as the same run to a local folder, and every reader (catalog,
``cardlab report``, ``cardlab sql``, ``cardlab replay``) gives the same
answers from either place."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pyarrow.fs as pafs
import pytest

from analytics.catalog import open_catalog
from analytics.folders import list_experiments, resolve_experiment
from analytics.partials import CACHE_FOLDER, PAIRS_FOLDER
from cardlab.cli import main
from dataset.count_views import CACHE_VERSION, COUNT_VIEWS
from dataset.location import ObjectPath, results_path
from tests.conftest import small_paired_spec, write_experiment
from tests.embedded_ray import join_shared_ray
from tests.storage.conftest import ACCESS_KEY, SECRET_KEY, S3Server

SPEC = """
name = "s3_divvy"
game = "divvy"
games = 300
seed = 11
agents = ["heuristic", "random"]
rotate_seats = true
shard_size = 100

[variants.four_rounds]
"rules.rounds" = 4
"""

ORDERS = {"games": "variant, game_index", "players": "variant, game_index, seat",
          "cards": "variant, game_index, seat, card"}


@dataclass(frozen=True)
class TwinRuns:
    """The same experiment run once to a local folder and once to an S3 prefix."""

    spec_file: Path
    local: Path
    remote: str

    @property
    def remote_folder(self) -> str:
        """The experiment's URI."""
        return f"{self.remote}/s3_divvy"


@pytest.fixture(scope="module")
def twins(s3: S3Server, tmp_path_factory: pytest.TempPathFactory) -> TwinRuns:
    folder = tmp_path_factory.mktemp("twins")
    spec_file = folder / "s3_divvy.toml"
    spec_file.write_text(SPEC)
    runs = TwinRuns(spec_file=spec_file, local=folder / "results", remote=s3.uri("twins"))
    join_shared_ray()  # after the s3 fixture: its workers write to the server too
    for results in (str(runs.local), runs.remote):
        assert main(["run", str(spec_file), "--results", results, "--workers", "2", "--no-progress"]) == 0
    return runs


def _rows(folder: str | Path, table: str) -> list[tuple[object, ...]]:
    con = open_catalog(folder, metrics=False)
    try:
        return con.execute(f"SELECT * FROM {table} ORDER BY {ORDERS[table]}").fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("table", list(ORDERS))
def test_a_run_to_s3_writes_the_same_rows_as_the_same_run_to_a_local_folder(twins: TwinRuns, table: str) -> None:
    remote = _rows(twins.remote_folder, table)
    assert remote == _rows(twins.local / "s3_divvy", table)
    if table == "games":
        assert len(remote) == 600


def test_the_results_are_objects_under_the_prefix_with_no_local_folder_made(twins: TwinRuns, s3: S3Server) -> None:
    keys = sorted(info.path for info in s3.filesystem().get_file_info(
        pafs.FileSelector(f"{s3.bucket}/twins/s3_divvy", recursive=True)) if info.is_file)
    prefix = f"{s3.bucket}/twins/s3_divvy/"
    assert f"{prefix}spec.json" in keys and f"{prefix}run.json" in keys
    assert sum(key.startswith(f"{prefix}_manifest/") for key in keys) == 6
    assert f"{prefix}games/variant=four_rounds/part-four_rounds-2p-0000000200.parquet" in keys
    assert not any(key.endswith(".tmp") or key.endswith(".lock") for key in keys)
    assert not Path(twins.remote).exists() and not Path("s3:").exists()


def test_no_credential_is_written_into_the_results(twins: TwinRuns, s3: S3Server) -> None:
    filesystem = s3.filesystem()
    infos = filesystem.get_file_info(
        pafs.FileSelector(f"{s3.bucket}/twins", recursive=True))
    for info in infos:
        if info.is_file:
            with filesystem.open_input_stream(info.path) as stream:
                data = stream.read()
            assert SECRET_KEY.encode() not in data and ACCESS_KEY.encode() not in data, info.path


def test_report_on_the_s3_uri_gives_the_numbers_of_the_local_report(
        twins: TwinRuns, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["report", "s3_divvy", "--results", twins.remote, "--format", "json"]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert main(["report", str(twins.local / "s3_divvy"), "--format", "json"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert remote.pop("folder") == twins.remote_folder
    assert local.pop("folder") == str(twins.local / "s3_divvy")
    # Wall seconds per game differ between any two runs; every other number must not.
    for report in (remote, local):
        for row in report["tables"]["agent_cost"]:
            assert row.pop("seconds_per_game") > 0 and row.pop("ms_per_decision") > 0
    assert remote == local
    assert remote["games_played"] == 600


def test_the_shard_tasks_counts_are_objects_beside_the_results_and_the_report_reads_only_them(
        twins: TwinRuns, s3: S3Server, capsys: pytest.CaptureFixture[str]) -> None:
    prefix = f"{s3.bucket}/twins/s3_divvy/counts/"
    counted = [info.path for info in s3.filesystem().get_file_info(pafs.FileSelector(prefix, recursive=True))
               if info.is_file]
    assert len(counted) == 6 * len(COUNT_VIEWS)
    assert f"{prefix}card_counts/variant=four_rounds/part-four_rounds-2p-0000000200.parquet" in counted
    assert main(["report", "s3_divvy", "--results", twins.remote]) == 0
    capsys.readouterr()
    assert not results_path(f"{twins.remote_folder}/_analytics/{CACHE_VERSION}").exists()  # nothing counted again


def test_a_bucket_experiment_without_task_counts_is_counted_once_into_a_cache_beside_it(
        twins: TwinRuns, s3: S3Server, capsys: pytest.CaptureFixture[str]) -> None:
    # The experiment as a cardlab before shard tasks counted their rows left it, under another prefix.
    filesystem = s3.filesystem()
    source, target = f"{s3.bucket}/twins/s3_divvy", f"{s3.bucket}/uncounted/s3_divvy"
    for info in filesystem.get_file_info(pafs.FileSelector(source, recursive=True)):
        relative = info.path[len(source) + 1:]
        if not info.is_file or relative.startswith(("counts/", "_analytics/")):
            continue
        with filesystem.open_input_stream(info.path) as stream:
            data = stream.read()
        if relative.startswith("_manifest/"):
            entry = json.loads(data)
            del entry["counts"], entry["count_seconds"]
            data = json.dumps(entry).encode()
        with filesystem.open_output_stream(f"{target}/{relative}") as stream:
            stream.write(data)
    capsys.readouterr()
    assert main(["report", "s3_divvy", "--results", s3.uri("uncounted"), "--format", "json"]) == 0
    uncounted = json.loads(capsys.readouterr().out)
    cache = results_path(f"{s3.uri('uncounted')}/s3_divvy/_analytics/{CACHE_VERSION}")
    assert isinstance(cache, ObjectPath)
    shards = sorted(path.name for path in cache.iterdir())
    assert len(shards) == 6
    assert (cache / shards[0] / "key.json").is_file()
    assert main(["report", "s3_divvy", "--results", twins.remote, "--format", "json"]) == 0
    counted = json.loads(capsys.readouterr().out)
    for report in (uncounted, counted):
        report.pop("folder")
        for row in report["tables"]["agent_cost"]:  # wall-clock numbers: they differ between any two runs
            del row["seconds_per_game"], row["ms_per_decision"]
    assert uncounted == counted


def test_sql_on_the_s3_uri_gives_the_answers_of_local_sql(
        twins: TwinRuns, capsys: pytest.CaptureFixture[str]) -> None:
    query = "SELECT variant, count(*) AS games, sum(turns) AS turns FROM games GROUP BY variant ORDER BY variant"
    capsys.readouterr()
    assert main(["sql", twins.remote_folder, query, "--format", "csv"]) == 0
    remote = capsys.readouterr().out
    assert main(["sql", "s3_divvy", query, "--format", "csv", "--results", str(twins.local)]) == 0
    assert remote == capsys.readouterr().out
    assert remote.splitlines()[0] == "variant,games,turns" and len(remote.splitlines()) == 3
    metric = "SELECT * FROM seat_stats ORDER BY ALL"
    assert main(["sql", "s3_divvy", metric, "--format", "json", "--results", twins.remote]) == 0
    remote = capsys.readouterr().out
    assert main(["sql", str(twins.local / "s3_divvy"), metric, "--format", "json"]) == 0
    assert remote == capsys.readouterr().out and remote


def test_replay_of_an_s3_experiment_prints_the_trace_of_the_local_one(
        twins: TwinRuns, capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["replay", "--experiment", "s3_divvy", "--variant", "four_rounds", "--game-index", "7", "--json"]
    capsys.readouterr()
    assert main([*arguments, "--results", twins.remote]) == 0
    remote = capsys.readouterr().out
    assert main([*arguments, "--results", str(twins.local)]) == 0
    assert remote == capsys.readouterr().out
    assert len(remote.splitlines()) > 5


def test_the_catalog_lists_and_resolves_experiments_in_the_bucket(twins: TwinRuns) -> None:
    found = list_experiments(twins.remote)
    assert [str(path) for path in found] == [twins.remote_folder]
    assert resolve_experiment("s3_divvy", twins.remote) == found[0]
    assert resolve_experiment(twins.remote_folder, "results") == found[0]


def test_the_catalog_file_command_says_it_needs_local_results(
        twins: TwinRuns, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["catalog", "--results", twins.remote]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith(f"cardlab: error: {twins.remote}: `cardlab catalog` needs local results")
    assert len(error.splitlines()) == 1


def test_a_rerun_to_s3_without_resume_or_overwrite_is_refused_and_overwrite_starts_again(
        twins: TwinRuns, s3: S3Server, capsys: pytest.CaptureFixture[str]) -> None:
    remote = s3.uri("overwrite")
    spec_file = twins.spec_file.with_name("small.toml")
    spec_file.write_text(SPEC.replace("games = 300", "games = 20").replace("shard_size = 100", "shard_size = 10"))
    base = ["run", str(spec_file), "--results", remote, "--workers", "2", "--no-progress"]
    assert main(base) == 0
    capsys.readouterr()
    assert main(base) == 2
    assert "results already exist; use --resume" in capsys.readouterr().err
    marker = results_path(f"{remote}/s3_divvy/_manifest/baseline-2p-0000000000.json")
    stray = results_path(f"{remote}/s3_divvy/games/variant=gone/part-x.parquet")
    stray.write_bytes(b"left over")
    assert main([*base, "--overwrite"]) == 0
    assert marker.is_file() and not stray.exists()
    assert "shards: 4 played of 4" in capsys.readouterr().out
    assert main([*base, "--resume"]) == 0
    assert "shards: 0 played (4 already done) of 4" in capsys.readouterr().out


def test_output_never_shows_the_secret_key(twins: TwinRuns, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    main(["report", "s3_divvy", "--results", twins.remote])
    main(["sql", "s3_divvy", "SELECT count(*) FROM nope", "--results", twins.remote])
    main(["report", "missing", "--results", twins.remote])
    output = capsys.readouterr()
    assert SECRET_KEY not in output.out + output.err and ACCESS_KEY not in output.out + output.err


def test_a_paired_bucket_experiment_caches_its_paired_sums_beside_it_and_reports_as_locally(
        s3: S3Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    local = write_experiment(small_paired_spec("s3_paired"), tmp_path)
    filesystem = s3.filesystem()
    for path in sorted(local.rglob("*")):
        if path.is_file():
            with filesystem.open_output_stream(f"{s3.bucket}/paired/s3_paired/{path.relative_to(local)}") as stream:
                stream.write(path.read_bytes())
    reports = []
    for results in (s3.uri("paired"), str(tmp_path)):
        capsys.readouterr()
        assert main(["report", "s3_paired", "--results", results, "--format", "json"]) == 0
        report = json.loads(capsys.readouterr().out)
        report.pop("folder")
        for row in report["tables"]["agent_cost"]:  # wall-clock numbers: they differ between any two runs
            del row["seconds_per_game"], row["ms_per_decision"]
        reports.append(report)
    assert reports[0] == reports[1]
    assert {row["test"] for row in reports[0]["tables"]["variant_deltas"]} >= {"mcnemar", "paired_z"}
    pairs = results_path(f"{s3.uri('paired')}/s3_paired/{CACHE_FOLDER}/{CACHE_VERSION}/{PAIRS_FOLDER}")
    assert isinstance(pairs, ObjectPath)
    assert sorted(path.name for path in pairs.iterdir()) == [
        "four_rounds-2p-0000000000+baseline-2p-0000000000", "four_rounds-2p-0000000100+baseline-2p-0000000100"]
