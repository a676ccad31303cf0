"""A results disk that fails mid-run: full (ENOSPC), turned read-only (EROFS), permission lost
(EACCES). Each ends the run with exit code 1 and one line naming the folder, the cause and the
``--resume`` that finishes it, no traceback; ``run.json`` says ``failed`` with that line where
the disk still takes it (the line says when it does not, and when the lock stays); nothing
half-written is left for ``cardlab verify`` to count, or the line says what the disk kept. Once
the disk is mended, ``--resume`` finishes the run, byte for byte as a run that never failed.

The disk is a small tmpfs in a private mount namespace (``tests/storage/failing_disk.py``,
started under ``unshare -rm``), so these tests need no privilege where the kernel allows
user namespaces; where it does not, they are skipped, saying why."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dataset.storage import MANIFEST_FOLDER
from experiments.spec import load_spec
from tests.storage.failing_disk import CASES, ROOT
from workers.shard import run_shard

NAME = "failing"
SPEC = f"""name = "{NAME}"
game = "divvy"
games = 4000
seed = 7
player_counts = [2]
agents = ["heuristic", "random"]
shard_size = 125

[variants.four_rounds]
"rules.rounds" = 4
"""
# 64 shards of 125 games: the failing disk meets the run with most of them still to write.
TIMINGS = {"play_seconds", "count_seconds", "write_seconds", "node"}
"""What a manifest entry says of the run that wrote it, not of the shard."""
CAUSES = {"full": ("no space left on the disk (ENOSPC)", "free some space", "No space left on device"),
          "read-only": ("the file system turned read-only (EROFS)", "make it writable again",
                        "Read-only file system"),
          "permission": ("permission to write was lost (EACCES)", "give this user write access to it again",
                         "Permission denied")}


def _private_mounts() -> str | None:
    """Why this machine cannot give a test a private mount namespace (``unshare -rm``), or None."""
    if shutil.which("unshare") is None:
        return "no unshare command (util-linux)"
    tried = subprocess.run(["unshare", "-rm", "true"], capture_output=True, text=True)
    return None if tried.returncode == 0 else f"`unshare -rm` is not allowed here ({tried.stderr.strip()})"


@pytest.fixture(scope="module")
def spec_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("spec") / f"{NAME}.toml"
    path.write_text(SPEC)
    return path


@pytest.fixture(scope="module")
def uninterrupted(spec_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The experiment's folder as a run that never failed writes it: every shard through the
    shard task's own code (``workers.shard.run_shard``), without Ray."""
    spec = load_spec(spec_file)
    folder = tmp_path_factory.mktemp("uninterrupted") / NAME
    for shard in spec.shards():
        run_shard(spec, shard, folder)
    return folder


def _shard_files(folder: Path) -> dict[str, bytes]:
    """Every table and count file of ``folder``, by its path under it."""
    return {str(path.relative_to(folder)): path.read_bytes() for table in ("games", "players", "cards", "counts")
            for path in sorted((folder / table).rglob("*")) if path.is_file()}


def _manifest(folder: Path) -> dict[str, dict[str, Any]]:
    """The manifest entries of ``folder`` without what they say of the run that wrote them."""
    return {path.name: {key: value for key, value in json.loads(path.read_text()).items() if key not in TIMINGS}
            for path in sorted((folder / MANIFEST_FOLDER).iterdir())}


def _fail_and_resume(case: str, spec_file: Path, work: Path) -> dict[str, Any]:
    work.mkdir()
    subprocess.run(["unshare", "-rm", sys.executable, "-m", "tests.storage.failing_disk", case, str(spec_file),
                    str(work)], cwd=ROOT, check=True, timeout=1200)
    report: dict[str, Any] = json.loads((work / "report.json").read_text())
    return report


@pytest.mark.parametrize("case", CASES)
def test_a_failing_disk_ends_the_run_in_one_line_and_resume_finishes_it_byte_for_byte(
        case: str, spec_file: Path, uninterrupted: Path, tmp_path: Path) -> None:
    if (why := _private_mounts()) is not None:
        pytest.skip(f"the failing disk is a tmpfs in a private mount namespace: {why}")
    report = _fail_and_resume(case, spec_file, tmp_path / "work")
    failed, after = report["failed"], report["after failure"]
    folder = Path(report["results"]) / NAME
    what, advice, strerror = CAUSES[case]
    assert failed["exit"] == 1, failed["stderr"]
    assert "Traceback" not in failed["stderr"], failed["stderr"]
    errors = [line for line in failed["stderr"].splitlines() if line.startswith("cardlab: error: ")]
    assert len(errors) == 1 and failed["stderr"].endswith(errors[0] + "\n"), failed["stderr"]
    line = errors[0].removeprefix("cardlab: error: ")
    repair = f"cardlab run {spec_file} --resume --results {report['results']}"
    said = (f"{folder}: {what}; the run stopped and its {after['finished']:,} finished shard(s) are kept; {advice}, "
            f"then `{repair}` finishes it")
    assert line.startswith(said), line
    assert 0 < after["finished"] < 64
    notes = line.removeprefix(said)
    verify = after["verify"]
    if case == "full":
        # Everything the failed writes held was removed: room again for run.json and the lock's removal.
        assert notes == ""
        assert after["run.json"]["status"] == f"failed: {said}"
        assert not after["lock"]
        assert (verify["exit"], verify["report"]["problems"]) == (0, [])
    else:
        # The disk takes no more writes: the line says what it kept.
        assert after["run.json"]["status"] == "running"
        assert f"; {folder / 'run.json'} could not be updated ({strerror}) and still says running" in notes
        assert after["lock"]
        assert (f"; its lock {folder / '.lock'} could not be removed ({strerror}); the next run takes it over, as "
                "this one has ended") in notes
        stuck = re.search(r"; (\d+) half-written file\(s\) could not be removed \(`--resume` removes them\)", notes)
        problems = verify["report"]["problems"]
        assert len(problems) == (int(stuck.group(1)) if stuck else 0), (notes, problems)
        half_written = ("a temporary file", "not in the manifest")
        assert all(problem["kind"] == "unexpected" and problem["detail"].startswith(half_written)
                   for problem in problems)
    resumed, done = report["resumed"], report["after resume"]
    assert resumed["exit"] == 0 and "Traceback" not in resumed["stderr"], resumed["stderr"]
    assert done["run.json"]["status"] == "finished" and not done["lock"]
    assert (done["verify"]["exit"], done["verify"]["report"]["problems"]) == (0, [])
    resumed_folder = tmp_path / "work" / "after" / NAME
    assert _shard_files(resumed_folder) == _shard_files(uninterrupted)
    assert _manifest(resumed_folder) == _manifest(uninterrupted)
