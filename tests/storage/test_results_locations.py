"""What ``--results`` / ``$CARDLAB_RESULTS`` accept: local folders, ``file://`` and
``s3://`` URIs; anything else is a one-line error with exit code 2."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from cardlab.cli import main
from dataset.location import ObjectPath, ResultsLocationError, results_path
from tests.storage.conftest import SECRET_KEY, S3Server

DIVVY = str(Path(__file__).resolve().parents[2] / "experiments" / "divvy_baseline.toml")


def test_a_plain_path_and_a_file_uri_are_local_folders() -> None:
    assert results_path("results") == Path("results")
    assert results_path("file:///data/results") == Path("/data/results")


def test_an_s3_uri_is_an_object_path_that_shows_and_pickles_as_its_uri_only(s3: S3Server) -> None:
    path = results_path("s3://bucket/some/prefix/")
    assert isinstance(path, ObjectPath)
    assert str(path) == "s3://bucket/some/prefix"
    assert str(path / "exp" / "spec.json") == "s3://bucket/some/prefix/exp/spec.json"
    assert (path / "exp").name == "exp" and (path / "a.json").stem == "a" and path.parent.name == "some"
    data = pickle.dumps(path)
    assert SECRET_KEY.encode() not in data
    assert pickle.loads(data) == path


@pytest.mark.parametrize("uri", ["gs://bucket/x", "ftp://host/results", "hdfs://nn/results"])
def test_an_unknown_scheme_is_refused_with_one_line_and_exit_2(
        uri: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ResultsLocationError):
        results_path(uri)
    assert main(["report", "anything", "--results", uri]) == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert f"{uri}: unsupported results location" in error
    assert "expected a local folder, file:///path or s3://bucket/prefix" in error


def test_an_unknown_scheme_in_cardlab_results_is_refused_too(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CARDLAB_RESULTS", "azure://container/results")
    assert main(["sql", "anything", "SELECT 1"]) == 2
    assert "azure://container/results: unsupported results location" in capsys.readouterr().err


def test_credentials_in_the_uri_are_refused_and_not_echoed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "x", "--results", "s3://key:hunter2@bucket/results"]) == 2
    error = capsys.readouterr().err
    assert "credentials belong in AWS_* environment variables" in error and "hunter2" not in error


def test_an_experiment_given_by_an_unknown_uri_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sql", "gs://bucket/exp", "SELECT 1"]) == 2
    assert "gs://bucket/exp: unsupported results location" in capsys.readouterr().err


def test_a_run_to_a_missing_bucket_says_so(s3: S3Server, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", DIVVY, "--results", "s3://no-such-bucket/results", "--no-progress"]) == 2
    error = capsys.readouterr().err.strip()
    assert error == ("cardlab: error: --results s3://no-such-bucket/results: s3://no-such-bucket: no such bucket; "
                     "create it first (e.g. `mc mb` or `aws s3 mb`)")


def test_a_missing_experiment_in_the_bucket_names_the_uri(s3: S3Server, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "nope", "--results", s3.uri("empty")]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith(f"cardlab: error: {s3.uri('empty')}/nope: no such folder")
