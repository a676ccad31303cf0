"""Damaged shard objects in ``s3://`` results: every reader refuses them in one line
(also once the objects were remembered as verified: a rewrite is a new PUT with a
new modification time), and ``cardlab verify`` lists them."""

from __future__ import annotations

import time

import pytest

from cardlab.cli import main
from dataset import integrity
from dataset.count_views import COUNT_VIEWS
from dataset.location import results_path
from dataset.storage import table_path
from tests.conftest import small_spec, write_experiment
from tests.storage.conftest import S3Server

SHARD = "baseline-2p-0000000100"


def test_a_rewritten_shard_object_is_refused_by_readers_and_listed_by_verify(
        s3: S3Server, capsys: pytest.CaptureFixture[str]) -> None:
    root = s3.uri("damaged-readers")
    folder = write_experiment(small_spec(), results_path(root))  # type: ignore[arg-type]
    time.sleep(integrity.RACY_SECONDS + 0.1)  # old enough to be remembered once verified
    assert main(["report", "divvy_small", "--results", root]) == 0
    assert (folder / integrity.CACHE_FILE).is_file()  # remembered: the next report hashes nothing
    capsys.readouterr()
    time.sleep(1.1)  # object stores keep modification times in whole seconds
    damaged = table_path(folder, "games", "baseline", SHARD)
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))  # same size
    integrity._remembered.clear()
    for arguments in (["report", "divvy_small"], ["sql", "divvy_small", "SELECT count(*) FROM games"]):
        assert main([*arguments, "--results", root]) == 2
        error = capsys.readouterr().err.strip()
        assert error == (f"cardlab: error: shard {SHARD}: {damaged}: checksum differs from the manifest (damaged); "
                         f"nothing is read until `cardlab run SPEC --resume --results {root}` repairs it")
    assert main(["verify", "divvy_small", "--results", root]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"damaged     {damaged}: checksum differs from the manifest (damaged)"
    files = 6 * (3 + len(COUNT_VIEWS))  # 3 tables and the count views of each shard
    assert lines[1].startswith(f"{folder}: 1 damaged (6 finished shard(s), {files} file(s), ")
